# SPDX-License-Identifier: MIT
# Rig premise for sampling, without pmuscope: overflow sampling of cpu_cycles:u (the dedicated
# cycle counter) every 100000 over a 20M-instruction loop gives count/period samples (+-1),
# nearly all in the loop, none lost. inst_retired (a general counter) is measured too and only
# reported: QEMU 7.2 in icount shift=0 mode notices its overflows at the next exception only.
"$WL/sample" 5000000 100000 >s.out 2>&1
"$WL/sample" 5000000 100000 0x08 >s8.out 2>&1
line=$(grep '^sample ' s.out)
if [ -z "$line" ]; then
	fail direct-sampling "sample failed: $(excerpt s.out)"
else
	eval "$(echo "$line" | sed 's/^sample //')"
	# shellcheck disable=SC2154 # set by the eval above
	if [ $((samples - expected)) -le 1 ] && [ $((expected - samples)) -le 1 ] && [ "$lost" -eq 0 ] &&
		[ $((in_loop * 100)) -ge $((samples * 95)) ]; then
		pass direct-sampling "cpu_cycles:u: $(echo "$line" | sed 's/^sample //'); inst_retired:u: $(sed -n 's/^sample //p' s8.out)"
	else
		fail direct-sampling "cpu_cycles:u: $line (want samples = expected +-1, >= 95% in the loop, none lost)"
	fi
fi
