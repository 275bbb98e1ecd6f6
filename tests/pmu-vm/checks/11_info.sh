# SPDX-License-Identifier: MIT
# Check 1b: `info` reports the armv8_pmuv3 PMU with its type and format terms, and the number of
# counters found by probing agrees with the driver's boot message ("N counters available").
d=/sys/bus/event_source/devices/armv8_pmuv3
"$PMUSCOPE" info >info.out 2>&1
rc=$?
if [ $rc -ne 0 ]; then
	fail info "exit $rc: $(excerpt info.out)"
else
	type=$(cat $d/type)
	row=$(grep -E '^ +armv8_pmuv3 ' info.out | head -n 1)
	if [ -z "$row" ]; then
		fail info-pmu "no armv8_pmuv3 row under pmus"
	elif ! echo "$row" | grep -qE "^ +armv8_pmuv3 +$type "; then
		fail info-pmu "type $type not shown: $row"
	else
		missing=
		for f in $d/format/*; do
			term="$(basename "$f")=$(cat "$f")"
			echo "$row" | grep -qF "$term" || missing="$missing $term"
		done
		if [ -n "$missing" ]; then
			fail info-pmu "format terms missing:$missing in: $row"
		else
			pass info-pmu "$(echo "$row" | sed 's/  */ /g')"
		fi
	fi
	want=$(dmesg | sed -n 's/.*armv8_pmuv3 PMU driver, \([0-9]*\) counters available.*/\1/p' | head -n 1)
	# The driver's N counters = N-1 general-purpose + the dedicated cycle counter: N cycles
	# events schedule at once, N-1 instructions (inst_retired cannot use the cycle counter).
	cyc=$(grep -E '^ +counters \(cycles\)' info.out | sed 's/  */ /g')
	sum=$(grep -E '^ +counters +[0-9]' info.out | sed 's/  */ /g')
	if [ -z "$want" ]; then
		fail info-counters "no 'N counters available' in dmesg to compare with"
	elif echo "$cyc" | grep -qE " $want cycles events at once" &&
		echo "$sum" | grep -qE " $((want - 1)) general \+ cycle counter"; then
		pass info-counters "driver: $want; info:$cyc;$sum"
	else
		fail info-counters "driver says $want counters ($((want - 1)) general + cycle); info: '$cyc' '$sum'"
	fi
fi
