/* SPDX-License-Identifier: MIT */
/*
 * Bounds-checked reading of an untrusted record (internal to lib/ring).
 *
 * Invariants: off <= end always; every getter checks the length first and
 * on failure records the offending offset in err_off and returns -EINVAL
 * without moving. Scalars are read with memcpy (any alignment); arrays are
 * returned as pointers and must be 8-byte aligned in memory.
 */
#ifndef PMS_RING_CURSOR_H
#define PMS_RING_CURSOR_H

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct pms_cursor {
	const unsigned char *base;
	size_t off;
	size_t end;
	size_t err_off;
};

static inline void pms_cursor__init(struct pms_cursor *c, const void *base, size_t off, size_t end)
{
	c->base = base;
	c->off = off;
	c->end = end;
	c->err_off = 0;
}

static inline size_t pms_cursor__left(const struct pms_cursor *c)
{
	return c->end - c->off;
}

static inline int pms_cursor__fail(struct pms_cursor *c, size_t at)
{
	c->err_off = at;
	return -EINVAL;
}

static inline int pms_cursor__bytes(struct pms_cursor *c, uint64_t len, const void **out)
{
	if (len > pms_cursor__left(c))
		return pms_cursor__fail(c, c->off);
	*out = c->base + c->off;
	c->off += (size_t)len;
	return 0;
}

static inline int pms_cursor__copy(struct pms_cursor *c, void *dst, size_t len)
{
	if (len > pms_cursor__left(c))
		return pms_cursor__fail(c, c->off);
	memcpy(dst, c->base + c->off, len);
	c->off += len;
	return 0;
}

static inline int pms_cursor__u64(struct pms_cursor *c, uint64_t *v)
{
	return pms_cursor__copy(c, v, sizeof(*v));
}

static inline int pms_cursor__u32(struct pms_cursor *c, uint32_t *v)
{
	return pms_cursor__copy(c, v, sizeof(*v));
}

static inline int pms_cursor__u16(struct pms_cursor *c, uint16_t *v)
{
	return pms_cursor__copy(c, v, sizeof(*v));
}

static inline int pms_cursor__u64_array(struct pms_cursor *c, uint64_t nr, const uint64_t **out)
{
	const void *p;

	/* An empty array has no alignment to keep (and nothing to point to). */
	if (!nr) {
		*out = NULL;
		return 0;
	}
	if (nr > pms_cursor__left(c) / 8)
		return pms_cursor__fail(c, c->off);
	if ((uintptr_t)(c->base + c->off) % 8)
		return pms_cursor__fail(c, c->off);
	if (pms_cursor__bytes(c, nr * 8, &p))
		return -EINVAL;
	*out = p;
	return 0;
}

#endif
