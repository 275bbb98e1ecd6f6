/* SPDX-License-Identifier: MIT */
/*
 * perf's ordered events, for replaying a perf.data file in the order perf
 * delivers its records: a record with a timestamp waits in a queue; a
 * FINISHED_ROUND releases, sorted by (time, arrival), the queued records no
 * later than the newest timestamp seen before the previous round; the end
 * of input releases the rest. Records without a timestamp (time 0 or
 * unknown) are not queued: the caller handles them at once, as perf does.
 *
 * Invariants: records are copied in (the reader's buffer may move on) into
 * chunks recycled once all their records are popped, so memory follows the
 * queue, not the file; equal timestamps keep their arrival order; sorting
 * is a natural merge (the queue is a few ascending runs, one per CPU ring);
 * a popped record stays valid until the next pop or __free(). Nothing
 * prints; 0 or -errno.
 */
#ifndef PMS_DATA_ORDERED_H
#define PMS_DATA_ORDERED_H

#include <linux/perf_event.h>
#include <stddef.h>
#include <stdint.h>

struct pms_ordered;

int pms_ordered__new(struct pms_ordered **out);
void pms_ordered__free(struct pms_ordered *q);
/* Queue a copy of rec (header.size bytes) with its timestamp, a caller tag (an attr index) and its file offset. */
int pms_ordered__push(struct pms_ordered *q, const struct perf_event_header *rec, uint64_t time_ns, int tag,
		      uint64_t file_offset);
/* A FINISHED_ROUND was read. */
void pms_ordered__round(struct pms_ordered *q);
/* The input ended: everything queued becomes due. */
void pms_ordered__flush_all(struct pms_ordered *q);
/* The next due record: 1 with *rec, *tag and *file_offset (each optional) set, 0 when none is due. */
int pms_ordered__pop(struct pms_ordered *q, const struct perf_event_header **rec, int *tag, uint64_t *file_offset);
/* Records queued and not yet popped. */
size_t pms_ordered__nr(const struct pms_ordered *q);

#endif
