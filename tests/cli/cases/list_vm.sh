# list on the VM fixture (no core PMU): only msr among the PMUs; the raw descriptor says cpu/.
export PMS_SYSFS_ROOT=$FIXTURES/sysfs/vm PMS_PROCFS_ROOT=$FIXTURES/procfs/vm
export PMS_TRACEFS_ROOT=$FIXTURES/tracefs/default PMS_NO_PROBE=1
"$PMUSCOPE" list pmu
echo "exit=$?"
"$PMUSCOPE" list --no-probe 'rNNN' 'mem:*'
echo "exit=$?"
