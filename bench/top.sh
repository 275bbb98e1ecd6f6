#!/bin/sh
# SPDX-License-Identifier: MIT
# `pmuscope top` vs `perf top`, both in their terminal views on a pty (bench/top_bench.py), in
# the same run:
#   - own CPU over 20 s of system-wide sampling at 999 and 9999 Hz while two pms-shares keep both
#     CPUs busy (goal <= 0.25x): perf top reads and symbolizes every sample in user space, top
#     reads the kernel's counts once per refresh. The sampling interrupt and the BPF program run
#     in the sampled task's context for both, so neither tool's number includes them;
#   - time from exec to the first screen naming the workload's hottest function (goal <= 0.3x);
#   - resident memory at 20, 40 and 60 s while make -j2 rebuilds this tree over and over (many
#     short-lived processes; goal <= 0.3x, and not growing after the first refreshes).
# Usage: sh bench/top.sh [build-dir] [seconds for the CPU runs (default 20)] [seconds for RSS (default 60)]
set -u
build=${1:-build}
secs=${2:-20}
rss_secs=${3:-60}
cd "$(dirname "$0")/.." || exit 1
pms=$(pwd)/$build/pmuscope
demo=$(pwd)/$build/demo/pms-shares
[ -x "$pms" ] || { echo "top: SKIP: $pms not built"; exit 0; }
[ -x "$demo" ] || { echo "top: SKIP: $demo not built"; exit 0; }
command -v perf >/dev/null 2>&1 || { echo "top: SKIP: perf not installed"; exit 0; }
[ "$(id -u)" = 0 ] || { echo "top: SKIP: BPF and system-wide sampling need root"; exit 0; }
"$pms" top -h >/dev/null 2>&1 || { echo "top: SKIP: top not in this build"; exit 0; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export PMUSCOPE="$pms"

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "n/a" }'; }
val() { sed -n "s/^$1 //p" "$tmp/out"; }

for f in 999 9999; do
	python3 bench/top_bench.py cpu "$demo" $f "$secs" >>"$tmp/out"
	echo "top: own CPU over ${secs} s at $f Hz, system-wide, 2 busy CPUs: pmuscope $(val cpu_pmuscope_$f) s, perf top $(val cpu_perf_$f) s: $(ratio "$(val cpu_pmuscope_$f)" "$(val cpu_perf_$f)")x (goal <= 0.25); after the first 5 s: pmuscope $(val steady_pmuscope_$f) s, perf top $(val steady_perf_$f) s: $(ratio "$(val steady_pmuscope_$f)" "$(val steady_perf_$f)")x"
done
python3 bench/top_bench.py first "$demo" 3 >>"$tmp/out"
echo "top: first screen naming leaf_alpha (median of 3): pmuscope $(val first_pmuscope) s, perf top $(val first_perf) s: $(ratio "$(val first_pmuscope)" "$(val first_perf)")x (goal <= 0.3)"
git archive HEAD | tar -x -C "$tmp" 2>/dev/null || cp -r Makefile cli lib include bpf demo scripts "$tmp"/
python3 bench/top_bench.py rss "$tmp" "$rss_secs" >>"$tmp/out"
set -- $(val rss_pmuscope)
p20=$1 p40=$2 p60=$3
set -- $(val rss_perf)
echo "top: RSS under make -j2 at $((rss_secs / 3)), $((2 * rss_secs / 3)), $rss_secs s: pmuscope $p20 $p40 $p60 kB, perf top $1 $2 $3 kB: $(ratio "$p60" "$3")x at the end (goal <= 0.3); pmuscope grew $(ratio "$p60" "$p20")x after the first third"
