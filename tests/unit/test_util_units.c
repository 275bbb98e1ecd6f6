// SPDX-License-Identifier: MIT
// perf's sizes (B/K/M/G) and times (s/m/h/d) for --max-size and --switch-output.
#include <criterion/criterion.h>
#include <errno.h>

#include "util/units.h"

Test(util_units, sizes)
{
	uint64_t b;

	cr_assert_eq(pms_units__parse_size_bytes("512", false, &b), 0);
	cr_assert_eq(b, 512);
	cr_assert_eq(pms_units__parse_size_bytes("20K", false, &b), 0);
	cr_assert_eq(b, 20480);
	cr_assert_eq(pms_units__parse_size_bytes("3m", true, &b), 0);
	cr_assert_eq(b, 3u << 20);
	cr_assert_eq(pms_units__parse_size_bytes("1G", true, &b), 0);
	cr_assert_eq(b, 1ull << 30);
	cr_assert_eq(pms_units__parse_size_bytes("100", true, &b), -EINVAL, "--switch-output needs the suffix");
	cr_assert_eq(pms_units__parse_size_bytes("10s", false, &b), -EINVAL);
	cr_assert_eq(pms_units__parse_size_bytes("0", false, &b), -EINVAL);
	cr_assert_eq(pms_units__parse_size_bytes("-1K", false, &b), -EINVAL);
	cr_assert_eq(pms_units__parse_size_bytes("1KB", false, &b), -EINVAL);
	cr_assert_eq(pms_units__parse_size_bytes("99999999999999999999", false, &b), -ERANGE);
	cr_assert_eq(pms_units__parse_size_bytes("17179869184G", false, &b), -ERANGE);
}

Test(util_units, times)
{
	uint64_t s;

	cr_assert_eq(pms_units__parse_time_s("30s", &s), 0);
	cr_assert_eq(s, 30);
	cr_assert_eq(pms_units__parse_time_s("5m", &s), 0);
	cr_assert_eq(s, 300);
	cr_assert_eq(pms_units__parse_time_s("2H", &s), 0);
	cr_assert_eq(s, 7200);
	cr_assert_eq(pms_units__parse_time_s("1d", &s), 0);
	cr_assert_eq(s, 86400);
	cr_assert_eq(pms_units__parse_time_s("30", &s), -EINVAL);
	cr_assert_eq(pms_units__parse_time_s("1G", &s), -EINVAL);
}
