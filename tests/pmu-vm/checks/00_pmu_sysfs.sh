# SPDX-License-Identifier: MIT
# Rig premise: the real armv8_pmuv3 driver is up with its sysfs events (inst_retired needs icount).
d=/sys/bus/event_source/devices/armv8_pmuv3
if [ ! -d "$d" ]; then
	fail pmu-sysfs "no $d; PMUs: $(ls /sys/bus/event_source/devices | tr '\n' ' ')"
else
	type=$(cat "$d/type")
	missing=
	for e in cpu_cycles inst_retired; do
		[ -e "$d/events/$e" ] || missing="$missing $e"
	done
	if [ -n "$missing" ]; then
		fail pmu-sysfs "type=$type, missing events:$missing (is -icount shift=0 set?)"
	else
		pass pmu-sysfs "type=$type inst_retired=$(cat $d/events/inst_retired) format: $(ls $d/format | tr '\n' ' ')"
	fi
fi
