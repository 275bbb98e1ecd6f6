# SPDX-License-Identifier: MIT
# Every pmuscope command line shown in README.md and docs/*.md still works, so an example that
# stops working fails the suite instead of a reader:
#  - examples (command lines in code blocks) run, each in a fresh copy of a scratch directory
#    with their placeholders filled: ./my-program and `cmd` become a demo workload, -p 1234 a
#    running one, --duration 10 one second; perf.data, perf.data.old, x.data, old.data and
#    new.data are recorded first. Each must exit 0 without an error message.
#  - mentions in the text (`pmuscope record -g`), synopses (lines with [optional] parts,
#    <values>, a|b choices or placeholders in capitals such as FILE or PID) and the agent's,
#    profile's and top's examples that do not end on their own are checked for their options: each one must be an option of that command
#    (`pmuscope CMD --list-opts`), and the command must exist.
# Prose mentions such as `pmuscope agent: info: ...` (not a command line) are left out.

de_tmp=$(mktemp -d)
de_demo=$BUILD_DIR/demo
de_examples=$de_tmp/examples

# de_extract: "FILE:LINE<TAB>block|mention<TAB>command line" for each example
de_extract() {
	for f in "$TOP"/README.md "$TOP"/docs/*.md; do
		awk -v f="${f#"$TOP"/}" '
			/^```/ { inb = !inb; next }
			(inb && /^[$ ]*(sudo )?pmuscope [a-z]/) || /^    (\$ |sudo )?pmuscope [a-z]/ {
				l = $0; sub(/^[ $]*(sudo )?/, "", l); printf "%s:%d\tblock\t%s\n", f, FNR, l; next }
			!inb {
				s = $0
				while (match(s, /`pmuscope [a-z][^`]*`/)) {
					printf "%s:%d\tmention\t%s\n", f, FNR, substr(s, RSTART + 1, RLENGTH - 2)
					s = substr(s, RSTART + RLENGTH)
				}
			}' "$f"
	done
}

# de_options CMD LINE: every -x / --long word of LINE that names an option, one per line
de_options() {
	echo "$2" | sed 's/#.*//; s/\\|/ /g; s/[][|(){}]/ /g' | tr ' ' '\n' |
		sed -n 's/^\(--[a-z][-a-z0-9]*\).*/\1/p; s/^\(-[a-zA-Z]\)$/\1/p; s/^\(-[a-zA-Z]\)[A-Z0-9].*/\1/p'
}

# de_check_options CMD LINE WHERE: the options of a synopsis are the command's
de_check_options() {
	"$PMUSCOPE" "$1" --list-opts >"$de_tmp/opts" 2>&1 || { echo "'pmuscope $1' is not a command"; return 1; }
	tr ' ' '\n' <"$de_tmp/opts" >"$de_tmp/opts.words"
	de_bad=""
	for o in $(de_options "$1" "$2"); do
		# --no-x is the negation of a flag --x
		if ! grep -qx -e "$o" "$de_tmp/opts.words" && ! grep -qx -e "--${o#--no-}" "$de_tmp/opts.words"; then
			de_bad="$de_bad $o"
		fi
	done
	[ -z "$de_bad" ] && return 0
	echo "options not accepted by pmuscope $1:$de_bad"
	return 1
}

de_prepare() {
	mkdir -p "$de_tmp/base"
	(cd "$de_tmp/base" &&
		"$PMUSCOPE" record -g -F 999 -o perf.data.old -- "$de_demo/pms-shares" --leaves --seconds 0.5 &&
		"$PMUSCOPE" record -g -F 999 -- "$de_demo/pms-loops" --seconds 0.5 &&
		"$PMUSCOPE" record -g -F 999 -o x.data -- "$de_demo/pms-shares" --seconds 0.5 &&
		cp perf.data.old old.data && cp x.data new.data) >"$de_tmp/prep.log" 2>&1
}

de_run_all() {
	de_cmds=$("$PMUSCOPE" -h 2>&1 | awk '/^   [a-z]/ { print $1 }' | tr '\n' ' ')
	"$de_demo/pms-shares" --seconds 120 >/dev/null 2>&1 &
	de_pid=$!
	"$de_demo/pms-sleep" --rounds 1000 >/dev/null 2>&1 &
	de_sleeper=$!
	de_ran=0 de_syn=0 de_bad=0 de_skipped=0
	while IFS="$(printf '\t')" read -r where how line; do
		cmd=$(echo "$line" | awk '{ print $2 }')
		case " $de_cmds " in *" $cmd "*) ;; *) continue ;; esac
		kind=run
		[ "$how" = mention ] && kind=synopsis
		case $line in
		*'['* | *'<'* | *'...'* | *'…'*) kind=synopsis ;;
		esac
		if echo "$line" | sed 's/#.*//' | grep -qE '(^| )(FILE|CMD|EVENTS?|PID|TID|HZ|CPUS|SYMBOL|SYM|BASE|NEW|ARCHIVE|V|N|S|T)( |$)'; then
			kind=synopsis
		fi
		case "$cmd:$line" in
		agent:*) kind=synopsis ;;
		profile:*--duration*) ;;
		profile:*) kind=synopsis ;;
		top:*' -b '* | top:*--json*) ;;
		top:*) kind=synopsis ;;
		esac
		if [ $kind = synopsis ]; then
			if out=$(de_check_options "$cmd" "$line"); then
				de_syn=$((de_syn + 1))
			else
				fail "docs_example $where" "'$line': $out"
				de_bad=$((de_bad + 1))
			fi
			continue
		fi
		run=$(echo "$line" | sed 's/ #.*//; s/\\|/|/g' |
			sed "s|\./my-program args|$de_demo/pms-shares --seconds 0.5|g; s|\./my-program|$de_demo/pms-shares --seconds 0.5|g" |
			sed "s|-- cmd |-- $de_demo/pms-shares --seconds 0.3 |; s|--duration 10|--duration 1|g" |
			sed "/--off-cpu/s|-p 1234|-p $de_sleeper|g; s|-p 1234|-p $de_pid|g" |
			sed "s|^pmuscope |\"\$PMUSCOPE\" |; s/\([|&;]\) *pmuscope /\1 \"\$PMUSCOPE\" /g")
		if echo "$run" | grep -q 'go tool pprof' && ! command -v go >/dev/null 2>&1; then
			de_skipped=$((de_skipped + 1))
			continue
		fi
		# each example starts from the prepared files (an earlier one may have replaced perf.data)
		rm -rf "$de_tmp/run" && cp -a "$de_tmp/base" "$de_tmp/run"
		(cd "$de_tmp/run" && PMUSCOPE=$PMUSCOPE timeout 60 sh -c "$run" </dev/null >"$de_tmp/out" 2>"$de_tmp/err")
		rc=$?
		if [ $rc = 0 ] && ! grep -q 'pmuscope: \(error\|fatal\):' "$de_tmp/err"; then
			de_ran=$((de_ran + 1))
		else
			fail "docs_example $where" "'$line' (run as: $run): exit $rc: $(head -c 300 "$de_tmp/err")"
			de_bad=$((de_bad + 1))
		fi
	done <"$de_examples"
	kill "$de_pid" "$de_sleeper" 2>/dev/null
	wait "$de_pid" 2>/dev/null
	wait "$de_sleeper" 2>/dev/null
	if [ $de_bad = 0 ] && [ $de_ran -ge 20 ]; then
		pass "docs_examples: $de_ran examples of README.md and docs/ ran, $de_syn synopses' options are the commands' ($de_skipped left out: no go)"
	elif [ $de_bad = 0 ]; then
		fail "docs_examples" "only $de_ran examples ran (want >= 20): is the extraction broken? $(head -c 300 "$de_examples")"
	fi
}

de_extract >"$de_examples"
if ! de_prepare; then
	fail "docs_examples" "recording the example files failed: $(tail -c 300 "$de_tmp/prep.log")"
else
	de_run_all
fi
rm -rf "$de_tmp"
