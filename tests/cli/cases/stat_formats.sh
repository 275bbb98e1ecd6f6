# Shapes of the CSV and JSON outputs and exit-status pass-through on a
# deterministic software event (values vary: checked by pattern and type).
if ! "$PMUSCOPE" stat -e task-clock -o /dev/null -- true >/dev/null 2>&1; then
	echo "SKIP: perf_event_open of task-clock is not allowed here"
	exit 0
fi
if ! command -v jq >/dev/null 2>&1; then
	echo "SKIP: jq not installed"
	exit 0
fi
"$PMUSCOPE" stat -x, -e task-clock,page-faults -- true; echo "exit=$?"
"$PMUSCOPE" stat -x';' -e '{task-clock,page-faults}' -- true; echo "exit=$?"
"$PMUSCOPE" stat -x, -e task-clock -- sh -c 'exit 3'; echo "exit=$?"
"$PMUSCOPE" stat --json -o out.json -e task-clock,page-faults -- sh -c 'exit 5'; echo "exit=$?"
jq -r '[.schema, (.events | length), (.events[0].counter_value | type), .events[0].unit,
	(.events[1].raw_count | type), .events[0].metric.unit, .exit_status, .command,
	(.elapsed_ns | type), .interrupted] | map(tostring) | join(" ")' out.json
jq -s 'length' out.json
"$PMUSCOPE" stat --json -I 20 --interval-count 2 -o out.jl -e task-clock -- sleep 2; echo "exit=$?"
wc -l <out.jl
jq -r '[(.time_s | type), (.events[0].event)] | join(" ")' out.jl
"$PMUSCOPE" stat -e task-clock -o out.txt -- true; echo "exit=$?"
grep -c "Performance counter stats for 'true':" out.txt
