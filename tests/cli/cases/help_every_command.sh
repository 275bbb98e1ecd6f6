# Every command listed by `pmuscope help` answers -h and --help with its usage
# on stdout and exit 0; an unknown option is a usage error (129).
cmds=$("$PMUSCOPE" help | sed -n '/^commands:/,/^$/p' | awk 'NF>1 && $1!="commands:" {print $1}')
[ -n "$cmds" ] || echo "no commands listed"
for c in $cmds; do
	out=$("$PMUSCOPE" "$c" -h 2>/dev/null); rc=$?
	case $out in "usage: pmuscope $c"*) ;; *) echo "$c -h: bad usage text: $(echo "$out" | head -n 1)" ;; esac
	[ $rc = 0 ] || echo "$c -h: exit $rc"
	"$PMUSCOPE" "$c" --help >/dev/null 2>&1 || echo "$c --help: exit $?"
	"$PMUSCOPE" "$c" --no-such-option >/dev/null 2>&1
	rc=$?
	[ $rc = 129 ] || echo "$c --no-such-option: exit $rc, want 129"
done
echo "checked $(echo "$cmds" | wc -w) commands"
