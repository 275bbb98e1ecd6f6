# SPDX-License-Identifier: MIT
# Rig premise, without pmuscope: a bare perf_event_open of instructions:u around the loop
# counts exactly LOOP_BODY instructions per iteration, repeatably, and the cycles:u member of
# the same group reads the same in icount shift=0 mode.
N=100000
"$WL/perfcount" $N 3 >a.out 2>&1
"$WL/perfcount" $((2 * N)) 1 >b.out 2>&1
a1=$(awk '/^count/ { print $2; exit }' a.out)
b=$(awk '/^count/ { print $2; exit }' b.out)
if [ -z "$a1" ] || [ -z "$b" ]; then
	fail direct-exact "perfcount failed: $(excerpt a.out) $(excerpt b.out)"
else
	diff=$((b - a1))
	if [ "$diff" -eq $((LOOP_BODY * N)) ]; then
		pass direct-exact "count($N)=$a1 count($((2 * N)))=$b diff=$diff = $LOOP_BODY*$N"
	else
		fail direct-exact "count($N)=$a1 count($((2 * N)))=$b diff=$diff, expected $((LOOP_BODY * N))"
	fi
	distinct=$(awk '/^count/ { print $2 }' a.out | sort -u | wc -l)
	if [ "$distinct" -eq 1 ]; then
		pass direct-repeatable "3 runs: $(awk '/^count/ { printf "%s ", $2 }' a.out)"
	else
		fail direct-repeatable "3 runs differ: $(awk '/^count/ { printf "%s ", $2 }' a.out)"
	fi
	# Group of {instructions:u, cycles:u}: one read(2), running == enabled, equal counts.
	if awk '/^count/ && ($2 != $3 || $4 != $5 || $4 == 0) { bad = 1 } END { exit bad }' a.out; then
		pass direct-group "instructions = cycles and running = enabled in each read: $(excerpt a.out 120)"
	else
		fail direct-group "$(excerpt a.out)"
	fi
fi
