#!/bin/sh
# SPDX-License-Identifier: MIT
# The ABI of libpmuscope.so against the baseline checked in as abi/libpmuscope.abi (abidw of the
# last released shape, public types only): abidiff (Debian abigail-tools) must find no change.
#  - an incompatible change (a removed or changed function or public type) fails unless the
#    version node of lib/libpmuscope.map changed too (then: record the new baseline);
#  - an added function passes only once the baseline records it (make abi-baseline), so every
#    exported function is covered.
# Usage: tests/abi/check.sh [build-dir]
set -u
build=${1:-build}
cd "$(dirname "$0")/../.."
. tests/lib/suite.sh
suite_begin abi
base=abi/libpmuscope.abi
so=$(ls "$build"/libpmuscope.so.*.*.* 2>/dev/null | head -n 1)
if ! command -v abidiff >/dev/null 2>&1; then
	fail "abi" "abidiff missing (scripts/install-deps.sh installs abigail-tools)"
elif [ -z "$so" ]; then
	fail "abi" "no $build/libpmuscope.so.X.Y.Z (make lib)"
elif [ ! -f "$base" ]; then
	fail "abi" "no baseline $base (make abi-baseline)"
else
	# abi/suppressions.ini: changes reviewed as compatible (a field appended to a struct that
	# carries its own size, like every *_opts), in libabigail's suppression syntax
	supp=""
	[ -f abi/suppressions.ini ] && supp="--suppressions abi/suppressions.ini"
	# shellcheck disable=SC2086 # supp is an option and its argument
	out=$(abidiff $supp "$base" "$so" 2>&1)
	rc=$?
	# abidiff's own exit bits call only removals incompatible; a changed type under an
	# exported function breaks callers too, so count changes from its summary lines
	removed=$(echo "$out" | sed -nE 's/^Functions changes summary: ([0-9]+) Removed.*/\1/p')
	changed=$(echo "$out" | sed -nE 's/^Functions changes summary: [0-9]+ Removed, ([0-9]+) Changed.*/\1/p')
	vremoved=$(echo "$out" | sed -nE 's/^Variables changes summary: ([0-9]+) Removed.*/\1/p')
	vchanged=$(echo "$out" | sed -nE 's/^Variables changes summary: [0-9]+ Removed, ([0-9]+) Changed.*/\1/p')
	if [ $((${removed:-0} + ${changed:-0} + ${vremoved:-0} + ${vchanged:-0})) -gt 0 ]; then
		rc=$((rc | 8))
	fi
	node_base=$(sed -n "s/.*elf-symbol name='pms_version' version='\([^']*\)'.*/\1/p" "$base")
	node_now=$(sed -nE 's/^([A-Z_0-9.]+) \{.*/\1/p' lib/libpmuscope.map | tail -n 1)
	summary=$(echo "$out" | grep -E 'changes summary' | tr '\n' ' ')
	if [ $rc -eq 0 ]; then
		pass "abi" "$(basename "$so") has the ABI of $base ($node_now; $summary)"
	elif [ $((rc & 8)) -ne 0 ] && [ "$node_base" = "$node_now" ]; then
		fail "abi-incompatible" "an incompatible change under the same version node $node_now (exit $rc): $(echo "$out" | head -n 30 | tr '\n' ' ')"
	elif [ $((rc & 8)) -ne 0 ]; then
		fail "abi-baseline" "incompatible change under the new node $node_now (baseline $node_base): record it with make abi-baseline"
	elif [ $((rc & 4)) -ne 0 ]; then
		fail "abi-baseline" "the ABI grew (compatible): record it with make abi-baseline; $summary"
	else
		fail "abi" "abidiff exit $rc: $(echo "$out" | head -n 5 | tr '\n' ' ')"
	fi
fi
suite_end
