# report on a fixture with call chains (kernel via fixture kallsyms, JIT map, unfound file, unmapped, unknown thread):
# children + caller graphs, --no-children with pid/dso keys, --json, --header-only, --stats, filters
mkdir proc && cp "$FIXTURES/symbol/kallsyms.txt" proc/kallsyms
export PMS_PROCFS_ROOT="$PWD/proc" PMS_JITMAP_DIR="$FIXTURES/symbol"
# the fixture kernel is "running": tests/fixtures/symbol/sysfs/kernel/notes has its build-id
export PMS_SYSFS_ROOT="$FIXTURES/symbol/sysfs"
cp "$TOP/tests/cli/cases/script_chain.data" chain.data
"$PMUSCOPE" report -i chain.data; echo "exit=$?"
echo "-- --no-children --sort pid,dso,sym -g none"
"$PMUSCOPE" report -i chain.data --no-children --sort pid,dso,sym -g none; echo "exit=$?"
echo "-- --no-children -g callee --comm jsapp"
"$PMUSCOPE" report -i chain.data --no-children -g callee --comm jsapp; echo "exit=$?"
echo "-- --json --no-children -g none --sort dso,sym"
"$PMUSCOPE" report -i chain.data --json --no-children -g none --sort dso,sym; echo "exit=$?"
echo "-- --stats"
"$PMUSCOPE" report -i chain.data --stats; echo "exit=$?"
echo "-- --header-only"
"$PMUSCOPE" report -i chain.data --header-only | grep -v 'captured on'; echo "exit=$?"
