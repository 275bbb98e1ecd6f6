#!/bin/sh
# SPDX-License-Identifier: MIT
# Golden CLI tests. Each tests/cli/cases/<name>.sh is run with $PMUSCOPE set
# to the binary under test, $FIXTURES to tests/fixtures and the working
# directory set to a fresh temp dir; its stdout (stderr merged, so messages
# are checked too) is compared with:
#   <name>.out   exactly, or
#   <name>.glob  line by line, each expected line being a shell glob pattern.
# A case whose first output line starts with "SKIP:" is counted as skipped.
set -u
build=${1:-build}
suite=cli
case $build in *san*) suite=cli-san ;; esac
cd "$(dirname "$0")/../.."
top=$(pwd)
. tests/lib/suite.sh
suite_begin "$suite"
export PMUSCOPE="$top/$build/pmuscope" FIXTURES="$top/tests/fixtures" BUILD_DIR="$top/$build" TOP="$top"
# the golden outputs must not depend on this machine's build-id cache (~/.debug): an empty one
cli_cache=$(mktemp -d)
export PMS_BUILDID_DIR="$cli_cache"
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
for t in tests/cli/cases/*.sh; do
	[ -e "$t" ] || continue
	name=$(basename "$t" .sh)
	tmp=$(mktemp -d)
	actual=$(cd "$tmp" && sh "$top/$t" 2>&1)
	rm -rf "$tmp"
	case $actual in
	SKIP:*) skip "$name" "$(echo "$actual" | head -n 1 | sed 's/^SKIP: *//')"; continue ;;
	esac
	if [ -f "tests/cli/cases/$name.out" ]; then
		if [ "$actual" = "$(cat "tests/cli/cases/$name.out")" ]; then
			pass "$name"
		else
			fail "$name" "output differs:"
			echo "$actual" | diff -u "tests/cli/cases/$name.out" - | head -n 40
		fi
	elif [ -f "tests/cli/cases/$name.glob" ]; then
		ok=1
		exp_n=$(wc -l <"tests/cli/cases/$name.glob")
		act_n=$(printf '%s\n' "$actual" | wc -l)
		if [ "$exp_n" -ne "$act_n" ]; then
			ok=0
			msg="expected $exp_n lines, got $act_n"
		else
			i=0
			while IFS= read -r pat; do
				i=$((i + 1))
				line=$(printf '%s\n' "$actual" | sed -n "${i}p")
				# shellcheck disable=SC2254
				case $line in
				$pat) ;;
				*) ok=0; msg="line $i: '$line' does not match '$pat'"; break ;;
				esac
			done <"tests/cli/cases/$name.glob"
		fi
		if [ $ok = 1 ]; then pass "$name"; else
			fail "$name" "$msg"
			printf '%s\n' "$actual" | head -n 40
		fi
	else
		fail "$name" "no $name.out or $name.glob"
	fi
done
rm -rf "$cli_cache"
suite_end
