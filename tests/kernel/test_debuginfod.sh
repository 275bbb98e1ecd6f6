# SPDX-License-Identifier: MIT
# Kernel test of debuginfod lookups (lib/symbol/debuginfod): a small program built here,
# its debug info split off and the binary stripped, recorded with `pmuscope record`. Without
# DEBUGINFOD_URLS the report shows addresses and counts the samples as unsymbolized
# (stripped binary); with a real `debuginfod -F` server on 127.0.0.1 serving the debug file,
# the same report names the hot function with the share its addresses had (nm of the debug
# file is the oracle). Then the binary is moved away: only the server has it, and the report
# names it again through the executable lookup. With the server gone, the report says the
# binary is missing. The server is stopped whatever happens (trap).
# Sourced by tests/kernel/run.sh; every function and variable is dd_-prefixed.

dd_srv_pid=
dd_port=

dd_stop_server() {
	if [ -n "$dd_srv_pid" ]; then
		kill "$dd_srv_pid" 2>/dev/null
		wait "$dd_srv_pid" 2>/dev/null
		dd_srv_pid=
	fi
}

# dd_http_wait URL... : every URL answers 200 within the deadline (the server's first scan
# has seen the files), polled rather than slept for, as a loaded machine scans slowly.
dd_http_wait() {
	no_proxy=127.0.0.1 python3 - "$@" <<'EOF'
import sys, time, urllib.request, urllib.error
deadline = time.monotonic() + 90
for url in sys.argv[1:]:
    while True:
        try:
            with urllib.request.urlopen(url, timeout=5) as r:
                if r.status == 200:
                    break
        except (urllib.error.URLError, OSError):
            pass
        if time.monotonic() > deadline:
            sys.exit(1)
        time.sleep(0.1)
EOF
}

# dd_start_server DIR: debuginfod scanning DIR on a free port of 127.0.0.1 (it listens on
# all addresses; we only ever ask 127.0.0.1). A port taken between choosing and binding is
# retried with another.
dd_start_server() {
	for dd_try in 1 2 3; do
		dd_port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
		rm -f "$dd_tmp"/db.sqlite*
		debuginfod -F -d "$dd_tmp/db.sqlite" -p "$dd_port" -t 0 -g 0 "$1" >"$dd_tmp/server.log" 2>&1 &
		dd_srv_pid=$!
		if dd_http_wait "http://127.0.0.1:$dd_port/metrics"; then
			return 0
		fi
		dd_stop_server
	done
	return 1
}

# dd_report NAME [VAR=VALUE...]: report of the recording into $dd_tmp/NAME.txt (stderr in
# NAME.err), with the recording's build-id cache and debug root empty and the environment
# given (DEBUGINFOD_URLS unset unless given).
dd_report() {
	dd_name=$1
	shift
	env -u DEBUGINFOD_URLS -u DEBUGINFOD_CACHE_PATH -u DEBUGINFOD_TIMEOUT no_proxy=127.0.0.1 \
		PMS_BUILDID_DIR="$dd_tmp/bidc" PMS_DEBUG_ROOT="$dd_tmp/nodebug" "$@" \
		"$PMUSCOPE" report --stdio --no-children -i "$dd_tmp/hot.data" \
		>"$dd_tmp/$dd_name.txt" 2>"$dd_tmp/$dd_name.err"
}

# dd_share FILE SYM: the percentage of SYM's row in the program's rows ("" if none).
dd_share() {
	awk -v s="$2" '$3 == "hot" && $4 == "[.]" && $5 == s { sub(/%/, "", $1); print $1; exit }' "$1"
}

# dd_addr_share FILE START SIZE: sum of the program's address rows in [START, START+SIZE) (hex).
dd_addr_share() {
	awk -v lo="$2" -v sz="$3" '
	function hex(h,    i, c, v) { h = tolower(h); sub(/^0x/, "", h); v = 0
		for (i = 1; i <= length(h); i++) { c = index("0123456789abcdef", substr(h, i, 1)) - 1; v = v * 16 + c }
		return v }
	BEGIN { a = hex(lo); b = a + hex(sz) }
	$3 == "hot" && $4 == "[.]" && $5 ~ /^0x/ { v = hex($5); if (v >= a && v < b) { sub(/%/, "", $1); t += $1 } }
	END { printf "%.2f\n", t }' "$1"
}

dd_main() {
	if ! command -v debuginfod >/dev/null 2>&1; then
		skip "debuginfod" "the debuginfod server is not installed (Debian package debuginfod)"
		return
	fi
	dd_tmp=$(mktemp -d)
	trap 'dd_stop_server; rm -rf "$dd_tmp"' EXIT
	trap 'dd_stop_server; rm -rf "$dd_tmp"; exit 130' INT
	trap 'dd_stop_server; rm -rf "$dd_tmp"; exit 143' TERM
	dd_cases
	dd_stop_server
	trap - EXIT INT TERM
	rm -rf "$dd_tmp"
}

dd_cases() {
	mkdir -p "$dd_tmp/app" "$dd_tmp/srv/bin" "$dd_tmp/bidc" "$dd_tmp/nodebug"
	# three quarters of the work in dd_hot_spin, whatever CPU the machine gives
	cat >"$dd_tmp/hot.c" <<'EOF'
#include <stdint.h>
volatile uint64_t sink;
__attribute__((noinline)) void dd_hot_spin(uint64_t n) { for (uint64_t i = 0; i < n; i++) sink += i * 7; }
__attribute__((noinline)) void dd_cool_spin(uint64_t n) { for (uint64_t i = 0; i < n; i++) sink += i * 5; }
int main(void) { dd_hot_spin(300000000ULL); dd_cool_spin(100000000ULL); return 0; }
EOF
	dd_bin=$dd_tmp/app/hot
	if ! cc -g -O1 -fno-omit-frame-pointer -Wl,--build-id -o "$dd_bin" "$dd_tmp/hot.c" 2>"$dd_tmp/cc.err" ||
	   ! objcopy --only-keep-debug "$dd_bin" "$dd_tmp/srv/hot.debug" ||
	   ! strip --strip-all "$dd_bin" ||
	   ! objcopy --add-gnu-debuglink="$dd_tmp/srv/hot.debug" "$dd_bin"; then
		fail "debuginfod: build the stripped program" "$(head -n 3 "$dd_tmp/cc.err")"
		return
	fi
	# the server also has the stripped executable, for when the one on disk is gone
	cp "$dd_bin" "$dd_tmp/srv/bin/hot"
	dd_bid=$(readelf -n "$dd_bin" | awk '/Build ID:/ { print $3; exit }')
	dd_sym=$(nm -S "$dd_tmp/srv/hot.debug" | awk '$4 == "dd_hot_spin" { print $1, $2; exit }')
	if [ -z "$dd_bid" ] || [ -z "$dd_sym" ] || [ -n "$(nm "$dd_bin" 2>/dev/null)" ]; then
		fail "debuginfod: the program" "build-id '$dd_bid', dd_hot_spin in the debug file '$dd_sym', symbols left in the binary: $(nm "$dd_bin" 2>/dev/null | head -n 2)"
		return
	fi
	if ! "$PMUSCOPE" record -N -e cpu-clock -o "$dd_tmp/hot.data" -- "$dd_bin" >/dev/null 2>"$dd_tmp/rec.err"; then
		fail "debuginfod: record" "$(tail -n 2 "$dd_tmp/rec.err")"
		return
	fi

	# 1. no servers: addresses, counted as a stripped binary's samples
	dd_report none
	dd_addr=$(dd_addr_share "$dd_tmp/none.txt" $dd_sym)
	if [ -z "$(dd_share "$dd_tmp/none.txt" dd_hot_spin)" ] &&
	   awk -v s="$dd_addr" 'BEGIN { exit !(s >= 50) }' &&
	   grep -q '^#   unsymbolized: [1-9][0-9]* samples (.*stripped binary: [1-9]' "$dd_tmp/none.txt" &&
	   grep -q "^#   stripped binary: $dd_bin ([1-9][0-9]* samples): .*DEBUGINFOD_URLS" "$dd_tmp/none.txt"; then
		pass "debuginfod: without DEBUGINFOD_URLS, addresses ($dd_addr% in dd_hot_spin's range) and a stripped-binary count"
	else
		fail "debuginfod: without DEBUGINFOD_URLS" "$dd_addr% in dd_hot_spin's range; $(grep -E 'unsymbolized|stripped|dd_hot' "$dd_tmp/none.txt" | head -n 3)"
	fi

	if ! dd_start_server "$dd_tmp/srv"; then
		fail "debuginfod: server" "debuginfod did not answer on 127.0.0.1: $(tail -n 3 "$dd_tmp/server.log")"
		return
	fi
	if ! dd_http_wait "http://127.0.0.1:$dd_port/buildid/$dd_bid/debuginfo" \
			  "http://127.0.0.1:$dd_port/buildid/$dd_bid/executable"; then
		fail "debuginfod: server scan" "build-id $dd_bid not served: $(tail -n 3 "$dd_tmp/server.log")"
		return
	fi
	dd_urls=http://127.0.0.1:$dd_port

	# 2. the debug file from the server: the hot function named, with its addresses' share
	dd_report debuginfo DEBUGINFOD_URLS="$dd_urls" DEBUGINFOD_CACHE_PATH="$dd_tmp/cache1" DEBUGINFOD_PROGRESS=1
	dd_got=$(dd_share "$dd_tmp/debuginfo.txt" dd_hot_spin)
	if [ -n "$dd_got" ] && awk -v a="$dd_got" -v b="$dd_addr" 'BEGIN { d = a - b; exit !(d < 0.5 && d > -0.5) }' &&
	   ! grep -q "stripped binary: $dd_bin" "$dd_tmp/debuginfo.txt" &&
	   [ -s "$dd_tmp/cache1/$dd_bid/debuginfo" ] && [ ! -e "$dd_tmp/cache1/$dd_bid/executable" ]; then
		pass "debuginfod: debug file fetched by build-id, dd_hot_spin $dd_got% (its addresses had $dd_addr%)"
	else
		fail "debuginfod: debug file" "dd_hot_spin '$dd_got'% vs $dd_addr%; $(grep -E 'unsymbolized|stripped|dd_' "$dd_tmp/debuginfo.txt" | head -n 3); cache: $(ls "$dd_tmp/cache1/$dd_bid" 2>&1)"
	fi
	# libdebuginfod's "Downloading..." (DEBUGINFOD_PROGRESS) is not printed: the library never prints
	if ! grep -q 'Downloading' "$dd_tmp/debuginfo.err"; then
		pass "debuginfod: no progress printed"
	else
		fail "debuginfod: no progress printed" "$(head -c 200 "$dd_tmp/debuginfo.err")"
	fi

	# 3. the binary gone from disk: the executable and its debug file both from the server
	mv "$dd_bin" "$dd_bin.gone"
	dd_report executable DEBUGINFOD_URLS="$dd_urls" DEBUGINFOD_CACHE_PATH="$dd_tmp/cache2"
	dd_got2=$(dd_share "$dd_tmp/executable.txt" dd_hot_spin)
	if [ -n "$dd_got2" ] && [ "$dd_got2" = "$dd_got" ] &&
	   ! grep -q "binary missing: $dd_bin" "$dd_tmp/executable.txt" &&
	   [ -s "$dd_tmp/cache2/$dd_bid/executable" ]; then
		pass "debuginfod: binary only on the server, named through the executable lookup ($dd_got2%)"
	else
		fail "debuginfod: binary only on the server" "dd_hot_spin '$dd_got2'% vs '$dd_got'%; $(grep -E 'unsymbolized|missing|dd_' "$dd_tmp/executable.txt" | head -n 3); cache: $(ls "$dd_tmp/cache2/$dd_bid" 2>&1)"
	fi

	# 4. the server gone: the same report says the binary is missing, samples left as addresses
	dd_stop_server
	dd_report gone DEBUGINFOD_URLS="$dd_urls" DEBUGINFOD_CACHE_PATH="$dd_tmp/cache3"
	dd_rc=$?
	if [ "$dd_rc" = 0 ] && [ -z "$(dd_share "$dd_tmp/gone.txt" dd_hot_spin)" ] &&
	   grep -q '^#   unsymbolized: [1-9][0-9]* samples (.*file missing: [1-9]' "$dd_tmp/gone.txt" &&
	   grep -q "^#   binary missing: $dd_bin ([1-9][0-9]* samples): build-id $dd_bid " "$dd_tmp/gone.txt"; then
		pass "debuginfod: server gone, binary reported missing with its build-id"
	else
		fail "debuginfod: server gone" "exit $dd_rc; $(grep -E 'unsymbolized|missing|dd_' "$dd_tmp/gone.txt" | head -n 3) $(head -n 2 "$dd_tmp/gone.err")"
	fi
}

dd_main
