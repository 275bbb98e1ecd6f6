# SPDX-License-Identifier: MIT
# Check 5: 12 events on 7 counters (3 x cycles:u, instructions:u, r8:u, inst_retired/u; only
# cycles may use the cycle counter) are multiplexed: each runs < 100% of the time, and each
# scaled estimate is within 5% of the exact instruction count of the same run measured alone
# (in icount shift=0 mode user cycles equal user instructions).
N=20000000
exact=$(stat_value instructions:u $N)
if [ -z "$exact" ]; then
	fail multiplex-running "instructions:u alone failed: $(excerpt stat.out)"
	fail multiplex-scaled "no exact count to compare with"
else
	set --
	for i in 1 2 3; do
		set -- "$@" -e cycles:u -e instructions:u -e r8:u -e armv8_pmuv3/inst_retired/u
	done
	"$PMUSCOPE" stat -x, "$@" -- "$WL/loop" $N >mux.out 2>&1
	rc=$?
	csv_rows mux.out >mux.rows
	n=$(wc -l <mux.rows)
	if [ $rc -ne 0 ] || [ "$n" -ne 12 ]; then
		fail multiplex-running "exit $rc, $n rows: $(excerpt mux.out 400)"
		fail multiplex-scaled "no 12 rows"
	else
		pcts=$(awk '{ printf "%s ", $4 }' mux.rows)
		if awk '$4 !~ /^[0-9.]+$/ || $4 >= 100 || $4 <= 0 { bad = 1 } END { exit bad }' mux.rows; then
			pass multiplex-running "12 events, running %: $pcts"
		else
			fail multiplex-running "want every event 0 < running < 100%: $pcts"
		fi
		err=$(awk -v x="$exact" '{ e = ($1 - x) / x * 100; if (e < 0) e = -e; if (e > m) m = e }
			END { printf "%.3f", m }' mux.rows)
		if awk -v e="$err" 'BEGIN { exit !(e < 5) }' &&
			awk '$1 !~ /^[0-9]+(\.[0-9]+)?$/ { bad = 1 } END { exit bad }' mux.rows; then
			pass multiplex-scaled "exact $exact, scaled $(awk '{ printf "%s ", $1 }' mux.rows), max error $err%"
		else
			fail multiplex-scaled "exact $exact, scaled $(awk '{ printf "%s ", $1 }' mux.rows), max error $err% (limit 5%)"
		fi
	fi
fi
