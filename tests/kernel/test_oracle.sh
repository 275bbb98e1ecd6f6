# SPDX-License-Identifier: MIT
# Event-parser oracle: for each event string valid on this machine, the
# perf_event_attr blocks `pmuscope stat -vv` prints must equal what
# `perf stat -vv` (6.1) prints, field by field, in the same order, with the
# same cpu/group/flags on each open (pids and fd numbers are ignored; retries
# after a failed open are left out on both sides, their policies differ).
# Sourced by tests/kernel/run.sh.

# Normalise -vv output on stdin: one line per first open attempt of an event:
#   "<attr fields joined by '; '> | cpu C group G flags F"
to_oracle_blocks() {
	awk '
	function key_of(b,   n, parts, i, k) {
		k = ""
		n = split(b, parts, "; ")
		for (i = 1; i <= n; i++)
			if (parts[i] ~ /^(type|config) /)
				k = k parts[i] ";"
		return k
	}
	/^perf_event_attr:/ { inb = 1; blk = ""; next }
	inb && /^-+$/ { inb = 0; pending = blk; next }
	inb { line = $0; sub(/^ +/, "", line); gsub(/ +/, " ", line); blk = blk (blk == "" ? "" : "; ") line; next }
	/^sys_perf_event_open: pid / {
		grp = ($7 == "-1") ? "-1" : "fd"
		cur = pending " | cpu " $5 " group " grp " flags " $9
		k = key_of(pending)
		if (!(prev_failed != "" && k == prev_key))
			print cur
		prev_key = k
		prev_failed = ""
		next
	}
	/^sys_perf_event_open failed, error / { if ($NF != "-2") prev_failed = $NF; next }
	'
}

oracle_events() {
	# software events and perf's spellings
	printf '%s\n' cpu-clock task-clock page-faults faults minor-faults major-faults \
		context-switches cs cpu-migrations migrations alignment-faults emulation-faults \
		dummy bpf-output cgroup-switches
	# modifiers with perf's semantics
	printf '%s\n' cpu-clock:u cpu-clock:k cpu-clock:h cpu-clock:uk cpu-clock:ku cpu-clock:ukh \
		cpu-clock:G cpu-clock:H cpu-clock:uG cpu-clock:I cpu-clock:D cpu-clock:e cpu-clock:W \
		cpu-clock:S cpu-clock:P cpu-clock:p cpu-clock:pp cpu-clock:b task-clock:upp
	# hardware, cache and raw events: no PMU here, but both print what they try to open
	printf '%s\n' cycles instructions cache-misses branches ref-cycles cycles:u instructions:k \
		L1-dcache-load-misses LLC-loads dTLB-stores iTLB-load-misses branch-loads node-prefetches \
		l1d-loads L1-dcache-misses r1234 rABCD:u r0
	# sysfs PMUs: msr (aliases, formats, terms), software, uprobe formats
	printf '%s\n' msr/tsc/ tsc tsc:u msr/tsc/k msr/event=0x0/ msr/config=0x1/ \
		'msr/event=0x1,event=0x2/' 'msr/tsc,period=1000/' 'msr/event=0x0,name=mytsc/' msr// \
		software/config=0/u software/config=3/ uprobe/retprobe/
	# terms on legacy names
	printf '%s\n' 'cpu-clock/period=1000/' 'task-clock/config=3/' 'cpu-clock/name=foo,period=5/u'
	# groups, group modifiers, lists
	printf '%s\n' '{cpu-clock,cs}' '{cpu-clock,cs}:u' '{cpu-clock:k,cs}:u' '{cpu-clock,cs:G}:H' \
		'{cs,cpu-clock}:D' '{cs:D,cpu-clock:D}' '{cpu-clock,cs}:W' '{task-clock,faults}:S' \
		'{cpu-clock,msr/tsc/}:u' 'cpu-clock,{task-clock,cs}' 'cpu-clock,task-clock' 'cpu-clock, cs' \
		'{ cpu-clock,cs }:u'
	# breakpoints
	printf '%s\n' mem:0x1000 mem:0x1000/8 mem:0x1000:x
	# tool events (perf opens a software dummy; duration_time without enable_on_exec)
	printf '%s\n' user_time system_time duration_time
}

oracle_tracepoints() {
	printf '%s\n' sched:sched_switch sched:sched_switch:u 'sched:sched_process_*' raw_syscalls:sys_enter \
		syscalls:sys_enter_openat '{sched:sched_switch,sched:sched_wakeup}:k'
}

oracle_one() { # oracle_one EVENT
	ev=$1
	perf stat -vv -e "$ev" true >"$or_dir/perf.raw" 2>&1
	"$PMUSCOPE" stat -vv -e "$ev" -- true >"$or_dir/ours.raw" 2>&1
	to_oracle_blocks <"$or_dir/perf.raw" >"$or_dir/perf.blk"
	to_oracle_blocks <"$or_dir/ours.raw" >"$or_dir/ours.blk"
	if [ ! -s "$or_dir/perf.blk" ]; then
		fail "oracle: $ev" "perf printed no perf_event_attr (perf rejects it?): $(head -2 "$or_dir/perf.raw" | tr '\n' ' ')"
	elif cmp -s "$or_dir/perf.blk" "$or_dir/ours.blk"; then
		or_match=$((or_match + 1))
		pass "oracle: $ev ($(wc -l <"$or_dir/perf.blk" | tr -d ' ') opens)"
	else
		fail "oracle: $ev" "$(diff "$or_dir/perf.blk" "$or_dir/ours.blk" | grep '^[<>]' | head -4 | tr '\n' ' ')"
	fi
	# display names as `stat -x,` prints them (third field); perf does not quote names with
	# commas, so those are compared only when neither side has a comma in a name
	case $ev in *[/:]*,*/*) return ;; esac
	perf stat -x, -e "$ev" true 2>&1 | awk -F, 'NF > 3 { print $3 }' >"$or_dir/perf.names"
	"$PMUSCOPE" stat -x, -e "$ev" -- true 2>&1 | awk -F, 'NF > 3 { print $3 }' >"$or_dir/ours.names"
	if cmp -s "$or_dir/perf.names" "$or_dir/ours.names"; then
		pass "oracle names: $ev"
	else
		fail "oracle names: $ev" "perf '$(tr '\n' '|' <"$or_dir/perf.names")' ours '$(tr '\n' '|' <"$or_dir/ours.names")'"
	fi
}

oracle_tests() {
	if ! command -v perf >/dev/null 2>&1 || ! perf stat -e cpu-clock true >/dev/null 2>&1; then
		skip "oracle" "perf is not installed or cannot count here"
		return
	fi
	if ! "$PMUSCOPE" stat -h >/dev/null 2>&1; then
		skip "oracle" "stat not implemented"
		return
	fi
	or_dir=$(mktemp -d)
	or_match=0
	or_total=0
	for ev in $(oracle_events | tr ' ' '\001'); do
		ev=$(printf '%s' "$ev" | tr '\001' ' ')
		or_total=$((or_total + 1))
		oracle_one "$ev"
	done
	# tracepoints need tracefs: mount it as perf would tell root to, else skip them
	if [ ! -d /sys/kernel/tracing/events ] && [ ! -d /sys/kernel/debug/tracing/events ]; then
		mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null
	fi
	if [ -d /sys/kernel/tracing/events ] || [ -d /sys/kernel/debug/tracing/events ]; then
		for ev in $(oracle_tracepoints); do
			or_total=$((or_total + 1))
			oracle_one "$ev"
		done
	else
		skip "oracle: tracepoints" "tracefs is not mounted and could not be mounted"
	fi
	echo "oracle: $or_match of $or_total event strings match perf stat -vv"
	rm -rf "$or_dir"
}

oracle_tests
