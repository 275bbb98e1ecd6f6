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
echo "symbol-srcline-batch: $n addrs of $(basename "$target") ($resolved with lines): pmuscope $best ms, addr2line batched $batch_ms ms, ratio ${r_batch}x (${x_batch} times faster)"
echo "symbol-srcline-fork: pmuscope $best ms, addr2line per address $fork_ms ms (from $m forks), ratio ${r_fork}x (${x_fork} times faster)"
