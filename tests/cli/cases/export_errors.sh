# export usage and file errors: exit codes and messages
"$PMUSCOPE" export; echo "exit=$?"
"$PMUSCOPE" export -i /nonexistent/x.data; echo "exit=$?"
"$PMUSCOPE" export extra; echo "exit=$?"
"$PMUSCOPE" export --format=gif -i "$TOP/tests/cli/cases/script_flat.data"; echo "exit=$?"
"$PMUSCOPE" export --weight=bytes -i "$TOP/tests/cli/cases/script_flat.data"; echo "exit=$?"
"$PMUSCOPE" export --root=cpu -i "$TOP/tests/cli/cases/script_flat.data"; echo "exit=$?"
"$PMUSCOPE" export --time 5 -i "$TOP/tests/cli/cases/script_flat.data"; echo "exit=$?"
"$PMUSCOPE" export --time 6,5 -i "$TOP/tests/cli/cases/script_flat.data"; echo "exit=$?"
"$PMUSCOPE" export --max-stack -1 -i "$TOP/tests/cli/cases/script_flat.data"; echo "exit=$?"
"$PMUSCOPE" export -i "$TOP/tests/cli/cases/script_flat.data" -o /nonexistent/dir/out.folded; echo "exit=$?"
echo "not a perf.data file, just text" > junk.data
"$PMUSCOPE" export -i junk.data; echo "exit=$?"
# a recording cut short: the data section runs past the end of the file
head -c 680 "$TOP/tests/cli/cases/script_flat.data" > cut.data
"$PMUSCOPE" export -i cut.data; echo "exit=$?"
"$PMUSCOPE" export --recover -i cut.data; echo "exit=$?"
# a flat file (no call chains): one frame per stack
"$PMUSCOPE" export -i "$TOP/tests/cli/cases/script_flat.data"; echo "exit=$?"
