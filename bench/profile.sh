#!/bin/sh
# SPDX-License-Identifier: MIT
# `pmuscope profile -p` (BPF, stacks counted in the kernel) vs `perf record -g`
# in the same run, on the single-threaded CPU-bound workload of bench/record.sh
# (pms-threads 1 N; the VM has 2 cores, so the profiler has a core of its own):
#   - workload slowdown: the workload's CPU time (user+sys, which includes the
#     sampling interrupts and the BPF program it suffers) under the profiler
#     over its bare CPU time (goal: no worse than perf's); wall ratios too,
#   - profiler CPU: user+sys of `pmuscope profile` itself (it is not the
#     workload's parent: its own rusage from bench/record_run.c), vs perf
#     record's (recorder minus workload, as bench/record.sh) (goal: <= 0.3x, issue 13; 0.5x before),
# at 999 and 9999 Hz, median of N runs; then the same with --stream (every
# sample through the BPF ring buffer and symbolized one by one in user space). profile attaches to the running
# workload by pid (it loads its program first: the first ~0.2 s go
# unsampled, which favours nothing measured here: the workload's CPU time
# is dominated by the sampled part either way).
# Usage: sh bench/profile.sh [build-dir] [runs (default 4)] [iterations (default 2000000000)]
set -u
build=${1:-build}
runs=${2:-4}
iters=${3:-2000000000}
cd "$(dirname "$0")/.." || exit 1
pms=$build/pmuscope
demo=$build/demo/pms-threads
[ -x "$pms" ] || { echo "profile: SKIP: $pms not built"; exit 0; }
[ -x "$demo" ] || { echo "profile: SKIP: $demo not built"; exit 0; }
command -v perf >/dev/null 2>&1 || { echo "profile: SKIP: perf not installed"; exit 0; }
[ "$(id -u)" = 0 ] || { echo "profile: SKIP: BPF needs root"; exit 0; }
"$pms" profile -h >/dev/null 2>&1 || { echo "profile: SKIP: profile not in this build"; exit 0; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cc -std=gnu11 -O2 -o "$tmp/run" bench/record_run.c || { echo "profile: SKIP: cannot build bench/record_run.c"; exit 0; }
pms=$(cd "$(dirname "$pms")" && pwd)/pmuscope
wl="$demo 1 $iters"

median() { sort -n | awk '{ a[NR] = $1 } END { if (!NR) { print "nan"; exit }
	m = (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2; print m }'; }
col() { awk -v c="$2" '{ print $c }' "$tmp/$1" | median; }

bare() {
	"$tmp/run" "$tmp/b.t" -- $wl >/dev/null
	awk '{ printf "%.3f %.3f 0\n", $1 / 1e6, ($2 + $3) / 1e3 }' "$tmp/b.t" >>"$tmp/bare"
}

perf_one() {
	"$tmp/run" "$tmp/rec.t" -- perf record -q -g -F "$1" -o "$tmp/perf.data" -- "$tmp/run" "$tmp/wl.t" -- $wl \
		>/dev/null 2>"$tmp/perf.err" || { echo "profile: perf record failed: $(tail -n 2 "$tmp/perf.err")" >&2; return 1; }
	read -r _ ru rs <"$tmp/rec.t"
	read -r ww wu ws <"$tmp/wl.t"
	echo "$ww $ru $rs $wu $ws" |
		awk '{ printf "%.3f %.3f %.3f\n", $1 / 1e6, ($4 + $5) / 1e3, ($2 + $3 - $4 - $5) / 1e3 }' >>"$tmp/perf"
}

pms_one() {
	rm -f "$tmp/wl.t" "$tmp/pr.t"
	"$tmp/run" "$tmp/wl.t" -- $wl >/dev/null &
	rp=$!
	wp=""
	while [ -z "$wp" ]; do wp=$(pgrep -P $rp); done
	"$tmp/run" "$tmp/pr.t" -- "$pms" profile -F "$1" $extra -p "$wp" -o "$tmp/pms.folded" >/dev/null 2>"$tmp/pms.err" ||
		{ echo "profile: pmuscope profile failed: $(tail -n 3 "$tmp/pms.err")" >&2; wait $rp; return 1; }
	wait $rp
	read -r _ pu ps <"$tmp/pr.t"
	read -r ww wu ws <"$tmp/wl.t"
	echo "$ww $wu $ws $pu $ps" |
		awk '{ printf "%.3f %.3f %.3f\n", $1 / 1e6, ($2 + $3) / 1e3, ($4 + $5) / 1e3 }' >>"$tmp/pms"
	awk '{ s += $NF } END { print s }' "$tmp/pms.folded" >>"$tmp/pms.samples"
}

# overhead FREQ [LABEL OPTION...]: the LABEL run passes the options to pmuscope profile.
overhead() {
	freq=$1 label=${2:+-$2}
	shift
	[ $# -gt 0 ] && shift
	extra="$*"
	rm -f "$tmp/bare" "$tmp/pms" "$tmp/perf" "$tmp/pms.samples"
	i=0
	while [ $i -lt "$runs" ]; do
		bare
		# alternate the order: the run right after another is measurably slower here
		if [ $((i % 2)) = 0 ]; then
			pms_one "$freq" || return
			perf_one "$freq" || return
		else
			perf_one "$freq" || return
			pms_one "$freq" || return
		fi
		i=$((i + 1))
	done
	awk -v f="$freq" -v l="$label" -v bw="$(col bare 1)" -v bc="$(col bare 2)" \
	    -v pw="$(col pms 1)" -v fw="$(col perf 1)" -v pu="$(col pms 2)" -v fu="$(col perf 2)" \
	    -v pc="$(col pms 3)" -v fc="$(col perf 3)" -v ns="$(median <"$tmp/pms.samples")" 'BEGIN {
		printf "profile%s-%d-slowdown: workload CPU pmuscope profile %.3fx, perf record -g %.3fx, ratio %.2fx (goal <= 1.00x); wall %.3fx vs %.3fx; bare %.0f ms\n",
			l, f, pu / bc, fu / bc, pu / fu, pw / bw, fw / bw, bw
		printf "profile%s-%d-cpu: pmuscope profile %.1f ms (%d samples), perf record -g %.1f ms, ratio %.2fx (goal <= 0.3x)\n",
			l, f, pc, ns, fc, pc / fc }'
}

overhead 999
overhead 9999
overhead 999 stream --stream
overhead 9999 stream --stream
