# SPDX-License-Identifier: MIT
# pmuscope top in batch mode, against workloads with known answers:
#  1. pms-shares --leaves (leaf_alpha, leaf_bravo, leaf_delta do 50/30/20 of its work): after 3
#     refreshes the three rows' shares among them are within 3 points of 50/30/20, with BPF and
#     with the ring-buffer fallback (PMS_TOP_NO_BPF=1), which the output says it uses. Refreshes
#     of 2 s at 4999 Hz give thousands of samples even when the workload gets a fraction of a
#     CPU, so 3 points are several standard deviations;
#  2. -p shows only that process while another busy process runs; -K shows no kernel row;
#  3. every --json line is one valid JSON object with the documented fields;
#  4. -g puts the callers under each row; -o writes the view at the end (folded);
#  5. --off-cpu on pms-sleep: rows are where it waits (do_nanosleep, pipe_read), never the
#     scheduler's own frames;
#  6. an unprivileged user: system-wide is refused with what to do; its own process is sampled
#     through the ring buffers (BPF needs privileges), user space only.
# Shares depend on what the workload does, not on how much CPU it gets: the checks hold on a
# loaded machine (fewer samples, same shares).

tp_demo=$BUILD_DIR/demo/pms-shares
tp_tmp=$(mktemp -d)

tp_available() {
	"$PMUSCOPE" top -h >/dev/null 2>&1 && [ -r /sys/kernel/btf/vmlinux ]
}

# tp_shares JSONLINE: "a b d" = leaf_alpha, leaf_bravo, leaf_delta shares (%) among the three.
tp_shares() {
	echo "$1" | jq -r '[.rows[] | select(.sym == "leaf_alpha" or .sym == "leaf_bravo" or .sym == "leaf_delta")]
		| (map(.samples) | add) as $t
		| if $t == null or $t == 0 then "0 0 0" else
		  ([("leaf_alpha", "leaf_bravo", "leaf_delta") as $s | (map(select(.sym == $s) | .samples) | add // 0) * 100 / $t]
		  | map(. * 100 | round / 100) | map(tostring) | join(" ")) end'
}

# tp_judge NAME "a b d" SAMPLES: within 3 points of 50/30/20 and enough samples to say.
tp_judge() {
	if [ "${3:-0}" -lt 200 ]; then
		fail "$1" "only ${3:-0} samples of the three leaves in the view: shares '$2'"
		return
	fi
	if echo "$2" | awk '{ exit !(($1 - 50)^2 <= 9 && ($2 - 30)^2 <= 9 && ($3 - 20)^2 <= 9) }'; then
		pass "$1: leaf_alpha/bravo/delta $2 (want 50/30/20 +-3) from $3 samples"
	else
		fail "$1" "leaf_alpha/bravo/delta $2, want 50/30/20 +-3 ($3 samples)"
	fi
}

tp_truth() {
	"$tp_demo" --leaves --seconds 20 >/dev/null &
	tp_w=$!
	yes >/dev/null &
	tp_yes=$!
	sleep 0.2
	"$PMUSCOPE" top --json -n 3 -d 2 -F 4999 -p $tp_w -s pid,comm,sym -E 50 >"$tp_tmp/bpf.jsonl" 2>"$tp_tmp/bpf.err"
	tp_rc=$?
	PMS_TOP_NO_BPF=1 "$PMUSCOPE" top --json -n 3 -d 2 -F 4999 -p $tp_w -s pid,sym -E 50 >"$tp_tmp/ring.jsonl" 2>"$tp_tmp/ring.err"
	tp_rrc=$?
	"$PMUSCOPE" top -b -n 2 -d 1 -K -E 40 >"$tp_tmp/noK.txt" 2>"$tp_tmp/noK.err"
	tp_krc=$?
	"$PMUSCOPE" top -b -n 2 -d 1 -g -p $tp_w -o "$tp_tmp/view.folded" >"$tp_tmp/g.txt" 2>"$tp_tmp/g.err"
	tp_grc=$?
	kill $tp_yes $tp_w 2>/dev/null
	wait $tp_yes $tp_w 2>/dev/null

	if [ $tp_rc != 0 ] || [ "$(wc -l <"$tp_tmp/bpf.jsonl")" != 3 ]; then
		fail "top_truth" "exit $tp_rc, $(wc -l <"$tp_tmp/bpf.jsonl") lines: $(head -c 400 "$tp_tmp/bpf.err")"
	else
		tp_last=$(tail -n 1 "$tp_tmp/bpf.jsonl")
		tp_n=$(echo "$tp_last" | jq '[.rows[] | select(.sym | test("^leaf_(alpha|bravo|delta)$")) | .samples] | add // 0')
		tp_judge "top_truth (BPF, 3 refreshes)" "$(tp_shares "$tp_last")" "$tp_n"
		if [ "$(echo "$tp_last" | jq -r .sampler)" = bpf ]; then
			pass "top_sampler_bpf: the view says the kernel counts the samples"
		else
			fail "top_sampler_bpf" "sampler $(echo "$tp_last" | jq -r .sampler)"
		fi
		# -p: every row is the process's, although yes(1) spins beside it
		tp_other=$(jq -s --argjson p $tp_w '[.[].rows[] | select(.pid != $p)] | length' "$tp_tmp/bpf.jsonl")
		tp_yes_rows=$(jq -s '[.[].rows[] | select(.comm == "yes")] | length' "$tp_tmp/bpf.jsonl")
		if [ "$tp_other" = 0 ] && [ "$tp_yes_rows" = 0 ]; then
			pass "top_pid_only: -p $tp_w shows only its rows"
		else
			fail "top_pid_only" "$tp_other rows of other processes ($tp_yes_rows of yes)"
		fi
	fi
	if [ $tp_rrc != 0 ]; then
		fail "top_ring_fallback" "exit $tp_rrc: $(head -c 400 "$tp_tmp/ring.err")"
	else
		tp_last=$(tail -n 1 "$tp_tmp/ring.jsonl")
		tp_n=$(echo "$tp_last" | jq '[.rows[] | select(.sym | test("^leaf_(alpha|bravo|delta)$")) | .samples] | add // 0')
		tp_judge "top_ring_fallback (PMS_TOP_NO_BPF=1)" "$(tp_shares "$tp_last")" "$tp_n"
		if [ "$(echo "$tp_last" | jq -r .sampler)" = ring ] && grep -q "sampling through perf's ring buffers" "$tp_tmp/ring.err" &&
			echo "$tp_last" | jq -e '.bpf_not_loaded | test("not tried")' >/dev/null; then
			pass "top_ring_says_so: stderr and the JSON say the ring buffers are used, and why"
		else
			fail "top_ring_says_so" "sampler $(echo "$tp_last" | jq -r .sampler), stderr: $(head -c 300 "$tp_tmp/ring.err")"
		fi
	fi
	# JSON lines: one object per line, the documented fields with their types
	if jq -e -s 'length == 3 and all(.[]; (.refresh | type == "number") and (.interval_s > 0) and (.event | type == "string")
			and (.samples | type == "number") and (.lost.dropped_ring_full | type == "number")
			and (.cpu_pct.pmuscope | type == "number") and (.rows | type == "array")
			and all(.rows[]; (.overhead_pct >= 0) and (.overhead_pct <= 100) and (.sym | type == "string")
				and (.kernel | type == "boolean") and (.pid | type == "number")))' "$tp_tmp/bpf.jsonl" >/dev/null; then
		pass "top_json_lines: 3 valid objects with the documented fields"
	else
		fail "top_json_lines" "$(head -c 600 "$tp_tmp/bpf.jsonl")"
	fi
	if [ $tp_krc = 0 ] && grep -q "Overhead" "$tp_tmp/noK.txt" && ! grep -q '\[k\]' "$tp_tmp/noK.txt" &&
		grep -q '\[\.\]' "$tp_tmp/noK.txt"; then
		pass "top_hide_kernel: -K system-wide, no [k] row in $(grep -c '\[\.\]' "$tp_tmp/noK.txt") rows"
	else
		fail "top_hide_kernel" "exit $tp_krc: $(grep -m3 '\[k\]' "$tp_tmp/noK.txt") $(head -c 300 "$tp_tmp/noK.err")"
	fi
	if [ $tp_grc = 0 ] && grep -q "leaf_alpha <- alpha <- run <- main" "$tp_tmp/g.txt" &&
		grep -q "leaf_delta <- delta <- charlie <- run <- main" "$tp_tmp/g.txt"; then
		pass "top_call_chains: -g shows each leaf's callers"
	else
		fail "top_call_chains" "exit $tp_grc: $(grep -m4 '<-' "$tp_tmp/g.txt") $(head -c 300 "$tp_tmp/g.err")"
	fi
	if [ -s "$tp_tmp/view.folded" ] && grep -q ";leaf_alpha [0-9]*$" "$tp_tmp/view.folded" &&
		grep -q "wrote $tp_tmp/view.folded (folded" "$tp_tmp/g.err"; then
		pass "top_write: -o wrote the view as folded stacks"
	else
		fail "top_write" "$(head -c 300 "$tp_tmp/view.folded") / $(head -c 300 "$tp_tmp/g.err")"
	fi
}

tp_offcpu() {
	"$BUILD_DIR/demo/pms-sleep" --rounds 200 >/dev/null 2>&1 &
	tp_s=$!
	sleep 0.2
	"$PMUSCOPE" top --off-cpu --json -n 2 -d 1 -p $tp_s -E 20 >"$tp_tmp/off.jsonl" 2>"$tp_tmp/off.err"
	tp_rc=$?
	kill $tp_s 2>/dev/null
	wait $tp_s 2>/dev/null
	tp_syms=$(jq -r '.rows[].sym' "$tp_tmp/off.jsonl" 2>/dev/null | sort -u | tr '\n' ' ')
	if [ $tp_rc = 0 ] && echo "$tp_syms" | grep -q "do_nanosleep" && echo "$tp_syms" | grep -q "pipe_read" &&
		! echo "$tp_syms" | grep -qE "(^| )(__schedule|schedule|schedule_hrtimeout_range_clock) " &&
		[ "$(jq -r .mode "$tp_tmp/off.jsonl" | sort -u)" = off-cpu ]; then
		pass "top_off_cpu: rows where pms-sleep waits ($tp_syms)"
	else
		fail "top_off_cpu" "exit $tp_rc, rows: $tp_syms $(head -c 300 "$tp_tmp/off.err")"
	fi
}

tp_unprivileged() {
	if ! command -v setpriv >/dev/null 2>&1; then
		skip "top_unprivileged" "no setpriv"
		return
	fi
	cp "$PMUSCOPE" "$tp_tmp/pmuscope-copy" && cp "$tp_demo" "$tp_tmp/pms-shares" &&
		chmod 755 "$tp_tmp" "$tp_tmp/pmuscope-copy" "$tp_tmp/pms-shares"
	tp_out=$(cd / && setpriv --reuid=nobody --regid=nogroup --clear-groups --inh-caps=-all \
		"$tp_tmp/pmuscope-copy" top -b -n 1 -d 0.5 2>&1)
	tp_rc=$?
	tp_par=$(cat /proc/sys/kernel/perf_event_paranoid)
	if [ $tp_rc = 1 ] && echo "$tp_out" | grep -q "cannot sample: permission denied" &&
		echo "$tp_out" | grep -q "Run as root" && echo "$tp_out" | grep -q "perf_event_paranoid"; then
		pass "top_unprivileged_refused: system-wide, paranoid $tp_par: says what to do"
	else
		fail "top_unprivileged_refused" "exit $tp_rc: $tp_out"
	fi
	if [ "$tp_par" -gt 2 ]; then
		skip "top_unprivileged_own" "kernel.perf_event_paranoid is $tp_par: no perf events for unprivileged users at all"
		return
	fi
	tp_out=$(cd / && setpriv --reuid=nobody --regid=nogroup --clear-groups --inh-caps=-all sh -c '
		"$1/pms-shares" --leaves --seconds 4 >/dev/null & w=$!
		sleep 0.2
		"$1/pmuscope-copy" top --json -n 2 -d 1 -p $w -E 20
		kill $w 2>/dev/null' sh "$tp_tmp" 2>"$tp_tmp/unpriv.err")
	tp_rc=$?
	if [ $tp_rc = 0 ] && [ "$(echo "$tp_out" | tail -n 1 | jq -r .sampler)" = ring ] &&
		echo "$tp_out" | tail -n 1 | jq -e '[.rows[] | select(.sym == "leaf_alpha")] | length == 1' >/dev/null &&
		echo "$tp_out" | tail -n 1 | jq -e '[.rows[] | select(.kernel)] | length == 0' >/dev/null; then
		pass "top_unprivileged_own: its own process through the ring buffers, user space only"
	else
		fail "top_unprivileged_own" "exit $tp_rc: $(echo "$tp_out" | tail -n 1 | head -c 400) $(head -c 300 "$tp_tmp/unpriv.err")"
	fi
}

if ! tp_available; then
	skip "top_all" "top not in this build or no /sys/kernel/btf/vmlinux"
else
	tp_truth
	tp_offcpu
	tp_unprivileged
fi
rm -rf "$tp_tmp"
