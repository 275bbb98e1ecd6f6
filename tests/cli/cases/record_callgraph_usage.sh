# record's new option errors (--call-graph, -t, -C, target combinations) exit
# 129 before touching the kernel or creating a file; dwarf sizes are checked
# like perf's (1..65528 bytes).
"$PMUSCOPE" record --call-graph bogus true; echo "exit=$?"
"$PMUSCOPE" record --call-graph lbr true; echo "exit=$?"
"$PMUSCOPE" record --call-graph dwarf,0 true; echo "exit=$?"
"$PMUSCOPE" record --call-graph dwarf,65529 true; echo "exit=$?"
"$PMUSCOPE" record --call-graph dwarf,8k true; echo "exit=$?"
"$PMUSCOPE" record --call-graph dwarf,-8 true; echo "exit=$?"
"$PMUSCOPE" record -t 12x; echo "exit=$?"
"$PMUSCOPE" record -t 1,,2; echo "exit=$?"
"$PMUSCOPE" record -C 0-x true; echo "exit=$?"
"$PMUSCOPE" record -C 4095 true; echo "exit=$?"
"$PMUSCOPE" record -p 1 -t 1; echo "exit=$?"
"$PMUSCOPE" record -p 1 true; echo "exit=$?"
"$PMUSCOPE" record -a -t 1; echo "exit=$?"
"$PMUSCOPE" record -i; echo "exit=$?"
ls perf.data 2>/dev/null || echo "no perf.data"
