# SPDX-License-Identifier: MIT
# Kernel tests of `pmuscope record` with tracepoint events, against perf 6.1
# recording the same command with the same options:
#  - the attrs perf record sets (perf evlist -v of both files): PERF_SAMPLE_RAW
#    and CPU, sample_period 1 without -c/-F, -c and -F taking over, -g, a
#    tracepoint beside a cpu-clock;
#  - the samples: every hit, for a workload that forks a known number of
#    times, as many as perf records; with -c 2 too (the kernel reports every
#    tracepoint hit of a non-freq event that samples PERIOD, with period 1);
#  - HEADER_TRACING_DATA: the feature bit and perf report --header-only
#    (TRACING_DATA not among the missing features), the formats perf reads
#    from it (perf evlist --trace-fields), and in pipe mode one
#    PERF_RECORD_HEADER_TRACING_DATA record (perf report -D); a recorder
#    killed with SIGKILL (plain and -z) leaves a file perf reads;
#  - a tracepoint beside a cpu-clock with -g: every sample decoded with its
#    own event's layout while recording (the summary's count equals the
#    samples perf script reads).
# The payloads themselves are compared in test_script_tracepoint.sh.
# Sourced by tests/kernel/run.sh; every function and variable is rtp_-prefixed.

# rtp_attrs FILE EVENT: "key=value" lines of EVENT's attr in perf evlist -v,
# for the fields this test compares (not read_format: perf's ID|LOST, ours
# ID only with several events; not ksymbol/bpf_event: we record none).
rtp_attrs() {
	perf evlist -v -i "$1" 2>/dev/null | python3 -c '
import sys
want = {"type", "config", "{ sample_period, sample_freq }", "freq", "sample_type", "disabled",
        "inherit", "enable_on_exec", "sample_id_all", "exclude_guest", "precise_ip",
        "exclude_callchain_user", "mmap", "comm", "task"}
for line in sys.stdin:
    name, _, rest = line.rstrip("\n").partition(": ")
    if name != sys.argv[1]:
        continue
    for kv in rest.split(", "):
        k, _, v = kv.partition(": ")
        if k in want:
            print("%s=%s" % (k, v))
' "$2"
}

# rtp_same_attrs NAME "OPTIONS" EVENT...: pmuscope record and perf record with
# OPTIONS, the same attrs for each EVENT.
rtp_same_attrs() {
	rtp_name=$1
	rtp_opts=$2
	shift 2
	# shellcheck disable=SC2086
	"$PMUSCOPE" record $rtp_opts -o "$rtp_tmp/o.data" -- $rtp_work >/dev/null 2>"$rtp_tmp/o.err" ||
		{ fail "record tracepoint attrs $rtp_name" "pmuscope: $(head -n 2 "$rtp_tmp/o.err")"; return; }
	# shellcheck disable=SC2086
	perf record -q $rtp_opts -o "$rtp_tmp/p.data" -- $rtp_work >/dev/null 2>"$rtp_tmp/p.err" ||
		{ fail "record tracepoint attrs $rtp_name" "perf: $(head -n 2 "$rtp_tmp/p.err")"; return; }
	rtp_bad=
	for rtp_e in "$@"; do
		rtp_attrs "$rtp_tmp/o.data" "$rtp_e" >"$rtp_tmp/o.attr"
		rtp_attrs "$rtp_tmp/p.data" "$rtp_e" >"$rtp_tmp/p.attr"
		if [ ! -s "$rtp_tmp/p.attr" ] || ! cmp -s "$rtp_tmp/o.attr" "$rtp_tmp/p.attr"; then
			rtp_bad="$rtp_bad $rtp_e: $(diff "$rtp_tmp/o.attr" "$rtp_tmp/p.attr" | grep '^[<>]' | tr '\n' ' ')"
		fi
	done
	if [ -z "$rtp_bad" ]; then
		pass "record tracepoint attrs $rtp_name: as perf record's ($(grep -E '^(sample_type|\{ sample_period, sample_freq \})=' "$rtp_tmp/o.attr" | tr '\n' ' ' | sed 's/ $//'))"
	else
		fail "record tracepoint attrs $rtp_name" "ours < > perf's:$rtp_bad"
	fi
}

# rtp_count FILE EVENT: samples of EVENT perf script reads in FILE
rtp_count() {
	perf script -i "$1" -F event 2>/dev/null | grep -c "$2:"
}

# rtp_feature_bits FILE: the header's feature bits, one per line
rtp_feature_bits() {
	python3 - "$1" <<'EOF'
import struct, sys
d = open(sys.argv[1], 'rb').read(104)
if d[:8] == b'PERFILE2':
    flags = struct.unpack_from('<4Q', d, 72)
    for b in range(256):
        if flags[b // 64] >> (b % 64) & 1:
            print(b)
EOF
}

rtp_main() {
	if ! command -v perf >/dev/null 2>&1 || ! command -v python3 >/dev/null 2>&1; then
		skip "record tracepoints" "perf or python3 not installed (the oracle)"
		return
	fi
	if [ ! -d /sys/kernel/tracing/events/sched ] && [ ! -d /sys/kernel/debug/tracing/events/sched ]; then
		skip "record tracepoints" "tracefs is not mounted"
		return
	fi
	rtp_tmp=$(mktemp -d)
	# eight fork+exec of /bin/true (dash forks for each, as it is not the last command)
	printf '#!/bin/sh\nfor i in 1 2 3 4 5 6 7 8; do /bin/true; done\n:\n' >"$rtp_tmp/work.sh"
	rtp_work="sh $rtp_tmp/work.sh"

	rtp_same_attrs "default" "-e sched:sched_switch" sched:sched_switch
	rtp_same_attrs "-c 3" "-e sched:sched_switch -c 3" sched:sched_switch
	rtp_same_attrs "-F 200" "-e sched:sched_switch -F 200" sched:sched_switch
	rtp_same_attrs "-g, two tracepoints" "-g -e sched:sched_switch -e sched:sched_process_fork" \
		sched:sched_switch sched:sched_process_fork
	rtp_same_attrs "beside cpu-clock" "-e sched:sched_switch -e cpu-clock" sched:sched_switch cpu-clock

	# every hit is a sample (period 1); with -c 2 too: perf_swevent_event() reports
	# each hit of a non-freq event that samples PERIOD. As many as perf records.
	for rtp_c in "" "-c 2"; do
		# shellcheck disable=SC2086
		"$PMUSCOPE" record $rtp_c -e sched:sched_process_fork -e sched:sched_process_exec \
			-o "$rtp_tmp/n.data" -- $rtp_work >/dev/null 2>&1
		# shellcheck disable=SC2086
		perf record -q $rtp_c -e sched:sched_process_fork -e sched:sched_process_exec \
			-o "$rtp_tmp/pn.data" -- $rtp_work >/dev/null 2>&1
		rtp_of=$(rtp_count "$rtp_tmp/n.data" sched:sched_process_fork)
		rtp_oe=$(rtp_count "$rtp_tmp/n.data" sched:sched_process_exec)
		rtp_pf=$(rtp_count "$rtp_tmp/pn.data" sched:sched_process_fork)
		rtp_pe=$(rtp_count "$rtp_tmp/pn.data" sched:sched_process_exec)
		if [ "$rtp_of" = "$rtp_pf" ] && [ "$rtp_oe" = "$rtp_pe" ] && [ "$rtp_of" = 8 ]; then
			pass "record tracepoint samples ${rtp_c:-period 1}: $rtp_of forks of 8 and $rtp_oe execs, as perf records"
		else
			fail "record tracepoint samples ${rtp_c:-period 1}" "ours $rtp_of forks, $rtp_oe execs; perf $rtp_pf, $rtp_pe; 8 forks expected"
		fi
	done

	# HEADER_TRACING_DATA in a file
	# shellcheck disable=SC2086
	"$PMUSCOPE" record -e sched:sched_switch -e timer:hrtimer_start -o "$rtp_tmp/t.data" -- $rtp_work >/dev/null 2>&1
	# shellcheck disable=SC2086
	perf record -q -e sched:sched_switch -e timer:hrtimer_start -o "$rtp_tmp/pt.data" -- $rtp_work >/dev/null 2>&1
	rtp_missing=$(perf report --header-only -i "$rtp_tmp/t.data" 2>&1 | sed -n 's/^# missing features: //p')
	if rtp_feature_bits "$rtp_tmp/t.data" | grep -qx 1 &&
		perf report --header-only -i "$rtp_tmp/t.data" >/dev/null 2>&1 &&
		! echo "$rtp_missing" | grep -qw TRACING_DATA; then
		pass "record tracepoint file: HEADER_TRACING_DATA written, perf report --header-only counts it present"
	else
		fail "record tracepoint file: HEADER_TRACING_DATA" "bits: $(rtp_feature_bits "$rtp_tmp/t.data" | tr '\n' ' '); missing: $rtp_missing"
	fi
	perf evlist --trace-fields -i "$rtp_tmp/t.data" >"$rtp_tmp/o.tf" 2>&1
	perf evlist --trace-fields -i "$rtp_tmp/pt.data" >"$rtp_tmp/p.tf" 2>&1
	if [ "$(wc -l <"$rtp_tmp/p.tf")" -eq 2 ] && cmp -s "$rtp_tmp/o.tf" "$rtp_tmp/p.tf"; then
		pass "record tracepoint file: perf reads the same event formats from our tracing data as from its own"
	else
		fail "record tracepoint file: event formats" "$(diff "$rtp_tmp/o.tf" "$rtp_tmp/p.tf" | head -n 4 | tr '\n' ' ')"
	fi

	# pipe mode: one HEADER_TRACING_DATA record, which perf reads
	# shellcheck disable=SC2086
	"$PMUSCOPE" record -e sched:sched_switch -o - -- $rtp_work 2>/dev/null >"$rtp_tmp/pipe.data"
	rtp_n=$(perf report -D -i "$rtp_tmp/pipe.data" 2>/dev/null | grep -c ' PERF_RECORD_TRACING_DATA$')
	rtp_s=$(rtp_count "$rtp_tmp/pipe.data" sched:sched_switch)
	if [ "$rtp_n" = 1 ] && [ "$rtp_s" -gt 0 ]; then
		pass "record tracepoint pipe: one PERF_RECORD_HEADER_TRACING_DATA record; perf script reads $rtp_s samples"
	else
		fail "record tracepoint pipe" "$rtp_n tracing-data records, perf script reads $rtp_s samples"
	fi

	# killed with SIGKILL once flushes put samples in the file (-a: no command left behind):
	# the tracing data is in the file already, so perf still reads it
	for rtp_z in "" "-z"; do
		rm -f "$rtp_tmp/k.data" "$rtp_tmp/k.data.old"
		# shellcheck disable=SC2086
		"$PMUSCOPE" record $rtp_z -a -e sched:sched_switch -o "$rtp_tmp/k.data" >/dev/null 2>&1 &
		rtp_pid=$!
		# until a flush has put samples in the file (not a fixed time: a busy VM
		# may take long to synthesize every process first), at most 30 s
		rtp_i=0
		while [ "$rtp_i" -lt 300 ] && ! "$PMUSCOPE" script -i "$rtp_tmp/k.data" -F event 2>/dev/null | grep -q .; do
			sleep 0.1
			rtp_i=$((rtp_i + 1))
		done
		kill -9 "$rtp_pid" 2>/dev/null
		wait "$rtp_pid" 2>/dev/null
		rtp_p=$(rtp_count "$rtp_tmp/k.data" sched:sched_switch)
		rtp_o=$("$PMUSCOPE" script -i "$rtp_tmp/k.data" -F event 2>/dev/null | grep -c 'sched:sched_switch:')
		if [ "$rtp_p" -gt 0 ] && [ "$rtp_p" = "$rtp_o" ]; then
			pass "record tracepoint killed${rtp_z:+ $rtp_z}: perf script reads all $rtp_p flushed samples with their tracing data"
		else
			fail "record tracepoint killed${rtp_z:+ $rtp_z}" "perf script $rtp_p samples, pmuscope script $rtp_o; $(perf script -i "$rtp_tmp/k.data" 2>&1 >/dev/null | head -n 1)"
		fi
	done

	# a tracepoint (CPU|RAW) beside a cpu-clock with call chains: each record
	# decoded with its own event's layout, so every sample is counted
	printf '#!/bin/sh\ni=0\nwhile [ $i -lt 300000 ]; do i=$((i+1)); done\n' >"$rtp_tmp/spin.sh"
	"$PMUSCOPE" record -g -e sched:sched_switch -e cpu-clock -o "$rtp_tmp/m.data" -- sh "$rtp_tmp/spin.sh" \
		>/dev/null 2>"$rtp_tmp/m.err"
	rtp_sum=$(sed -n 's/.*(\([0-9]*\) samples) \]$/\1/p' "$rtp_tmp/m.err")
	rtp_all=$(perf script -i "$rtp_tmp/m.data" -F event 2>/dev/null | grep -c ':')
	rtp_cc=$(rtp_count "$rtp_tmp/m.data" cpu-clock)
	if [ -n "$rtp_sum" ] && [ "$rtp_sum" = "$rtp_all" ] && [ "$rtp_cc" -gt 0 ]; then
		pass "record tracepoint beside cpu-clock -g: the summary counts all $rtp_sum samples perf script reads ($rtp_cc cpu-clock)"
	else
		fail "record tracepoint beside cpu-clock -g" "summary ${rtp_sum:-none}, perf script $rtp_all ($rtp_cc cpu-clock)"
	fi
	rm -rf "$rtp_tmp"
}

rtp_main
