#!/bin/sh
# SPDX-License-Identifier: MIT
# Browser tests: pmuscope's HTML pages and exports opened in Debian's Chromium
# through playwright-core (tests/browser/node_modules, from `npm ci` in
# scripts/install-deps.sh). Each tests/browser/test_*.sh is sourced with the
# suite begun and prints PASS/FAIL/SKIP lines through tests/lib/suite.sh; a
# missing browser or npm tree is a printed SKIP with the reason.
set -u
build=${1:-build}
cd "$(dirname "$0")/../.." || exit 1
top=$(pwd)
. tests/lib/suite.sh
suite_begin browser
export PMUSCOPE="$top/$build/pmuscope" BUILD_DIR="$top/$build" TOP="$top"
mkdir -p "$BUILD_DIR/browser"
if [ ! -x /usr/bin/chromium ]; then
	skip "browser-tests" "/usr/bin/chromium is not installed (Debian package chromium; make deps)"
elif ! command -v node >/dev/null 2>&1; then
	skip "browser-tests" "node is not installed (Debian package nodejs; make deps)"
elif [ ! -d tests/browser/node_modules/playwright-core ]; then
	skip "browser-tests" "tests/browser/node_modules is missing (npm ci in tests/browser; make deps)"
else
	for t in tests/browser/test_*.sh; do
		[ -e "$t" ] || continue
		echo "--- $t"
		# shellcheck disable=SC1090
		. "$t"
	done
fi
suite_end
