#!/bin/sh
# SPDX-License-Identifier: MIT
# perf_compat.sh CMD: checks the "perf CMD" table of docs/perf-compat.md against perf's own
# option list (`perf CMD -h` of the installed perf) and against pmuscope's (`pmuscope CMD
# --list-opts`):
#  - every option perf lists has a row (an option we forget shows up here, not as silence);
#  - each row says same, different or refused, and a different or refused row says why;
#  - every option of a row is one pmuscope CMD accepts: a refused option is refused with its
#    reason, never with "unknown option";
# then prints "perf CMD: N options: S same, D different, R refused", or a line per problem.
# Environment: PMUSCOPE, TOP.
set -u
cmd=$1
doc=${TOP:-.}/docs/perf-compat.md
command -v perf >/dev/null 2>&1 || { echo "SKIP: perf is not installed"; exit 0; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# perf's options: "--long" where there is one, else "-s"; with the short name beside it
perf "$cmd" -h 2>&1 | sed -nE 's/^ {1,8}(-([a-zA-Z0-9]), )?--([a-zA-Z0-9][-a-zA-Z0-9_]*).*/--\3 -\2/p; s/^ {1,8}-([a-zA-Z0-9])( .*|)$/-\1 -/p' |
	sed 's/ -$//' | sort -u >"$tmp/perf"
[ -s "$tmp/perf" ] || { echo "perf $cmd: no options read from 'perf $cmd -h'"; exit 0; }
"$PMUSCOPE" "$cmd" --list-opts >"$tmp/ours" 2>&1 || { echo "perf $cmd: pmuscope $cmd --list-opts failed"; exit 0; }
tr ' ' '\n' <"$tmp/ours" | sort -u >"$tmp/ours.words"

# the table: the section "## perf CMD", rows "| `-d`, `--detailed` | same | why |"
awk -v h="## perf $cmd" '$0 == h { on = 1; next } on && /^## / { exit } on && /^\| *`/' "$doc" >"$tmp/rows"
[ -s "$tmp/rows" ] || echo "perf $cmd: no section '## perf $cmd' with rows in docs/perf-compat.md"

# row -> "STATUS OPT..." (options are the backquoted words of the first column)
awk -F'|' '{
	opts = ""; s = $2
	while (match(s, /`-[^`]*`/)) { o = substr(s, RSTART + 1, RLENGTH - 2); sub(/[= [].*/, "", o); opts = opts " " o; s = substr(s, RSTART + RLENGTH) }
	st = $3; gsub(/^ +| +$/, "", st); split(st, w, /[ :,(]/)
	why = $4; gsub(/^ +| +$/, "", why)
	print w[1], (why == "" ? "-" : "why"), opts
}' "$tmp/rows" >"$tmp/table"

problems=0
while read -r long short; do
	if ! grep -q -e " $long\( \|$\)" "$tmp/table"; then
		[ -n "$short" ] && grep -q -e " $short\( \|$\)" "$tmp/table" && continue
		echo "perf $cmd: $long${short:+ ($short)} has no row"
		problems=$((problems + 1))
	fi
done <"$tmp/perf"
while read -r st why opts; do
	case $st in
	same) ;;
	different | refused)
		if [ "$why" = - ]; then
			echo "perf $cmd: $opts: '$st' says not why"
			problems=$((problems + 1))
		fi
		;;
	*)
		echo "perf $cmd: $opts: status '$st' (want same, different or refused)"
		problems=$((problems + 1))
		;;
	esac
	for o in $opts; do
		# --no-x is accepted as the negation of a flag --x, and --x of a flag spelled --no-x
		alt=$(echo "$o" | sed -n 's/^--no-/--/p')
		alt2=$(echo "$o" | sed -n 's/^--\([^n]\)/--no-\1/p; s/^--\(n[^o]\)/--no-\1/p')
		if ! grep -qx -e "$o" "$tmp/ours.words" && ! { [ -n "$alt" ] && grep -qx -e "$alt" "$tmp/ours.words"; } &&
			! { [ -n "$alt2" ] && grep -qx -e "$alt2" "$tmp/ours.words"; }; then
			echo "perf $cmd: $o is in the table as '$st' but pmuscope $cmd does not accept it"
			problems=$((problems + 1))
		fi
	done
done <"$tmp/table"
n=$(wc -l <"$tmp/perf")
same=$(grep -c '^same ' "$tmp/table")
diff=$(grep -c '^different ' "$tmp/table")
ref=$(grep -c '^refused ' "$tmp/table")
echo "perf $cmd: $n options; table rows: $same same, $diff different, $ref refused; $problems problems"
