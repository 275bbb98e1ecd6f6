# explain --vendor all: one line per kernel map for generic and cache events (what cache-misses
# counts elsewhere), and a raw config in each register layout.
export PMS_SYSFS_ROOT=$FIXTURES/sysfs/vm PMS_PROCFS_ROOT=$FIXTURES/procfs/vm
export PMS_CPUID_FILE=$FIXTURES/cpuid/vm-zen3.txt PMS_NO_PROBE=1
"$PMUSCOPE" explain --vendor all cache-references | sed -n '/^meaning/,$p'
echo "exit=$?"
"$PMUSCOPE" explain --vendor all stalled-cycles-frontend | sed -n '/^meaning/,$p'
echo "exit=$?"
"$PMUSCOPE" explain --vendor all dTLB-load-misses | sed -n '/^meaning/,$p'
echo "exit=$?"
"$PMUSCOPE" explain --vendor all r412e | sed -n '/^meaning/,$p'
echo "exit=$?"
