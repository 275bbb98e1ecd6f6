/* SPDX-License-Identifier: MIT */
/*
 * The one hash table of the library's in-memory indexes: an open-addressing
 * set of ids (uint32, dense, kept by the caller in its own arrays) with
 * their 32-bit hashes, one 64-bit slot each ((hash << 32) | (id + 1), 0 for
 * an empty slot), so a probe reads one word and growing never looks at a
 * key. The caller hashes its key and compares keys itself when the hashes
 * agree, so one table serves strings, frames, tree nodes, rows and
 * histogram entries alike.
 *
 * Use, with the caller's comparison inline:
 *	if (pms_idtab__reserve(&t)) return -ENOMEM;
 *	for (i = pms_idtab__start(&t, h); pms_idtab__used(&t, i); i = pms_idtab__next(&t, i))
 *		if (pms_idtab__hash(&t, i) == h && key_eq(pms_idtab__id(&t, i)))
 *			return pms_idtab__id(&t, i);
 *	pms_idtab__set(&t, i, h, new_id);
 * or through a callback: i = pms_idtab__probe(&t, h, eq, ctx).
 *
 * Invariants: at most half full after __reserve(), so a probe always ends
 * on an empty slot; an id may not be UINT32_MAX. Not thread-safe.
 */
#ifndef PMS_UTIL_IDTAB_H
#define PMS_UTIL_IDTAB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct pms_idtab {
	uint64_t *slots;
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

static inline bool pms_idtab__used(const struct pms_idtab *t, size_t slot)
{
	return t->slots[slot] != 0;
}

static inline uint32_t pms_idtab__hash(const struct pms_idtab *t, size_t slot)
{
	return (uint32_t)(t->slots[slot] >> 32);
}

static inline uint32_t pms_idtab__id(const struct pms_idtab *t, size_t slot)
{
	return (uint32_t)(t->slots[slot] & 0xffffffffu) - 1;
}

/* Store id under hash in the empty slot a probe ended on. */
static inline void pms_idtab__set(struct pms_idtab *t, size_t slot, uint32_t hash, uint32_t id)
{
	t->slots[slot] = ((uint64_t)hash << 32) | ((uint64_t)id + 1);
	t->nr++;
}

/* Does id's key equal the one being looked up (ctx)? */
typedef bool (*pms_idtab_eq)(const void *ctx, uint32_t id);

/*
 * The slot holding an id whose key eq() accepts, or the empty slot where it
 * belongs (after __reserve()). Inline, so a hot caller's eq() inlines too.
 */
static inline size_t pms_idtab__probe(const struct pms_idtab *t, uint32_t hash, pms_idtab_eq eq, const void *ctx)
{
	size_t i;

	for (i = pms_idtab__start(t, hash); t->slots[i]; i = pms_idtab__next(t, i))
		if (pms_idtab__hash(t, i) == hash && eq(ctx, pms_idtab__id(t, i)))
			break;
	return i;
}

void pms_idtab__release(struct pms_idtab *t);

#endif
