# Event strings that do not parse, on the vm fixture: caret under the offending character,
# what was expected, the nearest known name, the PMUs that exist; exit 2 and nothing counted.
export PMS_SYSFS_ROOT=$FIXTURES/sysfs/vm PMS_TRACEFS_ROOT=$FIXTURES/tracefs/default
for ev in cache-mises 'cycles,instructons:u' foo/bar/ mrs/tsc/ msr/tsx/ 'cpu-clock:uX' 'cpu-clock:uu' \
	'{cpu-clock,cs' '{cpu-clock,{cs}}' 'cpu-clock,,cs' sched:sched_swich uprobe/retprobe=2/ \
	'msr/tsc/:u' iTLB-stores 'msr/event=0x10000000000000000/' 'mem:0x10/3' 'cpu-clock/event=1/' \
	'cpu-clock/call-graph=dwarf/' 'imc/data_read/'; do
	"$PMUSCOPE" stat -e "$ev" -- true
	echo "exit=$?"
done
PMS_TRACEFS_ROOT=/nonexistent "$PMUSCOPE" stat -e sched:sched_switch -- true
echo "exit=$?"
PMS_SYSFS_ROOT=$FIXTURES/sysfs/intel "$PMUSCOPE" stat -e 'cpu/evnt=0x3c,umask=1/' -- true
echo "exit=$?"
