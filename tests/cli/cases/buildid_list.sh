# buildid-list prints what perf buildid-list prints (outputs checked against perf 6.1 byte for byte):
# the build-id table, -H the objects samples hit, -k the running kernel's, an ELF file's own; errors.
export PMS_SYSFS_ROOT="$FIXTURES/symbol/sysfs"
cp "$TOP/tests/cli/cases/script_chain.data" perf.data
echo "-- default (perf.data)"
"$PMUSCOPE" buildid-list; echo "exit=$?"
echo "-- -H: hit objects only; JIT code is perf-PID.map"
"$PMUSCOPE" buildid-list -H; echo "exit=$?"
echo "-- a stream"
"$PMUSCOPE" buildid-list -i - < perf.data; echo "exit=$?"
echo "-- perf 3.8's file, with modules, -H"
"$PMUSCOPE" buildid-list --with-hits -i "$FIXTURES/perfdata/quipper/perf.data.callgraph-3.8"; echo "exit=$?"
echo "-- -k: the running (fixture) kernel, whatever -i says"
"$PMUSCOPE" buildid-list -k -i nothing; echo "exit=$?"
echo "-- errors"
"$PMUSCOPE" buildid-list -i nothing.data; echo "exit=$?"
echo "not perf data" > junk
"$PMUSCOPE" buildid-list -i junk; echo "exit=$?"
"$PMUSCOPE" buildid-list extra; echo "exit=$?"
PMS_SYSFS_ROOT=$PWD "$PMUSCOPE" buildid-list -k; echo "exit=$?"
