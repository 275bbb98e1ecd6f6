# every option of perf inject -h has a row in docs/perf-compat.md, and pmuscope inject accepts each
sh "$TOP/tests/lib/perf_compat.sh" inject
