// SPDX-License-Identifier: MIT
// Integer key -> pointer map on the library's one hash table.
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/array.h"
#include "util/hash.h"
#include "util/ptrmap.h"

static uint32_t key_hash(int64_t key)
{
	return (uint32_t)pms_hash__mix64((uint64_t)key);
}

/* The slot of key, or the empty one where it belongs. */
static size_t slot_of(const struct pms_ptrmap *m, int64_t key, uint32_t h)
{
	size_t i;

	for (i = pms_idtab__start(&m->ids, h); pms_idtab__used(&m->ids, i); i = pms_idtab__next(&m->ids, i))
		if (pms_idtab__hash(&m->ids, i) == h && m->keys[pms_idtab__id(&m->ids, i)] == key)
			break;
	return i;
}

void *pms_ptrmap__get(const struct pms_ptrmap *m, int64_t key)
{
	size_t i;

	if (!m->ids.cap)
		return NULL;
	i = slot_of(m, key, key_hash(key));
	return pms_idtab__used(&m->ids, i) ? m->vals[pms_idtab__id(&m->ids, i)] : NULL;
}

int pms_ptrmap__put(struct pms_ptrmap *m, int64_t key, void *val)
{
	uint32_t h = key_hash(key);
	size_t i;

	if (pms_idtab__reserve(&m->ids) || pms_array__reserve(&m->keys, &m->cap_keys, m->nr + 1, sizeof(*m->keys)) ||
	    pms_array__reserve(&m->vals, &m->cap_vals, m->nr + 1, sizeof(*m->vals)))
		return -ENOMEM;
	i = slot_of(m, key, h);
	if (pms_idtab__used(&m->ids, i)) {
		m->vals[pms_idtab__id(&m->ids, i)] = val;
		return 0;
	}
	pms_idtab__set(&m->ids, i, h, (uint32_t)m->nr);
	m->keys[m->nr] = key;
	m->vals[m->nr++] = val;
	return 0;
}

size_t pms_ptrmap__nr(const struct pms_ptrmap *m)
{
	return m->nr;
}

void pms_ptrmap__release(struct pms_ptrmap *m)
{
	pms_idtab__release(&m->ids);
	free(m->keys);
	free(m->vals);
	memset(m, 0, sizeof(*m));
}
