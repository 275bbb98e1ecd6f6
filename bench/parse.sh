#!/bin/sh
# SPDX-License-Identifier: MIT
# Event-string encode cost: pmuscope's parser vs libpfm4 (pfm_get_os_event_encoding),
# ns per string and cold init, measured in one process. Goal: < 1 us/parse, < 1 ms init.
# Usage: sh bench/parse.sh [build-dir] [iterations]
set -u
build=${1:-build}
iters=${2:-20000}
cd "$(dirname "$0")/.."
lib=$build/libpmuscope.a
[ -f "$lib" ] || { echo "parse: SKIP: $lib not built"; exit 0; }
[ -f /usr/include/perfmon/pfmlib_perf_event.h ] || { echo "parse: SKIP: libpfm4-dev not installed"; exit 0; }
bin=$build/bench/parse_bench
mkdir -p "$build/bench"
cc -std=gnu11 -O2 -D_GNU_SOURCE -Iinclude -Ilib bench/parse_bench.c "$lib" -lpfm -lm -o "$bin" || {
	echo "parse: FAIL: could not build $bin"; exit 1; }
"$bin" tests/fixtures "$iters"
