# SPDX-License-Identifier: MIT
# Check 8: -I prints per-interval deltas (perf's CSV: time,value,unit,event,...) that add up to
# the exact total of the same workload counted without -I.
N=10000000
exact=$(stat_value instructions:u $N)
if [ -z "$exact" ]; then
	fail interval "instructions:u without -I failed: $(excerpt stat.out)"
else
	"$PMUSCOPE" stat -x, -I 10 -e instructions:u -- "$WL/loop" $N >iv.out 2>&1
	rc=$?
	# Interval rows: a fractional timestamp, then a count or <not counted> (no delta that time).
	awk -F, 'NF >= 4 && $1 ~ /^ *[0-9]+\.[0-9]+$/ && ($2 ~ /^[0-9]+$/ || $2 ~ /^<not counted>$/) {
		v = $2; if (v !~ /^[0-9]+$/) v = 0; print $1 + 0, v }' iv.out >iv.rows
	n=$(wc -l <iv.rows)
	sum=$(awk '{ s += $2 } END { printf "%.0f", s }' iv.rows)
	if [ $rc -ne 0 ] || [ "$n" -lt 2 ]; then
		fail interval "exit $rc, $n interval rows: $(excerpt iv.out 300)"
	elif ! awk 'NR > 1 && $1 <= t { bad = 1 } { t = $1 } END { exit bad }' iv.rows; then
		fail interval "timestamps not increasing: $(tr '\n' '|' <iv.rows)"
	elif [ "$sum" = "$exact" ]; then
		pass interval "$n intervals of 10 ms sum to $sum = total without -I"
	else
		fail interval "$n intervals sum to $sum, total without -I is $exact: $(tr '\n' '|' <iv.rows)"
	fi
fi
