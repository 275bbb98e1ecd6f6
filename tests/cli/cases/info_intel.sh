# info on fixtures, Skylake bare metal: CPUID.0AH v4 with every architectural event available, the cpu PMU and uncore PMUs, paranoid 3 for an unprivileged user.
# Probes are skipped under a fixture root; tracefs is the fixture's (its path is masked).
export PMS_SYSFS_ROOT=$FIXTURES/sysfs/intel PMS_PROCFS_ROOT=$FIXTURES/procfs/intel
export PMS_CPUID_FILE=$FIXTURES/cpuid/skylake.txt PMS_TRACEFS_ROOT=$FIXTURES/tracefs/default PMS_NO_PROBE=1
"$PMUSCOPE" info | sed "s|$FIXTURES|\$FIXTURES|g"
echo "exit=$?"
