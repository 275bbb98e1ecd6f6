# SPDX-License-Identifier: MIT
# Issue 4 (sampling) on the real PMU: `record -e cycles:u -c P` of `shares N` (3N then N loop
# iterations in hot_a / hot_b) takes exactly count/P samples (+-1), count being the exact
# cycles:u of the same run under stat; `instructions:u` (a general counter) shows QEMU 7.2's
# icount shift=0 limitation (overflows noticed at the next exception, about one per 4 ms tick);
# with a companion cpu-clock event it samples exactly again; the files (also with -g and with
# --call-graph dwarf) go to the host, which runs its own `pmuscope report` on them
# (tests/pmu-vm/host/90_report.sh): between "PMSFILE begin NAME MD5" and "PMSFILE end" lines
# on the console, gzip + base64.
N=1250000
P=100000
# The workload runs from the path its host copy has (run.sh puts a copy there), so the host's
# report finds the binary the guest's MMAP2 records name without a --symfs.
wl=$(cat /lib/pmu-vm/hostwl 2>/dev/null)/shares
[ -x "$wl" ] || wl=$WL/shares

# ship FILE NAME: the file to the host console log, between markers, gzipped (stack copies
# shrink ~10x: fewer console bytes).
ship() {
	{
		echo "PMSFILE begin $2 $(md5sum <"$1" | cut -d' ' -f1)"
		gzip -c "$1" | base64
		echo "PMSFILE end"
	} >/dev/console
}

# samples_of ERRFILE: the sample count of record's summary line.
samples_of() { sed -n 's/.*(\([0-9]*\) samples) \]$/\1/p' "$1"; }

"$PMUSCOPE" stat -x, -e cycles:u -- "$wl" "$N" >stat.out 2>&1
count=$(csv_rows stat.out | awk 'NR == 1 { print $1 }')
case $count in
'' | *[!0-9]*)
	fail record-cycles "stat -e cycles:u gave no count: $(excerpt stat.out)"
	count=0
	;;
esac
want=$((count / P))

if "$PMUSCOPE" record -e cycles:u -c "$P" -o c.data -- "$wl" "$N" >c.out 2>c.err; then
	got=$(samples_of c.err)
	if [ -n "$got" ] && [ $((got - want)) -le 1 ] && [ $((want - got)) -le 1 ]; then
		pass record-cycles "cycles:u -c $P: $got samples, exact count $count / $P = $want"
	else
		fail record-cycles "cycles:u -c $P: '${got}' samples, want $want +-1 (count $count): $(excerpt c.err)"
	fi
	ship c.data cycles.data
else
	fail record-cycles "record -e cycles:u failed (exit $?): $(excerpt c.err)"
fi

if "$PMUSCOPE" record -g -e cycles:u -c "$P" -o g.data -- "$wl" "$N" >g.out 2>g.err; then
	got=$(samples_of g.err)
	if [ -n "$got" ] && [ $((got - want)) -le 1 ] && [ $((want - got)) -le 1 ]; then
		pass record-cycles-g "cycles:u -c $P -g: $got samples, want $want +-1"
	else
		fail record-cycles-g "cycles:u -c $P -g: '${got}' samples, want $want +-1: $(excerpt g.err)"
	fi
	ship g.data cycles-g.data
else
	fail record-cycles-g "record -g -e cycles:u failed (exit $?): $(excerpt g.err)"
fi

# DWARF call graphs: record copies the user stack (the arm64 build has no unwinder; it needs
# none), the host's report unwinds the arm64 stacks (perf 6.1 cannot: "unwind: target
# platform=arm64 is not supported"). ~300 KB, about a second on the console.
if "$PMUSCOPE" record --call-graph dwarf -e cycles:u -c "$P" -o d.data -- "$wl" "$N" >d.out 2>d.err; then
	got=$(samples_of d.err)
	if [ -n "$got" ] && [ $((got - want)) -le 1 ] && [ $((want - got)) -le 1 ]; then
		pass record-cycles-dwarf "cycles:u -c $P --call-graph dwarf: $got samples, want $want +-1"
	else
		fail record-cycles-dwarf "cycles:u -c $P --call-graph dwarf: '${got}' samples, want $want +-1: $(excerpt d.err)"
	fi
	ship d.data cycles-dwarf.data
else
	fail record-cycles-dwarf "record --call-graph dwarf -e cycles:u failed (exit $?): $(excerpt d.err)"
fi

# instructions:u can only use a general counter. QEMU 7.2 with icount shift=0 arms its overflow
# timer one event early, finds no overflow then and never re-arms, so an overflow is only seen
# at the next exception: about one sample per 4 ms timer tick (HZ=250 at 1 ns per instruction
# of guest time) instead of count/P. Expected here: between 1 and ticks+2 samples. Should a
# later QEMU fix this, count/P +-1 is accepted too (and this comment is then out of date).
if "$PMUSCOPE" record -e instructions:u -c "$P" -o i.data -- "$wl" "$N" >i.out 2>i.err; then
	got=$(samples_of i.err)
	ticks=$((count / 4000000))
	if [ -z "$got" ]; then
		fail record-instructions "no summary line: $(excerpt i.err)"
	elif [ $((got - want)) -le 1 ] && [ $((want - got)) -le 1 ]; then
		pass record-instructions "instructions:u -c $P: $got samples = count/P (QEMU samples general counters exactly now)"
	elif [ "$got" -ge 1 ] && [ "$got" -le $((ticks + 2)) ]; then
		pass record-instructions "instructions:u -c $P: $got samples for count/P = $want: the QEMU general-counter limitation (~1 per 4 ms tick, $ticks ticks)"
	else
		fail record-instructions "instructions:u -c $P: $got samples; want $want +-1, or 1..$((ticks + 2)) under QEMU's general-counter limitation"
	fi
	ship i.data instructions.data
else
	fail record-instructions "record -e instructions:u failed (exit $?): $(excerpt i.err)"
fi

# The workaround of shared/reference/qemu-arm64-pmu.md: with a companion cpu-clock event in the
# same recording, instructions:u samples exactly again (measured: 200 of 200, with cpu-clock
# under the same -c, i.e. every 100 us of guest time, as with a 10 us period in the note):
# empirical QEMU 7.2 behaviour (the frequent timer exits let it notice the overflows), and a
# test of record with two events on one ring.
if "$PMUSCOPE" record -e instructions:u -c "$P" -e cpu-clock -o ic.data -- "$wl" "$N" >ic.out 2>ic.err; then
	"$PMUSCOPE" script -i ic.data -F event >ic.script 2>&1
	got=$(grep -c 'instructions:u:' ic.script)
	clk=$(grep -c 'cpu-clock:' ic.script)
	if [ $((got - want)) -le 1 ] && [ $((want - got)) -le 1 ] && [ "$clk" -gt 0 ]; then
		pass record-instructions-companion "instructions:u -c $P -e cpu-clock: $got instructions:u samples (want $want +-1), $clk cpu-clock"
	else
		fail record-instructions-companion "$got instructions:u samples (want $want +-1), $clk cpu-clock: $(excerpt ic.err) $(excerpt ic.script 100)"
	fi
else
	fail record-instructions-companion "record -e instructions:u -e cpu-clock failed (exit $?): $(excerpt ic.err)"
fi

# Issue 16 (annotate --group, IPC per line) on the real PMU: a {cycles:u,instructions:u} group
# sampled with the same period, with the cpu-clock companion so the general counter's overflows
# are seen. Under icount both count the same events (one cycle per instruction), so the host's
# `annotate --group` must give the loop's lines instructions/cycles = 1. Shipped as group.data.
if "$PMUSCOPE" record -e '{cycles:u,instructions:u}' -e cpu-clock -c "$P" -o grp.data -- "$wl" "$N" >grp.out 2>grp.err; then
	"$PMUSCOPE" script -i grp.data -F event >grp.script 2>&1
	cyc=$(grep -c 'cycles:u:' grp.script)
	ins=$(grep -c 'instructions:u:' grp.script)
	if [ $((cyc - want)) -le 1 ] && [ $((want - cyc)) -le 1 ] && [ $((ins - want)) -le 1 ] && [ $((want - ins)) -le 1 ]; then
		pass record-group "{cycles:u,instructions:u} -c $P -e cpu-clock: $cyc cycles:u and $ins instructions:u samples, want $want +-1 each"
	else
		fail record-group "$cyc cycles:u, $ins instructions:u samples, want $want +-1 each: $(excerpt grp.err) $(excerpt grp.script 100)"
	fi
	ship grp.data group.data
else
	fail record-group "record -e {cycles:u,instructions:u} -e cpu-clock failed (exit $?): $(excerpt grp.err)"
fi
