// SPDX-License-Identifier: MIT
// Sizes and times with perf's one-letter unit suffixes.
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>

#include "util/units.h"

/* The number and its one-letter suffix (0 when none); 0, -EINVAL, -ERANGE. */
static int split(const char *s, uint64_t *n, char *suffix)
{
	char *end;

	if (!s || !isdigit((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	*n = strtoull(s, &end, 10);
	if (errno)
		return -ERANGE;
	if (!*n || (*end && end[1]))
		return -EINVAL;
	*suffix = (char)tolower((unsigned char)*end);
	return 0;
}

static int scale(uint64_t n, uint64_t mult, uint64_t *out)
{
	if (n > UINT64_MAX / mult)
		return -ERANGE;
	*out = n * mult;
	return 0;
}

int pms_units__parse_size_bytes(const char *s, bool need_suffix, uint64_t *bytes)
{
	uint64_t n;
	char suffix;
	int err = split(s, &n, &suffix);

	if (err)
		return err;
	switch (suffix) {
	case 0: return need_suffix ? -EINVAL : scale(n, 1, bytes);
	case 'b': return scale(n, 1, bytes);
	case 'k': return scale(n, 1ull << 10, bytes);
	case 'm': return scale(n, 1ull << 20, bytes);
	case 'g': return scale(n, 1ull << 30, bytes);
	default: return -EINVAL;
	}
}

int pms_units__parse_time_s(const char *s, uint64_t *seconds)
{
	uint64_t n;
	char suffix;
	int err = split(s, &n, &suffix);

	if (err)
		return err;
	switch (suffix) {
	case 's': return scale(n, 1, seconds);
	case 'm': return scale(n, 60, seconds);
	case 'h': return scale(n, 3600, seconds);
	case 'd': return scale(n, 86400, seconds);
	default: return -EINVAL;
	}
}
