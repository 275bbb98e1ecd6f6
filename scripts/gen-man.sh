#!/bin/sh
# SPDX-License-Identifier: MIT
# Man pages for the CLI, made by go-md2man (Debian package go-md2man):
#   sh scripts/gen-man.sh OUTDIR PMUSCOPE_BIN
# writes OUTDIR/pmuscope.1 and one OUTDIR/pmuscope-<command>.1 per command that
# `PMUSCOPE_BIN --help` lists. A page is, in this order:
#   NAME (the command's summary in `pmuscope --help`) and SYNOPSIS (the usage
#     line of `pmuscope <command> --help`);
#   DESCRIPTION and the following sections from docs/<command>.md (its "##"
#     sections become man sections), or, for a command without its own page,
#     from the "## <command>" / "## `pmuscope <command> ...`" section of another
#     doc (list, info, explain: docs/list-info-explain.md; buildid-list,
#     archive: docs/buildid.md), else the summary line alone;
#   OPTIONS: every option of `pmuscope <command> --help` (the docs' tables do
#     not name every long option);
#   SEE ALSO.
# pmuscope.1 lists the commands with their `pmuscope --help` summaries and has
# docs/exit-codes.md as EXIT STATUS. The output depends only on the docs and the
# binary (no date), so two runs give the same bytes.
# shellcheck disable=SC2016 # the backquotes in single quotes are Markdown code spans
set -eu

die() {
	echo "gen-man.sh: $*" >&2
	exit 1
}

[ $# -eq 2 ] || die "usage: sh scripts/gen-man.sh OUTDIR PMUSCOPE_BIN"
out=$1
bin=$2
command -v go-md2man >/dev/null 2>&1 ||
	die "go-md2man not found: it converts docs/*.md to man pages (Debian/Ubuntu: apt-get install go-md2man)"
if ! [ -f "$bin" ] || ! [ -x "$bin" ]; then
	die "$bin: no such executable (build it first: make all)"
fi
case $bin in */*) ;; *) bin=./$bin ;; esac
docs=$(cd "$(dirname "$0")/.." && pwd)/docs
[ -d "$docs" ] || die "$docs: no such directory"
export LC_ALL=C

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM

"$bin" --help >"$tmp/help" 2>&1 || die "$bin --help failed: $(head -n 3 "$tmp/help")"
version=$("$bin" --version 2>/dev/null | sed -n 's/^pmuscope //p')
[ -n "$version" ] || die "$bin --version printed no 'pmuscope VERSION' line"
# "   name   summary" lines of the "commands:" block.
sed -n '/^commands:/,/^$/p' "$tmp/help" | awk 'NF > 1 && $1 != "commands:" {
	name = $1; sub(/^[ \t]*[^ \t]+[ \t]+/, ""); print name "\t" $0 }' >"$tmp/commands"
[ -s "$tmp/commands" ] || die "$bin --help lists no commands"

# Markdown-escapes plain text (help output) so that <file>, *, _, [..] stay as typed.
md_escape() {
	sed 's/[][\\`*_{}()#+!|<>~]/\\&/g'
}

# The usage lines of `pmuscope CMD --help` (all lines before the first blank one).
help_usage() {
	awk 'NF == 0 { exit } { sub(/^usage: /, ""); print }' "$1"
}

# The options of `pmuscope CMD --help` as a Markdown definition list; the
# unindented group titles (stat) become subsections.
help_options() {
	awk '
	function flush() {
		if (spec == "") return
		printf "`%s`\n: %s\n\n", spec, desc
		spec = ""; desc = ""
	}
	function escape(s,   r, c, i) {
		r = ""
		for (i = 1; i <= length(s); i++) {
			c = substr(s, i, 1)
			if (index("[]\\`*_{}()#+!|<>~", c)) r = r "\\"
			r = r c
		}
		return r
	}
	# usage paragraph, then the indented summary paragraph: skipped
	part < 2 { if (NF == 0) { if (seen) part++; seen = 0 } else seen = 1; next }
	NF == 0 { next }
	/^[ \t]+-/ {
		flush()
		line = $0; sub(/^[ \t]+/, "", line)
		if (match(line, /[ \t][ \t]+/)) {
			spec = substr(line, 1, RSTART - 1)
			desc = escape(substr(line, RSTART + RLENGTH))
		} else {
			spec = line; desc = ""
		}
		next
	}
	/^[ \t]/ {
		line = $0; sub(/^[ \t]+/, "", line)
		if (spec != "") desc = (desc == "" ? "" : desc " ") escape(line)
		next
	}
	{ flush(); printf "## %s\n\n", escape($0) }
	END { flush() }
	' "$1"
}

# The body of a doc, or of one of its sections, with headings lifted so that
# the doc's next level becomes man sections (.SH), links reduced to their text
# and two-column tables (options and the like) made definition lists, which
# man shows as tagged paragraphs. $1: file; $2: "" for the whole doc (its
# "# title" line dropped), else the command whose "## " section is wanted.
# Prints nothing when there is none.
doc_body() {
	awk -v cmd="$2" '
	function level(s) { match(s, /^#+/); return RLENGTH }
	function unlink(s,   t) {
		# [text](target) and ![alt](target) -> text
		while (match(s, /!?\[[^]]*\]\([^)]*\)/)) {
			t = substr(s, RSTART, RLENGTH)
			sub(/^!?\[/, "", t); sub(/\]\([^)]*\)$/, "", t)
			s = substr(s, 1, RSTART - 1) t substr(s, RSTART + RLENGTH)
		}
		return s
	}
	function wanted(h,   t) {
		t = h; sub(/^#+[ \t]*/, "", t); gsub(/`/, "", t)
		return t == cmd || t == "pmuscope " cmd || index(t, "pmuscope " cmd " ") == 1
	}
	# The cells of a table row, split at the "|" that are not "\|", into c[].
	function cells(row,   n, i, ch, cur) {
		sub(/^[ \t]*\|/, "", row); sub(/\|[ \t]*$/, "", row)
		n = 0; cur = ""
		for (i = 1; i <= length(row); i++) {
			ch = substr(row, i, 1)
			if (ch == "\\" && substr(row, i + 1, 1) == "|") { cur = cur "|"; i++; continue }
			if (ch == "|") { c[++n] = cur; cur = ""; continue }
			cur = cur ch
		}
		c[++n] = cur
		for (i = 1; i <= n; i++) { sub(/^[ \t]+/, "", c[i]); sub(/[ \t]+$/, "", c[i]) }
		return n
	}
	function flushtable(   i, two) {
		if (nt == 0) return
		two = nt >= 2 && tl[2] ~ /^[ \t]*\|?[ \t]*:?-+/
		for (i = 1; i <= nt && two; i++) if (cells(tl[i]) != 2) two = 0
		if (two) {
			for (i = 3; i <= nt; i++) {
				cells(tl[i])
				printf "\n%s\n: %s\n", (c[1] == "" ? "\\-" : c[1]), c[2]
			}
			print ""
		} else {
			for (i = 1; i <= nt; i++) print tl[i]
		}
		nt = 0
	}
	function emit(s) {
		if (s ~ /^[ \t]*\|/ && !fence) { tl[++nt] = unlink(s); return }
		flushtable()
		print s
	}
	BEGIN { on = (cmd == ""); top = 1 }
	/^[ \t]*(```|~~~)/ { if (on) { flushtable(); print }; fence = !fence; next }
	fence { if (on) print; next }
	/^#+[ \t]/ {
		l = level($0)
		if (cmd == "" && l == 1 && !titled) { titled = 1; next }
		if (cmd != "") {
			if (!on && l == 2 && wanted($0)) { on = 1; top = 2; next }
			if (on && l <= top) { on = 0; flushtable(); exit }
		}
		if (!on) next
		h = $0; sub(/^#+/, "", h)
		l -= top; if (l < 1) l = 1
		emit(substr("######", 1, l) unlink(h))
		next
	}
	on { emit(unlink($0)) }
	END { flushtable() }
	' "$1"
}

# go-md2man 2.0 writes tables that never wrap: a long cell runs off the page
# unless go-md2man chose to make it a text block (T{ ... T}), and even those
# wrap only at tbl's default width. Here every cell longer than 24 characters
# becomes a text block, a column with text blocks gets tbl's "x" (it takes the
# line's free width), and "\\|" (go-md2man keeps the backslash of an escaped
# "\|") becomes "|". Inline code loses its "\fC" (below).
fix_roff() {
	awk '
	function visible(s) { gsub(/\\f(\(..|\[[^]]*\]|.)/, "", s); return length(s) }
	function cell(text, isblock) {
		nc++
		gsub(/\\\\\|/, "|", text)
		if (!isblock && visible(text) > 24) isblock = 1
		if (isblock) wide[nc] = 1
		rows[nr, nc] = text; blk[nr, nc] = isblock
		if (nc > ncols[nr]) ncols[nr] = nc
	}
	function flushtable(   i, j, k, n, f, line) {
		for (i = 1; i <= nhead; i++) {
			if (i >= 3) {
				n = split(head[i], f, /[ \t]+/)
				line = ""; j = 0
				for (k = 1; k <= n; k++) {
					if (f[k] == "") continue
					if (f[k] == ".") { line = line " ."; continue }
					j++
					line = line (line == "" ? "" : " ") f[k] (wide[j] ? "x" : "")
				}
				head[i] = line
			}
			print head[i]
		}
		for (i = 1; i <= nr; i++) {
			line = ""
			for (j = 1; j <= ncols[i]; j++) {
				if (j > 1) line = line "\t"
				if (blk[i, j]) {
					print line "T{"
					print rows[i, j]
					line = "T}"
				} else {
					line = line rows[i, j]
				}
			}
			print line
		}
		print ".TE"
		nhead = 0; nr = 0; split("", rows); split("", blk); split("", ncols); split("", wide)
	}
	# The cells of one line of a row, into rows[nr, ...]; a last "T{" opens a text block.
	function cells(line,   n, f, j) {
		n = split(line, f, "\t")
		for (j = 1; j <= n; j++) {
			if (f[j] == "T{" && j == n) { inblock = 1; btext = ""; return }
			cell(f[j], 0)
		}
		cont = 0
	}
	# go-md2man 2.0.2 writes inline code as "\fB\fC...\fR"; groff 1.23 warns
	# "cannot select font C" (go-md2man 2.0.3 writes "\fB...\fR" too).
	{ gsub(/\\fB\\fC/, "\\\\fB") }
	/^\.TS$/ { intable = 1; nhead = 0; fmtdone = 0; nr = 0; inblock = 0; cont = 0 }
	!intable { print; next }
	# .TS, the options line, the format lines up to the one ending in "."
	!fmtdone {
		head[++nhead] = $0
		if (nhead > 2 && $0 ~ /\.[ \t]*$/) {
			fmtdone = 1
			n = split($0, f, /[ \t]+/); nfmt = 0
			for (j = 1; j <= n; j++) if (f[j] != "" && f[j] != ".") nfmt++
		}
		next
	}
	$0 == ".TE" && !inblock { intable = 0; flushtable(); next }
	inblock {
		if ($0 !~ /^T}/) { btext = btext (btext == "" ? "" : "\n") $0; next }
		inblock = 0
		cell(btext, 1)
		line = substr($0, 3)
		# go-md2man 2.0 ends a text block with a bare "T}" line and puts
		# the rest of the row on the next line ("\tT{" or "\tcell"), which
		# tbl reads as a new row: the row goes on while it lacks cells.
		if (line == "") { cont = nc < nfmt; next }
		sub(/^\t/, "", line)
		cells(line)
		next
	}
	cont { line = $0; sub(/^\t/, "", line); cells(line); next }
	{ nr++; nc = 0; cells($0) }
	END { if (intable) flushtable() }
	'
}

# $1: markdown, $2: page
convert() {
	go-md2man -in "$1" -out "$tmp/page.roff" || die "go-md2man failed on $1"
	fix_roff <"$tmp/page.roff" >"$2"
}

title() {
	printf '%% %s 1 "" "pmuscope %s" "pmuscope manual"\n\n' "$(echo "$1" | tr '[:lower:]' '[:upper:]')" "$version"
}

rm -f "$out"/pmuscope.1 "$out"/pmuscope-*.1
mkdir -p "$out"

while IFS="$(printf '\t')" read -r cmd summary; do
	"$bin" "$cmd" --help >"$tmp/cmdhelp" 2>&1 || die "$bin $cmd --help failed: $(head -n 3 "$tmp/cmdhelp")"
	page=pmuscope-$cmd
	src=
	if [ -f "$docs/$cmd.md" ]; then
		doc_body "$docs/$cmd.md" "" >"$tmp/body"
		src=docs/$cmd.md
	else
		: >"$tmp/body"
		for f in "$docs"/*.md; do
			doc_body "$f" "$cmd" >"$tmp/body"
			if [ -s "$tmp/body" ]; then
				src=docs/$(basename "$f")
				break
			fi
		done
	fi
	{
		title "$page"
		echo "# NAME"
		echo
		printf '%s - %s\n\n' "$page" "$(printf '%s\n' "$summary" | md_escape)"
		echo "# SYNOPSIS"
		echo
		echo '```'
		help_usage "$tmp/cmdhelp"
		echo '```'
		echo
		echo "# DESCRIPTION"
		echo
		if [ -n "$src" ]; then
			# A doc that opens with a section title would leave DESCRIPTION empty.
			case $(grep -v '^[[:space:]]*$' "$tmp/body" | head -n 1) in
			'#'*) printf '%s.\n\n' "$(printf '%s\n' "$summary" | md_escape)" ;;
			esac
			cat "$tmp/body"
			echo
		else
			printf '%s.\n\n' "$(printf '%s\n' "$summary" | md_escape)"
		fi
		echo "# OPTIONS"
		echo
		printf 'As `pmuscope %s --help` lists them.\n\n' "$cmd"
		help_options "$tmp/cmdhelp"
		echo "# SEE ALSO"
		echo
		printf '**pmuscope**(1)'
		[ -z "$src" ] || printf ', %s in the pmuscope sources' "$src"
		printf '\n'
	} >"$tmp/$page.md"
	convert "$tmp/$page.md" "$out/$page.1"
done <"$tmp/commands"

{
	title pmuscope
	echo "# NAME"
	echo
	printf 'pmuscope - %s\n\n' "$(sed -n 's/^pmuscope [^:]*: //p' "$tmp/help" | head -n 1 | md_escape)"
	echo "# SYNOPSIS"
	echo
	echo '```'
	help_usage "$tmp/help"
	echo '```'
	echo
	echo "# DESCRIPTION"
	echo
	echo "**pmuscope** counts, samples and reports on Linux performance events through"
	echo "**perf_event_open**(2); its perf.data files are the ones perf reads and writes."
	echo "Each command has its own page, **pmuscope-**_command_(1), and its options"
	echo 'also come with `pmuscope` _command_ `-h`.'
	echo
	echo "# OPTIONS"
	echo
	echo '`-v`, `--verbose`'
	echo ': more messages (repeatable), for every command'
	echo
	echo '`--version`'
	echo ': print the version and exit'
	echo
	echo "# COMMANDS"
	echo
	while IFS="$(printf '\t')" read -r cmd summary; do
		printf '**%s**\n: %s; see **pmuscope-%s**(1).\n\n' "$cmd" "$(printf '%s\n' "$summary" | md_escape)" "$cmd"
	done <"$tmp/commands"
	if [ -f "$docs/exit-codes.md" ]; then
		echo "# EXIT STATUS"
		echo
		doc_body "$docs/exit-codes.md" ""
		echo
	fi
	echo "# SEE ALSO"
	echo
	awk -F '\t' '{ printf "**pmuscope-%s**(1), ", $1 }' "$tmp/commands"
	echo '**perf**(1), **perf_event_open**(2)'
} >"$tmp/pmuscope.md"
convert "$tmp/pmuscope.md" "$out/pmuscope.1"
