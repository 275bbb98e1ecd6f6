#!/bin/sh
# SPDX-License-Identifier: MIT
# `pmuscope annotate` vs `perf annotate --stdio` in the same run, on one perf.data (perf's own)
# of gcc compiling this project's larger sources: the 10 hottest functions of cc1 (a 30 MB binary
# with 100k symbols), as `perf report --dsos cc1` ranks them:
#   - time to annotate them: perf annotate once per function (each forks objdump over cc1), ours
#     once for the ten (goal <= 0.05x);
#   - peak RSS of one annotation run each, /usr/bin/time -f %M (goal <= 0.5x).
# Both print source lines (perf through objdump -S, ours through libdw).
# Usage: sh bench/annotate.sh [build-dir]
set -u
build=${1:-build}
cd "$(dirname "$0")/.." || exit 1
pms=$(pwd)/$build/pmuscope
[ -x "$pms" ] || { echo "annotate: SKIP: $pms not built"; exit 0; }
command -v perf >/dev/null 2>&1 || { echo "annotate: SKIP: perf not installed"; exit 0; }
[ -x /usr/bin/time ] || { echo "annotate: SKIP: /usr/bin/time not installed"; exit 0; }
cc1=$(gcc -print-prog-name=cc1)
[ -x "$cc1" ] || { echo "annotate: SKIP: no cc1"; exit 0; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

perf record -q -F 2000 -o "$tmp/perf.data" -- sh -c "for f in lib/aggregate/session.c lib/symbol/dso.c \
	lib/data/reader.c lib/aggregate/hist.c lib/export/pprof.c lib/aggregate/stacks.c; do \
	gcc -std=gnu11 -O2 -g -D_GNU_SOURCE -Iinclude -Ilib -I$build/bpf -c \$f -o $tmp/x.o; done" >/dev/null 2>&1
syms=$(perf report -i "$tmp/perf.data" --dsos cc1 --stdio -F sym 2>/dev/null | grep '\[\.\]' | head -n 10 |
	sed 's/^ *\[\.\] *//; s/ *$//')
n=$(echo "$syms" | grep -c .)
[ "$n" -ge 3 ] || { echo "annotate: SKIP: only $n cc1 functions sampled"; exit 0; }

start=$(date +%s.%N)
echo "$syms" | while IFS= read -r s; do
	/usr/bin/time -f "%M" -a -o "$tmp/perf.rss" perf annotate -i "$tmp/perf.data" --stdio -d cc1 -s "$s" >/dev/null 2>&1
done
perf_s=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { print b - a }')
set --
while IFS= read -r s; do set -- "$@" "$s"; done <<EOS
$syms
EOS
start=$(date +%s.%N)
/usr/bin/time -f "%M" -o "$tmp/ours.rss" "$pms" annotate -i "$tmp/perf.data" -d cc1 "$@" >"$tmp/ours.txt" 2>"$tmp/ours.err"
ours_s=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { print b - a }')
done_n=$(grep -c "Source code & Disassembly" "$tmp/ours.txt")
perf_rss=$(sort -n "$tmp/perf.rss" | tail -n 1)
ours_rss=$(tail -n 1 "$tmp/ours.rss")
echo "annotate: $n hottest cc1 functions ($done_n annotated by pmuscope): pmuscope $(printf %.2f "$ours_s") s, perf annotate $(printf %.2f "$perf_s") s: $(awk -v a="$ours_s" -v b="$perf_s" 'BEGIN { printf "%.3f", a / b }')x (goal <= 0.05)"
echo "annotate: peak RSS: pmuscope $ours_rss kB, perf annotate $perf_rss kB (largest of its runs): $(awk -v a="$ours_rss" -v b="$perf_rss" 'BEGIN { printf "%.2f", a / b }')x (goal <= 0.5)"
