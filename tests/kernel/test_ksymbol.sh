# SPDX-License-Identifier: MIT
# Code the kernel makes at run time (BPF programs, trampolines, dispatchers) is announced by
# PERF_RECORD_KSYMBOL; perf names samples there after the symbol, as their own object, until
# the symbol is unregistered. tests/kernel/ksymbol_fixture.py writes such a file; perf script
# and perf report of it are compared with ours.
# Sourced by tests/kernel/run.sh; every function and variable is ks_-prefixed.

ks_main() {
	if ! command -v perf >/dev/null 2>&1 || ! command -v python3 >/dev/null 2>&1; then
		skip "ksymbol" "perf (the reference) or python3 (writes the fixture) not installed"
		return
	fi
	ks_tmp=$(mktemp -d)
	python3 "$TOP/tests/kernel/ksymbol_fixture.py" "$ks_tmp/k.data"
	perf script -i "$ks_tmp/k.data" >"$ks_tmp/perf.s" 2>/dev/null
	"$PMUSCOPE" script -i "$ks_tmp/k.data" >"$ks_tmp/ours.s" 2>"$ks_tmp/err"
	ks_n=$(grep -c 'bpf_' "$ks_tmp/perf.s")
	if [ "$ks_n" -gt 0 ] && cmp -s "$ks_tmp/perf.s" "$ks_tmp/ours.s"; then
		pass "ksymbol: script equal to perf's ($(wc -l <"$ks_tmp/perf.s") lines, $ks_n in BPF code, the rest after unregistering)"
	else
		fail "ksymbol: script" "$(diff "$ks_tmp/perf.s" "$ks_tmp/ours.s" | head -n 4 | tr '\n' '|') $(head -c 200 "$ks_tmp/err")"
	fi
	perf report -i "$ks_tmp/k.data" --stdio --sort dso,sym -n 2>/dev/null | grep -v '^#' | grep . >"$ks_tmp/perf.r"
	"$PMUSCOPE" report -i "$ks_tmp/k.data" --stdio --sort dso,sym -n 2>/dev/null | grep -v '^#' | grep . >"$ks_tmp/ours.r"
	if [ -s "$ks_tmp/perf.r" ] && cmp -s "$ks_tmp/perf.r" "$ks_tmp/ours.r"; then
		pass "ksymbol: report --sort dso,sym equal to perf's ($(wc -l <"$ks_tmp/perf.r") rows)"
	else
		fail "ksymbol: report" "$(diff "$ks_tmp/perf.r" "$ks_tmp/ours.r" | head -n 4 | tr '\n' '|')"
	fi
	rm -rf "$ks_tmp"
}
ks_main
