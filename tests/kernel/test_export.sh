# SPDX-License-Identifier: MIT
# pmuscope export checked by independent readers (issue 5, acceptance 1, 2, 5): demo/pms-shares
# recorded with pmuscope record -g and with perf record -g; for both files:
#  - pprof: `go tool pprof -top -symbolize=none` reads it; its flat top functions equal
#    `pmuscope report --no-children --sort sym`'s (names, percentages within 0.5 points) and its
#    samples/count total equals perf script's sample count;
#  - speedscope JSON validates (ajv-cli) against the schema shipped in the speedscope package,
#    and a copy with a bad unit does not (the check can fail);
#  - folded: counts sum to the sample count; the heaviest stacks equal an awk stackcollapse
#    (comm root, sample counts: `perf script report stackcollapse`'s convention) of
#    `perf script` on the same file;
#  - Chrome trace: valid JSON (jq) with pid and tid on every event;
#  - --srcline frames carry the source file and lines of the workload;
#  - --inline turns a -O2 workload's inlined calls into frames, where perf script prints
#    "(inlined)" lines.
# Sourced by tests/kernel/run.sh; every function and variable is ex_-prefixed.

ex_demo=$BUILD_DIR/demo/pms-shares
ex_tmp=$(mktemp -d)
ex_nm=$TOP/tests/browser/node_modules
ex_tol=0.5

# ex_pprof_top FILE: "name flat%" lines of go tool pprof -top (every node, period weights).
ex_pprof_top() {
	go tool pprof -top -symbolize=none -nodecount=200 -nodefraction=0 -edgefraction=0 "$1" 2>/dev/null |
		awk 'f { p = $2; sub(/%$/, "", p); n = $0; sub(/^ *[^ ]+ +[^ ]+ +[^ ]+ +[^ ]+ +[^ ]+ +/, "", n); print n "\t" p }
		     / flat +flat% +sum% +cum +cum%/ { f = 1 }'
}

# ex_report_top FILE: "name pct" lines of pmuscope report --no-children --sort sym.
ex_report_top() {
	"$PMUSCOPE" report -i "$1" --no-children --sort sym -g none --stdio 2>/dev/null |
		awk '/^ +[0-9.]+% +\[.\] / { p = $1; sub(/%$/, "", p); n = $0; sub(/^ +[0-9.]+% +\[.\] /, "", n); print n "\t" p }'
}

# ex_compare A B: every entry >= 0.1% of either list is in the other within ex_tol points,
# and both lists start with the same function. Prints the mismatches (nothing when equal).
ex_compare() {
	awk -F '\t' -v tol="$ex_tol" '
	FNR == 1 { file++ }
	file == 1 { a[$1] = $2; if (!fa) fa = $1; next }
	{ b[$1] = $2; if (!fb) fb = $1 }
	END {
		if (fa != fb) printf "top differs: %s vs %s; ", fa, fb
		# membership first: reading b[k] would create it
		for (k in a) if (a[k] >= 0.1) {
			if (!(k in b)) { printf "%s %s%% vs none; ", k, a[k]; continue }
			d = a[k] - b[k]; if (d < 0) d = -d; if (d > tol) printf "%s %s%% vs %s%%; ", k, a[k], b[k]
		}
		for (k in b) if (b[k] >= 0.1) {
			if (!(k in a)) { printf "%s none vs %s%%; ", k, b[k]; continue }
			if (a[k] < 0.1) { d = a[k] - b[k]; if (d < 0) d = -d; if (d > tol) printf "%s %s%% vs %s%%; ", k, a[k], b[k] }
		}
	}' "$1" "$2"
}

# ex_stackcollapse: perf script -F comm,ip,sym text on stdin -> folded stacks (comm root, counts).
ex_stackcollapse() {
	awk '
	function flush() {
		if (comm == "") return
		s = comm
		for (i = nf; i >= 1; i--) s = s ";" fr[i]
		if (nf) c[s]++
		comm = ""; nf = 0
	}
	/^[^ \t]/ { flush(); comm = $0; sub(/ +$/, "", comm); next }
	/^[ \t]*$/ { flush(); next }
	{ f = $0; sub(/^[ \t]*[0-9a-f]+ /, "", f); gsub(/;/, ":", f); fr[++nf] = f }
	END { flush(); for (s in c) print s " " c[s] }'
}

ex_check_file() {
	ex_f=$1 ex_l=$2
	ex_samples=$(perf script -i "$ex_f" -G -F tid 2>/dev/null | wc -l)

	# pprof against report
	if command -v go >/dev/null 2>&1; then
		if "$PMUSCOPE" export -i "$ex_f" --format pprof -o "$ex_tmp/$ex_l.pb.gz" 2>"$ex_tmp/err"; then
			ex_pprof_top "$ex_tmp/$ex_l.pb.gz" >"$ex_tmp/$ex_l.pprof.top"
			ex_report_top "$ex_f" >"$ex_tmp/$ex_l.report.top"
			ex_bad=$(ex_compare "$ex_tmp/$ex_l.report.top" "$ex_tmp/$ex_l.pprof.top")
			if [ ! -s "$ex_tmp/$ex_l.pprof.top" ]; then
				fail "export-pprof-top-$ex_l" "go tool pprof printed no rows: $(go tool pprof -top -symbolize=none "$ex_tmp/$ex_l.pb.gz" 2>&1 | head -c 300)"
			elif [ -z "$ex_bad" ]; then
				pass "export-pprof-top-$ex_l: $(head -n 3 "$ex_tmp/$ex_l.pprof.top" | tr '\t\n' '= ')"
			else
				fail "export-pprof-top-$ex_l" "$ex_bad"
			fi
			ex_total=$(go tool pprof -top -symbolize=none -sample_index=samples "$ex_tmp/$ex_l.pb.gz" 2>/dev/null |
				sed -n 's/.*% of \([0-9]*\) total.*/\1/p')
			if [ "$ex_total" = "$ex_samples" ]; then
				pass "export-pprof-count-$ex_l: $ex_total samples"
			else
				fail "export-pprof-count-$ex_l" "pprof samples/count total '$ex_total', perf script counts $ex_samples"
			fi
		else
			fail "export-pprof-$ex_l" "$(head -c 300 "$ex_tmp/err")"
		fi
	else
		skip "export-pprof-$ex_l" "go is not installed (Debian package golang-go)"
	fi

	# speedscope JSON against the schema
	if [ -f "$ex_nm/ajv-cli/dist/index.js" ] && command -v node >/dev/null 2>&1; then
		"$PMUSCOPE" export -i "$ex_f" --format speedscope -o "$ex_tmp/$ex_l.speedscope.json"
		if ex_out=$(node "$ex_nm/ajv-cli/dist/index.js" validate -s "$ex_nm/speedscope/dist/release/file-format-schema.json" \
			-d "$ex_tmp/$ex_l.speedscope.json" 2>&1); then
			pass "export-speedscope-schema-$ex_l"
		else
			fail "export-speedscope-schema-$ex_l" "$(echo "$ex_out" | head -c 400)"
		fi
		sed 's/"unit":"none"/"unit":"furlongs"/' "$ex_tmp/$ex_l.speedscope.json" >"$ex_tmp/bad.json"
		if node "$ex_nm/ajv-cli/dist/index.js" validate -s "$ex_nm/speedscope/dist/release/file-format-schema.json" \
			-d "$ex_tmp/bad.json" >/dev/null 2>&1; then
			fail "export-speedscope-schema-rejects-$ex_l" "a bad unit validated: the schema check cannot fail"
		else
			pass "export-speedscope-schema-rejects-$ex_l"
		fi
	else
		skip "export-speedscope-schema-$ex_l" "ajv-cli is not installed (npm ci in tests/browser; make deps)"
	fi

	# folded: totals and the heaviest stacks against perf script folded by awk
	"$PMUSCOPE" export -i "$ex_f" --format folded -o "$ex_tmp/$ex_l.folded"
	ex_sum=$(awk '{ s += $NF } END { print s + 0 }' "$ex_tmp/$ex_l.folded")
	if [ "$ex_sum" = "$ex_samples" ]; then
		pass "export-folded-sum-$ex_l: $ex_sum samples"
	else
		fail "export-folded-sum-$ex_l" "folded counts sum to $ex_sum, perf script counts $ex_samples samples"
	fi
	perf script -i "$ex_f" -F comm,ip,sym 2>/dev/null | ex_stackcollapse >"$ex_tmp/$ex_l.ref.folded"
	ex_bad=$(sort -t ' ' -k2,2 -nr "$ex_tmp/$ex_l.ref.folded" | head -n 3 | awk -v total="$ex_samples" -v tol="$ex_tol" '
		FNR == NR { n = $NF; s = $0; sub(/ [0-9]+$/, "", s); ours[s] = n; next }
		{ n = $NF; s = $0; sub(/ [0-9]+$/, "", s)
		  if (!(s in ours)) { printf "%s: perf %d, ours none; ", s, n; next }
		  d = 100 * (n - ours[s]) / total; if (d < 0) d = -d
		  if (d > tol) printf "%s: perf %d, ours %d; ", s, n, ours[s] }' \
		"$ex_tmp/$ex_l.folded" -)
	if [ ! -s "$ex_tmp/$ex_l.ref.folded" ]; then
		fail "export-folded-stacks-$ex_l" "perf script printed no stacks"
	elif [ -z "$ex_bad" ]; then
		pass "export-folded-stacks-$ex_l: top 3 stacks as perf script's"
	else
		fail "export-folded-stacks-$ex_l" "$ex_bad"
	fi

	# --srcline: leaf_work's frames carry demo/pms-shares.c and its lines (DWARF)
	ex_lines=$("$PMUSCOPE" export -i "$ex_f" --format json --srcline 2>/dev/null |
		grep -o '{"name":"leaf_work","kind":"user","dso":"[^"]*","file":"[^"]*pms-shares.c","line":[1-9][0-9]*}' | wc -l)
	if [ "$ex_lines" -gt 0 ]; then
		pass "export-srcline-$ex_l: leaf_work on $ex_lines lines of pms-shares.c"
	else
		fail "export-srcline-$ex_l" "no leaf_work frame with a pms-shares.c line in --format json --srcline"
	fi

	# Chrome trace: pid and tid everywhere
	if command -v jq >/dev/null 2>&1; then
		"$PMUSCOPE" export -i "$ex_f" --format chrome -o "$ex_tmp/$ex_l.trace.json"
		if ex_out=$(jq -e '(.traceEvents | length > 0) and all(.traceEvents[]; has("pid") and has("tid"))' \
			"$ex_tmp/$ex_l.trace.json" 2>&1) && [ "$ex_out" = true ]; then
			pass "export-chrome-pid-tid-$ex_l: $(jq '.traceEvents | length' "$ex_tmp/$ex_l.trace.json") events"
		else
			fail "export-chrome-pid-tid-$ex_l" "$ex_out"
		fi
	else
		skip "export-chrome-$ex_l" "jq is not installed"
	fi
}

if [ ! -x "$ex_demo" ]; then
	skip "export" "$ex_demo is not built (make demo)"
elif ! command -v perf >/dev/null 2>&1; then
	skip "export" "perf is not installed (Debian package linux-perf): it counts the samples and folds the reference stacks"
else
	if "$PMUSCOPE" record -g -F 4000 -o "$ex_tmp/pms.data" -- "$ex_demo" --rounds 30000 >/dev/null 2>"$ex_tmp/rec.err"; then
		ex_check_file "$ex_tmp/pms.data" pms
	else
		fail "export-record-pms" "pmuscope record -g: $(head -c 300 "$ex_tmp/rec.err")"
	fi
	if perf record -q -g -F 4000 -o "$ex_tmp/perf.data" -- "$ex_demo" --rounds 30000 >/dev/null 2>"$ex_tmp/rec.err"; then
		ex_check_file "$ex_tmp/perf.data" perf
	else
		fail "export-record-perf" "perf record -g: $(head -c 300 "$ex_tmp/rec.err")"
	fi
fi
# --inline: a -O2 workload whose outer() has middle() and inner() inlined, recorded with
# --call-graph dwarf; perf script shows them as "(inlined)" lines, export as frames of their own
if ! command -v gcc >/dev/null 2>&1; then
	skip "export-inline" "gcc is not installed"
else
	cat >"$ex_tmp/inl.c" <<'CSRC'
static volatile unsigned long sink;
static inline __attribute__((always_inline)) unsigned long inner(unsigned long x)
{ for (int i = 0; i < 1000; i++) x = x * 31 + i; return x; }
static inline __attribute__((always_inline)) unsigned long middle(unsigned long x)
{ return inner(x) ^ inner(x + 1); }
__attribute__((noinline)) unsigned long outer(unsigned long x) { return middle(x) + 1; }
int main(void) { for (unsigned long i = 0; i < 1500000; i++) sink += outer(i); return 0; }
CSRC
	if gcc -O2 -g -o "$ex_tmp/inl" "$ex_tmp/inl.c" &&
		"$PMUSCOPE" record --call-graph dwarf -F 1000 -o "$ex_tmp/inl.data" -- "$ex_tmp/inl" >/dev/null 2>&1; then
		ex_ours=$("$PMUSCOPE" export -i "$ex_tmp/inl.data" --inline | awk '/;outer;middle;inner( |;)/ { s += $NF } END { print s + 0 }')
		ex_plain=$("$PMUSCOPE" export -i "$ex_tmp/inl.data" | awk '/;outer;(middle|inner)/ { s += $NF } END { print s + 0 }')
		ex_perf=$(perf script -i "$ex_tmp/inl.data" -F ip,sym 2>/dev/null | grep -c ' inner (inlined)$')
		# the same samples as perf's (within 1%: both unwind the same copies of the stack)
		if [ "$ex_ours" -gt 0 ] && [ "$ex_plain" = 0 ] && [ "$ex_perf" -gt 0 ] &&
			awk -v a="$ex_ours" -v b="$ex_perf" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d * 100 <= b) }'; then
			pass "export-inline: $ex_ours samples in outer;middle;inner (perf script: $ex_perf inlined inner lines; none without --inline)"
		else
			fail "export-inline" "outer;middle;inner: $ex_ours samples with --inline, $ex_plain without; perf script inlined inner lines: $ex_perf"
		fi
	else
		fail "export-inline" "could not build or record the inline workload"
	fi
fi
rm -rf "$ex_tmp"
