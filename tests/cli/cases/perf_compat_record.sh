# every option of perf record -h has a row in docs/perf-compat.md, and pmuscope record accepts each
sh "$TOP/tests/lib/perf_compat.sh" record
