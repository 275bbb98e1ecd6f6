# info --json on fixtures: valid JSON (jq) with cpu, pmus, knobs, privileges, null probes
# when not probed, and a verdict.
command -v jq >/dev/null 2>&1 || { echo "SKIP: jq not installed"; exit 0; }
export PMS_TRACEFS_ROOT=$FIXTURES/tracefs/default PMS_NO_PROBE=1
for fx in intel:skylake.txt amd:zen4.txt vm:vm-zen3.txt arm64:none; do
	name=${fx%%:*} cpuid=${fx#*:}
	[ "$cpuid" = none ] || cpuid=$FIXTURES/cpuid/$cpuid
	PMS_SYSFS_ROOT=$FIXTURES/sysfs/$name PMS_PROCFS_ROOT=$FIXTURES/procfs/$name PMS_CPUID_FILE=$cpuid \
		"$PMUSCOPE" info --json >"$name.json"
	echo "$name exit=$?"
	jq -r '"\(.cpu.vendor) | \(.cpu.event_maps) | pmus=\(.pmus | length) with_events=\([.pmus[] | select(.events > 0) | .name] | join(",")) | paranoid=\(.knobs.perf_event_paranoid) | probes=\(.probes) | amd_v2=\(.amd.perfmon_v2)"' "$name.json"
	jq -r '.verdict' "$name.json"
done
