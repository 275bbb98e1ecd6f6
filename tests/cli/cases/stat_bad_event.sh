# An event that does not parse: the parser's message with its marker, exit 2, no counts.
"$PMUSCOPE" stat -e task-clock,no-such-event -- true; echo "exit=$?"
"$PMUSCOPE" stat -e task-clock -e '{page-faults' -- true >out 2>&1; echo "exit=$?"
grep -c 'Performance counter stats' out
