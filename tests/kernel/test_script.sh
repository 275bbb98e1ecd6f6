# SPDX-License-Identifier: MIT
# Kernel tests of `pmuscope script`: on files written by perf record (fp -g,
# --call-graph dwarf, -a, no chains, pipe) and by pmuscope record (-g, -z),
# our text is compared with `perf script`'s on the same file: the same lines
# in the same shapes, identical sample lines (comm, tid, cpu, time, period,
# event), and identical frame lines (address, symbol+offset, dso) for at
# least 99% of frames, symbol aliases at one address counted as equal (the
# name perf picks among aliases is its symbol-table order). The memory fields
# of raw events (data_src, weight, ins_lat, phys_addr, page sizes) on a
# crafted file, byte for byte. Then the time of both on a larger file.
# Sourced by tests/kernel/run.sh; every function and variable is sc_-prefixed.

# sc_alias DSO NAME1 NAME2: both names are symbols at one address of DSO
# (its separate debug file when it has one; kallsyms for the kernel).
sc_alias() {
	case $1 in
	"[kernel.kallsyms]")
		sc_a1=$(awk -v n="$2" '$3 == n { print $1; exit }' /proc/kallsyms)
		sc_a2=$(awk -v n="$3" '$3 == n { print $1; exit }' /proc/kallsyms) ;;
	*)
		sc_f=$1
		sc_bid=$(readelf -n "$1" 2>/dev/null | awk '/Build ID/ { print $3; exit }')
		if [ -n "$sc_bid" ]; then
			sc_dbg=/usr/lib/debug/.build-id/$(echo "$sc_bid" | cut -c1-2)/$(echo "$sc_bid" | cut -c3-).debug
			[ -r "$sc_dbg" ] && sc_f=$sc_dbg
		fi
		nm "$sc_f" >"$sc_tmp/nm" 2>/dev/null || : >"$sc_tmp/nm"
		nm -D "$1" >>"$sc_tmp/nm" 2>/dev/null
		sc_a1=$(awk -v n="$2" '$3 == n { print $1; exit }' "$sc_tmp/nm")
		sc_a2=$(awk -v n="$3" '$3 == n { print $1; exit }' "$sc_tmp/nm") ;;
	esac
	[ -n "$sc_a1" ] && [ "$sc_a1" = "$sc_a2" ]
}

# sc_compare NAME FILE [perf script options]: compare both outputs on FILE.
sc_compare() {
	sc_name=$1
	sc_file=$2
	shift 2
	if ! perf script -i "$sc_file" "$@" >"$sc_tmp/perf.txt" 2>"$sc_tmp/perf.err"; then
		skip "script $sc_name" "perf script cannot read it: $(head -n 2 "$sc_tmp/perf.err")"
		return
	fi
	if ! "$PMUSCOPE" script -i "$sc_file" "$@" >"$sc_tmp/ours.txt" 2>"$sc_tmp/ours.err"; then
		fail "script $sc_name: exit 0" "$(head -n 3 "$sc_tmp/ours.err")"
		return
	fi
	sc_np=$(wc -l <"$sc_tmp/perf.txt")
	sc_no=$(wc -l <"$sc_tmp/ours.txt")
	if [ "$sc_np" -lt 10 ]; then
		fail "script $sc_name" "perf script printed only $sc_np lines"
		return
	fi
	# shapes: sample line (S), frame line (tab, 16-column address, F), blank (B)
	sc_shape='{ if ($0 == "") print "B"; else if ($0 ~ /^\t {0,15}[0-9a-f]+ /) print "F"; else print "S" }'
	awk "$sc_shape" "$sc_tmp/perf.txt" >"$sc_tmp/perf.shape"
	awk "$sc_shape" "$sc_tmp/ours.txt" >"$sc_tmp/ours.shape"
	if cmp -s "$sc_tmp/perf.shape" "$sc_tmp/ours.shape"; then
		pass "script $sc_name: same $sc_np lines, same shapes"
	else
		fail "script $sc_name: line shapes" "ours $sc_no lines, perf $sc_np; first difference: $(diff "$sc_tmp/ours.txt" "$sc_tmp/perf.txt" | head -n 4 | tr '\t\n' '  ')"
		return
	fi
	# sample lines: with call chains they hold only comm/tid/cpu/time/period/event;
	# on one-line samples compare the part before the IP.
	rm -f "$sc_tmp/pairs" # awk writes it only when a frame differs
	paste -d '\n' "$sc_tmp/ours.txt" "$sc_tmp/perf.txt" | awk -v out="$sc_tmp/pairs" '
		NR % 2 == 1 { o = $0; next }
		{
			p = $0
			if (p == "") next
			if (p ~ /^\t/) { frames++; if (o == p) same++; else print o "\n" p > out; next }
			samples++
			po = p; oo = o
			if (match(p, /: +[0-9a-f]+ [^ ]+ \(.*\)$/)) { po = substr(p, 1, RSTART); oo = substr(o, 1, RSTART) }
			if (po == oo) hsame++; else if (!bad) bad = "ours: " o " | perf: " p
			# one-line samples: the IP, symbol and dso are a frame
			if (p !~ /: $/) {
				frames++
				if (o == p) { same++; next }
				# keep "IP sym+off (dso)" for the alias check
				i = match(p, /: +[0-9a-f]+ [^ ]+ \(.*\)$/) ? RSTART + 1 : 1
				j = match(o, /: +[0-9a-f]+ [^ ]+ \(.*\)$/) ? RSTART + 1 : 1
				print substr(o, j) "\n" substr(p, i) > out
			}
		}
		END { printf "%d %d %d %d\n", samples, hsame, frames, same; if (bad) print bad }
	' >"$sc_tmp/cmp"
	read -r sc_s sc_hs sc_fr sc_same <"$sc_tmp/cmp"
	if [ "$sc_s" -gt 0 ] && [ "$sc_s" = "$sc_hs" ]; then
		pass "script $sc_name: all $sc_s sample lines identical (comm, tid, time, period, event)"
	else
		fail "script $sc_name: sample lines" "$sc_hs of $sc_s identical; $(sed -n 2p "$sc_tmp/cmp")"
	fi
	# differing frames: the same address, offset and dso under another alias count as equal
	sc_alias_ok=0
	sc_ret=0
	if [ -s "$sc_tmp/pairs" ]; then
		awk 'NR % 2 == 1 { o = $0; next } { print o "\t" $0 }' "$sc_tmp/pairs" |
			sed -E -e 's/^\t? *([0-9a-f]+) ([^ ]+)\+(0x[0-9a-f]+) \((.*)\)\t\t? *([0-9a-f]+) ([^ ]+)\+(0x[0-9a-f]+) \((.*)\)$/\1|\3|\4|\2|\5|\7|\8|\6/' -e t \
				-e 's/^\t? *([0-9a-f]+) ([^ ]+) \((.*)\)\t\t? *([0-9a-f]+) ([^ ]+) \((.*)\)$/\1||\3|\2|\4||\6|\5/' \
			>"$sc_tmp/pairs.f"
		awk -F'|' 'NF == 8 && $1 == $5 && $2 == $6 && $3 == $7 { print $3 "|" $4 "|" $8 }' "$sc_tmp/pairs.f" |
			sort | uniq -c >"$sc_tmp/alias"
		# a return address at the first byte of the next function (a call that ends
		# its function): we look it up at ip - 1 and name the caller, perf names
		# the next function at +0x0 (docs/script.md)
		sc_ret=$(awk -F'|' 'NF == 8 && $1 == $5 && $3 == $7 && $6 == "0x0" && $2 != "0x0" && $2 != "" { n++ }
			END { print n + 0 }' "$sc_tmp/pairs.f")
		while read -r sc_n sc_rest; do
			sc_dso=${sc_rest%%|*}
			sc_pair=${sc_rest#*|}
			if sc_alias "$sc_dso" "${sc_pair%%|*}" "${sc_pair#*|}"; then
				sc_alias_ok=$((sc_alias_ok + sc_n))
			fi
		done <"$sc_tmp/alias"
	fi
	# what FlameGraph sees: the same stacks from both texts
	sc_fold "$sc_tmp/ours.txt" >"$sc_tmp/ours.fold"
	sc_fold "$sc_tmp/perf.txt" >"$sc_tmp/perf.fold"
	sc_fs=$(sed -n 's/^samples //p' "$sc_tmp/ours.fold")
	sc_fu=$(sed -n 's/^unparsed //p' "$sc_tmp/ours.fold")
	sc_fsame=$(awk 'NR == FNR { if (FNR > 2) { n = $NF; $NF = ""; c[$0] = n } next }
		FNR > 2 { n = $NF; $NF = ""; if ($0 in c) s += (c[$0] < n ? c[$0] : n) }
		END { print s + 0 }' "$sc_tmp/ours.fold" "$sc_tmp/perf.fold")
	if ! grep -q "$(printf '^\t')" "$sc_tmp/perf.txt"; then
		: # one-line samples: stackcollapse-perf.pl reads call-chain text only
	elif [ "$sc_fs" = "$sc_s" ] && [ "$sc_fu" = 0 ]; then
		pass "script $sc_name: stackcollapse-perf rules fold all $sc_fs samples; $sc_fsame with the stack perf's text gives"
	else
		fail "script $sc_name: stackcollapse-perf rules" "folded $sc_fs of $sc_s samples, $sc_fu lines unparsed"
	fi
	# aliases are named as perf names them (lib/symbol/sym_alias.h): another alias is a difference
	sc_match=$((sc_same + sc_ret))
	sc_pct=$(awk -v m="$sc_match" -v n="$sc_fr" 'BEGIN { printf "%.2f", n ? 100 * m / n : 0 }')
	sc_why="$sc_same exact, $sc_ret return addresses at a function end named by their caller; $sc_alias_ok other aliases of perf's name"
	if awk -v m="$sc_match" -v n="$sc_fr" 'BEGIN { exit !(n > 0 && m >= 0.999 * n) }'; then
		pass "script $sc_name: $sc_pct% of $sc_fr frames identical ($sc_why)"
	else
		fail "script $sc_name: frames" "$sc_pct% of $sc_fr identical ($sc_why); e.g. $(head -n 2 "$sc_tmp/pairs" | tr '\t\n' '  ')"
	fi
}

# sc_fold TEXT: folded stacks ("comm;root;...;leaf count") by stackcollapse-perf.pl's
# parsing rules (its header, frame and blank-line regexes, docs in
# output-formats.md §6); prints "samples N" and "unparsed N" first.
sc_fold() {
	perl -e '
		my (@st, %c, $comm); my ($n, $bad) = (0, 0);
		sub flush { if (defined $comm) { $c{join(";", $comm, reverse @st)}++; $n++ } @st = (); undef $comm }
		while (<>) {
			next if /^#/;
			chomp;
			if (/^$/) { flush(); next }
			if (/^(\S.+?)\s+(\d+)\/*(\d+)*\s+/) {
				flush();
				$comm = $1;
				next;
			}
			if (/^\s*(\w+)\s*(.+) \((.*)\)/) {
				my ($f, $m) = ($2, $3); $f =~ s/\+0x[\da-f]+$//; $f = "[$m]" if $f eq "[unknown]";
				push @st, $f; next;
			}
			$bad++;
		}
		flush();
		print "samples $n\nunparsed $bad\n";
		print "$_ $c{$_}\n" for sort keys %c;
	' "$1"
}

sc_workload() {
	cat >"$sc_tmp/burn.c" <<'EOF'
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
volatile double sink;
__attribute__((noinline)) void leaf_a(long n) { double x = 0; for (long i = 0; i < n; i++) x += i * 0.5; sink = x; }
__attribute__((noinline)) void leaf_b(long n) { double x = 0; for (long i = 0; i < n; i++) x += i * 1.5; sink = x; }
__attribute__((noinline)) void mid(long n) { leaf_a(n); leaf_b(3 * n); }
__attribute__((noinline)) void top(long n) { mid(n); }
static int cmp(const void *a, const void *b) { return *(const int *)a - *(const int *)b; }
int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 100;
	int *v = malloc(200000 * sizeof(int));
	for (long i = 0; i < n; i++) {
		top(100000);
		for (int k = 0; k < 200000; k++) v[k] = (int)((k * 7919L) % 200003);
		if (i % 50 == 0) qsort(v, 200000, sizeof(int), cmp);
	}
	printf("%f\n", sink);
	return 0;
}
EOF
	cc -O1 -g -fno-omit-frame-pointer -o "$sc_tmp/burn" "$sc_tmp/burn.c"
}

sc_main() {
	if ! command -v perf >/dev/null 2>&1; then
		skip "script" "perf not installed (the oracle)"
		return
	fi
	if ! "$PMUSCOPE" script -h >/dev/null 2>&1; then
		skip "script" "script not built"
		return
	fi
	sc_tmp=$(mktemp -d)
	if ! sc_workload; then
		skip "script" "cannot compile the workload"
		rm -rf "$sc_tmp"
		return
	fi
	sc_w=$sc_tmp/burn
	perf record -q -g -o "$sc_tmp/fp.data" -- "$sc_w" 600 >/dev/null 2>&1
	sc_compare "perf record -g" "$sc_tmp/fp.data"
	perf record -q -o "$sc_tmp/plain.data" -- "$sc_w" 300 >/dev/null 2>&1
	sc_compare "perf record (no chains)" "$sc_tmp/plain.data"
	sc_compare "perf record -g, -F comm,pid,tid,time,event,ip,sym,dso" "$sc_tmp/fp.data" \
		-F comm,pid,tid,time,event,ip,sym,dso
	perf record -q --call-graph dwarf,8192 -o "$sc_tmp/dwarf.data" -- "$sc_w" 200 >/dev/null 2>&1
	sc_compare "perf record --call-graph dwarf" "$sc_tmp/dwarf.data"
	"$sc_w" 1500 >/dev/null &
	sc_bg=$!
	perf record -q -a -g -o "$sc_tmp/all.data" -- sleep 1 >/dev/null 2>&1
	kill "$sc_bg" 2>/dev/null
	wait "$sc_bg" 2>/dev/null
	sc_compare "perf record -a -g" "$sc_tmp/all.data"
	# processes starting and exec'ing: ld.so's labels (_start, _dl_start_user), samples in execve
	# between the COMM and the new program's MMAPs (named by the old mappings, as perf does)
	perf record -q -g -F 2999 -o "$sc_tmp/exec.data" -- \
		sh -c 'i=0; while [ $i -lt 150 ]; do /bin/true; ls / >/dev/null; i=$((i + 1)); done' >/dev/null 2>&1
	sc_compare "perf record -g, 300 execs" "$sc_tmp/exec.data"
	perf record -q -g -o - -- "$sc_w" 200 2>/dev/null >"$sc_tmp/pipe.data"
	sc_compare "perf record -g -o - (pipe)" "$sc_tmp/pipe.data"
	"$PMUSCOPE" record -g -o "$sc_tmp/ours.data" -- "$sc_w" 600 >/dev/null 2>&1
	sc_compare "pmuscope record -g" "$sc_tmp/ours.data"
	"$PMUSCOPE" record -g -z -o "$sc_tmp/oursz.data" -- "$sc_w" 300 >/dev/null 2>&1
	sc_compare "pmuscope record -g -z" "$sc_tmp/oursz.data"
	if "$PMUSCOPE" record -h 2>&1 | grep -q -- '--call-graph'; then
		"$PMUSCOPE" record --call-graph dwarf,8192 -o "$sc_tmp/oursdw.data" -- "$sc_w" 200 >/dev/null 2>&1
		sc_compare "pmuscope record --call-graph dwarf" "$sc_tmp/oursdw.data"
		"$PMUSCOPE" script -i "$sc_tmp/oursdw.data" --stats >/dev/null 2>"$sc_tmp/st"
		sc_dw=$(sed -n 's/.*dwarf samples: \([0-9]*\) (\([0-9]*\) not unwound).*/\1 \2/p' "$sc_tmp/st")
		set -- $sc_dw
		if [ "${1:-0}" -gt 0 ] && [ "${2:-1}" -le $(($1 / 20)) ]; then
			pass "script pmuscope record --call-graph dwarf: $1 samples unwound ($2 gave only the IP)"
		else
			fail "script: dwarf unwinding" "$(cat "$sc_tmp/st")"
		fi
	else
		skip "script pmuscope record --call-graph dwarf" "record has no --call-graph"
	fi

	# memory fields of PERF_TYPE_RAW events (no hardware PMU here: a crafted file
	# with every entry of perf's data_src tables, and lines cut at its 100-byte
	# buffer): byte for byte perf script's, default fields and -F lists
	if python3 "$TOP/tests/cli/cases/script_mem_fixture.py" "$sc_tmp/mem.data" --all 2>"$sc_tmp/mem.err"; then
		sc_bad=
		for sc_f in "" "-F event,data_src" "-F comm,addr,weight,ins_lat,phys_addr,data_page_size,code_page_size"; do
			# shellcheck disable=SC2086
			HOME=$sc_tmp perf script -f -i "$sc_tmp/mem.data" $sc_f >"$sc_tmp/mem.p" 2>&1
			# shellcheck disable=SC2086
			"$PMUSCOPE" script -i "$sc_tmp/mem.data" $sc_f >"$sc_tmp/mem.o" 2>&1
			cmp -s "$sc_tmp/mem.p" "$sc_tmp/mem.o" ||
				sc_bad="$sc_bad ${sc_f:-defaults}: $(diff "$sc_tmp/mem.o" "$sc_tmp/mem.p" | head -n 4 | tr '\n' ' ' | cut -c1-300)"
		done
		sc_n=$(wc -l <"$sc_tmp/mem.p")
		if [ -z "$sc_bad" ] && [ "$sc_n" -ge 290 ]; then
			pass "script memory fields: $sc_n samples of every data_src table entry, weight struct, page sizes as perf prints them"
		else
			fail "script memory fields" "($sc_n lines)$sc_bad"
		fi
	else
		fail "script memory fields" "cannot write the fixture: $(head -n 2 "$sc_tmp/mem.err")"
	fi

	# speed on a larger file: system-wide call chains at 10 kHz per CPU
	"$sc_w" 4000 >/dev/null &
	sc_bg=$!
	perf record -q -a -g -c 100000 -e cpu-clock -o "$sc_tmp/big.data" -- sleep 4 >/dev/null 2>&1
	kill "$sc_bg" 2>/dev/null
	wait "$sc_bg" 2>/dev/null
	sc_t0=$(date +%s%N)
	perf script -i "$sc_tmp/big.data" >/dev/null 2>&1
	sc_t1=$(date +%s%N)
	"$PMUSCOPE" script -i "$sc_tmp/big.data" >/dev/null 2>&1
	sc_rc=$?
	sc_t2=$(date +%s%N)
	sc_n=$(perf script -i "$sc_tmp/big.data" -F comm 2>/dev/null | wc -l)
	sc_pm=$(( (sc_t2 - sc_t1) / 1000000 ))
	sc_pp=$(( (sc_t1 - sc_t0) / 1000000 ))
	if [ "$sc_rc" = 0 ] && [ "$sc_pm" -le "$sc_pp" ]; then
		pass "script speed: $sc_n samples: pmuscope $sc_pm ms, perf script $sc_pp ms"
	else
		fail "script speed" "$sc_n samples: pmuscope $sc_pm ms (exit $sc_rc), perf script $sc_pp ms"
	fi
	rm -rf "$sc_tmp"
}

sc_main
