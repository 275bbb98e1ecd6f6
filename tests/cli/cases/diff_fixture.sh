# diff on the report/script fixtures (kernel via fixture kallsyms, JIT map, unfound file, unmapped):
# a file against itself (all zero), the chain file against the flat one (gone rows, shrank),
# --sort self, --limit, --json, --flamegraph, -e
mkdir proc && cp "$FIXTURES/symbol/kallsyms.txt" proc/kallsyms
export PMS_PROCFS_ROOT="$PWD/proc" PMS_JITMAP_DIR="$FIXTURES/symbol"
# the fixture kernel is "running": tests/fixtures/symbol/sysfs/kernel/notes has its build-id
export PMS_SYSFS_ROOT="$FIXTURES/symbol/sysfs"
cp "$TOP/tests/cli/cases/script_chain.data" chain.data
cp "$TOP/tests/cli/cases/script_flat.data" flat.data
"$PMUSCOPE" diff chain.data chain.data; echo "exit=$?"
echo "-- chain.data flat.data"
"$PMUSCOPE" diff chain.data flat.data; echo "exit=$?"
echo "-- --sort self --limit 2"
"$PMUSCOPE" diff --sort self --limit 2 chain.data flat.data; echo "exit=$?"
echo "-- --json --limit 2"
"$PMUSCOPE" diff --json --limit 2 chain.data flat.data; echo "exit=$?"
echo "-- --samples --percent-limit 40"
"$PMUSCOPE" diff --samples --percent-limit 40 flat.data chain.data; echo "exit=$?"
echo "-- -e cpu-clock --flamegraph d.html"
"$PMUSCOPE" diff -e cpu-clock --flamegraph d.html chain.data flat.data >/dev/null 2>err; echo "exit=$?"
sed -E 's/[0-9]+ bytes/N bytes/' err # the page's size follows the flame graph's code
grep -c '<canvas' d.html
grep -o 'Differential Flame Graph' d.html | head -n 1
