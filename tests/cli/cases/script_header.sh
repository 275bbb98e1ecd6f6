# script --header: the file's metadata as '#' lines before the samples (perf script --header-only's text, byte for byte)
"$PMUSCOPE" script --header -F comm,tid -i "$TOP/tests/cli/cases/script_flat.data"; echo "exit=$?"
