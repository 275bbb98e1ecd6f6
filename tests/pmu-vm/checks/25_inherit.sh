# SPDX-License-Identifier: MIT
# Counting follows children (inherit) exactly, and --no-inherit counts the first process only:
# with forkloop N K (K children each running the loop N times, the parent only waiting),
# inherited count(2N) - count(N) = K * LOOP_BODY * N, while --no-inherit does not change with N.
N=100000 K=3
ti() { # ti N [stat options]: instructions:u over forkloop N K
	n=$1
	shift
	"$PMUSCOPE" stat -x, "$@" -e instructions:u -- "$WL/forkloop" "$n" $K >inh.out 2>&1 || return 1
	csv_rows inh.out | awk 'NR == 1 && $1 ~ /^[0-9]+$/ { print $1 }'
}
t1=$(ti $N) t2=$(ti $((2 * N)))
if [ -n "$t1" ] && [ -n "$t2" ] && [ $((t2 - t1)) -eq $((K * LOOP_BODY * N)) ]; then
	pass inherit-children "forkloop $N $K: $t1, forkloop $((2 * N)) $K: $t2, diff $((t2 - t1)) = $K*$LOOP_BODY*$N"
else
	fail inherit-children "forkloop $N/$((2 * N)) $K: '$t1' '$t2', diff want $((K * LOOP_BODY * N)): $(excerpt inh.out)"
fi
n1=$(ti $N --no-inherit) n2=$(ti $((2 * N)) --no-inherit)
if [ -n "$n1" ] && [ "$n1" = "$n2" ] && [ -n "$t1" ] && [ "$n1" -lt $((t1 - K * LOOP_BODY * N)) ]; then
	pass no-inherit "parent only: $n1 for both N (with children: $t1)"
else
	fail no-inherit "--no-inherit: '$n1' (N) '$n2' (2N), want equal and < $((t1 - K * LOOP_BODY * N)): $(excerpt inh.out)"
fi
