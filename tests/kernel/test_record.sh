# SPDX-License-Identifier: MIT
# Kernel tests of `pmuscope record`: files written for a command (-F, -g, -z),
# -p, -a --duration and SIGINT are read by `perf report` / `perf script`, the
# sample count matches task-clock x frequency, the demo's hot functions top
# the report, and a bad event exits 2. Also: --call-graph dwarf (attr equal to
# perf's, perf unwinds our files), -t, -C, --no-inherit, FORK/COMM of every
# thread of -p, build-ids of exactly the objects with samples, -o - pipes.
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
	# the samples we record at 999 Hz against the task-clock perf stat counts around the same
	# run (the recorder's own ~10 ms included): a separate run can take 4x the CPU time on a VM
	# whose host is busy (steal time counts as the guest task's time), and did once in CI
	perf stat -x, -e task-clock -o "$rt_tmp/f.stat" -- \
		"$PMUSCOPE" record -F 999 -o "$rt_tmp/f.data" -- "$rt_demo" 2 >/dev/null 2>"$rt_tmp/f.err"
	rt_rc=$?
	[ $rt_rc = 0 ] && pass "record -F 999: exit 0" || fail "record -F 999: exit 0" "exit $rt_rc: $(cat "$rt_tmp/f.err")"
	grep -q '^\[ pmuscope record: Captured and wrote .* MB .*f.data ([0-9]* samples) \]$' "$rt_tmp/f.err" &&
		pass "record: summary line" || fail "record: summary line" "$(cat "$rt_tmp/f.err")"
	rt_readable "record -F 999: perf report/script read it" "$rt_tmp/f.data" || return
	rt_n=$(perf script -i "$rt_tmp/f.data" 2>/dev/null | wc -l)
	rt_ms=$(awk -F, '/task-clock/ {print $1}' "$rt_tmp/f.stat")
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
	# an event group: members open in their leader's group, only the leader starts disabled and
	# enabled at exec (perf's evsel__config()); perf evlist -v of both files, without what perf
	# adds and we do not ask for (PERF_FORMAT_LOST, ksymbol/bpf_event tracking)
	"$PMUSCOPE" record -e '{cpu-clock,task-clock}' -o "$rt_tmp/g.data" -- "$rt_demo" 0.2 >/dev/null 2>&1
	perf record -q -e '{cpu-clock,task-clock}' -o "$rt_tmp/pg.data" -- "$rt_demo" 0.2 >/dev/null 2>&1
	rt_norm() { perf evlist -v -i "$1" 2>/dev/null | sed -e 's/|LOST//' -e 's/, ksymbol: 1, bpf_event: 1//'; }
	if [ -n "$(rt_norm "$rt_tmp/g.data")" ] && [ "$(rt_norm "$rt_tmp/g.data")" = "$(rt_norm "$rt_tmp/pg.data")" ]; then
		pass "record {cpu-clock,task-clock}: attrs as perf record's (leader disabled + enable_on_exec, member neither)"
	else
		fail "record group attrs" "ours: $(rt_norm "$rt_tmp/g.data" | tr '\n' '|') perf: $(rt_norm "$rt_tmp/pg.data" | tr '\n' '|')"
	fi
	# a fixed period (-c) is not sampled, as perf; report still weighs each sample by it
	"$PMUSCOPE" record -c 100000 -o "$rt_tmp/c.data" -- "$rt_demo" 0.2 >/dev/null 2>&1
	perf record -q -c 100000 -o "$rt_tmp/pc.data" -- "$rt_demo" 0.2 >/dev/null 2>&1
	rt_st=$(perf report --header-only -i "$rt_tmp/c.data" 2>/dev/null | sed -n 's/.*sample_type = \([A-Z|]*\).*/\1/p' | head -n 1)
	rt_pst=$(perf report --header-only -i "$rt_tmp/pc.data" 2>/dev/null | sed -n 's/.*sample_type = \([A-Z|]*\).*/\1/p' | head -n 1)
	rt_ev=$(perf report --stdio -i "$rt_tmp/c.data" 2>/dev/null | sed -n 's/^# Event count (approx.): //p' | head -n 1)
	rt_n=$(perf script -i "$rt_tmp/c.data" 2>/dev/null | wc -l) # "# Samples:" rounds to 1K
	if [ -n "$rt_st" ] && [ "$rt_st" = "$rt_pst" ] && [ -n "$rt_n" ] && [ "$rt_ev" = "$((rt_n * 100000))" ]; then
		pass "record -c: sample_type $rt_st as perf record -c; perf weighs $rt_n samples x 100000"
	else
		fail "record -c" "ours '$rt_st', perf's '$rt_pst', event count '$rt_ev' for '$rt_n' samples"
	fi
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
	# -F above kernel.perf_event_max_sample_rate: throttled to it with a warning, as perf does
	rt_max=$(cat /proc/sys/kernel/perf_event_max_sample_rate)
	"$PMUSCOPE" record -F $((rt_max * 2)) -o "$rt_tmp/f.data" -- true >/dev/null 2>"$rt_tmp/f.err"
	rt_rc=$?
	rt_freq=$(perf evlist -v -i "$rt_tmp/f.data" 2>/dev/null | grep -o 'sample_freq }: [0-9]*' | head -1)
	if [ $rt_rc = 0 ] && grep -q 'perf_event_max_sample_rate' "$rt_tmp/f.err" && [ "$rt_freq" = "sample_freq }: $rt_max" ]; then
		pass "record -F $((rt_max * 2)): throttled to the kernel's $rt_max Hz with a warning ($rt_freq in perf evlist -v)"
	else
		fail "record -F above the kernel's maximum" "exit $rt_rc, '$rt_freq': $(cat "$rt_tmp/f.err")"
	fi
	# --duration on a command stops it: what was asked, so exit 0 with a note (not its 143)
	"$PMUSCOPE" record --duration 0.5 -o "$rt_tmp/d.data" -- sleep 5 >/dev/null 2>"$rt_tmp/d.err"
	rt_rc=$?
	if [ $rt_rc = 0 ] && grep -q -e "--duration: stopped 'sleep' after 0.5 s, as asked" "$rt_tmp/d.err" &&
		perf report -i "$rt_tmp/d.data" --stdio >/dev/null 2>&1; then
		pass "record --duration 0.5 -- sleep 5: exit 0, a note, a file perf reads"
	else
		fail "record --duration -- CMD: exit 0" "exit $rt_rc: $(cat "$rt_tmp/d.err")"
	fi
	if rt_readable "record -a: perf reads it" "$rt_tmp/a.data"; then
		rt_cpus=$(perf script -F cpu -i "$rt_tmp/a.data" 2>/dev/null | sort -u | wc -l)
		[ "$rt_cpus" -ge 1 ] && pass "record -a: samples carry CPUs ($rt_cpus)" ||
			fail "record -a: CPU field" "none"
		# a FINISHED_ROUND after each pass over the per-CPU rings, as perf writes them
		rt_rounds=$(perf report --stats -i "$rt_tmp/a.data" 2>/dev/null |
			awk '/FINISHED_ROUND events:/ { print $3; exit }')
		if [ "${rt_rounds:-0}" -ge 1 ]; then
			pass "record -a: $rt_rounds FINISHED_ROUND records (readers sort per round)"
		else
			fail "record -a: FINISHED_ROUND records" "perf report --stats counts '${rt_rounds:-none}'"
		fi
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

# rt_evlist FILE: perf evlist -v minus the fields perf adds for its own
# bookkeeping (read_format ID|LOST, ksymbol, bpf_event) that we leave out
rt_evlist() {
	perf evlist -v -i "$1" 2>/dev/null |
		sed -e 's/, read_format: [^,]*//' -e 's/, ksymbol: 1//' -e 's/, bpf_event: 1//'
}

rt_dwarf_tests() {
	for rt_cg in dwarf dwarf,4100 dwarf,65528; do
		"$PMUSCOPE" record -e cpu-clock --call-graph $rt_cg -o "$rt_tmp/da.data" -- true >/dev/null 2>&1 &&
			perf record -e cpu-clock --call-graph $rt_cg -o "$rt_tmp/dp.data" -- true >/dev/null 2>&1 ||
			{ fail "record --call-graph $rt_cg: attr" "a recorder failed"; continue; }
		rt_evlist "$rt_tmp/da.data" >"$rt_tmp/da.ev"
		rt_evlist "$rt_tmp/dp.data" >"$rt_tmp/dp.ev"
		if [ -s "$rt_tmp/dp.ev" ] && cmp -s "$rt_tmp/da.ev" "$rt_tmp/dp.ev"; then
			pass "record --call-graph $rt_cg: attr equals perf's ($(grep -o 'sample_regs_user: [^,]*, sample_stack_user: [0-9]*' "$rt_tmp/da.ev"))"
		else
			fail "record --call-graph $rt_cg: attr equals perf's" "ours: $(cat "$rt_tmp/da.ev") | perf: $(cat "$rt_tmp/dp.ev")"
		fi
	done
	"$PMUSCOPE" record --call-graph dwarf -F 999 -o "$rt_tmp/d.data" -- "$rt_demo" >/dev/null 2>"$rt_tmp/d.err" ||
		{ fail "record --call-graph dwarf" "$(cat "$rt_tmp/d.err")"; return; }
	rt_readable "record --call-graph dwarf: perf report/script read it" "$rt_tmp/d.data" || return
	# perf unwinds the user stacks we copied: most samples get >= 3 frames,
	# and the demo's spin is reached from its callers
	perf script -F ip,sym -i "$rt_tmp/d.data" 2>/dev/null >"$rt_tmp/d.script"
	rt_fr=$(awk 'BEGIN { RS = "" } { n++; if (NF / 2 >= 3) deep++ } END { printf "%d %d", deep, n }' "$rt_tmp/d.script")
	if awk -v s="$rt_fr" 'BEGIN { split(s, a, " "); exit !(a[2] > 50 && a[1] >= 0.8 * a[2]) }'; then
		pass "record --call-graph dwarf: perf unwinds >= 3 frames for most samples (deep/all: $rt_fr)"
	else
		fail "record --call-graph dwarf: unwinding" "deep/all samples: $rt_fr"
	fi
	if grep -A3 ' spin$' "$rt_tmp/d.script" | grep -q ' worker$'; then
		pass "record --call-graph dwarf: spin unwinds through hot/warm/cold to worker"
	else
		fail "record --call-graph dwarf: spin's callers" "$(grep -A3 ' spin$' "$rt_tmp/d.script" | head -n 8 | tr '\n' '|')"
	fi
	perf report --stdio --no-children -i "$rt_tmp/d.data" 2>/dev/null | grep -q -- '--.*hot' &&
		pass "record --call-graph dwarf: perf report shows the call graph" ||
		fail "record --call-graph dwarf: perf report call graph" "no hot caller in the report"
}

# rt_busy: a 3-thread busy process in the background ($rt_pid)
rt_busy() {
	"$BUILD_DIR/demo/pms-threads" 3 4000000000 >/dev/null &
	rt_pid=$!
	sleep 0.3
}

rt_stop_busy() {
	kill "$rt_pid" 2>/dev/null
	wait "$rt_pid" 2>/dev/null
}

rt_thread_tests() {
	[ -x "$BUILD_DIR/demo/pms-threads" ] || { skip "record -t/-p threads" "pms-threads not built"; return; }
	rt_busy
	rt_tasks=$(ls /proc/$rt_pid/task | sort -n | tr '\n' ' ')
	"$PMUSCOPE" record -p $rt_pid --duration 0.4 -o "$rt_tmp/mt.data" >/dev/null 2>"$rt_tmp/mt.err"
	rt_rc=$?
	rt_tid=$(ls /proc/$rt_pid/task | sort -n | sed -n 3p)
	"$PMUSCOPE" record -t $rt_tid --duration 0.4 -o "$rt_tmp/t.data" >/dev/null 2>"$rt_tmp/t.err"
	rt_rc2=$?
	rt_stop_busy
	if [ $rt_rc = 0 ]; then
		perf script --show-task-events -i "$rt_tmp/mt.data" 2>/dev/null >"$rt_tmp/mt.script"
		rt_forks=$(sed -n 's/.*PERF_RECORD_FORK([0-9]*:\([0-9]*\)).*/\1/p' "$rt_tmp/mt.script" | sort -n | tr '\n' ' ')
		rt_comms=$(sed -n 's/.*PERF_RECORD_COMM: .*:[0-9]*\/\([0-9]*\)$/\1/p' "$rt_tmp/mt.script" | sort -n | tr '\n' ' ')
		[ "$rt_forks" = "$rt_tasks" ] && [ "$rt_comms" = "$rt_tasks" ] &&
			pass "record -p: FORK and COMM for each of the $(echo $rt_tasks | wc -w) threads" ||
			fail "record -p: FORK/COMM per thread" "threads '$rt_tasks', FORK '$rt_forks', COMM '$rt_comms'"
		# non-leader threads fork from their leader, the leader from its parent
		grep -q "PERF_RECORD_FORK($rt_pid:$rt_tid):($rt_pid:$rt_pid)" "$rt_tmp/mt.script" &&
			pass "record -p: a thread's FORK names its leader" ||
			fail "record -p: thread FORK" "$(grep FORK "$rt_tmp/mt.script" | head -n 4 | tr '\n' '|')"
	else
		fail "record -p (threads): exit 0" "exit $rt_rc: $(cat "$rt_tmp/mt.err")"
	fi
	if [ $rt_rc2 = 0 ] && rt_readable "record -t: perf reads it" "$rt_tmp/t.data"; then
		rt_tids=$(perf script -F tid -i "$rt_tmp/t.data" 2>/dev/null | awk '{ print $1 }' | sort -u | tr '\n' ' ')
		[ "$rt_tids" = "$rt_tid " ] && pass "record -t $rt_tid: samples of that thread only" ||
			fail "record -t: samples of that thread only" "tids seen: '$rt_tids'"
		if rt_evlist "$rt_tmp/t.data" | grep -q 'inherit: 1'; then
			fail "record -t: no inheritance (as perf -t)" "$(rt_evlist "$rt_tmp/t.data")"
		else
			pass "record -t: no inheritance (as perf -t)"
		fi
	else
		fail "record -t: exit 0" "exit $rt_rc2: $(cat "$rt_tmp/t.err")"
	fi
}

rt_pidlist_tests() {
	# -p a,b: both processes, and the recording ends when the last one exits
	"$rt_demo" 1 >/dev/null &
	rt_a=$!
	"$rt_demo" 2 >/dev/null &
	rt_b=$!
	sleep 0.1
	timeout 30 "$PMUSCOPE" record -p $rt_a,$rt_b -o "$rt_tmp/pl.data" >/dev/null 2>"$rt_tmp/pl.err"
	rt_rc=$?
	kill $rt_a $rt_b 2>/dev/null
	wait $rt_a $rt_b 2>/dev/null
	[ $rt_rc = 0 ] || { fail "record -p a,b" "exit $rt_rc: $(cat "$rt_tmp/pl.err")"; return; }
	rt_seen=$(perf script -F pid -i "$rt_tmp/pl.data" 2>/dev/null | awk '{ print $1 }' | sort -u | tr '\n' ' ')
	rt_want=$(printf '%s\n' $rt_a $rt_b | sort | tr '\n' ' ')
	[ "$rt_seen" = "$rt_want" ] && pass "record -p a,b: samples of both processes, ends with the last" ||
		fail "record -p a,b: samples of both" "pids seen '$rt_seen', want '$rt_want'"
}

rt_cpu_tests() {
	rt_last=$(($(getconf _NPROCESSORS_ONLN) - 1))
	"$PMUSCOPE" record -C $rt_last -o "$rt_tmp/c.data" -- "$rt_demo" >/dev/null 2>"$rt_tmp/c.err" ||
		{ fail "record -C $rt_last -- demo" "$(cat "$rt_tmp/c.err")"; return; }
	rt_readable "record -C: perf reads it" "$rt_tmp/c.data" || return
	rt_cpus=$(perf script -F cpu -i "$rt_tmp/c.data" 2>/dev/null | tr -d '[] ' | sort -u | tr '\n' ' ')
	rt_want=$(printf '%03d ' $rt_last)
	[ "$rt_cpus" = "$rt_want" ] && pass "record -C $rt_last -- demo: samples only on CPU $rt_last" ||
		fail "record -C: samples only on the listed CPU" "CPUs seen: '$rt_cpus'"
	# -a with a command: system-wide while it runs, its exit status passed on
	"$PMUSCOPE" record -a -o "$rt_tmp/ac.data" -- sh -c "'$rt_demo' 0.3; exit 3" >/dev/null 2>"$rt_tmp/ac.err"
	rt_rc=$?
	rt_n=$(perf script -F comm -i "$rt_tmp/ac.data" 2>/dev/null | grep -c pms-demo)
	rt_cpus=$(perf script -F cpu -i "$rt_tmp/ac.data" 2>/dev/null | sort -u | wc -l)
	[ $rt_rc = 3 ] && [ "$rt_n" -gt 20 ] && [ "$rt_cpus" -ge 1 ] &&
		pass "record -a -- cmd: system-wide while the command runs (exit 3, $rt_n demo samples)" ||
		fail "record -a -- cmd" "exit $rt_rc, $rt_n demo samples: $(cat "$rt_tmp/ac.err")"
	"$PMUSCOPE" record -C 0 --duration 0.3 -o "$rt_tmp/c0.data" >/dev/null 2>"$rt_tmp/c0.err" ||
		{ fail "record -C 0 --duration" "$(cat "$rt_tmp/c0.err")"; return; }
	rt_cpus=$(perf script -F cpu -i "$rt_tmp/c0.data" 2>/dev/null | tr -d '[] ' | sort -u | tr '\n' ' ')
	[ "$rt_cpus" = "000 " ] && pass "record -C 0 --duration: system-wide on CPU 0 only" ||
		fail "record -C 0 --duration: CPU 0 only" "CPUs seen: '$rt_cpus'"
}

rt_inherit_tests() {
	# sh forks the demo (the "; true" keeps sh from exec'ing it)
	"$PMUSCOPE" record -o "$rt_tmp/in.data" -- sh -c "'$rt_demo' 0.5; true" >/dev/null 2>&1
	"$PMUSCOPE" record --no-inherit -o "$rt_tmp/ni.data" -- sh -c "'$rt_demo' 0.5; true" >/dev/null 2>&1
	rt_in=$(perf script -F comm -i "$rt_tmp/in.data" 2>/dev/null | grep -c pms-demo)
	rt_ni=$(perf script -F comm -i "$rt_tmp/ni.data" 2>/dev/null | grep -c pms-demo)
	if [ "$rt_in" -gt 50 ] && [ "$rt_ni" = 0 ]; then
		pass "record --no-inherit: the forked child is not sampled ($rt_ni vs $rt_in samples)"
	else
		fail "record --no-inherit" "child samples: $rt_ni with --no-inherit, $rt_in without"
	fi
	if perf evlist -v -i "$rt_tmp/ni.data" 2>/dev/null | grep -q 'inherit: 1'; then
		fail "record --no-inherit: attr" "inherit still set"
	else
		pass "record --no-inherit: attr.inherit = 0"
	fi

	# The workload starts with the caller's signal dispositions: SIGHUP and SIGINT ignored (as
	# under nohup in a script) stay ignored for it although record catches them itself.
	rt_bare=$(trap '' HUP INT; grep -E '^Sig(Blk|Ign):' /proc/self/status | tr '\n' ' ')
	rt_sig=$(trap '' HUP INT; "$PMUSCOPE" record -o "$rt_tmp/sig.data" -- grep -E '^Sig(Blk|Ign):' /proc/self/status 2>/dev/null | tr '\n' ' ')
	if [ -n "$rt_bare" ] && [ "$rt_sig" = "$rt_bare" ]; then
		pass "record: the workload inherits ignored SIGHUP/SIGINT and the signal mask ($rt_sig)"
	else
		fail "record: the workload's signal dispositions" "under record: '$rt_sig'; bare: '$rt_bare'"
	fi
	# HEADER_CMDLINE as perf writes it: the tool's real path, then the words as typed
	rt_cmd=$(perf report --header-only -i "$rt_tmp/sig.data" 2>/dev/null | sed -n 's/^# cmdline : //p')
	case $rt_cmd in
	"$(readlink -f "$PMUSCOPE") record -o $rt_tmp/sig.data "*grep*)
		pass "record: cmdline header '$rt_cmd'" ;;
	*) fail "record: cmdline header" "got '$rt_cmd'" ;;
	esac
}

# rt_buildid_check NAME FILE: perf buildid-list FILE names exactly the objects
# (with a file to read) perf script attributes sample IPs or call-chain entries to, with the
# build-ids of the files on disk (file(1)) and of the running kernel
rt_buildid_check() {
	perf buildid-list -i "$2" 2>/dev/null | sort -k2 >"$rt_tmp/bid"
	# objects without a readable file (deleted, memfd) have no build-id to write
	perf script -F ip,dso -i "$2" 2>/dev/null | sed -n 's/.*(\(.*\))$/\1/p' | grep -v '^\[unknown\]$' |
		sort -u | while read -r rt_o; do
			case $rt_o in /*) [ -f "$rt_o" ] && echo "$rt_o" ;; *) echo "$rt_o" ;; esac
		done >"$rt_tmp/bid.want"
	awk '{ print $2 }' "$rt_tmp/bid" | sort >"$rt_tmp/bid.have"
	if [ -s "$rt_tmp/bid.have" ] && cmp -s "$rt_tmp/bid.have" "$rt_tmp/bid.want"; then
		pass "$1: build-ids of exactly the objects with samples ($(tr '\n' ' ' <"$rt_tmp/bid.have"))"
	else
		fail "$1: build-ids of exactly the objects with samples" \
			"extra: $(comm -23 "$rt_tmp/bid.have" "$rt_tmp/bid.want" | tr '\n' ' ') missing: $(comm -13 "$rt_tmp/bid.have" "$rt_tmp/bid.want" | tr '\n' ' ')"
	fi
	rt_bad=""
	while read -r rt_id rt_obj; do
		case $rt_obj in
		"[kernel.kallsyms]") rt_real=$(perf buildid-list -k 2>/dev/null) ;;
		/*)
			# a file rebuilt since the recording started (other jobs, with -a) proves nothing
			[ -n "$(find "$rt_obj" -newer "$rt_tmp/bid.mark" 2>/dev/null)" ] && continue
			rt_real=$(file -L "$rt_obj" | sed -n 's/.*BuildID\[[a-z0-9]*\]=\([0-9a-f]*\).*/\1/p') ;;
		*) continue ;;
		esac
		[ "$rt_id" = "$rt_real" ] || rt_bad="$rt_bad $rt_obj($rt_id != $rt_real)"
	done <"$rt_tmp/bid"
	[ -z "$rt_bad" ] && pass "$1: build-ids match the files and the kernel" ||
		fail "$1: build-ids match the files" "$rt_bad"
}

rt_buildid_tests() {
	touch "$rt_tmp/bid.mark"
	"$PMUSCOPE" record -g -o "$rt_tmp/b.data" -- "$rt_demo" >/dev/null 2>&1 ||
		{ fail "record -g (build-ids)" "exit $?"; return; }
	rt_buildid_check "record -g" "$rt_tmp/b.data"
	"$PMUSCOPE" record -F 999 -o "$rt_tmp/b2.data" -- "$rt_demo" 0.5 >/dev/null 2>&1 ||
		{ fail "record (build-ids)" "exit $?"; return; }
	rt_buildid_check "record" "$rt_tmp/b2.data"
	# -B: none (as perf -B); --buildid-all: every object mapped, hit or not
	"$PMUSCOPE" record -B -o "$rt_tmp/nb.data" -- "$rt_demo" 0.3 >/dev/null 2>&1
	perf report --header-only -i "$rt_tmp/nb.data" 2>/dev/null | grep -q '^# missing features:.* BUILD_ID' &&
		pass "record -B: no BUILD_ID feature" ||
		fail "record -B: no BUILD_ID feature" "$(perf buildid-list -i "$rt_tmp/nb.data" 2>&1 | head -n 3)"
	"$PMUSCOPE" record --buildid-all -o "$rt_tmp/ba.data" -- "$rt_demo" 0.3 >/dev/null 2>&1
	rt_all=$(perf buildid-list -i "$rt_tmp/ba.data" 2>/dev/null | awk '{ print $2 }' | sort | tr '\n' ' ')
	rt_maps=$(perf script --show-mmap-events -i "$rt_tmp/ba.data" 2>/dev/null |
		sed -n 's/.*PERF_RECORD_MMAP2 .* r-xp \(.*\)$/\1/p' | sort -u | tr '\n' ' ')
	rt_missing=""
	for rt_o in $rt_maps; do
		case " $rt_all " in *" $rt_o "*) ;; *) rt_missing="$rt_missing $rt_o" ;; esac
	done
	[ -z "$rt_missing" ] && [ -n "$rt_maps" ] && pass "record --buildid-all: every executable mapping ($rt_all)" ||
		fail "record --buildid-all: every executable mapping" "missing:$rt_missing (have $rt_all)"
	# the vDSO's build-id (read from our own image) is the one perf writes
	perf record -o "$rt_tmp/pv.data" -- "$rt_demo" 0.1 >/dev/null 2>&1
	rt_v1=$(perf buildid-list -i "$rt_tmp/ba.data" 2>/dev/null | awk '$2 == "[vdso]" { print $1 }')
	rt_v2=$(perf buildid-list -i "$rt_tmp/pv.data" 2>/dev/null | awk '$2 == "[vdso]" { print $1 }')
	if [ -z "$rt_v2" ]; then
		skip "record: [vdso] build-id" "perf wrote none to compare with"
	else
		[ "$rt_v1" = "$rt_v2" ] && pass "record: [vdso] build-id equals perf's ($rt_v1)" ||
			fail "record: [vdso] build-id" "ours '$rt_v1', perf '$rt_v2'"
	fi
	# -a samples many processes: the kernel and foreign binaries
	"$PMUSCOPE" record -a --duration 0.5 -o "$rt_tmp/b3.data" >/dev/null 2>&1 ||
		{ fail "record -a (build-ids)" "exit $?"; return; }
	rt_buildid_check "record -a" "$rt_tmp/b3.data"
}

rt_pipe_tests() {
	# the demo prints to stdout: record must keep it out of the perf.data stream
	"$PMUSCOPE" record -o - -- "$rt_demo" 2>"$rt_tmp/pipe.err" | perf report -i - --stdio >"$rt_tmp/pipe.rep" 2>&1
	if grep -q 'pms-demo  *\[\.\] spin' "$rt_tmp/pipe.rep"; then
		pass "record -o - | perf report -i -: spin on top"
	else
		fail "record -o - | perf report -i -" "$(grep -v '^#' "$rt_tmp/pipe.rep" | head -n 3 | tr '\n' '|')"
	fi
	# our own reader of the stream (report is another module: skip while it cannot read files)
	"$PMUSCOPE" record -o "$rt_tmp/pr.data" -- "$rt_demo" 0.1 >/dev/null 2>&1
	if "$PMUSCOPE" report -i "$rt_tmp/pr.data" --stdio >/dev/null 2>&1; then
		"$PMUSCOPE" record -o - -- "$rt_demo" 2>/dev/null | "$PMUSCOPE" report -i - --stdio >"$rt_tmp/pipe.rep2" 2>&1
		grep -q 'pms-demo  *\[\.\] spin' "$rt_tmp/pipe.rep2" && pass "record -o - | pmuscope report -i -: spin on top" ||
			fail "record -o - | pmuscope report -i -" "$(grep -v '^#' "$rt_tmp/pipe.rep2" | head -n 3 | tr '\n' '|')"
	else
		skip "record -o - | pmuscope report -i -" "pmuscope report cannot read a file yet"
	fi
	grep -q 'pms-demo: done' "$rt_tmp/pipe.err" && pass "record -o -: the workload's stdout goes to stderr" ||
		fail "record -o -: workload stdout" "not on stderr: $(cat "$rt_tmp/pipe.err")"
	"$PMUSCOPE" record -g -z -o - -- "$rt_demo" 2>/dev/null | perf script -i - -F ip,sym 2>/dev/null >"$rt_tmp/pipe.s"
	grep -A1 ' spin$' "$rt_tmp/pipe.s" | grep -Eq ' (hot|warm|cold|worker)$' &&
		pass "record -g -z -o - | perf script -i -: call chains" ||
		fail "record -g -z -o - | perf script" "$(head -n 5 "$rt_tmp/pipe.s" | tr '\n' '|')"
	# a reader that goes away: a write error that stops the recording at once (exit 1)
	"$PMUSCOPE" record -o - -- "$rt_demo" 20 2>"$rt_tmp/hp.err" | head -c 1000 >/dev/null
	rt_hp=$(cat "$rt_tmp/hp.err")
	case $rt_hp in
	*"cannot write -: Broken pipe"*) pass "record -o - | head: stops with a write error" ;;
	*) fail "record -o - | head" "$rt_hp" ;;
	esac
	"$PMUSCOPE" record -o - -- "$rt_demo" 0.3 2>/dev/null >"$rt_tmp/pipe.data"
	perf buildid-list -i "$rt_tmp/pipe.data" 2>/dev/null | grep -q 'pms-demo$' &&
		pass "record -o -: build-ids reach the stream" ||
		fail "record -o -: build-ids in the stream" "$(perf buildid-list -i "$rt_tmp/pipe.data" 2>&1 | head -n 3)"
}

rt_synth_tests() {
	# -a: FORK + COMM + maps of every process, and the kernel map as perf writes it
	sleep 10 &
	rt_sl=$!
	# both tools must see it settled: on a loaded machine it may still be loading libc
	rt_w=0
	while [ $rt_w -lt 100 ] && ! grep -q 'libc' "/proc/$rt_sl/maps" 2>/dev/null; do
		sleep 0.05
		rt_w=$((rt_w + 1))
	done
	"$PMUSCOPE" record -a --duration 0.2 -o "$rt_tmp/s.data" >/dev/null 2>&1 ||
		{ fail "record -a (synthesis)" "exit $?"; kill $rt_sl; return; }
	perf record -a -o "$rt_tmp/sp.data" -- sleep 0.2 >/dev/null 2>&1
	kill $rt_sl
	wait $rt_sl 2>/dev/null
	for rt_sf in s sp; do
		perf script --show-mmap-events --show-task-events -i "$rt_tmp/$rt_sf.data" 2>/dev/null |
			grep -E "PERF_RECORD_(MMAP2 $rt_sl/|FORK\($rt_sl:|COMM: .*:$rt_sl/)" | sed 's/.*PERF_RECORD_//' >"$rt_tmp/$rt_sf.syn"
	done
	if [ -s "$rt_tmp/sp.syn" ] && cmp -s "$rt_tmp/s.syn" "$rt_tmp/sp.syn"; then
		pass "record -a: an existing process's FORK, COMM and MMAP2s are perf's ($(wc -l <"$rt_tmp/s.syn") records)"
	else
		fail "record -a: synthesized process records" "ours: $(tr '\n' '|' <"$rt_tmp/s.syn") perf: $(tr '\n' '|' <"$rt_tmp/sp.syn")"
	fi
	rt_km=$(perf script --show-mmap-events -i "$rt_tmp/s.data" 2>/dev/null | grep -m1 'MMAP.*kernel.kallsyms' | sed 's/.*PERF_RECORD_MMAP//')
	rt_kp=$(perf script --show-mmap-events -i "$rt_tmp/sp.data" 2>/dev/null | grep -m1 'MMAP.*kernel.kallsyms' | sed 's/.*PERF_RECORD_MMAP//')
	[ -n "$rt_km" ] && [ "$rt_km" = "$rt_kp" ] && pass "record -a: kernel MMAP as perf writes it ($rt_km)" ||
		fail "record -a: kernel MMAP" "ours '$rt_km', perf '$rt_kp'"
	# one kernel MMAP per loaded module (this kernel has none: a fake /proc/modules)
	mkdir -p "$rt_tmp/proc/sys/kernel"
	printf 'fake_a 16384 0 - Live 0xffffffffc0200000\nfake_b 8192 1 fake_a, Live 0xffffffffc0300000 (E)\n' \
		>"$rt_tmp/proc/modules"
	echo 0.0-none >"$rt_tmp/proc/sys/kernel/osrelease"
	PMS_PROCFS_ROOT="$rt_tmp/proc" "$PMUSCOPE" record -o "$rt_tmp/m.data" -- true >/dev/null 2>&1
	rt_mods=$(perf script --show-mmap-events -i "$rt_tmp/m.data" 2>/dev/null | grep 'PERF_RECORD_MMAP -1' |
		sed 's/.*PERF_RECORD_MMAP -1\/0: //' | tr '\n' '|')
	[ "$rt_mods" = "[0xffffffffc0200000(0x4000) @ 0]: x [fake_a]|[0xffffffffc0300000(0x2000) @ 0]: x [fake_b]|" ] &&
		pass "record: one kernel MMAP per module of /proc/modules" ||
		fail "record: module MMAPs" "got '$rt_mods'"
	rt_p=$(ls -d /proc/[0-9]* | wc -l)
	rt_f=$(perf script --show-task-events -i "$rt_tmp/s.data" 2>/dev/null | grep -c 'PERF_RECORD_FORK')
	[ "$rt_f" -ge $((rt_p / 2)) ] && pass "record -a: FORK records of existing tasks ($rt_f for $rt_p processes)" ||
		fail "record -a: FORK records" "$rt_f FORK for $rt_p processes"
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
	for rt_f in ${RT_ONLY:-freq exit lost callchain compress target signal dwarf thread pidlist cpu inherit buildid pipe synth}; do
		"rt_${rt_f}_tests"
	done
	rm -rf "$rt_tmp"
}

rt_main
