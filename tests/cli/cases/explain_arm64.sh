# explain on the arm64 fixture (no CPUID; /proc/cpuinfo says CPU implementer 0x41): the ARMv8
# map is picked automatically; event=0x8 is INST_RETIRED; cache-misses is L1D_CACHE_REFILL (0x03);
# --vendor intel overrides the detection.
export PMS_SYSFS_ROOT=$FIXTURES/sysfs/arm64 PMS_PROCFS_ROOT=$FIXTURES/procfs/arm64
export PMS_CPUID_FILE=none PMS_NO_PROBE=1
"$PMUSCOPE" explain armv8_pmuv3_0/event=0x8/
echo "exit=$?"
"$PMUSCOPE" explain cache-misses:u
echo "exit=$?"
"$PMUSCOPE" explain L1-icache-load-misses
echo "exit=$?"
"$PMUSCOPE" explain --vendor intel cache-misses | grep -A1 '^meaning'
echo "exit=$?"
