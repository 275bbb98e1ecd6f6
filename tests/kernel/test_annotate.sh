# SPDX-License-Identifier: MIT
# pmuscope annotate against known answers and against perf annotate:
#  1. demo/pms-loops (two loops of one body, 3:1 iterations): the loops carry 75% and 25% of
#     two_loops within 3 points, the lines of loop A 75% in all, and the hottest-lines summary
#     lists loop A's lines first; the same built with -O2 -g, and built as a non-PIE executable;
#     report --sort srcline counts the same samples on the same lines; pms-shares --leaves built
#     -O2 -g: each leaf function's loop holds its known share (50/30/20) of all samples;
#  2. on a file perf recorded, perf annotate --stdio -s two_loops and ours agree on the hottest
#     instruction's address and on the top 10 instructions' shares within 0.5 points; with a
#     recorded group, --group gives each event's column as perf annotate --group does;
#  3. a stripped binary with its debug file beside it (debug link) is annotated with source
#     lines, and still once both are gone (record saved them in the build-id cache); one built
#     without -g gets its disassembly and one line saying why there is no source;
#  4. a binary rebuilt after the recording is refused with both build-ids, never annotated;
#  5. a function of a shared library, a C++ function by its name without parameters, and a Rust
#     function by its demangled path, each with its loop and source lines;
#  6. a kernel function comes from /proc/kcore, or, on a kernel without one, its refusal says why.
# Shares are of what the workload does, so they hold on a loaded machine (fewer samples).

an_tmp=$(mktemp -d)
an_src=$TOP/demo/pms-loops.c

an_available() {
	"$PMUSCOPE" annotate -h >/dev/null 2>&1
}

# an_record OUT BIN: pmuscope record of BIN for 2 s at 4000 Hz, its build-id cache in the test's
# own HOME (a copy cached by an earlier run of the same bytes must not answer for this one).
an_record() {
	(cd "$an_tmp" && HOME="$an_tmp/cache" "$PMUSCOPE" record -F 4000 -o "$1" "$2" --seconds 2 >/dev/null 2>&1)
}

# an_judge NAME JSONFILE: the loops and lines of two_loops against 75/25.
an_judge() {
	an_la=$(grep -n "loop A" "$an_src" | cut -d: -f1 | tr '\n' ',' | sed 's/,$//')
	an_res=$(jq -r --argjson a "[$an_la]" '.annotations[0] |
		[(.loops | length), (.loops[0].percent // 0), (.loops[1].percent // 0),
		 ([.lines[] | select(.line as $l | $a | index($l)) | .percent] | add // 0), .samples] |
		map(tostring) | join(" ")' "$2" 2>/dev/null)
	set -- "$1" $an_res
	if [ "${2:-0}" -ge 2 ] && echo "$3 $4 $5" | awk '{ exit !(($1 - 75)^2 <= 9 && ($2 - 25)^2 <= 9 && ($3 - 75)^2 <= 9) }'; then
		pass "$1: loops $3% / $4%, loop A's lines $5% (want 75/25 +-3) from $6 samples"
	else
		fail "$1" "loops '${2:-?}': $3 / $4, loop A lines $5 (want 75/25 +-3), samples ${6:-?}"
	fi
}

an_truth() {
	an_record "$an_tmp/loops.data" "$BUILD_DIR/demo/pms-loops"
	"$PMUSCOPE" annotate -i "$an_tmp/loops.data" --json two_loops >"$an_tmp/loops.json" 2>"$an_tmp/loops.err"
	an_judge "annotate_loops (-O1)" "$an_tmp/loops.json"
	# --dso of a user object: the kernel's symbols are not loaded, the function's annotation is the same
	"$PMUSCOPE" annotate -i "$an_tmp/loops.data" -d pms-loops --json two_loops >"$an_tmp/loops-d.json" 2>&1
	if [ "$(jq -c '.annotations[0].insns' "$an_tmp/loops-d.json" 2>/dev/null)" = "$(jq -c '.annotations[0].insns' "$an_tmp/loops.json")" ]; then
		pass "annotate_dso: --dso pms-loops gives the same annotation without the kernel's symbols"
	else
		fail "annotate_dso" "$(head -c 300 "$an_tmp/loops-d.json")"
	fi
	"$PMUSCOPE" annotate -i "$an_tmp/loops.data" two_loops >"$an_tmp/loops.txt" 2>&1
	an_first=$(sed -n '/Hottest lines:/,/Hottest loop/p' "$an_tmp/loops.txt" | sed -n 2,4p |
		sed -n 's/.*pms-loops\.c:\([0-9]*\).*/\1/p' | tr '\n' ' ')
	an_la=" $(grep -n "loop A" "$an_src" | cut -d: -f1 | tr '\n' ' ')"
	an_ok=1
	for l in $an_first; do
		case "$an_la" in *" $l "*) ;; *) an_ok=0 ;; esac
	done
	if [ $an_ok = 1 ] && [ "$(echo "$an_first" | wc -w)" = 3 ] && grep -q "# loop back to" "$an_tmp/loops.txt"; then
		pass "annotate_summary: the three hottest lines are loop A's ($an_first)"
	else
		fail "annotate_summary" "hottest lines $an_first, loop A is$an_la: $(head -c 600 "$an_tmp/loops.txt")"
	fi
	# report --sort srcline counts the same samples on the same lines
	HOME="$an_tmp/cache" "$PMUSCOPE" report -i "$an_tmp/loops.data" --sort srcline -n --stdio 2>/dev/null |
		awk '$3 ~ /^pms-loops\.c:/ { print $3, $2 }' | sort >"$an_tmp/report.lines"
	jq -r '.annotations[0].lines[] | select(.samples > 0) | "pms-loops.c:\(.line) \(.samples)"' "$an_tmp/loops.json" |
		sort >"$an_tmp/annotate.lines"
	if [ -s "$an_tmp/annotate.lines" ] && [ -z "$(join -v 1 "$an_tmp/annotate.lines" "$an_tmp/report.lines" 2>&1)" ] &&
		[ "$(join "$an_tmp/annotate.lines" "$an_tmp/report.lines" | awk '$2 != $3' | wc -l)" = 0 ]; then
		pass "annotate_report_srcline: $(wc -l <"$an_tmp/annotate.lines") lines, the same sample counts as report --sort srcline"
	else
		fail "annotate_report_srcline" "annotate: $(tr '\n' ' ' <"$an_tmp/annotate.lines") report: $(tr '\n' ' ' <"$an_tmp/report.lines")"
	fi
	cc -std=gnu11 -O2 -g -fno-omit-frame-pointer -o "$an_tmp/loops-O2" "$an_src" &&
		an_record "$an_tmp/o2.data" "$an_tmp/loops-O2" &&
		"$PMUSCOPE" annotate -i "$an_tmp/o2.data" --json two_loops >"$an_tmp/o2.json" 2>&1
	an_judge "annotate_loops (-O2 -g)" "$an_tmp/o2.json"
	cc -std=gnu11 -O1 -g -fno-pie -no-pie -o "$an_tmp/loops-nopie" "$an_src" &&
		an_record "$an_tmp/nopie.data" "$an_tmp/loops-nopie" &&
		"$PMUSCOPE" annotate -i "$an_tmp/nopie.data" --json two_loops >"$an_tmp/nopie.json" 2>&1
	if [ "$(jq '.annotations[0].start' "$an_tmp/nopie.json" 2>/dev/null)" -ge 4194304 ] 2>/dev/null; then
		an_judge "annotate_loops (non-PIE, at $(jq '.annotations[0].start' "$an_tmp/nopie.json"))" "$an_tmp/nopie.json"
	else
		fail "annotate_loops (non-PIE)" "start $(head -c 300 "$an_tmp/nopie.json")"
	fi
	# pms-shares --leaves built -O2 -g: each leaf's loop carries its known share of all samples
	# (global percent: 50/30/20 of the work is in leaf_alpha/bravo/delta's loops)
	cc -std=gnu11 -O2 -g -fno-omit-frame-pointer -o "$an_tmp/shares-O2" "$TOP/demo/pms-shares.c" -lm &&
		(cd "$an_tmp" && HOME="$an_tmp/cache" "$PMUSCOPE" record -F 4000 -o "$an_tmp/shares.data" \
			"$an_tmp/shares-O2" --leaves --seconds 2 >/dev/null 2>&1) &&
		"$PMUSCOPE" annotate -i "$an_tmp/shares.data" --percent-type global-period --json \
			leaf_alpha leaf_bravo leaf_delta >"$an_tmp/shares.json" 2>&1
	an_res=$(jq -r '[.annotations[] | {(.symbol): ([.loops[].percent] | max // 0)}] | add |
		"\(.leaf_alpha // 0) \(.leaf_bravo // 0) \(.leaf_delta // 0)"' "$an_tmp/shares.json" 2>/dev/null)
	if echo "$an_res" | awk 'NF == 3 { exit !(($1 - 50)^2 <= 9 && ($2 - 30)^2 <= 9 && ($3 - 20)^2 <= 9) } { exit 1 }'; then
		pass "annotate_shares (-O2 -g): the leaves' loops carry $an_res% of all samples (want 50/30/20 +-3)"
	else
		fail "annotate_shares (-O2 -g)" "loops '$an_res' (want 50/30/20 +-3): $(head -c 300 "$an_tmp/shares.json")"
	fi
}

an_vs_perf() {
	(cd "$an_tmp" && perf record -q -F 4000 -o "$an_tmp/perf.data" "$BUILD_DIR/demo/pms-loops" --seconds 2 >/dev/null 2>&1)
	perf annotate -i "$an_tmp/perf.data" --stdio -s two_loops 2>/dev/null |
		sed -n 's/^ *\([0-9][0-9.]*\) : *\([0-9a-f][0-9a-f]*\):.*/\2 \1/p' | sort -k2 -rn >"$an_tmp/perf.pct"
	"$PMUSCOPE" annotate -i "$an_tmp/perf.data" --json two_loops 2>"$an_tmp/ours.err" |
		jq -r '.annotations[0].insns[] | "\(.addr) \(.percent)"' |
		awk '{ printf "%x %.2f\n", $1, $2 }' | sort -k2 -rn >"$an_tmp/ours.pct"
	if [ ! -s "$an_tmp/perf.pct" ] || [ ! -s "$an_tmp/ours.pct" ]; then
		fail "annotate_vs_perf" "perf: $(head -c 200 "$an_tmp/perf.pct"), ours: $(head -c 200 "$an_tmp/ours.pct") $(head -c 200 "$an_tmp/ours.err")"
		return
	fi
	an_cmp=$(awk 'NR == FNR { ours[$1] = $2; if (FNR == 1) top = $1; next }
		FNR == 1 { ptop = $1 }
		FNR <= 10 { d = $2 - ours[$1]; if (d < 0) d = -d; if (d > worst) worst = d; n++ }
		END { printf "%s %s %.2f %d", top, ptop, worst, n }' "$an_tmp/ours.pct" "$an_tmp/perf.pct")
	set -- $an_cmp
	if [ "$1" = "$2" ] && awk -v w="$3" 'BEGIN { exit !(w <= 0.5) }' && [ "$4" -ge 5 ]; then
		pass "annotate_vs_perf: hottest instruction $1 on both; top $4 within $3 points of perf annotate's"
	else
		fail "annotate_vs_perf" "hottest ours $1 perf $2, worst of top $4: $3 points; perf: $(head -5 "$an_tmp/perf.pct" | tr '\n' ' ') ours: $(head -5 "$an_tmp/ours.pct" | tr '\n' ' ')"
	fi
}

# --group: one column per event of the recorded group, as perf annotate --group prints them.
an_group() {
	(cd "$an_tmp" && HOME="$an_tmp/cache" "$PMUSCOPE" record -e '{cpu-clock,task-clock}' -F 2000 -o "$an_tmp/g.data" \
		"$BUILD_DIR/demo/pms-loops" --seconds 2 >/dev/null 2>&1)
	HOME="$an_tmp/cache" "$PMUSCOPE" annotate -i "$an_tmp/g.data" --group two_loops 2>&1 |
		sed -n 's/^ *\([0-9.]*\) *\([0-9.]*\) : *\([0-9a-f]*\):.*/\3 \1 \2/p' | sort >"$an_tmp/g.ours"
	perf annotate -i "$an_tmp/g.data" --group --stdio -s two_loops 2>/dev/null |
		sed -n 's/^ *\([0-9.]*\) *\([0-9.]*\) *: *\([0-9a-f]*\):.*/\3 \1 \2/p' | sort >"$an_tmp/g.perf"
	an_cmp=$(join "$an_tmp/g.ours" "$an_tmp/g.perf" | awk '{ d1 = $2 - $4; d2 = $3 - $5; if (d1 < 0) d1 = -d1;
		if (d2 < 0) d2 = -d2; if (d1 > w) w = d1; if (d2 > w) w = d2; n++ } END { printf "%d %.2f", n, w }')
	set -- $an_cmp
	if [ "${1:-0}" -ge 10 ] && [ "$1" = "$(wc -l <"$an_tmp/g.perf")" ] && awk -v w="$2" 'BEGIN { exit !(w <= 0.5) }'; then
		pass "annotate_group: cpu-clock and task-clock side by side on $1 instructions, within $2 points of perf annotate --group"
	else
		fail "annotate_group" "$1 instructions compared (perf has $(wc -l <"$an_tmp/g.perf")), worst $2: $(head -3 "$an_tmp/g.ours" | tr '\n' ' ')"
	fi
}

an_files() {
	cc -std=gnu11 -O1 -g -fno-omit-frame-pointer -o "$an_tmp/stripped" "$an_src" &&
		objcopy --only-keep-debug "$an_tmp/stripped" "$an_tmp/stripped.debug" &&
		strip --strip-all "$an_tmp/stripped" &&
		objcopy --add-gnu-debuglink="$an_tmp/stripped.debug" "$an_tmp/stripped" &&
		an_record "$an_tmp/stripped.data" "$an_tmp/stripped"
	HOME="$an_tmp/cache" "$PMUSCOPE" annotate -i "$an_tmp/stripped.data" two_loops >"$an_tmp/stripped.txt" 2>&1
	if grep -q "Hottest lines:" "$an_tmp/stripped.txt" && grep -q "pms-loops.c:2[0-9]" "$an_tmp/stripped.txt" &&
		grep -q "# loop back to" "$an_tmp/stripped.txt"; then
		pass "annotate_stripped: symbols and lines from the debug file, code from the binary"
	else
		fail "annotate_stripped" "$(head -c 600 "$an_tmp/stripped.txt")"
	fi
	# the same once the binary and its debug file are gone: record saved both in the cache
	mv "$an_tmp/stripped.debug" "$an_tmp/stripped.debug.gone"
	HOME="$an_tmp/cache" "$PMUSCOPE" annotate -i "$an_tmp/stripped.data" two_loops >"$an_tmp/cached.txt" 2>&1
	if grep -q "pms-loops.c:2[0-9]" "$an_tmp/cached.txt" && grep -q "# loop back to" "$an_tmp/cached.txt"; then
		pass "annotate_stripped_cached: record kept the debug file its debug link names"
	else
		fail "annotate_stripped_cached" "$(head -c 600 "$an_tmp/cached.txt")"
	fi
	cc -std=gnu11 -O1 -fno-omit-frame-pointer -o "$an_tmp/nodebug" "$an_src" &&
		an_record "$an_tmp/nodebug.data" "$an_tmp/nodebug"
	"$PMUSCOPE" annotate -i "$an_tmp/nodebug.data" two_loops >"$an_tmp/nodebug.txt" 2>&1
	an_rc=$?
	if [ $an_rc = 0 ] && [ "$(grep -c "No source lines: no DWARF line information" "$an_tmp/nodebug.txt")" = 1 ] &&
		grep -q "# loop back to" "$an_tmp/nodebug.txt"; then
		pass "annotate_no_debug_info: disassembly, and no source said once"
	else
		fail "annotate_no_debug_info" "exit $an_rc: $(head -c 600 "$an_tmp/nodebug.txt")"
	fi
	cc -std=gnu11 -O1 -g -fno-omit-frame-pointer -o "$an_tmp/rebuilt" "$an_src" &&
		an_record "$an_tmp/rebuilt.data" "$an_tmp/rebuilt" &&
		cc -std=gnu11 -O0 -g -fno-omit-frame-pointer -o "$an_tmp/rebuilt" "$an_src" &&
		rm -rf "$an_tmp/cache"
	# an empty build-id cache: the recorded bytes may not come from a saved copy
	HOME="$an_tmp/cache" "$PMUSCOPE" annotate -i "$an_tmp/rebuilt.data" two_loops >"$an_tmp/rebuilt.txt" 2>&1
	an_rc=$?
	if [ $an_rc = 1 ] && grep -q "rebuilt since the recording" "$an_tmp/rebuilt.txt" &&
		! grep -q "Percent |" "$an_tmp/rebuilt.txt"; then
		pass "annotate_rebuilt_refused: $(grep -m1 'rebuilt since' "$an_tmp/rebuilt.txt" | cut -c1-120)..."
	else
		fail "annotate_rebuilt_refused" "exit $an_rc: $(head -c 600 "$an_tmp/rebuilt.txt")"
	fi
}

# an_lang NAME BIN SYM SRC: BIN recorded; SYM annotated with its loop and SRC's lines.
an_lang() {
	an_record "$an_tmp/$1.data" "$2"
	HOME="$an_tmp/cache" "$PMUSCOPE" annotate -i "$an_tmp/$1.data" "$3" >"$an_tmp/$1.txt" 2>&1
	an_rc=$?
	if [ $an_rc = 0 ] && grep -q "Source code & Disassembly" "$an_tmp/$1.txt" && grep -q "# loop back to" "$an_tmp/$1.txt" &&
		sed -n '/Hottest lines:/,/Hottest loop/p' "$an_tmp/$1.txt" | grep -q "$4:[0-9]"; then
		pass "annotate_$1: $3, its loop and $4's lines"
	else
		fail "annotate_$1" "$3, exit $an_rc: $(head -c 500 "$an_tmp/$1.txt")"
	fi
}

# A function in a shared library, a C++ function in a namespace (by its name without parameters)
# and a Rust function (by its demangled path), each a loop of the same xorshift step.
an_langs() {
	an_step='x ^= x << 13; x ^= x >> 7; x ^= x << 17;'
	cat >"$an_tmp/hot.c" <<EOC
__attribute__((noinline)) unsigned long lib_hot(unsigned long n)
{
	unsigned long x = 88172645463325252UL;
	for (unsigned long i = 0; i < n; i++) {
		$an_step
		__asm__ volatile("" : "+r"(x));
	}
	return x;
}
EOC
	cat >"$an_tmp/main.c" <<EOC
#include <time.h>
unsigned long lib_hot(unsigned long n);
volatile unsigned long sink;
int main(int argc, char **argv) { time_t end = time(0) + 2; (void)argc; (void)argv; while (time(0) < end) sink += lib_hot(100000); return 0; }
EOC
	if cc -shared -fPIC -O1 -g -o "$an_tmp/libhot.so" "$an_tmp/hot.c" &&
		cc -O1 -g -o "$an_tmp/usehot" "$an_tmp/main.c" -L"$an_tmp" -lhot -Wl,-rpath,"$an_tmp"; then
		an_lang shlib "$an_tmp/usehot" lib_hot hot.c
	else
		fail "annotate_shlib" "cannot build the library"
	fi
	cat >"$an_tmp/hot.cc" <<EOC
#include <time.h>
namespace pms {
__attribute__((noinline)) unsigned long spin(unsigned long n)
{
	unsigned long x = 88172645463325252UL;
	for (unsigned long i = 0; i < n; i++) {
		$an_step
		__asm__ volatile("" : "+r"(x));
	}
	return x;
}
}
volatile unsigned long sink;
int main() { time_t end = time(0) + 2; while (time(0) < end) sink += pms::spin(100000); return 0; }
EOC
	# clang as C++ but linked as C: nothing of libstdc++ is needed
	if clang -x c++ -O1 -g -fno-exceptions -fno-rtti -o "$an_tmp/cxx" "$an_tmp/hot.cc" 2>/dev/null; then
		an_lang cxx "$an_tmp/cxx" "pms::spin" hot.cc
	else
		fail "annotate_cxx" "cannot build the C++ program"
	fi
	an_rustc=/usr/bin/rustc
	[ -x "$an_rustc" ] || an_rustc=$(command -v rustc)
	if [ -z "$an_rustc" ]; then
		skip "annotate_rust" "no rustc"
		return
	fi
	cat >"$an_tmp/rusthot.rs" <<'EOC'
use std::time::{Duration, Instant};
#[inline(never)]
pub fn spin(n: u64) -> u64 {
    let mut x: u64 = 88172645463325252;
    for _ in 0..n {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x = unsafe { std::ptr::read_volatile(&x) };
    }
    x
}
fn main() {
    let end = Instant::now() + Duration::from_secs(2);
    let mut sink = 0u64;
    while Instant::now() < end { sink = sink.wrapping_add(spin(100000)); }
    std::process::exit((sink & 1) as i32 * 0);
}
EOC
	if "$an_rustc" -g -C opt-level=1 -C force-frame-pointers=yes -o "$an_tmp/rusthot" "$an_tmp/rusthot.rs" 2>/dev/null; then
		an_lang rust "$an_tmp/rusthot" "rusthot::spin" rusthot.rs
	else
		fail "annotate_rust" "cannot build the Rust program with $an_rustc"
	fi
}

# Kernel functions: from /proc/kcore when this kernel has one and is the recorded kernel, else the
# reason, once for all of them.
an_kernel() {
	(cd "$an_tmp" && HOME="$an_tmp/cache" "$PMUSCOPE" record -F 4000 -o "$an_tmp/k.data" -- \
		sh -c 'i=0; while [ $i -lt 3000 ]; do cat /proc/self/stat >/dev/null; i=$((i + 1)); done' >/dev/null 2>&1)
	an_ksym=$(HOME="$an_tmp/cache" "$PMUSCOPE" report -i "$an_tmp/k.data" --stdio --sort sym 2>/dev/null |
		sed -n 's/.*\[k\] \([A-Za-z0-9_]*\)$/\1/p' | head -n 1)
	HOME="$an_tmp/cache" "$PMUSCOPE" annotate -i "$an_tmp/k.data" "$an_ksym" >"$an_tmp/k.txt" 2>&1
	an_rc=$?
	if [ -r /proc/kcore ]; then
		if [ $an_rc = 0 ] && grep -q "Disassembly of \[kernel.kallsyms\]" "$an_tmp/k.txt" &&
			grep -q "kernel code read from /proc/kcore" "$an_tmp/k.txt"; then
			pass "annotate_kernel: $an_ksym from /proc/kcore"
		else
			fail "annotate_kernel" "$an_ksym, exit $an_rc: $(head -c 500 "$an_tmp/k.txt")"
		fi
	elif [ $an_rc = 1 ] && [ "$(grep -c 'not annotated: kernel code is read from /proc/kcore, and this kernel has none' "$an_tmp/k.txt")" = 1 ]; then
		pass "annotate_kernel: this kernel has no /proc/kcore, and $an_ksym's refusal says so once"
	else
		fail "annotate_kernel" "'$an_ksym', exit $an_rc: $(head -c 500 "$an_tmp/k.txt")"
	fi
}

if ! an_available; then
	skip "annotate_all" "annotate not in this build"
else
	an_truth
	if command -v perf >/dev/null 2>&1; then
		an_vs_perf
		an_group
	else
		skip "annotate_vs_perf" "perf is not installed"
	fi
	an_files
	an_langs
	an_kernel
fi
rm -rf "$an_tmp"
