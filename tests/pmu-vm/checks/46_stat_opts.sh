# SPDX-License-Identifier: MIT
# stat's perf options on real counters: -M IPC/CPI on the exact-count loop (icount shift=0: a user
# cycle per user instruction, so both are exactly 1.00), the --metric-only layout, a metric whose
# input the PMU lacks says which and why, and -d lists perf's detailed rows (those QEMU's PMUv3
# lacks are <not supported>).
N=100000
"$PMUSCOPE" stat --all-user -M IPC,CPI -x, -- "$WL/loop" $N >m.out 2>&1
ipc=$(awk -F, '$3 == "IPC" { print $6 }' m.out)
cpi=$(awk -F, '$3 == "CPI" { print $6 }' m.out)
if [ "$ipc" = 1.00 ] && [ "$cpi" = 1.00 ]; then
	pass metric-ipc-cpi "-M IPC,CPI --all-user on loop $N: IPC $ipc, CPI $cpi"
else
	fail metric-ipc-cpi "IPC '$ipc', CPI '$cpi': $(tr '\n' '|' <m.out)"
fi
"$PMUSCOPE" stat --all-user --metric-only -M IPC,CPI -x, -- "$WL/loop" $N >mo.out 2>&1
if [ "$(grep -v '^pmuscope:' mo.out | tr '\n' '|')" = "insn per cycle,cycles per insn,|1.00,1.00,|" ]; then
	pass metric-only "--metric-only -x,: units header, then 1.00,1.00"
else
	fail metric-only "$(tr '\n' '|' <mo.out)"
fi
"$PMUSCOPE" stat --all-user --metric-only -M IPC -- "$WL/loop" $N >mh.out 2>&1
if grep -q '^ *insn per cycle$' mh.out && grep -q '^ *1\.00$' mh.out; then
	pass metric-only-table "--metric-only table: '$(grep 'insn per cycle' mh.out)' over '$(grep '1\.00$' mh.out)'"
else
	fail metric-only-table "$(tr '\n' '|' <mh.out)"
fi
"$PMUSCOPE" stat -M cache_miss_rate -- "$WL/loop" 1000 >cm.out 2>&1
line=$(grep ' cache_miss_rate' cm.out)
case $line in
*"<not counted> cache_miss_rate: cache-"*) pass metric-missing-input "$line" ;;
*'# '*[0-9]*' cache_miss_rate'*) pass metric-missing-input "QEMU counts the cache events: $line" ;;
*) fail metric-missing-input "'$line': $(tr '\n' '|' <cm.out)" ;;
esac
"$PMUSCOPE" stat -d -x, -- "$WL/loop" 1000 >d.out 2>&1
rows=$(awk -F, 'NF >= 7 { print $3 }' d.out | tr '\n' ' ')
opened=$(awk -F, 'NF >= 7 && $1 !~ /^</ && $3 ~ /cache|LLC/ { print $3 }' d.out | tr '\n' ' ')
case $rows in
*"branch-misses L1-dcache-loads L1-dcache-load-misses LLC-loads LLC-load-misses"*)
	pass detailed-rows "-d: perf's rows after the default set; counted here: ${opened:-none}" ;;
*) fail detailed-rows "rows: $rows" ;;
esac
