# SPDX-License-Identifier: MIT
# Shared by benchmarks that need a big perf.data: perf's own file of the report benchmark's
# workload (perf record -e cpu-clock -c 20000 -g of two CPU-bound pms-shares, one per CPU),
# long enough for >= WANT samples. The sample rate depends on the machine (hrtimer
# interrupts in a VM) and its load, so a 0.5 s recording measures it first.
# Usage: . bench/lib/big_perf_data.sh; big_perf_data OUT WANT DEMO || exit 1
# Sets big_samples (SAMPLE records in OUT) and prints one line of progress; $PMS_BENCH_BIG
# names an existing file to use instead (the benchmarks of one run can share it).

# big_samples_in FILE: SAMPLE records, as perf report --stats counts them.
big_samples_in() { perf report -i "$1" --stats 2>/dev/null | awk '/SAMPLE events:/ { print $3; exit }'; }

# big_record FILE SECONDS DEMO: two pms-shares for SECONDS, per task (inherited), not -a.
big_record() {
	perf record -q -e cpu-clock -c 20000 -g -o "$1" -- \
		sh -c "'$3' --seconds $2 >/dev/null & '$3' --seconds $2 >/dev/null & wait" \
		>/dev/null 2>"$1.err" || { echo "perf record failed: $(tail -n 1 "$1.err")"; return 1; }
}

big_perf_data() {
	big_out=$1 big_want=$2 big_demo=$3
	if [ -n "${PMS_BENCH_BIG:-}" ] && [ -s "$PMS_BENCH_BIG" ]; then
		cp "$PMS_BENCH_BIG" "$big_out" || return 1
		big_samples=$(big_samples_in "$big_out")
		echo "using \$PMS_BENCH_BIG=$PMS_BENCH_BIG: ${big_samples:-0} samples"
		return 0
	fi
	big_record "$big_out.cal" 0.5 "$big_demo" || return 1
	big_rate=$(($(big_samples_in "$big_out.cal") * 2))
	rm -f "$big_out.cal" "$big_out.cal.err"
	[ "$big_rate" -gt 0 ] || { echo "no samples in a 0.5 s recording"; return 1; }
	big_secs=$(awk -v r="$big_rate" -v w="$big_want" 'BEGIN { s = w * 1.35 / r; if (s > 60) s = 60; printf "%.1f", s }')
	echo "recording ${big_secs}s of 2 x pms-shares for >= $big_want samples ($big_rate samples/s; perf record -e cpu-clock -c 20000 -g)..."
	big_record "$big_out" "$big_secs" "$big_demo" || return 1
	big_samples=$(big_samples_in "$big_out")
	[ "${big_samples:-0}" -ge "$big_want" ] || echo "note: only $big_samples samples (< $big_want): the machine got busier"
	return 0
}
