# SPDX-License-Identifier: MIT
# Check 6: a group with more events than counters. The kernel's group validation counts a
# disabled leader only if it has enable_on_exec: so a per-task group of 8 cycles on 7 counters
# (leader enable_on_exec, as perf opens it) is refused at open with EINVAL, while a CPU-wide one
# (-a: leader disabled, enabled by ioctl) is accepted and then never runs (time_running = 0).
# Either way stat must say clearly that the group cannot be scheduled — never print zeros.
# A group of exactly the counters must count normally.
N=100000
nr=$(dmesg | sed -n 's/.*armv8_pmuv3 PMU driver, \([0-9]*\) counters available.*/\1/p' | head -n 1)
nr=${nr:-7}
group() { # group COUNT: "{cycles:u,...}" with COUNT members
	g='' i=0
	while [ $i -lt "$1" ]; do g="$g${g:+,}cycles:u"; i=$((i + 1)); done
	echo "{$g}"
}
oversized() { # oversized RESULT-NAME [stat options]
	res=$1
	shift
	"$PMUSCOPE" stat -x, "$@" -e "$(group $((nr + 1)))" -- "$WL/loop" $N >big.out 2>&1
	rc=$?
	csv_rows big.out >big.rows
	numeric=$(awk '$1 ~ /^[0-9]/' big.rows | wc -l)
	notcounted=$(grep -c '^<not_counted>' big.rows)
	what="group of $((nr + 1)) cycles:u on $nr counters${*:+ ($*)}"
	if [ "$numeric" -ne 0 ]; then
		fail "$res" "$what: printed $numeric counts as if it ran; messages: '$(grep -v ',' big.out | tr '\n' ' ')'; rows: $(awk '{ printf "%s ", $1 }' big.rows)"
	elif [ $rc -eq 0 ] && grep -q 'never scheduled' big.out && [ "$notcounted" -eq $((nr + 1)) ]; then
		pass "$res" "$what: $notcounted x <not counted>, warning: $(grep 'never scheduled' big.out | head -n 1)"
	elif [ $rc -ne 0 ] && grep -qiE 'counter|schedul|fit' big.out; then
		pass "$res" "$what refused at open (exit $rc): $(grep -iE 'counter|schedul|fit' big.out | head -n 1)"
	else
		fail "$res" "$what: exit $rc, no clear 'never scheduled' report: $(excerpt big.out 300)"
	fi
}
oversized oversized-group
oversized oversized-group-cpuwide -a
"$PMUSCOPE" stat -x, -e "$(group "$nr")" -- "$WL/loop" $N >fit.out 2>&1
rc=$?
csv_rows fit.out >fit.rows
if [ $rc -eq 0 ] && [ "$(wc -l <fit.rows)" -eq "$nr" ] &&
	awk '$1 !~ /^[0-9]+$/ || $1 == 0 || ($4 != "100.00" && $4 != "100") { bad = 1 } END { exit bad }' fit.rows &&
	! grep -q 'never scheduled' fit.out; then
	pass fitting-group "group of $nr counted, 100% each: $(awk '{ printf "%s ", $1 }' fit.rows)"
else
	fail fitting-group "group of $nr: exit $rc: $(tr '\n' '|' <fit.rows) $(excerpt fit.out)"
fi
