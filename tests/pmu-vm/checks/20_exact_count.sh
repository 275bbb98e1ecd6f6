# SPDX-License-Identifier: MIT
# Check 2: `stat -e instructions:u -- loop N` is exact: count(2N) - count(N) = LOOP_BODY * N,
# and the count repeats run after run (icount shift=0, one vCPU); table and --json agree.
N=100000
a=$(stat_value instructions:u $N)
if [ -z "$a" ]; then
	fail exact-count "stat -x, -e instructions:u -- loop $N: $(excerpt stat.out)"
	fail exact-repeatable "no count"
else
	b=$(stat_value instructions:u $((2 * N)))
	if [ -z "$b" ]; then
		fail exact-count "stat on loop $((2 * N)): $(excerpt stat.out)"
	elif [ $((b - a)) -eq $((LOOP_BODY * N)) ]; then
		pass exact-count "count($N)=$a count($((2 * N)))=$b diff=$((b - a)) = $LOOP_BODY*$N; startup+exit $((a - LOOP_BODY * N))"
	else
		fail exact-count "count($N)=$a count($((2 * N)))=$b diff=$((b - a)), expected $((LOOP_BODY * N))"
	fi
	runs="$a"
	for i in 1 2; do
		runs="$runs $(stat_value instructions:u $N)"
	done
	if [ "$(echo "$runs" | tr ' ' '\n' | sort -u | wc -l)" -eq 1 ] && [ "$(echo "$runs" | wc -w)" -eq 3 ]; then
		pass exact-repeatable "3 runs of loop $N: $runs"
	else
		fail exact-repeatable "3 runs of loop $N: $runs"
	fi
fi
# The same exact count through the human table and --json (not only CSV).
if [ -n "$a" ]; then
	"$PMUSCOPE" stat -e instructions:u -- "$WL/loop" $N >table.out 2>&1
	t=$(awk '$2 == "instructions:u" { gsub(/[,.]/, "", $1); print $1; exit }' table.out)
	if [ "$t" = "$a" ]; then
		pass exact-table "table: $(grep -m1 'instructions:u' table.out | sed 's/  */ /g')"
	else
		fail exact-table "table shows '$t', CSV $a: $(excerpt table.out 300)"
	fi
	"$PMUSCOPE" stat --json -e instructions:u -- "$WL/loop" $N >json.out 2>&1
	j=$(tr '{' '\n' <json.out | grep -E '"event": *"instructions:u"' |
		sed -nE 's/.*"counter_value": *([0-9]+).*/\1/p' | head -n 1)
	if [ "$j" = "$a" ]; then
		pass exact-json "--json counter_value $j"
	else
		fail exact-json "--json counter_value '$j', CSV $a: $(excerpt json.out 300)"
	fi
else
	fail exact-table "no CSV count to compare with"
	fail exact-json "no CSV count to compare with"
fi
# -r: the mean of identical runs is the count, and the relative stddev (CSV column 3a) is 0.
"$PMUSCOPE" stat -r 3 -x, -e instructions:u -- "$WL/loop" $N >rep.out 2>&1
rv=$(awk -F, '$3 == "instructions:u" { print $1 "," $4; exit }' rep.out)
if [ -n "$a" ] && [ "$rv" = "$a,0.00%" ]; then
	pass exact-repeat-r "stat -r 3: $rv"
else
	fail exact-repeat-r "stat -r 3: '$rv', want '$a,0.00%': $(excerpt rep.out)"
fi
