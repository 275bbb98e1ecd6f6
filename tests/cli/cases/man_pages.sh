# make install's man pages (scripts/gen-man.sh) and bash completion (contrib/bash-completion/pmuscope).
# Pages: one per command `pmuscope help` lists plus pmuscope(1), which names each with its summary;
# a command with docs/<command>.md has that doc in its page (every "##" heading a section), every
# page names every long option of the command's --help; man renders them without errors; two runs
# write the same bytes (no date); without go-md2man the script says so and fails.
# Completion, driven as bash would with COMP_WORDS/COMP_CWORD: commands, long options, values
# (a|b lists, files, directories) and event names (Intel fixture, not probed) with ":" and ",".
command -v go-md2man >/dev/null 2>&1 || { echo "SKIP: go-md2man not installed"; exit 0; }
command -v man >/dev/null 2>&1 || { echo "SKIP: man (man-db) not installed"; exit 0; }
command -v bash >/dev/null 2>&1 || { echo "SKIP: bash not installed"; exit 0; }
export LC_ALL=C MANPAGER=cat PAGER=cat
# render PAGE WIDTH: the page as text, groff's layout-only warnings left out of stderr
render() {
	MANWIDTH=$2 man -l "$1" 2>render.err | col -bx
	grep -v -e 'cannot adjust line' -e "can't break line" -e 'table wider than line width' \
		-e "^warning: file '<standard input>', around line" render.err | sed "s|^|$1: |"
}

sh "$TOP/scripts/gen-man.sh" man "$PMUSCOPE" || echo "gen-man.sh: exit $?"
sh "$TOP/scripts/gen-man.sh" again "$PMUSCOPE" || echo "gen-man.sh again: exit $?"
diff -r man again >/dev/null && echo "two runs: same bytes"
echo "pages: $(find man -type f | wc -l), .TH with an empty date: $(grep -l '^\.TH [^ ]* 1 "" ' man/*.1 | wc -l)"

cmds=$("$PMUSCOPE" help | sed -n '/^commands:/,/^$/p' | awk 'NF>1 && $1!="commands:" {print $1}')
render man/pmuscope.1 200 >pmuscope.txt
n=0 ndoc=0 nhead=0
for c in $cmds; do
	n=$((n + 1))
	page=man/pmuscope-$c.1
	[ -s "$page" ] || { echo "$c: no $page"; continue; }
	summary=$("$PMUSCOPE" help | awk -v c="$c" '$1 == c { sub(/^ *[^ ]+ +/, ""); print; exit }')
	grep -qF -- "$summary; see pmuscope-$c(1)." pmuscope.txt || echo "pmuscope(1) does not list $c: $summary"
	render "$page" 200 >page.txt
	grep -q "^       pmuscope-$c - " page.txt || echo "$c: no NAME line"
	for s in NAME SYNOPSIS DESCRIPTION OPTIONS 'SEE ALSO'; do
		grep -qx "$s" page.txt || echo "$c: no $s section"
	done
	for o in $("$PMUSCOPE" "$c" --help | grep -o -- '^ *\(-[A-Za-z0-9], \)\?--[A-Za-z0-9][-A-Za-z0-9]*' | grep -o -- '--.*'); do
		grep -q -- "$o" page.txt || echo "$c: option $o not in the page"
	done
	if [ -f "$TOP/docs/$c.md" ]; then
		ndoc=$((ndoc + 1))
		# each "## heading" of the doc (outside code blocks) is a section, as the doc spells it
		awk '/^```/ { f = !f } !f && /^## / { sub(/^## /, ""); print }' "$TOP/docs/$c.md" |
			sed -e 's/`//g' -e 's/\[\([^]]*\)\]([^)]*)/\1/g' >headings.txt
		while IFS= read -r h; do
			nhead=$((nhead + 1))
			grep -qxF -- "$h" page.txt || echo "$c: heading '$h' of docs/$c.md is no section"
		done <headings.txt
	fi
done
echo "$n commands, $ndoc with their own doc ($nhead doc sections found in the pages)"

echo "-- pmuscope-record(1), 80 columns"
render man/pmuscope-record.1 80 >record.txt
grep -c -- '--call-graph' record.txt | sed 's/^[1-9][0-9]*$/--call-graph: found/'
grep -x -- '       --call-graph dwarf\[,size\]' record.txt
grep -x -- '       --call-graph <fp|dwarf\[,size\]>' record.txt
grep -x -- '       -m, --mmap-pages <pages\[,aux\]>' record.txt

echo "-- without go-md2man"
PATH=/nonexistent /bin/sh "$TOP/scripts/gen-man.sh" nope "$PMUSCOPE"; echo "exit=$?"
[ -e nope ] && echo "nope/ created"

echo "-- completion"
export PMS_SYSFS_ROOT="$FIXTURES/sysfs/intel" PMS_PROCFS_ROOT="$FIXTURES/procfs/intel"
export PMS_TRACEFS_ROOT="$FIXTURES/tracefs/default" PMS_NO_PROBE=1
: >perf.data
mkdir symdir
COMPLETION=$TOP/contrib/bash-completion/pmuscope bash --norc --noprofile -u <<'EOF'
. "$COMPLETION"
complete -p pmuscope
# t WORD...: complete the last word (COMPREPLY sorted), split as bash splits it (":" and "=" are words)
t() {
	COMP_WORDS=("$PMUSCOPE" "$@"); COMP_CWORD=$#; COMPREPLY=()
	_pmuscope
	r=$(printf '%s\n' "${COMPREPLY[@]}" | sort | tr '\n' ' ' | sed 's/ $//')
	echo "pmuscope $*<TAB> -> ${r:-(nothing)}"
}
t rec
t -v bu
t -
t record --call
t record --call-graph ''
t record --call-graph = d
t report -g c
t export --format s
t report -i pe
t report --input = pe
t record -o pe
t report --symfs sym
t help buildid
t list tr
t record -e task-c
t record -e cycles,inst
t stat -e '{cycles,branch-m'
t record -e sched : sched_sw
t explain instruc
t nosuchcommand --h
echo "commands completed: $(t '' | sed 's/.*-> //' | wc -w)"
EOF
