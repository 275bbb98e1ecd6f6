# SPDX-License-Identifier: MIT
# Kernel tests of `pmuscope script`'s perf options: on files perf record
# writes here (--switch-events, --namespaces, --all-cgroups, -d,
# --intr-regs, --user-regs, -k, -a), our text must equal `perf script`'s
# byte for byte for each option: -F arithmetic and type prefixes, misc,
# iregs/uregs, insn/insnlen, srccode, tod, flags, --reltime/--deltatime,
# and every --show-*-events this machine can record (text pokes and branch
# stacks are not recorded here: tests/cli/cases/script_opts.sh compares
# branch stacks on the quipper corpus); --switch-on/off and --per-event-dump
# on a two-event file. Sourced by tests/kernel/run.sh;
# every variable is so_-prefixed.

# so_same NAME FILE [options]: both outputs identical, at least 10 lines
so_same() {
	so_name=$1
	so_file=$2
	shift 2
	if ! perf script -i "$so_file" "$@" >"$so_tmp/perf.txt" 2>"$so_tmp/perf.err"; then
		skip "script $so_name" "perf script refused: $(head -n 1 "$so_tmp/perf.err")"
		return
	fi
	if ! "$PMUSCOPE" script -i "$so_file" "$@" >"$so_tmp/ours.txt" 2>"$so_tmp/ours.err"; then
		fail "script $so_name" "exit $?: $(head -n 2 "$so_tmp/ours.err")"
		return
	fi
	so_n=$(wc -l <"$so_tmp/perf.txt")
	if [ "$so_n" -lt 10 ]; then
		fail "script $so_name" "perf printed only $so_n lines"
	elif cmp -s "$so_tmp/perf.txt" "$so_tmp/ours.txt"; then
		pass "script $so_name: $so_n lines identical to perf script's"
	else
		fail "script $so_name" "$(diff "$so_tmp/perf.txt" "$so_tmp/ours.txt" | grep -c '^[<>]') lines differ; first: $(diff "$so_tmp/perf.txt" "$so_tmp/ours.txt" | sed -n '2p;4p' | cut -c1-200 | tr '\t\n' '  ')"
	fi
}

if ! command -v perf >/dev/null 2>&1; then
	skip "script options" "perf is not installed (the reference)"
else
	so_tmp=$(mktemp -d)
	so_loops=$BUILD_DIR/demo/pms-loops
	so_a=$so_tmp/a.data
	if ! perf record -q -e cpu-clock -c 1000000 --switch-events --namespaces --all-cgroups -d --intr-regs \
		--user-regs --sample-cpu -o "$so_a" -- "$so_loops" --seconds 0.3 >/dev/null 2>"$so_tmp/rec.err"; then
		skip "script options" "perf record failed: $(head -n 1 "$so_tmp/rec.err")"
	else
		so_same "-F comm,tid,cpu,time,event,ip,misc" "$so_a" -F comm,tid,cpu,time,event,ip,misc
		so_same "-F +misc,+pid" "$so_a" -F +misc,+pid
		so_same "-F sw:+addr,+flags" "$so_a" -F sw:+addr,+flags
		so_same "-F sw:ip,sym" "$so_a" -F sw:ip,sym
		so_same "-F ip,iregs,uregs" "$so_a" -F ip,iregs,uregs
		so_same "-F ip,insn,insnlen" "$so_a" -F ip,insn,insnlen
		so_same "-F +srcline,+srccode" "$so_a" -F +srcline,+srccode
		so_same "-F +srcline --full-source-path" "$so_a" -F +srcline --full-source-path
		so_same "-v -f (no effect)" "$so_a" -v -f
		so_same "--reltime" "$so_a" --reltime
		so_same "--deltatime --ns" "$so_a" --deltatime --ns
		so_same "-S two_loops --dsos pms-loops" "$so_a" -S two_loops --dsos pms-loops
		so_same "--show-task-events --show-mmap-events (-F +misc)" "$so_a" --show-task-events --show-mmap-events -F +misc
		so_same "--show-switch-events --deltatime" "$so_a" --show-switch-events --deltatime -F comm,tid,cpu,time,misc,event,ip
		so_same "--show-namespace-events --show-cgroup-events --show-bpf-events" "$so_a" --show-namespace-events \
			--show-cgroup-events --show-bpf-events -F comm,tid,cpu,time,event,ip
		so_same "--show-round-events (file order)" "$so_a" --show-round-events --show-mmap-events -F comm,tid,time,event,ip
		so_same "--show-lost-events (nothing lost here: the corpus case in tests/cli/cases/script_opts.sh)" "$so_a" --show-lost-events -F comm,tid,time,event,ip
	fi
	so_k=$so_tmp/k.data
	if perf record -q -k CLOCK_MONOTONIC -e cpu-clock -c 1000000 -o "$so_k" -- "$so_loops" --seconds 0.3 \
		>/dev/null 2>"$so_tmp/rec.err"; then
		so_same "-F +tod (record -k CLOCK_MONOTONIC)" "$so_k" -F +tod
		so_same "-F tod,comm,event --ns --show-task-events" "$so_k" -F tod,comm,event --ns --show-task-events
	else
		skip "script tod" "perf record -k failed: $(head -n 1 "$so_tmp/rec.err")"
	fi
	# two events: --switch-on/--switch-off between them, --per-event-dump into one file each
	so_t=$so_tmp/two.data
	if perf record -q -e cpu-clock -c 1000000 -e page-faults -c 1 -o "$so_t" -- "$so_loops" --seconds 0.1 \
		>/dev/null 2>"$so_tmp/rec.err"; then
		# without symbols: a sample in ld.so's or the PLT's first bytes may be named otherwise
		# (docs/script.md), which is test_script.sh's business, not these options'
		so_f=comm,tid,time,period,event,ip,dso
		so_same "--switch-on page-faults" "$so_t" -F $so_f --switch-on page-faults
		so_same "--switch-on cpu-clock --switch-off page-faults" "$so_t" -F $so_f --switch-on cpu-clock \
			--switch-off page-faults
		so_same "... --show-on-off-events" "$so_t" -F $so_f --switch-on cpu-clock --switch-off page-faults \
			--show-on-off-events
		mkdir "$so_tmp/pd" "$so_tmp/od"
		(cd "$so_tmp/pd" && perf script -i "$so_t" -F $so_f --per-event-dump >/dev/null 2>&1)
		so_n=$(cd "$so_tmp/pd" && ls "$so_t".*.dump 2>/dev/null | wc -l)
		if ! "$PMUSCOPE" script -i "$so_t" -F $so_f --per-event-dump >"$so_tmp/od/summary" 2>&1; then
			fail "script --per-event-dump" "$(head -n 2 "$so_tmp/od/summary")"
		elif [ "$so_n" != 2 ]; then
			skip "script --per-event-dump" "perf wrote $so_n dump files, not 2"
		else
			so_ok=0
			for so_d in "$so_t".*.dump; do
				so_ok=$((so_ok + 1))
				[ -s "$so_d" ] || so_ok=100
			done
			so_sum=$(grep -c '^\[ perf script: Wrote .* MB .*\.dump ([0-9]* samples) \]$' "$so_tmp/od/summary")
			# perf wrote its files next to the input as well (the name is the input's): compare ours with a rerun of perf's
			cp "$so_t.cpu-clock.dump" "$so_tmp/od/c" && cp "$so_t.page-faults.dump" "$so_tmp/od/p"
			perf script -i "$so_t" -F $so_f --per-event-dump >/dev/null 2>&1
			if [ "$so_ok" = 2 ] && [ "$so_sum" = 2 ] && cmp -s "$so_tmp/od/c" "$so_t.cpu-clock.dump" &&
				cmp -s "$so_tmp/od/p" "$so_t.page-faults.dump"; then
				pass "script --per-event-dump: both events' files identical to perf's, perf's summary lines"
			else
				fail "script --per-event-dump" "files $so_ok, summary lines $so_sum, or contents differ"
			fi
		fi
	else
		skip "script two events" "perf record failed: $(head -n 1 "$so_tmp/rec.err")"
	fi
	# system-wide: SWITCH_CPU_WIDE records, FORK and EXIT of a forking workload
	so_s=$so_tmp/s.data
	if perf record -q -a --switch-events -e cpu-clock -c 1000000 -o "$so_s" -- sh -c 'sleep 0.1; true | cat' \
		>/dev/null 2>"$so_tmp/rec.err"; then
		so_same "-a --show-switch-events (SWITCH_CPU_WIDE)" "$so_s" --show-switch-events -F comm,tid,cpu,time,misc,event
		so_same "-a --show-task-events" "$so_s" --show-task-events -F comm,pid,tid,cpu,time,event
	else
		skip "script -a" "perf record -a failed: $(head -n 1 "$so_tmp/rec.err")"
	fi
	rm -rf "$so_tmp"
fi
