# every option of perf script -h has a row in docs/perf-compat.md, and pmuscope script accepts each
sh "$TOP/tests/lib/perf_compat.sh" script
