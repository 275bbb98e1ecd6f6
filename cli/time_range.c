// SPDX-License-Identifier: MIT
// --time <start>,<end> in seconds, shared by report, script and export.
#include <errno.h>
#include <string.h>

#include "time_range.h"

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

int parse_time_range(const char *arg, uint64_t *start_ns, uint64_t *end_ns)
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
