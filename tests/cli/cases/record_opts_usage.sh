# perf record's everyday options: bad values are usage errors (exit 129) before any event opens or file
# is created; perf's options pmuscope cannot honour are refused with their reason, never "unknown".
r() { "$PMUSCOPE" record "$@" >out.txt 2>&1; e=$?; grep -v '^usage:\|^(see' out.txt; echo "exit=$e"; }
x() { "$PMUSCOPE" record "$@" >/dev/null 2>&1; echo "exit=$?"; }
r -Ifoo -- true
r --user-regs=ax,nope -- true
"$PMUSCOPE" record -I?; echo "exit=$?"
r -j bogus -- true
r -z23 -- true
r --switch-output=10x -- true
r --switch-output=100 -- true
r --max-size 12Q -- true
r -k nosuchclock -- true
r -D -1 -- true
r -D 10-20 -- true
r -F fast -- true
r -F max -c 10 -- true
r --all-user --all-kernel -- true
r --synth bogus -- true
r --affinity gpu -- true
r -e cpu-clock --filter x -- true
r --filter x -e cpu-clock -- true
r -u no-such-user-here
r -o - --switch-output -- true
r --aio -- true
r -S -- true
r --off-cpu -- true
r --control fifo:a -- true
x --dry-run -e cpu-clock -F 99 -d -s -- true
ls perf.data 2>/dev/null || echo "no perf.data"
