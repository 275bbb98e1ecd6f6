// SPDX-License-Identifier: MIT
// Unit tests of util/time_range: --time <start>,<end> in exact nanoseconds.
#include <criterion/criterion.h>
#include <errno.h>

#include "util/time_range.h"

Test(time_range, both_sides_exact)
{
	uint64_t a, b;

	cr_assert_eq(pms_time_range__parse("1234.5,1236", &a, &b), 0);
	cr_assert_eq(a, 1234500000000ULL);
	cr_assert_eq(b, 1236000000000ULL);
	cr_assert_eq(pms_time_range__parse("1.000000001,1.000000002", &a, &b), 0);
	cr_assert_eq(b - a, 1);
	/* past 9 decimals the digits are dropped, not rounded */
	cr_assert_eq(pms_time_range__parse(".1234567899,", &a, &b), 0);
	cr_assert_eq(a, 123456789ULL);
	cr_assert_eq(b, 0);
}

Test(time_range, open_sides_and_equal_ends)
{
	uint64_t a = 7, b = 7;

	cr_assert_eq(pms_time_range__parse(",", &a, &b), 0);
	cr_assert_eq(a, 0);
	cr_assert_eq(b, 0);
	cr_assert_eq(pms_time_range__parse(",5", &a, &b), 0);
	cr_assert_eq(b, 5000000000ULL);
	cr_assert_eq(pms_time_range__parse("5,5", &a, &b), 0);
}

Test(time_range, rejects)
{
	uint64_t a, b;

	cr_assert_eq(pms_time_range__parse("5", &a, &b), -EINVAL);
	cr_assert_eq(pms_time_range__parse("2,1", &a, &b), -EINVAL);
	cr_assert_eq(pms_time_range__parse("abc,1", &a, &b), -EINVAL);
	cr_assert_eq(pms_time_range__parse("1e3,", &a, &b), -EINVAL);
	cr_assert_eq(pms_time_range__parse("-1,", &a, &b), -EINVAL);
	cr_assert_eq(pms_time_range__parse(".,", &a, &b), -EINVAL);
	cr_assert_eq(pms_time_range__parse("99999999999999999999,", &a, &b), -ERANGE);
}

Test(duration, units_and_bare_microseconds)
{
	uint64_t ns = 0;

	cr_assert_eq(pms_duration__parse_ns("250", &ns), 0);
	cr_assert_eq(ns, 250000ULL);
	cr_assert_eq(pms_duration__parse_ns("250us", &ns), 0);
	cr_assert_eq(ns, 250000ULL);
	cr_assert_eq(pms_duration__parse_ns("1.5ms", &ns), 0);
	cr_assert_eq(ns, 1500000ULL);
	cr_assert_eq(pms_duration__parse_ns("2s", &ns), 0);
	cr_assert_eq(ns, 2000000000ULL);
	cr_assert_eq(pms_duration__parse_ns("100ns", &ns), 0);
	cr_assert_eq(ns, 100ULL);
	cr_assert_eq(pms_duration__parse_ns("0.000000001s", &ns), 0);
	cr_assert_eq(ns, 1ULL);
	cr_assert_eq(pms_duration__parse_ns("0", &ns), 0);
	cr_assert_eq(ns, 0ULL);
}

Test(duration, rejects)
{
	uint64_t ns;

	cr_assert_eq(pms_duration__parse_ns("", &ns), -EINVAL);
	cr_assert_eq(pms_duration__parse_ns("ms", &ns), -EINVAL);
	cr_assert_eq(pms_duration__parse_ns("5 ms", &ns), -EINVAL);
	cr_assert_eq(pms_duration__parse_ns("5min", &ns), -EINVAL);
	cr_assert_eq(pms_duration__parse_ns("-5ms", &ns), -EINVAL);
	cr_assert_eq(pms_duration__parse_ns("5kms", &ns), -EINVAL);
	cr_assert_eq(pms_duration__parse_ns("99999999999999999999s", &ns), -ERANGE);
}
