# SPDX-License-Identifier: MIT
# Kernel tests of report's perf options against `perf report --stdio` (the oracle) on the same
# files, recorded here by perf and by pmuscope: -g folded/flat/fractal text, --hierarchy rows,
# -F columns, -n/--show-total-period/--show-cpu-utilization, --percentage relative, -T on a
# `perf record -s` file, versioned symbol names (clock_nanosleep@GLIBC_...) as perf names them,
# and --cpu on a file without CPU numbers. The files do not change once recorded, so the texts
# must be equal; only the order of equal-weight lines may differ (compared sorted).
# Sourced by tests/kernel/run.sh; every function and variable is ro_-prefixed.

ro_dir=$(mktemp -d)

# ro_both NAME FILE ARGS...: perf's and our --stdio text of FILE with ARGS, without perf's tip
# and our summary (from "# pmuscope summary:" on), into $ro_dir/NAME.perf and NAME.pms
ro_both() {
	ro_n=$1
	ro_f=$2
	shift 2
	perf report -i "$ro_f" --stdio "$@" 2>/dev/null | grep -v '^# (Tip:' >"$ro_dir/$ro_n.perf"
	"$PMUSCOPE" report -i "$ro_f" "$@" 2>/dev/null | sed '/^# pmuscope summary:/,$d' >"$ro_dir/$ro_n.pms"
}

# ro_same NAME FILTER WHAT: pass when FILTER (a command reading stdin) gives the same sorted lines,
# and at least one, on both sides
ro_same() {
	ro_a=$(eval "$2" <"$ro_dir/$1.perf" | sort)
	ro_b=$(eval "$2" <"$ro_dir/$1.pms" | sort)
	if [ -z "$ro_a" ]; then
		fail "report $1" "perf printed no $3 ($(head -c 200 "$ro_dir/$1.perf"))"
	elif [ "$ro_a" = "$ro_b" ]; then
		pass "report $1: $3 as perf's ($(printf '%s\n' "$ro_a" | wc -l) lines)"
	else
		fail "report $1" "$3 differ from perf's: $(printf '%s\n' "$ro_a" >"$ro_dir/a"; printf '%s\n' "$ro_b" >"$ro_dir/b"
			diff "$ro_dir/a" "$ro_dir/b" | head -n 6 | tr '\n' ' ')"
	fi
}

if ! command -v perf >/dev/null 2>&1; then
	skip "report options" "Linux perf is not installed (scripts/install-deps.sh installs linux-perf)"
elif ! perf record -q -g -e cpu-clock -o "$ro_dir/fp.data" "$BUILD_DIR/demo/pms-shares" --seconds 1 \
	>/dev/null 2>"$ro_dir/rec.err"; then
	skip "report options" "perf record -g -e cpu-clock failed: $(head -n 1 "$ro_dir/rec.err")"
else
	ro_fp=$ro_dir/fp.data
	# call graph print types: whole lines (folded: "48.88% a;b;c"), flat's value and frame lines
	ro_both folded "$ro_fp" -g folded
	ro_same folded "grep -E '^[0-9.]+% '" "-g folded lines"
	ro_both folded_callee "$ro_fp" --no-children -g folded,count
	ro_same folded_callee "grep -E '^[0-9]+ '" "-g folded,count lines"
	ro_both flat "$ro_fp" --no-children -g flat
	ro_same flat "grep -v '^#'" "-g flat text"
	# fractal: each branch's share of its parent, and the "[...]" rest (perf 6.1 sometimes says
	# "[...] (inlined)": its rest node's symbol is not initialized)
	ro_both fractal "$ro_fp" -g fractal
	ro_same fractal "sed 's/ (inlined)\$//' | grep -oE -- '--[0-9.]+%--[^ ]+'" "-g fractal branches"
	ro_both period "$ro_fp" --no-children -g caller,0.5,period
	ro_same period "grep -oE -- '--[0-9]+--[^ ]+'" "-g period branches"
	# --hierarchy: the header, and every level's row (indent, percentage, text)
	ro_both hierarchy "$ro_fp" --hierarchy -g none
	# (not the dotted line under the header: perf sizes it with entries it does not print, such as
	# children-only callers, so its length moves with what was sampled; the rows are compared)
	ro_same hierarchy "grep -v '^#\$' | grep -v '^\$' | grep -v 'Total Lost\|header info' | grep -v '^# \.\.\.'" "--hierarchy rows"
	# -F and the extra columns: the titles, dots and rows
	ro_both fields "$ro_fp" --no-children -g none -F overhead,sample,period,sym
	ro_same fields "grep -v '^#\$' | grep -v '^\$'" "-F overhead,sample,period,sym columns"
	# without -s, perf sorts by the -F fields in turn: the same lines in the same order
	ro_both fields_order "$ro_fp" -g none -F sym,overhead,overhead_children
	if grep -v '^#' "$ro_dir/fields_order.perf" | grep . >"$ro_dir/a" && grep -v '^#' "$ro_dir/fields_order.pms" | grep . >"$ro_dir/b" &&
		cmp -s "$ro_dir/a" "$ro_dir/b"; then
		pass "report fields_order: -F sym,overhead,overhead_children rows in perf's order ($(wc -l <"$ro_dir/a") rows)"
	else
		fail "report fields_order" "rows differ from perf's: $(diff "$ro_dir/a" "$ro_dir/b" | head -n 4 | tr '\n' ' ')"
	fi
	ro_both columns "$ro_fp" -g none -n --show-total-period --show-cpu-utilization
	ro_same columns "grep -v '^#\$' | grep -v '^\$'" "-n --show-total-period --show-cpu-utilization columns"
	# -w: fixed widths cut titles and texts
	ro_both widths "$ro_fp" --no-children -g none -w 0,6,8,12
	ro_same widths "grep -v '^#\$' | grep -v '^\$'" "-w 0,6,8,12 columns"
	# -p: the parent key (the first caller matching), -x: only samples with one
	ro_both parent "$ro_fp" --no-children -g none -p '^(alpha|charlie)$'
	ro_same parent "grep -v '^#\$' | grep -v '^\$'" "-p rows with their parent"
	ro_both parent_x "$ro_fp" --no-children -g none -p '^(alpha|charlie)$' -x
	ro_same parent_x "grep -v '^#\$' | grep -v '^\$'" "-p -x rows"
	# relative percentages of what a filter keeps, and the header's event count of it
	ro_both relative "$ro_fp" --no-children -g none --percentage relative --comm pms-shares --dso pms-shares
	ro_same relative "grep -v '^#\$' | grep -v '^\$'" "--percentage relative rows"
	# -G and --max-stack cut chains the way perf's cursor does
	ro_both maxstack "$ro_fp" -G --max-stack 3 -g folded
	ro_same maxstack "grep -E '^[0-9.]+% '" "--max-stack 3 -G folded lines"

	# a file pmuscope records: perf and pmuscope read it into the same folded lines
	if "$PMUSCOPE" record -g -e cpu-clock -o "$ro_dir/ours.data" -- "$BUILD_DIR/demo/pms-shares" --seconds 1 \
		>/dev/null 2>"$ro_dir/rec2.err"; then
		ro_both ours "$ro_dir/ours.data" -g folded
		ro_same ours "grep -E '^[0-9.]+% '" "-g folded lines of a pmuscope recording"
	else
		fail "report ours" "pmuscope record -g failed: $(head -n 1 "$ro_dir/rec2.err")"
	fi

	# --cpu on a file without CPU numbers (perf record without -a has none): perf refuses too
	"$PMUSCOPE" report -i "$ro_fp" --cpu 0 >/dev/null 2>"$ro_dir/cpu.err"
	ro_rc=$?
	perf report -i "$ro_fp" --stdio --cpu 0 >/dev/null 2>"$ro_dir/cpu.perf"
	if [ "$ro_rc" = 1 ] && grep -q 'PERF_SAMPLE_CPU' "$ro_dir/cpu.err" && grep -q 'does not contain CPU' "$ro_dir/cpu.perf"; then
		pass "report --cpu: a file without CPU numbers is an error (exit 1), as perf's"
	else
		fail "report --cpu" "exit $ro_rc: $(head -n 1 "$ro_dir/cpu.err") / perf: $(head -n 1 "$ro_dir/cpu.perf")"
	fi
fi

# -T: each thread's count from the PERF_RECORD_READ records perf record -s writes
if command -v perf >/dev/null 2>&1 &&
	perf record -q -s -e cpu-clock -o "$ro_dir/thr.data" "$BUILD_DIR/demo/pms-threads" 4 4000000 >/dev/null 2>&1; then
	ro_both threads "$ro_dir/thr.data" -T
	ro_same threads "sed -n '/^#  *PID  *TID/,\$p' | grep -v '^#\$'" "-T table"
	ro_n=$(sed -n '/^#  *PID  *TID/,$p' "$ro_dir/threads.pms" | grep -c '^  ')
	# the workers' READ records come when they exit; the main thread's may come after perf stopped
	if [ "$ro_n" -ge 4 ]; then
		pass "report -T: $ro_n threads with their counts (4 workers)"
	else
		fail "report -T" "$ro_n thread rows, want the 4 workers: $(tail -n 8 "$ro_dir/threads.pms" | tr '\n' ' ')"
	fi
fi

# -T on a file pmuscope records with -s (the record helper's part): perf must read the same table
if ! "$PMUSCOPE" record --list-opts 2>/dev/null | grep -q -- '--stat'; then
	skip "report -T on a pmuscope record -s file" "this pmuscope record has no -s/--stat yet (PERF_RECORD_READ per thread)"
elif "$PMUSCOPE" record -s -e cpu-clock -o "$ro_dir/thr2.data" -- "$BUILD_DIR/demo/pms-threads" 4 4000000 \
	>/dev/null 2>"$ro_dir/rec3.err"; then
	ro_both threads_ours "$ro_dir/thr2.data" -T
	ro_same threads_ours "sed -n '/^#  *PID  *TID/,\$p' | grep -v '^#\$'" "-T table of a pmuscope record -s file"
else
	fail "report -T on a pmuscope record -s file" "pmuscope record -s failed: $(head -n 1 "$ro_dir/rec3.err")"
fi

# versioned names: perf 6.1 names libc's wrappers as the symbol table has them
# (clock_nanosleep@GLIBC_2.2.5 where .symtab holds the versioned alias), and so must we
if command -v perf >/dev/null 2>&1 &&
	perf record -q -g -e sched:sched_switch -o "$ro_dir/sw.data" "$BUILD_DIR/demo/pms-sleep" >/dev/null 2>&1; then
	ro_both versioned "$ro_dir/sw.data" --no-children --sort sym -g folded
	ro_same versioned "grep -oE '[A-Za-z_]+@@?GLIBC_[0-9.]+' | sort -u" "versioned symbol names"
fi
[ -n "${RO_KEEP:-}" ] && echo "report options: files kept in $ro_dir" || rm -rf "$ro_dir"
