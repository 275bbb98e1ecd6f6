// SPDX-License-Identifier: MIT
// errno names (explain, info, list --json) and when probing the running kernel means anything.
#include <criterion/criterion.h>
#include <errno.h>
#include <stdlib.h>

#include "perf_event/caps.h"
#include "util/errname.h"

Test(errname, names_both_signs_and_unknown)
{
	cr_assert_str_eq(pms_errno__name(ENOENT), "ENOENT");
	cr_assert_str_eq(pms_errno__name(-EACCES), "EACCES");
	cr_assert_str_eq(pms_errno__name(-EOPNOTSUPP), "EOPNOTSUPP");
	cr_assert_str_eq(pms_errno__name(4242), "E4242");
}

Test(caps_probing, fixture_roots_and_the_test_switch)
{
	unsetenv("PMS_SYSFS_ROOT");
	unsetenv("PMS_NO_PROBE");
	cr_assert(pms_caps__probing_meaningful());
	setenv("PMS_NO_PROBE", "0", 1);
	cr_assert(pms_caps__probing_meaningful());
	setenv("PMS_NO_PROBE", "", 1);
	cr_assert(pms_caps__probing_meaningful());
	setenv("PMS_NO_PROBE", "1", 1);
	cr_assert_not(pms_caps__probing_meaningful());
	unsetenv("PMS_NO_PROBE");
	setenv("PMS_SYSFS_ROOT", "/nonexistent", 1);
	cr_assert_not(pms_caps__probing_meaningful());
	unsetenv("PMS_SYSFS_ROOT");
}
