# SPDX-License-Identifier: MIT
# Tracepoints when tracefs is not mounted: root gets it mounted (as perf
# does) and counts; an unprivileged user is told how to mount it. Runs in a
# private mount namespace so the machine's own mount is never touched.
# Sourced by tests/kernel/run.sh.

tt_tests() {
	if ! command -v unshare >/dev/null 2>&1; then
		skip "tracefs: mount on demand" "unshare(1) not installed"
		return
	fi
	tt_out=$(unshare -m sh -c '
		umount /sys/kernel/tracing 2>/dev/null
		umount /sys/kernel/debug/tracing 2>/dev/null
		if [ -d /sys/kernel/tracing/events ]; then echo "STILL-MOUNTED"; exit 0; fi
		"$1" stat -x, -e sched:sched_process_exec -- true 2>&1; echo "rc=$?"' sh "$PMUSCOPE")
	case $tt_out in
	*STILL-MOUNTED*)
		skip "tracefs: stat mounts it on demand" "cannot unmount tracefs in a private namespace here"
		;;
	*)
		if printf '%s\n' "$tt_out" | grep -q '^1,,sched:sched_process_exec,' &&
			printf '%s\n' "$tt_out" | grep -q 'mounted it on /sys/kernel/tracing' &&
			printf '%s\n' "$tt_out" | grep -q '^rc=0$'; then
			pass "tracefs: stat mounts it on demand and counts 1 exec"
		else
			fail "tracefs: stat mounts it on demand" "$(printf '%s\n' "$tt_out" | tail -5)"
		fi
		;;
	esac

	command -v setpriv >/dev/null 2>&1 || { skip "tracefs: unprivileged" "setpriv not installed"; return; }
	tt_out=$(unshare -m sh -c '
		umount /sys/kernel/tracing 2>/dev/null
		umount /sys/kernel/debug/tracing 2>/dev/null
		setpriv --reuid=nobody --regid=nogroup --clear-groups "$1" stat -e sched:sched_process_exec -- true 2>&1
		echo "rc=$?"' sh "$PMUSCOPE")
	if printf '%s\n' "$tt_out" | grep -q 'mount -t tracefs nodev /sys/kernel/tracing' &&
		printf '%s\n' "$tt_out" | grep -q '^rc=2$'; then
		pass "tracefs: unprivileged user is told how to mount it (exit 2)"
	else
		fail "tracefs: unprivileged user is told how to mount it" "$(printf '%s\n' "$tt_out" | tail -4)"
	fi
}

tt_tests
