# explain on the Intel fixture (Skylake CPUID): the generic cache-misses maps to the architectural
# LONGEST_LAT_CACHE.MISS (0x412e) with the LLC trap note; a raw config decoded as IA32_PERFEVTSELx;
# a cpu/.../ event's format terms; a hw-cache event from the Skylake table.
export PMS_SYSFS_ROOT=$FIXTURES/sysfs/intel PMS_PROCFS_ROOT=$FIXTURES/procfs/intel
export PMS_CPUID_FILE=$FIXTURES/cpuid/skylake.txt PMS_NO_PROBE=1
"$PMUSCOPE" explain cache-misses
echo "exit=$?"
"$PMUSCOPE" explain r01c2
echo "exit=$?"
"$PMUSCOPE" explain 'cpu/event=0x2e,umask=0x41,cmask=2,inv/u'
echo "exit=$?"
"$PMUSCOPE" explain LLC-load-misses:pp
echo "exit=$?"
"$PMUSCOPE" explain 'power/energy-pkg/,msr/aperf/' | grep -E '^(event|meaning|note)'
echo "exit=$?"
