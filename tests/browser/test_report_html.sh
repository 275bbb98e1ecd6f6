# SPDX-License-Identifier: MIT
# The report --html page in Chromium (issue 5): demo/pms-shares recorded by pmuscope record -g and by
# perf record -g; each page loads without console errors or network requests, its summary counts
# (samples, lost samples, lost events) are `pmuscope report --json`'s, the first row of its top
# functions table is report's top entry, the process and thread tables are there, and the flame
# graph below is drawn with the event's whole period; clicking Self sorts the table; clicking a
# function's row opens its annotation (annotate's text) under it and a second click closes it. The page of
# `pmuscope diff --flamegraph` (50/30/20 -> 30/50/20) is checked with the flame graph suite's diff
# mode (alpha blue, bravo red, tooltips) and its alpha and bravo frame deltas must be
# `diff --json`'s (+-0.5 points). Screenshots go to $BUILD_DIR/browser/.
# Sourced by tests/browser/run.sh; names are rh_-prefixed.

rh_dir=$BUILD_DIR/browser
rh_tmp=$(mktemp -d)
rh_demo=$BUILD_DIR/demo/pms-shares

# rh_results FILE: node's PASS/FAIL lines into results.
rh_results() {
	if ! grep -qE '^(PASS|FAIL) ' "$1"; then
		fail "rh-$2" "node exited without results: $(head -c 400 "$1")"
		return
	fi
	while IFS= read -r rh_line; do
		case $rh_line in
		"PASS "*) pass "${rh_line#PASS }" ;;
		"FAIL "*) rh_l=${rh_line#FAIL }; fail "${rh_l%%:*}" "${rh_l#*: }" ;;
		esac
	done <"$1"
}

# rh_check LABEL DATA: write the page and report --json of DATA, run the page checks.
rh_check() {
	if ! "$PMUSCOPE" report -i "$2" --html "$rh_tmp/$1.html" 2>"$rh_tmp/$1.err" ||
		! "$PMUSCOPE" report -i "$2" --json >"$rh_tmp/$1.json" 2>>"$rh_tmp/$1.err"; then
		fail "rh-$1-generate" "$(head -c 300 "$rh_tmp/$1.err")"
		return
	fi
	pass "rh-$1-generate: $(wc -c <"$rh_tmp/$1.html") bytes"
	node "$TOP/tests/browser/report_html.mjs" "$rh_tmp/$1.html" "$rh_tmp/$1.json" "$rh_dir/report-html-$1.png" "$1" \
		>"$rh_tmp/$1.out" 2>&1
	rh_results "$rh_tmp/$1.out" "$1"
}

if [ ! -x "$rh_demo" ]; then
	fail "rh" "$rh_demo not built"
else
	if "$PMUSCOPE" record -g -F 2000 -o "$rh_tmp/ours.data" -- "$rh_demo" --rounds 20000 >/dev/null 2>"$rh_tmp/rec.err"; then
		rh_check ours "$rh_tmp/ours.data"
	else
		fail "rh-ours-record" "$(head -c 300 "$rh_tmp/rec.err")"
	fi
	if [ -f "$rh_tmp/ours.data" ] &&
		"$PMUSCOPE" record -g -F 2000 -o "$rh_tmp/new.data" -- "$rh_demo" --rounds 20000 --shares 30,50,20 >/dev/null 2>"$rh_tmp/rec2.err" &&
		"$PMUSCOPE" diff --flamegraph "$rh_tmp/diff.html" --json "$rh_tmp/ours.data" "$rh_tmp/new.data" >"$rh_tmp/diff.json" 2>"$rh_tmp/diff.err"; then
		node "$TOP/tests/browser/flamegraph.mjs" diff "$rh_tmp/diff.html" "" label=rh-diff grew=bravo shrank=alpha \
			>"$rh_tmp/fgdiff.out" 2>&1
		rh_results "$rh_tmp/fgdiff.out" diff-page
		node "$TOP/tests/browser/report_html.mjs" --diff "$rh_tmp/diff.html" "$rh_tmp/diff.json" "$rh_dir/diff-flamegraph.png" \
			diff alpha bravo >"$rh_tmp/diff.out" 2>&1
		rh_results "$rh_tmp/diff.out" diff
	else
		fail "rh-diff" "record or diff --flamegraph: $(head -c 300 "$rh_tmp/rec2.err" "$rh_tmp/diff.err" 2>/dev/null)"
	fi
	if ! command -v perf >/dev/null 2>&1; then
		skip "rh-perf" "perf not installed"
	elif perf record -q -g -F 2000 -o "$rh_tmp/perf.data" -- "$rh_demo" --rounds 20000 >/dev/null 2>"$rh_tmp/prec.err"; then
		rh_check perf "$rh_tmp/perf.data"
	else
		fail "rh-perf-record" "$(head -c 300 "$rh_tmp/prec.err")"
	fi
fi
rm -rf "$rh_tmp"
