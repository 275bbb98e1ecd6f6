# SPDX-License-Identifier: MIT
# speedscope imports our exports (issue 5, acceptance 2): demo/pms-shares recorded with
# pmuscope record -g and with perf record -g, exported as folded stacks and as speedscope JSON
# (plus Chrome trace and pprof, which speedscope reads too), each loaded into the speedscope
# npm package's offline page by tests/browser/speedscope_import.mjs; a garbage file must be
# refused (the check can fail). Sourced by tests/browser/run.sh; names are ss_-prefixed.

ss_tmp=$(mktemp -d)
ss_demo=$BUILD_DIR/demo/pms-shares

# ss_import LABEL FILE: speedscope must load FILE (the importer it used is in the message).
ss_import() {
	if ss_out=$(node "$TOP/tests/browser/speedscope_import.mjs" "$2" 2>&1); then
		pass "speedscope-$1: $ss_out"
	else
		fail "speedscope-$1" "$ss_out"
	fi
}

if [ ! -x "$ss_demo" ]; then
	skip "speedscope-import" "$ss_demo is not built (make demo)"
else
	"$PMUSCOPE" record -g -F 2000 -o "$ss_tmp/pms.data" -- "$ss_demo" --rounds 8000 >/dev/null 2>&1 ||
		fail "speedscope-record" "pmuscope record -g failed"
	if command -v perf >/dev/null 2>&1; then
		perf record -q -g -F 2000 -o "$ss_tmp/perf.data" -- "$ss_demo" --rounds 8000 >/dev/null 2>&1 ||
			rm -f "$ss_tmp/perf.data"
	fi
	[ -s "$ss_tmp/perf.data" ] || skip "speedscope-perf-file" "perf record -g is not available here"
	for ss_f in pms perf; do
		[ -s "$ss_tmp/$ss_f.data" ] || continue
		# neutral names: speedscope picks its importer by suffix first, content second
		"$PMUSCOPE" export -i "$ss_tmp/$ss_f.data" --format folded -o "$ss_tmp/$ss_f.folded" &&
			ss_import "folded-$ss_f" "$ss_tmp/$ss_f.folded"
		"$PMUSCOPE" export -i "$ss_tmp/$ss_f.data" --format speedscope -o "$ss_tmp/$ss_f.speedscope.json" &&
			ss_import "json-$ss_f" "$ss_tmp/$ss_f.speedscope.json"
		"$PMUSCOPE" export -i "$ss_tmp/$ss_f.data" --format chrome -o "$ss_tmp/$ss_f-trace.json" &&
			ss_import "chrome-$ss_f" "$ss_tmp/$ss_f-trace.json"
		"$PMUSCOPE" export -i "$ss_tmp/$ss_f.data" --format pprof -o "$ss_tmp/$ss_f.pb.gz" &&
			ss_import "pprof-$ss_f" "$ss_tmp/$ss_f.pb.gz"
	done
	echo 'not a profile' >"$ss_tmp/garbage.txt"
	if ss_out=$(node "$TOP/tests/browser/speedscope_import.mjs" "$ss_tmp/garbage.txt" 2>&1); then
		fail "speedscope-refuses-garbage" "a garbage file loaded: $ss_out"
	else
		pass "speedscope-refuses-garbage: $ss_out"
	fi
fi
rm -rf "$ss_tmp"
