# list --json on the Intel fixture: valid JSON (jq), the documented keys, encodings of
# generic, cache, sysfs-alias (with config1) events, and null probe results under a fixture.
command -v jq >/dev/null 2>&1 || { echo "SKIP: jq not installed"; exit 0; }
export PMS_SYSFS_ROOT=$FIXTURES/sysfs/intel PMS_PROCFS_ROOT=$FIXTURES/procfs/intel
export PMS_TRACEFS_ROOT=$FIXTURES/tracefs/default PMS_NO_PROBE=1
"$PMUSCOPE" list --json >all.json 2>err.txt
echo "exit=$?"
cat err.txt
jq -r 'length' all.json
jq -r '[.[].kind] | group_by(.) | map("\(.[0]) \(length)") | .[]' all.json
jq -r '.[0] | keys_unsorted | join(",")' all.json
jq -r '.[] | select(.name == "cpu-cycles" or .name == "LLC-load-misses" or .name == "cpu/mem-loads/"
	or .name == "uncore_imc_0/cas_count_read/" or .name == "sched:sched_switch")
	| "\(.name) \(.aliases) \(.kind) \(.pmu) \(.supported) \(.encoding) \(.config) \(.description)"' all.json
