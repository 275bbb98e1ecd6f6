#!/bin/sh
# SPDX-License-Identifier: MIT
# Runs every test suite of `make check` and prints one closing line with the
# totals. Exits non-zero if any suite failed. Suites: layer rule, unit
# (Criterion), CLI golden tests, kernel tests (real perf_event_open), browser
# (Chromium + playwright-core: flame graph, HTML report, speedscope), fuzzers
# (bounded time), the arm64 real-PMU rig under QEMU (tests/pmu-vm), then unit + CLI again under ASan+UBSan (build-san/).
set -u
cd "$(dirname "$0")/.."
LOG=$(mktemp -d)
trap 'rm -rf "$LOG"' EXIT
TP=0 TF=0 TS=0 BAD=""

run_suite() {
	name=$1
	shift
	echo "=== $name"
	start=$(date +%s)
	"$@" >"$LOG/$name" 2>&1
	rc=$?
	cat "$LOG/$name"
	line=$(grep -E '^[a-z-]+: [0-9]+ passed, [0-9]+ failed' "$LOG/$name" | tail -n 1)
	if [ -z "$line" ]; then
		echo "$name: no result line (exit $rc)"
		TF=$((TF + 1))
		BAD="$BAD $name"
		return
	fi
	p=$(echo "$line" | sed -E 's/.*: ([0-9]+) passed.*/\1/')
	f=$(echo "$line" | sed -E 's/.* ([0-9]+) failed.*/\1/')
	s=$(echo "$line" | sed -nE 's/.* ([0-9]+) skipped.*/\1/p')
	TP=$((TP + p)) TF=$((TF + f)) TS=$((TS + ${s:-0}))
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		TF=$((TF + 1))
		echo "$name: exited $rc"
	fi
	[ "$rc" -ne 0 ] || [ "$f" -ne 0 ] && BAD="$BAD $name"
	echo "--- $name took $(( $(date +%s) - start ))s"
}

run_suite layers sh scripts/check-layers.sh
run_suite unit sh tests/unit/run.sh build
run_suite abi sh tests/abi/check.sh build
run_suite cli sh tests/cli/run.sh build
run_suite kernel sh tests/kernel/run.sh build
run_suite browser sh tests/browser/run.sh build
run_suite pmu-vm sh tests/pmu-vm/run.sh
run_suite fuzz sh tests/fuzz/run.sh build
run_suite unit-san sh tests/unit/run.sh build-san
run_suite cli-san sh tests/cli/run.sh build-san

[ -z "$BAD" ] || echo "failing suites:$BAD"
echo "check: $TP passed, $TF failed, $TS skipped"
[ -z "$BAD" ]
