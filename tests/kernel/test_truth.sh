# SPDX-License-Identifier: MIT
# Ground truth for sampling (issue 4, acceptance 3): demo/pms-shares gives alpha, bravo and
# charlie->delta 50/30/20% of the same leaf_work() calls. Recorded with frame pointers
# (pmuscope record -g) and with DWARF unwinding (--call-graph dwarf), the reports must give
# children alpha 50, bravo 30, charlie = delta 20 (+-3 points), leaf_work self ~100%, and
# leaf_work's callers split 50/30/20 (+-3 points): through `pmuscope report --stdio`,
# `--json`, and `pmuscope script`'s chains. perf report/script on the same files must agree.
# A third file, perf record's own --call-graph dwarf, checks that pmuscope unwinds it too;
# --sort srcline must put leaf_work's self share on its loop lines, as perf's srcline does.
# Sourced by tests/kernel/run.sh; every function and variable is gt_-prefixed.

gt_demo=$BUILD_DIR/demo/pms-shares
gt_tol=3

# gt_exists CMD: pmuscope has the subcommand CMD.
gt_exists() { ! "$PMUSCOPE" "$1" -h 2>&1 | grep -q 'not a pmuscope command'; }

# gt_chains_metrics: perf-script text (-F comm,tid,ip,sym, chains leaf first) on stdin ->
# "samples=T self=S alpha=A bravo=B charlie=C delta=D ca=X cb=Y cd=Z" (percent, 2 decimals):
# children % of each caller (a sample counts once per symbol), leaf_work's self %, and the
# split of leaf_work's samples by its direct caller (alpha/bravo/delta).
gt_chains_metrics() {
	awk '
	function flush() {
		if (nf == 0) return
		t++
		if (fr[1] == "leaf_work") self++
		delete seen
		for (i = 1; i <= nf; i++) if (!(fr[i] in seen)) { seen[fr[i]] = 1; ch[fr[i]]++ }
		for (i = 1; i < nf; i++) if (fr[i] == "leaf_work") { caller[fr[i + 1]]++; nl++; break }
		nf = 0
	}
	/^[^ \t]/ { flush(); next }
	/^[ \t]*$/ { flush(); next }
	{ s = $2; sub(/\+0x[0-9a-f]+$/, "", s); fr[++nf] = s }
	END {
		flush()
		if (t == 0) { print "samples=0"; exit }
		if (nl == 0) nl = 1
		printf "samples=%d self=%.2f alpha=%.2f bravo=%.2f charlie=%.2f delta=%.2f ca=%.2f cb=%.2f cd=%.2f\n",
			t, 100 * self / t, 100 * ch["alpha"] / t, 100 * ch["bravo"] / t, 100 * ch["charlie"] / t,
			100 * ch["delta"] / t, 100 * caller["alpha"] / nl, 100 * caller["bravo"] / nl, 100 * caller["delta"] / nl
	}'
}

# gt_judge NAME METRICS: pass/fail the ground truth on a metrics line.
gt_judge() {
	gt_bad=$(echo "$2" | awk -v tol=$gt_tol '{
		for (i = 1; i <= NF; i++) { split($i, kv, "="); m[kv[1]] = kv[2] }
		if (m["samples"] < 1000) { print "only " m["samples"] " samples"; exit }
		split("alpha=50 bravo=30 charlie=20 delta=20 ca=50 cb=30 cd=20", w, " ")
		for (k in w) { split(w[k], kv, "="); d = m[kv[1]] - kv[2]; if (d < 0) d = -d
			if (d > tol) bad = bad " " kv[1] "=" m[kv[1]] "(want " kv[2] ")" }
		if (m["self"] < 95) bad = bad " leaf_work self " m["self"] "% (want >= 95)"
		print bad }')
	if [ -z "$gt_bad" ]; then
		pass "$1: $2"
	else
		fail "$1" "$gt_bad [$2]"
	fi
}

# gt_record MODE FILE: record pms-shares with MODE fp (-g, 4000 Hz) or dwarf (--call-graph
# dwarf, 2000 Hz: 8 KB of stack per sample); pmuscope when it can, else perf (dwarf, before
# pmuscope record had it). A fixed amount of work (75000 rounds, ~3 s of CPU) rather than a
# fixed time keeps the sample count (~12000 / ~6000: +-0.5 / +-0.7 points of binomial noise
# on a 50% share) independent of the machine's load. Prints the recorder used.
gt_record() {
	case $1 in
	fp) gt_cg="-g -F 4000" ;;
	dwarf) gt_cg="--call-graph dwarf -F 2000" ;;
	perf-dwarf)
		# perf's own dwarf file: pmuscope report must unwind what perf record wrote too.
		perf record -q --call-graph dwarf -F 2000 -o "$2" -- "$gt_demo" --rounds 75000 >/dev/null 2>"$2.err" &&
			echo perf-own || echo "failed: perf record: $(head -c 200 "$2.err")"
		return
		;;
	esac
	# shellcheck disable=SC2086 # gt_cg is a word list
	if "$PMUSCOPE" record $gt_cg -o "$2" -- "$gt_demo" --rounds 75000 >/dev/null 2>"$2.err"; then
		echo pmuscope
	elif [ "$1" = dwarf ] && grep -qiE 'dwarf|call-graph' "$2.err" &&
		perf record -q $gt_cg -o "$2" -- "$gt_demo" --rounds 75000 >/dev/null 2>&1; then
		echo perf
	else
		echo "failed: $(head -c 200 "$2.err")"
	fi
}

gt_one() { # gt_one MODE
	gt_f=$gt_tmp/$1.data
	gt_by=$(gt_record "$1" "$gt_f")
	case $gt_by in
	pmuscope) pass "truth-$1: recorded by pmuscope record" ;;
	perf-own) ;;
	perf) skip "truth-$1-record" "pmuscope record has no --call-graph dwarf yet: $(head -n 1 "$gt_f.err"); checking a perf-recorded file" ;;
	*) fail "truth-$1: record" "$gt_by"; return ;;
	esac
	# Oracle: perf's own unwinding of the same file.
	gt_judge "truth-$1: perf script (oracle)" \
		"$(perf script -i "$gt_f" -F comm,tid,ip,sym 2>/dev/null | gt_chains_metrics)"
	if gt_exists script; then
		gt_judge "truth-$1: pmuscope script chains" \
			"$("$PMUSCOPE" script -i "$gt_f" -F comm,tid,ip,sym 2>/dev/null | gt_chains_metrics)"
	else
		fail "truth-$1: pmuscope script" "no script command"
	fi
	if gt_exists report; then
		gt_report "$1" "$gt_f"
	else
		skip "truth-$1: pmuscope report" "pmuscope report does not exist yet"
	fi
}

# gt_pct FILE SYM: SYM's first (children) and second (self) percentages in a perf-layout
# --stdio report, as "children self".
gt_pct() {
	awk -v s="$2" '!/^#/ && $NF == s && $1 ~ /%$/ && $2 ~ /%$/ { sub(/%/, "", $1); sub(/%/, "", $2); print $1, $2; exit }' "$1"
}

gt_report() { # gt_report MODE FILE
	gt_out=$gt_tmp/$1.report
	if ! "$PMUSCOPE" report -i "$2" --stdio --children >"$gt_out" 2>"$gt_out.err"; then
		fail "truth-$1: report --stdio" "exit $?: $(head -c 200 "$gt_out.err")"
		return
	fi
	perf report -i "$2" --stdio --children >"$gt_out.perf" 2>/dev/null
	gt_m=$(awk -v f="$gt_out" 'BEGIN {
		split("alpha bravo charlie delta leaf_work", s, " ")
		while ((getline l < f) > 0) { n = split(l, w, " ")
			if (l !~ /^#/ && w[1] ~ /%$/ && w[2] ~ /%$/) for (k in s) if (w[n] == s[k] && !(s[k] in c)) {
				c[s[k]] = w[1]; self[s[k]] = w[2] } }
		gsub(/%/, "", self["leaf_work"])
		printf "samples=9999 self=%s", self["leaf_work"] == "" ? -100 : self["leaf_work"]
		for (k = 1; k <= 4; k++) { v = c[s[k]]; gsub(/%/, "", v); printf " %s=%s", s[k], v == "" ? -100 : v }
		printf "\n" }')
	# leaf_work's callers: the first-level --P%--caller branches of its callee graph
	# (--no-children); deeper branches (callers of callers) start further right.
	"$PMUSCOPE" report -i "$2" --stdio --no-children --sort sym >"$gt_out.nc" 2>>"$gt_out.err"
	gt_c=$(awk '/^ +[0-9.]+%/ { inside = ($NF == "leaf_work"); next }
		inside && match($0, /--[0-9.]+%--[^ ]+/) {
			t = substr($0, RSTART + 2, RLENGTH - 2); split(t, kv, "%--")
			n++; col[n] = RSTART; nm[n] = kv[2]; pc[n] = kv[1]
			if (min == "" || RSTART < min) min = RSTART }
		END { for (i = 1; i <= n; i++) if (col[i] == min) { p[nm[i]] += pc[i]; tot += pc[i] }
			if (tot == 0) tot = 1e9
			printf "ca=%.2f cb=%.2f cd=%.2f", 100 * p["alpha"] / tot, 100 * p["bravo"] / tot, 100 * p["delta"] / tot }' "$gt_out.nc")
	gt_n=$(sed -n "s/^# Samples: \([0-9]*\)K* of event.*/\1/p" "$gt_out" | head -n 1)
	# "# Samples: 3K" in perf's rounding: the sample floor only needs the order of magnitude.
	grep -q '^# Samples: [0-9]*K of' "$gt_out" && gt_n=$((gt_n * 1000))
	gt_judge "truth-$1: pmuscope report --stdio (children, self, leaf_work's callee graph)" "samples=${gt_n:-0} ${gt_m#samples=9999 } $gt_c"
	# perf on the same file: each symbol's children % within 1 point of ours.
	gt_diff=
	for gt_s in alpha bravo charlie delta leaf_work; do
		gt_a=$(gt_pct "$gt_out" $gt_s) gt_b=$(gt_pct "$gt_out.perf" $gt_s)
		awk -v a="${gt_a%% *}" -v b="${gt_b%% *}" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(a != "" && d <= 1) }' ||
			gt_diff="$gt_diff $gt_s: ours '${gt_a%% *}' perf '${gt_b%% *}'"
	done
	if [ -z "$gt_diff" ]; then
		pass "truth-$1: report --stdio agrees with perf report (children within 1 point)"
	else
		fail "truth-$1: report vs perf report" "$gt_diff"
	fi
	# --sort srcline: leaf_work's loop lines (in demo/pms-shares.c) carry its self share, as
	# perf's srcline (addr2line) says within 1 point.
	gt_lo=$(grep -n 'for (uint64_t i = 0; i < iters; i++) {' "$TOP/demo/pms-shares.c" | head -n 1 | cut -d: -f1)
	gt_hi=$((gt_lo + 5))
	"$PMUSCOPE" report -i "$2" --stdio --no-children -g none --sort srcline >"$gt_out.sl" 2>>"$gt_out.err"
	perf report -i "$2" --stdio --no-children -g none --sort srcline >"$gt_out.slp" 2>/dev/null
	gt_sl() { awk -v lo="$gt_lo" -v hi="$gt_hi" '!/^#/ && $1 ~ /%$/ && $2 ~ /^pms-shares\.c:[0-9]+$/ {
		split($2, fl, ":"); if (fl[2] + 0 >= lo && fl[2] + 0 <= hi) { v = $1; sub(/%/, "", v); t += v } }
		END { printf "%.2f", t }' "$1"; }
	gt_a=$(gt_sl "$gt_out.sl") gt_b=$(gt_sl "$gt_out.slp")
	if awk -v a="$gt_a" -v b="$gt_b" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(a >= 95 && d <= 1) }'; then
		pass "truth-$1: report --sort srcline: leaf_work's loop lines $gt_lo-$gt_hi have $gt_a% (perf $gt_b%)"
	else
		fail "truth-$1: report --sort srcline" "leaf_work's loop lines $gt_lo-$gt_hi: ours $gt_a%, perf $gt_b% (want >= 95, within 1 point): $(grep -v '^#' "$gt_out.sl" | grep % | head -n 3 | tr '\n' '|')"
	fi
	# --json: children/self per symbol, and leaf_work's callee-order chains (frames[1] = caller).
	if ! command -v jq >/dev/null 2>&1; then
		skip "truth-$1: report --json" "jq not installed"
		return
	fi
	if ! "$PMUSCOPE" report -i "$2" --json --children --sort sym >"$gt_out.json" 2>"$gt_out.err" ||
		! "$PMUSCOPE" report -i "$2" --json --no-children -g callee --sort sym >"$gt_out.cj" 2>>"$gt_out.err"; then
		fail "truth-$1: report --json" "exit status: $(head -c 200 "$gt_out.err")"
		return
	fi
	gt_m=$(jq -r '[.events[0].samples,
		(.events[0].entries | map({(.sym // ""): .}) | add) as $e
		| ($e.leaf_work.self // -100), ($e.alpha.children // -100), ($e.bravo.children // -100),
		  ($e.charlie.children // -100), ($e.delta.children // -100)] | @tsv' "$gt_out.json" 2>&1)
	gt_c=$(jq -r '[.events[0].entries[] | select(.sym == "leaf_work") | .callchains[]
		| select((.frames | length) > 1) | {c: .frames[1].sym, p: .percent}]
		| (map(.p) | add) as $t | if ($t // 0) == 0 then "0 0 0" else
		  [(map(select(.c == "alpha") | .p) | add // 0), (map(select(.c == "bravo") | .p) | add // 0),
		   (map(select(.c == "delta") | .p) | add // 0)] | map(. * 100 / $t) | @tsv end' "$gt_out.cj" 2>&1)
	gt_judge "truth-$1: pmuscope report --json (children, self, leaf_work's callers)" \
		"$(echo "$gt_m $gt_c" | awk '{ printf "samples=%s self=%s alpha=%s bravo=%s charlie=%s delta=%s ca=%.2f cb=%.2f cd=%.2f\n", $1, $2, $3, $4, $5, $6, $7, $8, $9 }')"
}

gt_main() {
	if [ ! -x "$gt_demo" ]; then
		fail "truth" "$gt_demo not built"
		return
	fi
	if ! command -v perf >/dev/null 2>&1; then
		skip "truth" "perf (the oracle) not installed"
		return
	fi
	gt_tmp=$(mktemp -d)
	gt_one fp
	gt_one dwarf
	gt_one perf-dwarf
	rm -rf "$gt_tmp"
}
gt_main
