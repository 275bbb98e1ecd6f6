/* SPDX-License-Identifier: MIT */
/*
 * Growable arrays: capacity doubles (from 64) so appending is amortized
 * O(1). The array pointer is only replaced on success, so a failed reserve
 * leaves the caller's data intact.
 */
#ifndef PMS_UTIL_ARRAY_H
#define PMS_UTIL_ARRAY_H

#include <stddef.h>

/*
 * Make *(void **)arrp hold at least need elements of elem_size bytes;
 * *alloc is the capacity in elements. 0, or -ENOMEM (also on size overflow).
 */
int pms_array__reserve(void *arrp, size_t *alloc, size_t need, size_t elem_size);

#endif
