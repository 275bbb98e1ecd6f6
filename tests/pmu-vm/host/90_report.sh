# SPDX-License-Identifier: MIT
# Host side of checks/90_record.sh: the host's `pmuscope report` (x86_64 build) reads the arm64
# guest's perf.data files and symbolizes the static aarch64 workload from its ELF symtab:
# cycles.data has the guest's sample count, hot_a 75% and hot_b 25% (3N and N iterations of
# the same loop: exact under icount, +-1 sample), cycles-g.data the chains hot_X <- main,
# cycles-dwarf.data the same chains unwound from the arm64 stack copies (DWARF CFI of the
# static aarch64 binary, on an x86_64 host); instructions.data is read whole. perf report on the same files must agree (sanity).
# Sourced by run.sh with $GUEST_FILES, $HOST_PMUSCOPE, $work (results.txt); hr_-prefixed.
# shellcheck disable=SC2154 # work, GUEST_FILES, HOST_PMUSCOPE come from run.sh

# hr_guest_samples NAME: the sample count the guest's record printed for result NAME.
hr_guest_samples() {
	awk -v n="$1" '$3 == n { for (i = 4; i <= NF; i++) if ($(i + 1) ~ /^samples,?$/) { print $i; exit } }' \
		"$work/results.txt"
}

# hr_pct FILE SYM: the first percentage of SYM's row in a --stdio report (perf's layout).
hr_pct() {
	awk -v s="$2" '!/^#/ && $NF == s && $1 ~ /%$/ { sub(/%$/, "", $1); print $1; exit }' "$1"
}

# hr_near VALUE WANT TOL: |VALUE - WANT| <= TOL.
hr_near() { awk -v v="$1" -v w="$2" -v t="$3" 'BEGIN { d = v - w; if (d < 0) d = -d; exit !(v != "" && d <= t) }'; }

hr_check_perf() {
	f=$GUEST_FILES/cycles.data
	if ! command -v perf >/dev/null 2>&1; then
		skip "guest-data-perf" "perf not installed on the host"
		return
	fi
	perf report -i "$f" --stdio >"$work/perf-report.txt" 2>&1
	a=$(hr_pct "$work/perf-report.txt" hot_a) b=$(hr_pct "$work/perf-report.txt" hot_b)
	if hr_near "$a" 75 0.5 && hr_near "$b" 25 0.5; then
		pass "guest-data-perf: perf report on the guest's cycles.data: hot_a $a%, hot_b $b%"
	else
		fail "guest-data-perf" "perf report: hot_a '$a'%, hot_b '$b'% (want 75/25 +-0.5): $(grep -v '^#' "$work/perf-report.txt" | head -n 5 | tr '\n' '|')"
	fi
}

hr_check_report() {
	f=$GUEST_FILES/cycles.data
	if [ ! -x "$HOST_PMUSCOPE" ]; then
		skip "guest-data-report" "no host build $HOST_PMUSCOPE (make, or PMU_VM_HOST_BUILD=dir)"
		return
	fi
	if "$HOST_PMUSCOPE" report -h 2>&1 | grep -q 'not a pmuscope command'; then
		skip "guest-data-report" "pmuscope report does not exist yet"
		return
	fi
	want=$(hr_guest_samples record-cycles)
	out=$work/report.txt
	if ! "$HOST_PMUSCOPE" report -i "$f" --stdio >"$out" 2>"$out.err"; then
		fail "guest-data-report" "report -i cycles.data failed: $(head -c 300 "$out.err")"
		return
	fi
	a=$(hr_pct "$out" hot_a) b=$(hr_pct "$out" hot_b)
	top=$(awk '!/^#/ && $1 ~ /%$/ { print $NF; exit }' "$out")
	n=$(sed -n 's/^# Samples: \([0-9]*\) .*/\1/p' "$out" | head -n 1)
	if [ "$top" = hot_a ] && hr_near "$a" 75 0.5 && hr_near "$b" 25 0.5; then
		pass "guest-data-report: top symbol hot_a $a%, hot_b $b% (aarch64 ELF symtab read on the host)"
	else
		fail "guest-data-report" "top '$top', hot_a '$a'%, hot_b '$b'% (want hot_a 75, hot_b 25 +-0.5): $(grep -v '^#' "$out" | head -n 5 | tr '\n' '|')"
	fi
	if [ -n "$want" ] && [ "$n" = "$want" ]; then
		pass "guest-data-report-samples: $n samples, as the guest's record said"
	else
		fail "guest-data-report-samples" "report header says '$n' samples, the guest's record '$want'"
	fi
	out=$work/report-g.txt
	if "$HOST_PMUSCOPE" report -i "$GUEST_FILES/cycles-g.data" --stdio --no-children >"$out" 2>"$out.err"; then
		# The callee-first chain under hot_a's row: main must come right after hot_a.
		if awk '/\[\.\] hot_a$/ { s = 1; next } s && /[a-z_]/ { gsub(/[-|]/, " "); n = split($0, w, " ");
			for (i = 1; i <= n; i++) if (w[i] !~ /%$/ && w[i] != "") { seen[++k] = w[i] } if (k >= 2) exit }
			END { exit !(seen[1] == "hot_a" && seen[2] == "main") }' "$out"; then
			pass "guest-data-report-callchain: hot_a <- main from the arm64 frame-pointer chain"
		else
			fail "guest-data-report-callchain" "no hot_a <- main chain: $(grep -v '^#' "$out" | head -n 12 | tr '\n' '|')"
		fi
	else
		fail "guest-data-report-callchain" "report -i cycles-g.data failed: $(head -c 300 "$out.err")"
	fi
	want=$(hr_guest_samples record-instructions)
	if "$HOST_PMUSCOPE" report -i "$GUEST_FILES/instructions.data" --stdio >"$work/report-i.txt" 2>&1; then
		n=$(sed -n 's/^# Samples: \([0-9]*\) .*/\1/p' "$work/report-i.txt" | head -n 1)
		if [ -n "$want" ] && [ "$n" = "$want" ]; then
			pass "guest-data-report-instructions: $n samples, as the guest's record said"
		else
			fail "guest-data-report-instructions" "report says '$n' samples, the guest's record '$want'"
		fi
	else
		fail "guest-data-report-instructions" "$(head -c 300 "$work/report-i.txt")"
	fi
	if ! command -v jq >/dev/null 2>&1; then
		skip "guest-data-report-dwarf" "jq not installed"
	elif [ ! -s "$GUEST_FILES/cycles-dwarf.data" ]; then
		fail "guest-data-report-dwarf" "cycles-dwarf.data did not arrive from the guest"
	else
		# Every sample unwound from its copied arm64 stack (none stopped at the IP), and the
		# chains of both functions reach main.
		j=$("$HOST_PMUSCOPE" report -i "$GUEST_FILES/cycles-dwarf.data" --json --no-children -g callee 2>&1 |
			jq -r '[.summary.dwarf.samples, .summary.dwarf.failed,
				([.events[0].entries[] | select(.sym == "hot_a" or .sym == "hot_b")
				  | .callchains[0].frames[1].sym] | join(","))] | @tsv' 2>&1)
		# shellcheck disable=SC2086 # split the TSV fields
		set -- $j
		dw=$(hr_guest_samples record-cycles-dwarf)
		if [ "${1:-}" = "$dw" ] && [ "${2:-}" = 0 ] && [ "${3:-}" = "main,main" ]; then
			pass "guest-data-report-dwarf: $1 arm64 user stacks unwound on the host, none failed; hot_a and hot_b <- main"
		else
			fail "guest-data-report-dwarf" "got '$j' (dwarf samples, failed, callers of hot_a,hot_b); want '$dw 0 main,main'"
		fi
	fi
	if command -v jq >/dev/null 2>&1; then
		j=$("$HOST_PMUSCOPE" report -i "$f" --json 2>&1 | jq -r '.events[0] | [.samples, (.entries[0].sym // "none"), .entries[0].self] | @tsv' 2>&1)
		# shellcheck disable=SC2086 # split the TSV fields
		set -- $j
		if [ "${1:-}" = "$(hr_guest_samples record-cycles)" ] && [ "${2:-}" = hot_a ] && hr_near "${3:-}" 75 0.5; then
			pass "guest-data-report-json: $1 samples, first entry hot_a $3%"
		else
			fail "guest-data-report-json" "got '$j', want $(hr_guest_samples record-cycles) samples, hot_a 75%"
		fi
	else
		skip "guest-data-report-json" "jq not installed"
	fi
}

# Issue 16 on the real PMU: `annotate --group` of the guest's {cycles:u,instructions:u} file on
# the host. The static aarch64 workload is disassembled here (capstone's AArch64 mode on an
# x86_64 host; perf annotate would need an aarch64 objdump), its loop found (the b.ne back to
# the add), and under icount the two events count the same instructions, so instructions per
# cycle over the loop's lines must be 1 (each event's samples are exact to +-1).
hr_check_annotate() {
	f=$GUEST_FILES/group.data
	if ! command -v jq >/dev/null 2>&1; then
		skip "guest-data-annotate" "jq not installed"
		return
	fi
	if [ ! -s "$f" ]; then
		fail "guest-data-annotate" "group.data did not arrive from the guest (see record-group)"
		return
	fi
	out=$work/annotate-group.json
	if ! "$HOST_PMUSCOPE" annotate -i "$f" --group --json hot_a >"$out" 2>"$out.err"; then
		fail "guest-data-annotate" "annotate --group hot_a failed: $(head -c 300 "$out.err")"
		return
	fi
	# group names; the loop's share; the back edge's mnemonic; leader and member samples over
	# the loop; the hottest line's file
	j=$(jq -r '[.annotations[] | select(.group)][0] as $a | ($a.loops | max_by(.samples)) as $l
		| [($a.group | join(",")), ($l.percent | floor),
		   ([$a.insns[] | select(.back_edge) | .asm | split(" ")[0]] | join(",")),
		   ([$a.insns[] | select(.addr >= $l.start and .addr <= $l.end) | .period] | add),
		   ([$a.insns[] | select(.addr >= $l.start and .addr <= $l.end) | .members[0].period] | add),
		   ($a.lines | max_by(.samples) | .file | split("/") | last)] | @tsv' "$out" 2>&1)
	# shellcheck disable=SC2086 # split the TSV fields
	set -- $j
	ipc=$(awk -v c="${4:-0}" -v i="${5:-0}" 'BEGIN { if (c > 0) printf "%.3f", i / c; else print "none" }')
	if [ "${1:-}" = "cycles:u,instructions:u" ] && [ "${2:-0}" -ge 95 ] && [ "${3:-}" = "b.ne" ] &&
		hr_near "$ipc" 1 0.03 && [ "${6:-}" = loop.h ]; then
		pass "guest-data-annotate: hot_a's loop (b.ne back edge) has $2% of its cycles:u samples, instructions per cycle over it $ipc (icount: 1), hottest line in loop.h"
	else
		fail "guest-data-annotate" "got '$j' (group, loop %, back edges, cycles and instructions period in the loop, hottest file), IPC $ipc; want cycles:u,instructions:u, >= 95, b.ne, IPC 1 +-0.03, loop.h"
	fi
	if "$HOST_PMUSCOPE" annotate -i "$f" --group --stdio hot_a >"$work/annotate-group.txt" 2>&1 &&
		grep -q 'Disassembly of shares for cycles:u, instructions:u' "$work/annotate-group.txt" &&
		grep -Eq '^ +[0-9.]+ +[0-9.]+ : +[0-9a-f]+: +b\.ne +[0-9a-f]+ <hot_a\+0x[0-9a-f]+> +# loop back to' "$work/annotate-group.txt"; then
		pass "guest-data-annotate-text: two percent columns, the AArch64 loop's b.ne marked as its back edge"
	else
		fail "guest-data-annotate-text" "$(head -n 30 "$work/annotate-group.txt" | tr '\n' '|')"
	fi
}

for hr_f in cycles.data cycles-g.data instructions.data; do
	[ -s "$GUEST_FILES/$hr_f" ] || fail "guest-data" "$hr_f did not arrive from the guest (see 90_record's results)"
done
if [ -s "$GUEST_FILES/cycles.data" ]; then
	hr_check_perf
	hr_check_report
	hr_check_annotate
fi
