# SPDX-License-Identifier: MIT
# Kernel tests of `pmuscope report` against `perf report` (the oracle) on the same files:
# files perf records (fp -g, --call-graph dwarf, -z, -a, two events, a tracepoint, period
# mode) and files pmuscope records; the top entries' percentages must agree within 0.5
# points, children and self. Also: --json is valid and says the same, filters and sort keys
# agree with perf's, a truncated or corrupted file gives an error naming the offset plus a
# partial report (exit 1), and a rebuilt binary is reported, never symbolized.
# Sourced by tests/kernel/run.sh; every function and variable is rp_-prefixed.

rp_demo=$BUILD_DIR/demo/pms-demo
rp_tol=0.5

# rp_rows FILE: "event|comm|dso|sym children self" per row of a perf-layout --stdio report
# (self is "-" without children). Rows whose comm has spaces are skipped (ambiguous).
rp_rows() {
	awk '
	/^# Samples: / { ev++ }
	/^#/ || !/%/ { next }
	$1 ~ /%$/ && $2 ~ /%$/ && ($5 == "[.]" || $5 == "[k]" || $5 == "[g]") {
		s = $6; for (i = 7; i <= NF; i++) s = s "_" $i
		c = $1; f = $2; sub(/%/, "", c); sub(/%/, "", f)
		print ev "|" $3 "|" $4 "|" s, c, f; next }
	$1 ~ /%$/ && ($4 == "[.]" || $4 == "[k]" || $4 == "[g]") {
		s = $5; for (i = 6; i <= NF; i++) s = s "_" $i
		c = $1; sub(/%/, "", c)
		print ev "|" $2 "|" $3 "|" s, c, "-" }' "$1"
}

# rp_rows_keys FILE NKEYS: like rp_rows for --sort with NKEYS plain columns, no children.
rp_rows_keys() {
	awk -v nk="$2" '
	/^# Samples: / { ev++ }
	/^#/ || !/%/ { next }
	$1 ~ /%$/ && NF == nk + 1 { k = ev; for (i = 2; i <= NF; i++) k = k "|" $i
		c = $1; sub(/%/, "", c); print k, c, "-" }' "$1"
}

# rp_agree NAME A B [N]: the top N (default 5) rows of each side that are >= 1% exist on the
# other side with children and self within rp_tol points.
rp_agree() {
	rp_msg=$(awk -v tol="$rp_tol" -v n="${4:-5}" '
	function abs(x) { return x < 0 ? -x : x }
	# symbol aliases (perf names clone3 __GI___clone3) and C++ names with/without the parameter
	# list (lib/symbol demangles without it): same event|comm|dso, one name a suffix of the
	# other once "(...)" is cut, same percentages
	function alias(k, oc, os, c, s,    p, q, kk, n1, n2) {
		p = k; sub(/[^|]*$/, "", p); n1 = substr(k, length(p) + 1); sub(/\(.*$/, "", n1)
		for (kk in oc) { q = kk; sub(/[^|]*$/, "", q); n2 = substr(kk, length(q) + 1); sub(/\(.*$/, "", n2)
			if (q != p || kk == k) continue
			if ((substr(n1, length(n1) - length(n2) + 1) == n2 || substr(n2, length(n2) - length(n1) + 1) == n1) &&
			    abs(oc[kk] - c) <= tol && (s == "-" || abs(os[kk] - s) <= tol)) return kk }
		return "" }
	FNR == 1 { side++ }
	{ key = $1; c = $2; s = $3
	  if (side == 1) { if (!(key in ac)) { ac[key] = c; as[key] = s; if (na < n && c >= 1) top1[++na] = key } }
	  else { if (!(key in bc)) { bc[key] = c; bs[key] = s; if (nb < n && c >= 1) top2[++nb] = key } } }
	END {
		if (na == 0) { print "no rows >= 1% in the first report"; exit }
		if (nb == 0) { print "no rows >= 1% in the second report"; exit }
		for (i = 1; i <= na; i++) { k = top1[i]
			if (!(k in bc) && (k2 = alias(k, bc, bs, ac[k], as[k])) != "") { bc[k] = bc[k2]; bs[k] = bs[k2]; ak[k2] = 1 }
			if (!(k in bc)) { printf "%s (%s%%) missing in the second; ", k, ac[k]; continue }
			if (abs(ac[k] - bc[k]) > tol || (as[k] != "-" && abs(as[k] - bs[k]) > tol))
				printf "%s: %s/%s vs %s/%s; ", k, ac[k], as[k], bc[k], bs[k] }
		for (i = 1; i <= nb; i++) { k = top2[i]
			if (!(k in ac) && !(k in ak)) printf "%s (%s%%) missing in the first; ", k, bc[k] }
	}' "$2" "$3")
	if [ -z "$rp_msg" ]; then
		pass "$1"
	else
		fail "$1" "$rp_msg"
	fi
}

# rp_compare NAME FILE [report options...]: perf report and pmuscope report agree.
rp_compare() {
	rp_name=$1 rp_file=$2
	shift 2
	if ! perf report --stdio -i "$rp_file" "$@" >"$rp_tmp/perf.txt" 2>"$rp_tmp/perf.err"; then
		skip "$rp_name" "perf report failed: $(tail -n 1 "$rp_tmp/perf.err")"
		return
	fi
	if ! "$PMUSCOPE" report --stdio -i "$rp_file" "$@" >"$rp_tmp/pms.txt" 2>"$rp_tmp/pms.err"; then
		fail "$rp_name" "pmuscope report exit $?: $(head -c 300 "$rp_tmp/pms.err")"
		return
	fi
	rp_rows "$rp_tmp/perf.txt" >"$rp_tmp/perf.rows"
	rp_rows "$rp_tmp/pms.txt" >"$rp_tmp/pms.rows"
	rp_agree "$rp_name" "$rp_tmp/perf.rows" "$rp_tmp/pms.rows"
}

# rp_both NAME FILE: compare with children (+ graphs) and without.
rp_both() {
	rp_compare "$1: children/self vs perf report" "$2"
	rp_compare "$1: --no-children vs perf report" "$2" --no-children
}

# rp_rec NAME FILE ARGS...: perf record ARGS into FILE, or a skip for NAME.
rp_rec() {
	rp_n=$1 rp_o=$2
	shift 2
	if perf record -q -o "$rp_o" "$@" >/dev/null 2>&1 && [ -s "$rp_o" ]; then
		return 0
	fi
	skip "$rp_n" "perf record $* failed"
	return 1
}

rp_perf_files() {
	if rp_rec "report perf -g" "$rp_tmp/fp.data" -g -- "$rp_demo" 2; then
		rp_both "report perf -g" "$rp_tmp/fp.data"
		rp_compare "report perf -g: -g caller vs perf" "$rp_tmp/fp.data" --no-children -g caller
	fi
	if rp_rec "report perf dwarf" "$rp_tmp/dw.data" --call-graph dwarf -- "$rp_demo" 1; then
		rp_compare "report perf --call-graph dwarf: --no-children vs perf report" "$rp_tmp/dw.data" --no-children
		rp_compare "report perf --call-graph dwarf: children vs perf report" "$rp_tmp/dw.data"
	fi
	if rp_rec "report perf -z" "$rp_tmp/z.data" -z -g -- "$rp_demo" 2; then
		rp_both "report perf -z" "$rp_tmp/z.data"
	fi
	if rp_rec "report perf -a" "$rp_tmp/a.data" -a -g -- "$rp_demo" 2; then
		rp_both "report perf -a -g" "$rp_tmp/a.data"
	fi
	if rp_rec "report perf two events" "$rp_tmp/2ev.data" -e cpu-clock,task-clock -- "$rp_demo" 2; then
		rp_compare "report perf two events" "$rp_tmp/2ev.data"
		if [ "$(grep -c '^# Samples: .* of event' "$rp_tmp/pms.txt")" = 2 ]; then
			pass "report two events: one section per event"
		else
			fail "report two events: one section per event" "$(grep '^# Samples' "$rp_tmp/pms.txt")"
		fi
	fi
	if rp_rec "report perf -c" "$rp_tmp/c.data" -c 100000 -e task-clock -g -- "$rp_demo" 2; then
		rp_both "report perf -c (period mode)" "$rp_tmp/c.data"
	fi
	# tracepoints need tracefs
	[ -d /sys/kernel/tracing/events ] || mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null
	if [ -d /sys/kernel/tracing/events/sched ] &&
	   rp_rec "report tracepoint" "$rp_tmp/tp.data" -e sched:sched_switch -a -g -- "$rp_demo" 1; then
		rp_both "report perf sched:sched_switch -a" "$rp_tmp/tp.data"
		if grep -q "of event 'sched:sched_switch'" "$rp_tmp/pms.txt"; then
			pass "report tracepoint: event named"
		else
			fail "report tracepoint: event named" "$(grep '^# Samples' "$rp_tmp/pms.txt")"
		fi
	elif [ ! -d /sys/kernel/tracing/events/sched ]; then
		skip "report tracepoint" "no tracefs sched events"
	fi
}

rp_sort_and_filters() {
	rp_f=$rp_tmp/a.data
	[ -s "$rp_f" ] || { skip "report sort keys" "no -a recording"; return; }
	for rp_k in dso comm "comm,dso" cpu; do
		perf report --stdio -i "$rp_f" --no-children -g none --sort "$rp_k" >"$rp_tmp/perf.txt" 2>/dev/null
		"$PMUSCOPE" report --stdio -i "$rp_f" --no-children -g none --sort "$rp_k" >"$rp_tmp/pms.txt" 2>"$rp_tmp/pms.err"
		rp_nk=$(echo "$rp_k" | awk -F, '{print NF}')
		rp_rows_keys "$rp_tmp/perf.txt" "$rp_nk" >"$rp_tmp/perf.rows"
		rp_rows_keys "$rp_tmp/pms.txt" "$rp_nk" >"$rp_tmp/pms.rows"
		rp_agree "report --sort $rp_k vs perf report" "$rp_tmp/perf.rows" "$rp_tmp/pms.rows"
	done
	# perf drops the Command column under a one-name --comms (and filters whole entries: keep comm in its keys)
	perf report --stdio -i "$rp_f" --no-children -g none --sort comm,dso,sym --comms pms-demo >"$rp_tmp/perf.txt" 2>/dev/null
	"$PMUSCOPE" report --stdio -i "$rp_f" --no-children -g none --sort dso,sym --comm pms-demo >"$rp_tmp/pms.txt" 2>&1
	rp_rows_keys "$rp_tmp/perf.txt" 3 >"$rp_tmp/perf.rows"
	rp_rows_keys "$rp_tmp/pms.txt" 3 >"$rp_tmp/pms.rows"
	rp_agree "report --comm pms-demo vs perf --comms (absolute percentages)" "$rp_tmp/perf.rows" "$rp_tmp/pms.rows"
	# --dso/--sym keep only matching leaf samples; percentages are of the kept total
	# --dso: only rows of that object (--stdio drops the then constant column, as perf)
	"$PMUSCOPE" report --stdio -i "$rp_f" --no-children -g none --dso pms-demo >"$rp_tmp/pms.txt" 2>&1
	if grep -q '^# dso: pms-demo$' "$rp_tmp/pms.txt" && ! grep -q 'Shared Object' "$rp_tmp/pms.txt" &&
	   "$PMUSCOPE" report --json -i "$rp_f" --no-children -g none --dso pms-demo 2>/dev/null | python3 -c '
import json, sys
d = json.load(sys.stdin)
e = d["events"][0]["entries"]
assert e and all(x["dso_short"] == "pms-demo" for x in e) and d["summary"]["filtered"] > 0' 2>/dev/null; then
		pass "report --dso pms-demo: only pms-demo rows"
	else
		fail "report --dso pms-demo" "$(grep -E '^# dso|Shared' "$rp_tmp/pms.txt" | head -n 2)"
	fi
	# --sym: only that row, with the value it has without the filter
	"$PMUSCOPE" report --stdio -i "$rp_f" --no-children -g none --sym spin >"$rp_tmp/pms.txt" 2>&1
	"$PMUSCOPE" report --stdio -i "$rp_f" --no-children -g none >"$rp_tmp/all.txt" 2>&1
	rp_one=$(rp_rows "$rp_tmp/pms.txt")
	rp_all=$(rp_rows "$rp_tmp/all.txt" | grep '|spin ')
	if [ -n "$rp_one" ] && [ "$rp_one" = "$rp_all" ]; then
		pass "report --sym spin: only spin rows ($(echo "$rp_one" | wc -l)), same values as unfiltered"
	else
		fail "report --sym spin" "filtered '$rp_one', unfiltered '$rp_all'"
	fi
	"$PMUSCOPE" report --stdio -i "$rp_f" --no-children -g none --percent-limit 5 >"$rp_tmp/pms.txt" 2>&1
	if rp_rows "$rp_tmp/pms.txt" | awk '$2 < 5 { bad = 1 } END { exit bad }'; then
		pass "report --percent-limit 5: no row below 5%"
	else
		fail "report --percent-limit 5" "$(rp_rows "$rp_tmp/pms.txt" | awk '$2 < 5' | head -n 2)"
	fi
	# --time: the whole span keeps everything, an empty span keeps nothing
	rp_t0=$(perf script -i "$rp_f" -F time 2>/dev/null | head -n 1 | tr -d ' :')
	if [ -n "$rp_t0" ]; then
		rp_n1=$("$PMUSCOPE" report --json -i "$rp_f" --time "$rp_t0," 2>/dev/null | python3 -c 'import json,sys; print(json.load(sys.stdin)["events"][0]["samples"])' 2>/dev/null)
		rp_n0=$("$PMUSCOPE" report --json -i "$rp_f" 2>/dev/null | python3 -c 'import json,sys; print(json.load(sys.stdin)["events"][0]["samples"])' 2>/dev/null)
		rp_ne=$("$PMUSCOPE" report --json -i "$rp_f" --time ",1.0" 2>/dev/null | python3 -c 'import json,sys; d=json.load(sys.stdin); print(len(d["events"]), d["summary"]["filtered"])' 2>/dev/null)
		if [ -n "$rp_n0" ] && [ "$rp_n1" = "$rp_n0" ] && [ "${rp_ne%% *}" = 0 ] && [ "${rp_ne#* }" = "$rp_n0" ]; then
			pass "report --time: [first sample, end) keeps all $rp_n0, [0, 1s] none"
		else
			fail "report --time" "all=$rp_n0 from-first=$rp_n1 early='$rp_ne'"
		fi
	else
		skip "report --time" "perf script gave no time"
	fi
}

rp_json() {
	rp_f=$rp_tmp/fp.data
	[ -s "$rp_f" ] || { skip "report --json" "no recording"; return; }
	if ! "$PMUSCOPE" report --json -i "$rp_f" >"$rp_tmp/r.json" 2>"$rp_tmp/r.err"; then
		fail "report --json" "exit $?: $(head -c 200 "$rp_tmp/r.err")"
		return
	fi
	# the JSON entries are the --stdio rows
	if ! python3 - "$rp_tmp/r.json" >"$rp_tmp/json.rows" 2>"$rp_tmp/py.err" <<'EOF'
import json, os, sys
d = json.load(open(sys.argv[1]))
assert d["schema"] == "pmuscope-report/1" and d["partial"] is False and d["error"] is None
assert d["sort"] == ["comm", "dso", "sym"] and d["children"] is True and d["call_graph"] == "caller"
for i, ev in enumerate(d["events"], 1):
    assert ev["samples"] > 0 and ev["period"] > 0
    for e in ev["entries"]:
        assert e["children"] >= e["self"] and e["children_period"] >= e["self_period"]
        sym = e["sym"] if e["sym"] is not None else "%#018x" % int(e["addr"], 16)
        print("%d|%s|%s|%s %.2f %.2f" % (i, e["comm"], e["dso_short"], sym, e["children"], e["self"]))
s = d["summary"]
assert set(s["unresolved"]) == {"total", "no_map", "no_file", "no_sym", "stale", "restricted", "no_kernel", "stripped"}
assert s["kernel"] == {} or s["kernel"]["symbols"] in ("running", "build-id cache")
assert "user_chains" in s["call_chains"] and isinstance(s["unnamed_files"], list)
assert s["samples"] == sum(ev["samples"] for ev in d["events"]) + s["filtered"]
EOF
	then
		fail "report --json: schema" "$(tail -n 3 "$rp_tmp/py.err")"
		return
	fi
	pass "report --json: schema pmuscope-report/1 fields and sums"
	"$PMUSCOPE" report --stdio -i "$rp_f" >"$rp_tmp/pms.txt" 2>/dev/null
	rp_rows "$rp_tmp/pms.txt" >"$rp_tmp/pms.rows"
	rp_agree "report --json: entries = --stdio rows" "$rp_tmp/json.rows" "$rp_tmp/pms.rows" 20
	if python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
e = d["events"][0]["entries"][0]
cc = e.get("callchains")
assert cc and all(p["frames"] and p["percent"] <= e["children"] + 0.01 for p in cc)
' "$rp_tmp/r.json" 2>"$rp_tmp/py.err"; then
		pass "report --json: call chains under the top entry"
	else
		fail "report --json: call chains" "$(tail -n 2 "$rp_tmp/py.err")"
	fi
}

# --header-only (report) and --header (script): perf's text byte for byte; --stats' SAMPLE line.
rp_header() {
	rp_f=$rp_tmp/fp.data
	[ -s "$rp_f" ] || { skip "report --header-only" "no recording"; return; }
	perf report -i "$rp_f" --header-only >"$rp_tmp/h.perf" 2>/dev/null
	"$PMUSCOPE" report -i "$rp_f" --header-only >"$rp_tmp/h.pms" 2>&1
	"$PMUSCOPE" script -i "$rp_f" --header 2>&1 | sed -n '1,/^#$/p' >"$rp_tmp/hs.pms"
	if [ -s "$rp_tmp/h.perf" ] && cmp -s "$rp_tmp/h.perf" "$rp_tmp/h.pms" && cmp -s "$rp_tmp/h.perf" "$rp_tmp/hs.pms"; then
		pass "report --header-only, script --header: $(wc -l <"$rp_tmp/h.pms") lines, perf's byte for byte"
	else
		fail "report --header-only / script --header" "$(diff "$rp_tmp/h.perf" "$rp_tmp/h.pms" | head -n 4 | tr '\n' ' ') $(diff "$rp_tmp/h.perf" "$rp_tmp/hs.pms" | head -n 4 | tr '\n' ' ')"
	fi
	rp_a=$(perf report -i "$rp_f" --stats 2>/dev/null | grep -m 1 'SAMPLE events')
	rp_b=$("$PMUSCOPE" report -i "$rp_f" --stats 2>&1 | grep -m 1 'SAMPLE events')
	if [ -n "$rp_a" ] && [ "$rp_a" = "$rp_b" ]; then
		pass "report --stats: SAMPLE count line as perf's"
	else
		fail "report --stats" "perf '$rp_a', ours '$rp_b'"
	fi
}

rp_our_files() {
	if ! "$PMUSCOPE" record -g -o "$rp_tmp/ours.data" -- "$rp_demo" 2 >/dev/null 2>"$rp_tmp/rec.err"; then
		fail "report pmuscope-recorded file" "record failed: $(tail -n 2 "$rp_tmp/rec.err")"
		return
	fi
	rp_both "report pmuscope record -g" "$rp_tmp/ours.data"
	if "$PMUSCOPE" record --call-graph dwarf -o "$rp_tmp/ours-dw.data" -- "$rp_demo" 1 >/dev/null 2>&1; then
		rp_compare "report pmuscope record --call-graph dwarf: --no-children vs perf" "$rp_tmp/ours-dw.data" --no-children
	else
		skip "report pmuscope record dwarf" "record --call-graph dwarf failed"
	fi
	if "$PMUSCOPE" record -z -g -o "$rp_tmp/ours-z.data" -- "$rp_demo" 2 >/dev/null 2>&1; then
		rp_both "report pmuscope record -z" "$rp_tmp/ours-z.data"
	else
		skip "report pmuscope record -z" "record -z failed"
	fi
}

# rp_damaged NAME FILE: exit 1, an error naming an offset, and a partial report with rows.
rp_damaged() {
	"$PMUSCOPE" report --stdio -i "$2" >"$rp_tmp/d.out" 2>"$rp_tmp/d.err"
	rp_rc=$?
	if [ $rp_rc = 1 ] && grep -q 'error: .*offset 0x[0-9a-f]*' "$rp_tmp/d.err" &&
	   grep -q '^# partial report: .* offset 0x' "$rp_tmp/d.out" && [ -n "$(rp_rows "$rp_tmp/d.out")" ]; then
		pass "$1: exit 1, offset named, partial report ($(rp_rows "$rp_tmp/d.out" | wc -l) rows)"
	else
		fail "$1" "exit $rp_rc; stderr: $(head -c 200 "$rp_tmp/d.err"); rows: $(rp_rows "$rp_tmp/d.out" | wc -l); $(grep partial "$rp_tmp/d.out")"
	fi
	if "$PMUSCOPE" report --json -i "$2" 2>/dev/null | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d["partial"] is True and d["error"]["offset"] > 0 and d["events"]' 2>/dev/null; then
		pass "$1: --json partial with the error offset"
	else
		fail "$1: --json partial" "not partial or no offset"
	fi
}

rp_faults() {
	rp_f=$rp_tmp/ours.data
	[ -s "$rp_f" ] || { skip "report damaged files" "no pmuscope recording"; return; }
	rp_size=$(stat -c %s "$rp_f")
	cp "$rp_f" "$rp_tmp/half.data" && truncate -s $((rp_size / 2)) "$rp_tmp/half.data"
	rp_damaged "report truncated to half" "$rp_tmp/half.data"
	if [ -s "$rp_tmp/fp.data" ]; then
		rp_size=$(stat -c %s "$rp_tmp/fp.data")
		cp "$rp_tmp/fp.data" "$rp_tmp/phalf.data" && truncate -s $((rp_size / 2)) "$rp_tmp/phalf.data"
		rp_damaged "report perf's file truncated to half" "$rp_tmp/phalf.data"
	fi
	# a record header in the middle of the data section overwritten with garbage
	cp "$rp_f" "$rp_tmp/bad.data"
	rp_off=$(python3 - "$rp_tmp/bad.data" <<'EOF'
import struct, sys
b = open(sys.argv[1], "rb").read()
doff, dsize = struct.unpack_from("<QQ", b, 40)
off = doff
while off < doff + dsize // 2:
    t, misc, size = struct.unpack_from("<IHH", b, off)
    if size < 8: break
    off += size
print(off)
EOF
)
	printf '\377\377\377\377\377\377\000\000' | dd of="$rp_tmp/bad.data" bs=1 seek="$rp_off" conv=notrunc 2>/dev/null
	rp_damaged "report corrupted record" "$rp_tmp/bad.data"
	"$PMUSCOPE" report -i "$rp_tmp/nonexistent.data" >"$rp_tmp/m.out" 2>&1
	rp_rc=$?
	if [ $rp_rc = 1 ] && [ "$(wc -l <"$rp_tmp/m.out")" = 1 ] && grep -q "cannot open '.*nonexistent.data'" "$rp_tmp/m.out"; then
		pass "report missing file: one-line error, exit 1"
	else
		fail "report missing file" "exit $rp_rc: $(cat "$rp_tmp/m.out")"
	fi
	echo "not a perf file" >"$rp_tmp/text.data"
	"$PMUSCOPE" report -i "$rp_tmp/text.data" >"$rp_tmp/m.out" 2>&1
	rp_rc=$?
	if [ $rp_rc = 1 ] && [ "$(wc -l <"$rp_tmp/m.out")" = 1 ] && grep -q 'not a perf.data file' "$rp_tmp/m.out"; then
		pass "report not perf.data: one-line error, exit 1"
	else
		fail "report not perf.data" "exit $rp_rc: $(cat "$rp_tmp/m.out")"
	fi
}

# A binary rebuilt after recording: reported with both build-ids, its samples never named
# (recorded with -N: no copy in the build-id cache); recorded with the cache, the copy record
# saved names them again after the rebuild.
rp_stale() {
	if ! command -v gcc >/dev/null 2>&1; then
		skip "report rebuilt binary" "no gcc"
		return
	fi
	cat >"$rp_tmp/app.c" <<'EOF'
#include <stdint.h>
volatile uint64_t sink;
__attribute__((noinline)) void burn_cycles(uint64_t n) { for (uint64_t i = 0; i < n; i++) sink += i * K; }
int main(void) { burn_cycles(300000000ULL); return 0; }
EOF
	gcc -O1 -g -DK=3 -Wl,--build-id -o "$rp_tmp/app" "$rp_tmp/app.c" || { skip "report rebuilt binary" "gcc failed"; return; }
	# a cache of our own, filled only by the second recording; the first report looks in an empty one
	PMS_BUILDID_DIR="$rp_tmp/cache" "$PMUSCOPE" record -o "$rp_tmp/app-cached.data" -- "$rp_tmp/app" >/dev/null 2>&1
	export PMS_BUILDID_DIR="$rp_tmp/no-cache"
	"$PMUSCOPE" record -N -o "$rp_tmp/app.data" -- "$rp_tmp/app" >/dev/null 2>&1
	"$PMUSCOPE" report --stdio -i "$rp_tmp/app.data" --no-children >"$rp_tmp/s0.txt" 2>&1
	if ! rp_rows "$rp_tmp/s0.txt" | grep -q '|app|burn_cycles '; then
		fail "report rebuilt binary: before the rebuild" "burn_cycles not found: $(rp_rows "$rp_tmp/s0.txt" | head -n 2)"
		return
	fi
	gcc -O1 -g -DK=5 -Wl,--build-id -o "$rp_tmp/app" "$rp_tmp/app.c"
	"$PMUSCOPE" report --stdio -i "$rp_tmp/app.data" --no-children >"$rp_tmp/s1.txt" 2>"$rp_tmp/s1.err"
	if ! rp_rows "$rp_tmp/s1.txt" | grep -q '|app|burn_cycles ' && rp_rows "$rp_tmp/s1.txt" | grep -q '|app|0x' &&
	   grep -q "warning: .*app was rebuilt" "$rp_tmp/s1.err" &&
	   grep -q '^#   binary rebuilt: .*app — build-id recorded [0-9a-f]*, on disk [0-9a-f]*' "$rp_tmp/s1.txt" &&
	   grep -q '^#   unsymbolized: .*binary rebuilt: [1-9]' "$rp_tmp/s1.txt"; then
		pass "report rebuilt binary: warned, both build-ids, samples left as addresses"
	else
		fail "report rebuilt binary" "$(grep -E 'rebuilt|unsymbolized' "$rp_tmp/s1.txt" "$rp_tmp/s1.err" | head -n 3); $(rp_rows "$rp_tmp/s1.txt" | head -n 2)"
	fi
	if "$PMUSCOPE" report --json -i "$rp_tmp/app.data" 2>/dev/null | python3 -c '
import json, sys
d = json.load(sys.stdin)
st = d["summary"]["stale"]
assert st and st[0]["path"].endswith("/app") and st[0]["samples"] > 0 and st[0]["build_id_on_disk"]
assert d["summary"]["unresolved"]["stale"] > 0' 2>/dev/null; then
		pass "report rebuilt binary: --json summary.stale"
	else
		fail "report rebuilt binary: --json summary.stale" "missing"
	fi
	PMS_BUILDID_DIR="$rp_tmp/cache" "$PMUSCOPE" report --stdio -i "$rp_tmp/app-cached.data" --no-children >"$rp_tmp/s2.txt" 2>&1
	if rp_rows "$rp_tmp/s2.txt" | grep -q '|app|burn_cycles ' && ! grep -q 'binary rebuilt' "$rp_tmp/s2.txt"; then
		pass "report rebuilt binary: named from the build-id cache copy record saved"
	else
		fail "report rebuilt binary: from the build-id cache" "$(grep -E 'rebuilt|unsymbolized' "$rp_tmp/s2.txt" | head -n 2); $(rp_rows "$rp_tmp/s2.txt" | head -n 2)"
	fi
	unset PMS_BUILDID_DIR
}

# C++: names as perf prints them by default (no parameter list or return type). Built with
# clang as C++ but linked as C: nothing of libstdc++ is needed.
rp_cxx() {
	cat >"$rp_tmp/cx.cc" <<'EOF'
namespace ns {
template <class T> struct W {
	__attribute__((noinline)) static T spin(T n) { volatile T s = 0; for (T i = 0; i < n; i++) s += i; return s; }
};
}
int main() { long t = 0; for (int i = 0; i < 30; i++) t += ns::W<long>::spin(4000000); return t == 1; }
EOF
	if ! clang -x c++ -O1 -g -fno-exceptions -fno-rtti -o "$rp_tmp/cx" "$rp_tmp/cx.cc" 2>"$rp_tmp/cx.err"; then
		skip "report C++ names" "clang cannot build C++ here: $(head -n 1 "$rp_tmp/cx.err")"
		return
	fi
	perf record -q -o "$rp_tmp/cx.data" -- "$rp_tmp/cx" >/dev/null 2>&1
	rp_p=$(perf report -i "$rp_tmp/cx.data" --stdio --no-children --sort sym 2>/dev/null | grep -m 1 'spin')
	rp_o=$("$PMUSCOPE" report -i "$rp_tmp/cx.data" --stdio --no-children --sort sym 2>/dev/null | grep -m 1 'spin')
	case $rp_o in
	*'[.] ns::W<long>::spin') [ "$(echo "$rp_o" | sed 's/^ *[0-9.]*% *//')" = "$(echo "$rp_p" | sed 's/^ *[0-9.]*% *//')" ] &&
		pass "report C++ names: perf's form ($(echo "$rp_o" | sed 's/^ *//'))" ||
		fail "report C++ names" "ours '$rp_o', perf '$rp_p'" ;;
	*) fail "report C++ names" "ours '$rp_o', perf '$rp_p'" ;;
	esac
}

rp_main() {
	if ! command -v perf >/dev/null 2>&1; then
		skip "report" "perf (the oracle) not installed"
		return
	fi
	if ! command -v python3 >/dev/null 2>&1; then
		skip "report" "python3 (JSON checks) not installed"
		return
	fi
	rp_tmp=$(mktemp -d)
	rp_perf_files
	rp_sort_and_filters
	rp_json
	rp_header
	rp_our_files
	rp_faults
	rp_stale
	rp_cxx
	rm -rf "$rp_tmp"
}
rp_main
