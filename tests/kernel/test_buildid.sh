# SPDX-License-Identifier: MIT
# Kernel tests of the build-id work (docs/buildid.md): a failed record keeps the previous
# perf.data and a successful one rotates it to perf.data.old (as perf); the build-id cache
# record fills is perf's layout (kallsyms, vDSO, binaries) and serves perf report, and perf's
# serves ours, after the binary is deleted; a second record adds nothing; archive round trip
# into a fresh HOME gives the same report; buildid-list prints what perf buildid-list prints
# on files both tools record here and on the real-world corpus.
# Sourced by tests/kernel/run.sh; every function and variable is tb_-prefixed.

tb_demo=$BUILD_DIR/demo/pms-demo

# tb_list DIR: the entries of DIR (hidden ones too), one line
tb_list() { ls -A "$1" | tr '\n' ' '; }

tb_rotation_tests() {
	tb_d=$tb_tmp/rot
	mkdir -p "$tb_d"
	(cd "$tb_d" && HOME=$tb_tmp/rothome "$PMUSCOPE" record -g -- "$tb_demo" 0.2 >/dev/null 2>&1)
	if ! perf script -i "$tb_d/perf.data" >/dev/null 2>&1; then
		fail "rotation: a first recording" "$(tb_list "$tb_d")"
		return
	fi
	cp "$tb_d/perf.data" "$tb_tmp/first.data"
	# an event that cannot open here: exit 1 before anything was recorded
	if "$PMUSCOPE" record -e cycles -o "$tb_tmp/probe.data" -- true >/dev/null 2>&1; then
		skip "rotation: an event that fails to open keeps the previous file" "cycles opens here (a hardware PMU)"
	else
		(cd "$tb_d" && HOME=$tb_tmp/rothome "$PMUSCOPE" record -e cycles -- true >/dev/null 2>&1)
		if cmp -s "$tb_d/perf.data" "$tb_tmp/first.data" && [ "$(tb_list "$tb_d")" = "perf.data " ]; then
			pass "rotation: record -e cycles (fails to open) keeps perf.data as it was, no .old, no temporary file"
		else
			fail "rotation: record -e cycles keeps the previous file" "$(tb_list "$tb_d"); $(ls -l "$tb_d/perf.data")"
		fi
	fi
	(cd "$tb_d" && HOME=$tb_tmp/rothome "$PMUSCOPE" record -- no-such-cmd-pms >/dev/null 2>&1)
	tb_rc=$?
	if [ $tb_rc = 127 ] && cmp -s "$tb_d/perf.data" "$tb_tmp/first.data" && [ "$(tb_list "$tb_d")" = "perf.data " ]; then
		pass "rotation: record -- no-such-cmd exits 127 and keeps perf.data as it was"
	else
		fail "rotation: record -- no-such-cmd keeps the previous file" "exit $tb_rc; $(tb_list "$tb_d")"
	fi
	(cd "$tb_d" && HOME=$tb_tmp/rothome "$PMUSCOPE" record -- "$tb_demo" 0.1 >/dev/null 2>&1)
	if cmp -s "$tb_d/perf.data.old" "$tb_tmp/first.data" && perf script -i "$tb_d/perf.data" >/dev/null 2>&1 &&
		! cmp -s "$tb_d/perf.data" "$tb_tmp/first.data" && [ "$(tb_list "$tb_d")" = "perf.data perf.data.old " ]; then
		pass "rotation: a successful record moves the previous file to perf.data.old (diff perf.data.old perf.data works)"
	else
		fail "rotation: perf.data.old" "$(tb_list "$tb_d")"
	fi
	"$PMUSCOPE" diff "$tb_d/perf.data.old" "$tb_d/perf.data" >/dev/null 2>&1 &&
		pass "rotation: pmuscope diff perf.data.old perf.data" || fail "rotation: diff of the two" "exit $?"
	# as perf 6.1 does (checked by hand): any -o name rotates, an empty file is not kept
	: >"$tb_d/other.data"
	"$PMUSCOPE" record -o "$tb_d/other.data" -- true >/dev/null 2>&1
	tb_a=$(tb_list "$tb_d")
	cp "$tb_d/other.data" "$tb_tmp/other1.data"
	"$PMUSCOPE" record -o "$tb_d/other.data" -- true >/dev/null 2>&1
	if [ "$tb_a" = "other.data perf.data perf.data.old " ] && cmp -s "$tb_d/other.data.old" "$tb_tmp/other1.data"; then
		pass "rotation: -o other.data rotates to other.data.old; an empty previous file is replaced, not kept"
	else
		fail "rotation: -o other.data" "after 1: $tb_a; after 2: $(tb_list "$tb_d")"
	fi
	# -o - writes a stream and touches no file
	(cd "$tb_d" && "$PMUSCOPE" record -o - -- true 2>/dev/null | cat >/dev/null)
	[ "$(tb_list "$tb_d")" = "other.data other.data.old perf.data perf.data.old " ] &&
		pass "rotation: -o - leaves files alone" || fail "rotation: -o -" "$(tb_list "$tb_d")"
	# crash safety is kept: killed after it started, the file is in place and readable
	cp "$tb_d/perf.data" "$tb_tmp/prev.data"
	(cd "$tb_d" && exec "$PMUSCOPE" record -- "$tb_demo" 3 >/dev/null 2>&1) &
	tb_pid=$!
	tb_i=0
	while [ $tb_i -lt 100 ] && cmp -s "$tb_d/perf.data" "$tb_tmp/prev.data"; do
		sleep 0.05
		tb_i=$((tb_i + 1))
	done
	sleep 0.5
	tb_child=$(pgrep -P $tb_pid)
	kill -9 $tb_pid 2>/dev/null
	wait $tb_pid 2>/dev/null
	[ -n "$tb_child" ] && kill -9 $tb_child 2>/dev/null
	tb_n=$(perf script -i "$tb_d/perf.data" 2>/dev/null | wc -l)
	if [ "$tb_n" -gt 0 ] && cmp -s "$tb_d/perf.data.old" "$tb_tmp/prev.data" &&
		[ "$(tb_list "$tb_d")" = "other.data other.data.old perf.data perf.data.old " ]; then
		pass "rotation: SIGKILLed recorder leaves perf.data readable ($tb_n samples) and the previous one as .old"
	else
		fail "rotation: SIGKILL" "$tb_n samples; $(tb_list "$tb_d")"
	fi
}

# tb_entries CACHE: "name/kind" of every cached file, build-ids as <id>, sorted (perf's "probes" left out)
tb_entries() {
	(cd "$1" && find . -path ./.build-id -prune -o -type f -print) | sed 's|^\./||; s|/[0-9a-f]\{32,40\}/|/<id>/|' |
		grep -v '/probes$' | sort
}

tb_cache_tests() {
	tb_h=$tb_tmp/cacheA
	mkdir -p "$tb_h" "$tb_tmp/bin"
	cp "$tb_demo" "$tb_tmp/bin/pms-demo"
	HOME=$tb_h "$PMUSCOPE" record --buildid-all -o "$tb_tmp/c.data" -- "$tb_tmp/bin/pms-demo" 0.2 >/dev/null 2>&1
	tb_kid=$(perf buildid-list -k 2>/dev/null)
	tb_vid=$(perf buildid-list -i "$tb_tmp/c.data" 2>/dev/null | awk '$2 == "[vdso]" { print $1 }')
	tb_did=$(perf buildid-list -i "$tb_tmp/c.data" 2>/dev/null | awk -v p="$tb_tmp/bin/pms-demo" '$2 == p { print $1 }')
	tb_c=$tb_h/.debug
	# /proc/kallsyms itself moves (BPF programs come and go at its end): its first lines and _text are stable
	tb_k=$tb_c/[kernel.kallsyms]/$tb_kid/kallsyms
	if [ -n "$tb_kid" ] && [ "$(head -n 2000 "$tb_k" 2>/dev/null | md5sum)" = "$(head -n 2000 /proc/kallsyms | md5sum)" ] &&
		[ "$(grep ' T _text$' "$tb_k")" = "$(grep ' T _text$' /proc/kallsyms)" ] &&
		[ "$(readlink "$tb_c/.build-id/$(echo "$tb_kid" | cut -c1-2)/$(echo "$tb_kid" | cut -c3-)")" = "../../[kernel.kallsyms]/$tb_kid" ]; then
		pass "cache: [kernel.kallsyms]/$tb_kid/kallsyms is /proc/kallsyms ($(wc -l <"$tb_k") lines), linked from .build-id"
	else
		fail "cache: kallsyms" "$(ls -l "$tb_k" 2>&1); $(ls -l "$tb_c/.build-id/" 2>&1 | tr '\n' ' ')"
	fi
	if [ -n "$tb_did" ] && cmp -s "$tb_c$tb_tmp/bin/pms-demo/$tb_did/elf" "$tb_demo"; then
		pass "cache: the sampled binary as <path>/<build-id>/elf"
	else
		fail "cache: the binary" "id '$tb_did'; $(tb_entries "$tb_c" | tr '\n' ' ')"
	fi
	# perf's own cache of the same workload: the same entries, the same vDSO image
	mkdir -p "$tb_tmp/cacheP"
	HOME=$tb_tmp/cacheP perf record --buildid-all -o "$tb_tmp/cp.data" -- "$tb_tmp/bin/pms-demo" 0.2 >/dev/null 2>&1
	tb_ours=$(tb_entries "$tb_c" | tr '\n' ' ')
	tb_perfs=$(tb_entries "$tb_tmp/cacheP/.debug" | tr '\n' ' ')
	[ -n "$tb_ours" ] && [ "$tb_ours" = "$tb_perfs" ] && pass "cache: the same entries as perf record's ($tb_ours)" ||
		fail "cache: entries like perf's" "ours: $tb_ours perf: $tb_perfs"
	if [ -z "$tb_vid" ]; then
		fail "cache: [vdso]" "no [vdso] build-id in the file"
	elif cmp -s "$tb_c/[vdso]/$tb_vid/vdso" "$tb_tmp/cacheP/.debug/[vdso]/$tb_vid/vdso"; then
		pass "cache: [vdso]/$tb_vid/vdso, byte for byte perf's copy"
	else
		fail "cache: [vdso] image" "$(ls -l "$tb_c/[vdso]/$tb_vid/" "$tb_tmp/cacheP/.debug/[vdso]/$tb_vid/" 2>&1 | tr '\n' ' ')"
	fi
	# a second record of the same: nothing written (-v says so), the recording itself is no dearer
	touch "$tb_tmp/mark"
	sleep 1.1
	HOME=$tb_h "$PMUSCOPE" -v record --buildid-all -o "$tb_tmp/c2.data" -- "$tb_tmp/bin/pms-demo" 0.2 >/dev/null 2>"$tb_tmp/c2.err"
	tb_new=$(find "$tb_c" -newer "$tb_tmp/mark" | tr '\n' ' ')
	if [ -z "$tb_new" ] && grep -q 'build-id cache .*: 0 objects saved now, [1-9][0-9]* already there' "$tb_tmp/c2.err"; then
		pass "cache: a second record adds nothing ($(grep 'build-id cache' "$tb_tmp/c2.err" | sed 's/.*: 0/0/'))"
	else
		fail "cache: a second record adds nothing" "new: $tb_new; $(grep 'build-id cache' "$tb_tmp/c2.err")"
	fi
	# -N: no cache; -B: no build-ids, no cache
	HOME=$tb_tmp/cacheN "$PMUSCOPE" record -N -o "$tb_tmp/n.data" -- "$tb_demo" 0.1 >/dev/null 2>&1
	HOME=$tb_tmp/cacheN "$PMUSCOPE" record -B -o "$tb_tmp/n2.data" -- "$tb_demo" 0.1 >/dev/null 2>&1
	if [ ! -e "$tb_tmp/cacheN" ] && perf buildid-list -i "$tb_tmp/n.data" 2>/dev/null | grep -q 'pms-demo$' &&
		! perf buildid-list -i "$tb_tmp/n2.data" 2>/dev/null | grep -q '^[0-9a-f]'; then
		pass "cache: -N writes build-ids but no cache, -B neither"
	else
		fail "cache: -N/-B" "$(ls -A "$tb_tmp/cacheN" 2>&1); $(perf buildid-list -i "$tb_tmp/n.data" 2>&1 | tr '\n' ' ')"
	fi
}

# The functions of a deleted binary named from a build-id cache: ours by perf, perf's by ours.
tb_serve_tests() {
	mkdir -p "$tb_tmp/A" "$tb_tmp/B" "$tb_tmp/E" "$tb_tmp/sa" "$tb_tmp/sb"
	cp "$tb_demo" "$tb_tmp/sa/pms-demo"
	cp "$tb_demo" "$tb_tmp/sb/pms-demo"
	HOME=$tb_tmp/A "$PMUSCOPE" record -o "$tb_tmp/sa.data" -- "$tb_tmp/sa/pms-demo" 0.3 >/dev/null 2>&1
	rm "$tb_tmp/sa/pms-demo"
	tb_r=$(HOME=$tb_tmp/A perf report --stdio --sort dso,sym -i "$tb_tmp/sa.data" 2>/dev/null | grep 'pms-demo .*\[\.\] ' | head -n 1)
	tb_e=$(HOME=$tb_tmp/E perf report --stdio --sort dso,sym -i "$tb_tmp/sa.data" 2>/dev/null | grep -c 'pms-demo .*\[\.\] spin')
	case $tb_r in
	*'[.] spin'* | *'[.] hot'* | *'[.] warm'*)
		[ "$tb_e" = 0 ] && pass "serve: perf report names the deleted binary's functions from our cache ($tb_r)" ||
			fail "serve: perf report from our cache" "an empty HOME names them too: the check proves nothing" ;;
	*) fail "serve: perf report from our cache" "top pms-demo row: '$tb_r'" ;;
	esac
	HOME=$tb_tmp/B perf record -o "$tb_tmp/sb.data" -- "$tb_tmp/sb/pms-demo" 0.3 >/dev/null 2>&1
	rm "$tb_tmp/sb/pms-demo"
	tb_r=$(HOME=$tb_tmp/B "$PMUSCOPE" report --stdio --sort dso,sym -i "$tb_tmp/sb.data" 2>/dev/null | grep 'pms-demo .*\[\.\] ' | head -n 1)
	case $tb_r in
	*'[.] spin'* | *'[.] hot'* | *'[.] warm'*) pass "serve: pmuscope report names the deleted binary's functions from perf's cache ($tb_r)" ;;
	*) fail "serve: pmuscope report from perf's cache" "top pms-demo row: '$tb_r'" ;;
	esac
}

# record here, archive, then in a fresh HOME without the binary: the same report.
tb_archive_tests() {
	mkdir -p "$tb_tmp/arA" "$tb_tmp/arbin" "$tb_tmp/arC/w"
	cp "$tb_demo" "$tb_tmp/arbin/pms-demo"
	(cd "$tb_tmp/arbin" && HOME=$tb_tmp/arA "$PMUSCOPE" record -g -o perf.data -- ./pms-demo 0.3 >/dev/null 2>&1)
	(cd "$tb_tmp/arbin" && HOME=$tb_tmp/arA "$PMUSCOPE" report --stdio >"$tb_tmp/ar.before" 2>&1)
	(cd "$tb_tmp/arbin" && HOME=$tb_tmp/arA "$PMUSCOPE" archive >"$tb_tmp/ar.out" 2>&1)
	tb_rc=$?
	if [ $tb_rc = 0 ] && grep -q '^\$ tar xvf perf.data.tar.gz -C ~/.debug$' "$tb_tmp/ar.out" &&
		tar tzvf "$tb_tmp/arbin/perf.data.tar.gz" >"$tb_tmp/ar.list" 2>&1; then
		pass "archive: perf.data.tar.gz, GNU tar lists it ($(wc -l <"$tb_tmp/ar.list") members, $(stat -c %s "$tb_tmp/arbin/perf.data.tar.gz") bytes)"
	else
		fail "archive: writes perf.data.tar.gz" "exit $tb_rc: $(tr '\n' ' ' <"$tb_tmp/ar.out")"
		return
	fi
	grep -q '^l.* \.build-id/../.* -> \.\./\.\./.*pms-demo/[0-9a-f]*$' "$tb_tmp/ar.list" &&
		grep -q ' \[kernel\.kallsyms\]/[0-9a-f]*/kallsyms$' "$tb_tmp/ar.list" &&
		pass "archive: perf's layout (.build-id links, <name>/<build-id>/ entries)" ||
		fail "archive: layout" "$(head -n 6 "$tb_tmp/ar.list" | tr '\n' ' ')"
	mv "$tb_tmp/arbin/perf.data" "$tb_tmp/arbin/perf.data.tar.gz" "$tb_tmp/arC/w/"
	rm "$tb_tmp/arbin/pms-demo"
	mkdir -p "$tb_tmp/arC/.debug"
	tar xzf "$tb_tmp/arC/w/perf.data.tar.gz" -C "$tb_tmp/arC/.debug"
	(cd "$tb_tmp/arC/w" && HOME=$tb_tmp/arC "$PMUSCOPE" report --stdio >"$tb_tmp/ar.after" 2>&1)
	if cmp -s "$tb_tmp/ar.before" "$tb_tmp/ar.after" && grep -q '\[\.\] spin' "$tb_tmp/ar.after"; then
		pass "archive: round trip into a fresh HOME, binary deleted: the same report ($(grep -c '%' "$tb_tmp/ar.after") rows)"
	else
		fail "archive: round trip" "$(diff "$tb_tmp/ar.before" "$tb_tmp/ar.after" | head -n 8 | tr '\n' ' ')"
	fi
	# and perf reads the same unpacked cache
	(cd "$tb_tmp/arC/w" && HOME=$tb_tmp/arC perf report --stdio --sort sym 2>/dev/null | grep -q '\[\.\] spin') &&
		pass "archive: perf report names the functions from the unpacked archive" ||
		fail "archive: perf report from the unpacked archive" "no spin"
	# --symfs at the unpacked tree instead of the cache: the same report
	(cd "$tb_tmp/arC/w" && HOME=$tb_tmp/empty-home "$PMUSCOPE" report --stdio --symfs "$tb_tmp/arC/.debug" \
		>"$tb_tmp/ar.symfs" 2>&1)
	if cmp -s "$tb_tmp/ar.before" "$tb_tmp/ar.symfs"; then
		pass "archive: --symfs at the unpacked archive gives the same report"
	else
		fail "archive: --symfs" "$(diff "$tb_tmp/ar.before" "$tb_tmp/ar.symfs" | head -n 6 | tr '\n' ' ')"
	fi
	# "another machine": this kernel's notes say another build-id, so only the archive's kallsyms
	# can name the kernel's samples; without it they stay addresses and the summary says why
	mkdir -p "$tb_tmp/othersys/kernel"
	printf '\004\000\000\000\024\000\000\000\003\000\000\000GNU\000aaaaaaaaaaaaaaaaaaaa' >"$tb_tmp/othersys/kernel/notes"
	if grep -q '\[k\] [a-z_]' "$tb_tmp/ar.before"; then
		(cd "$tb_tmp/arC/w" && HOME=$tb_tmp/arC PMS_SYSFS_ROOT=$tb_tmp/othersys "$PMUSCOPE" report --stdio \
			>"$tb_tmp/ar.other" 2>&1)
		(cd "$tb_tmp/arC/w" && HOME=$tb_tmp/empty-home PMS_SYSFS_ROOT=$tb_tmp/othersys "$PMUSCOPE" report --stdio \
			>"$tb_tmp/ar.nocache" 2>&1)
		if cmp -s "$tb_tmp/ar.before" "$tb_tmp/ar.other" && ! grep -q '\[k\] [a-z_]' "$tb_tmp/ar.nocache" &&
			grep -q '^#   kernel: recorded on a kernel of another build-id' "$tb_tmp/ar.nocache"; then
			pass "archive: on \"another machine\" the kernel is named from the archive's kallsyms, and without it stays addresses with the reason"
		else
			fail "archive: another machine's kernel" "with archive: $(diff "$tb_tmp/ar.before" "$tb_tmp/ar.other" | head -n 3 | tr '\n' ' '); without: $(grep -m1 '\[k\]' "$tb_tmp/ar.nocache") $(grep -m1 '^#   kernel' "$tb_tmp/ar.nocache")"
		fi
	else
		skip "archive: another machine's kernel" "the demo recording has no named kernel samples"
	fi
}

# tb_same NAME FILE [-H]: buildid-list FILE equals perf's (perf's temporary vDSO names are its own: as [vdso])
tb_same() {
	tb_n=$1
	shift
	"$PMUSCOPE" buildid-list "$@" >"$tb_tmp/bl.ours" 2>/dev/null
	HOME=$tb_tmp/E perf buildid-list -f "$@" 2>/dev/null | sed 's|/tmp/perf-vdso\.so-[A-Za-z0-9]*$|[vdso]|' >"$tb_tmp/bl.perf"
	if cmp -s "$tb_tmp/bl.ours" "$tb_tmp/bl.perf"; then
		tb_same_n=$((tb_same_n + 1))
		return 0
	fi
	tb_same_bad="$tb_same_bad $tb_n($(diff "$tb_tmp/bl.ours" "$tb_tmp/bl.perf" | grep '^[<>]' | head -n 2 | tr '\n' ' '))"
	return 1
}

tb_list_tests() {
	mkdir -p "$tb_tmp/E"
	tb_same_n=0
	tb_same_bad=""
	"$PMUSCOPE" record -o "$tb_tmp/l1.data" -- "$tb_demo" 0.2 >/dev/null 2>&1
	"$PMUSCOPE" record -g -z -o "$tb_tmp/l2.data" -- "$tb_demo" 0.2 >/dev/null 2>&1
	"$PMUSCOPE" record --call-graph dwarf -o "$tb_tmp/l3.data" -- "$tb_demo" 0.2 >/dev/null 2>&1
	"$PMUSCOPE" record -a -o "$tb_tmp/l4.data" -- sleep 0.2 >/dev/null 2>&1
	"$PMUSCOPE" record -B -o "$tb_tmp/l5.data" -- "$tb_demo" 0.2 >/dev/null 2>&1
	"$PMUSCOPE" record -o - -- "$tb_demo" 0.2 >"$tb_tmp/l6.data" 2>/dev/null
	HOME=$tb_tmp/E perf record -o "$tb_tmp/p1.data" -- "$tb_demo" 0.2 >/dev/null 2>&1
	HOME=$tb_tmp/E perf record -g -o "$tb_tmp/p2.data" -- "$tb_demo" 0.2 >/dev/null 2>&1
	HOME=$tb_tmp/E perf record -a -o "$tb_tmp/p3.data" -- sleep 0.2 >/dev/null 2>&1
	HOME=$tb_tmp/E perf record -B -o "$tb_tmp/p4.data" -- "$tb_demo" 0.2 >/dev/null 2>&1
	HOME=$tb_tmp/E perf record -o - -- "$tb_demo" 0.2 >"$tb_tmp/p5.data" 2>/dev/null
	for tb_f in l1 l2 l3 l4 l5 l6 p1 p2 p3 p4 p5; do
		tb_same "$tb_f" -i "$tb_tmp/$tb_f.data"
		tb_same "$tb_f-H" -H -i "$tb_tmp/$tb_f.data"
	done
	[ -z "$tb_same_bad" ] && pass "buildid-list: byte for byte perf buildid-list's on $tb_same_n listings of files both record here (default and -H; plain, -g -z, dwarf, -a, -B, pipes)" ||
		fail "buildid-list: like perf's on files recorded here" "$tb_same_bad"
	[ "$("$PMUSCOPE" buildid-list -k)" = "$(perf buildid-list -k)" ] && pass "buildid-list -k: perf's ($(perf buildid-list -k))" ||
		fail "buildid-list -k" "ours $("$PMUSCOPE" buildid-list -k 2>&1), perf $(perf buildid-list -k 2>&1)"
	[ "$("$PMUSCOPE" buildid-list -i "$tb_demo")" = "$(perf buildid-list -i "$tb_demo")" ] &&
		pass "buildid-list -i ELF: the file's build-id, as perf" || fail "buildid-list -i ELF" "$("$PMUSCOPE" buildid-list -i "$tb_demo" 2>&1)"
	# the real-world corpus: every file perf lists (perf 6.1 cannot read the Intel PT stream at all)
	tb_corpus=$TOP/tests/fixtures/perfdata/quipper
	if [ ! -d "$tb_corpus" ]; then
		skip "buildid-list: corpus" "no $tb_corpus"
		return
	fi
	tb_same_n=0
	tb_same_bad=""
	for tb_f in "$tb_corpus"/*; do
		case $tb_f in *piped.intel_pt*) continue ;; esac
		tb_same "$(basename "$tb_f")" -i "$tb_f"
		tb_same "$(basename "$tb_f")-H" -H -i "$tb_f"
	done
	[ -z "$tb_same_bad" ] && pass "buildid-list: byte for byte perf's on $tb_same_n listings of the quipper corpus (default and -H)" ||
		fail "buildid-list: like perf's on the corpus" "$tb_same_bad"
}

# A kernel with modules, from fixture roots over the real /proc and /sys (this VM has none):
# perf's module MMAPs (pid -1, the module's file), its build-id (kernel cpumode), its cache entry.
tb_modules_tests() {
	tb_m=$tb_tmp/modfx
	mkdir -p "$tb_m/proc/sys/kernel" "$tb_m/sys/module/fake_mod/notes" "$tb_m/lib/modules/9.9-fx/kernel/drivers"
	for tb_e in kallsyms iomem cpuinfo meminfo stat; do ln -s "/proc/$tb_e" "$tb_m/proc/$tb_e"; done
	for tb_e in /proc/sys/kernel/*; do
		[ "$(basename "$tb_e")" = osrelease ] || ln -s "$tb_e" "$tb_m/proc/sys/kernel/$(basename "$tb_e")"
	done
	echo 9.9-fx >"$tb_m/proc/sys/kernel/osrelease"
	printf 'fake_mod 16384 0 - Live 0xffffffffc0200000\nnofile 8192 0 - Live 0xffffffffc0300000\n' >"$tb_m/proc/modules"
	for tb_e in devices bus kernel; do ln -s "/sys/$tb_e" "$tb_m/sys/$tb_e"; done
	# the module's file: any ELF with a build-id will do; sysfs carries the same build-id in its notes
	tb_ko=$tb_m/lib/modules/9.9-fx/kernel/drivers/fake-mod.ko
	cp "$tb_demo" "$tb_ko"
	echo "kernel/drivers/fake-mod.ko:" >"$tb_m/lib/modules/9.9-fx/modules.dep"
	tb_kid=$(perf buildid-list -i "$tb_ko")
	python3 -c 'import struct, sys; b = bytes.fromhex(sys.argv[1]); sys.stdout.buffer.write(struct.pack("<III", 4, len(b), 3) + b"GNU\0" + b)' \
		"$tb_kid" >"$tb_m/sys/module/fake_mod/notes/.note.gnu.build-id"
	PMS_PROCFS_ROOT=$tb_m/proc PMS_SYSFS_ROOT=$tb_m/sys PMS_MODULES_ROOT=$tb_m/lib/modules HOME=$tb_m/home \
		"$PMUSCOPE" record --buildid-all -o "$tb_m/m.data" -- true >/dev/null 2>&1
	tb_mm=$(perf script --show-mmap-events -i "$tb_m/m.data" 2>/dev/null | sed -n 's/.*PERF_RECORD_MMAP -1\/0: //p' | grep -v kallsyms | tr '\n' '|')
	[ "$tb_mm" = "[0xffffffffc0200000(0x4000) @ 0]: x $tb_ko|[0xffffffffc0300000(0x2000) @ 0]: x [nofile]|" ] &&
		pass "modules (fixture): one MMAP each as perf synthesizes them: pid -1, the file from modules.dep, else [name]" ||
		fail "modules (fixture): MMAPs" "$tb_mm"
	# the build-id entry: perf lists it; its misc is kernel cpumode with the size flag
	tb_misc=$(python3 -c 'import sys; d = open(sys.argv[1], "rb").read(); i = d.rfind(sys.argv[2].encode() + b"\0"); print(hex(int.from_bytes(d[i - 36 + 4:i - 36 + 6], "little")) if i > 0 else "none")' \
		"$tb_m/m.data" "$tb_ko")
	if perf buildid-list -i "$tb_m/m.data" 2>/dev/null | grep -qx "$tb_kid $tb_ko" && [ "$tb_misc" = 0x8001 ]; then
		pass "modules (fixture): HEADER_BUILD_ID $tb_kid $tb_ko, misc $tb_misc (kernel cpumode)"
	else
		fail "modules (fixture): build-id" "misc $tb_misc; $(perf buildid-list -i "$tb_m/m.data" 2>&1 | tr '\n' ' ')"
	fi
	cmp -s "$tb_m/home/.debug$tb_ko/$tb_kid/elf" "$tb_ko" && [ ! -e "$tb_m/home/.debug$tb_ko/$tb_kid/debug" ] &&
		pass "modules (fixture): the module file cached as <path>/<build-id>/elf" ||
		fail "modules (fixture): cache" "$(find "$tb_m/home/.debug" -path '*fake*' 2>&1 | tr '\n' ' ')"
	if ! grep -q . /proc/modules 2>/dev/null; then
		skip "modules: this kernel's own" "no module is loaded here (no /proc/modules)"
		return
	fi
	"$PMUSCOPE" record -a --buildid-all -o "$tb_tmp/mod.data" -- sleep 0.1 >/dev/null 2>&1
	tb_n=$(perf buildid-list -i "$tb_tmp/mod.data" 2>/dev/null | grep -c '\.ko')
	[ "$tb_n" -gt 0 ] && pass "modules: record --buildid-all writes this kernel's module build-ids ($tb_n)" ||
		fail "modules: this kernel's build-ids" "none"
}

tb_main() {
	if ! command -v perf >/dev/null 2>&1; then
		skip "buildid" "perf not installed (the oracle)"
		return
	fi
	tb_tmp=$(mktemp -d)
	for tb_f in ${TB_ONLY:-rotation cache serve archive list modules}; do
		"tb_${tb_f}_tests"
	done
	rm -rf "$tb_tmp"
}

tb_main
