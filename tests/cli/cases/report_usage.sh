# report's usage errors exit 129; a missing file or one that is not perf.data is a one-line error, exit 1
"$PMUSCOPE" report --sort comm,bogus; echo "exit=$?"
"$PMUSCOPE" report --json --stdio; echo "exit=$?"
"$PMUSCOPE" report --time 12; echo "exit=$?"
"$PMUSCOPE" report -g sideways; echo "exit=$?"
"$PMUSCOPE" report --percent-limit 101; echo "exit=$?"
"$PMUSCOPE" report --pid x; echo "exit=$?"
"$PMUSCOPE" report --cpu 3-1; echo "exit=$?"
"$PMUSCOPE" report extra.data; echo "exit=$?"
"$PMUSCOPE" report; echo "exit=$?"
echo "not perf.data" > text.data
"$PMUSCOPE" report -i text.data; echo "exit=$?"
: > empty.data
"$PMUSCOPE" report -i empty.data; echo "exit=$?"
"$PMUSCOPE" report -g fractal; echo "exit=$?"
