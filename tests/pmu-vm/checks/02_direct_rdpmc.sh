# SPDX-License-Identifier: MIT
# Rig premise for the library's user-space read path, without pmuscope: with
# perf_user_access = 1 and config1 bit 1, inst_retired (a general counter, via PMSELR/PMXEVCNTR)
# and cpu_cycles (the cycle counter, index 32, via PMCCNTR_EL0) are readable from EL0, and
# the user-read deltas around the loop are exact: delta(2N) - delta(N) = LOOP_BODY * N.
ua=/proc/sys/kernel/perf_user_access
if [ ! -w $ua ]; then
	skip direct-rdpmc "no $ua in this kernel"
else
	old=$(cat $ua)
	echo 1 >$ua
	N=100000
	"$WL/rdpmc" $N >r1.out 2>&1
	"$WL/rdpmc" $((2 * N)) >r2.out 2>&1
	echo "$old" >$ua
	for ev in inst_retired cpu_cycles; do
		# shellcheck disable=SC2046 # split into the four fields on purpose
		set -- $(awk -v e=$ev '$1 == "rdpmc" && $2 == e { print $3, $4, $5, $6 }' r1.out)
		idx=${1:-} width=${2:-} u1=${3:-} k1=${4:-}
		u2=$(awk -v e=$ev '$1 == "rdpmc" && $2 == e { print $5 }' r2.out)
		if [ -z "$u1" ] || [ -z "$u2" ]; then
			fail "direct-rdpmc-$ev" "rdpmc failed: $(excerpt r1.out) $(excerpt r2.out)"
		elif [ "$idx" = 0 ]; then
			fail "direct-rdpmc-$ev" "mmap page index 0: user reads not enabled ($(excerpt r1.out))"
		elif [ $((u2 - u1)) -ne $((LOOP_BODY * N)) ]; then
			fail "direct-rdpmc-$ev" "index $idx: user delta $u1 (N) $u2 (2N), diff $((u2 - u1)) != $((LOOP_BODY * N))"
		else
			pass "direct-rdpmc-$ev" "index $idx width $width: user delta $u1, read(2) delta $k1; 2N-N = $((u2 - u1))"
		fi
	done
fi
