# SPDX-License-Identifier: MIT
# pmuscope profile (issue 6): BPF sampling aggregated in the kernel.
#  1. pms-shares under `profile -p` (4000 Hz, folded and table from one run): children alpha 50,
#     bravo 30, charlie = delta 20 (+-3 points), leaf_work self >= 95%, and leaf_work's callers
#     split 50/30/20 through main;run;<caller>;leaf_work chains;
#  2. system-wide at 999 Hz during a `make -j2` of a copy of some of the project's sources:
#     fewer than 1% of the samples that should have a user stack lose it, and the loss lines
#     (every reason, with counts) are printed; beside it a profile with maps far too small
#     reads its counts early to keep room, and its samples = kept + dropped-and-counted;
#  3. a loop of short-lived processes (a tiny program with a known hot function, ~5 ms each):
#     most of their samples still resolve to the hot function (mappings snapshotted at the
#     first sample, while the process lives);
#  4. --interval prints a table per interval; -o pprof is read by go tool pprof;
#  5. errors: an unprivileged user gets "needs root or CAP_BPF+CAP_PERFMON", exit 1.
# Sourced by tests/kernel/run.sh; every function and variable is pf_-prefixed.

pf_demo=$BUILD_DIR/demo/pms-shares
pf_tmp=$(mktemp -d)

pf_available() {
	if "$PMUSCOPE" profile -h >/dev/null 2>&1 && [ -r /sys/kernel/btf/vmlinux ]; then
		return 0
	fi
	return 1
}

# pf_metrics FOLDED: "samples=T self=S alpha=A ... ca=X cb=Y cd=Z" from folded stacks of pms-shares.
pf_metrics() {
	awk '
	{
		n = $NF; line = $0; sub(/ [0-9]+$/, "", line)
		nf = split(line, fr, ";")
		t += n
		if (fr[nf] == "leaf_work") self += n
		delete seen
		for (i = 2; i <= nf; i++) if (!(fr[i] in seen)) { seen[fr[i]] = 1; ch[fr[i]] += n }
		for (i = nf; i > 2; i--) if (fr[i] == "leaf_work") { caller[fr[i - 1]] += n; nl += n; break }
		if (line ~ /;main;run;alpha;leaf_work$/ || line ~ /;main;run;bravo;leaf_work$/ ||
		    line ~ /;main;run;charlie;delta;leaf_work$/) chain += n
	}
	END {
		if (t == 0) { print "samples=0"; exit }
		if (nl == 0) nl = 1
		printf "samples=%d self=%.2f alpha=%.2f bravo=%.2f charlie=%.2f delta=%.2f ca=%.2f cb=%.2f cd=%.2f chains=%.2f\n",
			t, 100 * self / t, 100 * ch["alpha"] / t, 100 * ch["bravo"] / t, 100 * ch["charlie"] / t,
			100 * ch["delta"] / t, 100 * caller["alpha"] / nl, 100 * caller["bravo"] / nl,
			100 * caller["delta"] / nl, 100 * chain / t
	}' "$1"
}

pf_judge() {
	pf_bad=$(echo "$2" | awk '{
		for (i = 1; i <= NF; i++) { split($i, kv, "="); m[kv[1]] = kv[2] }
		if (m["samples"] < 1000) { print "only " m["samples"] " samples"; exit }
		split("alpha=50 bravo=30 charlie=20 delta=20 ca=50 cb=30 cd=20", w, " ")
		for (k in w) { split(w[k], kv, "="); d = m[kv[1]] - kv[2]; if (d < 0) d = -d
			if (d > 3) bad = bad " " kv[1] "=" m[kv[1]] "(want " kv[2] ")" }
		if (m["self"] < 95) bad = bad " leaf_work self " m["self"] "% (want >= 95)"
		if (m["chains"] < 95) bad = bad " main;run;caller;leaf_work chains " m["chains"] "% (want >= 95)"
		print bad }')
	if [ -z "$pf_bad" ]; then pass "$1: $2"; else fail "$1" "$pf_bad [$2]"; fi
}

pf_truth() {
	"$pf_demo" --rounds 75000 >/dev/null &
	pf_w=$!
	"$PMUSCOPE" profile -F 4000 -p $pf_w -o "$pf_tmp/shares.folded" >"$pf_tmp/shares.table" 2>"$pf_tmp/shares.err"
	pf_rc=$?
	wait $pf_w
	if [ $pf_rc != 0 ]; then
		fail "pf_truth" "profile -p exit $pf_rc: $(head -c 400 "$pf_tmp/shares.err")"
		return
	fi
	pf_judge "pf_truth (profile -p, folded)" "$(pf_metrics "$pf_tmp/shares.folded")"
	# the table: children of alpha/bravo/charlie from the same run, +-3 points
	pf_tab=$(awk '$NF == "alpha" || $NF == "bravo" || $NF == "charlie" || $NF == "leaf_work" {
		gsub(/%/, "", $1); gsub(/%/, "", $2); v[$NF] = $1; s[$NF] = $2 }
		END { bad = ""
		if (v["alpha"] < 47 || v["alpha"] > 53) bad = bad " alpha " v["alpha"]
		if (v["bravo"] < 27 || v["bravo"] > 33) bad = bad " bravo " v["bravo"]
		if (v["charlie"] < 17 || v["charlie"] > 23) bad = bad " charlie " v["charlie"]
		if (s["leaf_work"] < 95) bad = bad " leaf_work self " s["leaf_work"]
		print bad }' "$pf_tmp/shares.table")
	if [ -z "$pf_tab" ]; then pass "pf_truth_table"; else fail "pf_truth_table" "$pf_tab"; fi
	if grep -q "^profile: user stacks lost: 0 of" "$pf_tmp/shares.err"; then
		pass "pf_truth_no_loss"
	else
		fail "pf_truth_no_loss" "$(grep 'stacks lost' "$pf_tmp/shares.err")"
	fi
}

# A parallel build of a copy of some of the project's sources, profiled system-wide.
pf_build() {
	mkdir -p "$pf_tmp/src"
	cp -r "$TOP/lib" "$TOP/include" "$pf_tmp/src/"
	pf_objs=""
	for f in "$pf_tmp"/src/lib/util/*.c "$pf_tmp"/src/lib/event/*.c "$pf_tmp"/src/lib/aggregate/*.c; do
		pf_objs="$pf_objs ${f%.c}.o"
	done
	printf 'all:%s\n%%.o: %%.c\n\tgcc -std=gnu11 -O2 -D_GNU_SOURCE -Iinclude -Ilib -c $< -o $@\n' "$pf_objs" \
		>"$pf_tmp/src/Makefile"
	"$PMUSCOPE" profile -F 999 -a -o "$pf_tmp/build.folded" >/dev/null 2>"$pf_tmp/build.err" &
	pf_p=$!
	# beside it, one with maps far too small for the build: read early, every sample accounted for
	"$PMUSCOPE" profile -F 999 -a --map-entries 300 -o "$pf_tmp/small.folded" >/dev/null 2>"$pf_tmp/small.err" &
	pf_s=$!
	sleep 1
	(cd "$pf_tmp/src" && timeout 60 make -s -j2 >/dev/null 2>&1)
	kill -INT $pf_s
	wait $pf_s
	pf_small_rc=$?
	kill -INT $pf_p
	wait $pf_p
	pf_rc=$?
	pf_acc=$(awk '
		FILENAME ~ /folded$/ { kept += $NF; next }
		/^profile: [0-9]+ samples,/ { total = $2; split($0, a, "read early "); split(a[2], b, " "); early = b[1] }
		/samples dropped \(counts map full\)/ { dropped = $NF }
		END { printf "%d %d %d %d\n", total, kept, dropped, early }' "$pf_tmp/small.folded" "$pf_tmp/small.err")
	set -- $pf_acc
	# equal but for increments that land on a key between its early read and its deletion
	# (a window of microseconds; the final read, after detaching, is exact)
	if [ $pf_small_rc = 0 ] && [ "$1" -gt 0 ] && [ "$4" -ge 1 ] &&
		awk -v t="$1" -v k="$2" -v d="$3" 'BEGIN { x = t - k - d; if (x < 0) x = -x; exit !(x <= t / 200) }'; then
		pass "pf_small_maps: $1 samples = $2 in the profile + $3 dropped and counted; read early $4 times"
	else
		fail "pf_small_maps" "exit $pf_small_rc; samples, kept, dropped, early reads: $pf_acc; $(cat "$pf_tmp/small.err")"
	fi
	if [ $pf_rc != 0 ]; then
		fail "pf_build" "profile -a exit $pf_rc: $(head -c 400 "$pf_tmp/build.err")"
		return
	fi
	pf_loss=$(sed -n 's/^profile: user stacks lost: \([0-9]*\) of \([0-9]*\) expected (\([0-9.]*\)%).*/\1 \2 \3/p' "$pf_tmp/build.err")
	set -- $pf_loss
	if [ $# = 3 ] && [ "$2" -ge 1000 ] && awk -v p="$3" 'BEGIN { exit !(p < 1) }'; then
		pass "pf_build_user_stacks: $1 of $2 lost ($3%)"
	else
		fail "pf_build_user_stacks" "want < 1% of >= 1000: $(cat "$pf_tmp/build.err")"
	fi
	if grep -q '^profile: kernel stacks lost: .*fault .*stack map full .*collision .*counts map full' "$pf_tmp/build.err" &&
		grep -q '^profile: user stacks lost: .*fault .*empty .*stack map full .*collision' "$pf_tmp/build.err" &&
		grep -q '^profile: truncated at' "$pf_tmp/build.err"; then
		pass "pf_build_loss_lines"
	else
		fail "pf_build_loss_lines" "$(cat "$pf_tmp/build.err")"
	fi
	if grep -q '^cc1;' "$pf_tmp/build.folded"; then
		pass "pf_build_cc1_seen"
	else
		fail "pf_build_cc1_seen" "no cc1 stacks in $(wc -l <"$pf_tmp/build.folded") folded lines"
	fi
}

# Many short-lived processes: their samples still resolve to their hot function.
pf_short() {
	cat >"$pf_tmp/pf_short.c" <<'CEOF'
#include <stdlib.h>
#include <time.h>
static volatile unsigned long sink;
__attribute__((noinline)) static void pf_hot_spin(double ms)
{
	struct timespec a, b;
	clock_gettime(CLOCK_MONOTONIC, &a);
	do {
		for (int i = 0; i < 10000; i++)
			sink += i;
		clock_gettime(CLOCK_MONOTONIC, &b);
	} while ((b.tv_sec - a.tv_sec) * 1e3 + (b.tv_nsec - a.tv_nsec) / 1e6 < ms);
}
int main(int argc, char **argv)
{
	pf_hot_spin(argc > 1 ? atof(argv[1]) : 5);
	return 0;
}
CEOF
	if ! gcc -O1 -g -fno-omit-frame-pointer -o "$pf_tmp/pf-short" "$pf_tmp/pf_short.c"; then
		fail "pf_short" "cannot build the workload"
		return
	fi
	"$PMUSCOPE" profile -F 999 -a -o "$pf_tmp/short.folded" >/dev/null 2>"$pf_tmp/short.err" &
	pf_p=$!
	sleep 1
	pf_i=0
	while [ $pf_i -lt 200 ]; do
		"$pf_tmp/pf-short" 5
		pf_i=$((pf_i + 1))
	done
	kill -INT $pf_p
	wait $pf_p
	pf_rc=$?
	if [ $pf_rc != 0 ]; then
		fail "pf_short" "profile -a exit $pf_rc: $(head -c 400 "$pf_tmp/short.err")"
		return
	fi
	# ~1 ms of each run is exec, ld.so (no frame pointers: [unknown] callers) and exit, so the
	# hot function holds ~80%; without the snapshots the binary's frames would all be [unknown]
	pf_res=$(awk '/^pf-short;/ { n = $NF; t += n; if ($0 ~ /;main;pf_hot_spin/) h += n }
		END { printf "%d %d %.1f\n", t, h, t ? 100 * h / t : 0 }' "$pf_tmp/short.folded")
	pf_snap=$(sed -n 's/^profile: processes: \([0-9]*\) mappings snapshots.*/\1/p' "$pf_tmp/short.err")
	set -- $pf_res
	if [ "$1" -ge 300 ] && awk -v p="$3" 'BEGIN { exit !(p >= 65) }' && [ "${pf_snap:-0}" -ge 150 ]; then
		pass "pf_short: $2 of $1 samples of 200 short processes in main;pf_hot_spin ($3%); $pf_snap snapshots"
	else
		fail "pf_short" "want >= 300 samples, >= 65% in main;pf_hot_spin, >= 150 snapshots: $pf_res; $(grep processes "$pf_tmp/short.err")"
	fi
}

# --interval prints one table per interval; -o pprof is read by go tool pprof (an independent decoder).
pf_outputs() {
	pf_n=$("$PMUSCOPE" profile -F 999 -a --duration 1.3 --interval 0.5 --top 3 2>/dev/null | grep -c '^# Samples:')
	# 0.5, 1.0 and the end at 1.3 s: 3 (2 when the machine starves us past a boundary)
	if [ "$pf_n" -ge 2 ]; then pass "pf_interval: $pf_n tables"; else fail "pf_interval" "$pf_n tables, want 3"; fi
	if ! command -v go >/dev/null 2>&1; then
		skip "pf_pprof" "no go tool"
		return
	fi
	"$pf_demo" --rounds 20000 >/dev/null &
	pf_w=$!
	"$PMUSCOPE" profile -F 999 -p $pf_w -o "$pf_tmp/p.pb.gz" --format pprof >/dev/null 2>"$pf_tmp/p.err"
	wait $pf_w
	if go tool pprof -top -symbolize=none "$pf_tmp/p.pb.gz" 2>&1 | grep -q ' leaf_work$'; then
		pass "pf_pprof"
	else
		fail "pf_pprof" "$(go tool pprof -top -symbolize=none "$pf_tmp/p.pb.gz" 2>&1 | head -5) $(cat "$pf_tmp/p.err")"
	fi
}

pf_unprivileged() {
	if ! command -v setpriv >/dev/null 2>&1; then
		skip "pf_unprivileged" "no setpriv"
		return
	fi
	cp "$PMUSCOPE" "$pf_tmp/pmuscope-copy" && chmod 755 "$pf_tmp" "$pf_tmp/pmuscope-copy"
	pf_out=$(cd / && setpriv --reuid=nobody --regid=nogroup --clear-groups --inh-caps=-all \
		"$pf_tmp/pmuscope-copy" profile --duration 0.1 2>&1)
	pf_rc=$?
	if [ $pf_rc = 1 ] && echo "$pf_out" | grep -q "needs root or CAP_BPF+CAP_PERFMON"; then
		pass "pf_unprivileged"
	else
		fail "pf_unprivileged" "exit $pf_rc: $pf_out"
	fi
}

if ! pf_available; then
	skip "pf_all" "profile not in this build or no /sys/kernel/btf/vmlinux"
else
	pf_truth
	pf_short
	pf_build
	pf_outputs
	pf_unprivileged
fi
rm -rf "$pf_tmp"
