# annotate: usage errors (exit 129) and a file without the function asked for (exit 1)
"$PMUSCOPE" annotate --percent-type sideways; echo "exit=$?"
"$PMUSCOPE" annotate -M att-and-a-half; echo "exit=$?"
"$PMUSCOPE" annotate --source --no-source; echo "exit=$?"
"$PMUSCOPE" annotate --json --stdio; echo "exit=$?"
"$PMUSCOPE" annotate --percent-limit 200; echo "exit=$?"
"$PMUSCOPE" annotate -i nothing-here.data x; echo "exit=$?"
"$PMUSCOPE" annotate -i "$FIXTURES/perfdata/quipper/multi-event-single-process.perf.data" no_such_function_anywhere; echo "exit=$?"
