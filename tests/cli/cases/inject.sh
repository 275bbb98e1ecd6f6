# inject -b on corpus files (their build-ids kept from the input; this machine's files are not
# read for another machine's kernel), the copy read back by evlist and buildid-list; a stream in
# and out; usage errors and refused perf options.
Q=$FIXTURES/perfdata/quipper
echo "-- -b -v on perf 4.14's group file (a file out)"
"$PMUSCOPE" inject -b -v -i "$Q/perf.data.group_desc-4.14" -o copy.data; echo "exit=$?"
"$PMUSCOPE" buildid-list -i copy.data; echo "exit=$?"
"$PMUSCOPE" evlist -g -i copy.data; echo "exit=$?"
echo "-- a perf 3.4 stream, stdin to stdout, then to a file: the kernel of another release gets no build-id"
"$PMUSCOPE" inject -b < "$Q/perf.data.piped.target.throttled-3.4" > copy.stream; echo "exit=$?"
"$PMUSCOPE" inject -b -v -o copy2.data < copy.stream 2>&1 | grep -c 'not readable here'
"$PMUSCOPE" evlist -i copy2.data; echo "exit=$?"
echo "-- --known-build-ids wins over the input's table"
"$PMUSCOPE" inject -b --known-build-ids='00112233445566778899aabbccddeeff00112233 /lib64/ld-2.23.so' -i "$Q/perf.data.group_desc-4.14" -o known.data; echo "exit=$?"
"$PMUSCOPE" buildid-list -i known.data; echo "exit=$?"
echo "-- a plain copy (no -b) keeps the input's build-ids"
"$PMUSCOPE" inject -i "$Q/perf.data.group_desc-4.14" -o plain.data; echo "exit=$?"
"$PMUSCOPE" buildid-list -i plain.data; echo "exit=$?"
echo "-- errors"
"$PMUSCOPE" inject -b -i copy.data -o copy.data; echo "exit=$?"
"$PMUSCOPE" inject -b extra; echo "exit=$?"
"$PMUSCOPE" inject -b -i nothing.data -o x.data; echo "exit=$?"
cp "$Q/perf.data.intel_pt-4.14" pt.data
"$PMUSCOPE" inject -b -i pt.data -o x.data; echo "exit=$?"
"$PMUSCOPE" inject -b --known-build-ids='0011 /a,xyz /b'; echo "exit=$?"
"$PMUSCOPE" inject --jit; echo "exit=$?"
"$PMUSCOPE" inject --itrace=i100us; echo "exit=$?"
"$PMUSCOPE" inject -s; echo "exit=$?"
