# SPDX-License-Identifier: MIT
# The library's public API on the real armv8_pmuv3 driver (workload api_count, built against
# <pmuscope/pmuscope.h> and the static library only), with perf_user_access = 1 so reads take
# the user page (PMXEVCNTR/PMCCNTR from EL0):
#  - api-exact: instructions:u around loop(N) is exact through the API, by the user page and by
#    read(2) alike: delta(2N) - delta(N) = LOOP_BODY * N for both, and the paths are as asked;
#  - api-nested: a region nested in another gets exactly its own instructions
#    (inner(2N) - inner(N) = LOOP_BODY * 2N), the outer one its own plus the inner's, give or
#    take 64: the inner begin/end read the clock, and the vDSO's clock_gettime retries its
#    seqlock a varying number of times;
#  - api-mux: 12 x instructions:u in one set are multiplexed (0 < running < 100%) and each scaled
#    value is within 5% of the exact count (the tolerance of check 50);
#  - api-cost: instructions of one user-page read and of one read(2), user part and with the
#    kernel's (reported, and the user page must be cheaper than the system call).
ua=/proc/sys/kernel/perf_user_access
old_ua=""
if [ -w $ua ]; then
	old_ua=$(cat $ua)
	echo 1 >$ua
fi
want_up=syscall
[ -n "$old_ua" ] && want_up=user-page
N=100000

"$WL/api_count" exact $N >ax1.out 2>&1
"$WL/api_count" exact $((2 * N)) >ax2.out 2>&1
# shellcheck disable=SC2046 # the four fields on purpose
set -- $(awk '$1 == "exact" { print $2, $3, $4, $5 }' ax1.out)
u1=${1:-} p1=${2:-} s1=${3:-} q1=${4:-}
set -- $(awk '$1 == "exact" { print $2, $4 }' ax2.out)
u2=${1:-} s2=${2:-}
if [ -z "$u1" ] || [ -z "$u2" ]; then
	fail api-exact "$(excerpt ax1.out) $(excerpt ax2.out)"
elif [ $((u2 - u1)) -ne $((LOOP_BODY * N)) ] || [ $((s2 - s1)) -ne $((LOOP_BODY * N)) ]; then
	fail api-exact "user page: $u1 (N) $u2 (2N); read(2): $s1 $s2; want both diffs $((LOOP_BODY * N))"
elif [ "$p1" != "$want_up" ] || [ "$q1" != syscall ]; then
	fail api-exact "paths $p1 / $q1, want $want_up / syscall"
else
	pass api-exact "loop $N: $u1 by the $p1, $s1 by read(2); 2N-N = $((u2 - u1)) both ways"
fi

"$WL/api_count" nested $N >an1.out 2>&1
"$WL/api_count" nested $((2 * N)) >an2.out 2>&1
set -- $(awk '$1 == "nested" { print $2, $3, $4, $5 }' an1.out)
o1=${1:-} i1=${2:-} up=${3:-} sys=${4:-}
set -- $(awk '$1 == "nested" { print $2, $3 }' an2.out)
o2=${1:-} i2=${2:-}
if [ -z "$o1" ] || [ -z "$o2" ]; then
	fail api-nested "$(excerpt an1.out) $(excerpt an2.out)"
elif [ $((i2 - i1)) -ne $((LOOP_BODY * 2 * N)) ] || [ $((o2 - o1 - LOOP_BODY * 3 * N)) -gt 64 ] ||
	[ $((o2 - o1 - LOOP_BODY * 3 * N)) -lt -64 ]; then
	fail api-nested "inner $i1 $i2 (diff $((i2 - i1)), want $((LOOP_BODY * 2 * N))); outer $o1 $o2 (diff $((o2 - o1)), want $((LOOP_BODY * 3 * N)) +-64)"
elif [ "$want_up" = user-page ] && [ "$up" != 2 ]; then
	fail api-nested "region ends read by the user page $up times, read(2) $sys times; want 2 and 0"
else
	pass api-nested "inner $i1 / $i2, outer $o1 / $o2: inner gets exactly its own loop, outer its own plus inner's ($up user-page reads, $sys read(2))"
fi

M=20000000
"$WL/api_count" mux $M >am.out 2>&1
awk '$1 == "mux"' am.out >am.rows
n=$(wc -l <am.rows)
if [ "$n" -ne 12 ]; then
	fail api-mux "$n rows: $(excerpt am.out 300)"
else
	exact=$((LOOP_BODY * M))
	pcts=$(awk '{ printf "%s ", $4 }' am.rows)
	err=$(awk -v x=$exact '{ e = ($3 - x) / x * 100; if (e < 0) e = -e; if (e > m) m = e } END { printf "%.3f", m }' am.rows)
	if ! awk '$4 >= 100 || $4 <= 0 { bad = 1 } END { exit bad }' am.rows; then
		fail api-mux "want every event 0 < running < 100%: $pcts"
	elif ! awk -v e="$err" 'BEGIN { exit !(e < 5) }'; then
		fail api-mux "loop $M = $exact instructions; scaled $(awk '{ printf "%s ", $3 }' am.rows), max error $err%"
	else
		pass api-mux "12 events, running % $pcts; scaled within $err% of $exact"
	fi
fi

K=1000
"$WL/api_count" cost $K >ac.out 2>&1
"$WL/api_count" cost $K instructions >ack.out 2>&1
set -- $(awk '$1 == "cost" { print $2, $3 }' ac.out)
cu=${1:-} cs=${2:-}
set -- $(awk '$1 == "cost" { print $2, $3 }' ack.out)
ku=${1:-} ks=${2:-}
if [ "$want_up" != user-page ]; then
	skip api-cost "no $ua: reads cannot take the user page"
elif [ -z "$cu" ] || [ -z "$ku" ]; then
	fail api-cost "$(excerpt ac.out) $(excerpt ack.out)"
elif [ "$ku" -ge "$ks" ]; then
	fail api-cost "user page $ku instructions per read, read(2) $ks: the user page should be cheaper"
else
	pass api-cost "instructions per read: user page $cu (user) / $ku (all); read(2) $cs (user) / $ks (user + kernel)"
fi
[ -n "$old_ua" ] && echo "$old_ua" >$ua
