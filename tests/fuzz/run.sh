#!/bin/sh
# SPDX-License-Identifier: MIT
# Runs every libFuzzer target for a bounded time (PMS_FUZZ_SECONDS, default
# 20 per target) starting from its seed corpus tests/fuzz/corpus/<target>/.
# New corpus entries go to a temp dir, so the tree is never modified. A crash,
# leak or sanitizer report fails the suite and leaves the reproducer in
# build/fuzz/artifacts/.
set -u
build=${1:-build}
cd "$(dirname "$0")/../.."
. tests/lib/suite.sh
suite_begin fuzz
secs=${PMS_FUZZ_SECONDS:-20}
mkdir -p "$build/fuzz/artifacts"
for bin in "$build"/fuzz/fuzz_*; do
	[ -x "$bin" ] || continue
	name=$(basename "$bin")
	work=$(mktemp -d)
	seeds=tests/fuzz/corpus/$name
	[ -d "$seeds" ] || seeds=
	if "$bin" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
		-artifact_prefix="$build/fuzz/artifacts/" "$work" $seeds >"$work.log" 2>&1; then
		pass "$name ($(grep -oE 'Done [0-9]+ runs' "$work.log" | tail -n 1))"
	else
		fail "$name" "see $build/fuzz/artifacts/"
		tail -n 40 "$work.log"
	fi
	rm -rf "$work" "$work.log"
done
suite_end
