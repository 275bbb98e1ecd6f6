#!/bin/sh
# SPDX-License-Identifier: MIT
# Runs every libFuzzer target for a bounded time starting from its corpus
# tests/fuzz/corpus/<target>/ (subdirectories included). New corpus entries go
# to a temp dir, so by default the tree is never modified (make check, CI). A
# crash, leak or sanitizer report fails the suite and leaves the reproducer in
# <build>/fuzz/artifacts/. Each PASS line gives the inputs run and exec/s.
#
#   PMS_FUZZ_SECONDS=N   seconds per target (default 12: in make check it is a smoke run
#                        from the committed corpora, inside the 20-minute CI budget;
#                        the long runs that grow the corpora set PMS_FUZZ_RUNS)
#   PMS_FUZZ_RUNS=N      stop each target after N inputs (e.g. 10000000); with
#                        it, no time limit unless PMS_FUZZ_SECONDS is set too
#   PMS_FUZZ_TARGETS="fuzz_session fuzz_perfdata"   only these targets
#   PMS_FUZZ_MERGE=1     keep what the run found, ready to commit: after each
#                        target, libFuzzer's -merge=1 takes from the inputs
#                        found earlier (the SHA-1-named files at the top of
#                        tests/fuzz/corpus/<target>/) and from this run's
#                        those that add coverage to the named seeds, smallest
#                        first, and puts them back there; earlier finds that
#                        new ones cover are dropped, so the corpus stays
#                        small. Never set by make check.
#
# A campaign that grows the committed corpus, for example:
#   PMS_FUZZ_TARGETS=fuzz_session PMS_FUZZ_RUNS=10000000 PMS_FUZZ_MERGE=1 \
#       sh tests/fuzz/run.sh build
# The quipper/ seeds come from real recordings (tests/fuzz/make-seeds.py says
# how); their licence files sit beside them and must stay there.
set -u
build=${1:-build}
cd "$(dirname "$0")/../.." || exit 1
. tests/lib/suite.sh
suite_begin fuzz
secs=${PMS_FUZZ_SECONDS:-}
if [ -n "${PMS_FUZZ_RUNS:-}" ]; then
	limit="-runs=$PMS_FUZZ_RUNS${secs:+ -max_total_time=$secs}"
else
	limit="-max_total_time=${secs:-12}"
fi
mkdir -p "$build/fuzz/artifacts"

# Inputs larger than this are never generated. perf.data seeds are cut to
# under 40 KiB (make-seeds.py): per-input cost grows with the file, and 64 KiB
# leaves room for one more maximal record. Other targets: libFuzzer's default
# (the largest seed, at least 4 KiB).
max_len() {
	case $1 in
	fuzz_perfdata | fuzz_session | fuzz_inject) echo "-max_len=65536" ;;
	esac
}

# Earlier finds move aside, then come back with this run's new inputs if they add coverage.
merge() {
	corpus=tests/fuzz/corpus/$2
	found=$(mktemp -d)
	mkdir -p "$corpus"
	find "$corpus" -maxdepth 1 -regextype posix-extended -type f -regex '.*/[0-9a-f]{40}' -exec mv {} "$found" \;
	before=$(find "$found" -type f | wc -l)
	# shellcheck disable=SC2046
	if "$1" -merge=1 $(max_len "$2") -timeout=10 -rss_limit_mb=2048 \
		"$corpus" "$found" "$3" >"$3.merge.log" 2>&1; then
		after=$(find "$corpus" -maxdepth 1 -regextype posix-extended -type f -regex '.*/[0-9a-f]{40}' | wc -l)
		echo "  $corpus: $after fuzzer-found inputs (was $before)"
	else
		fail "$2 merge" "libFuzzer -merge=1 failed; earlier finds put back"
		tail -n 20 "$3.merge.log"
		cp -n "$found"/* "$corpus"/ 2>/dev/null
	fi
	rm -rf "$found" "$3.merge.log"
}

for bin in "$build"/fuzz/fuzz_*; do
	if [ ! -f "$bin" ] || [ ! -x "$bin" ]; then
		continue
	fi
	name=$(basename "$bin")
	if [ -n "${PMS_FUZZ_TARGETS:-}" ]; then
		case " $PMS_FUZZ_TARGETS " in *" $name "*) ;; *) continue ;; esac
	fi
	work=$(mktemp -d)
	seeds=tests/fuzz/corpus/$name
	[ -d "$seeds" ] || seeds=
	# shellcheck disable=SC2046,SC2086 # $limit and max_len are lists of options
	if "$bin" $limit $(max_len "$name") -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
		-artifact_prefix="$build/fuzz/artifacts/" "$work" $seeds >"$work.log" 2>&1; then
		runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work.log" | tail -n 1)
		rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$work.log" | tail -n 1)
		cov=$(grep -oE 'cov: [0-9]+' "$work.log" | tail -n 1)
		pass "$name (${runs:-?} inputs, ${rate:-?} exec/s, $cov)"
		if [ "${PMS_FUZZ_MERGE:-0}" = 1 ]; then
			merge "$bin" "$name" "$work"
		fi
	else
		fail "$name" "see $build/fuzz/artifacts/"
		tail -n 40 "$work.log"
	fi
	rm -rf "$work" "$work.log"
done
suite_end
