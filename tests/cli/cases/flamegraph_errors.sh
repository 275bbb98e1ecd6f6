# flamegraph errors: missing file, not perf.data, a cut file (partial page written, exit 1), bad options, no samples, unwritable output
cp "$TOP/tests/cli/cases/script_chain.data" chain.data
"$PMUSCOPE" flamegraph -i nope.data; echo "exit=$?"
echo garbage >g.data
"$PMUSCOPE" flamegraph -i g.data; echo "exit=$?"
head -c 680 chain.data >cut.data
"$PMUSCOPE" flamegraph -i cut.data -o cut.html 2>&1 | sed 's/[0-9]* bytes/N bytes/'; echo "exit=$?"
"$PMUSCOPE" flamegraph -i cut.data -o cut.html >/dev/null 2>&1; echo "exit=$?"
"$PMUSCOPE" flamegraph -i chain.data --weight bytes; echo "exit=$?"
"$PMUSCOPE" flamegraph -i chain.data --root x; echo "exit=$?"
"$PMUSCOPE" flamegraph -i chain.data --min-width 100; echo "exit=$?"
"$PMUSCOPE" flamegraph -i chain.data x; echo "exit=$?"
"$PMUSCOPE" flamegraph -i chain.data --event cycles; echo "exit=$?"
"$PMUSCOPE" flamegraph -i chain.data --base nope.data; echo "exit=$?"
"$PMUSCOPE" flamegraph -i chain.data -o /nonexistent/dir/f.html; echo "exit=$?"
ls
