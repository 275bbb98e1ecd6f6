# SPDX-License-Identifier: MIT
# Helpers for guest checks (sourced by /init before each /checks/NN_*.sh; busybox sh).
# A check reports with pass/fail/skip NAME DETAIL (NAME without spaces); it may report several
# results. $PMUSCOPE is the tool, $WL the workload dir (loop, perfcount), cwd a scratch tmpfs.

pass() { echo "PMSCHECK pass $1 ${2:-}"; }
fail() { echo "PMSCHECK fail $1 ${2:-}"; }
skip() { echo "PMSCHECK skip $1 ${2:-}"; }

# Body length of the loop in workloads/loop.h.
LOOP_BODY=4

# csv_rows FILE: the counter rows of `stat -x,` output (perf's column order
# value,unit,event,run-time,run-%,...) as "value event runtime pct", one per event, in order.
# Rows are recognised by a numeric or <not counted>/<not supported> first field.
csv_rows() {
	awk -F, 'NF >= 3 && ($1 ~ /^[0-9]+(\.[0-9]+)?$/ || $1 ~ /^<not (counted|supported)>$/) {
		v = $1; gsub(/ /, "_", v); print v, $3, ($4 == "" ? "-" : $4), ($5 == "" ? "-" : $5) }' "$1"
}

# stat_value EVENT N [extra stat options]: prints the count of EVENT over `loop N` (CSV),
# or nothing (and returns 1) on failure; the stat output is kept in ./stat.out.
stat_value() {
	ev=$1 n=$2
	shift 2
	"$PMUSCOPE" stat -x, "$@" -e "$ev" -- "$WL/loop" "$n" >stat.out 2>&1 || return 1
	v=$(csv_rows stat.out | awk 'NR == 1 { print $1 }')
	case $v in
	'' | *[!0-9]*) return 1 ;;
	esac
	echo "$v"
}

# Short excerpt of a file for a detail field (one line).
excerpt() { head -c "${2:-200}" "$1" | tr '\n' '|'; }
