// SPDX-License-Identifier: MIT
// Growable arrays (amortized doubling).
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#include "util/array.h"

int pms_array__reserve(void *arrp, size_t *alloc, size_t need, size_t elem_size)
{
	void **p = arrp;
	size_t cap = *alloc ? *alloc : 64;
	void *np;

	if (need <= *alloc)
		return 0;
	while (cap < need) {
		if (cap > SIZE_MAX / 2)
			return -ENOMEM;
		cap *= 2;
	}
	if (elem_size && cap > SIZE_MAX / elem_size)
		return -ENOMEM;
	np = realloc(*p, cap * elem_size);
	if (!np)
		return -ENOMEM;
	*p = np;
	*alloc = cap;
	return 0;
}
