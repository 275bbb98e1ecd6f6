# list on the AMD fixture: the PMUs with event aliases (msr, power; cpu, amd_df, amd_l3 and
# ibs have only format terms), and a PMU name as a filter selects all of its events.
export PMS_SYSFS_ROOT=$FIXTURES/sysfs/amd PMS_PROCFS_ROOT=$FIXTURES/procfs/amd
export PMS_TRACEFS_ROOT=$FIXTURES/tracefs/default PMS_NO_PROBE=1
"$PMUSCOPE" list pmu
echo "exit=$?"
"$PMUSCOPE" list power '*perf'
echo "exit=$?"
"$PMUSCOPE" list amd_l3
echo "exit=$?"
