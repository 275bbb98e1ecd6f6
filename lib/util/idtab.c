// SPDX-License-Identifier: MIT
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/idtab.h"

int pms_idtab__reserve(struct pms_idtab *t)
{
	size_t ncap;
	uint32_t *nh, *ni;

	if ((t->nr + 1) * 2 <= t->cap)
		return 0;
	ncap = t->cap ? t->cap * 2 : 1024;
	nh = calloc(ncap, sizeof(*nh));
	ni = calloc(ncap, sizeof(*ni));
	if (!nh || !ni) {
		free(nh);
		free(ni);
		return -ENOMEM;
	}
	/* the stored hashes place every id again: no key is looked at */
	for (size_t i = 0; i < t->cap; i++) {
		size_t j;

		if (!t->id1[i])
			continue;
		for (j = t->hash[i] & (ncap - 1); ni[j]; j = (j + 1) & (ncap - 1))
			;
		nh[j] = t->hash[i];
		ni[j] = t->id1[i];
	}
	free(t->hash);
	free(t->id1);
	t->hash = nh;
	t->id1 = ni;
	t->cap = ncap;
	return 0;
}

void pms_idtab__release(struct pms_idtab *t)
{
	free(t->hash);
	free(t->id1);
	memset(t, 0, sizeof(*t));
}
