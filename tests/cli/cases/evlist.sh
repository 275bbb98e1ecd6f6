# evlist prints what perf evlist prints (outputs checked against perf 6.1 byte for byte, but for
# the tip naming pmuscope): plain, -v, -g, -F, --trace-fields on a file pmuscope recorded with a
# tracepoint and a group, on corpus files (groups, a named leader, -c), a stream; usage errors.
Q=$FIXTURES/perfdata/quipper
cp "$TOP/tests/cli/cases/evlist_tp.data" perf.data
echo "-- default (perf.data): a tracepoint and {cpu-clock,task-clock}"
"$PMUSCOPE" evlist; echo "exit=$?"
echo "-- -g"
"$PMUSCOPE" evlist -g; echo "exit=$?"
echo "-- -F"
"$PMUSCOPE" evlist -F; echo "exit=$?"
echo "-- --trace-fields"
"$PMUSCOPE" evlist --trace-fields; echo "exit=$?"
echo "-- -v --trace-fields"
"$PMUSCOPE" evlist -v --trace-fields; echo "exit=$?"
echo "-- a stream on stdin"
"$PMUSCOPE" evlist -i - < "$Q/perf.data.piped.lost_samples-4.4"; echo "exit=$?"
echo "-- perf 4.14's group file: -g, -F"
"$PMUSCOPE" evlist -g -i "$Q/perf.data.group_desc-4.14"; echo "exit=$?"
"$PMUSCOPE" evlist -F -i "$Q/perf.data.group_desc-4.14"; echo "exit=$?"
echo "-- hybrid PMUs, -v"
"$PMUSCOPE" evlist -v -i "$Q/perf.data.hybrid_topology"; echo "exit=$?"
echo "-- errors"
"$PMUSCOPE" evlist -g -v; echo "exit=$?"
"$PMUSCOPE" evlist -F --group; echo "exit=$?"
"$PMUSCOPE" evlist extra; echo "exit=$?"
"$PMUSCOPE" evlist -i nothing.data; echo "exit=$?"
echo "not perf data" > junk
"$PMUSCOPE" evlist -i junk; echo "exit=$?"
