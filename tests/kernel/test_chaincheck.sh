# SPDX-License-Identifier: MIT
# Call chains cut short by code without frame pointers (issue 13): Debian's xz and liblzma are built
# without them, so a frame-pointer walk from a sample in liblzma never reaches main. report (on a
# `record -g` file) and profile must say so, name liblzma and the fix (--call-graph dwarf); a
# --call-graph dwarf recording of the same work and a frame-pointer demo (pms-shares) must not.
# Sourced by tests/kernel/run.sh; every function and variable is cc_-prefixed.

cc_tmp=$(mktemp -d)
# a fixed amount of work: 8 MB of incompressible data, compressed at -6 (about a second of CPU)
head -c 8000000 /dev/urandom >"$cc_tmp/in.bin"

cc_line() { grep -E "$1" "$2" | head -n 1 | cut -c1-300; }

if ! command -v xz >/dev/null 2>&1; then
	skip "chain check: xz" "xz is not installed (Debian package xz-utils)"
else
	if "$PMUSCOPE" record -g -o "$cc_tmp/fp.data" -- xz -6 -k -f -c "$cc_tmp/in.bin" >/dev/null 2>"$cc_tmp/rec.err" &&
		"$PMUSCOPE" report -i "$cc_tmp/fp.data" --stdio --no-children >"$cc_tmp/fp.txt" 2>&1; then
		cc_l=$(cc_line '^#   call chains:' "$cc_tmp/fp.txt")
		case $cc_l in
		*"without frame pointers: liblzma"*"--call-graph dwarf"*)
			pass "chain check: report of record -g on xz says the chains stop in liblzma ($(echo "$cc_l" | cut -c1-120))" ;;
		*) fail "chain check: report of record -g on xz" "${cc_l:-no call-chains line}" ;;
		esac
		if "$PMUSCOPE" report -i "$cc_tmp/fp.data" --json | python3 -c '
import json, sys
c = json.load(sys.stdin)["summary"]["call_chains"]
o = c["objects"][0]
sys.exit(0 if c["cut"] * 2 > c["user_chains"] and "liblzma" in o["dso"] and o["frame_pointers"] is False else 1)'; then
			pass "chain check: report --json call_chains names liblzma without frame pointers"
		else
			fail "chain check: report --json call_chains" "$("$PMUSCOPE" report -i "$cc_tmp/fp.data" --json | jq -c .summary.call_chains | cut -c1-300)"
		fi
	else
		fail "chain check: record -g xz" "$(tail -n 2 "$cc_tmp/rec.err")"
	fi
	if "$PMUSCOPE" record --call-graph dwarf -o "$cc_tmp/dw.data" -- xz -6 -k -f -c "$cc_tmp/in.bin" >/dev/null 2>&1 &&
		"$PMUSCOPE" report -i "$cc_tmp/dw.data" --stdio --no-children >"$cc_tmp/dw.txt" 2>&1; then
		if grep -q '^#   call chains:' "$cc_tmp/dw.txt"; then
			fail "chain check: --call-graph dwarf" "$(cc_line '^#   call chains:' "$cc_tmp/dw.txt")"
		else
			pass "chain check: a --call-graph dwarf recording of the same work says nothing"
		fi
	else
		fail "chain check: record --call-graph dwarf xz"
	fi
	# profile: the BPF sampler's frame-pointer stacks of the same work
	xz -6 -k -f -c "$cc_tmp/in.bin" >/dev/null &
	cc_pid=$!
	"$PMUSCOPE" profile -F 999 -p "$cc_pid" --duration 1 >/dev/null 2>"$cc_tmp/prof.err"
	wait "$cc_pid"
	cc_l=$(cc_line '^profile: call chains:' "$cc_tmp/prof.err")
	case $cc_l in
	*"without frame pointers: liblzma"*) pass "chain check: profile -p xz says the chains stop in liblzma" ;;
	*)
		if grep -q 'no samples' "$cc_tmp/prof.err"; then
			skip "chain check: profile -p xz" "xz finished before the profiler attached"
		else
			fail "chain check: profile -p xz" "${cc_l:-no call-chains line}: $(tail -n 1 "$cc_tmp/prof.err")"
		fi
		;;
	esac
fi

if "$PMUSCOPE" record -g -o "$cc_tmp/demo.data" -- "$BUILD_DIR/demo/pms-shares" --rounds 20000 >/dev/null 2>&1 &&
	"$PMUSCOPE" report -i "$cc_tmp/demo.data" --stdio --no-children >"$cc_tmp/demo.txt" 2>&1; then
	if grep -q '^#   call chains:' "$cc_tmp/demo.txt"; then
		fail "chain check: pms-shares (frame pointers)" "$(cc_line '^#   call chains:' "$cc_tmp/demo.txt")"
	else
		pass "chain check: a frame-pointer program's report says nothing"
	fi
else
	fail "chain check: record -g pms-shares"
fi
rm -rf "$cc_tmp"
