#!/bin/sh
# SPDX-License-Identifier: MIT
# Flame graph benchmark (issue 5). 1) Generation time on a >= 1M-sample perf.data (perf's own
# file of the report benchmark's workload from bench/lib/big_perf_data.sh; $PMS_BENCH_BIG reuses
# one) for `pmuscope flamegraph` (HTML and --svg) against perf's route to the same picture,
# `perf script | <fold stacks in awk>` (stackcollapse-perf's job; flamegraph.pl itself is not
# packaged in Debian, so perf's route is timed up to the folded file and is a lower bound),
# same file, same run, best of R. 2) A synthetic tree of 100k distinct stacks (bench/fg_gen.c
# through pms_stacks__add_path): page size in bytes and load time in Chromium (playwright,
# navigation to #pms-flame[data-state=ready], median of 5), with the default merging of narrow
# frames and with merging off.
# Usage: sh bench/flamegraph.sh [build-dir] [samples (1000000)] [R (2)]
set -u
build=${1:-build}
want=${2:-1000000}
runs=${3:-2}
cd "$(dirname "$0")/.." || exit 1
pms=$build/pmuscope
demo=$build/demo/pms-shares
[ -x "$pms" ] || { echo "flamegraph: FAIL: $pms not built"; exit 1; }
[ -x "$demo" ] || { echo "flamegraph: FAIL: $demo not built"; exit 1; }
[ -x /usr/bin/time ] || { echo "flamegraph: FAIL: /usr/bin/time missing (Debian package time)"; exit 1; }
# shellcheck disable=SC1091 # bench/lib/big_perf_data.sh, from the repository root
. bench/lib/big_perf_data.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0

# best SECONDS of $runs runs of CMD (stdout to /dev/null), or "fail".
best() {
	: >"$tmp/times"
	i=0
	while [ $i -lt "$runs" ]; do
		/usr/bin/time -f '%e' -o "$tmp/time" "$@" >/dev/null 2>"$tmp/err" || { echo fail; return; }
		tail -n 1 "$tmp/time" >>"$tmp/times"
		i=$((i + 1))
	done
	sort -n "$tmp/times" | head -n 1
}

# stackcollapse-perf's folding of perf script text: comm;outermost;...;leaf count
cat >"$tmp/fold.awk" <<'EOF'
/^[^ \t#]/ { comm = $1; n = 0; next }
/^[ \t]*$/ { if (n) { s = comm; for (i = n; i >= 1; i--) s = s ";" f[i]; c[s]++ } n = 0; next }
{ sym = $2; sub(/\+0x[0-9a-f]+$/, "", sym); f[++n] = sym }
END { if (n) { s = comm; for (i = n; i >= 1; i--) s = s ";" f[i]; c[s]++ } for (s in c) print s, c[s] }
EOF

if ! command -v perf >/dev/null 2>&1; then
	echo "flamegraph-big: SKIP: perf not installed"
else
	big_perf_data "$tmp/big.data" "$want" "$demo" | sed 's/^/flamegraph: /'
	[ -s "$tmp/big.data" ] || { echo "flamegraph: FAIL: no big perf.data"; exit 1; }
	n=$(big_samples_in "$tmp/big.data")
	cat "$tmp/big.data" >/dev/null
	ours=$(best "$pms" flamegraph -i "$tmp/big.data" -o "$tmp/big.html")
	ours_svg=$(best "$pms" flamegraph -i "$tmp/big.data" --svg -o "$tmp/big.svg")
	perfs=$(best sh -c "perf script -i '$tmp/big.data' 2>/dev/null | awk -f '$tmp/fold.awk' >'$tmp/perf.folded'")
	case "$ours $ours_svg $perfs" in
	*fail*)
		echo "flamegraph-big: FAIL: pmuscope $ours / $ours_svg, perf $perfs: $(head -c 300 "$tmp/err")"
		status=1
		;;
	*)
		awk -v n="$n" -v o="$ours" -v s="$ours_svg" -v p="$perfs" -v sz="$(wc -c <"$tmp/big.html")" -v st="$(wc -l <"$tmp/perf.folded")" 'BEGIN {
			printf "flamegraph-%dk: %d samples, %d distinct folded stacks: pmuscope flamegraph %.2f s (HTML %d bytes), --svg %.2f s; perf script | fold %.2f s; time ratio %.3fx (%.0f times faster)\n",
				n / 1000, n, st, o, sz, s, p, o / p, p / (o > 0 ? o : 0.005) }'
		;;
	esac
fi

# 2) 100k distinct stacks: page size and load time in Chromium.
if ! cc -std=gnu11 -O2 -D_GNU_SOURCE -Iinclude -Ilib -o "$tmp/fg_gen" bench/fg_gen.c "$build/libpmuscope.a" \
	-ldw -lelf -lzstd -lz -liberty -lm 2>"$tmp/cc.err"; then
	echo "flamegraph-100k: FAIL: building bench/fg_gen.c: $(head -c 300 "$tmp/cc.err")"
	exit 1
fi
browser=1
{ [ -x /usr/bin/chromium ] && [ -d tests/browser/node_modules/playwright-core ]; } || browser=0
for mw in default 0; do
	arg=""
	[ $mw = default ] || arg=$mw
	# shellcheck disable=SC2086 # arg is empty or one word
	g=$("$tmp/fg_gen" "$tmp/s100k-$mw.html" 100000 $arg) || { echo "flamegraph-100k: FAIL: fg_gen"; status=1; continue; }
	l="not measured (chromium or tests/browser/node_modules missing)"
	[ $browser = 0 ] || l=$(node tests/browser/flamegraph.mjs load "$tmp/s100k-$mw.html" "" runs=5 2>&1 | tail -n 1)
	echo "flamegraph-100k (merging: $mw): $g; chromium: $l ms to ready"
done
exit $status
