# Inputs that crashed another perf.data reader (quipper) under fuzzing: each is refused with a message
# that says what is wrong and where, or read as far as it is valid; never a crash or a hang (run
# under ASan+UBSan in cli-san). The file name is cut to 12 characters.
for f in "$FIXTURES"/perfdata/fuzz-crashes/*; do
	n=$(basename "$f" | cut -c1-12)
	for cmd in "report --stdio" "script" "export --format=folded"; do
		# shellcheck disable=SC2086
		timeout 20 "$PMUSCOPE" $cmd -i "$f" >/dev/null 2>err.txt
		rc=$?
		echo "$n $cmd: exit=$rc $(head -n 1 err.txt | sed "s|$f|FILE|g")"
	done
done
