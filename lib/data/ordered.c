// SPDX-License-Identifier: MIT
// perf's ordered-events queue: timestamped records released sorted, a round at a time, copies kept in recycled chunks.
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "data/ordered.h"
#include "util/array.h"

/*
 * Record copies live in chunks released when every record in them has been
 * popped, so memory follows the queue's length, not the file's size (a
 * 1M-sample replay keeps a few rounds of records, not all of them).
 */
struct pool_chunk {
	struct pool_chunk *next;
	size_t used, cap, live;
	char data[];
};

/* chunks start small (most files are small, and a fuzzer opens thousands) and double up to the max */
#define POOL_CHUNK_MIN (64u << 10)
#define POOL_CHUNK_BYTES (4u << 20)

struct qent {
	uint64_t time, seq, file_offset;
	const struct perf_event_header *rec;
	struct pool_chunk *chunk;
	int tag;
};

struct pms_ordered {
	struct qent *q, *tmp;
	size_t nr, cap, tmp_cap;
	size_t ready, pos;    /* q[pos..ready) are due, sorted */
	uint64_t seq;
	uint64_t max_time;    /* newest timestamp queued so far */
	uint64_t round_limit; /* max_time when the previous round ended */
	bool saw_round;
	struct pool_chunk *pool, *pool_free;
	struct pool_chunk *held; /* chunk of the record last popped */
	size_t next_chunk;       /* size of the next chunk allocated */
};

int pms_ordered__new(struct pms_ordered **out)
{
	*out = calloc(1, sizeof(**out));
	return *out ? 0 : -ENOMEM;
}

static void free_chunks(struct pool_chunk *c)
{
	while (c) {
		struct pool_chunk *n = c->next;

		free(c);
		c = n;
	}
}

void pms_ordered__free(struct pms_ordered *q)
{
	if (!q)
		return;
	free_chunks(q->pool);
	free_chunks(q->pool_free);
	free(q->q);
	free(q->tmp);
	free(q);
}

size_t pms_ordered__nr(const struct pms_ordered *q)
{
	return q->nr - q->pos;
}

static void *pool_copy(struct pms_ordered *q, const void *rec, size_t size, struct pool_chunk **chunk)
{
	struct pool_chunk *c = q->pool;
	size_t need = (size + 7) & ~(size_t)7;

	if (c && !c->live)
		c->used = 0;
	if (!c || c->cap - c->used < need) {
		if (q->pool_free && q->pool_free->cap >= need) {
			c = q->pool_free;
			q->pool_free = c->next;
		} else {
			size_t cap;

			if (q->next_chunk < POOL_CHUNK_MIN)
				q->next_chunk = POOL_CHUNK_MIN;
			cap = need > q->next_chunk ? need : q->next_chunk;
			c = malloc(sizeof(*c) + cap);
			if (!c)
				return NULL;
			c->cap = cap;
			if (q->next_chunk < POOL_CHUNK_BYTES)
				q->next_chunk *= 2;
		}
		c->used = 0;
		c->live = 0;
		c->next = q->pool;
		q->pool = c;
	}
	memcpy(c->data + c->used, rec, size);
	c->used += need;
	c->live++;
	*chunk = c;
	return c->data + c->used - need;
}

/* One record of chunk c was popped; recycle c once none is left and it is not being filled. */
static void pool_release(struct pms_ordered *q, struct pool_chunk *c)
{
	struct pool_chunk **pp;

	if (!c || --c->live || c == q->pool)
		return;
	for (pp = &q->pool; *pp && *pp != c; pp = &(*pp)->next)
		;
	if (!*pp)
		return;
	*pp = c->next;
	if (c->cap <= POOL_CHUNK_BYTES && c->cap >= POOL_CHUNK_MIN) {
		c->next = q->pool_free;
		q->pool_free = c;
	} else {
		free(c);
	}
}

int pms_ordered__push(struct pms_ordered *q, const struct perf_event_header *rec, uint64_t time_ns, int tag,
		      uint64_t file_offset)
{
	struct qent *e;

	if (q->nr == q->cap && pms_array__reserve(&q->q, &q->cap, q->nr + 1, sizeof(*q->q)))
		return -ENOMEM;
	e = &q->q[q->nr];
	e->rec = pool_copy(q, rec, rec->size, &e->chunk);
	if (!e->rec)
		return -ENOMEM;
	e->time = time_ns;
	e->seq = q->seq++;
	e->file_offset = file_offset;
	e->tag = tag;
	q->nr++;
	if (time_ns > q->max_time)
		q->max_time = time_ns;
	return 0;
}

static bool qent_le(const struct qent *x, const struct qent *y)
{
	return x->time != y->time ? x->time < y->time : x->seq <= y->seq;
}

static int qent_cmp(const void *a, const void *b)
{
	const struct qent *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/*
 * Sort q[0..nr) by (time, seq). The queue is a few long ascending runs (one
 * per CPU ring drained in a round, plus the sorted remainder of the last
 * release), so a natural merge sort costs O(n log runs), not O(n log n).
 */
static void sort_queue(struct pms_ordered *q, size_t from)
{
	struct qent *a = q->q + from, *b;
	size_t n = q->nr - from, nruns = 1;

	for (size_t i = 1; i < n; i++)
		if (!qent_le(&a[i - 1], &a[i]))
			nruns++;
	if (nruns == 1)
		return;
	if (q->tmp_cap < n) {
		struct qent *t = realloc(q->tmp, q->cap * sizeof(*t));

		if (!t) {
			qsort(a, n, sizeof(*a), qent_cmp);
			return;
		}
		q->tmp = t;
		q->tmp_cap = q->cap;
	}
	b = q->tmp;
	while (nruns > 1) {
		size_t i = 0, o = 0, merged = 0;

		while (i < n) {
			size_t m = i + 1, e;

			while (m < n && qent_le(&a[m - 1], &a[m]))
				m++;
			if (m == n) {
				memcpy(&b[o], &a[i], (n - i) * sizeof(*a));
				o = n;
				merged++;
				break;
			}
			e = m + 1;
			while (e < n && qent_le(&a[e - 1], &a[e]))
				e++;
			for (size_t x = i, y = m; x < m || y < e;) {
				if (y >= e || (x < m && qent_le(&a[x], &a[y])))
					b[o++] = a[x++];
				else
					b[o++] = a[y++];
			}
			merged++;
			i = e;
		}
		nruns = merged;
		{
			struct qent *t = a;

			a = b;
			b = t;
		}
	}
	if (a != q->q + from)
		memcpy(q->q + from, a, n * sizeof(*a));
}

/* Make the queued records with time <= limit due, oldest first, after those due already. */
static void release(struct pms_ordered *q, uint64_t limit)
{
	size_t lo, hi;

	if (q->pos) {
		memmove(q->q, q->q + q->pos, (q->nr - q->pos) * sizeof(*q->q));
		q->nr -= q->pos;
		q->ready -= q->pos;
		q->pos = 0;
	}
	/* what was released and not yet popped keeps its place: it was promised first */
	lo = q->ready;
	if (lo == q->nr)
		return;
	sort_queue(q, lo);
	hi = q->nr;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (q->q[mid].time <= limit)
			lo = mid + 1;
		else
			hi = mid;
	}
	q->ready = lo;
	q->pos = 0;
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

int pms_ordered__pop(struct pms_ordered *q, const struct perf_event_header **rec, int *tag, uint64_t *file_offset)
{
	struct qent e;

	if (q->held) {
		pool_release(q, q->held);
		q->held = NULL;
	}
	if (q->pos >= q->ready)
		return 0;
	e = q->q[q->pos++];
	if (q->pos == q->ready) {
		/* keep the records that were not yet due */
		memmove(q->q, q->q + q->ready, (q->nr - q->ready) * sizeof(*q->q));
		q->nr -= q->ready;
		q->ready = q->pos = 0;
	}
	q->held = e.chunk;
	*rec = e.rec;
	if (tag)
		*tag = e.tag;
	if (file_offset)
		*file_offset = e.file_offset;
	return 1;
}
