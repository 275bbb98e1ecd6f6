/* SPDX-License-Identifier: MIT */
/*
 * The one hash table of the library's in-memory indexes: an open-addressing
 * set of ids (uint32, dense, kept by the caller in its own arrays) with
 * their 32-bit hashes. The caller hashes its key and compares keys itself
 * when the hashes agree, so one table serves strings, frames, tree nodes
 * and rows alike, and growing never hashes a key again.
 *
 * Use:
 *	if (pms_idtab__reserve(&t)) return -ENOMEM;
 *	for (i = pms_idtab__start(&t, h); t.id1[i]; i = pms_idtab__next(&t, i))
 *		if (t.hash[i] == h && key_eq(t.id1[i] - 1)) return t.id1[i] - 1;
 *	pms_idtab__set(&t, i, h, new_id);
 *
 * Invariants: at most half full after __reserve(), so a probe always ends
 * on an empty slot; ids are stored + 1 (0 marks an empty slot), so an id
 * may not be UINT32_MAX. Not thread-safe.
 */
#ifndef PMS_UTIL_IDTAB_H
#define PMS_UTIL_IDTAB_H

#include <stddef.h>
#include <stdint.h>

struct pms_idtab {
	uint32_t *hash;
	uint32_t *id1;   /* id + 1, 0 = empty */
	size_t cap;      /* a power of two, or 0 before the first __reserve() */
	size_t nr;
};

/* Room for one more id at a load of at most 1/2. 0 or -ENOMEM (the table is unchanged then). */
int pms_idtab__reserve(struct pms_idtab *t);

static inline size_t pms_idtab__start(const struct pms_idtab *t, uint32_t hash)
{
	return hash & (t->cap - 1);
}

static inline size_t pms_idtab__next(const struct pms_idtab *t, size_t slot)
{
	return (slot + 1) & (t->cap - 1);
}

/* Store id under hash in the empty slot a probe ended on. */
static inline void pms_idtab__set(struct pms_idtab *t, size_t slot, uint32_t hash, uint32_t id)
{
	t->hash[slot] = hash;
	t->id1[slot] = id + 1;
	t->nr++;
}

void pms_idtab__release(struct pms_idtab *t);

#endif
