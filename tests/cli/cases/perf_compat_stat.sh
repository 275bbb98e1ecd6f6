# every option of perf stat -h has a row in docs/perf-compat.md, and pmuscope stat accepts each
sh "$TOP/tests/lib/perf_compat.sh" stat
