# SPDX-License-Identifier: MIT
# Kernel tests of `pmuscope record`: files written for a command (-F, -g, -z),
# -p, -a --duration and SIGINT are read by `perf report` / `perf script`, the
# sample count matches task-clock x frequency, the demo's hot functions top
# the report, and a bad event exits 2.
# Sourced by tests/kernel/run.sh; every function and variable is rt_-prefixed.

rt_demo=$BUILD_DIR/demo/pms-demo

# rt_readable NAME FILE: perf report and perf script both accept FILE.
rt_readable() {
	if perf report --stdio -i "$2" >"$rt_tmp/rep" 2>"$rt_tmp/rep.err" &&
	   perf script -i "$2" >"$rt_tmp/script" 2>"$rt_tmp/script.err" &&
	   [ -s "$rt_tmp/script" ]; then
		pass "$1"
		return 0
	fi
	fail "$1" "perf cannot read $2: $(tail -n 2 "$rt_tmp/rep.err" "$rt_tmp/script.err" | tr '\n' ' ')"
	return 1
}

rt_freq_tests() {
	# task-clock of the same workload by perf stat, then the samples we record at 999 Hz
	"$PMUSCOPE" record -F 999 -o "$rt_tmp/f.data" -- "$rt_demo" 2 >/dev/null 2>"$rt_tmp/f.err"
	rt_rc=$?
	[ $rt_rc = 0 ] && pass "record -F 999: exit 0" || fail "record -F 999: exit 0" "exit $rt_rc: $(cat "$rt_tmp/f.err")"
	grep -q '^\[ pmuscope record: Captured and wrote .* MB .*f.data ([0-9]* samples) \]$' "$rt_tmp/f.err" &&
		pass "record: summary line" || fail "record: summary line" "$(cat "$rt_tmp/f.err")"
	rt_readable "record -F 999: perf report/script read it" "$rt_tmp/f.data" || return
	rt_n=$(perf script -i "$rt_tmp/f.data" 2>/dev/null | wc -l)
	rt_ms=$(perf stat -x, -e task-clock -- "$rt_demo" 2 2>&1 >/dev/null | awk -F, '/task-clock/ {print $1}')
	rt_want=$(awk -v ms="$rt_ms" 'BEGIN { printf "%d", ms * 0.999 }')
	if awk -v n="$rt_n" -v w="$rt_want" 'BEGIN { exit !(w > 0 && n >= 0.7 * w && n <= 1.3 * w) }'; then
		pass "record -F 999: $rt_n samples for ${rt_ms} ms task-clock (want ~$rt_want)"
	else
		fail "record -F 999: sample count" "$rt_n samples, want $rt_want +-30% (task-clock $rt_ms ms)"
	fi
	rt_said=$(sed -n 's/.*(\([0-9]*\) samples) \]$/\1/p' "$rt_tmp/f.err")
	[ "$rt_said" = "$rt_n" ] && pass "record: summary sample count = perf script's ($rt_n)" ||
		fail "record: summary sample count" "said '$rt_said', perf script has $rt_n"
	rt_top=$(perf report --stdio -i "$rt_tmp/f.data" 2>/dev/null | grep '%' | grep -v '^#' | head -n 1)
	case $rt_top in
	*pms-demo*spin* | *pms-demo*hot* | *pms-demo*warm*) pass "record: top symbol is the demo's hot loop" ;;
	*) fail "record: top symbol" "got '$rt_top'" ;;
	esac
	rt_sum=$(perf script -i "$rt_tmp/f.data" -F comm 2>/dev/null | grep -c pms-demo)
	[ "$rt_sum" -gt $((rt_n / 2)) ] && pass "record: samples belong to pms-demo" ||
		fail "record: samples belong to pms-demo" "$rt_sum of $rt_n"
	perf buildid-list -i "$rt_tmp/f.data" 2>/dev/null | grep -q 'pms-demo$' &&
		pass "record: BUILD_ID feature names pms-demo" ||
		fail "record: BUILD_ID feature" "$(perf buildid-list -i "$rt_tmp/f.data" 2>&1 | head -n 3)"
	# the synthesized [kernel.kallsyms]_text map lets perf name kernel samples
	rt_k=$(perf report --stdio -i "$rt_tmp/f.data" 2>/dev/null | grep -c '\[k\]')
	rt_ku=$(perf report --stdio -i "$rt_tmp/f.data" 2>/dev/null | grep -c '\[unknown\] *\[k\]')
	if [ "$rt_k" = 0 ]; then
		skip "record: kernel samples resolved" "no kernel samples in this run"
	elif [ "$rt_ku" = 0 ]; then
		pass "record: kernel samples resolved ($rt_k kernel symbols)"
	else
		fail "record: kernel samples resolved" "$rt_ku of $rt_k kernel rows are [unknown]"
	fi
	perf report --header-only -i "$rt_tmp/f.data" 2>/dev/null | grep -q 'sample_type = IP|TID|TIME|PERIOD' &&
		pass "record: sample_type like perf record" || fail "record: sample_type like perf record"
}

rt_exit_tests() {
	"$PMUSCOPE" record -o "$rt_tmp/x.data" -- sh -c 'exit 7' >/dev/null 2>&1
	rt_rc=$?
	[ $rt_rc = 7 ] && pass "record: exit status of the workload" || fail "record: workload exit status" "got $rt_rc"
	"$PMUSCOPE" record -e no_such_event -o "$rt_tmp/x.data" -- true >/dev/null 2>&1
	rt_rc=$?
	[ $rt_rc = 2 ] && pass "record: unknown event exits 2" || fail "record: unknown event exits 2" "got $rt_rc"
	"$PMUSCOPE" record -o "$rt_tmp/x.data" -- /nonexistent/cmd >/dev/null 2>&1
	rt_rc=$?
	[ $rt_rc = 127 ] && pass "record: missing command exits 127" || fail "record: missing command" "got $rt_rc"
}

rt_lost_tests() {
	# a 1-page ring at a 20 us period overflows: the kernel's LOST records must
	# reach the file (perf counts them) and the summary must warn with advice
	"$PMUSCOPE" record -m 1 -g -c 20000 -o "$rt_tmp/l.data" -- "$rt_demo" 0.2 >/dev/null 2>"$rt_tmp/l.err" ||
		{ fail "record -m 1: exit 0" "$(cat "$rt_tmp/l.err")"; return; }
	rt_chunks=$(perf report --stdio -i "$rt_tmp/l.data" 2>&1 >/dev/null | sed -n 's/.*lost \([0-9]*\) chunks.*/\1/p')
	if [ -z "$rt_chunks" ]; then
		skip "record: lost-event warning" "the ring kept up (no LOST records)"
	elif grep -q 'warning: lost [0-9]* events (.*%.*); raise -m, lower -F' "$rt_tmp/l.err"; then
		pass "record: lost events ($rt_chunks LOST records per perf) reported with advice"
	else
		fail "record: lost-event warning" "perf saw $rt_chunks LOST records, we said: $(cat "$rt_tmp/l.err")"
	fi
}

rt_callchain_tests() {
	"$PMUSCOPE" record -g -F 999 -o "$rt_tmp/g.data" -- "$rt_demo" >/dev/null 2>&1 ||
		{ fail "record -g" "exit $?"; return; }
	rt_readable "record -g: perf report/script read it" "$rt_tmp/g.data" || return
	# frame-pointer chains: spin is called from hot/warm/cold and those from worker
	# (perf script prints one frame per line; a spin frame must be followed by a
	# caller: hot/warm/cold, or worker when the leaf spin keeps no frame pointer)
	if perf script -F ip,sym -i "$rt_tmp/g.data" 2>/dev/null | grep -A1 ' spin$' | grep -Eq ' (hot|warm|cold|worker)$'; then
		pass "record -g: call chains reach the demo's callers"
	else
		fail "record -g: call chains" "no hot/warm/cold in the call graph"
	fi
}

rt_compress_tests() {
	if ! "$PMUSCOPE" record -z -o "$rt_tmp/z.data" -- "$rt_demo" >/dev/null 2>"$rt_tmp/z.err"; then
		if grep -q 'no zstd' "$rt_tmp/z.err"; then
			skip "record -z" "built without zstd"
		else
			fail "record -z" "$(cat "$rt_tmp/z.err")"
		fi
		return
	fi
	rt_readable "record -z: perf reads the compressed file" "$rt_tmp/z.data" &&
		{ grep -q 'spin' "$rt_tmp/rep" && pass "record -z: symbols resolved" ||
			fail "record -z: symbols resolved" "no spin in the report"; }
}

rt_target_tests() {
	"$rt_demo" 6 >/dev/null &
	rt_pid=$!
	sleep 0.2
	"$PMUSCOPE" record -p $rt_pid --duration 0.5 -o "$rt_tmp/p.data" >/dev/null 2>"$rt_tmp/p.err"
	rt_rc=$?
	kill $rt_pid 2>/dev/null
	wait $rt_pid 2>/dev/null
	[ $rt_rc = 0 ] && pass "record -p: exit 0" || fail "record -p: exit 0" "exit $rt_rc: $(cat "$rt_tmp/p.err")"
	if rt_readable "record -p: perf reads it" "$rt_tmp/p.data"; then
		# the process existed before: only synthesized MMAP2s let perf name spin
		grep -q 'pms-demo  *\[\.\] spin' "$rt_tmp/rep" && pass "record -p: synthesized maps resolve symbols" ||
			fail "record -p: synthesized maps" "$(grep '%' "$rt_tmp/rep" | grep -v '^#' | head -n 2)"
	fi

	# without --duration, -p ends when the process does
	"$rt_demo" 1 >/dev/null &
	rt_pid=$!
	sleep 0.1
	timeout 20 "$PMUSCOPE" record -p $rt_pid -o "$rt_tmp/pe.data" >/dev/null 2>"$rt_tmp/pe.err"
	rt_rc=$?
	kill $rt_pid 2>/dev/null
	wait $rt_pid 2>/dev/null
	[ $rt_rc = 0 ] && pass "record -p: stops when the process exits" ||
		fail "record -p: stops when the process exits" "exit $rt_rc: $(cat "$rt_tmp/pe.err")"

	"$PMUSCOPE" record -a --duration 1 -o "$rt_tmp/a.data" >/dev/null 2>"$rt_tmp/a.err"
	rt_rc=$?
	[ $rt_rc = 0 ] && pass "record -a --duration 1: exit 0" || fail "record -a: exit 0" "exit $rt_rc: $(cat "$rt_tmp/a.err")"
	if rt_readable "record -a: perf reads it" "$rt_tmp/a.data"; then
		rt_cpus=$(perf script -F cpu -i "$rt_tmp/a.data" 2>/dev/null | sort -u | wc -l)
		[ "$rt_cpus" -ge 1 ] && pass "record -a: samples carry CPUs ($rt_cpus)" ||
			fail "record -a: CPU field" "none"
	fi
}

rt_signal_tests() {
	"$PMUSCOPE" record -o "$rt_tmp/s.data" -- "$rt_demo" 20 >/dev/null 2>"$rt_tmp/s.err" &
	rt_pid=$!
	sleep 0.7
	kill -INT $rt_pid
	wait $rt_pid
	rt_rc=$?
	# the workload got the SIGINT too (forwarded): 130, as perf record returns
	case $rt_rc in 0 | 130) pass "record: SIGINT stops it (exit $rt_rc)" ;;
	*) fail "record: SIGINT exit" "exit $rt_rc: $(cat "$rt_tmp/s.err")" ;; esac
	rt_readable "record: SIGINT leaves a readable file" "$rt_tmp/s.data"
}

rt_main() {
	if ! command -v perf >/dev/null 2>&1; then
		skip "record" "perf not installed (the oracle)"
		return
	fi
	if ! "$PMUSCOPE" record -h >/dev/null 2>&1; then
		skip "record" "record not built"
		return
	fi
	rt_tmp=$(mktemp -d)
	for rt_f in freq exit lost callchain compress target signal; do
		"rt_${rt_f}_tests"
	done
	rm -rf "$rt_tmp"
}

rt_main
