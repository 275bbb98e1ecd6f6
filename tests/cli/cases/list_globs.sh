# list filters: section words and globs (OR-ed), matched against the name, the alias and the
# bare PMU alias; tracepoint globs; a filter matching nothing lists nothing and still exits 0.
export PMS_SYSFS_ROOT=$FIXTURES/sysfs/intel PMS_PROCFS_ROOT=$FIXTURES/procfs/intel
export PMS_TRACEFS_ROOT=$FIXTURES/tracefs/default PMS_NO_PROBE=1
echo "--- cycles (alias) and tsc (bare PMU alias)"
"$PMUSCOPE" list cycles tsc 2>/dev/null
echo "--- '*cache-misses'"
"$PMUSCOPE" list '*cache-misses' 2>/dev/null
echo "--- 'sched:sched_s*' sw"
"$PMUSCOPE" list 'sched:sched_s*' sw 2>/dev/null
echo "--- 'LLC-*'"
"$PMUSCOPE" list 'LLC-*' 2>/dev/null
echo "--- no match"
"$PMUSCOPE" list 'no-such-event*'
echo "exit=$?"
echo "--- bad option"
"$PMUSCOPE" list --bogus >/dev/null 2>&1
echo "exit=$?"
echo "--- --details --desc"
"$PMUSCOPE" list --details --desc cycles 'msr/*perf/' 2>/dev/null
