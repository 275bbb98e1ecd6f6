# flamegraph on the call-chain fixture (kernel via fixture kallsyms, JIT map, unfound file, unmapped, unknown thread):
# the SVG's frames (titles in preorder) by comm, by pid with period weights as an icicle, without process frames;
# the HTML page's embedded frame names; -o - writes to stdout
mkdir proc && cp "$FIXTURES/symbol/kallsyms.txt" proc/kallsyms
export PMS_PROCFS_ROOT="$PWD/proc" PMS_JITMAP_DIR="$FIXTURES/symbol"
# the fixture kernel is "running": tests/fixtures/symbol/sysfs/kernel/notes has its build-id
export PMS_SYSFS_ROOT="$FIXTURES/symbol/sysfs"
cp "$TOP/tests/cli/cases/script_chain.data" chain.data
titles() { grep -o '<title>[^<]*</title>\|<rect x="[0-9.]*" y="[0-9.]*" width="[0-9.]*"' "$1"; }
"$PMUSCOPE" flamegraph -i chain.data --svg; echo "exit=$?"
titles flame.svg
echo "-- --root pid --weight period --icicle --title"
"$PMUSCOPE" flamegraph -i chain.data --svg --root pid --weight period --icicle --title 'A <b> & "c"' -o p.svg; echo "exit=$?"
titles p.svg
grep -c '&lt;b&gt; &amp; &quot;c&quot;' p.svg
echo "-- --root none -o -"
"$PMUSCOPE" flamegraph -i chain.data --svg --root none -o - 2>/dev/null | grep -o '<title>[^<]*</title>'
echo "-- html"
"$PMUSCOPE" flamegraph -i chain.data 2>&1 | sed 's/[0-9]* bytes/N bytes/'; echo "exit=$?"
grep -o '"frames":{"name":.*,"dsos"' flame.html
grep -o '"nodes":{"f":\[[^]]*\],"p":\[[^]]*\],"s":\[[^]]*\]' flame.html
