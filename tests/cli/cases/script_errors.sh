# script usage and file errors: exit codes and messages
"$PMUSCOPE" script; echo "exit=$?"
"$PMUSCOPE" script -i /nonexistent/x.data; echo "exit=$?"
"$PMUSCOPE" script extra; echo "exit=$?"
"$PMUSCOPE" script -F comm,bogus -i "$TOP/tests/cli/cases/script_flat.data"; echo "exit=$?"
"$PMUSCOPE" script -F comm,cpu -i "$TOP/tests/cli/cases/script_flat.data"; echo "exit=$?"
"$PMUSCOPE" script --max-stack -3 -i "$TOP/tests/cli/cases/script_flat.data"; echo "exit=$?"
echo "not a perf.data file, just text" > junk.data
"$PMUSCOPE" script -i junk.data; echo "exit=$?"
# a recording cut short: the data section runs past the end of the file
head -c 680 "$TOP/tests/cli/cases/script_flat.data" > cut.data
"$PMUSCOPE" script -F comm,tid,time -i cut.data; echo "exit=$?"
"$PMUSCOPE" script -F comm,tid,time --recover -i cut.data; echo "exit=$?"
"$PMUSCOPE" script --pid 12x -i "$TOP/tests/cli/cases/script_flat.data"; echo "exit=$?"
"$PMUSCOPE" script --time 5 -i "$TOP/tests/cli/cases/script_flat.data"; echo "exit=$?"
"$PMUSCOPE" script -C x -i "$TOP/tests/cli/cases/script_flat.data"; echo "exit=$?"
