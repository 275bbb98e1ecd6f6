# SPDX-License-Identifier: MIT
# Kernel tests of lib/perf_event/mmap + lib/ring: tests/kernel/ring_probe.c
# samples a busy child with cpu-clock on every CPU (dummy tracking event
# redirected by SET_OUTPUT), drains the rings with poll and decodes every
# record; each "ok/fail NAME" line it prints becomes a check here. Sourced
# by tests/kernel/run.sh: functions only, no exit, no set -e.

ring_run_probe() { # ring_run_probe LABEL MIN_CHECKS ARGS... -> pass/fail per probe line; stats line in $ring_stats
	label=$1
	min=$2
	shift 2
	ring_out=$("$ring_dir/ring_probe" "$@" 2>&1)
	ring_rc=$?
	ring_stats=$(printf '%s\n' "$ring_out" | sed -n 's/^stats //p')
	if printf '%s\n' "$ring_out" | grep -q '^skip '; then
		skip "ring $label" "$(printf '%s\n' "$ring_out" | sed -n 's/^skip //p' | head -n 1)"
		return
	fi
	n=0
	while IFS= read -r line; do
		case $line in
		"ok "*) rest=${line#ok }; pass "ring $label ${rest%% *} (${rest#* })"; n=$((n + 1)) ;;
		"fail "*) rest=${line#fail }; fail "ring $label ${rest%% *}" "${rest#* }"; n=$((n + 1)) ;;
		esac
	done <<RING_EOF
$ring_out
RING_EOF
	if [ "$ring_rc" -ne 0 ] || [ "$n" -lt "$min" ]; then
		fail "ring $label probe" "exit $ring_rc, $n checks: $ring_out"
	fi
}

ring_tests() {
	ring_dir=$(mktemp -d)
	if ! cc -std=gnu11 -O2 -g -Wall -Wextra -Werror -D_GNU_SOURCE -I"$TOP/include" -I"$TOP/lib" \
		"$TOP/tests/kernel/ring_probe.c" "$BUILD_DIR/libpmuscope.a" -ldw -lelf -lzstd -lz -liberty -lm \
		-o "$ring_dir/ring_probe" >"$ring_dir/cc.log" 2>&1; then
		fail "ring probe builds" "$(cat "$ring_dir/cc.log")"
		rm -rf "$ring_dir"
		return
	fi
	pass "ring probe builds"

	# perf's shape: 1000 Hz, 300 ms, a small ring.
	ring_run_probe "1kHz" 14 300 1000 2
	echo "ring 1kHz: $ring_stats"
	ring_1k_stats=$ring_stats

	# One data page at 4 kHz: records straddle the end of the ring all the time.
	ring_run_probe "4kHz-1page" 14 300 4000 1
	echo "ring 4kHz-1page: $ring_stats"
	wrapped=$(printf '%s\n' "$ring_stats" | sed -n 's/.*wrapped=\([0-9]*\).*/\1/p')
	if [ "${wrapped:-0}" -gt 0 ]; then
		pass "ring split records copied on a real ring (wrapped=$wrapped)"
	else
		fail "ring split records copied on a real ring" "no record straddled the end: $ring_stats"
	fi

	# Overflow on purpose (drain every 100 ms, one page at 4 kHz): LOST records, ids, lost %.
	ring_run_probe "overflow" 10 300 4000 1 slow
	echo "ring overflow: $ring_stats"

	# Flight-recorder rings: write_backward into read-only 1-page rings, read newest first.
	ring_run_probe "overwrite" 2 --overwrite 300

	# perf as the oracle: the same workload under perf record at 1 kHz.
	ours=$(printf '%s\n' "$ring_1k_stats" | sed -n 's/.* samples=\([0-9]*\).*/\1/p')
	if ! command -v perf >/dev/null; then
		skip "ring sample count matches perf record" "perf not installed"
	elif perf record -q -e cpu-clock -F 1000 -g -o "$ring_dir/perf.data" -- "$ring_dir/ring_probe" --busy 300 \
		>"$ring_dir/perf.log" 2>&1; then
		theirs=$(perf report -D -i "$ring_dir/perf.data" 2>/dev/null | grep -c 'PERF_RECORD_SAMPLE(')
		if [ "${ours:-0}" -gt 0 ] && [ "$theirs" -gt 0 ] &&
			[ $((ours * 100)) -ge $((theirs * 80)) ] && [ $((ours * 100)) -le $((theirs * 120)) ]; then
			pass "ring sample count matches perf record (pmuscope $ours, perf $theirs, +-20%)"
		else
			fail "ring sample count matches perf record" "pmuscope ${ours:-?}, perf $theirs"
		fi
	else
		fail "ring sample count matches perf record" "perf record failed: $(tail -n 3 "$ring_dir/perf.log")"
	fi

	# Sizing errors: not a power of two; over the locked-memory budget without CAP_IPC_LOCK.
	out=$("$ring_dir/ring_probe" --map-only 3 2>&1)
	case $out in
	"map 22 "*"power of two"*) pass "ring mmap of 3 pages refused with a reason" ;;
	*) fail "ring mmap of 3 pages refused with a reason" "$out" ;;
	esac
	paranoid=$(cat /proc/sys/kernel/perf_event_paranoid 2>/dev/null || echo 2)
	if ! command -v setpriv >/dev/null; then
		skip "ring mmap EPERM over perf_event_mlock_kb" "setpriv not installed"
	elif [ "$paranoid" -lt 0 ]; then
		skip "ring mmap EPERM over perf_event_mlock_kb" "perf_event_paranoid=-1 lifts the limit"
	else
		# The budget is perf_event_mlock_kb x online CPUs; ask for well over it.
		kb=$(cat /proc/sys/kernel/perf_event_mlock_kb)
		cpus=$(getconf _NPROCESSORS_ONLN)
		pages=1
		while [ $((pages * 4)) -le $((kb * cpus * 2)) ]; do pages=$((pages * 2)); done
		out=$(setpriv --bounding-set=-ipc_lock sh -c "ulimit -l 0; '$ring_dir/ring_probe' --map-only $pages" 2>&1)
		case $out in
		"map 1 "*perf_event_mlock_kb*RLIMIT_MEMLOCK*) pass "ring mmap EPERM over perf_event_mlock_kb explained ($pages pages)" ;;
		*) fail "ring mmap EPERM over perf_event_mlock_kb explained" "$out" ;;
		esac
		out=$(setpriv --bounding-set=-ipc_lock sh -c "ulimit -l 0; '$ring_dir/ring_probe' --map-only 64" 2>&1)
		case $out in
		"map ok"*) pass "ring mmap of 64 pages fits the budget without CAP_IPC_LOCK" ;;
		# The budget is per user: root's other rings (tests running alongside) may hold it.
		"map 1 "*) skip "ring mmap of 64 pages fits the budget without CAP_IPC_LOCK" "other root rings hold the per-user budget now" ;;
		*) fail "ring mmap of 64 pages fits the budget without CAP_IPC_LOCK" "$out" ;;
		esac
	fi
	rm -rf "$ring_dir"
}

ring_tests
