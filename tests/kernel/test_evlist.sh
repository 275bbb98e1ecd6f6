# SPDX-License-Identifier: MIT
# Kernel tests of `pmuscope evlist`: byte for byte what perf evlist prints (plain, -v, -g, -F,
# --trace-fields) on files perf records here (several events, a group, tracepoints, -F and -c),
# on files pmuscope record writes, on pipe streams, and on every file of the quipper corpus
# (pipe streams perf 6.1 reads differently are checked for what docs/evlist.md says).
# Sourced by tests/kernel/run.sh; every function and variable is tev_-prefixed.

tev_modes="plain -v -g -F --trace-fields"

# tev_same NAME FILE [PIPE]: pmuscope evlist equals perf evlist in every mode (PIPE: both read stdin)
tev_same() {
	tev_bad=
	for tev_m in $tev_modes; do
		[ "$tev_m" = plain ] && tev_m=
		if [ -n "${3:-}" ]; then
			tev_p=$(perf evlist $tev_m -i - <"$2" 2>/dev/null | sed "s/'perf evlist/'pmuscope evlist/")
			tev_o=$("$PMUSCOPE" evlist $tev_m -i - <"$2" 2>/dev/null)
		else
			tev_p=$(perf evlist $tev_m -i "$2" 2>/dev/null | sed "s/'perf evlist/'pmuscope evlist/")
			tev_o=$("$PMUSCOPE" evlist $tev_m -i "$2" 2>/dev/null)
		fi
		if [ -z "$tev_p" ] || [ "$tev_p" != "$tev_o" ]; then
			tev_bad="$tev_bad [${tev_m:-plain}] perf: $(printf '%s' "$tev_p" | head -3 | tr '\n' '|') ours: $(printf '%s' "$tev_o" | head -3 | tr '\n' '|')"
		fi
	done
	if [ -z "$tev_bad" ]; then
		pass "evlist: $1: same as perf evlist, plain, -v, -g, -F, --trace-fields"
	else
		fail "evlist: $1" "$tev_bad"
	fi
}

tev_recorded() {
	tev_w=$BUILD_DIR/demo/pms-loops
	[ -x "$tev_w" ] || tev_w=true
	perf record -q -e cpu-clock,task-clock,page-faults -c 100003 -o "$tev_tmp/multi.data" -- "$tev_w" >/dev/null 2>&1
	tev_same "perf record -e cpu-clock,task-clock,page-faults -c 100003" "$tev_tmp/multi.data"
	perf record -q -e '{cpu-clock,task-clock}' -e context-switches -F 997 -o "$tev_tmp/group.data" -- "$tev_w" >/dev/null 2>&1
	tev_same "perf record -e '{cpu-clock,task-clock}' -e context-switches -F 997 (a group)" "$tev_tmp/group.data"
	tev_g=$("$PMUSCOPE" evlist -g -i "$tev_tmp/group.data" 2>&1 | tr '\n' '|')
	[ "$tev_g" = "{cpu-clock,task-clock}|context-switches|" ] &&
		pass "evlist: -g shows the group as {cpu-clock,task-clock}" || fail "evlist: -g" "$tev_g"
	perf record -q -e 'mygrp{cpu-clock,task-clock:u}' -o "$tev_tmp/named.data" -- true >/dev/null 2>&1
	tev_same "a named group mygrp{cpu-clock,task-clock:u}" "$tev_tmp/named.data"
	if perf record -q -e sched:sched_switch -e sched:sched_process_exec -e cpu-clock -o "$tev_tmp/tp.data" \
		-- sh -c 'sleep 0.01' >/dev/null 2>&1; then
		tev_same "tracepoints sched:sched_switch, sched:sched_process_exec beside cpu-clock" "$tev_tmp/tp.data"
		tev_t=$("$PMUSCOPE" evlist --trace-fields -i "$tev_tmp/tp.data" 2>&1 | head -1)
		case $tev_t in
		*"trace_fields: prev_comm,prev_pid,prev_prio,prev_state,next_comm,next_pid,next_prio") pass "evlist: --trace-fields names sched_switch's fields" ;;
		*) fail "evlist: --trace-fields" "$tev_t" ;;
		esac
	else
		skip "evlist: tracepoints" "perf cannot record sched:sched_switch here (no tracefs?)"
	fi
	perf record -q -e cpu-clock -o - -- true 2>/dev/null >"$tev_tmp/pipe.data"
	tev_same "a perf pipe stream (-i -)" "$tev_tmp/pipe.data" pipe
}

tev_ours() {
	"$PMUSCOPE" record -e cpu-clock,task-clock -c 200000 -o "$tev_tmp/ours.data" -- true >/dev/null 2>&1
	tev_same "pmuscope record -e cpu-clock,task-clock -c 200000" "$tev_tmp/ours.data"
	"$PMUSCOPE" record -e '{cpu-clock,task-clock}' -F 499 -o "$tev_tmp/ours_group.data" -- true >/dev/null 2>&1
	tev_same "pmuscope record -e '{cpu-clock,task-clock}' -F 499" "$tev_tmp/ours_group.data"
	if "$PMUSCOPE" record -e sched:sched_switch -o "$tev_tmp/ours_tp.data" -- sleep 0.01 >/dev/null 2>&1; then
		tev_same "pmuscope record -e sched:sched_switch" "$tev_tmp/ours_tp.data"
	else
		skip "evlist: pmuscope record -e sched:sched_switch" "the tracepoint does not open here"
	fi
	"$PMUSCOPE" record -e cpu-clock -o - -- true 2>/dev/null >"$tev_tmp/ours_pipe.data"
	tev_same "a pmuscope record -o - pipe stream" "$tev_tmp/ours_pipe.data" pipe
}

# The corpus: file-mode files exactly as perf; pipe streams as docs/evlist.md says (perf 6.1 reads
# only the HEADER_ATTRs that lead the stream, and reads short attrs past their size).
tev_corpus() {
	tev_n=0
	tev_bad=
	for tev_f in "$TOP"/tests/fixtures/perfdata/quipper/*; do
		case $tev_f in *piped*) continue ;; esac
		for tev_m in $tev_modes; do
			[ "$tev_m" = plain ] && tev_m=
			tev_p=$(timeout 60 perf evlist $tev_m -i "$tev_f" 2>/dev/null | sed "s/'perf evlist/'pmuscope evlist/")
			tev_o=$("$PMUSCOPE" evlist $tev_m -i "$tev_f" 2>/dev/null)
			[ "$tev_p" = "$tev_o" ] || tev_bad="$tev_bad $(basename "$tev_f")[${tev_m:-plain}]"
		done
		tev_n=$((tev_n + 1))
	done
	[ -z "$tev_bad" ] && [ $tev_n -gt 30 ] &&
		pass "evlist: the quipper corpus: $tev_n file-mode files, 5 modes each, same as perf" ||
		fail "evlist: the quipper corpus" "$tev_n files; differ:$tev_bad"
	tev_n=0
	tev_bad=
	for tev_f in "$TOP"/tests/fixtures/perfdata/quipper/*piped*; do
		tev_p=$(perf evlist -i - <"$tev_f" 2>/dev/null | sed 's/:uH$/:u/')
		tev_o=$("$PMUSCOPE" evlist -i - <"$tev_f" 2>/dev/null)
		# where perf 6.1 sees the events (leading HEADER_ATTRs), the names agree (6.x streams name :u what perf 6.1 calls :uH)
		if [ -n "$tev_p" ] && [ "$tev_p" != "$tev_o" ]; then
			tev_bad="$tev_bad $(basename "$tev_f")"
		elif [ -z "$tev_o" ]; then
			tev_bad="$tev_bad $(basename "$tev_f")(none)"
		fi
		tev_n=$((tev_n + 1))
	done
	[ -z "$tev_bad" ] && pass "evlist: the corpus's $tev_n pipe streams: the events perf 6.1 sees named as it names them, the others listed too" ||
		fail "evlist: the corpus's pipe streams" "$tev_bad"
}

tev_main() {
	if ! command -v perf >/dev/null 2>&1; then
		skip "evlist" "perf not installed (the oracle)"
		return
	fi
	tev_tmp=$(mktemp -d)
	tev_recorded
	tev_ours
	tev_corpus
	rm -rf "$tev_tmp"
}

tev_main
