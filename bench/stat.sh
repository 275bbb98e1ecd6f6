#!/bin/sh
# SPDX-License-Identifier: MIT
# `pmuscope stat` vs `perf stat` wall time on the same workloads, same run:
# `stat -- true` (default event set: start-up + open + fork/exec + report
# cost; the goal is <= 0.5x perf), `stat -a` system-wide start-up, and
# `stat -e task-clock,page-faults` on a demo (the overhead a counted run
# adds). Median of N runs each, output to /dev/null.
# Usage: sh bench/stat.sh [build-dir] [runs (default 30)]
set -u
build=${1:-build}
runs=${2:-30}
cd "$(dirname "$0")/.."
pms=$build/pmuscope
demo=$build/demo/pms-threads
[ -x "$pms" ] || { echo "stat: SKIP: $pms not built"; exit 0; }
command -v perf >/dev/null 2>&1 || { echo "stat: SKIP: perf not installed"; exit 0; }
if "$pms" stat -e task-clock -- true 2>&1 | grep -qi 'not implemented'; then
	echo "stat: SKIP: stat not implemented yet"
	exit 0
fi

# median_ms cmd...: median wall time in ms (3 decimals) over $runs runs
median_ms() {
	i=0
	while [ $i -lt "$runs" ]; do
		t0=$(date +%s%N)
		"$@" >/dev/null 2>&1
		t1=$(date +%s%N)
		echo $((t1 - t0))
		i=$((i + 1))
	done | sort -n | awk '{ a[NR] = $1 } END {
		m = (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2
		printf "%.3f", m / 1e6 }'
}

# report NAME GOAL cmd-args...: runs `pmuscope stat ARGS` and `perf stat ARGS`
report() {
	name=$1 goal=$2
	shift 2
	"$pms" stat "$@" >/dev/null 2>&1
	rc=$?
	if [ $rc -ne 0 ]; then
		echo "$name: pmuscope stat $* failed (exit $rc)"
		return
	fi
	perf stat "$@" >/dev/null 2>&1
	ours=$(median_ms "$pms" stat "$@")
	theirs=$(median_ms perf stat "$@")
	while [ $# -gt 0 ] && [ "$1" != "--" ]; do shift; done
	shift
	base=$(median_ms "$@")
	ratio=$(awk -v a="$ours" -v b="$theirs" 'BEGIN { printf "%.2f", a / b }')
	echo "$name: pmuscope $ours ms, perf $theirs ms, ratio ${ratio}x${goal:+ (goal $goal)}; bare workload $base ms"
}

report stat-true "<= 0.5x" -- true
report stat-a-true "" -a -e cpu-clock,task-clock,page-faults,context-switches -- true
[ -x "$demo" ] && report stat-demo "" -e task-clock,page-faults -- "$demo" 2 20000000
