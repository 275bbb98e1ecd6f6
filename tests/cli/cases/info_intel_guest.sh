# info with a synthetic Ice Lake KVM guest CPUID (tests/fixtures/list/cpuid/icx-guest.txt):
# CPUID.0AH v5 with EBX bits 2 and 6 SET, which means those architectural events are NOT
# available; fixed-counter bitmap; AnyThread deprecated; the hypervisor signature.
export PMS_SYSFS_ROOT=$FIXTURES/sysfs/intel PMS_PROCFS_ROOT=$FIXTURES/procfs/intel
export PMS_CPUID_FILE=$FIXTURES/list/cpuid/icx-guest.txt PMS_TRACEFS_ROOT=$FIXTURES/tracefs/default PMS_NO_PROBE=1
"$PMUSCOPE" info | sed -n '/^cpu:/,/^pmus/p'
echo "exit=$?"
"$PMUSCOPE" info --json | jq -c '.intel_0ah | [.version, .gp_counters, .ebx, [.arch_events[] | select(.available | not) | .name]]'
