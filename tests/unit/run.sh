#!/bin/sh
# SPDX-License-Identifier: MIT
# Runs the Criterion unit tests of one build directory and turns Criterion's
# "Synthesis:" line into the suite's closing line.
set -u
build=${1:-build}
suite=unit
case $build in *san*) suite=unit-san ;; esac
cd "$(dirname "$0")/../.."
bin=$build/tests/unit-tests
if [ ! -x "$bin" ]; then
	echo "$suite: 0 passed, 1 failed, 0 skipped (missing $bin)"
	exit 1
fi
out=$(mktemp)
"$bin" --jobs 2 >"$out" 2>&1
rc=$?
cat "$out"
syn=$(grep 'Synthesis:' "$out" | tail -n 1)
rm -f "$out"
tested=$(echo "$syn" | sed -nE 's/.*Tested: ([0-9]+).*/\1/p')
passing=$(echo "$syn" | sed -nE 's/.*Passing: ([0-9]+).*/\1/p')
failing=$(echo "$syn" | sed -nE 's/.*Failing: ([0-9]+).*/\1/p')
crashing=$(echo "$syn" | sed -nE 's/.*Crashing: ([0-9]+).*/\1/p')
if [ -z "$tested" ]; then
	echo "$suite: 0 passed, 1 failed, 0 skipped (no Synthesis line, exit $rc)"
	exit 1
fi
echo "$suite: $passing passed, $((failing + crashing)) failed, 0 skipped"
[ "$rc" -eq 0 ] && [ "$((failing + crashing))" -eq 0 ]
