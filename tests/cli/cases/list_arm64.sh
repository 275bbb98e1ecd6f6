# list on the arm64 fixture: the armv8_pmuv3_0 sysfs events and the hardware events,
# names as the arm64 PMU rig greps for them.
export PMS_SYSFS_ROOT=$FIXTURES/sysfs/arm64 PMS_PROCFS_ROOT=$FIXTURES/procfs/arm64
export PMS_TRACEFS_ROOT=$FIXTURES/tracefs/default PMS_NO_PROBE=1
"$PMUSCOPE" list hw pmu
echo "exit=$?"
