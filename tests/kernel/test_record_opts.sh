# SPDX-License-Identifier: MIT
# Kernel tests of perf record's everyday options in `pmuscope record`, against
# perf 6.1 recording the same command with the same options:
#  - the attrs (perf evlist -v of both files) for every option that sets
#    bits: -T, -P, -d, --sample-cpu, --phys-data, page sizes, --user-regs,
#    -I, -W, -R, -s, -n, --all-user/--all-kernel, -k, --switch-events,
#    --namespaces, --all-cgroups, --no-buffering, the call chain halves...;
#  - perf reads what the options put in our files: -I registers
#    (perf script -F iregs), -d fault addresses (perf script -F addr), -s
#    per-thread counts (perf report -T);
#  - --switch-output=signal makes one complete file per SIGUSR2 plus the
#    last, named as perf names them, --switch-max-files keeps the newest;
#    --max-size stops at the size with a complete file; --timestamp-filename;
#    --overwrite keeps the newest records of each ring;
#    -D starts late and still names the command's functions; -u records a
#    user's processes; --filter filters a tracepoint; -b/-j are refused at open with the reason where the
#    PMU has no branch stack, as perf refuses them.
# No check depends on CPU speed: counts of files, shares and sizes only.
# Sourced by tests/kernel/run.sh; every function and variable is rop_-prefixed.

# rop_attrs FILE: "key=value" lines of the first non-dummy event's attr, without
# perf's own read_format bits (ID|LOST) and the records we never write
# (ksymbol, bpf_event), and without the ids
rop_attrs() {
	perf evlist -v -i "$1" 2>/dev/null | grep -v '^dummy' | head -n 1 | python3 -c '
import sys
skip = {"ksymbol", "bpf_event", "size"}
line = sys.stdin.read().strip()
name, _, rest = line.partition(": ")
for kv in rest.split(", "):
    k, _, v = kv.partition(": ")
    if k in skip:
        continue
    if k == "read_format":
        v = "|".join(b for b in v.split("|") if b not in ("ID", "LOST"))
        if not v:
            continue
    print("%s=%s" % (k, v))
'
}

# rop_same_attrs "OPTIONS": one PASS/FAIL for the attr of cpu-clock recorded with OPTIONS
rop_same_attrs() {
	# shellcheck disable=SC2086
	"$PMUSCOPE" record -q -B -e cpu-clock $1 -o "$rop_tmp/o.data" -- true >/dev/null 2>"$rop_tmp/o.err" ||
		{ fail "record opts attrs '$1'" "pmuscope: $(head -n 2 "$rop_tmp/o.err")"; return; }
	# shellcheck disable=SC2086
	perf record -q -B -e cpu-clock $1 -o "$rop_tmp/p.data" -- true >/dev/null 2>"$rop_tmp/p.err" ||
		{ fail "record opts attrs '$1'" "perf: $(head -n 2 "$rop_tmp/p.err")"; return; }
	rop_attrs "$rop_tmp/o.data" >"$rop_tmp/o.attr"
	rop_attrs "$rop_tmp/p.data" >"$rop_tmp/p.attr"
	if [ -s "$rop_tmp/p.attr" ] && cmp -s "$rop_tmp/o.attr" "$rop_tmp/p.attr"; then
		pass "record opts attrs '$1': as perf's ($(grep -E '^(sample_type|read_format|sample_regs_[a-z]*)=' "$rop_tmp/o.attr" | tr '\n' ' ' | sed 's/ $//'))"
	else
		fail "record opts attrs '$1'" "ours < > perf's: $(diff "$rop_tmp/o.attr" "$rop_tmp/p.attr" | grep '^[<>]' | tr '\n' ' ')"
	fi
}

# rop_wait_file PATH: until it exists (the recording has started), at most ~10 s
rop_wait_file() {
	rop_n=0
	while [ ! -e "$1" ] && [ $rop_n -lt 200 ]; do
		sleep 0.05
		rop_n=$((rop_n + 1))
	done
}

rop_main() {
	if ! command -v perf >/dev/null 2>&1 || ! command -v python3 >/dev/null 2>&1; then
		skip "record opts" "perf or python3 not installed (the oracle)"
		return
	fi
	rop_tmp=$(mktemp -d)
	rop_demo=$BUILD_DIR/demo

	# options that go together in one recording each (a perf record costs ~1 s here)
	for rop_o in "-T --sample-cpu -d --phys-data --data-page-size --code-page-size" \
		"-c 100000 -P --no-timestamp --sample-identifier" "--user-regs -I -W --transaction -R" \
		"--user-regs=ax,bx,ip -Iax,sp" "-s --all-user -k mono --switch-events --namespaces --all-cgroups" \
		"--running-time -n --all-kernel -k raw --no-buffering -m 16,16" "-g --kernel-callchains -F max -z" \
		"-g --user-callchains --overwrite"; do
		case $(uname -m):$rop_o in
		aarch64:*ax*) continue ;; # x86 register names
		esac
		rop_same_attrs "$rop_o"
	done

	# -k: the CLOCKID and CLOCK_DATA features perf's header shows
	"$PMUSCOPE" record -q -e cpu-clock -k mono -o "$rop_tmp/k.data" -- true >/dev/null 2>&1
	perf record -q -e cpu-clock -k mono -o "$rop_tmp/kp.data" -- true >/dev/null 2>&1
	perf report --header-only -i "$rop_tmp/k.data" 2>/dev/null | grep '^# clockid' >"$rop_tmp/k.o"
	perf report --header-only -i "$rop_tmp/kp.data" 2>/dev/null | grep '^# clockid' >"$rop_tmp/k.p"
	if [ "$(wc -l <"$rop_tmp/k.p")" = 2 ] && cmp -s "$rop_tmp/k.o" "$rop_tmp/k.p"; then
		pass "record -k mono: perf's header shows our clock as its own ($(tr '\n' ' ' <"$rop_tmp/k.o" | sed 's/# //g; s/ $//'))"
	else
		fail "record -k mono" "header ours: $(tr '\n' ' ' <"$rop_tmp/k.o"); perf's: $(tr '\n' ' ' <"$rop_tmp/k.p")"
	fi

	# -I: perf script prints the registers of our samples
	"$PMUSCOPE" record -q -e cpu-clock -I -o "$rop_tmp/i.data" -- "$rop_demo/pms-loops" --seconds 0.3 >/dev/null 2>&1
	rop_n=$(perf script -i "$rop_tmp/i.data" -F ip 2>/dev/null | wc -l)
	rop_r=$(perf script -i "$rop_tmp/i.data" -F ip,iregs 2>/dev/null | grep -c 'ABI:2 .*IP:0x')
	if [ "$rop_n" -gt 0 ] && [ "$rop_r" = "$rop_n" ]; then
		pass "record -I: perf script -F iregs shows the registers of all $rop_n samples"
	else
		fail "record -I" "$rop_r of $rop_n samples with registers in perf script -F iregs"
	fi

	# -d: every page-fault sample carries its fault address, as in perf's file
	for rop_t in pmuscope perf; do
		if [ $rop_t = pmuscope ]; then rop_cmd=$PMUSCOPE; else rop_cmd=perf; fi
		"$rop_cmd" record -q -e page-faults -c 1 -d -o "$rop_tmp/d.$rop_t" -- "$rop_demo/pms-faults" 2000 >/dev/null 2>&1
		perf script -i "$rop_tmp/d.$rop_t" -F addr 2>/dev/null | awk '{ n++; if ($1 !~ /^0+$/) a++ } END { print n + 0, a + 0 }' >"$rop_tmp/d.$rop_t.n"
	done
	read -r rop_on rop_oa <"$rop_tmp/d.pmuscope.n"
	read -r rop_pn rop_pa <"$rop_tmp/d.perf.n"
	if [ "$rop_on" -ge 2000 ] && [ "$rop_oa" = "$rop_on" ] && [ "$rop_pa" = "$rop_pn" ]; then
		pass "record -d: perf script -F addr shows a fault address in all $rop_on page-fault samples (perf's file: $rop_pa of $rop_pn)"
	else
		fail "record -d" "ours: $rop_oa of $rop_on samples with an address; perf's: $rop_pa of $rop_pn"
	fi

	# -s: perf report -T lists every thread's count, as for perf's own file
	for rop_t in pmuscope perf; do
		if [ $rop_t = pmuscope ]; then rop_cmd=$PMUSCOPE; else rop_cmd=perf; fi
		"$rop_cmd" record -q -e cpu-clock -s -o "$rop_tmp/s.$rop_t" -- "$rop_demo/pms-threads" 4 20000000 >/dev/null 2>&1
		perf report -T -i "$rop_tmp/s.$rop_t" --stdio 2>/dev/null |
			awk '/PID +TID +cpu-clock/ { on = 1; next } on && NF == 3 { print }' >"$rop_tmp/s.$rop_t.rows"
	done
	rop_or=$(wc -l <"$rop_tmp/s.pmuscope.rows")
	rop_pr=$(wc -l <"$rop_tmp/s.perf.rows")
	# the workers did the same work: each within a factor of 2 of their mean (the main thread waits)
	rop_even=$(awk '{ v[n++] = $3; if ($3 > max) max = $3 } END { for (i = 0; i < n; i++) if (v[i] > max / 4) { w[k++] = v[i]; s += v[i] }
		if (k < 3) { print "no"; exit } m = s / k; for (i = 0; i < k; i++) if (w[i] < m / 2 || w[i] > m * 2) { print "no"; exit } print "yes" }' "$rop_tmp/s.pmuscope.rows")
	# perf report -T leaves out a thread or the main one, for perf's files as for ours: 4 of 5 tids
	if [ "$rop_or" -ge 4 ] && [ "$rop_pr" -ge 4 ] && [ "$rop_even" = yes ]; then
		pass "record -s: perf report -T shows $rop_or per-thread counts (perf's file: $rop_pr), the workers' even"
	else
		fail "record -s" "perf report -T rows: ours $rop_or, perf's $rop_pr; workers even: $rop_even"
	fi

	# --switch-output=signal: two SIGUSR2 make three files, each complete
	mkdir "$rop_tmp/sw"
	"$PMUSCOPE" record -q -e cpu-clock --switch-output -o "$rop_tmp/sw/o.data" -- "$rop_demo/pms-loops" --seconds 30 >/dev/null 2>"$rop_tmp/sw.err" &
	rop_pid=$!
	rop_wait_file "$rop_tmp/sw/o.data"
	sleep 0.3
	kill -USR2 $rop_pid
	sleep 0.3
	kill -USR2 $rop_pid
	sleep 0.3
	kill -TERM $rop_pid
	wait $rop_pid
	rop_files=$(ls "$rop_tmp/sw" | grep -c '^o\.data\.[0-9]\{16\}$')
	rop_ok=0
	for rop_f in "$rop_tmp"/sw/o.data.*; do
		if perf report -i "$rop_f" --stdio 2>/dev/null | grep -q 'two_loops' &&
			"$PMUSCOPE" report -i "$rop_f" --stdio 2>/dev/null | grep -q 'two_loops'; then
			rop_ok=$((rop_ok + 1))
		fi
	done
	if [ "$rop_files" = 3 ] && [ "$rop_ok" = 3 ] && [ ! -e "$rop_tmp/sw/o.data" ]; then
		pass "record --switch-output: two SIGUSR2 made 3 files o.data.<timestamp>, each read by perf report and pmuscope report (two_loops named)"
	else
		fail "record --switch-output" "$rop_files files named o.data.<16 digits>, $rop_ok read with two_loops named: $(ls "$rop_tmp/sw" | tr '\n' ' ') $(head -n 2 "$rop_tmp/sw.err")"
	fi

	# --switch-max-files 2: four files made, the two newest kept
	mkdir "$rop_tmp/mx"
	"$PMUSCOPE" record -q -e cpu-clock --switch-output=signal --switch-max-files 2 -o "$rop_tmp/mx/o.data" -- "$rop_demo/pms-loops" --seconds 30 >/dev/null 2>&1 &
	rop_pid=$!
	rop_wait_file "$rop_tmp/mx/o.data"
	for rop_i in 1 2 3; do
		sleep 0.2
		kill -USR2 $rop_pid
	done
	sleep 0.2
	kill -TERM $rop_pid
	wait $rop_pid
	rop_files=$(ls "$rop_tmp/mx" | grep -c '^o\.data\.[0-9]\{16\}$')
	rop_last=$(ls "$rop_tmp/mx" | sort | tail -n 1)
	if [ "$rop_files" = 2 ] && perf report -i "$rop_tmp/mx/$rop_last" --stdio >/dev/null 2>&1; then
		pass "record --switch-max-files 2: of 4 files the 2 newest are kept, perf reads them"
	else
		fail "record --switch-max-files" "$rop_files files left: $(ls "$rop_tmp/mx" | tr '\n' ' ')"
	fi

	# --max-size: stops at the size (one ring drain over at most), the command stopped, the file complete
	"$PMUSCOPE" record -e cpu-clock -m 8 --max-size=40K -o "$rop_tmp/m.data" -- "$rop_demo/pms-loops" --seconds 60 >/dev/null 2>"$rop_tmp/m.err"
	rop_rc=$?
	rop_size=$(stat -c %s "$rop_tmp/m.data")
	rop_samples=$(perf report -i "$rop_tmp/m.data" --stdio 2>/dev/null | grep -c 'two_loops')
	if [ $rop_rc = 0 ] && [ "$rop_size" -ge 40960 ] && [ "$rop_size" -lt $((40960 + 2 * 8 * 4096 + 16384)) ] &&
		[ "$rop_samples" -ge 1 ] && grep -q 'max-size' "$rop_tmp/m.err"; then
		pass "record --max-size=40K: stopped with a $rop_size-byte file perf reports, exit 0"
	else
		fail "record --max-size" "exit $rop_rc, $rop_size bytes, perf report two_loops lines: $rop_samples; $(head -n 2 "$rop_tmp/m.err")"
	fi

	# --overwrite: a flight recorder; the 4-page ring keeps the newest records only, read at the end
	"$PMUSCOPE" record -q -e cpu-clock -m 4 --overwrite -o "$rop_tmp/ow.data" -- "$rop_demo/pms-loops" --seconds 1 >/dev/null 2>&1
	rop_n=$(perf script -i "$rop_tmp/ow.data" -F time 2>/dev/null | wc -l)
	"$PMUSCOPE" record -q -e cpu-clock -m 4 -o "$rop_tmp/fw.data" -- "$rop_demo/pms-loops" --seconds 1 >/dev/null 2>&1
	rop_all=$(perf script -i "$rop_tmp/fw.data" -F time 2>/dev/null | wc -l)
	# a sample is 40 bytes here: at most 16 KiB / 40 of them per CPU's ring, and fewer than the whole run's
	rop_max=$(( $(getconf _NPROCESSORS_ONLN) * 16384 / 40 ))
	if [ "$rop_n" -gt 100 ] && [ "$rop_n" -le "$rop_max" ] && [ "$rop_all" -gt "$rop_n" ]; then
		pass "record --overwrite -m 4: perf reads the newest $rop_n samples of the rings (at most $rop_max; $rop_all in a normal run)"
	else
		fail "record --overwrite" "$rop_n samples read from the overwrite file, $rop_all without --overwrite"
	fi

	# --timestamp-filename: the file gets perf's suffix
	mkdir "$rop_tmp/ts"
	"$PMUSCOPE" record -q -e cpu-clock --timestamp-filename -o "$rop_tmp/ts/o.data" -- true >/dev/null 2>&1
	rop_f=$(ls "$rop_tmp/ts")
	if echo "$rop_f" | grep -qx 'o\.data\.[0-9]\{16\}' && perf report -i "$rop_tmp/ts/$rop_f" --stdio >/dev/null 2>&1; then
		pass "record --timestamp-filename: $rop_f, read by perf"
	else
		fail "record --timestamp-filename" "files: $rop_f"
	fi

	# -D: sampling starts late, and the command's functions are still named (its maps described at enable)
	"$PMUSCOPE" record -q -e cpu-clock -D 200 -o "$rop_tmp/dl.data" -- "$rop_demo/pms-loops" --seconds 0.6 >/dev/null 2>&1
	rop_attr=$(perf evlist -v -i "$rop_tmp/dl.data" 2>/dev/null | grep -c 'enable_on_exec')
	rop_share=$(perf report -i "$rop_tmp/dl.data" --stdio --sort sym 2>/dev/null | awk '/two_loops/ { sub("%", "", $1); print int($1) }' | head -n 1)
	if [ "$rop_attr" = 0 ] && [ "${rop_share:-0}" -ge 80 ]; then
		pass "record -D 200: no enable_on_exec, perf report names two_loops ($rop_share%)"
	else
		fail "record -D" "enable_on_exec lines: $rop_attr, two_loops share: ${rop_share:-none}"
	fi

	# -u: the processes of a user, as perf records them: nobody's busy process is in the file, the
	# same program running as root beside it is not, nor any other process not owned by nobody
	# (another of nobody's, such as a daemon, may be: it is that user's too)
	if command -v setpriv >/dev/null 2>&1 && id nobody >/dev/null 2>&1; then
		setpriv --reuid=nobody --regid=nogroup --clear-groups "$rop_demo/pms-loops" --seconds 3 >/dev/null 2>&1 &
		rop_pid=$!
		"$rop_demo/pms-loops" --seconds 3 >/dev/null 2>&1 &
		rop_root=$!
		sleep 0.3
		"$PMUSCOPE" record -q -e cpu-clock -u nobody --duration 0.5 -o "$rop_tmp/u.data" >/dev/null 2>&1
		perf report -i "$rop_tmp/u.data" --stdio --sort pid 2>/dev/null | grep '%' >"$rop_tmp/u.pids"
		rop_comms=$(grep -c "$rop_pid:pms-loops" "$rop_tmp/u.pids")
		rop_other=0
		for rop_p in $(sed -n 's/.* \([0-9][0-9]*\):.*/\1/p' "$rop_tmp/u.pids"); do
			[ "$rop_p" = "$rop_pid" ] && continue
			# the root workload, or a process (still there) owned by someone else
			if [ "$rop_p" = "$rop_root" ] ||
				awk '/^Uid:/ { exit !($2 != 65534) }' "/proc/$rop_p/status" 2>/dev/null; then
				rop_other=$((rop_other + 1))
			fi
		done
		kill $rop_pid $rop_root 2>/dev/null
		wait $rop_pid 2>/dev/null
		wait $rop_root 2>/dev/null
		if [ "$rop_comms" = 1 ] && [ "$rop_other" = 0 ]; then
			pass "record -u nobody: nobody's process $rop_pid is in the file, the root one $rop_root and no other user's process is"
		else
			fail "record -u" "lines of $rop_pid: $rop_comms, of processes not nobody's: $rop_other ($(tr '\n' '|' <"$rop_tmp/u.pids"))"
		fi
	else
		skip "record -u" "no setpriv or no user nobody to run a workload as"
	fi

	# --filter: the kernel drops what the filter rejects, for our file as for perf's
	if [ -d /sys/kernel/tracing/events/sched ] || [ -d /sys/kernel/debug/tracing/events/sched ]; then
		rop_res=
		for rop_f in "child_pid > 0" "child_pid < 0"; do
			for rop_t in pmuscope perf; do
				if [ $rop_t = pmuscope ]; then rop_cmd=$PMUSCOPE; else rop_cmd=perf; fi
				"$rop_cmd" record -q -e sched:sched_process_fork --filter "$rop_f" -o "$rop_tmp/f.data" -- "$rop_demo/pms-threads" 4 1000 >/dev/null 2>&1
				rop_res="$rop_res $(perf script -i "$rop_tmp/f.data" -F event 2>/dev/null | grep -c sched_process_fork)"
			done
		done
		# ours and perf's: 4 forks (the 4 threads) kept, then none
		if [ "$rop_res" = " 4 4 0 0" ]; then
			pass "record --filter: 'child_pid > 0' keeps the 4 thread forks, 'child_pid < 0' none, as in perf's files"
		else
			fail "record --filter" "forks (ours perf's, keep then drop): $rop_res; want 4 4 0 0"
		fi
	else
		skip "record --filter" "tracefs is not mounted"
	fi

	# -b / -j: where perf cannot sample branch stacks, neither can we, and we say why
	if perf record -q -e cpu-clock -b -o "$rop_tmp/b.perf" -- true >/dev/null 2>&1; then
		rop_same_attrs "-b"
		rop_same_attrs "-j any_call,u"
	else
		"$PMUSCOPE" record -e cpu-clock -j any_call,u -o "$rop_tmp/b.data" -- true >/dev/null 2>"$rop_tmp/b.err"
		rop_rc=$?
		if [ $rop_rc = 1 ] && grep -q 'branch stack' "$rop_tmp/b.err" && grep -q 'Intel LBR' "$rop_tmp/b.err" &&
			[ ! -e "$rop_tmp/b.data" ]; then
			pass "record -j any_call,u: refused at open as perf refuses it ($(head -n 1 "$rop_tmp/b.err" | cut -c1-100)...)"
		else
			fail "record -j" "exit $rop_rc: $(cat "$rop_tmp/b.err")"
		fi
	fi
	rm -rf "$rop_tmp"
}

rop_main
