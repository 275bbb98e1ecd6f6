#!/bin/sh
# SPDX-License-Identifier: MIT
# Enforces the dependency rule of docs/architecture.md by grepping includes:
#   util <- event <- perf_event <- ring <- data <- aggregate <- export
#   symbol uses only util; lib/bpf may use util, event, perf_event, ring;
#   lib/live (live profiling: the BPF sampler into call trees) may use
#   aggregate, symbol and bpf and what they use;
#   lib/api (the public functions over them all) may use every layer;
#   lib/ never includes cli/; public headers include only libc/uapi headers.
# Also rejects banned unsafe libc calls anywhere in lib/ and cli/.
set -u
cd "$(dirname "$0")/.."
. tests/lib/suite.sh
suite_begin layers

allowed() { # allowed <layer> -> space separated layers it may include
	case $1 in
	util) echo "util" ;;
	event) echo "util event" ;;
	perf_event) echo "util event perf_event" ;;
	ring) echo "util event perf_event ring" ;;
	data) echo "util event perf_event ring data" ;;
	aggregate) echo "util event perf_event ring data aggregate symbol" ;;
	export) echo "util event perf_event ring data aggregate symbol export" ;;
	symbol) echo "util symbol" ;;
	bpf) echo "util event perf_event ring bpf" ;;
	live) echo "util event perf_event ring data aggregate symbol bpf live" ;;
	agent) echo "util event perf_event ring data aggregate symbol export bpf live agent" ;;
	api) echo "util event perf_event ring data aggregate symbol export bpf live api" ;;
	*) echo "" ;;
	esac
}

for dir in lib/*/; do
	layer=$(basename "$dir")
	ok=$(allowed "$layer")
	if [ -z "$ok" ]; then
		fail "lib/$layer" "unknown layer (add it to scripts/check-layers.sh and docs/architecture.md)"
		continue
	fi
	bad=""
	for f in "$dir"*.[ch]; do
		[ -e "$f" ] || continue
		for inc in $(sed -nE 's/^[[:space:]]*#[[:space:]]*include[[:space:]]+"([^"]+)".*/\1/p' "$f"); do
			case $inc in
			*/*) dep=${inc%%/*} ;;
			*) continue ;; # same-directory include
			esac
			case " $ok " in
			*" $dep "*) ;;
			*) bad="$bad $f->$inc" ;;
			esac
		done
	done
	if [ -n "$bad" ]; then fail "lib/$layer" "forbidden includes:$bad"; else pass "lib/$layer"; fi
done

bad=$(grep -rlE '#[[:space:]]*include[[:space:]]+"(\.\./)*cli/' lib include 2>/dev/null)
if [ -n "$bad" ]; then fail "lib-not-cli" "$bad"; else pass "lib-not-cli"; fi

bad=$(grep -nE '#[[:space:]]*include[[:space:]]+"' include/pmuscope/*.h | grep -v 'pmuscope/' || true)
bad2=$(grep -nE '#[[:space:]]*include[[:space:]]+<' include/pmuscope/*.h | grep -vE '<(linux/[a-z_]+|std[a-z]+|stddef|stdint|stdbool|stdarg|stdio|sys/types|time|unistd|pmuscope/[a-z_]+)\.h>' || true)
if [ -n "$bad$bad2" ]; then fail "public-headers" "$bad $bad2"; else pass "public-headers"; fi

bad=$(grep -nE '(^|[^_a-z])(strcpy|strcat|sprintf|vsprintf|gets|atoi)[[:space:]]*\(' lib/*/*.c cli/*.c 2>/dev/null || true)
if [ -n "$bad" ]; then fail "banned-functions" "$bad"; else pass "banned-functions"; fi

# Every PMS_API function of the public headers is in the version script, and nothing else is.
api=$(sed -nE 's/^PMS_API[^(]*[ *](pms_[a-z0-9_]+)\(.*/\1/p' include/pmuscope/*.h | sort)
map=$(sed -nE 's/^[[:space:]]+(pms_[a-z0-9_]+);$/\1/p' lib/libpmuscope.map | sort)
if [ -z "$api" ]; then
	fail "version-script" "no PMS_API declarations found in include/pmuscope/"
elif [ "$api" = "$map" ]; then
	pass "version-script lists the $(echo "$api" | wc -l) PMS_API functions of include/pmuscope/"
else
	fail "version-script" "PMS_API vs lib/libpmuscope.map: $(printf '%s\n' "$api" >"${TMPDIR:-/tmp}/pms-api.$$"; printf '%s\n' "$map" | diff "${TMPDIR:-/tmp}/pms-api.$$" - | grep '^[<>]' | tr '\n' ' '; rm -f "${TMPDIR:-/tmp}/pms-api.$$")"
fi

# docs/library.md's reference names every exported function.
missing=""
for f in $api; do
	grep -q "\`$f(" docs/library.md || missing="$missing $f"
done
if [ -n "$missing" ]; then fail "library-doc" "docs/library.md does not name:$missing"; else pass "library-doc names every exported function"; fi

# The public headers must stand alone in strict C99 and in C++.
tmp=$(mktemp -d)
for h in include/pmuscope/*.h; do
	printf '#include <pmuscope/%s>\n#include <pmuscope/%s>\nint main(void) { return 0; }\n' \
		"$(basename "$h")" "$(basename "$h")" >"$tmp/t.c"
	if cc -std=c99 -pedantic -Wall -Wextra -Werror -Iinclude -c "$tmp/t.c" -o "$tmp/t.o" 2>"$tmp/err" &&
		{ ! command -v c++ >/dev/null || c++ -x c++ -std=c++11 -pedantic -Wall -Werror -Iinclude -c "$tmp/t.c" -o "$tmp/t.o" 2>"$tmp/err"; }; then
		pass "header $(basename "$h") compiles alone (C99, C++11)"
	else
		fail "header $(basename "$h")" "$(cat "$tmp/err")"
	fi
done
rm -rf "$tmp"

suite_end
