# SPDX-License-Identifier: MIT
# Kernel tests of `pmuscope inject -b`: on files recorded without build-ids (perf record -B,
# pmuscope record -B) perf buildid-list of our copy equals perf buildid-list of perf inject -b's
# (ours adds the kernel's, which perf 6.1 inject cannot read; docs/inject.md); the records are
# copied unchanged (perf script the same); perf report reads the copy; pipes in and out; and
# with the binary rebuilt after recording, pmuscope report and perf report of the injected file
# name the recorded binary's functions from the build-id cache, as for a normally recorded file.
# Sourced by tests/kernel/run.sh; every function and variable is tin_-prefixed.

tin_shares=$BUILD_DIR/demo/pms-shares

# tin_ids FILE [stdin]: perf buildid-list of FILE without the kernel's line, nor the vDSO by the name of
# perf's temporary copy (/tmp/perf-vdso.so-XXXXXX); reading a pipe, sorted and without [vdso]
tin_ids() {
	if [ -n "${2:-}" ]; then
		perf buildid-list -i - <"$1" 2>/dev/null | grep -v 'kallsyms\]$' | grep -v 'perf-vdso\|\[vdso\]$' | sort
	else
		perf buildid-list -i "$1" 2>/dev/null | grep -v 'kallsyms\]$' | grep -v perf-vdso
	fi
}

# tin_top FILE: the first three lines of report --stdio (no headers)
tin_top() { "$@" --stdio 2>/dev/null | grep -v '^#' | grep -v '^$' | head -3; }

tin_files() {
	tin_kid=$(perf buildid-list -k 2>/dev/null)
	for tin_rec in perf pmuscope; do
		if [ $tin_rec = perf ]; then
			perf record -q -B -o "$tin_tmp/$tin_rec.data" -- "$tin_shares" --seconds 0.3 >/dev/null 2>&1
		else
			"$PMUSCOPE" record -B -o "$tin_tmp/$tin_rec.data" -- "$tin_shares" --seconds 0.3 >/dev/null 2>&1
		fi
		tin_in=$tin_tmp/$tin_rec.data
		if perf buildid-list -i "$tin_in" 2>/dev/null | grep -q '^[0-9a-f]'; then
			fail "inject: $tin_rec record -B wrote build-ids" "$(perf buildid-list -i "$tin_in" 2>&1 | head -3)"
			continue
		fi
		perf inject -b -i "$tin_in" -o "$tin_tmp/$tin_rec.perf.data" 2>/dev/null
		"$PMUSCOPE" inject -b -i "$tin_in" -o "$tin_tmp/$tin_rec.ours.data" 2>"$tin_tmp/err"
		tin_p=$(tin_ids "$tin_tmp/$tin_rec.perf.data")
		tin_o=$(tin_ids "$tin_tmp/$tin_rec.ours.data")
		tin_k=$(perf buildid-list -i "$tin_tmp/$tin_rec.ours.data" 2>/dev/null | grep 'kallsyms\]$' | cut -d' ' -f1)
		# -b adds the objects samples hit: the kernel only when a sample was taken in it
		tin_kwant=$tin_kid
		perf report -i "$tin_in" --sort dso --stdio -q 2>/dev/null | grep -q 'kernel\.kallsyms' || tin_kwant=
		if [ -n "$tin_p" ] && [ "$tin_p" = "$tin_o" ] && printf '%s\n' "$tin_o" | grep -q "pms-shares$" &&
			[ "$tin_k" = "$tin_kwant" ]; then
			pass "inject -b on a $tin_rec record -B file: perf buildid-list the same as of perf inject -b's ($(printf '%s\n' "$tin_o" | wc -l) objects), plus the kernel's ${tin_kwant:-(no kernel sample)}"
		else
			fail "inject -b on a $tin_rec record -B file" "perf: $(printf '%s' "$tin_p" | tr '\n' '|') ours: $(printf '%s' "$tin_o" | tr '\n' '|') kernel $tin_k (want ${tin_kwant:-none: no kernel sample}) $(cat "$tin_tmp/err")"
		fi
		tin_a=$(perf script -F tid,time,ip,period,event -i "$tin_in" 2>/dev/null | md5sum)
		tin_b=$(perf script -F tid,time,ip,period,event -i "$tin_tmp/$tin_rec.ours.data" 2>/dev/null | md5sum)
		tin_n=$(perf script -i "$tin_in" 2>/dev/null | wc -l)
		[ "$tin_a" = "$tin_b" ] && [ "$tin_n" -gt 10 ] &&
			pass "inject: $tin_rec file's records copied unchanged (perf script of the copy = of the input, $tin_n samples)" ||
			fail "inject: $tin_rec file's records" "perf script differs ($tin_n samples in the input)"
		tin_a=$(tin_top perf report -i "$tin_tmp/$tin_rec.perf.data")
		tin_b=$(tin_top perf report -i "$tin_tmp/$tin_rec.ours.data")
		[ -n "$tin_b" ] && [ "$tin_a" = "$tin_b" ] &&
			pass "inject: perf report reads our copy of the $tin_rec file as perf's own inject output" ||
			fail "inject: perf report of our copy" "perf's: $tin_a ours: $tin_b"
	done
	# --known-build-ids: the given build-id, as perf's
	tin_kb="00112233445566778899aabbccddeeff00112233 $tin_shares"
	perf inject -b --known-build-ids="$tin_kb" -i "$tin_tmp/perf.data" -o "$tin_tmp/known.perf.data" 2>/dev/null
	"$PMUSCOPE" inject -b --known-build-ids="$tin_kb" -i "$tin_tmp/perf.data" -o "$tin_tmp/known.ours.data" 2>/dev/null
	tin_p=$(tin_ids "$tin_tmp/known.perf.data")
	tin_o=$(tin_ids "$tin_tmp/known.ours.data")
	[ -n "$tin_o" ] && [ "$tin_p" = "$tin_o" ] && printf '%s\n' "$tin_o" | grep -qx "$tin_kb" &&
		pass "inject --known-build-ids: perf buildid-list the same as of perf's, the given build-id used" ||
		fail "inject --known-build-ids" "perf: $(printf '%s' "$tin_p" | tr '\n' '|') ours: $(printf '%s' "$tin_o" | tr '\n' '|')"
	# --buildid-all: every mapped object (perf 6.1 writes no table then; its listing is the hit ones)
	perf inject --buildid-all -i "$tin_tmp/perf.data" -o "$tin_tmp/all.perf.data" 2>/dev/null
	"$PMUSCOPE" inject --buildid-all -i "$tin_tmp/perf.data" -o "$tin_tmp/all.ours.data" 2>/dev/null
	tin_p=$(tin_ids "$tin_tmp/all.perf.data")
	tin_o=$(tin_ids "$tin_tmp/all.ours.data")
	tin_miss=$(printf '%s\n' "$tin_p" | while read -r tin_l; do printf '%s\n' "$tin_o" | grep -qxF "$tin_l" || echo "$tin_l"; done)
	if [ -n "$tin_p" ] && [ -z "$tin_miss" ] && printf '%s\n' "$tin_o" | grep -q 'libc\.so'; then
		pass "inject --buildid-all: every object perf lists, and the unsampled ones mapped (libc: $(printf '%s\n' "$tin_o" | wc -l) objects)"
	else
		fail "inject --buildid-all" "missing: $tin_miss ours: $(printf '%s' "$tin_o" | tr '\n' '|')"
	fi
}

tin_pipes() {
	perf record -q -B -o - -- "$tin_shares" --seconds 0.3 2>/dev/null >"$tin_tmp/pipe.data"
	perf inject -b <"$tin_tmp/pipe.data" >"$tin_tmp/pipe.perf.data" 2>/dev/null
	"$PMUSCOPE" inject -b <"$tin_tmp/pipe.data" >"$tin_tmp/pipe.ours.data" 2>"$tin_tmp/err"
	tin_p=$(tin_ids "$tin_tmp/pipe.perf.data" stdin)
	tin_o=$(tin_ids "$tin_tmp/pipe.ours.data" stdin)
	[ -n "$tin_p" ] && [ "$tin_p" = "$tin_o" ] &&
		pass "inject -b pipe to pipe: perf buildid-list -i - the same objects and build-ids as for perf inject -b's stream" ||
		fail "inject -b pipe to pipe" "perf: $(printf '%s' "$tin_p" | tr '\n' '|') ours: $(printf '%s' "$tin_o" | tr '\n' '|') $(cat "$tin_tmp/err")"
	tin_a=$(tin_top perf report -i - <"$tin_tmp/pipe.perf.data")
	tin_b=$(tin_top perf report -i - <"$tin_tmp/pipe.ours.data")
	[ -n "$tin_b" ] && [ "$tin_a" = "$tin_b" ] &&
		pass "inject: perf report -i - reads our stream as perf's" || fail "inject: perf report of our stream" "perf's: $tin_a ours: $tin_b"
	# a pipe stream into a file (perf 6.1 writes a file it cannot read back here)
	"$PMUSCOPE" inject -b -o "$tin_tmp/pipe2file.data" <"$tin_tmp/pipe.data" 2>/dev/null
	tin_o=$(tin_ids "$tin_tmp/pipe2file.data")
	tin_b=$(tin_top perf report -i "$tin_tmp/pipe2file.data")
	printf '%s\n' "$tin_o" | grep -q "pms-shares$" && [ -n "$tin_b" ] && [ "$tin_a" = "$tin_b" ] &&
		pass "inject -b pipe to file: perf buildid-list and perf report read it" ||
		fail "inject -b pipe to file" "ids: $(printf '%s' "$tin_o" | tr '\n' '|') report: $tin_b"
	# a file into a pipe (-o - is the default): a reader of the stream gets build-ids before samples
	"$PMUSCOPE" inject -b -i "$tin_tmp/perf.data" >"$tin_tmp/file2pipe.data" 2>/dev/null
	tin_b=$(tin_top perf report -i - <"$tin_tmp/file2pipe.data")
	tin_a=$(tin_top perf report -i "$tin_tmp/perf.data")
	[ -n "$tin_b" ] && [ "$tin_a" = "$tin_b" ] && tin_ids "$tin_tmp/file2pipe.data" stdin | grep -q "pms-shares$" &&
		pass "inject -b file to pipe: perf report -i - and buildid-list -i - read it" ||
		fail "inject -b file to pipe" "report: $tin_b (input: $tin_a)"
}

# The binary rebuilt after recording: the build-id injected leads both reports to the cached copy.
tin_rebuilt() {
	tin_h=$tin_tmp/home
	mkdir -p "$tin_h" "$tin_tmp/bin"
	cp "$tin_shares" "$tin_tmp/bin/app"
	HOME=$tin_h "$PMUSCOPE" record -B -o "$tin_tmp/app.nob.data" -- "$tin_tmp/bin/app" --seconds 0.3 >/dev/null 2>&1
	HOME=$tin_h "$PMUSCOPE" record -o "$tin_tmp/app.normal.data" -- "$tin_tmp/bin/app" --seconds 0.3 >/dev/null 2>&1
	"$PMUSCOPE" inject -b -i "$tin_tmp/app.nob.data" -o "$tin_tmp/app.inj.data" 2>/dev/null
	cp "$BUILD_DIR/demo/pms-loops" "$tin_tmp/bin/app"
	tin_n=$(HOME=$tin_h tin_top "$PMUSCOPE" report -i "$tin_tmp/app.normal.data" | head -1)
	tin_i=$(HOME=$tin_h tin_top "$PMUSCOPE" report -i "$tin_tmp/app.inj.data" | head -1)
	tin_p=$(HOME=$tin_h tin_top perf report -i "$tin_tmp/app.inj.data" | head -1)
	tin_b=$(HOME=$tin_h tin_top "$PMUSCOPE" report -i "$tin_tmp/app.nob.data" | head -1)
	case "$tin_n|$tin_i|$tin_p" in
	*leaf_work*"|"*leaf_work*"|"*leaf_work*)
		case $tin_b in
		*leaf_work*) fail "inject: rebuilt binary" "the -B file names leaf_work too: the test shows nothing ($tin_b)" ;;
		*) pass "inject: binary rebuilt after recording: pmuscope and perf report of the injected file name leaf_work from the build-id cache, as for a normal recording (the -B file: $(echo $tin_b | awk '{print $NF}'))" ;;
		esac ;;
	*) fail "inject: rebuilt binary" "normal: $tin_n | injected: $tin_i | perf: $tin_p" ;;
	esac
}

tin_main() {
	if ! command -v perf >/dev/null 2>&1; then
		skip "inject" "perf not installed (the oracle)"
		return
	fi
	tin_tmp=$(mktemp -d)
	tin_files
	tin_pipes
	tin_rebuilt
	rm -rf "$tin_tmp"
}

tin_main
