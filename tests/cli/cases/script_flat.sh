# script on a fixture without call chains: one line per sample, comm right-aligned as perf prints it
mkdir proc && cp "$FIXTURES/symbol/kallsyms.txt" proc/kallsyms
export PMS_PROCFS_ROOT=$PWD/proc PMS_JITMAP_DIR=$FIXTURES/symbol
# the fixture kernel is "running": tests/fixtures/symbol/sysfs/kernel/notes has its build-id
export PMS_SYSFS_ROOT="$FIXTURES/symbol/sysfs"
cp "$TOP/tests/cli/cases/script_flat.data" perf.data
"$PMUSCOPE" script; echo "exit=$?"
echo "-- -F comm,pid,tid,time,event,ip,sym,dso"
"$PMUSCOPE" script -F comm,pid,tid,time,event,ip,sym,dso; echo "exit=$?"
echo "-- -F +pid,-period --ns"
"$PMUSCOPE" script -F +pid,-period --ns; echo "exit=$?"
echo "-- -F comm,tid,ip,sym,symoff"
"$PMUSCOPE" script -F comm,tid,ip,sym,symoff; echo "exit=$?"
echo "-- stdin"
"$PMUSCOPE" script -i - -F comm,tid,event < perf.data; echo "exit=$?"
echo "-- filters: --pid 4242 / --tid 77 / --comms jsapp / --time 1234.568,"
"$PMUSCOPE" script -F comm,tid,time --pid 4242; echo "exit=$?"
"$PMUSCOPE" script -F comm,tid,time --tid 77; echo "exit=$?"
"$PMUSCOPE" script -F comm,tid,time --comms jsapp,nothing; echo "exit=$?"
"$PMUSCOPE" script -F comm,tid,time --time 1234.568,; echo "exit=$?"
"$PMUSCOPE" script -F comm,tid,time --time ,1234.568; echo "exit=$?"
