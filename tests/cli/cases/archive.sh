# archive packs the cache entries a perf.data file names into FILE.tar.gz in perf archive's
# layout; an object missing from the cache is added first when it is here (the fixture kernel's
# kallsyms), and what cannot be had is named. Usage errors exit 129.
mkdir proc && cp "$FIXTURES/symbol/kallsyms.txt" proc/kallsyms
export PMS_PROCFS_ROOT=$PWD/proc PMS_SYSFS_ROOT="$FIXTURES/symbol/sysfs" PMS_BUILDID_DIR=$PWD/cache
cp "$TOP/tests/cli/cases/script_chain.data" perf.data
{ "$PMUSCOPE" archive; echo "exit=$?"; } 2>&1 | sed 's/[0-9][0-9.]* MB/N MB/g'
tar tzf perf.data.tar.gz; echo "tar exit=$?"
tar xzf perf.data.tar.gz -C cache && echo "unpacks into the cache"
cmp proc/kallsyms "cache/[kernel.kallsyms]/112233445566778899aabbccddeeff0102030405/kallsyms" && echo "kallsyms as read"
echo "-- -o, and a second run reads the cache only"
{ "$PMUSCOPE" archive -o other.tgz perf.data >/dev/null; echo "exit=$?"; } 2>&1 | sed 's/[0-9][0-9.]* MB/N MB/g'
tar tzf other.tgz | wc -l
echo "-- the kernel here is another one: nothing to archive"
rm -rf cache
{ PMS_SYSFS_ROOT=$PWD "$PMUSCOPE" archive; echo "exit=$?"; } 2>&1 | sed "s|$PWD|.|g"
echo "-- errors"
"$PMUSCOPE" archive a.data b.data; echo "exit=$?"
"$PMUSCOPE" archive -; echo "exit=$?"
"$PMUSCOPE" archive nothing.data; echo "exit=$?"
PMS_BUILDID_DIR= HOME= "$PMUSCOPE" archive; echo "exit=$?"
