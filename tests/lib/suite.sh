# SPDX-License-Identifier: MIT
# Shared helpers for the shell test suites: result counting and the closing
# line "<suite>: N passed, N failed, N skipped" that tests/run-all.sh reads.
# Usage: . tests/lib/suite.sh; suite_begin name; pass "x"; fail "y" "why"; skip "z" "why"; suite_end
suite_begin() { SUITE=$1; NPASS=0; NFAIL=0; NSKIP=0; }
pass() { NPASS=$((NPASS + 1)); echo "PASS $1"; }
fail() { NFAIL=$((NFAIL + 1)); echo "FAIL $1${2:+: $2}"; }
skip() { NSKIP=$((NSKIP + 1)); echo "SKIP $1${2:+: $2}"; }
suite_end() {
	echo "$SUITE: $NPASS passed, $NFAIL failed, $NSKIP skipped"
	[ "$NFAIL" -eq 0 ]
}
