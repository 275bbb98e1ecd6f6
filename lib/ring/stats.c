/* SPDX-License-Identifier: MIT */
/* Summing LOST, LOST_SAMPLES and THROTTLE records into per-recording totals. */
#include "ring/stats.h"
#include "util/array.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static int add_lost(struct pms_ring_stats *st, uint64_t id, uint64_t lost)
{
	size_t i;

	for (i = 0; i < st->nr_ids; i++) {
		if (st->lost_by_id[i].id == id) {
			st->lost_by_id[i].lost += lost;
			return 0;
		}
	}
	if (pms_array__reserve(&st->lost_by_id, &st->cap_ids, st->nr_ids + 1, sizeof(*st->lost_by_id)))
		return -ENOMEM;
	st->lost_by_id[st->nr_ids].id = id;
	st->lost_by_id[st->nr_ids].lost = lost;
	st->nr_ids++;
	return 0;
}

int pms_ring_stats__account(struct pms_ring_stats *st, const struct pms_record *rec)
{
	st->nr_records++;
	if (!rec->known) {
		st->nr_unknown++;
		return 0;
	}
	switch (rec->type) {
	case PERF_RECORD_SAMPLE:
		st->nr_samples++;
		break;
	case PERF_RECORD_LOST:
		st->nr_lost_records++;
		st->nr_lost_events += rec->lost.lost;
		return add_lost(st, rec->lost.id, rec->lost.lost);
	case PERF_RECORD_LOST_SAMPLES:
		st->nr_lost_samples += rec->lost_samples.lost;
		break;
	case PERF_RECORD_THROTTLE:
		st->nr_throttle++;
		break;
	case PERF_RECORD_UNTHROTTLE:
		st->nr_unthrottle++;
		break;
	default:
		break;
	}
	return 0;
}

uint64_t pms_ring_stats__lost_for_id(const struct pms_ring_stats *st, uint64_t id)
{
	size_t i;

	for (i = 0; i < st->nr_ids; i++)
		if (st->lost_by_id[i].id == id)
			return st->lost_by_id[i].lost;
	return 0;
}

double pms_ring_stats__lost_pct(const struct pms_ring_stats *st)
{
	double lost = (double)st->nr_lost_events + (double)st->nr_lost_samples;
	double total = lost + (double)st->nr_samples;

	return total > 0 ? 100.0 * lost / total : 0.0;
}

void pms_ring_stats__exit(struct pms_ring_stats *st)
{
	if (!st)
		return;
	free(st->lost_by_id);
	st->lost_by_id = NULL;
	st->nr_ids = st->cap_ids = 0;
}
