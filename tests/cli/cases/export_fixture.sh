# export of a fixture with call chains (kernel via fixture kallsyms, JIT map, unfound file, unmapped,
# unknown thread): folded by samples and period, each --root, speedscope, Chrome trace, stacks
# JSON, --event/--time filters, pprof to a file (a valid gzip member) and to a pipe
mkdir proc && cp "$FIXTURES/symbol/kallsyms.txt" proc/kallsyms
export PMS_PROCFS_ROOT="$PWD/proc" PMS_JITMAP_DIR="$FIXTURES/symbol"
# the fixture kernel is "running": tests/fixtures/symbol/sysfs/kernel/notes has its build-id
export PMS_SYSFS_ROOT="$FIXTURES/symbol/sysfs"
cp "$TOP/tests/cli/cases/script_chain.data" chain.data
"$PMUSCOPE" export -i chain.data; echo "exit=$?"
echo "-- --weight=period --root=pid"
"$PMUSCOPE" export -i chain.data --weight=period --root=pid; echo "exit=$?"
echo "-- --root=tid"
"$PMUSCOPE" export -i chain.data --root tid; echo "exit=$?"
echo "-- --root=none -o out.folded"
"$PMUSCOPE" export -i chain.data --root=none -o out.folded; echo "exit=$?"
cat out.folded
echo "-- --format=speedscope"
"$PMUSCOPE" export -i chain.data --format=speedscope; echo "exit=$?"
echo "-- --format=speedscope --weight=period --root=none"
"$PMUSCOPE" export -i chain.data --format=speedscope --weight=period --root=none; echo "exit=$?"
echo "-- --format=chrome"
"$PMUSCOPE" export -i chain.data --format=chrome; echo "exit=$?"
echo "-- --format=json"
"$PMUSCOPE" export -i chain.data --format=json; echo "exit=$?"
echo "-- --event cpu-clock --time 1234.568,1234.569"
"$PMUSCOPE" export -i chain.data --event cpu-clock --time 1234.568,1234.569; echo "exit=$?"
echo "-- --event instructions"
"$PMUSCOPE" export -i chain.data --event instructions; echo "exit=$?"
echo "-- --format=pprof -o p.pb.gz"
"$PMUSCOPE" export -i chain.data --format=pprof -o p.pb.gz; echo "exit=$?"
gzip -t p.pb.gz && echo "gzip ok"
echo "-- --format=pprof -o - | gzip -t"
"$PMUSCOPE" export -i chain.data --format=pprof -o - | gzip -t && echo "gzip ok"
echo "-- -i - < chain.data"
"$PMUSCOPE" export -i - < chain.data; echo "exit=$?"
