/* SPDX-License-Identifier: MIT */
/*
 * Accounting of what a recording lost or had throttled, from the records
 * the kernel writes about it.
 *
 * Invariants: totals only grow; lost events are summed per event id (the id
 * in PERF_RECORD_LOST, i.e. the ring owner's id) in a small growable table
 * owned by the stats object; pms_ring_stats__exit() frees it and accepts a
 * zeroed struct. A zeroed struct is a valid empty one.
 */
#ifndef PMS_RING_STATS_H
#define PMS_RING_STATS_H

#include <stddef.h>
#include <stdint.h>

#include "ring/record.h"

struct pms_lost_by_id {
	uint64_t id;
	uint64_t lost;
};

struct pms_ring_stats {
	uint64_t nr_records;        /* every record accounted */
	uint64_t nr_samples;
	uint64_t nr_lost_records;   /* PERF_RECORD_LOST records */
	uint64_t nr_lost_events;    /* sum of their `lost` counts (ring full) */
	uint64_t nr_lost_samples;   /* sum of PERF_RECORD_LOST_SAMPLES (PMU/kernel dropped) */
	uint64_t nr_throttle;
	uint64_t nr_unthrottle;
	uint64_t nr_unknown;        /* records of types we could not decode */
	struct pms_lost_by_id *lost_by_id;
	size_t nr_ids;
	size_t cap_ids;
};

/* Account one decoded record. -ENOMEM only if the per-id table cannot grow. */
int pms_ring_stats__account(struct pms_ring_stats *st, const struct pms_record *rec);

/* Lost events reported for this id (0 if none). */
uint64_t pms_ring_stats__lost_for_id(const struct pms_ring_stats *st, uint64_t id);

/*
 * Percentage of samples lost as perf reports it: lost / (samples + lost),
 * counting both LOST events and LOST_SAMPLES; 0 when nothing happened.
 */
double pms_ring_stats__lost_pct(const struct pms_ring_stats *st);

void pms_ring_stats__exit(struct pms_ring_stats *st);

#endif
