/* SPDX-License-Identifier: MIT */
/* Reading records out of a perf_event ring buffer with the kernel's memory ordering. */
#include "ring/ring.h"

#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "perf_event/mmap.h"

/* header.size is a u16, so no record is larger than this. */
#define MAX_RECORD_BYTES 65536

int pms_ring__init(struct pms_ring *r, void *base, size_t page_size, size_t data_size)
{
	struct perf_event_mmap_page *meta = base;
	uint64_t off = page_size, size = data_size;

	memset(r, 0, sizeof(*r));
	if (!base)
		return -EINVAL;
	if (meta->data_offset && meta->data_size) {
		off = meta->data_offset;
		size = meta->data_size;
	}
	/* The data area never overlaps the metadata fields the kernel updates. */
	if (size < 8 || (size & (size - 1)) || off < offsetof(struct perf_event_mmap_page, __reserved) ||
	    off % 8)
		return -EINVAL;
	r->scratch = malloc(MAX_RECORD_BYTES);
	if (!r->scratch)
		return -ENOMEM;
	r->meta = meta;
	r->data = (const unsigned char *)base + off;
	r->size_bytes = size;
	/* Resume where a previous reader stopped. */
	r->tail = r->head = __atomic_load_n(&meta->data_tail, __ATOMIC_RELAXED);
	return 0;
}

int pms_ring__init_mmap(struct pms_ring *r, const struct pms_mmap *m)
{
	const unsigned char *base;
	int err;

	if (!m || !m->base) {
		memset(r, 0, sizeof(*r));
		return -EINVAL;
	}
	err = pms_ring__init(r, m->base, m->page_size_bytes,
			     (size_t)m->nr_data_pages * m->page_size_bytes);
	if (err)
		return err;
	/* Trust the metadata page's data_offset/data_size only inside the mapping. */
	base = m->base;
	if (r->data < base || (uint64_t)(r->data - base) + r->size_bytes > m->len_bytes) {
		pms_ring__exit(r);
		return -EINVAL;
	}
	return 0;
}

void pms_ring__exit(struct pms_ring *r)
{
	if (!r)
		return;
	free(r->scratch);
	r->scratch = NULL;
}

static void discard(struct pms_ring *r)
{
	r->nr_bad_bytes += r->head - r->tail;
	r->tail = r->head;
	pms_ring__done(r);
}

int64_t pms_ring__start(struct pms_ring *r)
{
	/*
	 * Acquire pairs with the kernel's store of data_head after writing the
	 * records (smp_store_release in perf_output_put_handle): bytes below
	 * head are visible once we see head.
	 */
	r->head = __atomic_load_n(&r->meta->data_head, __ATOMIC_ACQUIRE);
	if (r->head - r->tail > r->size_bytes) {
		discard(r);
		return -EBADMSG;
	}
	return (int64_t)(r->head - r->tail);
}

static void copy_out(const struct pms_ring *r, uint64_t pos, void *dst, size_t len)
{
	uint64_t off = pos & (r->size_bytes - 1);
	size_t first = len;

	if (off + len > r->size_bytes)
		first = (size_t)(r->size_bytes - off);
	memcpy(dst, r->data + off, first);
	if (first < len)
		memcpy((unsigned char *)dst + first, r->data, len - first);
}

int pms_ring__next(struct pms_ring *r, const struct perf_event_header **out)
{
	struct perf_event_header hdr;
	uint64_t avail = r->head - r->tail, off;

	if (!avail)
		return 0;
	if (avail < sizeof(hdr)) {
		discard(r);
		return -EBADMSG;
	}
	copy_out(r, r->tail, &hdr, sizeof(hdr));
	if (hdr.size < sizeof(hdr) || hdr.size > avail) {
		discard(r);
		return -EBADMSG;
	}
	off = r->tail & (r->size_bytes - 1);
	if (off + hdr.size > r->size_bytes) {
		copy_out(r, r->tail, r->scratch, hdr.size);
		*out = (const struct perf_event_header *)(void *)r->scratch;
		r->nr_wrapped++;
	} else {
		*out = (const struct perf_event_header *)(const void *)(r->data + off);
	}
	r->tail += hdr.size;
	r->nr_bytes += hdr.size;
	r->nr_records++;
	return 1;
}

void pms_ring__done(struct pms_ring *r)
{
	/*
	 * Release orders our reads of the records before the kernel sees the
	 * space as free (it reads data_tail with smp_load_acquire / a full
	 * barrier before overwriting).
	 */
	__atomic_store_n(&r->meta->data_tail, r->tail, __ATOMIC_RELEASE);
}

int64_t pms_ring__read_backward(struct pms_ring *r, pms_ring_record_fn fn, void *arg)
{
	return pms_ring__read_backward_max(r, r->size_bytes, fn, arg);
}

int64_t pms_ring__read_backward_max(struct pms_ring *r, uint64_t max_bytes, pms_ring_record_fn fn, void *arg)
{
	struct perf_event_header hdr;
	uint64_t head, pos;
	int64_t n = 0;
	int ret;

	if (max_bytes > r->size_bytes)
		max_bytes = r->size_bytes;
	head = __atomic_load_n(&r->meta->data_head, __ATOMIC_ACQUIRE);
	for (pos = head; pos - head < max_bytes; pos += hdr.size) {
		copy_out(r, pos, &hdr, sizeof(hdr));
		if (!hdr.size)
			break;          /* the ring has not been filled this far yet */
		if (hdr.size < sizeof(hdr))
			return -EBADMSG;
		if (pos - head + hdr.size > max_bytes)
			break;          /* the oldest record, partly overwritten (or read before) */
		copy_out(r, pos, r->scratch, hdr.size);
		n++;
		r->nr_records++;
		r->nr_bytes += hdr.size;
		ret = fn ? fn((const struct perf_event_header *)(void *)r->scratch, arg) : 0;
		if (ret)
			return ret;
	}
	return n;
}

int64_t pms_ring__drain(struct pms_ring *r, pms_ring_record_fn fn, void *arg)
{
	const struct perf_event_header *rec;
	int64_t n = 0, avail;
	int ret;

	avail = pms_ring__start(r);
	if (avail <= 0)
		return avail;
	while ((ret = pms_ring__next(r, &rec)) == 1) {
		n++;
		ret = fn ? fn(rec, arg) : 0;
		if (ret) {
			pms_ring__done(r);
			return ret;
		}
	}
	if (ret < 0)
		return ret;
	pms_ring__done(r);
	return n;
}
