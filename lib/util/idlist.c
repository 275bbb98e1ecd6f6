// SPDX-License-Identifier: MIT
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>

#include "util/array.h"
#include "util/idlist.h"

int pms_id_list__parse(const char *text, int min_id, pid_t **ids, size_t *nr)
{
	const char *p = text;
	size_t alloc = 0;
	int err = -EINVAL;

	*ids = NULL;
	*nr = 0;
	if (!text || min_id < 0)
		goto fail;
	for (;;) {
		char *end;
		long v;

		/* strtol would take a sign or leading blanks: ids are plain digits */
		if (!isdigit((unsigned char)*p))
			goto fail;
		errno = 0;
		v = strtol(p, &end, 10);
		if (errno || v < min_id || v > INT_MAX || (*end && *end != ','))
			goto fail;
		if (pms_array__reserve(ids, &alloc, *nr + 1, sizeof(**ids))) {
			err = -ENOMEM;
			goto fail;
		}
		(*ids)[(*nr)++] = (pid_t)v;
		if (!*end)
			return 0;
		p = end + 1;
	}
fail:
	free(*ids);
	*ids = NULL;
	*nr = 0;
	return err;
}
