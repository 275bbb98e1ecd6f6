#!/bin/sh
# SPDX-License-Identifier: MIT
# `pmuscope record` vs `perf record` in the same run, on a single-threaded
# CPU-bound workload (pms-threads 1 N; the VM has 2 cores, so the recorder
# has a core of its own):
#   - workload slowdown: the workload's CPU time (user+sys, which includes
#     the sampling interrupts it suffers) under the recorder over its bare CPU
#     time (goal: <= perf's); wall-time ratios too, noisier on a shared VM,
#   - recorder CPU: user+sys of the recorder process alone = CPU of the
#     recorder and everything it reaped minus the workload's own, both taken
#     from wait4() rusage by bench/record_run.c (goal: <= 0.5x perf's; perf
#     runs with its defaults, so its build-id post-processing and ~/.debug
#     cache copy count, as a user pays them; "perf -N" shows it without the
#     cache copy),
# both with -g at 999 and 9999 Hz, median of N runs; then bytes per sample
# (data section / samples) for fp and dwarf call graphs, with and without -z
# (goal: fp with -z <= 40 B), and `record -a -- sleep 0.1` (synthesis of
# every process + build-ids) wall and CPU time.
# Usage: sh bench/record.sh [build-dir] [runs (default 6)] [iterations (default 400000000)]
set -u
build=${1:-build}
runs=${2:-6}
iters=${3:-400000000}
cd "$(dirname "$0")/.." || exit 1
pms=$build/pmuscope
demo=$build/demo/pms-threads
[ -x "$pms" ] || { echo "record: SKIP: $pms not built"; exit 0; }
[ -x "$demo" ] || { echo "record: SKIP: $demo not built"; exit 0; }
command -v perf >/dev/null 2>&1 || { echo "record: SKIP: perf not installed"; exit 0; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cc -std=gnu11 -O2 -o "$tmp/run" bench/record_run.c || { echo "record: SKIP: cannot build bench/record_run.c"; exit 0; }
pms=$(cd "$(dirname "$pms")" && pwd)/pmuscope
# word-split on purpose wherever $wl is used unquoted: program and its arguments
wl="$demo 1 $iters"

median() { sort -n | awk '{ a[NR] = $1 } END { if (!NR) { print "nan"; exit }
	m = (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2; print m }'; }

# one TAG TOOL ARGS...: record the workload once; appends
# "workload_wall_ms workload_cpu_ms recorder_cpu_ms" to $tmp/<tag>
one() {
	tag=$1
	shift
	rm -f "$tmp/rec.t" "$tmp/wl.t"
	"$tmp/run" "$tmp/rec.t" -- "$@" -o "$tmp/$tag.data" -- "$tmp/run" "$tmp/wl.t" -- $wl \
		>/dev/null 2>"$tmp/$tag.err" || { echo "record: $* failed: $(tail -n 2 "$tmp/$tag.err")" >&2; return 1; }
	read -r _ ru rs <"$tmp/rec.t"
	read -r ww wu ws <"$tmp/wl.t"
	echo "$ww $ru $rs $wu $ws" |
		awk '{ printf "%.3f %.3f %.3f\n", $1 / 1e6, ($4 + $5) / 1e3, ($2 + $3 - $4 - $5) / 1e3 }' >>"$tmp/$tag"
}

bare() {
	"$tmp/run" "$tmp/b.t" -- $wl >/dev/null
	awk '{ printf "%.3f %.3f 0\n", $1 / 1e6, ($2 + $3) / 1e3 }' "$tmp/b.t" >>"$tmp/bare"
}

col() { awk -v c="$2" '{ print $c }' "$tmp/$1" | median; }

overhead() {
	freq=$1
	rm -f "$tmp/bare" "$tmp/pms" "$tmp/perf" "$tmp/perfN"
	i=0
	while [ $i -lt "$runs" ]; do
		# alternate the order: the run right after another is measurably slower here
		bare
		if [ $((i % 2)) = 0 ]; then
			one pms "$pms" record -g -F "$freq" || return
			one perf perf record -g -F "$freq" || return
		else
			one perf perf record -g -F "$freq" || return
			one pms "$pms" record -g -F "$freq" || return
		fi
		one perfN perf record -N -g -F "$freq" || return
		i=$((i + 1))
	done
	awk -v f="$freq" -v bw="$(col bare 1)" -v bc="$(col bare 2)" \
	    -v pw="$(col pms 1)" -v fw="$(col perf 1)" -v pu="$(col pms 2)" -v fu="$(col perf 2)" \
	    -v pc="$(col pms 3)" -v fc="$(col perf 3)" -v nc="$(col perfN 3)" 'BEGIN {
		printf "record-g-%d-slowdown: workload CPU pmuscope %.3fx, perf %.3fx, ratio %.2fx (goal <= 1.00x); wall pmuscope %.3fx, perf %.3fx; bare %.0f ms\n",
			f, pu / bc, fu / bc, pu / fu, pw / bw, fw / bw, bw
		printf "record-g-%d-cpu: pmuscope %.1f ms, perf %.1f ms, ratio %.2fx (goal <= 0.5x); perf -N %.1f ms, ratio %.2fx\n",
			f, pc, fc, pc / fc, nc, pc / nc }'
}

# bytes NAME ARGS...: data-section bytes per sample, ours and perf's
bytes() {
	name=$1
	shift
	"$pms" record "$@" -o "$tmp/bp.data" -- $wl >/dev/null 2>"$tmp/bp.err" ||
		{ echo "$name: pmuscope failed: $(tail -n 1 "$tmp/bp.err")"; return; }
	perf record "$@" -o "$tmp/bf.data" -- $wl >/dev/null 2>"$tmp/bf.err" ||
		{ echo "$name: perf failed: $(tail -n 1 "$tmp/bf.err")"; return; }
	pb=$(perf report --header-only -i "$tmp/bp.data" 2>/dev/null | awk '/# data size/ { print $NF }')
	fb=$(perf report --header-only -i "$tmp/bf.data" 2>/dev/null | awk '/# data size/ { print $NF }')
	ps=$(perf report --stats -i "$tmp/bp.data" 2>/dev/null | awk '/SAMPLE events:/ { print $3; exit }')
	fs=$(perf report --stats -i "$tmp/bf.data" 2>/dev/null | awk '/SAMPLE events:/ { print $3; exit }')
	awk -v n="$name" -v pb="$pb" -v fb="$fb" -v ps="$ps" -v fs="$fs" -v g="$goal" 'BEGIN {
		if (!ps || !fs) { printf "%s: no sample count\n", n; exit }
		printf "%s: pmuscope %.1f B/sample, perf %.1f B/sample, ratio %.2fx%s\n",
			n, pb / ps, fb / fs, (pb / ps) / (fb / fs), g }'
}

# system-wide start-up and finish: synthesizing every process, then build-ids
sysw() {
	rm -f "$tmp/sa" "$tmp/sf"
	i=0
	while [ $i -lt "$runs" ]; do
		"$tmp/run" "$tmp/s.t" -- "$pms" record -a -o "$tmp/sa.data" -- sleep 0.1 >/dev/null 2>&1
		awk '{ printf "%.3f %.3f\n", $1 / 1e6, ($2 + $3) / 1e3 }' "$tmp/s.t" >>"$tmp/sa"
		"$tmp/run" "$tmp/s.t" -- perf record -a -o "$tmp/sf.data" -- sleep 0.1 >/dev/null 2>&1
		awk '{ printf "%.3f %.3f\n", $1 / 1e6, ($2 + $3) / 1e3 }' "$tmp/s.t" >>"$tmp/sf"
		i=$((i + 1))
	done
	awk -v pw="$(col sa 1)" -v fw="$(col sf 1)" -v pc="$(col sa 2)" -v fc="$(col sf 2)" 'BEGIN {
		printf "record-a-sleep-0.1: wall pmuscope %.0f ms, perf %.0f ms, ratio %.2fx; CPU pmuscope %.1f ms, perf %.1f ms, ratio %.2fx\n",
			pw, fw, pw / fw, pc, fc, pc / fc }'
}

overhead 999
overhead 9999
sysw
goal=""
bytes bytes-fp -g
goal=" (goal <= 40 B)"
bytes bytes-fp-z -g -z
goal=""
bytes bytes-dwarf --call-graph dwarf
bytes bytes-dwarf-z --call-graph dwarf -z
