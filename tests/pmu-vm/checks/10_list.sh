# SPDX-License-Identifier: MIT
# Check 1a: `list` shows the hardware events and the armv8_pmuv3 sysfs events as supported
# (list only shows what opens; --all marks the rest, so absence or a reason is a failure).
"$PMUSCOPE" list >list.out 2>list.err
rc=$?
# name-regex label; each must be on a line of its own in perf's layout, without a reason.
for spec in 'cpu-cycles OR cycles|\[Hardware event\]' 'instructions|\[Hardware event\]' \
	'armv8_pmuv3/cpu_cycles/|\[Kernel PMU event\]' \
	'armv8_pmuv3/inst_retired/|\[Kernel PMU event\]'; do
	name=${spec%%|*} label=${spec#*|}
	short=$(echo "$name" | sed 's/.* OR //; s|/$||; s|.*/||')
	if [ $rc -ne 0 ]; then
		fail "list-$short" "list exit $rc: $(excerpt list.err)"
	elif grep -qE "^ +$name +$label *\$" list.out; then
		pass "list-$short" "listed: $(grep -E "^ +$name +$label" list.out | sed 's/  */ /g')"
	else
		fail "list-$short" "no supported '$name $label' line; near: $(grep -F "${name%% *}" list.out | head -n 2 | tr '\n' '|')"
	fi
done
# Every sysfs alias of the PMU opens here (QEMU counts only a few, but all open), so all are listed.
missing=
for f in /sys/bus/event_source/devices/armv8_pmuv3/events/*; do
	e=$(basename "$f")
	grep -qE "^ +armv8_pmuv3/$e/ +\[Kernel PMU event\] *\$" list.out || missing="$missing $e"
done
if [ $rc -ne 0 ]; then
	fail list-pmu-events "list exit $rc"
elif [ -z "$missing" ]; then
	pass list-pmu-events "all of: $(ls /sys/bus/event_source/devices/armv8_pmuv3/events | tr '\n' ' ')"
else
	fail list-pmu-events "sysfs events not listed as supported:$missing"
fi
# --json (filtered to hardware and PMU events: tracepoints cost time): "supported": true.
if "$PMUSCOPE" list --json hw pmu >list.json 2>list.err; then
	bad=
	for name in cpu-cycles instructions armv8_pmuv3/cpu_cycles/ armv8_pmuv3/inst_retired/; do
		# One JSON object per line after splitting at '}', then look for name + supported.
		tr -d '\n' <list.json | tr '}' '\n' | grep -E "\"name\": *\"$name\"" |
			grep -qE '"supported": *true' || bad="$bad $name"
	done
	if [ -z "$bad" ]; then
		pass list-json "cycles, instructions, cpu_cycles, inst_retired have supported=true"
	else
		fail list-json "not supported=true in list --json:$bad"
	fi
else
	fail list-json "exit $?: $(excerpt list.err)"
fi
