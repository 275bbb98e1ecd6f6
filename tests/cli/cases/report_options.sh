# perf report's everyday options on a fixture with call chains (see report_fixture): -g folded/flat/fractal
# and its values, --hierarchy, -F, -t, -n/--show-total-period/--show-cpu-utilization, --percentage relative,
# -U, --symbol-filter, -G, --max-stack, -w, -p/-x/--sort parent, --group-sort-idx, --tui, -T without READ records; then the errors: --cpu and -g on a
# file without CPU numbers or chains, bad -F/-t/-g words, option clashes, and perf options refused with why
mkdir proc && cp "$FIXTURES/symbol/kallsyms.txt" proc/kallsyms
export PMS_PROCFS_ROOT="$PWD/proc" PMS_JITMAP_DIR="$FIXTURES/symbol"
export PMS_SYSFS_ROOT="$FIXTURES/symbol/sysfs"
cp "$TOP/tests/cli/cases/script_chain.data" chain.data
cp "$TOP/tests/cli/cases/script_flat.data" flat.data
body() { sed -n '/^# Samples/,/^# pmuscope summary/p; /^exit=/p'; }
for args in "-g folded" "--no-children -g folded,count" "--no-children -g flat" "-g fractal" "-g caller,0.5,period" \
	"--hierarchy" "--hierarchy -g none" "-F overhead,sample,period,sym -g none" "-F sym,overhead_sys,overhead_us -g none" \
	"-t | -n --show-total-period -g none" "-n --show-total-period --show-cpu-utilization -g none" \
	"--percentage relative --comm jsapp -g none" "-U -g none" "--symbol-filter o -g none" "-G --no-children" \
	"--max-stack 1" "-T -g none" "--no-children -g none -w 0,3,8,10" \
	"--no-children -g none -p ^Lazy" "--no-children -g none -p ^Lazy -x" "--no-children -g none -s parent,comm"; do
	echo "-- $args"
	# shellcheck disable=SC2086
	{ "$PMUSCOPE" report -i chain.data $args; echo "exit=$?"; } | body
done
echo "-- --group-sort-idx 1 (a perf group file)"
"$PMUSCOPE" report -i "$FIXTURES/perfdata/quipper/perf.data.group_desc-4.14" --group-sort-idx 1 -n | body
echo "-- --tui"
"$PMUSCOPE" report -i chain.data --tui -g none 2>&1 >/dev/null; echo "exit=$?"
echo "-- --json -T --percentage relative --comm jsapp"
"$PMUSCOPE" report -i chain.data --json -T --percentage relative --comm jsapp -g none >r.json; echo "exit=$?"
grep -E '"(self|sys|usr)"' r.json | head -n 6
grep -c '"threads": \[\]' r.json
echo "-- errors"
"$PMUSCOPE" report -i flat.data --cpu 0; echo "exit=$?"
"$PMUSCOPE" report -i flat.data -g folded; echo "exit=$?"
"$PMUSCOPE" report -i chain.data -F overhead,bogus; echo "exit=$?"
"$PMUSCOPE" report -i chain.data -t .; echo "exit=$?"
"$PMUSCOPE" report -i chain.data --hierarchy -F overhead; echo "exit=$?"
"$PMUSCOPE" report -i chain.data -g address; echo "exit=$?"
"$PMUSCOPE" report -i chain.data -g branch; echo "exit=$?"
"$PMUSCOPE" report -i chain.data -g graph,0.5,2.5; echo "exit=$?"
"$PMUSCOPE" report -i chain.data --percentage most; echo "exit=$?"
"$PMUSCOPE" report -i chain.data --pretty raw -T; echo "exit=$?"
"$PMUSCOPE" report -i chain.data --max-stack -2; echo "exit=$?"
"$PMUSCOPE" report -i chain.data -w 3,x; echo "exit=$?"
"$PMUSCOPE" report -i chain.data -p '(' >/dev/null; echo "exit=$?"
for o in "-k vmlinux" "--itrace=i" "--mem-mode" "--branch-history" "-M intel" "--switch-on x"; do
	# shellcheck disable=SC2086
	"$PMUSCOPE" report -i chain.data $o >/dev/null 2>err; rc=$?
	head -n 1 err; echo "exit=$rc"
done
