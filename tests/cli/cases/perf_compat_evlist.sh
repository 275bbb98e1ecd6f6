# every option of perf evlist -h has a row in docs/perf-compat.md, and pmuscope evlist accepts each
sh "$TOP/tests/lib/perf_compat.sh" evlist
