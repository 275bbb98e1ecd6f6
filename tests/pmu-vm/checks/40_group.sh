# SPDX-License-Identifier: MIT
# Check 4: a {cycles,instructions} group is counted together (same running time, 100%; in icount
# shift=0 user-space cycles equal instructions, so an atomic group read shows equal values), and
# :u excludes the kernel's share (:u < unmodified). The IPC metric of the :u group is exactly 1.
N=100000
"$PMUSCOPE" stat -x, -e '{cycles:u,instructions:u}' -- "$WL/loop" $N >gu.out 2>&1
rc=$?
csv_rows gu.out >gu.rows
if [ $rc -ne 0 ] || [ "$(wc -l <gu.rows)" -ne 2 ]; then
	fail group-user "exit $rc, rows: $(excerpt gu.rows) out: $(excerpt gu.out)"
elif awk 'NR == 1 { c = $1; t = $3 } NR == 2 { i = $1; ok = (c == i && t == $3 && c > 0) }
	$4 != "100.00" && $4 != "100" { ok = 0; bad = 1 } END { exit !(ok && !bad) }' gu.rows; then
	pass group-user "{cycles:u,instructions:u}: $(tr '\n' '|' <gu.rows)"
else
	fail group-user "want equal values, equal run times, 100%: $(tr '\n' '|' <gu.rows)"
fi
# The derived metric follows: insn per cycle (CSV column 6 of the instructions row) is 1.
ipc=$(awk -F, '$3 == "instructions:u" { print $6; exit }' gu.out)
if awk -v v="$ipc" 'BEGIN { exit !(v != "" && v + 0 == 1) }'; then
	pass group-ipc "insn per cycle $ipc"
else
	fail group-ipc "instructions:u row metric '$ipc', want 1 (cycles:u = instructions:u): $(grep 'instructions:u' gu.out)"
fi
"$PMUSCOPE" stat -x, -e '{cycles,instructions}' -- "$WL/loop" $N >gk.out 2>&1
rc=$?
csv_rows gk.out >gk.rows
if [ $rc -ne 0 ] || [ "$(wc -l <gk.rows)" -ne 2 ] ||
	! awk '$1 !~ /^[0-9]+$/ || $1 == 0 { bad = 1 } END { exit bad }' gk.rows; then
	fail group-all "{cycles,instructions}: exit $rc, rows: $(tr '\n' '|' <gk.rows) $(excerpt gk.out)"
	fail user-excludes-kernel "no {cycles,instructions} counts to compare with"
else
	pass group-all "{cycles,instructions}: $(tr '\n' '|' <gk.rows)"
	iu=$(awk 'NR == 2 { print $1 }' gu.rows) ik=$(awk 'NR == 2 { print $1 }' gk.rows)
	cu=$(awk 'NR == 1 { print $1 }' gu.rows) ck=$(awk 'NR == 1 { print $1 }' gk.rows)
	if [ -n "$iu" ] && [ "$iu" -lt "$ik" ] 2>/dev/null && [ "$cu" -lt "$ck" ] 2>/dev/null; then
		pass user-excludes-kernel "instructions:u $iu < instructions $ik; cycles:u $cu < cycles $ck"
	else
		fail user-excludes-kernel "instructions:u '$iu' vs instructions '$ik'; cycles:u '$cu' vs cycles '$ck'"
	fi
fi
