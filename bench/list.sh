#!/bin/sh
# SPDX-License-Identifier: MIT
# `pmuscope list` (which opens every hw/sw/cache/PMU event to probe it) vs
# `perf list`, full listing, wall time: best of N runs each, then the ratio.
# Usage: sh bench/list.sh [build-dir] [runs]
set -u
build=${1:-build}
runs=${2:-10}
cd "$(dirname "$0")/.."
pms=$build/pmuscope
[ -x "$pms" ] || { echo "list: SKIP: $pms not built"; exit 0; }
command -v perf >/dev/null 2>&1 || { echo "list: SKIP: perf not installed"; exit 0; }

best_ms() { # best_ms cmd...: best wall time in ms (3 decimals) over $runs runs
	best=
	i=0
	while [ $i -lt "$runs" ]; do
		t0=$(date +%s%N)
		"$@" >/dev/null 2>&1
		t1=$(date +%s%N)
		t=$((t1 - t0))
		if [ -z "$best" ] || [ $t -lt "$best" ]; then best=$t; fi
		i=$((i + 1))
	done
	awk -v ns="$best" 'BEGIN { printf "%.3f", ns / 1e6 }'
}

# warm caches (sysfs, tracefs dentries, page cache) for both tools first
"$pms" list >/dev/null 2>&1
perf list >/dev/null 2>&1
n_ours=$("$pms" list 2>/dev/null | wc -l)
n_perf=$(perf list 2>/dev/null | wc -l)
ours=$(best_ms "$pms" list)
theirs=$(best_ms perf list)
ratio=$(awk -v a="$ours" -v b="$theirs" 'BEGIN { printf "%.2f", a / b }')
echo "list: pmuscope $ours ms ($n_ours lines), perf $theirs ms ($n_perf lines), ratio ${ratio}x"
