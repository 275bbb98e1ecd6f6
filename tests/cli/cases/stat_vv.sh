# stat -vv prints every perf_event_open like `perf stat -vv`: the attr block
# between 60-dash lines, then the syscall line (pid and fd vary).
if ! "$PMUSCOPE" stat -e task-clock -o /dev/null -- true >/dev/null 2>&1; then
	echo "SKIP: perf_event_open of task-clock is not allowed here"
	exit 0
fi
"$PMUSCOPE" stat -vv -o /dev/null -e cpu-clock,'{task-clock,page-faults}' -- true 2>&1 | grep -v ': -\{0,1\}[0-9]* [0-9]* [0-9]*$'
echo "exit=$?"
"$PMUSCOPE" stat -vv -o /dev/null --no-inherit -e 'cs:u' -- true 2>&1 | grep -v ': -\{0,1\}[0-9]* [0-9]* [0-9]*$'
