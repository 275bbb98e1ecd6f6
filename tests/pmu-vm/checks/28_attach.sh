# SPDX-License-Identifier: MIT
# Attaching to a running process (-p) counts exactly what it does after the attach: waitloop
# blocks on a FIFO, stat -p attaches, the FIFO is written, the loop runs and the process exits
# (which ends stat). count(2N) - count(N) = LOOP_BODY * N.
attach() { # attach N: instructions:u of waitloop N from the attach on
	rm -f fifo && mkfifo fifo || return 1
	"$WL/waitloop" "$1" fifo &
	wpid=$!
	sleep 0.2
	"$PMUSCOPE" stat -x, -p $wpid -e instructions:u >att.out 2>&1 &
	spid=$!
	sleep 0.3
	echo x >fifo
	wait $spid
	wait $wpid
	csv_rows att.out | awk 'NR == 1 && $1 ~ /^[0-9]+$/ { print $1 }'
}
N=100000
c1=$(attach $N)
c2=$(attach $((2 * N)))
task=$(stat_value instructions:u $N)
# Attached after start-up: more than the loop, less than the whole process of `loop N`.
if [ -n "$c1" ] && [ -n "$c2" ] && [ -n "$task" ] && [ $((c2 - c1)) -eq $((LOOP_BODY * N)) ] &&
	[ "$c1" -gt $((LOOP_BODY * N)) ] && [ "$c1" -lt "$task" ]; then
	pass attach-exact "-p: count($N)=$c1 count($((2 * N)))=$c2 diff=$((c2 - c1)); whole process of loop $N: $task"
else
	fail attach-exact "-p: '$c1' '$c2' (diff want $((LOOP_BODY * N)), count between $((LOOP_BODY * N)) and '$task'): $(excerpt att.out)"
fi
