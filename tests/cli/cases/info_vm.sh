# info on fixtures, a KVM guest on Zen3 without a virtual PMU: hypervisor signature, PerfCtrExtCore hidden, only software/msr PMUs, verdict 'no hardware counters'.
# Probes are skipped under a fixture root; tracefs is the fixture's (its path is masked).
export PMS_SYSFS_ROOT=$FIXTURES/sysfs/vm PMS_PROCFS_ROOT=$FIXTURES/procfs/vm
export PMS_CPUID_FILE=$FIXTURES/cpuid/vm-zen3.txt PMS_TRACEFS_ROOT=$FIXTURES/tracefs/default PMS_NO_PROBE=1
"$PMUSCOPE" info | sed "s|$FIXTURES|\$FIXTURES|g"
echo "exit=$?"
