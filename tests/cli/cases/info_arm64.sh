# info on the arm64 fixture: no CPUID (PMS_CPUID_FILE=none), so the implementer and part come
# from /proc/cpuinfo; the armv8_pmuv3_0 PMU with its type and format terms; perf_user_access.
export PMS_SYSFS_ROOT=$FIXTURES/sysfs/arm64 PMS_PROCFS_ROOT=$FIXTURES/procfs/arm64
export PMS_CPUID_FILE=none PMS_TRACEFS_ROOT=$FIXTURES/tracefs/default PMS_NO_PROBE=1
"$PMUSCOPE" info | sed "s|$FIXTURES|\$FIXTURES|g"
echo "exit=$?"
