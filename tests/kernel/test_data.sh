# SPDX-License-Identifier: MIT
# Kernel tests of lib/data (perf.data writer and reader), with Linux perf as
# the oracle both ways: perf must read what we write (a synthetic profile of
# the demo binary written by tests/kernel/data_writer.c: plain, zstd, pipe
# mode, and a writer that dies after a flush), and our reader must count the
# same samples as `perf script` in files perf records (plain, -z, pipe, and
# perf killed with SIGKILL). Sourced by tests/kernel/run.sh (td_ prefix).

td_build() {
	td_cc="cc -std=gnu11 -O1 -g -I$TOP/include -I$TOP/lib"
	td_libs="$BUILD_DIR/libpmuscope.a -ldw -lelf -lzstd -lz -liberty -lm"
	# shellcheck disable=SC2086
	$td_cc -o "$td_tmp/dw" "$TOP/tests/kernel/data_writer.c" $td_libs >"$td_tmp/cc.log" 2>&1 &&
		$td_cc -o "$td_tmp/dr" "$TOP/tests/kernel/data_reader.c" $td_libs >>"$td_tmp/cc.log" 2>&1
}

# td_report NAME FILE [perf input redirection through stdin: "-"]: 75/25 split in perf report.
td_report() {
	if [ "${3:-}" = "-" ]; then
		perf report --stdio -i - <"$2" >"$td_tmp/rep" 2>&1
	else
		perf report --stdio -i "$2" >"$td_tmp/rep" 2>&1
	fi
	if grep -qE '^ +75\.00% .*\[\.\] hot$' "$td_tmp/rep" &&
		grep -qE '^ +25\.00% .*\[\.\] warm$' "$td_tmp/rep"; then
		pass "$1: perf report shows hot 75.00% / warm 25.00%"
	else
		fail "$1: perf report" "$(grep -E '%|rror|arning' "$td_tmp/rep" | head -5 | tr '\n' '|')"
	fi
}

# td_script NAME FILE WANT ["-"]: perf script prints WANT samples.
td_script() {
	if [ "${4:-}" = "-" ]; then
		td_n=$(perf script -i - <"$2" 2>/dev/null | grep -c 'cpu-clock')
	else
		td_n=$(perf script -i "$2" 2>/dev/null | grep -c 'cpu-clock')
	fi
	if [ "$td_n" = "$3" ]; then
		pass "$1: perf script prints $3 samples"
	else
		fail "$1: perf script" "$td_n samples, want $3"
	fi
}

# td_ours NAME FILE WANT [--recover]: our reader counts WANT samples without an error.
td_ours() {
	"$td_tmp/dr" ${4:-} "$2" >"$td_tmp/ours" 2>&1
	td_rc=$?
	td_n=$(sed -n 's/^samples=\([0-9]*\) .*/\1/p' "$td_tmp/ours")
	if [ $td_rc -eq 0 ] && [ "$td_n" = "$3" ] && ! grep -q '^error=' "$td_tmp/ours"; then
		pass "$1: our reader counts $3 samples"
	else
		fail "$1: our reader" "rc=$td_rc, $(tr '\n' '|' <"$td_tmp/ours" | cut -c1-300), want $3 samples"
	fi
}

td_written() {
	td_demo=$BUILD_DIR/demo/pms-demo
	td_hot=$(nm "$td_demo" | awk '$3 == "hot" { print $1 }')
	td_warm=$(nm "$td_demo" | awk '$3 == "warm" { print $1 }')
	if [ -z "$td_hot" ] || [ -z "$td_warm" ]; then
		fail "data: demo symbols" "nm finds no hot/warm in $td_demo"
		return
	fi
	td_f=$td_tmp/ours.data
	if ! "$td_tmp/dw" "$td_f" "$td_demo" "$td_hot" "$td_warm"; then
		fail "data: write a synthetic profile" "data_writer failed"
		return
	fi
	td_report "written file" "$td_f"
	td_script "written file" "$td_f" 1000
	td_ours "written file" "$td_f" 1000
	perf report --header-only -i "$td_f" >"$td_tmp/hdr" 2>&1
	if grep -q "^# hostname : $(uname -n)\$" "$td_tmp/hdr" &&
		grep -q "^# os release : $(uname -r)\$" "$td_tmp/hdr" &&
		grep -q "^# cmdline : .*dw $td_f " "$td_tmp/hdr" &&
		grep -q '^# event : name = cpu-clock:u,' "$td_tmp/hdr" &&
		grep -q '^# nrcpus online : ' "$td_tmp/hdr" &&
		grep -q '^# cpuid : ' "$td_tmp/hdr" &&
		grep -q '^# total memory : [1-9][0-9]* kB' "$td_tmp/hdr" &&
		grep -q '^# time of first sample : 1\.000000' "$td_tmp/hdr" &&
		grep -q '^# pmu mappings: .*software = 1' "$td_tmp/hdr"; then
		pass "written file: perf report --header-only shows hostname, os release, cmdline, event name, cpuid, memory, sample time, pmu mappings"
	else
		fail "written file: header" "$(grep '^# [a-z]' "$td_tmp/hdr" | head -12 | tr '\n' '|')"
	fi
	# CPU topology: what perf shows for our file equals what it shows for its own.
	td_f2=$td_tmp/perf-topo.data
	if perf record -q -o "$td_f2" -- true >/dev/null 2>&1; then
		perf report -I --header-only -i "$td_f" 2>/dev/null | grep -E '^# (sibling|CPU [0-9])' >"$td_tmp/t1"
		perf report -I --header-only -i "$td_f2" 2>/dev/null | grep -E '^# (sibling|CPU [0-9])' >"$td_tmp/t2"
		if [ -s "$td_tmp/t1" ] && cmp -s "$td_tmp/t1" "$td_tmp/t2"; then
			pass "written file: perf shows the same CPU topology as in its own recording ($(wc -l <"$td_tmp/t1") lines)"
		else
			fail "written file: CPU topology" "ours: $(tr '\n' '|' <"$td_tmp/t1") perf: $(tr '\n' '|' <"$td_tmp/t2")"
		fi
	else
		skip "written file: CPU topology" "perf record -- true failed"
	fi
	td_bid=$(readelf -n "$td_demo" 2>/dev/null | sed -n 's/.*Build ID: *\([0-9a-f]*\).*/\1/p')
	if [ -n "$td_bid" ] && perf buildid-list -i "$td_f" 2>/dev/null | grep -q "^$td_bid $td_demo\$"; then
		pass "written file: perf buildid-list shows the demo's real build-id"
	else
		fail "written file: build-id" "want $td_bid, perf says: $(perf buildid-list -i "$td_f" 2>&1 | head -2 | tr '\n' '|')"
	fi

	td_f=$td_tmp/ours-z.data
	if "$td_tmp/dw" "$td_f" "$td_demo" "$td_hot" "$td_warm" -z; then
		td_report "written file -z" "$td_f"
		td_script "written file -z" "$td_f" 1000
		td_ours "written file -z" "$td_f" 1000
		td_plain=$(stat -c %s "$td_tmp/ours.data")
		td_z=$(stat -c %s "$td_f")
		if [ "$td_z" -lt $((td_plain / 3)) ]; then
			pass "written file -z: $td_z bytes against $td_plain uncompressed"
		else
			fail "written file -z: size" "$td_z bytes against $td_plain uncompressed"
		fi
	else
		fail "written file -z" "data_writer -z failed"
	fi

	td_f=$td_tmp/ours-pipe.data
	if "$td_tmp/dw" "$td_f" "$td_demo" "$td_hot" "$td_warm" --pipe; then
		td_report "written pipe stream" "$td_f" -
		td_script "written pipe stream" "$td_f" 1000 -
		td_ours "written pipe stream" "$td_f" 1000
	else
		fail "written pipe stream" "data_writer --pipe failed"
	fi
	td_f=$td_tmp/ours-pipe-z.data
	if "$td_tmp/dw" "$td_f" "$td_demo" "$td_hot" "$td_warm" --pipe -z; then
		td_report "written pipe stream -z" "$td_f" -
		td_script "written pipe stream -z" "$td_f" 1000 -
		td_ours "written pipe stream -z" "$td_f" 1000
	else
		fail "written pipe stream -z" "data_writer --pipe -z failed"
	fi

	# A writer that dies after a flush (600 samples flushed, 10 more buffered).
	for td_z in "" -z; do
		td_f=$td_tmp/killed$td_z.data
		"$td_tmp/dw" "$td_f" "$td_demo" "$td_hot" "$td_warm" $td_z --kill 600
		td_ours "writer killed after a flush${td_z:+ ($td_z)}" "$td_f" 600
		td_report "writer killed after a flush${td_z:+ ($td_z)}" "$td_f"
		td_script "writer killed after a flush${td_z:+ ($td_z)}" "$td_f" 600
	done

	# Truncated in the middle of the data section: an offset error, or the valid prefix.
	td_f=$td_tmp/trunc.data
	head -c 20000 "$td_tmp/ours.data" >"$td_f"
	"$td_tmp/dr" "$td_f" >"$td_tmp/o" 2>&1
	if grep -qE '^error=data section .*extends past end of file' "$td_tmp/o"; then
		pass "truncated file: strict reader names the damage ($(sed -n 's/^error=//p' "$td_tmp/o" | cut -c1-90))"
	else
		fail "truncated file: strict reader" "$(tr '\n' '|' <"$td_tmp/o")"
	fi
	"$td_tmp/dr" --recover "$td_f" >"$td_tmp/o" 2>&1
	td_n=$(sed -n 's/^samples=\([0-9]*\) .*/\1/p' "$td_tmp/o")
	# 248 bytes of header+attrs, two small records, then 40-byte samples.
	if [ -n "$td_n" ] && [ "$td_n" -gt 400 ] && [ "$td_n" -lt 500 ] &&
		grep -q '^error=truncated record at offset 0x' "$td_tmp/o"; then
		pass "truncated file: --recover returns the $td_n whole samples and the offset of the cut record"
	else
		fail "truncated file: recover" "$(tr '\n' '|' <"$td_tmp/o")"
	fi
}

td_perf_files() {
	td_demo=$BUILD_DIR/demo/pms-demo
	td_f=$td_tmp/perf.data
	if perf record -q -F 999 -g -o "$td_f" -- "$td_demo" >/dev/null 2>&1; then
		td_want=$(perf script -i "$td_f" 2>/dev/null | grep -c 'cpu-clock')
		td_ours "perf record -g file" "$td_f" "$td_want"
		# Metadata as perf prints it: hostname, release, PMU mappings.
		td_pm=$(perf report --header-only -i "$td_f" 2>/dev/null | sed -n 's/^# pmu mappings: //p' |
			tr -d ' ' | tr ',' '\n' | sort | tr '\n' ' ')
		td_pu=$(sed -n 's/^pmu=//p' "$td_tmp/ours" | sort | tr '\n' ' ')
		if [ -n "$td_pm" ] && [ "$td_pm" = "$td_pu" ] &&
			grep -qx "hostname=$(uname -n)" "$td_tmp/ours" &&
			grep -qx "osrelease=$(uname -r)" "$td_tmp/ours" &&
			grep -q '^event0=cpu-clock' "$td_tmp/ours"; then
			pass "perf record -g file: our reader finds perf's hostname, os release, event name and pmu mappings ($td_pu)"
		else
			fail "perf record -g file: features" "perf pmus '$td_pm', ours '$td_pu': $(tr '\n' '|' <"$td_tmp/ours" | cut -c1-200)"
		fi
	else
		skip "perf record -g file" "perf record failed"
	fi
	td_f=$td_tmp/perf-z.data
	if perf record -q -z -F 999 -g -o "$td_f" -- "$td_demo" >/dev/null 2>&1; then
		td_want=$(perf script -i "$td_f" 2>/dev/null | grep -c 'cpu-clock')
		td_d=$(perf report -D -i "$td_f" 2>/dev/null | sed -n 's/^ *SAMPLE events: *\([0-9]*\).*/\1/p' | head -1)
		if [ "$td_want" = "$td_d" ]; then
			td_ours "perf record -z file" "$td_f" "$td_want"
		else
			fail "perf record -z file" "perf script $td_want samples but perf report -D $td_d"
		fi
	else
		skip "perf record -z file" "perf record -z failed"
	fi
	td_f=$td_tmp/perf-pipe.data
	if perf record -q -F 999 -o - -- "$td_demo" 2>/dev/null >"$td_f"; then
		td_want=$(perf script -i - <"$td_f" 2>/dev/null | grep -c 'cpu-clock')
		td_ours "perf record -o - stream" "$td_f" "$td_want"
	else
		skip "perf record -o - stream" "perf record -o - failed"
	fi
	# perf killed with SIGKILL: data.size stays 0, perf itself cannot read the file.
	# A small ring (-m 4 pages) makes perf write out records as it goes.
	for td_z in "" -z; do
		td_f=$td_tmp/perf-killed$td_z.data
		# shellcheck disable=SC2086
		perf record -q $td_z -m 4 -F 999 -o "$td_f" -- "$td_demo" 20 >/dev/null 2>&1 &
		td_pid=$!
		sleep 1.5
		td_kids=$(pgrep -P $td_pid 2>/dev/null)
		kill -9 $td_pid 2>/dev/null
		wait $td_pid 2>/dev/null
		# shellcheck disable=SC2086
		[ -n "$td_kids" ] && kill $td_kids 2>/dev/null
		"$td_tmp/dr" --recover "$td_f" >"$td_tmp/o" 2>&1
		td_n=$(sed -n 's/^samples=\([0-9]*\) .*/\1/p' "$td_tmp/o")
		if grep -q 'scanned_to_eof=1' "$td_tmp/o" && [ -n "$td_n" ] && [ "$td_n" -gt 0 ]; then
			td_p=$(perf script -i "$td_f" 2>/dev/null | grep -c 'cpu-clock')
			pass "perf ${td_z:+$td_z }killed by SIGKILL: our reader scans to EOF and finds $td_n samples (perf script: $td_p)"
		else
			fail "perf ${td_z:+$td_z }killed by SIGKILL" "$(tr '\n' '|' <"$td_tmp/o" | cut -c1-300)"
		fi
	done
}

td_main() {
	if ! command -v perf >/dev/null 2>&1; then
		skip "data" "Linux perf is not installed (it is the oracle)"
		return
	fi
	if [ ! -f "$BUILD_DIR/libpmuscope.a" ] || [ ! -x "$BUILD_DIR/demo/pms-demo" ]; then
		skip "data" "build $BUILD_DIR first (libpmuscope.a, demo)"
		return
	fi
	td_tmp=$(mktemp -d)
	if ! td_build; then
		fail "data: build test programs" "$(head -c 400 "$td_tmp/cc.log")"
		rm -rf "$td_tmp"
		return
	fi
	td_written
	td_perf_files
	rm -rf "$td_tmp"
}

td_main
