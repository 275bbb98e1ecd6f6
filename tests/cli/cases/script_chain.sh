# script on a fixture with call chains: kernel (fixture kallsyms), JIT (perf-PID.map), unfound file, unmapped, unknown thread
mkdir proc && cp "$FIXTURES/symbol/kallsyms.txt" proc/kallsyms
export PMS_PROCFS_ROOT=$PWD/proc PMS_JITMAP_DIR=$FIXTURES/symbol
# the fixture kernel is "running": tests/fixtures/symbol/sysfs/kernel/notes has its build-id
export PMS_SYSFS_ROOT="$FIXTURES/symbol/sysfs"
"$PMUSCOPE" script -i "$TOP/tests/cli/cases/script_chain.data"; echo "exit=$?"
echo "-- -G"
"$PMUSCOPE" script -G -i "$TOP/tests/cli/cases/script_chain.data"; echo "exit=$?"
echo "-- --max-stack 2 --stats"
"$PMUSCOPE" script --max-stack 2 --stats -i "$TOP/tests/cli/cases/script_chain.data"; echo "exit=$?"
