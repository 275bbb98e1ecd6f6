/* SPDX-License-Identifier: MIT */
/*
 * An integer key -> pointer map over util/idtab: thread ids to threads,
 * interned strings' addresses to their data.
 *
 * Invariants: keys are unique (put replaces); NULL values are allowed and
 * read back as absent; 0 or -ENOMEM; not thread-safe.
 */
#ifndef PMS_UTIL_PTRMAP_H
#define PMS_UTIL_PTRMAP_H

#include <stddef.h>
#include <stdint.h>

#include "util/idtab.h"

struct pms_ptrmap {
	struct pms_idtab ids; /* hash(key) -> index in keys/vals */
	int64_t *keys;
	void **vals;
	size_t nr, cap_keys, cap_vals;
};

/* The value under key, or NULL. */
void *pms_ptrmap__get(const struct pms_ptrmap *m, int64_t key);
int pms_ptrmap__put(struct pms_ptrmap *m, int64_t key, void *val);
size_t pms_ptrmap__nr(const struct pms_ptrmap *m);
void pms_ptrmap__release(struct pms_ptrmap *m);

#endif
