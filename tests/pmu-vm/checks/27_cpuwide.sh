# SPDX-License-Identifier: MIT
# CPU-wide counting is exact too (one vCPU, nothing else running): with -a the count of
# instructions:u over `loop N` is the loop's process plus a constant share of pmuscope's own
# user code, so count(2N) - count(N) = LOOP_BODY * N, and it is >= the per-task count;
# -C 0 -A prints the same count on a CPU0 row.
N=100000
task=$(stat_value instructions:u $N)
a1=$(stat_value instructions:u $N -a)
a2=$(stat_value instructions:u $((2 * N)) -a)
if [ -n "$a1" ] && [ -n "$a2" ] && [ -n "$task" ] && [ $((a2 - a1)) -eq $((LOOP_BODY * N)) ] &&
	[ "$a1" -ge "$task" ]; then
	pass cpuwide-exact "-a: count($N)=$a1 count($((2 * N)))=$a2 diff=$((a2 - a1)); per task $task"
else
	fail cpuwide-exact "-a: '$a1' '$a2' (diff want $((LOOP_BODY * N))), per task '$task': $(excerpt stat.out)"
fi
"$PMUSCOPE" stat -x, -C 0 -A -e instructions:u -- "$WL/loop" $N >cpu.out 2>&1
row=$(grep -m1 '^CPU0,' cpu.out)
if [ "$(echo "$row" | cut -d, -f2)" = "$a1" ] && [ -n "$a1" ]; then
	pass cpuwide-per-cpu "-C 0 -A: $row"
else
	fail cpuwide-per-cpu "-C 0 -A row '$row', want CPU0,$a1,...: $(excerpt cpu.out)"
fi
