# report --html on the call-chain fixture: the sections above the flame graph (summary, top
# functions with the report's keys, processes, threads; style and sorter script left out), with filters and
# keys, written to stdout with -, and --html's usage errors
mkdir proc && cp "$FIXTURES/symbol/kallsyms.txt" proc/kallsyms
export PMS_PROCFS_ROOT="$PWD/proc" PMS_JITMAP_DIR="$FIXTURES/symbol"
# the fixture kernel is "running": tests/fixtures/symbol/sysfs/kernel/notes has its build-id
export PMS_SYSFS_ROOT="$FIXTURES/symbol/sysfs"
cp "$TOP/tests/cli/cases/script_chain.data" chain.data
sections() { sed -n '/<div id="pms-preamble">/,/<div id="pms-flame"/p' "$1" | sed '/<style>/,/<\/style>/d; /<script>/,/<\/script>/d'; }
"$PMUSCOPE" report -i chain.data --html out.html 2>err; echo "exit=$?"
sed -E 's/[0-9]+ bytes/N bytes/' err # the page's size follows the flame graph's code
sections out.html
grep -c '<canvas' out.html
grep -o '<title>[^<]*</title>' out.html
echo "-- --no-children --sort pid,sym --comm jsapp --html -"
"$PMUSCOPE" report -i chain.data --no-children --sort pid,sym --comm jsapp --html - >page.html; echo "exit=$?"
sections page.html
echo "-- usage"
"$PMUSCOPE" report -i chain.data --html x.html --json; echo "exit=$?"
"$PMUSCOPE" report -i chain.data --html ''; echo "exit=$?"
"$PMUSCOPE" report -i chain.data --html /nonexistent/dir/x.html; echo "exit=$?"
