# SPDX-License-Identifier: MIT
# Kernel tests of `pmuscope stat` on bad input and faults: permission denied
# (an unprivileged user under perf_event_paranoid 2 and 3; the sysctl is
# restored by a trap), too many open files, unreadable or malformed sysfs
# files (a PMS_SYSFS_ROOT copy of this machine's tree). Each must give a clear
# message saying what to do, the documented exit code (docs/exit-codes.md),
# no crash, and no partial table presented as complete. perf is the oracle
# for what the kernel allows. Sourced by tests/kernel/run.sh (sf_ prefix).

sf_demo=$BUILD_DIR/demo
sf_paranoid_file=/proc/sys/kernel/perf_event_paranoid

sf_implemented() {
	sf_o=$("$PMUSCOPE" stat -e task-clock -- true 2>&1)
	sf_r=$?
	! printf '%s\n' "$sf_o" | grep -qi 'not implemented' && [ $sf_r -eq 0 ]
}

# sf_counts FILE: does FILE show a counted value (a table line or a CSV value)?
sf_counts() {
	grep -qE '^ *[0-9][0-9,.]* +(msec +)?[a-z][-a-z0-9_:/=]*( |$)|^[0-9][0-9.]*,' "$1"
}

# sf_expect NAME WANT_RC REGEX [REGEX2]: check "$sf_tmp/o" after a run whose exit
# status is $sf_rc: the status, no crash, no counts, and the message matching.
sf_expect() {
	sf_n=$1 sf_want=$2 sf_re=$3 sf_re2=${4:-.}
	if [ $sf_rc -ge 128 ] && [ $sf_rc -ne 128 ] && [ $sf_rc -ne 129 ]; then
		fail "$sf_n" "crashed or killed (exit $sf_rc): $(head -c 300 "$sf_tmp/o")"
	elif ! printf '%s\n' "$sf_want" | grep -qw -- "$sf_rc"; then
		fail "$sf_n" "exit $sf_rc, want $sf_want: $(head -c 300 "$sf_tmp/o")"
	elif sf_counts "$sf_tmp/o"; then
		fail "$sf_n" "counts printed despite the failure: $(head -c 300 "$sf_tmp/o")"
	elif ! grep -qiE -- "$sf_re" "$sf_tmp/o" || ! grep -qiE -- "$sf_re2" "$sf_tmp/o"; then
		fail "$sf_n" "message lacks /$sf_re/ and /$sf_re2/: $(head -c 300 "$sf_tmp/o")"
	else
		pass "$sf_n (exit $sf_rc: $(grep -iE -- "$sf_re" "$sf_tmp/o" | head -1 | cut -c1-110))"
	fi
}

# as nobody: the binaries must be reachable by an unprivileged user
sf_nobody() {
	setpriv --reuid=nobody --regid=nogroup --clear-groups "$@"
}

# sf_vv FILE: successful opens of -vv output (attr block + open line), the
# command's pid as P, fd numbers renamed in order, flags ignored
sf_vv() {
	awk '
		/^perf_event_attr:/ { blk = $0 "\n"; next }
		/^  [a-z_0-9]+ +[^ ]/ { blk = blk $0 "\n"; next }
		/^sys_perf_event_open: pid/ {
			if ($0 !~ / = [0-9]+$/) { blk = ""; next }
			n = split($0, w, " ")
			out = ""
			for (i = 1; i <= n; i++) {
				x = w[i]
				if (w[i - 1] == "pid" && x != "-1") x = "P"
				if ((w[i - 1] == "group_fd" || w[i - 1] == "=") && x != "-1") {
					if (!(x in fd)) fd[x] = "F" (++nfd)
					x = fd[x]
				}
				if (w[i - 1] == "flags") x = "*"
				out = out (i > 1 ? " " : "") x
			}
			printf "%s%s\n", blk, out
			blk = ""
		}' "$1"
}

sf_emfile_tests() {
	sf_evs=task-clock,cpu-clock,page-faults,context-switches,cpu-migrations,minor-faults,major-faults,alignment-faults,emulation-faults,dummy
	# 10 events x ncpu fds for -a, with room for 16 in all
	(ulimit -n 16 && exec "$PMUSCOPE" stat -a -e "$sf_evs" -- true) >"$sf_tmp/o" 2>&1
	sf_rc=$?
	(ulimit -n 16 && exec perf stat -a -e "$sf_evs" -- true) >"$sf_tmp/p" 2>&1
	if ! grep -qiE 'open files|file descriptors' "$sf_tmp/p"; then
		skip "stat -a with ulimit -n 16: too many open files" "perf does not hit EMFILE here: $(head -c 100 "$sf_tmp/p")"
	else
		sf_expect "stat -a, 10 events, ulimit -n 16: EMFILE message" 1 'open files|file descriptors' "ulimit -n [0-9]+"
		# the hint's number really is enough
		sf_lim=$(sed -n "s/.*ulimit -n \([0-9][0-9]*\).*/\1/p" "$sf_tmp/o" | head -1)
		if [ -n "$sf_lim" ]; then
			(ulimit -n "$sf_lim" && exec "$PMUSCOPE" stat -a -x, -e "$sf_evs" -- true) >"$sf_tmp/o" 2>&1
			sf_rc=$?
			if [ $sf_rc -eq 0 ] && [ "$(grep -cE '^[0-9.]+,[^,]*,[a-z-]+,' "$sf_tmp/o")" -eq 10 ]; then
				pass "stat -a, 10 events: the hinted 'ulimit -n $sf_lim' is enough"
			else
				fail "stat -a: the hinted 'ulimit -n $sf_lim' is enough" "exit $sf_rc: $(head -c 200 "$sf_tmp/o")"
			fi
		fi
	fi
	# only the soft limit is low: raised to the hard limit, as perf does
	(ulimit -Sn 16 && exec "$PMUSCOPE" stat -a -x, -e "$sf_evs" -- true) >"$sf_tmp/o" 2>&1
	sf_rc=$?
	if [ $sf_rc -eq 0 ] && [ "$(grep -cE '^[0-9.]+,[^,]*,[a-z-]+,' "$sf_tmp/o")" -eq 10 ]; then
		pass "stat -a, 10 events, soft ulimit -n 16: raised to the hard limit, 10 counts"
	else
		fail "stat -a, soft ulimit -n 16: raised to the hard limit" "exit $sf_rc: $(head -c 300 "$sf_tmp/o")"
	fi
	# the workload alone (no -a) needs 10 fds: fits in 32, so it must work
	(ulimit -n 32 && exec "$PMUSCOPE" stat -x, -e "$sf_evs" -- true) >"$sf_tmp/o" 2>&1
	sf_rc=$?
	if [ $sf_rc -eq 0 ] && [ "$(grep -c ',task-clock,\|,page-faults,' "$sf_tmp/o")" -eq 2 ]; then
		pass "stat, 10 events, ulimit -n 32: fits and counts"
	else
		fail "stat, 10 events, ulimit -n 32: fits and counts" "exit $sf_rc: $(head -c 300 "$sf_tmp/o")"
	fi
}

sf_restore_paranoid() {
	[ -n "${sf_paranoid_saved:-}" ] && echo "$sf_paranoid_saved" >"$sf_paranoid_file"
}

sf_perm_tests() {
	if ! command -v setpriv >/dev/null 2>&1 || ! id nobody >/dev/null 2>&1; then
		skip "stat: permission tests" "setpriv or user nobody missing"
		return
	fi
	if ! sf_nobody test -x "$PMUSCOPE" || ! sf_nobody test -x "$sf_demo/pms-threads"; then
		skip "stat: permission tests" "$PMUSCOPE not executable by nobody"
		return
	fi
	sf_paranoid_saved=$(cat "$sf_paranoid_file")
	trap 'sf_restore_paranoid' EXIT
	trap 'sf_restore_paranoid; exit 130' INT
	trap 'sf_restore_paranoid; exit 143' TERM

	echo 2 >"$sf_paranoid_file"
	sf_nobody "$PMUSCOPE" stat -a -e task-clock -- true >"$sf_tmp/o" 2>&1
	sf_rc=$?
	sf_expect "paranoid 2, unprivileged stat -a: refused, names perf_event_paranoid" 1 'perf_event_paranoid' 'sysctl|CAP_PERFMON|root'
	# the hinted sysctl value really lets the same command count
	sf_val=$(sed -n 's/.*sysctl kernel\.perf_event_paranoid=\(-*[0-9]\).*/\1/p' "$sf_tmp/o" | head -1)
	if [ -n "$sf_val" ]; then
		echo "$sf_val" >"$sf_paranoid_file"
		sf_nobody "$PMUSCOPE" stat -a -x, -e task-clock -- true >"$sf_tmp/o" 2>&1
		sf_rc=$?
		echo 2 >"$sf_paranoid_file"
		if [ $sf_rc -eq 0 ] && grep -qE '^[0-9.]+,msec,task-clock' "$sf_tmp/o"; then
			pass "the hinted 'sysctl kernel.perf_event_paranoid=$sf_val' lets unprivileged stat -a count"
		else
			fail "the hinted 'sysctl kernel.perf_event_paranoid=$sf_val' is enough" "exit $sf_rc: $(head -c 200 "$sf_tmp/o")"
		fi
	else
		fail "paranoid 2, unprivileged stat -a: hint gives a sysctl value" "$(head -c 300 "$sf_tmp/o")"
	fi

	# counting one's own process in user space works, as it does for perf
	sf_nobody perf stat -x, -e task-clock -- "$sf_demo/pms-threads" 1 20000000 >"$sf_tmp/p" 2>&1
	sf_prc=$?
	sf_nobody "$PMUSCOPE" stat -x, -e task-clock -- "$sf_demo/pms-threads" 1 20000000 >"$sf_tmp/o" 2>&1
	sf_rc=$?
	if [ $sf_prc -eq 0 ] && grep -qE '^[0-9.]+,msec,task-clock' "$sf_tmp/p"; then
		if [ $sf_rc -eq 0 ] && grep -qE '^[0-9.]+,msec,task-clock(:u)?,' "$sf_tmp/o"; then
			pass "paranoid 2, unprivileged stat -e task-clock: counts like perf ($(head -1 "$sf_tmp/o" | cut -d, -f1,3))"
		else
			fail "paranoid 2, unprivileged stat -e task-clock: counts like perf" "exit $sf_rc: $(head -c 300 "$sf_tmp/o")"
		fi
	else
		skip "paranoid 2, unprivileged stat -e task-clock" "perf cannot either: $(head -c 100 "$sf_tmp/p")"
	fi
	sf_nobody "$PMUSCOPE" stat -x, -e task-clock:u -- "$sf_demo/pms-threads" 1 20000000 >"$sf_tmp/o" 2>&1
	sf_rc=$?
	if [ $sf_rc -eq 0 ] && grep -qE '^[0-9.]+,msec,task-clock(:u)?,' "$sf_tmp/o"; then
		pass "paranoid 2, unprivileged stat -e task-clock:u: counts"
	else
		fail "paranoid 2, unprivileged stat -e task-clock:u: counts" "exit $sf_rc: $(head -c 300 "$sf_tmp/o")"
	fi
	# kernel-only counting (:k) asked for explicitly: no user-only fallback (there
	# is nothing left to count), a refusal like perf's
	sf_nobody "$PMUSCOPE" stat -e task-clock:k -- true >"$sf_tmp/o" 2>&1
	sf_rc=$?
	sf_expect "paranoid 2, unprivileged stat -e task-clock:k: refused, no :u fallback" 1 'perf_event_paranoid' 'sysctl|CAP_PERFMON|root'
	# what ends up open as nobody (after the EACCES fallbacks) is what perf opens
	for sf_cfg in "-- true" "-e task-clock -- true" "-e {task-clock,page-faults} -- true" \
		"-e task-clock:k -- true" "-e task-clock:u,cpu-clock:k -- true"; do
		# shellcheck disable=SC2086
		sf_nobody "$PMUSCOPE" stat -vv $sf_cfg >"$sf_tmp/o" 2>&1
		# shellcheck disable=SC2086
		sf_nobody perf stat -vv $sf_cfg >"$sf_tmp/p" 2>&1
		sf_vv "$sf_tmp/o" >"$sf_tmp/ov"
		sf_vv "$sf_tmp/p" >"$sf_tmp/pv"
		if cmp -s "$sf_tmp/ov" "$sf_tmp/pv"; then
			pass "paranoid 2, nobody, stat -vv $sf_cfg: the same $(grep -c '^sys_perf_event_open:' "$sf_tmp/pv") opens as perf after fallbacks"
		else
			fail "paranoid 2, nobody, stat -vv $sf_cfg: same opens as perf" "$(diff "$sf_tmp/ov" "$sf_tmp/pv" | head -12 | tr '\n' '|')"
		fi
	done
	# default events: the software ones are counted
	sf_nobody "$PMUSCOPE" stat -- true >"$sf_tmp/o" 2>&1
	sf_rc=$?
	if [ $sf_rc -eq 0 ] && grep -qE '^ +[0-9.]+ +msec +task-clock' "$sf_tmp/o" &&
		grep -qE '^ +[0-9,]+ +page-faults' "$sf_tmp/o"; then
		pass "paranoid 2, unprivileged stat (default events): software events counted"
	else
		fail "paranoid 2, unprivileged stat (default events)" "exit $sf_rc: $(head -c 400 "$sf_tmp/o")"
	fi
	# another user's process: refused with a message about permission
	sleep 30 &
	sf_bg=$!
	sf_nobody "$PMUSCOPE" stat -p "$sf_bg" -e task-clock --timeout 200 >"$sf_tmp/o" 2>&1
	sf_rc=$?
	kill "$sf_bg" 2>/dev/null
	wait "$sf_bg" 2>/dev/null
	sf_expect "paranoid 2, unprivileged stat -p <root's process>: refused" 1 'permi|not allowed|denied|access' "$sf_bg|another user|other user|ptrace|owne"

	# at every level, an unprivileged user ends up with perf's opens, and
	# succeeds or fails as perf does
	for sf_lvl in 1 0 -1; do
		echo "$sf_lvl" >"$sf_paranoid_file"
		for sf_cfg in "-a -e cpu-clock -- true" "-C 0 -e cpu-clock,page-faults -- true" "-e task-clock,page-faults -- true" "-e task-clock:k -- true"; do
			# shellcheck disable=SC2086
			sf_nobody "$PMUSCOPE" stat -vv $sf_cfg >"$sf_tmp/o" 2>&1
			sf_rc=$?
			# shellcheck disable=SC2086
			sf_nobody perf stat -vv $sf_cfg >"$sf_tmp/p" 2>&1
			sf_prc=$?
			sf_vv "$sf_tmp/o" >"$sf_tmp/ov"
			sf_vv "$sf_tmp/p" >"$sf_tmp/pv"
			sf_same=no
			[ $sf_rc -eq 0 ] && [ $sf_prc -eq 0 ] && sf_same=yes
			[ $sf_rc -ne 0 ] && [ $sf_prc -ne 0 ] && sf_same=yes
			if cmp -s "$sf_tmp/ov" "$sf_tmp/pv" && [ $sf_same = yes ]; then
				pass "paranoid $sf_lvl, nobody, stat $sf_cfg: same opens and outcome as perf (exit $sf_rc)"
			else
				fail "paranoid $sf_lvl, nobody, stat $sf_cfg: same opens and outcome as perf" "exit $sf_rc (perf $sf_prc): $(diff "$sf_tmp/ov" "$sf_tmp/pv" | head -8 | tr '\n' '|')"
			fi
		done
	done

	# paranoid 3: whatever the kernel allows (perf is the oracle), else a clear message
	echo 3 >"$sf_paranoid_file"
	sf_nobody perf stat -x, -e task-clock:u -- true >"$sf_tmp/p" 2>&1
	sf_prc=$?
	sf_nobody "$PMUSCOPE" stat -x, -e task-clock:u -- true >"$sf_tmp/o" 2>&1
	sf_rc=$?
	if [ $sf_prc -eq 0 ] && grep -qE '^[0-9.]+,msec,task-clock' "$sf_tmp/p"; then
		if [ $sf_rc -eq 0 ] && grep -qE '^[0-9.]+,msec,task-clock' "$sf_tmp/o"; then
			pass "paranoid 3, unprivileged own process: counts (this kernel allows it, perf too)"
		else
			fail "paranoid 3, unprivileged own process: counts like perf" "exit $sf_rc: $(head -c 300 "$sf_tmp/o")"
		fi
	else
		sf_expect "paranoid 3, unprivileged own process: refused with a clear message" 1 'perf_event_paranoid' 'sysctl|CAP_PERFMON|root'
	fi
	sf_nobody "$PMUSCOPE" stat -a -e task-clock -- true >"$sf_tmp/o" 2>&1
	sf_rc=$?
	sf_expect "paranoid 3, unprivileged stat -a: refused, names perf_event_paranoid" 1 'perf_event_paranoid' 'sysctl|CAP_PERFMON|root'
	# root is not affected by the knob
	"$PMUSCOPE" stat -a -x, -e cpu-clock -- true >"$sf_tmp/o" 2>&1
	sf_rc=$?
	if [ $sf_rc -eq 0 ] && grep -qE '^[0-9.]+,msec,cpu-clock' "$sf_tmp/o"; then
		pass "paranoid 3, root stat -a: counts"
	else
		fail "paranoid 3, root stat -a: counts" "exit $sf_rc: $(head -c 200 "$sf_tmp/o")"
	fi

	sf_restore_paranoid
	trap - EXIT INT TERM
	if [ "$(cat "$sf_paranoid_file")" = "$sf_paranoid_saved" ]; then
		pass "perf_event_paranoid restored to $sf_paranoid_saved"
	else
		fail "perf_event_paranoid restored" "now $(cat "$sf_paranoid_file"), was $sf_paranoid_saved"
	fi
}

# A copy of this machine's PMU and CPU sysfs files under $sf_tmp/sys.
sf_make_sysfs() {
	sf_sys=$sf_tmp/sys
	for sf_d in /sys/bus/event_source/devices/*; do
		sf_p=$(basename "$sf_d")
		sf_t=$sf_sys/bus/event_source/devices/$sf_p
		mkdir -p "$sf_t"
		for sf_f in type cpumask perf_event_mux_interval_ms; do
			[ -r "$sf_d/$sf_f" ] && cat "$sf_d/$sf_f" >"$sf_t/$sf_f"
		done
		for sf_sub in format events caps; do
			[ -d "$sf_d/$sf_sub" ] || continue
			mkdir -p "$sf_t/$sf_sub"
			for sf_f in "$sf_d/$sf_sub"/*; do
				[ -f "$sf_f" ] && cat "$sf_f" >"$sf_t/$sf_sub/$(basename "$sf_f")" 2>/dev/null
			done
		done
	done
	mkdir -p "$sf_sys/devices/system/cpu"
	for sf_f in online possible present; do
		cat "/sys/devices/system/cpu/$sf_f" >"$sf_sys/devices/system/cpu/$sf_f"
	done
	chmod -R a+rX "$sf_tmp"
}

sf_sysfs_tests() {
	if [ ! -e /sys/bus/event_source/devices/msr/events/tsc ]; then
		skip "stat: sysfs fault tests" "no msr/tsc PMU event here"
		return
	fi
	sf_make_sysfs
	sf_msr=$sf_sys/bus/event_source/devices/msr
	PMS_SYSFS_ROOT=$sf_sys "$PMUSCOPE" stat -x, -e msr/tsc/ -- true >"$sf_tmp/o" 2>&1
	sf_rc=$?
	if [ $sf_rc -eq 0 ] && grep -qE '^[0-9]+,[^,]*,msr/tsc/' "$sf_tmp/o"; then
		pass "sysfs copy: stat -e msr/tsc/ counts (the fixture is sound)"
	else
		fail "sysfs copy: stat -e msr/tsc/ counts" "exit $sf_rc: $(head -c 200 "$sf_tmp/o")"
	fi

	# msr/type is a directory: cannot be read
	mv "$sf_msr/type" "$sf_tmp/type.saved"
	mkdir "$sf_msr/type"
	PMS_SYSFS_ROOT=$sf_sys "$PMUSCOPE" stat -e msr/tsc/ -- true >"$sf_tmp/o" 2>&1
	sf_rc=$?
	sf_expect "sysfs msr/type is a directory: clear error" "1 2" 'msr' 'type|sysfs|read|directory'
	rmdir "$sf_msr/type"

	# msr/type is a dangling symlink
	ln -s "$sf_tmp/nowhere" "$sf_msr/type"
	PMS_SYSFS_ROOT=$sf_sys "$PMUSCOPE" stat -e msr/tsc/ -- true >"$sf_tmp/o" 2>&1
	sf_rc=$?
	sf_expect "sysfs msr/type is a dangling symlink: clear error" "1 2" 'msr' 'type|sysfs|read|no such|not found|unknown PMU'
	rm -f "$sf_msr/type"

	# msr/type holds garbage
	echo 'not-a-number' >"$sf_msr/type"
	PMS_SYSFS_ROOT=$sf_sys "$PMUSCOPE" stat -e msr/tsc/ -- true >"$sf_tmp/o" 2>&1
	sf_rc=$?
	sf_expect "sysfs msr/type holds garbage: clear error" "1 2" 'msr' 'type|sysfs|invalid|malformed|parse'
	cp "$sf_tmp/type.saved" "$sf_msr/type"

	# events/tsc is a dangling symlink: the alias is unusable
	mv "$sf_msr/events/tsc" "$sf_tmp/tsc.saved"
	ln -s "$sf_tmp/nowhere" "$sf_msr/events/tsc"
	PMS_SYSFS_ROOT=$sf_sys "$PMUSCOPE" stat -e msr/tsc/ -- true >"$sf_tmp/o" 2>&1
	sf_rc=$?
	sf_expect "sysfs msr/events/tsc is a dangling symlink: clear error" "1 2" 'tsc' '.'
	rm -f "$sf_msr/events/tsc"
	cp "$sf_tmp/tsc.saved" "$sf_msr/events/tsc"

	# unreadable by mode (needs an unprivileged user: root ignores modes)
	if command -v setpriv >/dev/null 2>&1 && sf_nobody test -x "$PMUSCOPE"; then
		chmod 000 "$sf_msr/type"
		PMS_SYSFS_ROOT=$sf_sys sf_nobody "$PMUSCOPE" stat -e msr/tsc/:u -- true >"$sf_tmp/o" 2>&1
		sf_rc=$?
		sf_expect "sysfs msr/type mode 000, unprivileged: clear error" "1 2" 'msr' 'type|permission|denied|read'
		chmod 644 "$sf_msr/type"
		chmod 000 "$sf_sys/devices/system/cpu/online"
		PMS_SYSFS_ROOT=$sf_sys sf_nobody "$PMUSCOPE" stat -x, -e task-clock -- true >"$sf_tmp/o" 2>&1
		sf_rc=$?
		if [ $sf_rc -eq 0 ] && grep -qE '^[0-9.]+,msec,task-clock' "$sf_tmp/o"; then
			pass "sysfs cpu/online mode 000: a workload count does not need it"
		elif [ $sf_rc -eq 1 ] && grep -qi 'online' "$sf_tmp/o" && ! sf_counts "$sf_tmp/o"; then
			pass "sysfs cpu/online mode 000: clear error naming it"
		else
			fail "sysfs cpu/online mode 000" "exit $sf_rc: $(head -c 300 "$sf_tmp/o")"
		fi
		chmod 644 "$sf_sys/devices/system/cpu/online"
	else
		skip "sysfs mode 000 as an unprivileged user" "setpriv or access for nobody missing"
	fi

	# cpu/online is a directory: -a needs the CPU list; a clear error or the right CPUs
	mv "$sf_sys/devices/system/cpu/online" "$sf_tmp/online.saved"
	mkdir "$sf_sys/devices/system/cpu/online"
	PMS_SYSFS_ROOT=$sf_sys "$PMUSCOPE" stat -a -A -x, -e cpu-clock -- true >"$sf_tmp/o" 2>&1
	sf_rc=$?
	if [ $sf_rc -eq 0 ] && [ "$(grep -c '^CPU[0-9]*,' "$sf_tmp/o")" -eq "$(getconf _NPROCESSORS_ONLN)" ]; then
		pass "sysfs cpu/online is a directory, stat -a: falls back to the right CPUs"
	else
		sf_expect "sysfs cpu/online is a directory, stat -a: clear error" 1 'online' '.'
	fi
	rmdir "$sf_sys/devices/system/cpu/online"
	mv "$sf_tmp/online.saved" "$sf_sys/devices/system/cpu/online"
}

sf_procfs_tests() {
	# -p lists the threads in <procfs>/<pid>/task: without procfs (a container,
	# a broken fixture) the message must say so, not that the process is gone
	mkdir -p "$sf_tmp/proc"
	sleep 5 &
	sf_bg=$!
	PMS_PROCFS_ROOT=$sf_tmp/proc "$PMUSCOPE" stat -p "$sf_bg" -e task-clock --timeout 100 >"$sf_tmp/o" 2>&1
	sf_rc=$?
	kill "$sf_bg" 2>/dev/null
	wait "$sf_bg" 2>/dev/null
	sf_expect "stat -p without procfs: says procfs is unreadable" 1 "$sf_tmp/proc|/task|procfs|/proc" '.'
}

sf_output_tests() {
	# the counts cannot be written: an error, not a silent success
	for sf_fmt in "" "-x," "--json" "-I 50"; do
		# shellcheck disable=SC2086
		"$PMUSCOPE" stat $sf_fmt -o /dev/full -e task-clock -- sleep 0.1 >"$sf_tmp/o" 2>&1
		sf_rc=$?
		sf_expect "stat $sf_fmt -o /dev/full: write error reported" 1 'full|no space|writ' '.'
	done
}

sf_main() {
	if ! sf_implemented; then
		skip "stat faults" "stat not implemented yet"
		return
	fi
	sf_tmp=$(mktemp -d)
	chmod 755 "$sf_tmp"
	for sf_fn in ${SF_ONLY:-emfile perm sysfs procfs output}; do
		"sf_${sf_fn}_tests"
	done
	rm -rf "$sf_tmp"
}

sf_main
