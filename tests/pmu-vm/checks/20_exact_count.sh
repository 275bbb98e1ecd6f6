# SPDX-License-Identifier: MIT
# Check 2: `stat -e instructions:u -- loop N` is exact: count(2N) - count(N) = LOOP_BODY * N,
# and the count repeats run after run (icount shift=0, one vCPU).
N=100000
a=$(stat_value instructions:u $N)
if [ -z "$a" ]; then
	fail exact-count "stat -x, -e instructions:u -- loop $N: $(excerpt stat.out)"
	fail exact-repeatable "no count"
else
	b=$(stat_value instructions:u $((2 * N)))
	if [ -z "$b" ]; then
		fail exact-count "stat on loop $((2 * N)): $(excerpt stat.out)"
	elif [ $((b - a)) -eq $((LOOP_BODY * N)) ]; then
		pass exact-count "count($N)=$a count($((2 * N)))=$b diff=$((b - a)) = $LOOP_BODY*$N; startup+exit $((a - LOOP_BODY * N))"
	else
		fail exact-count "count($N)=$a count($((2 * N)))=$b diff=$((b - a)), expected $((LOOP_BODY * N))"
	fi
	runs="$a"
	for i in 1 2; do
		runs="$runs $(stat_value instructions:u $N)"
	done
	if [ "$(echo "$runs" | tr ' ' '\n' | sort -u | wc -l)" -eq 1 ] && [ "$(echo "$runs" | wc -w)" -eq 3 ]; then
		pass exact-repeatable "3 runs of loop $N: $runs"
	else
		fail exact-repeatable "3 runs of loop $N: $runs"
	fi
fi
