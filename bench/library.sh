#!/bin/sh
# SPDX-License-Identifier: MIT
# The library's counting API against its peers, same process, same run
# (bench/library_bench.c, linked against the in-tree libpmuscope.a):
#   - one read of task-clock (opened on the calling thread, enabled):
#     pms_count_set__read() vs a bare read(2) of an fd opened by hand with the
#     same attr (goal <= 1.05x) vs PAPI_read() on perf::TASK-CLOCK (goal <= 0.5x);
#   - one begin/end region pair on task-clock: pms_region__begin/end vs
#     PAPI_hl_region_begin/end (PAPI_EVENTS=perf::TASK-CLOCK) vs LIKWID's
#     markers (which count only under `likwid-perfctr -m`; tried first, and
#     its error printed when it cannot run here), next to the floor a pair
#     cannot go below (2 x read(2) + clock_gettime).
# Each: calibrated ~20 ms batches, interleaved peer by peer, median ns/op.
# PAPI or LIKWID missing or unusable: a SKIP line with the reason, exit 0.
# Usage: sh bench/library.sh [build-dir] [batches (15)]
set -u
build=${1:-build}
batches=${2:-15}
cd "$(dirname "$0")/.." || exit 1
lib=$build/libpmuscope.a
[ -f "$lib" ] || { echo "library: SKIP: $lib not built"; exit 0; }
command -v cc >/dev/null 2>&1 || { echo "library: SKIP: no cc"; exit 0; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# the library's private libs: from its pkg-config file when the build made one
if [ -f "$build/pmuscope.pc" ] && command -v pkg-config >/dev/null 2>&1; then
	libs=$(PKG_CONFIG_PATH=$build pkg-config --static --libs pmuscope | tr ' ' '\n' |
		grep -v -e '^-lpmuscope$' -e '^-L' | tr '\n' ' ')
else
	libs="-lbpf -ltraceevent -ldw -lelf -lzstd -lz -liberty -lm -lpthread"
fi

# can_link NAME HEADER LIB CALL: whether a program using HEADER links with LIB
can_link() {
	printf '#include <%s>\nint main(void) { return (int)(long)%s; }\n' "$2" "$4" >"$tmp/probe_$1.c"
	cc -o "$tmp/probe_$1" "$tmp/probe_$1.c" "$3" >"$tmp/probe_$1.log" 2>&1
}
peers='' peerlibs=''
if can_link papi papi.h -lpapi PAPI_is_initialized; then
	peers="$peers -DHAVE_PAPI" peerlibs="$peerlibs -lpapi"
else
	echo "library-papi: SKIP: papi.h / -lpapi not usable: $(grep -m 1 -e error -e 'cannot find' "$tmp/probe_papi.log")"
fi
if can_link likwid likwid.h -llikwid likwid_markerInit; then
	peers="$peers -DHAVE_LIKWID" peerlibs="$peerlibs -llikwid"
else
	echo "library-likwid: SKIP: likwid.h / -llikwid not usable: $(grep -m 1 -e error -e 'cannot find' "$tmp/probe_likwid.log")"
fi
# shellcheck disable=SC2086
cc -std=gnu11 -O2 -D_GNU_SOURCE -Iinclude $peers bench/library_bench.c "$lib" $peerlibs $libs \
	-o "$tmp/library_bench" 2>"$tmp/cc.log" || {
	echo "library: SKIP: cannot build bench/library_bench.c:"; sed 's/^/  /' "$tmp/cc.log"; exit 0; }
bench=$tmp/library_bench

# 1. one read
"$bench" read "$batches" || echo "library: read bench failed (exit $?)"

# 2. region pairs. LIKWID's markers count only when likwid-perfctr -m runs the
# program (it needs the PMU's MSRs or its access daemon): try that first.
case $peers in
*HAVE_LIKWID*)
	if ! command -v likwid-perfctr >/dev/null 2>&1; then
		echo "library-region-likwid: likwid-perfctr not installed: the markers cannot count here"
	else
		timeout 20 likwid-perfctr -C 0 -g CLOCK -m "$bench" likwid >"$tmp/likwid.out" 2>&1
		rc=$?
		if [ $rc -eq 0 ] && grep -q '^likwid markers: counting' "$tmp/likwid.out"; then
			echo "library-region-likwid: likwid-perfctr -m runs here: markers count"
		else
			why=$(grep -v -e '^---' -e '^CPU name' -e '^CPU type' -e '^CPU clock' -e '^ *$' "$tmp/likwid.out" |
				tr '\n' '|' | sed -e 's/|$//' -e 's/|/; /g')
			echo "library-region-likwid: likwid-perfctr -C 0 -g CLOCK -m cannot run here (exit $rc): ${why:-no output}"
		fi
	fi
	;;
esac
mkdir -p "$tmp/papi"
env -u PMS_REGION_EVENTS -u PMS_REGION_OUTPUT -u LIKWID_MODE -u LIKWID_EVENTS -u LIKWID_FILEPATH \
	-u LIKWID_THREADS PAPI_EVENTS=perf::TASK-CLOCK PAPI_OUTPUT_DIRECTORY="$tmp/papi" \
	"$bench" region "$batches" 2>"$tmp/region.err" | grep -v '^PAPI-HL Output:' ||
	echo "library: region bench failed"
grep -v -e '^Running without Marker API' -e '^PAPI-HL Output:' -e '^ *$' "$tmp/region.err" | sed 's/^/library-region-stderr: /'
# PAPI_hl writes its results at exit: check they are task-clock counts.
out=$(find "$tmp/papi" -name '*.json' 2>/dev/null | head -n 1)
if [ -n "$out" ]; then
	recs=$(grep -c '"name":"bench"' "$out")
	if grep -q '"perf::TASK-CLOCK"' "$out"; then ev="perf::TASK-CLOCK counted"; else ev="NO perf::TASK-CLOCK in it"; fi
	echo "library-region-papi: PAPI_hl output $(basename "$out"): $ev, $recs records for region bench ($(du -k "$out" | cut -f1) KiB: one per call)"
fi
# The cost of one read in instructions, exact, on the arm64 rig (real armv8_pmuv3 under QEMU
# icount): the user page against read(2), through the public API (tests/pmu-vm/checks/35_api.sh).
if [ "${PMS_BENCH_RIG:-1}" = 1 ] && command -v qemu-system-aarch64 >/dev/null 2>&1; then
	PMU_VM_CHECKS=35_api.sh sh tests/pmu-vm/run.sh >"$tmp/rig.out" 2>&1
	line=$(sed -n 's/^PASS api-cost: //p' "$tmp/rig.out")
	if [ -n "$line" ]; then
		echo "library-read-arm64: $line"
		up=$(echo "$line" | sed -n 's/.*user page [0-9]* (user) \/ \([0-9]*\) (all).*/\1/p')
		sys=$(echo "$line" | sed -n 's/.*read(2) [0-9]* (user) \/ \([0-9]*\) (user + kernel).*/\1/p')
		[ -n "$up" ] && [ -n "$sys" ] &&
			echo "library-read-arm64-ratio: user page / read(2): $(awk -v a="$up" -v b="$sys" 'BEGIN { printf "%.3f", a / b }')x instructions per read"
	else
		echo "library-read-arm64: SKIP: the rig did not report ($(grep -E 'FAIL|SKIP' "$tmp/rig.out" | head -n 2 | tr '\n' ' '))"
	fi
else
	echo "library-read-arm64: SKIP: qemu-system-aarch64 not installed (or PMS_BENCH_RIG=0)"
fi
exit 0
