# explain --json: a valid array (jq) with one object per event of a group, the vendor mapping,
# format terms, register fields with the values the kernel programs, and here=null when not probed.
command -v jq >/dev/null 2>&1 || { echo "SKIP: jq not installed"; exit 0; }
export PMS_SYSFS_ROOT=$FIXTURES/sysfs/intel PMS_PROCFS_ROOT=$FIXTURES/procfs/intel
export PMS_CPUID_FILE=$FIXTURES/cpuid/skylake.txt PMS_NO_PROBE=1
"$PMUSCOPE" explain --json '{cache-misses,cpu/event=0xc0/k}' >e.json
echo "exit=$?"
jq -r 'length' e.json
jq -r '.[0] | "\(.event) \(.type_name) \(.config) \(.mappings[0].hw_name) \(.mappings[0].config) \(.here)"' e.json
jq -r '.[1] | "\(.event) \(.pmu) \(.terms.event) \(.modifiers.exclude_user)"' e.json
jq -r '.[1].register[] | select(.field == "usr" or .field == "os" or .field == "event") | "\(.field) \(.value) \(.programmed)"' e.json
