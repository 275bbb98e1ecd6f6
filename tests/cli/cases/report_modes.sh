# perf's two other views on real-world files (tests/fixtures/perfdata/quipper, recorded elsewhere):
# branch mode, the default for a file recorded with -b (one entry per branch, weight 1, perf's
# columns; --json's from/to/cycles), and the group view, the default with HEADER_GROUP_DESC (one
# "anon group" section, a column per member); --no-branch-stack / --no-group for the plain view,
# -b / --group to force them, -b on a file without branch stacks refused, branch keys without
# branch mode refused. The build-id cache is an empty HOME: the files' objects are not here.
export HOME="$PWD"
q="$FIXTURES/perfdata/quipper"
echo "-- branch mode (default), --percent-limit 1"
"$PMUSCOPE" report -i "$q/perf.data.branch-4.14" -n --percent-limit 1 >out.txt 2>&1; echo "exit=$?"
sed -n '/^# Samples/,/^# pmuscope summary/p' out.txt
echo "-- branch mode --sort symbol_to,mispredict,dso_to --percent-limit 2"
"$PMUSCOPE" report -i "$q/perf.data.branch-4.14" --sort symbol_to,mispredict,dso_to --percent-limit 2 | sed -n '/^# Samples/,/^# pmuscope summary/p'
echo "-- branch mode --json --percent-limit 2"
"$PMUSCOPE" report -i "$q/perf.data.branch-4.14" --json --percent-limit 2 | jq -c '{branch_mode, group_view, children, call_graph, sort, events: [.events[] | {name, samples, period, entries}]}'
echo "-- --no-branch-stack"
"$PMUSCOPE" report -i "$q/perf.data.branch-4.14" -n --no-branch-stack | sed -n '/^# Samples/,/^$/p'
echo "-- -b on a file without branch stacks"
"$PMUSCOPE" report -i "$q/perf.data.group_desc-4.14" -b >out.txt 2>&1; echo "exit=$?"
sed "s|$q/||" out.txt
echo "-- a branch key without branch mode"
"$PMUSCOPE" report -i "$q/perf.data.group_desc-4.14" --sort symbol_from >out.txt 2>&1; echo "exit=$?"
sed "s|$q/||" out.txt
echo "-- group view (default)"
"$PMUSCOPE" report -i "$q/perf.data.group_desc-4.14" -n | sed -n '/^# Samples/,/^# pmuscope summary/p'
echo "-- group view of a pipe (GROUP_DESC as a HEADER_FEATURE record) --percent-limit 5"
"$PMUSCOPE" report -i "$q/perf.data.piped.header_feautres_group_desc-6.8" --percent-limit 5 | sed -n '/^# Samples/,/^# pmuscope summary/p'
echo "-- group view --json"
"$PMUSCOPE" report -i "$q/perf.data.group_desc-4.14" --json | jq -c '{group_view, events: [.events[] | {name, attr_index, samples, period, group, first: .entries[0], last: .entries[-1]}]}'
echo "-- --no-group"
"$PMUSCOPE" report -i "$q/perf.data.group_desc-4.14" -n --no-group | grep '^# Samples\|^# Event'
echo "-- --group on a file without groups --percent-limit 2"
"$PMUSCOPE" report -i "$q/perf.data.hw_and_sw-3.4" --group --percent-limit 2 | sed -n '/^# Samples/,/^# pmuscope summary/p'
echo "-- --html excludes -b and --group"
"$PMUSCOPE" report -i "$q/perf.data.group_desc-4.14" --html x.html --group; echo "exit=$?"
