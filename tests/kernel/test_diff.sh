# SPDX-License-Identifier: MIT
# pmuscope diff on a known change (issue 5, acceptance 4 and 5): demo/pms-shares recorded at its
# default alpha/bravo/charlie = 50/30/20 and with --shares 30,50,20; `diff` must show alpha's total
# share down 20 points and bravo's up 20 (within 3 points of the truth), charlie and delta
# unchanged (within 3), in the text table and in --json (parsed by jq). Recorded once by
# `pmuscope record -g` and once by `perf record -g`: both kinds of file, and one of each against
# the other. A file against itself gives zero deltas; --flamegraph writes a page; a missing or
# damaged file is a clear error; different events are noted. report --html writes a page whose
# summary counts are report --json's, for our file and perf's.
# Sourced by tests/kernel/run.sh; every function and variable is df_-prefixed.

df_demo=$BUILD_DIR/demo/pms-shares
df_tol=3
# ~2.4 s of CPU per run at 4000 Hz: ~9600 samples, +-0.5 points of binomial noise on a 50% share
# (+-0.7 on a delta of two runs: the 3-point tolerance is over 4 sigma)
df_rounds=60000

# df_rec TOOL FILE [shares]: record pms-shares with TOOL (pmuscope | perf) -g; 0 on success.
df_rec() {
	df_t=$1 df_f=$2
	shift 2
	if [ "$df_t" = perf ]; then
		perf record -q -g -F 4000 -o "$df_f" -- "$df_demo" --rounds $df_rounds "$@" >/dev/null 2>"$df_f.err"
	else
		"$PMUSCOPE" record -g -F 4000 -o "$df_f" -- "$df_demo" --rounds $df_rounds "$@" >/dev/null 2>"$df_f.err"
	fi
}

# df_judge NAME "alpha=A bravo=B charlie=C delta=D": deltas against -20 +20 0 0.
df_judge() {
	df_bad=$(echo "$2" | awk -v tol=$df_tol '{
		for (i = 1; i <= NF; i++) { split($i, kv, "="); m[kv[1]] = kv[2] }
		split("alpha=-20 bravo=20 charlie=0 delta=0", w, " ")
		for (k in w) { split(w[k], kv, "="); v = m[kv[1]]
			if (v == "") { bad = bad " " kv[1] " missing"; continue }
			d = v - kv[2]; if (d < 0) d = -d
			if (d > tol) bad = bad " " kv[1] "=" v "(want " kv[2] ")" }
		print bad }')
	if [ -z "$df_bad" ]; then
		pass "$1: $2"
	else
		fail "$1" "$df_bad [$2]"
	fi
}

# df_check NAME BASE NEW: the text table and --json of diff BASE NEW against the truth.
df_check() {
	if ! "$PMUSCOPE" diff "$2" "$3" >"$df_tmp/$1.txt" 2>"$df_tmp/$1.err"; then
		fail "df-$1: diff" "exit $?: $(head -c 300 "$df_tmp/$1.err")"
		return
	fi
	# delta total is the third column; the symbol the last
	df_judge "df-$1: diff text (delta total, points)" "$(awk '!/^#/ && NF >= 9 {
		if ($NF == "alpha" || $NF == "bravo" || $NF == "charlie" || $NF == "delta") printf "%s=%s ", $NF, $3 + 0 }' "$df_tmp/$1.txt")"
	if ! command -v jq >/dev/null 2>&1; then
		skip "df-$1: --json" "jq not installed"
		return
	fi
	if ! "$PMUSCOPE" diff --json --percent-limit 0 "$2" "$3" >"$df_tmp/$1.json" 2>>"$df_tmp/$1.err"; then
		fail "df-$1: diff --json" "exit $?"
		return
	fi
	df_judge "df-$1: diff --json parsed by jq (delta_total)" "$(jq -r '[.rows[] | select(.dso == "pms-shares")
		| select(.name == "alpha" or .name == "bravo" or .name == "charlie" or .name == "delta")
		| "\(.name)=\(.delta_total)"] | join(" ")' "$df_tmp/$1.json" 2>&1)"
}

df_main() {
	if [ ! -x "$df_demo" ]; then
		fail "df" "$df_demo not built"
		return
	fi
	if "$PMUSCOPE" diff -h 2>&1 | grep -q 'not a pmuscope command'; then
		fail "df" "pmuscope has no diff command"
		return
	fi
	df_tmp=$(mktemp -d)
	if df_rec pmuscope "$df_tmp/a.data" && df_rec pmuscope "$df_tmp/b.data" --shares 30,50,20; then
		pass "df-record: pmuscope record -g of pms-shares at 50/30/20 and 30/50/20"
		df_check ours "$df_tmp/a.data" "$df_tmp/b.data"
	else
		fail "df-record" "pmuscope record: $(head -c 300 "$df_tmp/a.data.err" "$df_tmp/b.data.err")"
	fi
	if ! command -v perf >/dev/null 2>&1; then
		skip "df-perf" "perf not installed"
	elif df_rec perf "$df_tmp/pa.data" && df_rec perf "$df_tmp/pb.data" --shares 30,50,20; then
		pass "df-record-perf: perf record -g of pms-shares at 50/30/20 and 30/50/20"
		df_check perf "$df_tmp/pa.data" "$df_tmp/pb.data"
		[ -f "$df_tmp/a.data" ] && df_check ours-vs-perf "$df_tmp/a.data" "$df_tmp/pb.data"
	else
		fail "df-record-perf" "perf record: $(head -c 300 "$df_tmp/pa.data.err" "$df_tmp/pb.data.err")"
	fi
	[ -f "$df_tmp/b.data" ] || { rm -rf "$df_tmp"; return; }

	# a file against itself: every row "same", every delta 0
	if command -v jq >/dev/null 2>&1 &&
		"$PMUSCOPE" diff --json --percent-limit 0 "$df_tmp/a.data" "$df_tmp/a.data" >"$df_tmp/self.json" 2>&1; then
		df_n=$(jq '[.rows[] | select(.change != "same" or .delta_total != 0 or .delta_self != 0)] | length' "$df_tmp/self.json")
		df_r=$(jq '.rows | length' "$df_tmp/self.json")
		if [ "$df_n" = 0 ] && [ "$df_r" -gt 5 ]; then
			pass "df-self: a file against itself: $df_r rows, all deltas 0"
		else
			fail "df-self" "$df_n of $df_r rows changed"
		fi
	else
		fail "df-self" "diff --json a a: $(head -c 300 "$df_tmp/self.json")"
	fi

	# the differential flame graph page
	if "$PMUSCOPE" diff --flamegraph "$df_tmp/d.html" "$df_tmp/a.data" "$df_tmp/b.data" >/dev/null 2>"$df_tmp/fg.err" &&
		grep -q '<canvas' "$df_tmp/d.html" && grep -q 'alpha' "$df_tmp/d.html"; then
		pass "df-flamegraph: --flamegraph wrote a $(wc -c <"$df_tmp/d.html")-byte page"
	else
		fail "df-flamegraph" "$(head -c 300 "$df_tmp/fg.err")"
	fi

	# errors: a missing file, a damaged (cut) file, different events
	"$PMUSCOPE" diff "$df_tmp/a.data" "$df_tmp/nothere.data" >/dev/null 2>"$df_tmp/e1"
	df_rc=$?
	if [ $df_rc = 1 ] && grep -q "cannot open '.*nothere.data': no such file" "$df_tmp/e1"; then
		pass "df-missing: exit 1, $(cat "$df_tmp/e1")"
	else
		fail "df-missing" "exit $df_rc: $(cat "$df_tmp/e1")"
	fi
	df_sz=$(wc -c <"$df_tmp/b.data")
	head -c $((df_sz * 2 / 3)) "$df_tmp/b.data" >"$df_tmp/cut.data"
	"$PMUSCOPE" diff "$df_tmp/a.data" "$df_tmp/cut.data" >"$df_tmp/cut.txt" 2>"$df_tmp/e2"
	df_rc=$?
	if [ $df_rc = 1 ] && grep -q "cut.data: .*comparing the samples before the damage" "$df_tmp/e2" && grep -q 'alpha$' "$df_tmp/cut.txt"; then
		pass "df-damaged: exit 1, partial table, $(head -n 1 "$df_tmp/e2")"
	else
		fail "df-damaged" "exit $df_rc: $(head -c 300 "$df_tmp/e2")"
	fi
	if "$PMUSCOPE" record -e task-clock -g -o "$df_tmp/t.data" -- "$df_demo" --rounds 3000 >/dev/null 2>&1 &&
		"$PMUSCOPE" diff "$df_tmp/a.data" "$df_tmp/t.data" >/dev/null 2>"$df_tmp/e3" &&
		grep -q "different events (base 'cpu-clock', new 'task-clock')" "$df_tmp/e3"; then
		pass "df-events: $(cat "$df_tmp/e3")"
	else
		fail "df-events" "$(head -c 300 "$df_tmp/e3")"
	fi

	# report --html on our file and perf's: the page's summary counts are report --json's
	for df_f in a pa; do
		[ -f "$df_tmp/$df_f.data" ] || continue
		if "$PMUSCOPE" report -i "$df_tmp/$df_f.data" --html "$df_tmp/$df_f.html" 2>"$df_tmp/h.err" &&
			"$PMUSCOPE" report -i "$df_tmp/$df_f.data" --json >"$df_tmp/$df_f.rj" 2>/dev/null; then
			df_want=$(jq -r '"\(.summary.samples) \(.summary.lost_samples) \(.summary.lost_events)"' "$df_tmp/$df_f.rj" 2>/dev/null)
			df_got=$(for k in samples lost_samples lost_events; do
				sed -n "s/.*data-key=\"$k\" data-value=\"\([0-9]*\)\".*/\1/p" "$df_tmp/$df_f.html" | head -n 1; done | tr '\n' ' ')
			if [ "$df_got" = "$df_want " ] && grep -q '<canvas' "$df_tmp/$df_f.html"; then
				pass "df-report-html-$df_f: samples, lost samples, lost events $df_want as report --json"
			else
				fail "df-report-html-$df_f" "page '$df_got', report --json '$df_want'"
			fi
		else
			fail "df-report-html-$df_f" "$(head -c 300 "$df_tmp/h.err")"
		fi
	done
	rm -rf "$df_tmp"
}
df_main
