// SPDX-License-Identifier: MIT
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/idtab.h"

int pms_idtab__reserve(struct pms_idtab *t)
{
	uint64_t *slots;
	size_t cap;

	if ((t->nr + 1) * 2 <= t->cap)
		return 0;
	cap = t->cap ? t->cap * 2 : 1024;
	slots = calloc(cap, sizeof(*slots));
	if (!slots)
		return -ENOMEM;
	/* the stored hashes place every id again: no key is looked at */
	for (size_t i = 0; i < t->cap; i++) {
		uint64_t s = t->slots[i];
		size_t j;

		if (!s)
			continue;
		for (j = (s >> 32) & (cap - 1); slots[j]; j = (j + 1) & (cap - 1))
			;
		slots[j] = s;
	}
	free(t->slots);
	t->slots = slots;
	t->cap = cap;
	return 0;
}

void pms_idtab__release(struct pms_idtab *t)
{
	free(t->slots);
	memset(t, 0, sizeof(*t));
}
