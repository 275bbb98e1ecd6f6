# info on fixtures, AMD Zen3: PerfCtrExtCore and friends from 0x80000001, no leaf 0x80000022 (no PerfMonV2), the Zen2/Zen3 event maps.
# Probes are skipped under a fixture root; tracefs is the fixture's (its path is masked).
export PMS_SYSFS_ROOT=$FIXTURES/sysfs/amd PMS_PROCFS_ROOT=$FIXTURES/procfs/amd
export PMS_CPUID_FILE=$FIXTURES/cpuid/zen3.txt PMS_TRACEFS_ROOT=$FIXTURES/tracefs/default PMS_NO_PROBE=1
"$PMUSCOPE" info | sed "s|$FIXTURES|\$FIXTURES|g"
echo "exit=$?"
