// SPDX-License-Identifier: MIT
// --time <start>,<end> in seconds, shared by report, script and export; durations with units (profile --min-block).
#include <errno.h>
#include <string.h>

#include "util/time_range.h"

/* "12.5" -> 12500000000 ns; digits only, at most 9 decimals kept. */
static int parse_seconds(const char *s, size_t len, uint64_t *ns)
{
	uint64_t sec = 0, frac = 0;
	size_t i = 0, nd = 0;

	for (; i < len && s[i] >= '0' && s[i] <= '9'; i++) {
		if (sec > UINT64_MAX / 10 / 1000000000ULL)
			return -ERANGE;
		sec = sec * 10 + (uint64_t)(s[i] - '0');
	}
	if (i < len && s[i] == '.') {
		size_t int_digits = i;

		for (i++; i < len && s[i] >= '0' && s[i] <= '9'; i++)
			if (nd < 9) {
				frac = frac * 10 + (uint64_t)(s[i] - '0');
				nd++;
			}
		if (!int_digits && i == int_digits + 1)
			return -EINVAL; /* "." alone */
	} else if (!i) {
		return -EINVAL;
	}
	if (i != len)
		return -EINVAL;
	for (; nd < 9; nd++)
		frac *= 10;
	*ns = sec * 1000000000ULL + frac;
	return 0;
}

int pms_time_range__parse(const char *arg, uint64_t *start_ns, uint64_t *end_ns)
{
	const char *comma = strchr(arg, ',');
	int err;

	*start_ns = *end_ns = 0;
	if (!comma)
		return -EINVAL;
	if (comma > arg && (err = parse_seconds(arg, (size_t)(comma - arg), start_ns)))
		return err;
	if (comma[1] && (err = parse_seconds(comma + 1, strlen(comma + 1), end_ns)))
		return err;
	if (*end_ns && *start_ns > *end_ns)
		return -EINVAL;
	return 0;
}

int pms_duration__parse_ns(const char *arg, uint64_t *ns)
{
	static const struct {
		const char *suffix;
		uint64_t ns;
	} units[] = { { "ns", 1 }, { "us", 1000 }, { "ms", 1000000 }, { "s", 1000000000 } };
	size_t len = strlen(arg), num = len;
	uint64_t scale = 1000, v; /* bare numbers are microseconds */
	int err;

	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		size_t sl = strlen(units[i].suffix);

		if (len > sl && !strcmp(arg + len - sl, units[i].suffix) &&
		    (arg[len - sl - 1] < 'a' || arg[len - sl - 1] > 'z')) {
			num = len - sl;
			scale = units[i].ns;
			break;
		}
	}
	/* seconds with 9 decimals, rescaled: exact for every unit down to ns */
	err = parse_seconds(arg, num, &v);
	if (err)
		return err;
	if (v / 1000000000ULL > UINT64_MAX / scale)
		return -ERANGE;
	if (scale == 1000000000)
		*ns = v;
	else
		*ns = v / 1000000000ULL * scale + (v % 1000000000ULL) * scale / 1000000000ULL;
	return 0;
}
