# SPDX-License-Identifier: MIT
# The first view of a flame graph page whose recording holds looping frame-pointer chains (the
# `make run` page used to open on an empty screen): tests/browser/fp_loop.c faults one page per
# sample (`record -e page-faults -c 1`: the counts do not depend on the CPU the test gets): 3000
# under a short chain, 200 with a frame pointer that points at itself (each chain loops to the
# kernel's frame limit), one at the bottom of a 100-deep recursion (a tower narrower than a pixel).
# Opened in Chromium and never scrolled by the test: the root row is in the viewport (at 1280x900,
# and at 1280x240, where the page must scroll itself to the root), the canvas is as tall as the
# deepest frame at least a pixel wide and every row holds a frame, the looping chains are collapsed
# (one frame, counted in the subtitle), the recursion is kept in the data. The report --html page
# of the same file stays on its summary, its graph is as tall as what it draws, the chains collapsed.
# Screenshots of each first view go to $BUILD_DIR/browser/. Sourced by tests/browser/run.sh; fv_ names.

fv_dir=$BUILD_DIR/browser
fv_tmp=$(mktemp -d)
fv_bin=$fv_dir/fp-loop
fv_normal=3000 fv_looped=200 fv_depth=100

# fv_node LABEL PAGE [key=value...]: the first-view checks, their lines turned into results.
fv_node() {
	fv_label=$1 fv_page=$2
	shift 2
	node "$TOP/tests/browser/flamegraph.mjs" first "$fv_page" "$fv_dir/firstview-$fv_label.png" \
		label="fv-$fv_label" "$@" >"$fv_tmp/$fv_label.out" 2>&1
	fv_rc=$?
	if ! grep -qE '^(PASS|FAIL) ' "$fv_tmp/$fv_label.out"; then
		fail "fv-$fv_label" "node exited $fv_rc without results: $(head -c 400 "$fv_tmp/$fv_label.out")"
		return
	fi
	while IFS= read -r fv_line; do
		case $fv_line in
		"PASS "*) pass "${fv_line#PASS }" ;;
		"FAIL "*) fv_l=${fv_line#FAIL }; fail "${fv_l%%:*}" "${fv_l#*: }" ;;
		esac
	done <"$fv_tmp/$fv_label.out"
}

if [ "$(uname -m)" != x86_64 ]; then
	skip "fv" "the looping frame in tests/browser/fp_loop.c is x86-64 code; this is $(uname -m)"
elif ! ${CC:-cc} -O0 -g -fno-omit-frame-pointer -Wall -Wextra -Werror -o "$fv_bin" "$TOP/tests/browser/fp_loop.c" 2>"$fv_tmp/cc.err"; then
	fail "fv-build" "$(head -c 300 "$fv_tmp/cc.err")"
# a 16 MB ring holds every sample, so none is lost however late the recorder runs
elif ! "$PMUSCOPE" record -g -e page-faults -c 1 -m 16M -o "$fv_tmp/loop.data" -- \
	"$fv_bin" $fv_normal $fv_looped $fv_depth >/dev/null 2>"$fv_tmp/rec.err"; then
	fail "fv-record" "$(head -c 300 "$fv_tmp/rec.err")"
else
	if "$PMUSCOPE" flamegraph -i "$fv_tmp/loop.data" -o "$fv_tmp/loop.html" 2>"$fv_tmp/fg.err"; then
		pass "fv-generate: $(cat "$fv_tmp/fg.err")"
		cp "$fv_tmp/loop.html" "$fv_dir/firstview-loop.html"
		fv_node loop "$fv_tmp/loop.html" looped=$fv_looped loopfn=looped_touch deep=$fv_depth deepfn=deep
		fv_node loop-short "$fv_tmp/loop.html" height=240 looped=$fv_looped loopfn=looped_touch
	else
		fail "fv-generate" "$(head -c 300 "$fv_tmp/fg.err")"
	fi
	if "$PMUSCOPE" report -i "$fv_tmp/loop.data" --html "$fv_tmp/report.html" 2>"$fv_tmp/rh.err"; then
		fv_node report "$fv_tmp/report.html" preamble=1 looped=$fv_looped loopfn=looped_touch
	else
		fail "fv-report-generate" "$(head -c 300 "$fv_tmp/rh.err")"
	fi
fi
rm -rf "$fv_tmp"
