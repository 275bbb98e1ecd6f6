#!/bin/sh
# SPDX-License-Identifier: MIT
# Source-line symbolization speed: N addresses of one DWARF binary (default:
# the pmuscope CLI itself) resolved to function + file:line + inline frames
#   - by lib/symbol in one process (libdw, per-DSO cache),
#   - by `addr2line -f -i -e BIN ADDR` forked per address (perf's classic
#     srcline path; measured on a sample of M addresses and scaled to N),
#   - by one batched `addr2line -f -i -e BIN` reading all N on stdin (perf
#     >= 5.16's long-running addr2line per DSO).
# Prints the ratios pmuscope/peer (lower is better).
# Usage: sh bench/symbol.sh [build-dir] [N (10000)] [M forked sample (300)] [BIN]
set -u
build=${1:-build}
n=${2:-10000}
m=${3:-300}
cd "$(dirname "$0")/.."
lib=$build/libpmuscope.a
target=${4:-$build/pmuscope}
[ -f "$lib" ] || { echo "symbol: SKIP: $lib not built"; exit 0; }
[ -f "$target" ] || { echo "symbol: SKIP: $target not built"; exit 0; }
command -v addr2line >/dev/null 2>&1 || { echo "symbol: SKIP: addr2line not installed"; exit 0; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cc -std=gnu11 -O2 -D_GNU_SOURCE -Iinclude -Ilib bench/symbol_bench.c "$lib" \
	-ldw -lelf -lzstd -lz -liberty -lm -o "$tmp/symbol_bench" || {
	echo "symbol: SKIP: cannot build bench/symbol_bench.c"; exit 0; }

now_ns() { date +%s%N; }

# lib/symbol, best of 3 (each run starts cold: open + DWARF parse included)
best=
for i in 1 2 3; do
	out=$("$tmp/symbol_bench" "$target" "$n" "$tmp/addrs") || { echo "symbol: FAIL: $out"; exit 1; }
	ms=${out%% *}
	if [ -z "$best" ] || [ "$(echo "$ms < $best" | bc -l)" = 1 ]; then best=$ms; fi
done
set -- $out
resolved=$2

# batched addr2line: one process, all addresses on stdin
t0=$(now_ns)
addr2line -f -i -e "$target" <"$tmp/addrs" >/dev/null
t1=$(now_ns)
batch_ms=$(echo "scale=3; ($t1 - $t0) / 1000000" | bc -l)

# one fork per address, on the first M addresses, scaled to N
head -n "$m" "$tmp/addrs" >"$tmp/sample"
t0=$(now_ns)
while read -r a; do addr2line -f -i -e "$target" "$a" >/dev/null; done <"$tmp/sample"
t1=$(now_ns)
fork_ms=$(echo "scale=3; ($t1 - $t0) / 1000000 * $n / $m" | bc -l)

r_batch=$(echo "scale=4; $best / $batch_ms" | bc -l)
r_fork=$(echo "scale=5; $best / $fork_ms" | bc -l)
x_batch=$(echo "scale=1; $batch_ms / $best" | bc -l)
x_fork=$(echo "scale=0; $fork_ms / $best" | bc -l)
# perf report --sort srcline on a recorded profile of a generated DWARF
# workload (400 functions with inlined helpers, non-PIE so sample IPs are ELF
# vaddrs) vs lib/symbol resolving the same sample IPs. This is the srcline
# part of report only, until `pmuscope report` exists to time end to end.
perf_line=
if command -v perf >/dev/null 2>&1 && command -v python3 >/dev/null 2>&1; then
	python3 - "$tmp/work.c" <<'PY'
import sys
n = 400
out = ["#include <stdint.h>", "#include <stdlib.h>", "#include <time.h>", "volatile uint64_t sink;"]
for i in range(n):
    out.append(f"static inline __attribute__((always_inline)) uint64_t h{i}(uint64_t x) {{ return x * {2*i+3} + (x >> {i%13+1}); }}")
    out.append(f"__attribute__((noinline)) uint64_t f{i}(uint64_t x) {{ for (int k = 0; k < 50; k++) x = h{i}(x) ^ k; return x; }}")
out.append("typedef uint64_t (*fn_t)(uint64_t);")
out.append("static fn_t fns[] = {" + ",".join(f"f{i}" for i in range(n)) + "};")
out.append("int main(int argc, char **argv) { double secs = argc > 1 ? atof(argv[1]) : 1.0; struct timespec a, b; "
           "clock_gettime(CLOCK_MONOTONIC, &a); uint64_t x = 1; do { for (int r = 0; r < 100; r++) "
           "for (unsigned i = 0; i < sizeof(fns)/sizeof(fns[0]); i++) x = fns[i](x); clock_gettime(CLOCK_MONOTONIC, &b); } "
           "while ((b.tv_sec - a.tv_sec) + (b.tv_nsec - a.tv_nsec) / 1e9 < secs); sink = x; return 0; }")
open(sys.argv[1], "w").write("\n".join(out) + "\n")
PY
	if cc -O2 -g -no-pie -fno-pie -o "$tmp/work" "$tmp/work.c" &&
		perf record -q -e cpu-clock -F 5000 -o "$tmp/perf.data" -- "$tmp/work" 2 >/dev/null 2>&1; then
		perf script -i "$tmp/perf.data" -F ip 2>/dev/null | awk '$1 ~ /^4[0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]$/ { print $1 }' >"$tmp/ips"
		nips=$(wc -l <"$tmp/ips")
		t0=$(now_ns)
		perf report -i "$tmp/perf.data" --sort srcline --stdio >/dev/null 2>&1
		t1=$(now_ns)
		perf_ms=$(echo "scale=3; ($t1 - $t0) / 1000000" | bc -l)
		best2=
		for i in 1 2 3; do
			out=$("$tmp/symbol_bench" "$tmp/work" "@$tmp/ips") || break
			ms=${out%% *}
			if [ -z "$best2" ] || [ "$(echo "$ms < $best2" | bc -l)" = 1 ]; then best2=$ms; fi
		done
		if [ -n "$best2" ]; then
			r=$(echo "scale=5; $best2 / $perf_ms" | bc -l)
			x=$(echo "scale=0; $perf_ms / $best2" | bc -l)
			perf_line="symbol-srcline-report: $nips samples: lib/symbol srcline of the sample IPs $best2 ms, perf report --sort srcline $perf_ms ms (whole report), ratio ${r}x (${x} times faster)"
		fi
	fi
fi

echo "symbol-srcline-batch: $n addrs of $(basename "$target") ($resolved with lines): pmuscope $best ms, addr2line batched $batch_ms ms, ratio ${r_batch}x (${x_batch} times faster)"
echo "symbol-srcline-fork: pmuscope $best ms, addr2line per address $fork_ms ms (from $m forks), ratio ${r_fork}x (${x_fork} times faster)"
[ -n "$perf_line" ] && echo "$perf_line"
exit 0
