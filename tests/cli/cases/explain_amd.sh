# explain on the AMD fixtures: Zen3 maps cache-misses to an L2 event (the trap note says so),
# Zen4 picks its own map by family/model, a raw config with event bits 35:32 decodes as the
# 12-bit PERF_CTL event select, and :u/:G show up as usr/guestonly.
export PMS_SYSFS_ROOT=$FIXTURES/sysfs/amd PMS_PROCFS_ROOT=$FIXTURES/procfs/amd PMS_NO_PROBE=1
export PMS_CPUID_FILE=$FIXTURES/cpuid/zen3.txt
"$PMUSCOPE" explain cache-misses
echo "exit=$?"
"$PMUSCOPE" explain r1000000c0:uG
echo "exit=$?"
export PMS_CPUID_FILE=$FIXTURES/cpuid/zen4.txt
"$PMUSCOPE" explain branch-misses | grep -A1 '^meaning'
echo "exit=$?"
