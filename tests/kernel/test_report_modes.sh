# SPDX-License-Identifier: MIT
# report's two other views against perf 6.1's (the oracle) on the same files:
#  - branch mode, perf's default for files recorded with -b (HEADER_BRANCH_STACK): one entry per
#    branch of each sample's branch stack, weight 1, keys comm,dso_from,symbol_from,symbol_to,cycles;
#  - the group view, perf's default for files with HEADER_GROUP_DESC (file or pipe mode): one
#    "anon group { a, b }" section with a percentage and a -n samples column per member.
# Checked on the real-world files of tests/fixtures/perfdata/quipper that have them (recorded
# elsewhere: perf runs with an empty HOME and an empty --kallsyms, as in test_corpus.sh), in the
# default mode and with --no-branch-stack / --no-group (the plain view); -b and --group forcing
# them; and on groups recorded here, by perf and by pmuscope record. Rows are compared with
# tests/kernel/corpus_compare.py: same sections, same sample counts per member, every
# percentage within 0.5 points. No hardware PMU here: no branch stacks can be recorded, so
# branch mode is checked on the recorded files only.
# Sourced by tests/kernel/run.sh; every function and variable is rm_-prefixed.

rm_q=$TOP/tests/fixtures/perfdata/quipper
rm_tmp=$(mktemp -d)
rm_home=$rm_tmp/home
mkdir -p "$rm_home"
: >"$rm_tmp/empty-kallsyms"

# rm_perf FILE OUT [ARGS...]: perf report --stdio -n of FILE (exit status kept); the kernel is
# named only for files recorded here (rm_here=1)
rm_here=0
rm_perf() {
	rm_pf=$1 rm_o=$2
	shift 2
	if [ "$rm_here" = 1 ]; then
		HOME=$rm_home timeout 120 perf report -f -i "$rm_pf" --stdio -n --no-itrace "$@" >"$rm_o" 2>"$rm_o.err"
	else
		HOME=$rm_home timeout 120 perf report -f -i "$rm_pf" --stdio -n --no-itrace \
			--kallsyms="$rm_tmp/empty-kallsyms" "$@" >"$rm_o" 2>"$rm_o.err"
	fi
}

# rm_pms FILE OUT [ARGS...]: pmuscope report --stdio -n of FILE (exit status kept)
rm_pms() {
	rm_mf=$1 rm_o=$2
	shift 2
	timeout 120 "$PMUSCOPE" report -i "$rm_mf" --stdio -n "$@" >"$rm_o" 2>"$rm_o.err"
}

# rm_cmp NAME PERF_TXT PMS_TXT [compare args]: pass or fail on corpus_compare's verdict
rm_cmp() {
	rm_name=$1 rm_ta=$2 rm_tb=$3
	shift 3
	if ! grep -q '^# Samples: ' "$rm_ta"; then
		fail "$rm_name" "perf printed no section: $(grep -v '^#' "$rm_ta.err" | head -n 1)"
		return 1
	fi
	rm_v=$(python3 "$TOP/tests/kernel/corpus_compare.py" "$rm_ta" "$rm_tb" "$@")
	case $rm_v in
	agree*) pass "$rm_name: $rm_v" ;;
	*) fail "$rm_name" "$rm_v"; return 1 ;;
	esac
}

# rm_vdso FILE: "--dso-level [vdso]" when FILE records no build-id for [vdso] (perf then names
# its addresses with this machine's vDSO, see test_corpus.sh)
rm_vdso() {
	if ! HOME=$rm_home perf buildid-list -f -i "$1" 2>/dev/null | grep -q ' \[vdso\]$'; then
		echo "--dso-level [vdso]"
	fi
}

# rm_header FILE: the first section's column titles
rm_header() {
	grep -m 1 '^# Overhead\|^#  *Overhead\|^# Children' "$1"
}

if ! command -v perf >/dev/null 2>&1; then
	skip "report modes" "Linux perf is not installed (scripts/install-deps.sh installs linux-perf)"
else
	# --- branch mode: the default for files recorded with -b ---
	for rm_b in perf.data.branch-4.14 perf.data.branch_stack_hw_index perf.data.branch_stack_spec \
		perf.data.callgraph_and_branch-3.4 perf.data.callgraph_and_branch-3.8 \
		perf.data.raw_callgraph_branch-3.4; do
		rm_f=$rm_q/$rm_b
		# a [vdso] without a recorded build-id: perf names it with this machine's vDSO, where it
		# is a branch target too; the target's object must then show to compare it per object
		rm_keys=
		[ -n "$(rm_vdso "$rm_f")" ] && rm_keys="--sort comm,dso_from,symbol_from,dso_to,symbol_to,cycles"
		# shellcheck disable=SC2086
		rm_perf "$rm_f" "$rm_tmp/perf.txt" $rm_keys
		# shellcheck disable=SC2086
		rm_pms "$rm_f" "$rm_tmp/pms.txt" $rm_keys
		rm_rc=$?
		if [ "$rm_rc" -ne 0 ]; then
			fail "branch mode $rm_b" "exit $rm_rc: $(head -c 300 "$rm_tmp/pms.txt.err")"
			continue
		fi
		case $(rm_header "$rm_tmp/pms.txt") in
		*"Source Shared Object  Source Symbol"*"Target Symbol"*"Basic Block Cycles"*) ;;
		*) fail "branch mode $rm_b: columns" "$(rm_header "$rm_tmp/pms.txt")"; continue ;;
		esac
		# shellcheck disable=SC2046
		rm_cmp "branch mode $rm_b (default${rm_keys:+ keys and dso_to})" "$rm_tmp/perf.txt" "$rm_tmp/pms.txt" $(rm_vdso "$rm_f")
	done

	# -b is the same view; --no-branch-stack is the per-sample one, as perf's
	rm_f=$rm_q/perf.data.branch-4.14
	rm_pms "$rm_f" "$rm_tmp/def.txt"
	rm_pms "$rm_f" "$rm_tmp/b.txt" -b
	if cmp -s "$rm_tmp/def.txt" "$rm_tmp/b.txt"; then
		pass "branch mode: -b on a file recorded with -b is the default view"
	else
		fail "branch mode: -b" "differs from the default: $(diff "$rm_tmp/def.txt" "$rm_tmp/b.txt" | head -n 3 | tr '\n' '|')"
	fi
	rm_perf "$rm_f" "$rm_tmp/perf.txt" --no-branch-stack
	rm_pms "$rm_f" "$rm_tmp/pms.txt" --no-branch-stack
	case $(rm_header "$rm_tmp/pms.txt") in
	*"Shared Object"*"Symbol"*) case $(rm_header "$rm_tmp/pms.txt") in
		*Source*) fail "--no-branch-stack: columns" "$(rm_header "$rm_tmp/pms.txt")" ;;
		*) rm_cmp "branch file --no-branch-stack: per-sample view" "$rm_tmp/perf.txt" "$rm_tmp/pms.txt" ;;
		esac ;;
	*) fail "--no-branch-stack: columns" "$(rm_header "$rm_tmp/pms.txt")" ;;
	esac
	rm_perf "$rm_f" "$rm_tmp/perf.txt" --sort dso_from,dso_to,mispredict
	rm_pms "$rm_f" "$rm_tmp/pms.txt" --sort dso_from,dso_to,mispredict
	rm_cmp "branch mode --sort dso_from,dso_to,mispredict" "$rm_tmp/perf.txt" "$rm_tmp/pms.txt"
	# -b on a file without branch stacks: an error that says why, as perf's
	rm_pms "$rm_q/perf.data.group_desc-4.14" "$rm_tmp/pms.txt" -b
	rm_rc=$?
	if [ "$rm_rc" -eq 1 ] && grep -q 'no branch stacks' "$rm_tmp/pms.txt.err"; then
		pass "-b on a file without branch stacks: exit 1, $(head -n 1 "$rm_tmp/pms.txt.err" | cut -c1-100)"
	else
		fail "-b on a file without branch stacks" "exit $rm_rc: $(head -n 1 "$rm_tmp/pms.txt.err")"
	fi

	# --- group view: the default for files with HEADER_GROUP_DESC (a pipe carries it as a record) ---
	for rm_b in perf.data.group_desc-4.14 perf.data.piped.header_feautres_group_desc-6.8 \
		perf.data.lost_samples-4.4; do
		rm_f=$rm_q/$rm_b
		rm_perf "$rm_f" "$rm_tmp/perf.txt"
		rm_pms "$rm_f" "$rm_tmp/pms.txt"
		if ! grep -q "^# Samples: .* of events 'anon group { " "$rm_tmp/pms.txt"; then
			fail "group view $rm_b" "no group section: $(grep -m 1 '^# Samples' "$rm_tmp/pms.txt")"
			continue
		fi
		rm_cmp "group view $rm_b (default)" "$rm_tmp/perf.txt" "$rm_tmp/pms.txt"
		rm_perf "$rm_f" "$rm_tmp/perf.txt" --no-group
		rm_pms "$rm_f" "$rm_tmp/pms.txt" --no-group
		if grep -q "anon group" "$rm_tmp/pms.txt"; then
			fail "group file $rm_b --no-group" "still a group section"
		else
			rm_cmp "group file $rm_b --no-group: one section per event" "$rm_tmp/perf.txt" "$rm_tmp/pms.txt"
		fi
	done
	# --group with no group recorded: every event in one group led by the first (perf's forced leader)
	for rm_b in multi-event-single-process.perf.data perf.data.hw_and_sw-3.4; do
		rm_f=$rm_q/$rm_b
		rm_perf "$rm_f" "$rm_tmp/perf.txt" --group
		rm_pms "$rm_f" "$rm_tmp/pms.txt" --group
		# shellcheck disable=SC2046
		rm_cmp "--group forced on $rm_b" "$rm_tmp/perf.txt" "$rm_tmp/pms.txt" $(rm_vdso "$rm_f")
	done

	# --- groups recorded here (this kernel: perf names its symbols too) ---
	rm_here=1
	rm_work="$BUILD_DIR/demo/pms-demo"
	if ! HOME=$rm_home perf record -q -o "$rm_tmp/perf-group.data" -e '{cpu-clock,task-clock}' -- "$rm_work" 1 \
		>/dev/null 2>"$rm_tmp/rec.err"; then
		fail "perf record -e '{cpu-clock,task-clock}'" "$(head -n 2 "$rm_tmp/rec.err")"
	else
		rm_f=$rm_tmp/perf-group.data
		rm_perf "$rm_f" "$rm_tmp/perf.txt"
		rm_pms "$rm_f" "$rm_tmp/pms.txt"
		if grep -q "^# Samples: .* of events 'anon group { cpu-clock, task-clock }'" "$rm_tmp/pms.txt"; then
			rm_cmp "group recorded by perf here (default)" "$rm_tmp/perf.txt" "$rm_tmp/pms.txt"
		else
			fail "group recorded by perf here" "no group section: $(grep -m 1 '^# Samples' "$rm_tmp/pms.txt")"
		fi
		rm_perf "$rm_f" "$rm_tmp/perf.txt" --no-group
		rm_pms "$rm_f" "$rm_tmp/pms.txt" --no-group
		rm_cmp "group recorded by perf here, --no-group" "$rm_tmp/perf.txt" "$rm_tmp/pms.txt"
		"$PMUSCOPE" report -i "$rm_f" --json >"$rm_tmp/pms.json" 2>/dev/null
		if python3 - "$rm_tmp/pms.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
ev = d["events"][0]
assert d["group_view"] is True and d["branch_mode"] is False
assert ev["name"] == "anon group { cpu-clock, task-clock }", ev["name"]
assert [m["name"] for m in ev["group"]] == ["cpu-clock", "task-clock"]
assert ev["samples"] == sum(m["samples"] for m in ev["group"])
for i, m in enumerate(ev["group"]):
    # each member's column is of its own event: its periods and samples sum to the event's,
    # its percentages are of the event's period
    for e in ev["entries"]:
        x = e["group"][i]
        assert abs(x["self"] - 100.0 * x["self_period"] / m["period"]) < 0.0001, (x, m)
    assert sum(e["group"][i]["self_samples"] for e in ev["entries"]) == m["samples"]
    assert sum(e["group"][i]["self_period"] for e in ev["entries"]) == m["period"]
EOF
		then
			pass "group recorded by perf here: --json: a group per row, each member's weights of its own event, summing to it"
		else
			fail "group recorded by perf here: --json" "see above"
		fi
	fi
	if ! "$PMUSCOPE" record -o "$rm_tmp/pms-group.data" -e '{cpu-clock,task-clock}' -- "$rm_work" 1 \
		>/dev/null 2>"$rm_tmp/rec.err"; then
		fail "pmuscope record -e '{cpu-clock,task-clock}'" "$(head -n 2 "$rm_tmp/rec.err")"
	else
		rm_f=$rm_tmp/pms-group.data
		if HOME=$rm_home perf report -f -i "$rm_f" --header-only 2>/dev/null | grep -q '^# group: '; then
			rm_perf "$rm_f" "$rm_tmp/perf.txt"
			rm_pms "$rm_f" "$rm_tmp/pms.txt"
			rm_cmp "group recorded by pmuscope here (its GROUP_DESC, default view)" "$rm_tmp/perf.txt" "$rm_tmp/pms.txt"
		else
			skip "group recorded by pmuscope here, default view" "pmuscope record writes no HEADER_GROUP_DESC (lib/data/writer.c): perf and report show its groups as separate events"
			rm_perf "$rm_f" "$rm_tmp/perf.txt"
			rm_pms "$rm_f" "$rm_tmp/pms.txt"
			rm_cmp "group recorded by pmuscope here, no GROUP_DESC: per-event view as perf's" "$rm_tmp/perf.txt" "$rm_tmp/pms.txt"
		fi
		rm_perf "$rm_f" "$rm_tmp/perf.txt" --group
		rm_pms "$rm_f" "$rm_tmp/pms.txt" --group
		rm_cmp "group recorded by pmuscope here, --group" "$rm_tmp/perf.txt" "$rm_tmp/pms.txt"
	fi
fi
rm -rf "$rm_tmp"
