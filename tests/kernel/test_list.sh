# SPDX-License-Identifier: MIT
# Kernel tests of `list`, `info` and `explain` on the real machine: what list
# shows must be what opens here (checked against perf as the oracle), and info
# must agree with a direct probe. Sourced by tests/kernel/run.sh.

tl_perf_opens() { # tl_perf_opens EVENT: does perf manage to count it here?
	command -v perf >/dev/null 2>&1 || return 2
	perf stat -x, -e "$1" true 2>&1 | grep -qvE '<not supported>|<not counted>|event syntax error|Error'
}

tl_list_tests() {
	tl_out=$("$PMUSCOPE" list 2>/dev/null)
	tl_rc=$?
	if [ $tl_rc -ne 0 ]; then
		fail "list: exit status" "exit $tl_rc"
		return
	fi
	for tl_ev in cpu-clock task-clock page-faults context-switches; do
		if printf '%s\n' "$tl_out" | grep -qE "^  $tl_ev( OR [a-z-]+)? +\[Software event\]\$"; then
			pass "list: $tl_ev listed as supported"
		else
			fail "list: $tl_ev listed as supported" "missing from 'pmuscope list'"
		fi
	done

	# cycles: listed iff it opens here (perf is the oracle)
	tl_listed=no
	printf '%s\n' "$tl_out" | grep -qE '^  cpu-cycles OR cycles +\[Hardware event\]$' && tl_listed=yes
	tl_perf_opens cycles
	case $? in
	0) tl_want=yes ;;
	1) tl_want=no ;;
	*) tl_want= ;;
	esac
	if [ -z "$tl_want" ]; then
		skip "list: cycles listed iff perf can count it" "perf not installed"
	elif [ "$tl_listed" = "$tl_want" ]; then
		pass "list: cycles listed=$tl_listed, perf counts it=$tl_want"
	else
		fail "list: cycles listed iff perf can count it" "listed=$tl_listed, perf=$tl_want"
	fi

	tl_all=$("$PMUSCOPE" list --all hw 2>/dev/null)
	if [ "$tl_want" = no ]; then
		if printf '%s\n' "$tl_all" | grep -qE '^  cpu-cycles OR cycles +\[Hardware event\]  \(.+\)$'; then
			pass "list --all: cycles shown with a reason"
		else
			fail "list --all: cycles shown with a reason" "$(printf '%s\n' "$tl_all" | grep cycles)"
		fi
	else
		skip "list --all: cycles shown with a reason" "cycles works here"
	fi

	# the software events: same set as perf's (perf 6.1 knows no newer names)
	if command -v perf >/dev/null 2>&1; then
		tl_perf_sw=$(perf list sw 2>/dev/null | grep '\[Software event\]' | sed -E 's/^ +//; s/ +\[.*//; s/ OR .*//' | sort)
		tl_our_sw=$("$PMUSCOPE" list sw 2>/dev/null | sed -E 's/^ +//; s/ +\[.*//; s/ OR .*//' | sort)
		tl_tmp=$(mktemp -d)
		printf '%s\n' "$tl_perf_sw" >"$tl_tmp/perf"
		printf '%s\n' "$tl_our_sw" >"$tl_tmp/ours"
		tl_missing=$(comm -23 "$tl_tmp/perf" "$tl_tmp/ours")
		rm -rf "$tl_tmp"
		if [ -z "$tl_missing" ] && [ -n "$tl_our_sw" ]; then
			pass "list sw: every software event perf lists is listed ($(echo "$tl_our_sw" | wc -l) events)"
		else
			fail "list sw: matches perf list sw" "missing: $(echo $tl_missing)"
		fi
	else
		skip "list sw: matches perf list sw" "perf not installed"
	fi

	if command -v jq >/dev/null 2>&1; then
		if "$PMUSCOPE" list --json --all 2>/dev/null | jq -e 'type == "array" and length > 20 and
			(map(select(.name == "task-clock" and .supported == true and .kind == "software")) | length == 1)' >/dev/null; then
			pass "list --json --all: valid JSON, task-clock supported"
		else
			fail "list --json --all" "invalid JSON or task-clock missing"
		fi
	else
		skip "list --json" "jq not installed"
	fi

	if [ -d /sys/bus/event_source/devices/msr/events ] && [ -e /sys/bus/event_source/devices/msr/events/tsc ]; then
		if "$PMUSCOPE" list pmu 2>/dev/null | grep -qE '^  msr/tsc/ +\[Kernel PMU event\]$'; then
			pass "list pmu: msr/tsc/ probed and listed"
		else
			fail "list pmu: msr/tsc/ probed and listed" "$("$PMUSCOPE" list pmu 2>&1 | head -3)"
		fi
	fi

	tl_tp=$("$PMUSCOPE" list 'sched:*' 2>&1)
	if printf '%s\n' "$tl_tp" | grep -qE '^  sched:sched_switch +\[Tracepoint event\]$'; then
		pass "list sched:*: tracepoints listed from tracefs"
	else
		fail "list sched:*: tracepoints listed" "$(printf '%s\n' "$tl_tp" | head -2)"
	fi

	tl_t0=$(date +%s%N)
	"$PMUSCOPE" list >/dev/null 2>&1
	tl_ms=$(( ($(date +%s%N) - tl_t0) / 1000000 ))
	if [ $tl_ms -lt 1000 ]; then
		pass "list: full listing with probes in ${tl_ms} ms (< 1 s)"
	else
		fail "list: full listing is fast" "${tl_ms} ms"
	fi
}

# list's promise both ways, with perf as the oracle: every hw/sw/cache/PMU event list shows as
# supported is counted by perf, and every hw/cache name perf counts here is listed.
tl_list_oracle_tests() {
	if ! command -v perf >/dev/null 2>&1; then
		skip "list vs perf stat" "perf not installed"
		return
	fi
	tl_sup=$("$PMUSCOPE" list hw sw cache pmu 2>/dev/null | sed -E 's/^ +//; s/ +\[.*//; s/ OR .*//')
	tl_bad=
	tl_n=0
	for tl_ev in $tl_sup; do
		tl_n=$((tl_n + 1))
		tl_perf_opens "$tl_ev" || tl_bad="$tl_bad $tl_ev"
	done
	if [ -z "$tl_bad" ] && [ $tl_n -gt 0 ]; then
		pass "list: all $tl_n supported hw/sw/cache/pmu events are counted by perf stat"
	else
		fail "list: supported events are counted by perf" "perf cannot count:$tl_bad"
	fi
	tl_all=$("$PMUSCOPE" list --all hw cache 2>/dev/null | grep '  (' | sed -E 's/^ +//; s/ +\[.*//; s/ OR .*//')
	tl_bad=
	for tl_ev in $tl_all; do
		tl_perf_opens "$tl_ev" && tl_bad="$tl_bad $tl_ev"
	done
	if [ -z "$tl_bad" ]; then
		pass "list --all: the $(echo $tl_all | wc -w) events marked unsupported are not counted by perf either"
	else
		fail "list --all: unsupported events" "perf counts:$tl_bad"
	fi
	# text and JSON agree on what is supported
	tl_nt=$("$PMUSCOPE" list hw sw cache pmu 2>/dev/null | wc -l)
	if command -v jq >/dev/null 2>&1; then
		tl_nj=$("$PMUSCOPE" list --json --all hw sw cache pmu 2>/dev/null | jq '[.[] | select(.supported == true)] | length')
		if [ "$tl_nt" = "$tl_nj" ]; then
			pass "list: text and --json agree ($tl_nt supported events)"
		else
			fail "list: text and --json agree" "text $tl_nt, json $tl_nj"
		fi
	fi
}

# The same promise for an unprivileged user (uid nobody), where paranoid refuses some events:
# what list shows must be what perf counts for that user, and the rest carries a reason.
tl_list_unpriv_tests() {
	if [ "$(id -u)" != 0 ] || ! command -v setpriv >/dev/null 2>&1 || ! command -v perf >/dev/null 2>&1; then
		skip "list as nobody" "needs root, setpriv and perf"
		return
	fi
	tl_nob() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
	tl_sup=$(tl_nob "$PMUSCOPE" list hw sw cache pmu 2>/dev/null | sed -E 's/^ +//; s/ +\[.*//; s/ OR .*//')
	tl_bad=
	for tl_ev in $tl_sup; do
		tl_nob perf stat -x, -e "$tl_ev" true 2>&1 | grep -qvE '<not supported>|<not counted>|Error' ||
			tl_bad="$tl_bad $tl_ev"
	done
	if [ -n "$tl_sup" ] && [ -z "$tl_bad" ]; then
		pass "list as nobody: all $(echo $tl_sup | wc -w) listed events are counted by perf as nobody"
	else
		fail "list as nobody: listed events count" "perf as nobody cannot count:$tl_bad"
	fi
	tl_hidden=$(tl_nob "$PMUSCOPE" list --all hw sw cache pmu 2>/dev/null | grep -c '  (')
	tl_noreason=$(tl_nob "$PMUSCOPE" list --all --json hw sw cache pmu 2>/dev/null | grep -c '"supported": false')
	if [ "$tl_hidden" = "$tl_noreason" ]; then
		pass "list --all as nobody: $tl_hidden unsupported events, each with a reason"
	else
		fail "list --all as nobody" "$tl_hidden with a reason, $tl_noreason unsupported in JSON"
	fi
}

# tracefs not mounted (in a private mount namespace, so nobody else loses it): root mounts it
# like perf, --no-mount and unprivileged users get one note saying how.
tl_list_tracefs_tests() {
	if [ "$(id -u)" != 0 ] || ! command -v unshare >/dev/null 2>&1 || ! command -v setpriv >/dev/null 2>&1; then
		skip "list: tracefs not mounted" "needs root, unshare and setpriv"
		return
	fi
	tl_out=$(unshare -m --propagation private sh -c '
		umount /sys/kernel/tracing 2>/dev/null; umount /sys/kernel/debug/tracing 2>/dev/null
		[ -d /sys/kernel/tracing/events ] && { echo "still mounted"; exit 0; }
		echo "== no-mount"; "$1" list --no-mount tracepoint 2>&1
		echo "== nobody"; setpriv --reuid=65534 --regid=65534 --clear-groups "$1" list tracepoint 2>&1
		echo "== root"; "$1" list tracepoint 2>&1 | grep -c "\[Tracepoint event\]"' sh "$PMUSCOPE")
	if printf '%s\n' "$tl_out" | grep -q 'still mounted'; then
		skip "list: tracefs not mounted" "cannot unmount tracefs in a private namespace"
		return
	fi
	if printf '%s\n' "$tl_out" | sed -n '/== no-mount/,/== nobody/p' | grep -q 'tracepoints not listed: tracefs is not mounted (--no-mount)'; then
		pass "list --no-mount: one note when tracefs is not mounted"
	else
		fail "list --no-mount" "$(printf '%s\n' "$tl_out" | head -n 3)"
	fi
	if printf '%s\n' "$tl_out" | sed -n '/== nobody/,/== root/p' | grep -q 'as root: mount -t tracefs nodev /sys/kernel/tracing'; then
		pass "list as nobody: says how to mount tracefs"
	else
		fail "list as nobody: says how to mount tracefs" "$(printf '%s\n' "$tl_out" | sed -n '/== nobody/,/== root/p')"
	fi
	tl_n=$(printf '%s\n' "$tl_out" | sed -n '/== root/{n;p;}')
	if [ "${tl_n:-0}" -gt 100 ] 2>/dev/null; then
		pass "list as root: mounts tracefs and lists $tl_n tracepoints"
	else
		fail "list as root: mounts tracefs" "got '$tl_n' tracepoints"
	fi
}

tl_info_tests() {
	tl_out=$("$PMUSCOPE" info 2>&1)
	if [ $? -ne 0 ]; then
		fail "info: runs" "$(printf '%s\n' "$tl_out" | tail -2)"
		return
	fi
	tl_hw=$(printf '%s\n' "$tl_out" | sed -n 's/^  hardware cycles open *//p')
	tl_perf_opens cycles
	case $? in
	0) [ "$tl_hw" = ok ] && pass "info: cycles probe agrees with perf (ok)" || fail "info: cycles probe" "info says '$tl_hw', perf counts cycles" ;;
	1) [ "$tl_hw" = ENOENT ] || [ "$tl_hw" = EACCES ] && pass "info: cycles probe agrees with perf ($tl_hw)" ||
		fail "info: cycles probe" "info says '$tl_hw', perf cannot count cycles" ;;
	*) skip "info: cycles probe agrees with perf" "perf not installed" ;;
	esac
	if [ "$tl_hw" = ENOENT ] && printf '%s\n' "$tl_out" | grep -q '^verdict: no hardware counters'; then
		pass "info: verdict says no hardware counters"
	elif [ "$tl_hw" = ok ] && printf '%s\n' "$tl_out" | grep -q '^verdict: hardware counters work'; then
		pass "info: verdict says hardware counters work"
	else
		fail "info: verdict matches the probe" "$(printf '%s\n' "$tl_out" | grep '^verdict')"
	fi
	tl_par=$(cat /proc/sys/kernel/perf_event_paranoid)
	if printf '%s\n' "$tl_out" | grep -qE "^  perf_event_paranoid +$tl_par "; then
		pass "info: perf_event_paranoid = $tl_par"
	else
		fail "info: perf_event_paranoid" "not $tl_par"
	fi
	if printf '%s\n' "$tl_out" | grep -qE '^  mmap page +(cycles|task-clock): cap_user_rdpmc=[01] cap_user_time=[01]'; then
		pass "info: mmap-page probe reported"
	else
		fail "info: mmap-page probe reported" "$(printf '%s\n' "$tl_out" | grep 'mmap page')"
	fi
	if command -v jq >/dev/null 2>&1; then
		if "$PMUSCOPE" info --json | jq -e '.verdict | length > 0' >/dev/null 2>&1; then
			pass "info --json: valid JSON with a verdict"
		else
			fail "info --json" "invalid JSON"
		fi
	fi
}

tl_explain_tests() {
	tl_out=$("$PMUSCOPE" explain cycles 2>&1)
	if [ $? -eq 0 ] && printf '%s\n' "$tl_out" | grep -q '^perf_event_attr:' &&
		printf '%s\n' "$tl_out" | grep -q '^here: '; then
		pass "explain cycles: attr and probe result"
	else
		fail "explain cycles" "$(printf '%s\n' "$tl_out" | head -3)"
	fi
	tl_perf_opens cycles
	case $? in
	0) tl_want='^here: opens on this machine' ;;
	1) tl_want='^here: does not open' ;;
	*) tl_want= ;;
	esac
	if [ -n "$tl_want" ]; then
		if "$PMUSCOPE" explain cycles 2>&1 | grep -q "$tl_want"; then
			pass "explain cycles: 'here' agrees with perf"
		else
			fail "explain cycles: 'here' agrees with perf" "want $tl_want: $("$PMUSCOPE" explain cycles 2>&1 | tail -n 1)"
		fi
	fi
	"$PMUSCOPE" explain cache-mises >/dev/null 2>&1
	tl_rc=$?
	if [ $tl_rc -eq 2 ]; then
		pass "explain: a bad event exits 2"
	else
		fail "explain: a bad event exits 2" "exit $tl_rc"
	fi
	if command -v jq >/dev/null 2>&1; then
		if "$PMUSCOPE" explain --json 'task-clock,msr/tsc/' 2>/dev/null |
			jq -e 'length == 2 and .[0].here.opens == true and .[0].type_name == "PERF_TYPE_SOFTWARE"' >/dev/null; then
			pass "explain --json: valid, task-clock opens"
		else
			fail "explain --json" "$("$PMUSCOPE" explain --json task-clock 2>&1 | head -n 3)"
		fi
	fi
	if "$PMUSCOPE" explain '{task-clock,page-faults}' 2>&1 | grep -q "^group here: the 2 events of task-clock's group open together"; then
		pass "explain: a software group opens together"
	else
		fail "explain: group here" "$("$PMUSCOPE" explain '{task-clock,page-faults}' 2>&1 | tail -n 1)"
	fi
	tl_out=$("$PMUSCOPE" explain task-clock 2>&1)
	if printf '%s\n' "$tl_out" | grep -q '^here: opens on this machine'; then
		pass "explain task-clock: opens here"
	else
		fail "explain task-clock: opens here" "$(printf '%s\n' "$tl_out" | tail -1)"
	fi
}

tl_list_tests
tl_list_oracle_tests
tl_list_unpriv_tests
tl_list_tracefs_tests
tl_info_tests
tl_explain_tests
