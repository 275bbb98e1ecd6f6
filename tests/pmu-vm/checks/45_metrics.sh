# SPDX-License-Identifier: MIT
# The insn-per-cycle metric on real counters follows perf 6.1's shadow stats, which pair events of the same
# privilege context (:u with :u) and average duplicate cycles events. In icount shift=0 mode
# user cycles equal user instructions, so the right IPC is exactly 1.
N=100000
# Duplicates: cycles:u twice + instructions:u, nothing multiplexed -> mean of the cycles -> 1.00.
"$PMUSCOPE" stat -x, -e cycles:u -e cycles:u -e instructions:u -- "$WL/loop" $N >dup.out 2>&1
ipc=$(awk -F, '$3 == "instructions:u" { print $6; exit }' dup.out)
if awk -v v="$ipc" 'BEGIN { exit !(v != "" && v + 0 == 1) }'; then
	pass ipc-duplicate-cycles "cycles:u x2 + instructions:u: insn per cycle $ipc"
else
	fail ipc-duplicate-cycles "cycles:u x2 + instructions:u: insn per cycle '$ipc', want 1 (perf averages duplicate cycles): $(grep instructions:u dup.out)"
fi
# Context: instructions:u with only unmodified cycles -> perf prints no IPC (different context).
"$PMUSCOPE" stat -x, -e cycles -e instructions:u -- "$WL/loop" $N >ctx.out 2>&1
ipc=$(awk -F, '$3 == "instructions:u" { print $6; exit }' ctx.out)
if [ -z "$ipc" ] && grep -q '^[0-9]*,,instructions:u,' ctx.out; then
	pass ipc-context "instructions:u next to cycles (kernel included): no IPC, as perf"
else
	fail ipc-context "instructions:u / cycles of another privilege context gives '$ipc' (perf prints none): $(grep instructions:u ctx.out)"
fi
