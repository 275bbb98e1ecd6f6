/* SPDX-License-Identifier: MIT */
/*
 * Reader over a mapped perf_event ring buffer (see docs/ring.md).
 *
 * Invariants:
 *  - data_head is read once per pass with acquire semantics (no record byte
 *    is read before the head that covers it); data_tail is written with
 *    release semantics only after every record below it has been consumed,
 *    so the kernel never overwrites a record we still point into.
 *  - A record handed out by pms_ring__next() is valid until the next call
 *    of pms_ring__next() or pms_ring__done() on that ring: it points either
 *    into the mapping or, for a record split by the wrap-around, into the
 *    ring's scratch buffer, which the next split record overwrites.
 *    Records are 8-byte aligned in both cases.
 *  - The reader trusts nothing it reads: a header with size < 8, or that
 *    runs past data_head, ends the pass with -EBADMSG and the whole pass is
 *    discarded (tail jumps to head), counted in nr_bad_bytes.
 *  - Not thread-safe; one reader per ring.
 */
#ifndef PMS_RING_RING_H
#define PMS_RING_RING_H

#include <linux/perf_event.h>
#include <stddef.h>
#include <stdint.h>

struct pms_mmap;

struct pms_ring {
	struct perf_event_mmap_page *meta;
	const unsigned char *data;   /* first data byte */
	uint64_t size_bytes;         /* power of two */
	uint64_t head;               /* snapshot taken by pms_ring__start() */
	uint64_t tail;               /* read position within this pass */
	unsigned char *scratch;      /* holds records split by the wrap-around */
	/* Totals over the ring's life. */
	uint64_t nr_bytes;
	uint64_t nr_records;
	uint64_t nr_wrapped;         /* records copied because they straddled the end */
	uint64_t nr_bad_bytes;       /* discarded after a malformed header */
};

/*
 * Set up a reader over raw ring memory: base is the metadata page,
 * page_size its size, data_size the data area (power of two, >= 8). The
 * metadata page's data_offset/data_size take precedence when non-zero, as
 * the kernel fills them. Works on any memory laid out like a mapping, which
 * is how the unit tests build synthetic rings. -EINVAL on bad sizes,
 * -ENOMEM if the scratch buffer cannot be allocated.
 */
int pms_ring__init(struct pms_ring *r, void *base, size_t page_size, size_t data_size);

/* Reader over a pms_mmap__map() mapping. */
int pms_ring__init_mmap(struct pms_ring *r, const struct pms_mmap *m);

/* Frees the scratch buffer; accepts zeroed and half-built rings. */
void pms_ring__exit(struct pms_ring *r);

/*
 * Start a read pass: snapshot data_head (acquire). Returns the number of
 * unread bytes (0 if empty); a head more than the ring size ahead of the
 * tail (kernel bug or foreign writer) gives -EBADMSG after discarding.
 */
int64_t pms_ring__start(struct pms_ring *r);

/*
 * Next record of the pass: 1 and *out set, 0 at the end of the pass, or
 * -EBADMSG on a malformed header (the pass is then discarded).
 */
int pms_ring__next(struct pms_ring *r, const struct perf_event_header **out);

/* End the pass: publish data_tail (release) so the kernel may reuse the space. */
void pms_ring__done(struct pms_ring *r);

/* Called for each record; a non-zero return stops the drain and is returned. */
typedef int (*pms_ring_record_fn)(const struct perf_event_header *rec, void *arg);

/*
 * Drain everything available now: start, call fn for each record, done.
 * Records already handed to fn are consumed even if fn stops the drain.
 * Returns the number of records (>= 0), fn's non-zero value, or -EBADMSG.
 * Poll-friendly: call it after poll(2) reports POLLIN on the event fd.
 */
int64_t pms_ring__drain(struct pms_ring *r, pms_ring_record_fn fn, void *arg);

/*
 * Read an overwrite ring (pms_mmap__map_overwrite, attr.write_backward)
 * newest record first, without consuming anything: the caller pauses the
 * output first (pms_perf_fd__pause_output) so the kernel does not write
 * underneath. Walks from data_head towards older records and stops at a
 * never-written (zero-size) header, at the record the ring has partly
 * overwritten, or after one ring's worth of bytes. Records handed to fn
 * live until fn returns. Returns the number of records, fn's non-zero
 * value, or -EBADMSG for a header that cannot be (size 1..7).
 */
int64_t pms_ring__read_backward(struct pms_ring *r, pms_ring_record_fn fn, void *arg);

/*
 * pms_ring__read_backward() over at most max_bytes from data_head: the
 * records written since an earlier read whose data_head was
 * data_head + max_bytes (the kernel's head moves down in an overwrite ring).
 */
int64_t pms_ring__read_backward_max(struct pms_ring *r, uint64_t max_bytes, pms_ring_record_fn fn, void *arg);

#endif
