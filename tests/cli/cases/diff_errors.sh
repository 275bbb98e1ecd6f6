# diff's usage errors exit 129; missing (no files: perf.data.old and perf.data, as perf diff), non-perf.data
# and damaged files, and an absent event, exit 1
cp "$TOP/tests/cli/cases/script_flat.data" flat.data
"$PMUSCOPE" diff; echo "exit=$?"
"$PMUSCOPE" diff flat.data; echo "exit=$?"
"$PMUSCOPE" diff flat.data flat.data extra.data; echo "exit=$?"
"$PMUSCOPE" diff --sort children2 flat.data flat.data; echo "exit=$?"
"$PMUSCOPE" diff --limit -1 flat.data flat.data; echo "exit=$?"
"$PMUSCOPE" diff --percent-limit 200 flat.data flat.data; echo "exit=$?"
"$PMUSCOPE" diff flat.data nothere.data; echo "exit=$?"
echo "not perf.data" > text.data
"$PMUSCOPE" diff text.data flat.data; echo "exit=$?"
"$PMUSCOPE" diff -e cycles flat.data flat.data; echo "exit=$?"
head -c 680 flat.data > cut.data
"$PMUSCOPE" diff flat.data cut.data >cut.txt; echo "exit=$?"
grep -v '^#' cut.txt
