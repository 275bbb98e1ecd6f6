# SPDX-License-Identifier: MIT
# The flame graph page in Chromium (issue 5, acceptance 3 and 5): demo/pms-shares (alpha, bravo,
# charlie 50/30/20) recorded by pmuscope record -g and by perf record -g; on each page the hottest
# frame's drawn width / full width must equal its children share in `pmuscope report` (+-0.5
# points), so must alpha's, bravo's and charlie's; clicking alpha zooms it to the full width with
# its children scaled; Reset restores; searching ^(alpha|bravo) shows "Matched:" = their summed
# share (~80%); hovering shows the tooltip; the icicle toggle flips the rows; no console errors,
# no network. A differential page (--base: shares 50/30/20 -> 20/30/50) shows charlie red and
# alpha blue. The --svg variant is well-formed XML with one <g> per drawn frame. A profile
# --off-cpu page of demo/pms-sleep: nap_long's width equals the run's table share, the tooltip
# and the search count blocks and time ("20 blocks, off-CPU time 612.3 ms").
# Screenshots go to $BUILD_DIR/browser/. Sourced by tests/browser/run.sh; names are fg_-prefixed.

fg_dir=$BUILD_DIR/browser
fg_tmp=$(mktemp -d)
fg_demo=$BUILD_DIR/demo/pms-shares

# fg_node MODE NAME PAGE [key=value...]: run the page checks, turning their lines into results.
fg_node() {
	fg_mode=$1 fg_label=$2 fg_page=$3
	shift 3
	node "$TOP/tests/browser/flamegraph.mjs" "$fg_mode" "$fg_page" "$fg_dir/flamegraph-$fg_label.png" \
		label="$fg_label" "$@" >"$fg_tmp/$fg_label.out" 2>&1
	fg_rc=$?
	if ! grep -qE '^(PASS|FAIL) ' "$fg_tmp/$fg_label.out"; then
		fail "fg-$fg_label" "node exited $fg_rc without results: $(head -c 400 "$fg_tmp/$fg_label.out")"
		return
	fi
	while IFS= read -r fg_line; do
		case $fg_line in
		"PASS "*) fg_l=${fg_line#PASS }; pass "$fg_l" ;;
		"FAIL "*) fg_l=${fg_line#FAIL }; fail "${fg_l%%:*}" "${fg_l#*: }" ;;
		esac
	done <"$fg_tmp/$fg_label.out"
}

# fg_report FILE OUT: "percent symbol" per row of pmuscope report's children column.
fg_report() {
	"$PMUSCOPE" report -i "$1" --stdio --children --sort sym -g none 2>/dev/null |
		awk '$1 ~ /%$/ && NF >= 4 { sub(/%$/, "", $1); print $1, $NF }' >"$2"
}

# fg_page NAME DATA [flamegraph options]: write the page, pass/fail on the command's exit.
fg_page() {
	fg_n=$1 fg_d=$2
	shift 2
	if "$PMUSCOPE" flamegraph -i "$fg_d" -o "$fg_tmp/$fg_n.html" "$@" 2>"$fg_tmp/$fg_n.err"; then
		pass "fg-$fg_n-generate: $(cat "$fg_tmp/$fg_n.err")"
		return 0
	fi
	fail "fg-$fg_n-generate" "exit $?: $(head -c 300 "$fg_tmp/$fg_n.err")"
	return 1
}

if "$PMUSCOPE" flamegraph -h 2>&1 | grep -q 'not a pmuscope command'; then
	skip "fg" "pmuscope flamegraph does not exist yet"
elif [ ! -x "$fg_demo" ]; then
	fail "fg" "$fg_demo not built"
else
	# ~2.5 s of CPU, ~5000 samples: +-0.7 points of noise on the 80% search share
	if "$PMUSCOPE" record -g -F 2000 -o "$fg_tmp/ours.data" -- "$fg_demo" --rounds 60000 >/dev/null 2>"$fg_tmp/rec.err"; then
		fg_report "$fg_tmp/ours.data" "$fg_tmp/ours.rep"
		fg_page ours "$fg_tmp/ours.data" && fg_node shares ours "$fg_tmp/ours.html" report="$fg_tmp/ours.rep"
		cp "$fg_tmp/ours.html" "$fg_dir/flamegraph-ours.html"
		# the static SVG: well-formed, one frame group per drawn node, widths inside the graph
		if "$PMUSCOPE" flamegraph -i "$fg_tmp/ours.data" --svg -o "$fg_tmp/ours.svg" 2>"$fg_tmp/svg.err"; then
			fg_ng=$(grep -c '<g class="frame"' "$fg_tmp/ours.svg")
			fg_nd=$(sed -n 's/.*>\([0-9]*\) frames drawn.*/\1/p' "$fg_tmp/ours.svg")
			if python3 -c 'import sys, xml.etree.ElementTree as E; E.parse(sys.argv[1])' "$fg_tmp/ours.svg" 2>"$fg_tmp/xml.err" &&
				{ ! command -v xmllint >/dev/null 2>&1 || xmllint --noout "$fg_tmp/ours.svg" 2>>"$fg_tmp/xml.err"; } &&
				[ "$fg_ng" -gt 5 ] && [ "$fg_ng" = "$fg_nd" ] && grep -q '<title>alpha ' "$fg_tmp/ours.svg"; then
				pass "fg-svg: well-formed, $fg_ng frames"
			else
				fail "fg-svg" "groups $fg_ng, footer $fg_nd: $(head -c 300 "$fg_tmp/xml.err")"
			fi
			cp "$fg_tmp/ours.svg" "$fg_dir/flamegraph-ours.svg"
		else
			fail "fg-svg" "$(head -c 300 "$fg_tmp/svg.err")"
		fi
	else
		fail "fg-record" "pmuscope record: $(head -c 300 "$fg_tmp/rec.err")"
	fi

	# acceptance 5: perf's own perf.data
	if ! command -v perf >/dev/null 2>&1; then
		skip "fg-perf" "perf is not installed"
	elif perf record -q -g -F 2000 -o "$fg_tmp/perf.data" -- "$fg_demo" --rounds 60000 >/dev/null 2>"$fg_tmp/perf.err"; then
		fg_report "$fg_tmp/perf.data" "$fg_tmp/perf.rep"
		fg_page perf "$fg_tmp/perf.data" && fg_node shares perf "$fg_tmp/perf.html" report="$fg_tmp/perf.rep"
		# the generic checks on another layout: no process frames, starting as an icicle
		fg_page perf-icicle "$fg_tmp/perf.data" --root none --icicle --title "perf's file" &&
			fg_node any perf-icicle "$fg_tmp/perf-icicle.html" report="$fg_tmp/perf.rep" search='^leaf_work$'
	else
		fail "fg-perf-record" "perf record: $(head -c 300 "$fg_tmp/perf.err")"
	fi

	# an off-CPU page (profile --off-cpu, BPF): widths are shares of time, and the page says
	# blocks and off-CPU time where a sampled page says samples and period
	fg_sleep=$BUILD_DIR/demo/pms-sleep
	rm -f "$fg_tmp/go"
	mkfifo "$fg_tmp/go"
	sh -c 'read x <"$1"; exec "$2" --rounds 10' sh "$fg_tmp/go" "$fg_sleep" >/dev/null &
	fg_w=$!
	"$PMUSCOPE" profile --off-cpu -p $fg_w -o "$fg_tmp/offcpu.html" -f flamegraph >"$fg_tmp/offcpu.table" 2>"$fg_tmp/offcpu.err" &
	fg_p=$!
	fg_i=0
	while [ $fg_i -lt 100 ] && ! grep -q 'off the CPU' "$fg_tmp/offcpu.err" && kill -0 $fg_p 2>/dev/null; do
		sleep 0.1
		fg_i=$((fg_i + 1))
	done
	echo go >"$fg_tmp/go"
	wait $fg_w
	if wait $fg_p; then
		awk '$1 ~ /%$/ && NF >= 6 { sub(/%$/, "", $1); print $1, $NF }' "$fg_tmp/offcpu.table" >"$fg_tmp/offcpu.rep"
		fg_node offcpu offcpu "$fg_tmp/offcpu.html" fn=nap_long report="$fg_tmp/offcpu.rep"
	elif grep -qiE 'permission|BTF|not supported' "$fg_tmp/offcpu.err"; then
		skip "fg-offcpu" "profile --off-cpu cannot run here: $(head -c 200 "$fg_tmp/offcpu.err")"
	else
		fail "fg-offcpu-profile" "$(head -c 300 "$fg_tmp/offcpu.err")"
	fi

	# differential: alpha 50 -> 20 (blue), charlie 20 -> 50 (red)
	if "$PMUSCOPE" record -g -F 1000 -o "$fg_tmp/new.data" -- "$fg_demo" --rounds 30000 --shares 20,30,50 >/dev/null 2>"$fg_tmp/rec2.err" &&
		"$PMUSCOPE" record -g -F 1000 -o "$fg_tmp/old.data" -- "$fg_demo" --rounds 30000 >/dev/null 2>>"$fg_tmp/rec2.err"; then
		fg_page diff "$fg_tmp/new.data" --base "$fg_tmp/old.data" --root none &&
			fg_node diff diff "$fg_tmp/diff.html" grew=charlie shrank=alpha
	else
		fail "fg-diff-record" "$(head -c 300 "$fg_tmp/rec2.err")"
	fi
fi
rm -rf "$fg_tmp"
