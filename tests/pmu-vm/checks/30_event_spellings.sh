# SPDX-License-Identifier: MIT
# Check 3: the same exact count through the generic name, the raw code, the PMU's event term
# and the PMU's sysfs alias (and with the config1 term long=1), one at a time, and the first four
# at once (4 of 6 general counters).
N=100000
ref=$(stat_value instructions:u $N)
if [ -z "$ref" ]; then
	for ev in r8:u armv8_pmuv3/event=0x8/u armv8_pmuv3/inst_retired/u armv8_pmuv3/event=0x8,long=1/u together; do
		fail "spelling-$ev" "instructions:u failed: $(excerpt stat.out)"
	done
else
	# long=1 is a config1 format term (64-bit chained counter); its name holds the CSV separator.
	for ev in r8:u armv8_pmuv3/event=0x8/u armv8_pmuv3/inst_retired/u armv8_pmuv3/event=0x8,long=1/u; do
		v=$(stat_value "$ev" $N)
		if [ "$v" = "$ref" ]; then
			pass "spelling-$ev" "$v = instructions:u"
		else
			fail "spelling-$ev" "got '${v:-error: $(excerpt stat.out)}', instructions:u gave $ref"
		fi
	done
	"$PMUSCOPE" stat -x, -e instructions:u -e r8:u -e armv8_pmuv3/event=0x8/u \
		-e armv8_pmuv3/inst_retired/u -- "$WL/loop" $N >all.out 2>&1
	vals=$(csv_rows all.out | awk '{ printf "%s ", $1 }')
	if [ "$vals" = "$ref $ref $ref $ref " ]; then
		pass spelling-together "four spellings in one run: $vals"
	else
		fail spelling-together "expected 4 x $ref, got '$vals': $(excerpt all.out)"
	fi
fi
