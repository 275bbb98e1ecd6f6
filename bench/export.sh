#!/bin/sh
# SPDX-License-Identifier: MIT
# Export benchmark (issue 5): on one >= 1M-sample perf.data (perf's own file, the report
# benchmark's workload, bench/lib/big_perf_data.sh), `pmuscope export --format=folded` and
# `--format=pprof` against perf's route to folded stacks, `perf script | <stackcollapse-perf's
# folding in awk>`, and `perf script report stackcollapse` (perf's Python script) when this
# perf has it; same file, same run, best of R runs each. Prints time ratios (ours / perf's).
# Usage: sh bench/export.sh [build-dir] [samples (1000000)] [R (2)]
# $PMS_BENCH_BIG: an existing big perf.data to use instead of recording one.
set -u
build=${1:-build}
want=${2:-1000000}
runs=${3:-2}
cd "$(dirname "$0")/.." || exit 1
pms=$build/pmuscope
demo=$build/demo/pms-shares
[ -x "$pms" ] || { echo "export: FAIL: $pms not built"; exit 1; }
[ -x "$demo" ] || { echo "export: FAIL: $demo not built"; exit 1; }
command -v perf >/dev/null 2>&1 || { echo "export: SKIP: perf not installed"; exit 0; }
[ -x /usr/bin/time ] || { echo "export: FAIL: /usr/bin/time missing (Debian package time)"; exit 1; }
# shellcheck disable=SC1091 # bench/lib/big_perf_data.sh, from the repository root
. bench/lib/big_perf_data.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# stackcollapse-perf.pl's folding of default perf script text: comm root, symbols without
# offsets, one count per sample (perf script report stackcollapse's convention)
cat >"$tmp/fold.awk" <<'AWK'
/^[^ \t#]/ { comm = $1; n = 0; next }
/^[ \t]*$/ { if (n) { s = comm; for (i = n; i >= 1; i--) s = s ";" f[i]; c[s]++ } n = 0; next }
{ sym = $2; sub(/\+0x[0-9a-f]+$/, "", sym); f[++n] = sym }
END { if (n) { s = comm; for (i = n; i >= 1; i--) s = s ";" f[i]; c[s]++ } for (s in c) print s, c[s] }
AWK

# best LABEL CMD...: the best elapsed seconds of $runs runs (stdout to $tmp/LABEL.out), or "fail".
best() {
	label=$1
	shift
	: >"$tmp/times"
	i=0
	while [ $i -lt "$runs" ]; do
		/usr/bin/time -f '%e %M' -o "$tmp/time" "$@" >"$tmp/$label.out" 2>"$tmp/$label.err" || { echo fail; return; }
		tail -n 1 "$tmp/time" >>"$tmp/times"
		i=$((i + 1))
	done
	sort -n "$tmp/times" | awk 'NR == 1 { printf "%.2f %.0f\n", $1, $2 / 1024 }'
}

big_perf_data "$tmp/big.data" "$want" "$demo" | sed 's/^/export: /'
big_samples=$(big_samples_in "$tmp/big.data")
[ "${big_samples:-0}" -gt 0 ] || { echo "export: FAIL: no big perf.data"; exit 1; }
mb=$(du -m "$tmp/big.data" | cut -f1)
cat "$tmp/big.data" >/dev/null # page cache warm for everyone
name="export-$((big_samples / 1000))k"

folded=$(best folded "$pms" export -i "$tmp/big.data" --format=folded)
pprof=$(best pprof "$pms" export -i "$tmp/big.data" --format=pprof -o -)
awkroute=$(best awk sh -c "perf script -i '$tmp/big.data' 2>/dev/null | awk -f '$tmp/fold.awk'")
if perf script -l 2>/dev/null | grep -q stackcollapse; then
	pyroute=$(runs=1 best py perf script report stackcollapse -i "$tmp/big.data")
else
	pyroute="absent"
fi
status=0
for r in "$folded" "$pprof" "$awkroute"; do
	case $r in fail*) status=1 ;; esac
done
if [ $status = 1 ]; then
	echo "$name: FAIL: folded '$folded' pprof '$pprof' perf|awk '$awkroute' ($(head -c 300 "$tmp/folded.err" "$tmp/awk.err" 2>/dev/null))"
	exit 1
fi
# the two routes must agree on the total (every sample folded once)
ours=$(awk '{ s += $NF } END { print s + 0 }' "$tmp/folded.out")
theirs=$(awk '{ s += $NF } END { print s + 0 }' "$tmp/awk.out")
# shellcheck disable=SC2086 # "seconds MB" pairs
set -- $folded $pprof $awkroute
awk -v n="$name" -v ft="$1" -v fm="$2" -v pt="$3" -v pm="$4" -v at="$5" -v am="$6" -v o="$ours" -v t="$theirs" 'BEGIN {
	printf "%s-folded: pmuscope %.2f s %d MB, perf script | awk fold %.2f s %d MB, time ratio %.3fx (%s)\n",
		n, ft, fm, at, am, (at > 0 ? ft / at : 0), (o == t ? "same total " o : "TOTALS DIFFER: " o " vs " t)
	printf "%s-pprof: pmuscope %.2f s %d MB, time ratio %.3fx vs perf script | awk fold (pprof is gzipped protobuf, both weights)\n",
		n, pt, pm, (at > 0 ? pt / at : 0) }'
case $pyroute in
absent) echo "$name-stackcollapse: SKIP: this perf has no 'perf script report stackcollapse'" ;;
fail*) echo "$name-stackcollapse: perf script report stackcollapse failed: $(head -c 200 "$tmp/py.err")" ;;
*)
	# shellcheck disable=SC2086
	set -- $folded $pyroute
	awk -v n="$name" -v ft="$1" -v pt="$3" -v pm="$4" 'BEGIN {
		printf "%s-stackcollapse: perf script report stackcollapse %.2f s %d MB, time ratio %.3fx (pmuscope folded / it)\n",
			n, pt, pm, (pt > 0 ? ft / pt : 0) }'
	;;
esac
echo "export: file: $big_samples samples ($mb MB), perf's own perf.data (cpu-clock -c 20000 -g)"
exit $status
