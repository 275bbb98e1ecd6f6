# explain with a bad event: the parser's caret message and exit 2; no event or an unknown
# --vendor is a usage error (129); two positionals too.
export PMS_SYSFS_ROOT=$FIXTURES/sysfs/intel PMS_PROCFS_ROOT=$FIXTURES/procfs/intel
export PMS_CPUID_FILE=$FIXTURES/cpuid/skylake.txt PMS_NO_PROBE=1
"$PMUSCOPE" explain cache-mises
echo "exit=$?"
"$PMUSCOPE" explain 'cpu/event=0x2e,bogus=1/'
echo "exit=$?"
"$PMUSCOPE" explain >/dev/null 2>&1
echo "exit=$?"
"$PMUSCOPE" explain --vendor sparc cycles >/dev/null 2>&1
echo "exit=$?"
"$PMUSCOPE" explain cycles instructions >/dev/null 2>&1
echo "exit=$?"
