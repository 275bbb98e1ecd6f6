// SPDX-License-Identifier: MIT
// perf's ordered-events queue: timestamped records released sorted, a round at a time.
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "data/ordered.h"

struct qent {
	uint64_t time, seq;
	void *rec;
	int tag;
};

struct pms_ordered {
	struct qent *q;
	size_t nr, cap;
	size_t due, pos;      /* q[pos..due) are released and sorted */
	bool sorted;          /* q[0..nr) is in (time, seq) order */
	uint64_t seq;
	uint64_t max_time;    /* newest timestamp queued so far */
	uint64_t round_limit; /* max_time when the previous round ended */
	bool saw_round;
	void *held;           /* the record last popped, freed at the next pop */
};

int pms_ordered__new(struct pms_ordered **out)
{
	*out = calloc(1, sizeof(**out));
	if (!*out)
		return -ENOMEM;
	(*out)->sorted = true;
	return 0;
}

void pms_ordered__free(struct pms_ordered *q)
{
	if (!q)
		return;
	for (size_t i = q->pos; i < q->nr; i++)
		free(q->q[i].rec);
	free(q->q);
	free(q->held);
	free(q);
}

size_t pms_ordered__nr(const struct pms_ordered *q)
{
	return q->nr - q->pos;
}

int pms_ordered__push(struct pms_ordered *q, const struct perf_event_header *rec, uint64_t time_ns, int tag)
{
	struct qent *e;

	if (q->pos == q->nr && q->pos) {
		q->nr = q->pos = q->due = 0;
		q->sorted = true;
	}
	if (q->nr == q->cap) {
		size_t ncap = q->cap ? 2 * q->cap : 1024;
		struct qent *n = realloc(q->q, ncap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		q->q = n;
		q->cap = ncap;
	}
	e = &q->q[q->nr];
	e->rec = malloc(rec->size);
	if (!e->rec)
		return -ENOMEM;
	memcpy(e->rec, rec, rec->size);
	e->time = time_ns;
	e->seq = q->seq++;
	e->tag = tag;
	if (q->nr > q->due && time_ns < q->q[q->nr - 1].time)
		q->sorted = false;
	q->nr++;
	if (time_ns > q->max_time)
		q->max_time = time_ns;
	return 0;
}

static int qent_cmp(const void *a, const void *b)
{
	const struct qent *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Make the queued records with time <= limit due. */
static void release(struct pms_ordered *q, uint64_t limit)
{
	size_t lo, hi;

	/* the ones already due stay first: move the rest behind them, sorted */
	if (q->pos) {
		memmove(q->q, q->q + q->pos, (q->nr - q->pos) * sizeof(*q->q));
		q->nr -= q->pos;
		q->due -= q->pos;
		q->pos = 0;
	}
	if (!q->sorted) {
		qsort(q->q + q->due, q->nr - q->due, sizeof(*q->q), qent_cmp);
		q->sorted = true;
	}
	lo = q->due;
	hi = q->nr;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (q->q[mid].time <= limit)
			lo = mid + 1;
		else
			hi = mid;
	}
	q->due = lo;
}

void pms_ordered__round(struct pms_ordered *q)
{
	/* perf's rule: flush what the previous round had seen, keep the rest for the next */
	uint64_t limit = q->round_limit;

	q->round_limit = q->max_time;
	if (q->saw_round)
		release(q, limit);
	q->saw_round = true;
}

void pms_ordered__flush_all(struct pms_ordered *q)
{
	release(q, UINT64_MAX);
}

int pms_ordered__pop(struct pms_ordered *q, const struct perf_event_header **rec, int *tag)
{
	free(q->held);
	q->held = NULL;
	if (q->pos >= q->due)
		return 0;
	q->held = q->q[q->pos].rec;
	*rec = q->held;
	if (tag)
		*tag = q->q[q->pos].tag;
	q->pos++;
	return 1;
}
