# list on the Intel fixture: perf's layout and section order, PMU aliases as pmu/alias/,
# raw-syntax lines before the tracepoints; nothing is probed under a fixture root.
export PMS_SYSFS_ROOT=$FIXTURES/sysfs/intel PMS_PROCFS_ROOT=$FIXTURES/procfs/intel
export PMS_TRACEFS_ROOT=$FIXTURES/tracefs/default PMS_NO_PROBE=1
"$PMUSCOPE" list
echo "exit=$?"
