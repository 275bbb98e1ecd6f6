# list when the PMU directory cannot be read: a warning instead of silently listing no PMU
# events; the built-in sections still come out; exit 0.
export PMS_SYSFS_ROOT=/nonexistent-pms-root PMS_NO_PROBE=1
"$PMUSCOPE" list pmu sw
echo "exit=$?"
