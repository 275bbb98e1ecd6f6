#!/bin/sh
# SPDX-License-Identifier: MIT
# Runs every benchmark (bench/*.sh except this one). Each prints its own
# ratio against the peer (usually perf) measured in the same run.
set -u
build=${1:-build}
cd "$(dirname "$0")/.."
for b in bench/*.sh; do
	[ "$(basename "$b")" = run.sh ] && continue
	echo "=== $b"
	sh "$b" "$build" || echo "$b: failed (exit $?)"
done
