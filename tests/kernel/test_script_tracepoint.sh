# SPDX-License-Identifier: MIT
# Kernel tests of tracepoint payloads in `pmuscope script` (lib/data/tracing_data.c):
# on files perf records (file and pipe mode, with and without call chains) and
# files pmuscope records, the formatted fields of every sample must equal
# `perf script`'s, line by line: sched_switch, sched_wakeup, syscall, timer, irq
# and exec/fork events (dynamic strings). A perf file with its tracing data
# removed checks the fallback to this machine's tracefs. A file pmuscope
# records is compared with perf reading it, or, when pmuscope writes no tracing
# data, with perf reading a copy into which the tracing data of a perf
# recording of the same events (same boot, same ids) was spliced.
# Sourced by tests/kernel/run.sh; every function and variable is st_-prefixed.

# st_features FILE: the feature bits of a PERFILE2 file, one per line.
st_features() {
	python3 - "$1" <<'EOF'
import struct, sys
d = open(sys.argv[1], 'rb').read(104)
if d[:8] != b'PERFILE2':
    sys.exit(1)
flags = struct.unpack_from('<4Q', d, 72)
for b in range(256):
    if flags[b // 64] >> (b % 64) & 1:
        print(b)
EOF
}

# st_splice FROM INTO OUT: OUT is INTO with FROM's HEADER_TRACING_DATA section
# (feature bit 1) added, or with INTO's own one removed when FROM is "-".
st_splice() {
	python3 - "$1" "$2" "$3" <<'EOF'
import struct, sys
def sections(d):
    off, size = struct.unpack_from('<QQ', d, 40)
    flags = struct.unpack_from('<4Q', d, 72)
    bits = [b for b in range(256) if flags[b // 64] >> (b % 64) & 1]
    t = off + size
    return off + size, {b: d[o:o + s] for b, (o, s) in
                        zip(bits, (struct.unpack_from('<QQ', d, t + 16 * i) for i in range(len(bits))))}
src, into, out = sys.argv[1:]
d = bytearray(open(into, 'rb').read())
end, secs = sections(d)
if src == '-':
    secs.pop(1, None)
else:
    secs[1] = sections(open(src, 'rb').read())[1][1]
flags = [0, 0, 0, 0]
for b in secs:
    flags[b // 64] |= 1 << (b % 64)
res = bytearray(d[:end])
pos = end + 16 * len(secs)
table, payload = b'', b''
for b in sorted(secs):
    table += struct.pack('<QQ', pos + len(payload), len(secs[b]))
    payload += secs[b]
res += table + payload
struct.pack_into('<4Q', res, 72, *flags)
open(out, 'wb').write(res)
EOF
}

# st_compare NAME OURS_FILE [PERF_FILE]: perf script on PERF_FILE (default the
# same file) and pmuscope script on OURS_FILE, compared line by line: the
# payload of every sample (with -F cpu,time,event,trace) and the default lines.
st_compare() {
	st_name=$1
	st_ours=$2
	st_perf=${3:-$2}
	if ! perf script -i "$st_perf" -F cpu,time,event,trace >"$st_tmp/p.txt" 2>"$st_tmp/p.err"; then
		fail "script tracepoints $st_name: perf script reads it" "$(head -n 2 "$st_tmp/p.err")"
		return
	fi
	if ! "$PMUSCOPE" script -i "$st_ours" -F cpu,time,event,trace >"$st_tmp/o.txt" 2>"$st_tmp/o.err"; then
		fail "script tracepoints $st_name: exit 0" "$(head -n 3 "$st_tmp/o.err")"
		return
	fi
	st_np=$(wc -l <"$st_tmp/p.txt")
	st_no=$(wc -l <"$st_tmp/o.txt")
	# the payload: what follows "sys:event: "
	sed -E 's/^[^:]*: +[a-z_0-9]+:[a-z_0-9]+: //' "$st_tmp/p.txt" >"$st_tmp/p.pay"
	sed -E 's/^[^:]*: +[a-z_0-9]+:[a-z_0-9]+: //' "$st_tmp/o.txt" >"$st_tmp/o.pay"
	st_empty=$(grep -c '^$' "$st_tmp/o.pay")
	st_same=$(paste -d '\n' "$st_tmp/o.pay" "$st_tmp/p.pay" | awk 'NR % 2 { o = $0; next } o == $0 { n++ } END { print n + 0 }')
	if [ "$st_np" -ge 20 ] && [ "$st_no" = "$st_np" ] && [ "$st_same" = "$st_np" ] && [ "$st_empty" = 0 ] &&
		cmp -s "$st_tmp/o.txt" "$st_tmp/p.txt"; then
		pass "script tracepoints $st_name: all $st_np payloads as perf prints them ($(st_events "$st_tmp/p.txt"))"
	else
		fail "script tracepoints $st_name: payloads" "ours $st_no lines ($st_empty empty), perf $st_np, $st_same payloads equal; first difference: $(diff "$st_tmp/o.txt" "$st_tmp/p.txt" | head -n 4 | tr '\n' ' ' | cut -c1-400); $(head -n 2 "$st_tmp/o.err")"
		return
	fi
	# perf's default fields: comm, tid, cpu, time, event and the payload; call
	# chain frames (-g) are test_script.sh's (symbol aliases may differ there)
	perf script -i "$st_perf" >"$st_tmp/p.all" 2>/dev/null
	"$PMUSCOPE" script -i "$st_ours" >"$st_tmp/o.all" 2>/dev/null
	st_tab=$(printf '\t')
	grep -v "^$st_tab" "$st_tmp/p.all" >"$st_tmp/p.txt"
	grep -v "^$st_tab" "$st_tmp/o.all" >"$st_tmp/o.txt"
	st_fp=$(grep -c "^$st_tab" "$st_tmp/p.all")
	st_fo=$(grep -c "^$st_tab" "$st_tmp/o.all")
	st_frames=
	[ "$st_fp" -gt 0 ] && st_frames=", and as many call-chain lines ($st_fp)"
	if cmp -s "$st_tmp/o.txt" "$st_tmp/p.txt" && [ "$st_fp" = "$st_fo" ]; then
		pass "script tracepoints $st_name: default sample lines identical to perf script's ($st_np)$st_frames"
	else
		fail "script tracepoints $st_name: default output" "frames: ours $st_fo, perf $st_fp; $(diff "$st_tmp/o.txt" "$st_tmp/p.txt" | head -n 4 | tr '\n' ' ' | cut -c1-400)"
	fi
}

# st_report NAME FILE: `perf report --sort trace` (its "Trace output" column,
# one row per distinct payload of each event, with its sample count) against
# the payloads `pmuscope script` prints for FILE, counted the same way.
st_report() {
	if ! perf report -i "$2" --stdio --no-children -n --sort trace -g none -w 10,10,8000 \
		>"$st_tmp/r.txt" 2>"$st_tmp/r.err"; then
		fail "script tracepoints $1: perf report reads it" "$(grep -v '^#' "$st_tmp/r.err" | head -n 2)"
		return
	fi
	"$PMUSCOPE" script -i "$2" -F event,trace >"$st_tmp/ro.txt" 2>/dev/null
	st_v=$(python3 - "$st_tmp/r.txt" "$st_tmp/ro.txt" <<'EOF2'
import collections, re, sys
perf, ours = collections.Counter(), collections.Counter()
ev = None
for line in open(sys.argv[1], errors='replace'):
    m = re.match(r"# Samples: .* of event '([^']*)'", line)
    if m:
        ev = m.group(1)
        continue
    m = re.match(r'^ +[0-9.]+% +([0-9]+)  (.*)$', line.rstrip('\n'))
    if m and ev:
        perf[(ev, m.group(2).rstrip())] += int(m.group(1))
for line in open(sys.argv[2], errors='replace'):
    m = re.match(r'^ *([a-z_0-9]+:[a-z_0-9]+): (.*)$', line.rstrip('\n'))
    if m:
        ours[(m.group(1), m.group(2).rstrip())] += 1
n = sum(perf.values())
if n < 20 or perf != ours:
    diff = sorted(set(perf.items()) ^ set(ours.items()))[:2]
    print('differ: perf report %d samples in %d rows, ours %d in %d; first differences: %s' %
          (n, len(perf), sum(ours.values()), len(ours), str(diff)[:300]))
else:
    print('same: %d samples in %d rows (%d events)' % (n, len(perf), len({e for e, _ in perf})))
EOF2
)
	case $st_v in
	same*) pass "script tracepoints $1: perf report's trace rows and counts equal ours (${st_v#same: })" ;;
	*) fail "script tracepoints $1: perf report" "$st_v" ;;
	esac
}

# st_events TEXT: "N sched:sched_switch, M ..." of a -F cpu,time,event,trace text
st_events() {
	sed -nE 's/^[^:]*: +([a-z_0-9]+:[a-z_0-9]+): .*/\1/p' "$1" | sort | uniq -c |
		awk '{ printf "%s%d %s", (NR > 1 ? ", " : ""), $1, $2 }'
}

# st_has FILE EVENT...: every EVENT has samples in perf's text of FILE
st_has() {
	st_f=$1
	shift
	perf script -i "$st_f" -F event 2>/dev/null | sed 's/: *$//; s/^ *//' | sort -u >"$st_tmp/evs"
	for st_e in "$@"; do
		grep -qx "$st_e" "$st_tmp/evs" || { echo "$st_e"; return 1; }
	done
	return 0
}

st_main() {
	if ! command -v perf >/dev/null 2>&1; then
		skip "script tracepoints" "perf not installed (the oracle)"
		return
	fi
	if ! command -v python3 >/dev/null 2>&1; then
		skip "script tracepoints" "python3 not installed (splices feature sections)"
		return
	fi
	if [ ! -d /sys/kernel/tracing/events/sched ] && [ ! -d /sys/kernel/debug/tracing/events/sched ]; then
		skip "script tracepoints" "tracefs is not mounted"
		return
	fi
	st_tmp=$(mktemp -d)
	# a workload that opens files, sleeps (hrtimers), forks and execs
	st_work="sh -c 'for i in 1 2 3 4 5 6; do cat /etc/hostname /proc/self/stat >/dev/null; sleep 0.02; done'"

	if ! perf record -q -a -o "$st_tmp/sched.data" -e sched:sched_switch -e sched:sched_wakeup \
		-- sh -c "$st_work" >/dev/null 2>"$st_tmp/rec.err"; then
		skip "script tracepoints" "perf record of sched tracepoints failed: $(head -n 1 "$st_tmp/rec.err")"
		rm -rf "$st_tmp"
		return
	fi
	st_compare "perf record -a sched_switch,sched_wakeup" "$st_tmp/sched.data"

	perf record -q -a -o "$st_tmp/misc.data" -e syscalls:sys_enter_openat -e syscalls:sys_exit_openat \
		-e timer:hrtimer_start -e timer:hrtimer_expire_entry -e timer:hrtimer_cancel -e 'irq:softirq_*' \
		-- sh -c "$st_work" >/dev/null 2>&1
	if st_miss=$(st_has "$st_tmp/misc.data" syscalls:sys_enter_openat timer:hrtimer_start); then
		st_compare "perf record -a syscalls, timer, irq" "$st_tmp/misc.data"
	else
		fail "script tracepoints syscalls, timer, irq" "perf recorded no $st_miss sample"
	fi

	perf record -q -a -o "$st_tmp/exec.data" -e sched:sched_process_exec -e sched:sched_process_fork \
		-e sched:sched_process_exit -e sched:sched_waking -- sh -c "$st_work" >/dev/null 2>&1
	st_compare "perf record -a exec, fork, exit (dynamic strings)" "$st_tmp/exec.data"

	perf record -q -a -g -o "$st_tmp/g.data" -e sched:sched_switch -e timer:hrtimer_start \
		-- sh -c "$st_work" >/dev/null 2>&1
	st_compare "perf record -a -g sched_switch,hrtimer_start" "$st_tmp/g.data"

	perf record -q -a -o - -e sched:sched_switch -e syscalls:sys_enter_openat -e timer:hrtimer_start \
		-- sh -c "$st_work" 2>/dev/null >"$st_tmp/pipe.data"
	st_compare "perf record -a -o - (pipe)" "$st_tmp/pipe.data"

	# no tracing data in the file: this machine's tracefs formats the payloads
	st_splice - "$st_tmp/misc.data" "$st_tmp/stripped.data"
	if st_features "$st_tmp/stripped.data" | grep -qx 1; then
		fail "script tracepoints without tracing data" "the tracing data was not removed"
	else
		st_compare "perf file without its tracing data (from tracefs)" "$st_tmp/stripped.data" "$st_tmp/misc.data"
	fi

	st_report "perf record -a syscalls, timer, irq" "$st_tmp/misc.data"
	st_report "perf record -a -o - (pipe)" "$st_tmp/pipe.data"

	# files pmuscope records: perf script, perf report and pmuscope script
	# print the same payloads from the tracing data pmuscope wrote (file and
	# pipe mode, with call chains too)
	st_evs="-e sched:sched_switch -e sched:sched_wakeup -e syscalls:sys_enter_openat -e timer:hrtimer_start"
	for st_mode in file g pipe; do
		st_o=$st_tmp/ours-$st_mode.data
		case $st_mode in
		file) st_opts="-a -o $st_o" st_what="pmuscope record -a" ;;
		g) st_opts="-a -g -o $st_o" st_what="pmuscope record -a -g" ;;
		pipe) st_opts="-a -o -" st_what="pmuscope record -a -o - (pipe)" ;;
		esac
		# shellcheck disable=SC2086
		if [ "$st_mode" = pipe ]; then
			"$PMUSCOPE" record $st_opts $st_evs -- sh -c "$st_work" 2>"$st_tmp/rec.err" >"$st_o"
		else
			"$PMUSCOPE" record $st_opts $st_evs -- sh -c "$st_work" >/dev/null 2>"$st_tmp/rec.err"
		fi
		if [ $? -ne 0 ] || grep -q 'tracing data' "$st_tmp/rec.err"; then
			fail "script tracepoints $st_what" "$(grep -v '^\[' "$st_tmp/rec.err" | head -n 2)"
			continue
		fi
		st_compare "$st_what (its own tracing data)" "$st_o"
		st_report "$st_what" "$st_o"
	done
	rm -rf "$st_tmp"
}

st_main
