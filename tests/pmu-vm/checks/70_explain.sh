# SPDX-License-Identifier: MIT
# Check 7: explain describes the ARMv8 meaning: raw 0x08 is INST_RETIRED, the generic
# cache-misses maps to L1D_CACHE_REFILL (0x03) on ARM (the "semantic trap": LLC on Intel).
if "$PMUSCOPE" explain armv8_pmuv3/event=0x8/ >e1.out 2>&1; then
	if grep -qE '0x0*8[^0-9a-fA-F]+INST_RETIRED' e1.out; then
		pass explain-raw "$(grep -m1 -E '0x0*8[^0-9a-fA-F]+INST_RETIRED' e1.out | sed 's/  */ /g')"
	else
		fail explain-raw "no INST_RETIRED in: $(excerpt e1.out 300)"
	fi
else
	fail explain-raw "exit $?: $(excerpt e1.out)"
fi
if "$PMUSCOPE" explain cache-misses >e2.out 2>&1; then
	if grep -qE '0x0*3[^0-9a-fA-F]+L1D_CACHE_REFILL' e2.out; then
		pass explain-cache-misses "$(grep -i -m1 'L1D_CACHE_REFILL' e2.out | sed 's/  */ /g')"
	else
		fail explain-cache-misses "no L1D_CACHE_REFILL (0x03) in: $(excerpt e2.out 300)"
	fi
else
	fail explain-cache-misses "exit $?: $(excerpt e2.out)"
fi
# The generic hardware events through armv8_pmuv3_perf_map: cycles = CPU_CYCLES (0x11),
# instructions = INST_RETIRED (0x08).
for spec in cycles:CPU_CYCLES:11 instructions:INST_RETIRED:08; do
	ev=${spec%%:*} rest=${spec#*:}
	name=${rest%%:*} code=${rest#*:}
	# The ARMv8 code and its name on one line (not just the generic PERF_COUNT_HW_ name).
	if "$PMUSCOPE" explain "$ev" >e3.out 2>&1 && grep -qE "0x0*$code[^0-9a-fA-F]+$name" e3.out; then
		pass "explain-$ev" "$(grep -m1 -E "0x0*$code[^0-9a-fA-F]+$name" e3.out | sed 's/  */ /g')"
	else
		fail "explain-$ev" "want $name (0x$code): $(excerpt e3.out 300)"
	fi
done
