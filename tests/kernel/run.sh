#!/bin/sh
# SPDX-License-Identifier: MIT
# Kernel tests: real perf_event_open(2), as root. Each tests/kernel/test_*.sh
# prints its own PASS/FAIL/SKIP lines (one per check) through
# tests/lib/suite.sh helpers it sources with the suite already begun, and
# this runner totals them. A feature that is truly absent is a printed SKIP
# with the reason, never a silent pass.
set -u
build=${1:-build}
cd "$(dirname "$0")/../.."
top=$(pwd)
. tests/lib/suite.sh
suite_begin kernel
export PMUSCOPE="$top/$build/pmuscope" BUILD_DIR="$top/$build" TOP="$top"
if [ "$(id -u)" != 0 ]; then
	skip "kernel-tests" "not running as root"
	suite_end
	exit $?
fi
for t in tests/kernel/test_*.sh; do
	[ -e "$t" ] || continue
	echo "--- $t"
	kr_file=$t kr_t0=$(date +%s)
	# shellcheck disable=SC1090
	. "$t"
	# per file, so the CI budget (20 min) can be watched (a test may reuse $t)
	echo "--- $kr_file took $(($(date +%s) - kr_t0))s"
done
suite_end
