# every option of perf report -h has a row in docs/perf-compat.md, and pmuscope report accepts each
sh "$TOP/tests/lib/perf_compat.sh" report
