# SPDX-License-Identifier: MIT
# Check 7: explain describes the ARMv8 meaning: raw 0x08 is INST_RETIRED, and the generic
# cache-misses maps to L1D_CACHE_REFILL (0x03) on ARM (the "semantic trap": LLC on Intel).
if "$PMUSCOPE" explain armv8_pmuv3/event=0x8/ >e1.out 2>&1; then
	if grep -qi 'INST_RETIRED' e1.out; then
		pass explain-raw "$(grep -i -m1 'INST_RETIRED' e1.out | sed 's/  */ /g')"
	else
		fail explain-raw "no INST_RETIRED in: $(excerpt e1.out 300)"
	fi
else
	fail explain-raw "exit $?: $(excerpt e1.out)"
fi
if "$PMUSCOPE" explain cache-misses >e2.out 2>&1; then
	if grep -qi 'L1D_CACHE_REFILL' e2.out && grep -qiE '0x0*3([^0-9a-f]|$)' e2.out; then
		pass explain-cache-misses "$(grep -i -m1 'L1D_CACHE_REFILL' e2.out | sed 's/  */ /g')"
	else
		fail explain-cache-misses "no L1D_CACHE_REFILL (0x03) in: $(excerpt e2.out 300)"
	fi
else
	fail explain-cache-misses "exit $?: $(excerpt e2.out)"
fi
