# SPDX-License-Identifier: MIT
# shellcheck shell=sh
# The public C library as a program outside the tree uses it: the Criterion API tests and the
# examples, both built against the staged install ($BUILD_DIR/stage, `make install DESTDIR=...`)
# through pkg-config alone. Checks what nobody here wrote where there is such a truth:
#  - count: task-clock around a loop equals the thread's CPU time as clock_gettime
#    (CLOCK_THREAD_CPUTIME_ID) reads it, within 1% + 0.5 ms (both are the scheduler's accounting);
#  - regions: per thread calls exactly as made, outer >= inner, the JSON valid for jq;
#  - overflow: one sample per period of task-clock, all inside the hot function once symbolized;
#  - read_perf_data: per-event sample counts and the top function's self samples equal perf's
#    own reading of a file perf recorded here (perf script / perf report).
api_dir=$BUILD_DIR/examples
api_tmp=$(mktemp -d)

api_staged() {
	if [ -x "$BUILD_DIR/tests/api-tests" ] && [ -x "$api_dir/count" ]; then
		return 0
	fi
	skip "api" "examples or api-tests not built (make examples api-bin)"
	return 1
}

if api_staged; then
	# Criterion tests read their fixture relative to the source tree
	if (cd "$TOP" && "$BUILD_DIR/tests/api-tests" --jobs 2 >"$api_tmp/api.out" 2>&1); then
		pass "api-tests: $(sed -n 's/.*Synthesis: Tested: \([0-9]*\).*/\1/p' "$api_tmp/api.out") public-API tests"
	else
		fail "api-tests" "$(grep -E 'FAIL|CRASH|Synthesis|\[----\]' "$api_tmp/api.out" | head -n 12 | tr '\n' ' ')"
	fi

	# count: task-clock vs the thread's CPU clock
	if "$api_dir/count" task-clock,page-faults 100000000 >"$api_tmp/count.out" 2>&1; then
		tc=$(awk '$1 == "task-clock" { print $2 }' "$api_tmp/count.out")
		cpu=$(awk '$1 == "thread-cpu-ns" { print $2 }' "$api_tmp/count.out")
		path=$(awk '$1 == "task-clock" { print $NF }' "$api_tmp/count.out")
		if [ -n "$tc" ] && [ -n "$cpu" ] &&
			awk -v a="$tc" -v b="$cpu" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= 0.01 * b + 500000) }'; then
			pass "example count: task-clock $tc ns, thread CPU clock $cpu ns (read path: $path)"
		else
			fail "example count" "task-clock '$tc' vs thread CPU '$cpu': $(tr '\n' ' ' <"$api_tmp/count.out")"
		fi
	else
		fail "example count" "$(tr '\n' ' ' <"$api_tmp/count.out")"
	fi

	# regions: 3 threads x 7 calls of outer with inner nested
	if PMS_REGION_EVENTS=task-clock "$api_dir/regions" 3 7 "$api_tmp/regions.json" >"$api_tmp/regions.out" 2>&1; then
		bad=$(awk '$6 != 7 { print "calls " $6 " in " $0 }' "$api_tmp/regions.out")
		nth=$(awk '$4 == "outer" { n++ } END { print n + 0 }' "$api_tmp/regions.out")
		cmp=$(awk '$4 == "outer" { o[$2] = $10 } $4 == "inner" { i[$2] = $10 }
			END { for (t in o) if (o[t] < i[t]) print "tid " t ": outer " o[t] " < inner " i[t] }' "$api_tmp/regions.out")
		jcalls=$(jq '[.regions[].calls] | add' "$api_tmp/regions.json" 2>&1)
		if [ -z "$bad" ] && [ "$nth" = 3 ] && [ -z "$cmp" ] && [ "$jcalls" = 42 ]; then
			pass "example regions: 3 threads, 7 calls each of outer and inner, outer >= inner, JSON calls sum 42"
		else
			fail "example regions" "threads $nth; $bad $cmp; JSON calls '$jcalls'"
		fi
	else
		fail "example regions" "$(tr '\n' ' ' <"$api_tmp/regions.out")"
	fi

	# overflow: task-clock every 1 ms of CPU
	if "$api_dir/overflow" 1000000 300000000 >"$api_tmp/ov.out" 2>&1; then
		# shellcheck disable=SC2046 # the fields on purpose
		set -- $(awk '{ print $2, $4, $6, $8, $10 }' "$api_tmp/ov.out")
		if [ "${1:-0}" -ge 20 ] && [ "${3:-1}" = 0 ] && [ "${5:-0}" -ge $(( ${1:-0} * 9 / 10 )) ]; then
			pass "example overflow: $1 samples ($2 signals, $3 lost), $5 of them named hot_loop"
		else
			fail "example overflow" "$(cat "$api_tmp/ov.out")"
		fi
	else
		fail "example overflow" "$(cat "$api_tmp/ov.out")"
	fi

	# read_perf_data against perf's reading of a file perf recorded
	if ! command -v perf >/dev/null 2>&1; then
		skip "example read_perf_data" "perf not installed (the oracle)"
	elif ! perf record -q -g -o "$api_tmp/p.data" -- "$BUILD_DIR/demo/pms-threads" >/dev/null 2>&1 &&
		! perf record -q -g -o "$api_tmp/p.data" -- sh -c 'i=0; while [ $i -lt 200000 ]; do i=$((i+1)); done' >/dev/null 2>&1; then
		skip "example read_perf_data" "perf record failed here"
	else
		"$api_dir/read_perf_data" "$api_tmp/p.data" folded "$api_tmp/p.folded" >"$api_tmp/rd.out" 2>&1
		ours=$(awk '$1 == "event" { print $2, $3 }' "$api_tmp/rd.out" | sort)
		theirs=$(perf script -i "$api_tmp/p.data" -F event 2>/dev/null | sed 's/: *$//' | sort | uniq -c |
			awk '{ print $2, $1 }' | sort)
		top_ours=$(awk '/^top functions/ { getline; print $1, $5; exit }' "$api_tmp/rd.out")
		top_perf=$(perf report -i "$api_tmp/p.data" --stdio --no-children --sort sym -g none -q -n 2>/dev/null |
			awk 'NF >= 4 { print $2, $4; exit }')
		folded=$(awk '{ s += $NF } END { print s + 0 }' "$api_tmp/p.folded" 2>/dev/null)
		total=$(awk '$1 == "samples" { print $2 }' "$api_tmp/rd.out")
		if [ -n "$ours" ] && [ "$ours" = "$theirs" ] && [ "$top_ours" = "$top_perf" ] && [ "$folded" = "$total" ]; then
			pass "example read_perf_data: samples per event as perf script ($(echo "$ours" | tr '\n' ' ')), top function as perf report ($top_perf), folded export sums to $total"
		else
			fail "example read_perf_data" "events ours '$ours' perf '$theirs'; top ours '$top_ours' perf '$top_perf'; folded $folded of $total"
		fi
	fi
fi
rm -rf "$api_tmp"
