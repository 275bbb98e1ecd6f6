# SPDX-License-Identifier: MIT
# Kernel tests of perf stat's everyday options in `pmuscope stat`, each against `perf stat` on the
# same kind of run: --per-core/die/socket/node units, -d rows, -n, -r with -I, --all-user and -g
# attrs (-vv), -D, --pre/--post, --log-fd, --quiet, --table, --summary, hardware refusals.
# Checks compare structure and ratios, never speed (the 2-CPU VM is shared).
# Sourced by tests/kernel/run.sh; every function and variable is so_-prefixed.

so_tmp=$(mktemp -d)

# so_units FILE: the "unit,cpus" pairs of per-unit CSV rows of task-clock (perf or ours)
so_units() {
	awk -F, '$5 == "task-clock" { gsub(/ /, "", $1); print $1 "," $2 }' "$1" | sort -u
}

so_per_topo() {
	for so_m in core die socket node; do
		"$PMUSCOPE" stat --per-$so_m -a -x, -e task-clock -- sleep 0.1 2>"$so_tmp/ours" >/dev/null
		perf stat --per-$so_m -a -x, -e task-clock -- sleep 0.1 2>"$so_tmp/perf" >/dev/null
		so_u1=$(so_units "$so_tmp/ours" | tr '\n' ' ')
		so_u2=$(so_units "$so_tmp/perf" | tr '\n' ' ')
		if [ -n "$so_u1" ] && [ "$so_u1" = "$so_u2" ]; then
			pass "stat_opts/per_$so_m" "units and CPU counts as perf: $so_u1"
		else
			fail "stat_opts/per_$so_m" "ours '$so_u1', perf '$so_u2'"
		fi
	done
	# each core's task-clock is about the elapsed time (-a counts idle too): the sum is CPUs x elapsed
	"$PMUSCOPE" stat --per-core -a -x, -e task-clock -- sleep 0.2 2>"$so_tmp/ours" >/dev/null
	so_n=$(awk -F, '$5 == "task-clock" { s += $3; n += $2 } END { if (n) printf "%.2f", s / n / 200 }' "$so_tmp/ours")
	if awk -v r="$so_n" 'BEGIN { exit !(r > 0.9 && r < 1.2) }'; then
		pass "stat_opts/per_core_values" "task-clock per CPU / elapsed = $so_n"
	else
		fail "stat_opts/per_core_values" "task-clock per CPU / elapsed = '$so_n' (want ~1)"
	fi
	# the table's prefix columns, byte for byte
	"$PMUSCOPE" stat --per-socket -a -e task-clock -- sleep 0.05 2>&1 | grep 'task-clock' | cut -c1-12 >"$so_tmp/o"
	perf stat --per-socket -a -e task-clock -- sleep 0.05 2>&1 | grep 'task-clock' | cut -c1-12 >"$so_tmp/p"
	if [ -s "$so_tmp/o" ] && cmp -s "$so_tmp/o" "$so_tmp/p"; then
		pass "stat_opts/per_socket_layout" "'$(cat "$so_tmp/o")' as perf"
	else
		fail "stat_opts/per_socket_layout" "ours '$(cat "$so_tmp/o")', perf '$(cat "$so_tmp/p")'"
	fi
}

# -d/-dd/-ddd: the same event rows and states as perf (values of counted ones differ)
so_detailed() {
	for so_d in -d -dd -ddd; do
		"$PMUSCOPE" stat $so_d -x, -- true 2>&1 | awk -F, '{ v = ($1 ~ /^</) ? $1 : "n"; print v "," $3 }' >"$so_tmp/o"
		perf stat $so_d -x, -- true 2>&1 | awk -F, '{ v = ($1 ~ /^</) ? $1 : "n"; print v "," $3 }' >"$so_tmp/p"
		if [ "$(wc -l <"$so_tmp/o")" -gt 8 ] && cmp -s "$so_tmp/o" "$so_tmp/p"; then
			pass "stat_opts/detailed$so_d" "$(wc -l <"$so_tmp/o") rows as perf"
		else
			fail "stat_opts/detailed$so_d" "$(diff "$so_tmp/o" "$so_tmp/p" | head -3 | tr '\n' ' ')"
		fi
	done
}

so_null_run() {
	"$PMUSCOPE" stat -n -- sleep 0.05 2>&1 | sed 's/[0-9.]\+ seconds/N seconds/' >"$so_tmp/o"
	perf stat -n -- sleep 0.05 2>&1 | sed 's/[0-9.]\+ seconds/N seconds/' >"$so_tmp/p"
	if cmp -s "$so_tmp/o" "$so_tmp/p"; then
		pass "stat_opts/null" "-n: only the times, as perf"
	else
		fail "stat_opts/null" "$(diff "$so_tmp/o" "$so_tmp/p" | head -4 | tr '\n' ' ')"
	fi
}

so_repeat_interval() {
	"$PMUSCOPE" stat -r 2 -I 100 -x, -e task-clock -- sh -c 'echo RUN >&2; sleep 0.25' 2>"$so_tmp/o"
	so_runs=$(grep -c RUN "$so_tmp/o")
	so_iv=$(grep -c ',task-clock,' "$so_tmp/o")
	if [ "$so_runs" = 2 ] && [ "$so_iv" -ge 4 ]; then
		pass "stat_opts/repeat_interval" "-r 2 -I 100: 2 runs, $so_iv interval rows"
	else
		fail "stat_opts/repeat_interval" "$so_runs runs, $so_iv interval rows"
	fi
}

# --all-user and -g: the attrs (-vv) as perf opens them
so_attrs() {
	for so_a in "--all-user -e task-clock,page-faults:k" "--all-kernel -e page-faults" \
		"-g -e task-clock,page-faults,context-switches"; do
		# shellcheck disable=SC2086
		"$PMUSCOPE" stat -vv $so_a -- true 2>&1 | grep -E '^  (exclude|read_format|disabled)|group_fd' |
			sed 's/ = [0-9]*$//; s/pid [0-9]*/pid P/' >"$so_tmp/o"
		# shellcheck disable=SC2086
		perf stat -vv $so_a -- true 2>&1 | grep -E '^  (exclude|read_format|disabled)|group_fd' |
			sed 's/ = [0-9]*$//; s/pid [0-9]*/pid P/' >"$so_tmp/p"
		if [ -s "$so_tmp/o" ] && cmp -s "$so_tmp/o" "$so_tmp/p"; then
			pass "stat_opts/attrs ${so_a%% -e*}" "same attr bits and group_fds as perf -vv"
		else
			fail "stat_opts/attrs ${so_a%% -e*}" "$(diff "$so_tmp/o" "$so_tmp/p" | head -4 | tr '\n' ' ')"
		fi
	done
}

# -D: the exec's page faults happen before the delay ends, so far fewer are counted
so_delay() {
	"$PMUSCOPE" stat -x, -e page-faults -- sh -c 'sleep 0.4' 2>"$so_tmp/o0"
	"$PMUSCOPE" stat -D 250 -x, -e page-faults -- sh -c 'sleep 0.4' 2>"$so_tmp/o"
	so_f0=$(awk -F, '$3 == "page-faults" { print $1 }' "$so_tmp/o0")
	so_f=$(awk -F, '$3 == "page-faults" { print $1 }' "$so_tmp/o")
	if grep -q '^Events disabled$' "$so_tmp/o" && grep -q '^Events enabled$' "$so_tmp/o" &&
		[ -n "$so_f" ] && [ -n "$so_f0" ] && [ "$so_f" -lt $((so_f0 / 2)) ]; then
		pass "stat_opts/delay" "-D 250: $so_f page faults against $so_f0 without, Events disabled/enabled as perf"
	else
		fail "stat_opts/delay" "with -D '$so_f', without '$so_f0': $(head -3 "$so_tmp/o" | tr '\n' ' ')"
	fi
}

so_hooks_and_outputs() {
	"$PMUSCOPE" stat -r 2 --pre 'echo PRE >&2' --post 'echo POST >&2' -x, -e task-clock -- sh -c 'echo CMD >&2' \
		2>&1 | grep -E '^(PRE|CMD|POST)$' | tr '\n' ' ' >"$so_tmp/o"
	if [ "$(cat "$so_tmp/o")" = "PRE CMD POST PRE CMD POST " ]; then
		pass "stat_opts/pre_post" "--pre/--post around each run"
	else
		fail "stat_opts/pre_post" "order: $(cat "$so_tmp/o")"
	fi
	"$PMUSCOPE" stat --log-fd 3 -x, -e task-clock -- true 3>"$so_tmp/log" 2>"$so_tmp/err"
	if grep -q ',task-clock,' "$so_tmp/log" && ! grep -q 'task-clock' "$so_tmp/err"; then
		pass "stat_opts/log_fd" "counts on fd 3 only"
	else
		fail "stat_opts/log_fd" "log: $(head -1 "$so_tmp/log"), stderr: $(head -1 "$so_tmp/err")"
	fi
	so_q=$("$PMUSCOPE" stat --quiet -e task-clock -- true 2>&1)
	so_qp=$(perf stat --quiet -e task-clock -- true 2>&1)
	if [ -z "$so_q" ] && [ -z "$so_qp" ]; then
		pass "stat_opts/quiet" "nothing printed, as perf"
	else
		fail "stat_opts/quiet" "ours '$so_q', perf '$so_qp'"
	fi
	"$PMUSCOPE" stat --table -r 3 -e task-clock -- true 2>&1 | grep -v task-clock |
		sed 's/[-+]\?[0-9][0-9.]*/N/g; s/#*$//; s/^ *//; s/  */ /g' >"$so_tmp/o"
	perf stat --table -r 3 -e task-clock -- true 2>&1 | grep -v task-clock |
		sed 's/[-+]\?[0-9][0-9.]*/N/g; s/#*$//; s/^ *//; s/  */ /g' >"$so_tmp/p"
	if cmp -s "$so_tmp/o" "$so_tmp/p"; then
		pass "stat_opts/table" "--table layout as perf"
	else
		fail "stat_opts/table" "$(diff "$so_tmp/o" "$so_tmp/p" | head -4 | tr '\n' ' ')"
	fi
	"$PMUSCOPE" stat --summary -I 100 -x, -e task-clock -- sleep 0.15 2>&1 | grep -c '^summary,.*,task-clock,' >"$so_tmp/o"
	"$PMUSCOPE" stat --summary --no-csv-summary -I 100 -x, -e task-clock -- sleep 0.15 2>&1 |
		grep -c '^[0-9.]*,msec,task-clock,' >>"$so_tmp/o"
	if [ "$(tr '\n' ' ' <"$so_tmp/o")" = "1 1 " ]; then
		pass "stat_opts/summary" "--summary totals after -I, with and without the summary column"
	else
		fail "stat_opts/summary" "$(tr '\n' ' ' <"$so_tmp/o")"
	fi
}

so_hardware() {
	if [ -e /sys/bus/event_source/devices/cpu/events/topdown-retiring ]; then
		skip "stat_opts/topdown_refused" "this CPU has top-down events"
	else
		so_t=$("$PMUSCOPE" stat --topdown -- true 2>&1)
		case $so_t in
		*"has none"*) pass "stat_opts/topdown_refused" "--topdown refused: no top-down events here" ;;
		*) fail "stat_opts/topdown_refused" "$so_t" ;;
		esac
	fi
	if [ -e /sys/bus/event_source/devices/msr/events/smi ]; then
		skip "stat_opts/smi_refused" "this machine has msr/smi/"
	else
		so_t=$("$PMUSCOPE" stat --smi-cost -a -- true 2>&1)
		case $so_t in
		*"no msr/smi/"*) pass "stat_opts/smi_refused" "--smi-cost refused: no msr/smi/ here" ;;
		*) fail "stat_opts/smi_refused" "$so_t" ;;
		esac
	fi
}

# -G / --for-each-cgroup: a busy loop in a cgroup of our own, counted by perf and by us at the same time
so_cgroup() {
	so_root=""
	for so_r in /sys/fs/cgroup /sys/fs/cgroup/unified; do
		[ -e "$so_r/cgroup.controllers" ] && so_root=$so_r && break
	done
	if [ -z "$so_root" ] || ! mkdir -p "$so_root/pms-stat-opts" 2>/dev/null; then
		skip "stat_opts/cgroup" "no writable cgroup v2 hierarchy"
		return
	fi
	sh -c "echo \$\$ >'$so_root/pms-stat-opts/cgroup.procs' && exec '$BUILD_DIR/demo/pms-loops' --seconds 2" &
	so_pid=$!
	sleep 0.2
	perf stat -a -x, -e task-clock,page-faults -G pms-stat-opts -- sleep 1 2>"$so_tmp/p" &
	so_ppid=$!
	"$PMUSCOPE" stat -a -G pms-stat-opts -x, -e task-clock,page-faults -- sleep 1 2>"$so_tmp/o"
	wait "$so_ppid"
	so_o=$(awk -F, '$3 == "task-clock" && $4 == "pms-stat-opts" { print $1 }' "$so_tmp/o")
	so_p=$(awk -F, '$3 == "task-clock" && $4 == "pms-stat-opts" { print $1 }' "$so_tmp/p")
	if [ -n "$so_o" ] && [ -n "$so_p" ] && awk -v a="$so_o" -v b="$so_p" 'BEGIN { exit !(b > 100 && a / b > 0.7 && a / b < 1.4) }'; then
		pass "stat_opts/cgroup" "-G: the loop's cgroup task-clock $so_o ms, perf $so_p ms in the same second"
	else
		fail "stat_opts/cgroup" "ours '$so_o', perf '$so_p' ($(head -2 "$so_tmp/o" | tr '\n' ' '))"
	fi
	# the rows of --for-each-cgroup: events x cgroups in perf's order, with the cgroup column
	"$PMUSCOPE" stat -a --for-each-cgroup pms-stat-opts,/ -x, -e task-clock,page-faults -- sleep 0.2 2>&1 |
		awk -F, '{ print $3 "," $4 }' >"$so_tmp/o"
	perf stat -a --for-each-cgroup pms-stat-opts,/ -x, -e task-clock,page-faults -- sleep 0.2 2>&1 |
		awk -F, '{ print $3 "," $4 }' >"$so_tmp/p"
	if [ "$(wc -l <"$so_tmp/o")" = 4 ] && cmp -s "$so_tmp/o" "$so_tmp/p"; then
		pass "stat_opts/for_each_cgroup" "rows as perf: $(tr '\n' ' ' <"$so_tmp/o")"
	else
		fail "stat_opts/for_each_cgroup" "ours $(tr '\n' ' ' <"$so_tmp/o"), perf $(tr '\n' ' ' <"$so_tmp/p")"
	fi
	kill "$so_pid" 2>/dev/null
	wait "$so_pid" 2>/dev/null
	rmdir "$so_root/pms-stat-opts" 2>/dev/null
}

# -M and --metric-only: values that agree with the shadow metrics; no value says which input and why
so_metrics() {
	"$PMUSCOPE" stat -a -M CPUs_utilized -x, -- sleep 0.2 2>"$so_tmp/o"
	so_m=$(awk -F, '$3 == "CPUs_utilized" { print $6 }' "$so_tmp/o")
	so_s=$(awk -F, '$3 == "task-clock" { print $6 }' "$so_tmp/o")
	if [ -n "$so_m" ] && [ "$so_m" = "$so_s" ] && awk -v m="$so_m" 'BEGIN { exit !(m > 1.8 && m < 2.2) }'; then
		pass "stat_opts/metric_cpus" "-M CPUs_utilized -a on 2 CPUs: $so_m, as the task-clock row"
	else
		fail "stat_opts/metric_cpus" "metric '$so_m', shadow '$so_s'"
	fi
	if [ -e /sys/bus/event_source/devices/cpu/type ]; then
		skip "stat_opts/metric_missing_input" "this machine has a CPU PMU: IPC has a value (the arm64 rig checks it)"
	else
		so_l=$("$PMUSCOPE" stat -M IPC -- true 2>&1 | grep ' IPC')
		case $so_l in
		*"<not counted> IPC: instructions: not supported"*) pass "stat_opts/metric_missing_input" "$so_l" ;;
		*) fail "stat_opts/metric_missing_input" "'$so_l'" ;;
		esac
	fi
	"$PMUSCOPE" stat -a --metric-only -M CPUs_utilized,IPC -A -x, -- sleep 0.1 2>&1 | grep -v '^pmuscope:' >"$so_tmp/o"
	if [ "$(sed -n 1p "$so_tmp/o")" = ",CPUs utilized,insn per cycle," ] &&
		[ "$(grep -c '^CPU[0-9]*,[0-9.]*,,$' "$so_tmp/o")" = "$(nproc)" ]; then
		pass "stat_opts/metric_only" "--metric-only -A -x,: a header and one line per CPU"
	else
		fail "stat_opts/metric_only" "$(tr '\n' '|' <"$so_tmp/o")"
	fi
}

# -B: perf's default; in this locale (no thousands separator) the same digits as perf
so_big_num() {
	LC_ALL=C.UTF-8 "$PMUSCOPE" stat -B -e page-faults -- "$BUILD_DIR/demo/pms-faults" >/dev/null 2>"$so_tmp/o" ||
		LC_ALL=C.UTF-8 "$PMUSCOPE" stat -B -e page-faults -- true 2>"$so_tmp/o"
	so_v=$(awk '/page-faults/ { print $1 }' "$so_tmp/o")
	case $so_v in
	*[!0-9]*|"") fail "stat_opts/big_num" "'$so_v' in a locale without separators" ;;
	*) pass "stat_opts/big_num" "-B in C.UTF-8: $so_v, no separator (as perf there)" ;;
	esac
}

if ! command -v perf >/dev/null 2>&1; then
	skip "stat_opts" "perf is not installed: nothing to compare with"
else
	so_per_topo
	so_detailed
	so_null_run
	so_repeat_interval
	so_attrs
	so_delay
	so_hooks_and_outputs
	so_hardware
	so_cgroup
	so_metrics
	so_big_num
fi
rm -rf "$so_tmp"
