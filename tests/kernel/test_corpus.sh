# SPDX-License-Identifier: MIT
# Other people's files (issue 13): the 53 real-world perf.data files of tests/fixtures/perfdata/quipper
# (recorded on other machines, x86 and ARM, perf 3.2 to 6.12, file and pipe mode, hardware events,
# branch stacks, Intel PT, hybrid CPUs, groups, lost samples, throttling), each reported by perf 6.1
# and by pmuscope, and compared row by row:
#  - report --no-children --sort comm,dso,sym -g none -n: the same events, the same sample counts
#    per event, every row within 0.5 points (tests/kernel/corpus_compare.py); files with call
#    chains also in children mode, perf's default for them (Children and Self of every row);
#  - script: every line equal to perf script's;
#  - report --header-only: every line equal to perf's, but for the BPF programs and BTF perf
#    lists from BPF_PROG_INFO/BPF_BTF (not decoded here) and the TOTAL_MEM, CMDLINE and
#    PMU_MAPPINGS perf 6.1 reads as empty from the perf 3.8 file (pmuscope decodes them:
#    2049120 kB, the command, four PMUs).
# perf runs with an empty HOME (no build-id cache of this machine), --no-itrace (we do not decode
# Intel PT) and an empty --kallsyms: without it perf names the kernel addresses of files that
# record no kernel build-id (pipe mode) with this machine's /proc/kallsyms, names that do not
# belong to them; pmuscope leaves those as addresses. Likewise perf names a [vdso] that has no
# recorded build-id with this machine's vDSO: for such files [vdso] rows are compared per object
# and [vdso] lines of script without the symbol (said in the check's name).
# A file perf cannot read is read without a reference: pmuscope must read it or refuse it with a
# message naming the offset (exit 1), never crash. The tally is printed at the end.
# Sourced by tests/kernel/run.sh; every function and variable is cp_-prefixed.

cp_dir=$TOP/tests/fixtures/perfdata/quipper
cp_tmp=$(mktemp -d)
cp_home=$cp_tmp/home
mkdir -p "$cp_home"
: >"$cp_tmp/empty-kallsyms"
cp_agree=0 cp_differ=0 cp_noref=0 cp_refused=0 cp_hdr_same=0

# cp_no_vdso_id FILE: the file records no build-id for [vdso]
cp_no_vdso_id() {
	! HOME=$cp_home perf buildid-list -f -i "$1" 2>/dev/null | grep -q ' \[vdso\]$'
}

# cp_script_norm: a [vdso] frame's symbol is not compared (see the header)
cp_script_norm() {
	sed -E 's/^(.* [0-9a-f]+) [^ ]+ \(\[vdso\]\)$/\1 * ([vdso])/'
}

# cp_children FILE: perf's default view of a file with call chains is children mode: compare it
# too (Children and Self of every row). Files without chains have no Children column: nothing to do.
cp_children() {
	HOME=$cp_home timeout 120 perf report -f -i "$1" --stdio --sort comm,dso,sym -g none -n \
		--no-branch-stack --no-group --no-itrace --kallsyms="$cp_tmp/empty-kallsyms" \
		>"$cp_tmp/perf.ch" 2>/dev/null
	grep -q '^# *Children' "$cp_tmp/perf.ch" || return 0
	timeout 120 "$PMUSCOPE" report -i "$1" --stdio --sort comm,dso,sym -g none -n \
		--no-branch-stack --no-group >"$cp_tmp/pms.ch" 2>/dev/null
	# shellcheck disable=SC2086
	cp_v=$(python3 "$TOP/tests/kernel/corpus_compare.py" "$cp_tmp/perf.ch" "$cp_tmp/pms.ch" $cp_extra)
	case $cp_v in
	agree*) pass "corpus $cp_b: report in children mode (perf's default with call chains) $cp_v" ;;
	*) fail "corpus $cp_b: report in children mode" "$cp_v" ;;
	esac
}

cp_header() {
	HOME=$cp_home timeout 120 perf report -f -i "$1" --header-only 2>/dev/null |
		grep -v -e '^# bpf_prog_info' -e '^# 	sub_prog' -e '^# btf info of id' >"$cp_tmp/perf.hdr"
	timeout 120 "$PMUSCOPE" report -i "$1" --header-only >"$cp_tmp/pms.hdr" 2>/dev/null
	cp_hd=$(diff "$cp_tmp/perf.hdr" "$cp_tmp/pms.hdr" | grep '^<' | grep -v -c -x -e '< # total memory : 0 kB' -e '< # cmdline : ' \
		-e '< # pmu mappings: not available')
	if [ "$cp_hd" -eq 0 ]; then
		if cmp -s "$cp_tmp/perf.hdr" "$cp_tmp/pms.hdr"; then
			pass "corpus $cp_b: header: $(wc -l <"$cp_tmp/pms.hdr") lines equal to perf's"
		else
			pass "corpus $cp_b: header equal to perf's but where perf 6.1 reads TOTAL_MEM, CMDLINE and PMU_MAPPINGS as empty: $(diff "$cp_tmp/perf.hdr" "$cp_tmp/pms.hdr" | grep '^>' | tr '\n' ' ' | cut -c1-160)"
		fi
		cp_hdr_same=$((cp_hdr_same + 1))
	else
		fail "corpus $cp_b: header" "$(diff "$cp_tmp/perf.hdr" "$cp_tmp/pms.hdr" | grep -m 3 '^[<>]' | cut -c1-200 | tr '\n' '|')"
	fi
}

cp_one() {
	cp_f=$1
	cp_b=$(basename "$cp_f")
	cp_extra=""
	cp_why=""
	if cp_no_vdso_id "$cp_f"; then
		cp_extra="--dso-level [vdso]"
	fi
	HOME=$cp_home timeout 120 perf report -f -i "$cp_f" --stdio --no-children --sort comm,dso,sym -g none -n \
		--no-branch-stack --no-group --no-itrace --kallsyms="$cp_tmp/empty-kallsyms" \
		>"$cp_tmp/perf.txt" 2>"$cp_tmp/perf.err"
	cp_prc=$?
	timeout 120 "$PMUSCOPE" report -i "$cp_f" --stdio --no-children --sort comm,dso,sym -g none -n \
		--no-branch-stack --no-group >"$cp_tmp/pms.txt" 2>"$cp_tmp/pms.err"
	cp_rc=$?
	if [ "$cp_rc" -gt 1 ]; then
		fail "corpus $cp_b: report" "exit $cp_rc: $(head -c 300 "$cp_tmp/pms.err")"
		cp_differ=$((cp_differ + 1))
		return
	fi
	if [ "$cp_prc" -ne 0 ] || ! grep -q '^# Samples: ' "$cp_tmp/perf.txt"; then
		cp_why=$(grep -v '^#' "$cp_tmp/perf.err" | grep -v '^ *$' | head -n 1)
		cp_n=$(sed -n 's/^#   samples: \([0-9]*\).*/\1/p' "$cp_tmp/pms.txt")
		if [ "$cp_rc" -eq 0 ]; then
			pass "corpus $cp_b: perf 6.1 cannot read it (${cp_why:-no samples}); pmuscope reads ${cp_n:-0} samples"
			cp_noref=$((cp_noref + 1))
		elif grep -q 'offset' "$cp_tmp/pms.err"; then
			pass "corpus $cp_b: perf 6.1 cannot read it (${cp_why:-no samples}); pmuscope reads ${cp_n:-0} samples and says where it is damaged: $(head -n 1 "$cp_tmp/pms.err" | cut -c1-160)"
			cp_refused=$((cp_refused + 1))
		else
			fail "corpus $cp_b: refused without saying where" "$(head -n 2 "$cp_tmp/pms.err")"
			cp_differ=$((cp_differ + 1))
		fi
		return
	fi
	# shellcheck disable=SC2086
	cp_v=$(python3 "$TOP/tests/kernel/corpus_compare.py" "$cp_tmp/perf.txt" "$cp_tmp/pms.txt" $cp_extra)
	case $cp_v in
	agree*)
		pass "corpus $cp_b: report $cp_v"
		cp_agree=$((cp_agree + 1))
		;;
	*)
		fail "corpus $cp_b: report" "$cp_v"
		cp_differ=$((cp_differ + 1))
		return
		;;
	esac
	cp_children "$cp_f"
	cp_header "$cp_f"
	HOME=$cp_home timeout 120 perf script -f -i "$cp_f" --no-itrace --kallsyms="$cp_tmp/empty-kallsyms" \
		2>/dev/null | { if [ -n "$cp_extra" ]; then cp_script_norm; else cat; fi; } >"$cp_tmp/perf.script"
	timeout 120 "$PMUSCOPE" script -i "$cp_f" 2>/dev/null |
		{ if [ -n "$cp_extra" ]; then cp_script_norm; else cat; fi; } >"$cp_tmp/pms.script"
	cp_n=$(wc -l <"$cp_tmp/perf.script")
	cp_d=$(diff "$cp_tmp/perf.script" "$cp_tmp/pms.script" | grep -c '^<')
	if [ "$cp_d" -eq 0 ] && [ "$cp_n" -eq "$(wc -l <"$cp_tmp/pms.script")" ]; then
		pass "corpus $cp_b: script: $cp_n lines equal to perf's${cp_extra:+ ([vdso] symbols not compared)}"
	else
		fail "corpus $cp_b: script" "$cp_d of $cp_n lines differ, first: $(diff "$cp_tmp/perf.script" "$cp_tmp/pms.script" | grep -m 2 '^[<>]' | cut -c1-220 | tr '\n' '|')"
	fi
}

if ! command -v perf >/dev/null 2>&1; then
	skip "corpus" "Linux perf is not installed (scripts/install-deps.sh installs linux-perf)"
else
	for cp_f in "$cp_dir"/*; do
		cp_one "$cp_f"
	done
	echo "corpus tally: $cp_agree agree with perf 6.1, $cp_differ differ, $cp_noref read without a reference (perf cannot read them), $cp_refused read up to the damage perf stops at; headers equal to perf's: $cp_hdr_same"
fi
rm -rf "$cp_tmp"
