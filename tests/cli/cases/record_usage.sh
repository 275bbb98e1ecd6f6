# record's usage errors exit 129 before touching the kernel or creating a file.
"$PMUSCOPE" record; echo "exit=$?"
"$PMUSCOPE" record -F 100 -c 5 true; echo "exit=$?"
"$PMUSCOPE" record -m 0 true; echo "exit=$?"
"$PMUSCOPE" record -p abc; echo "exit=$?"
"$PMUSCOPE" record -a -p 1; echo "exit=$?"
"$PMUSCOPE" record --duration -1 -a; echo "exit=$?"
ls perf.data 2>/dev/null || echo "no perf.data"
