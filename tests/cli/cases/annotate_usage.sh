# annotate: usage errors (exit 129), a file without the function asked for, and a file whose samples nothing here names (exit 1)
"$PMUSCOPE" annotate --percent-type sideways; echo "exit=$?"
"$PMUSCOPE" annotate -M att-and-a-half; echo "exit=$?"
"$PMUSCOPE" annotate --source --no-source; echo "exit=$?"
"$PMUSCOPE" annotate --json --stdio; echo "exit=$?"
"$PMUSCOPE" annotate --percent-limit 200; echo "exit=$?"
"$PMUSCOPE" annotate -i nothing-here.data x; echo "exit=$?"
"$PMUSCOPE" annotate -i "$FIXTURES/perfdata/quipper/multi-event-single-process.perf.data" no_such_function_anywhere; echo "exit=$?"
# a file from another machine: nothing here names its samples, and each object says why
{ "$PMUSCOPE" annotate -i "$FIXTURES/perfdata/quipper/perf.data.busy.0-3.8"; echo "exit=$?"; } 2>&1 | sed "s|$FIXTURES|FIXTURES|g"
