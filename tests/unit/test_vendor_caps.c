// SPDX-License-Identifier: MIT
// Unit tests of lib/perf_event/caps on fixture procfs/sysfs trees (knobs, capabilities, paranoid words).
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include <errno.h>

#include "perf_event/caps.h"
#include "perf_event/sys.h"

Test(caps_knobs, vm_fixture)
{
	struct pms_knobs k;

	setenv("PMS_PROCFS_ROOT", "tests/fixtures/procfs/vm", 1);
	setenv("PMS_SYSFS_ROOT", "/nonexistent", 1);
	setenv("PMS_TRACEFS_ROOT", "/nonexistent/tracefs", 1);
	pms_knobs__read(&k);
	cr_assert_eq(k.paranoid, 2);
	cr_assert_eq(k.max_sample_rate, 100000);
	cr_assert_eq(k.cpu_time_max_percent, 25);
	cr_assert_eq(k.mlock_kb, 516);
	cr_assert_eq(k.unprivileged_bpf_disabled, 2);
	cr_assert_eq(k.perf_user_access, PMS_KNOB_ABSENT);
	cr_assert_eq(k.rdpmc, PMS_KNOB_ABSENT);
	cr_assert_not(k.btf);
	cr_assert_not(k.tracefs); /* a PMS_TRACEFS_ROOT without events/ is not a tracefs */
	cr_assert(pms_caps__has(PMS_CAP_PERFMON));
	cr_assert(pms_caps__has(PMS_CAP_SYS_ADMIN));
}

Test(caps_knobs, negative_paranoid_and_partial_caps)
{
	struct pms_knobs k;

	setenv("PMS_PROCFS_ROOT", "tests/fixtures/procfs/amd", 1);
	setenv("PMS_SYSFS_ROOT", "/nonexistent", 1);
	pms_knobs__read(&k);
	cr_assert_eq(k.paranoid, -1);
	cr_assert_eq(k.mlock_kb, 2048);
	cr_assert(pms_caps__has(PMS_CAP_PERFMON));
	cr_assert_not(pms_caps__has(PMS_CAP_SYS_ADMIN));
	cr_assert_not(pms_caps__has(PMS_CAP_BPF));

	setenv("PMS_PROCFS_ROOT", "tests/fixtures/procfs/arm64", 1);
	pms_knobs__read(&k);
	cr_assert_eq(k.perf_user_access, 1);

	setenv("PMS_PROCFS_ROOT", "/nonexistent", 1);
	pms_knobs__read(&k);
	cr_assert_eq(k.paranoid, PMS_KNOB_ABSENT);
	cr_assert_not(pms_caps__has(PMS_CAP_PERFMON));
}

Test(caps_knobs, paranoid_in_words)
{
	cr_assert(strstr(pms_paranoid__describe(-1), "no restrictions"));
	cr_assert(strstr(pms_paranoid__describe(1), "no CPU-wide"));
	cr_assert(strstr(pms_paranoid__describe(2), "user space only"));
	cr_assert(strstr(pms_paranoid__describe(3), "denied"));
	cr_assert(strstr(pms_paranoid__describe(4), "denied"));
}

/* ENOENT on a generic hardware event names the core PMU when there is one, instead of claiming there is none. */
Test(caps_open_reason, core_pmu_named)
{
	const struct perf_event_attr hw = { .type = PERF_TYPE_HARDWARE };
	const struct perf_event_attr sw = { .type = PERF_TYPE_SOFTWARE };

	setenv("PMS_SYSFS_ROOT", "tests/fixtures/sysfs/intel", 1);
	cr_assert_str_eq(pms_event__open_error_reason(&hw, -ENOENT),
			 "not supported: the core PMU 'cpu' has no such event on this CPU");
	setenv("PMS_SYSFS_ROOT", "tests/fixtures/sysfs/arm64", 1);
	cr_assert(strstr(pms_event__open_error_reason(&hw, -ENOENT), "core PMU 'armv8_"));
	setenv("PMS_SYSFS_ROOT", "tests/fixtures/sysfs/vm", 1);
	cr_assert_str_eq(pms_event__open_error_reason(&hw, -ENOENT),
			 "not supported: no hardware PMU provides this event here");
	cr_assert_str_eq(pms_event__open_error_reason(&sw, -ENOENT), "not supported by this PMU");
	unsetenv("PMS_SYSFS_ROOT");
}
