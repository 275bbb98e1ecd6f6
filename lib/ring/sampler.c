// SPDX-License-Identifier: MIT
// Sampling events through their per-CPU rings: open, map, and drain records with the decoding of the event that wrote them.
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "perf_event/mmap.h"
#include "ring/ring.h"
#include "ring/sample.h"
#include "ring/sampler.h"

struct sampler_ring {
	struct pms_mmap map;
	struct pms_ring ring;
	uint64_t prev_head;      /* overwrite rings: data_head at the last read */
	bool read_before;
};

/* Records of one overwrite ring, copied newest first, handed over oldest first. */
struct backward_copy {
	unsigned char **recs;
	size_t nr, cap;
	bool oom;
};

struct event_ids {
	uint64_t *ids;
	size_t nr;
};

struct id_event {
	uint64_t id;
	size_t event;
};

struct pms_sampler {
	struct pms_counters *cs;
	struct sampler_ring *rings;
	size_t nr_rings;
	struct pollfd *pfds;
	int *fds;
	size_t nr_fds;
	struct event_ids *ev_ids;         /* per event */
	struct pms_decode_cfg cfg;        /* the first event's */
	struct pms_decode_cfg *cfgs;      /* per event, when their layouts differ */
	struct id_event *by_id;           /* sorted by id, when they differ */
	size_t nr_by_id;
	struct pms_ring_stats st;
	/* the pass in progress */
	pms_sampler_record_fn fn;
	void *arg;
	uint64_t pass_records;
	bool stop;
	bool overwrite;                   /* write_backward events: flight-recorder rings */
};

static bool same_layout(const struct pms_decode_cfg *a, const struct pms_decode_cfg *b)
{
	return a->sample_type == b->sample_type && a->read_format == b->read_format &&
	       a->branch_sample_type == b->branch_sample_type && a->sample_regs_user == b->sample_regs_user &&
	       a->sample_regs_intr == b->sample_regs_intr && a->sample_id_all == b->sample_id_all;
}

static int cmp_id(const void *a, const void *b)
{
	const struct id_event *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

static void fail(struct pms_sampler_error *e, int step, int err, int event, int cpu, const char *msg)
{
	if (!e)
		return;
	e->step = step;
	e->err = err;
	e->event = event;
	e->cpu = cpu;
	snprintf(e->msg, sizeof(e->msg), "%s", msg);
}

/* The list gets what was opened; every fd and id is collected per event. */
static int collect(struct pms_sampler *s, struct pms_evlist *list, struct pms_sampler_error *err)
{
	struct pms_counters *cs = s->cs;
	size_t slots = pms_counters__nr_slots(cs);

	s->fds = calloc(cs->nr * slots + 1, sizeof(*s->fds));
	s->ev_ids = calloc(cs->nr + 1, sizeof(*s->ev_ids));
	if (!s->fds || !s->ev_ids)
		return -ENOMEM;
	for (size_t e = 0; e < cs->nr; e++) {
		const struct pms_counter *c = &cs->c[e];
		struct event_ids *ei = &s->ev_ids[e];

		if (c->state != PMS_COUNTER_OK) {
			fail(err, PMS_SAMPLER_E_OPEN, c->open_err ? c->open_err : -EINVAL, (int)e, c->open_cpu, c->reason);
			return err ? err->err : -EINVAL;
		}
		list->entries[e].attr = c->attr;
		if (strcmp(list->entries[e].name, c->name)) {
			char *name = strdup(c->name);

			if (!name)
				return -ENOMEM;
			free(list->entries[e].name);
			list->entries[e].name = name;
		}
		ei->ids = calloc(slots, sizeof(*ei->ids));
		if (!ei->ids)
			return -ENOMEM;
		for (size_t k = 0; k < slots; k++)
			if (c->fds[k] >= 0) {
				s->fds[s->nr_fds++] = c->fds[k];
				ei->ids[ei->nr++] = c->ids[k];
			}
	}
	return 0;
}

/* Records of events laid out differently are decoded by the attr their id names. */
static int index_layouts(struct pms_sampler *s, const struct pms_evlist *list)
{
	bool mixed = false;

	pms_decode_cfg__from_attr(&s->cfg, &list->entries[0].attr);
	s->cfgs = calloc(list->nr, sizeof(*s->cfgs));
	if (!s->cfgs)
		return -ENOMEM;
	for (size_t e = 0; e < list->nr; e++) {
		pms_decode_cfg__from_attr(&s->cfgs[e], &list->entries[e].attr);
		mixed |= !same_layout(&s->cfgs[e], &s->cfg);
	}
	if (!mixed)
		return 0;
	s->by_id = calloc(s->nr_fds + 1, sizeof(*s->by_id));
	if (!s->by_id)
		return -ENOMEM;
	for (size_t e = 0; e < list->nr; e++)
		for (size_t k = 0; k < s->ev_ids[e].nr; k++)
			s->by_id[s->nr_by_id++] = (struct id_event){ .id = s->ev_ids[e].ids[k], .event = e };
	qsort(s->by_id, s->nr_by_id, sizeof(*s->by_id), cmp_id);
	return 0;
}

static int map_rings(struct pms_sampler *s, unsigned pages, struct pms_sampler_error *err)
{
	size_t nr_cpus = s->cs->nr_cpus;
	struct pms_mmap *maps = calloc(nr_cpus, sizeof(*maps));
	int bad_cpu = -1, ret;

	s->rings = calloc(nr_cpus, sizeof(*s->rings));
	s->pfds = calloc(nr_cpus, sizeof(*s->pfds));
	if (!maps || !s->rings || !s->pfds) {
		free(maps);
		return -ENOMEM;
	}
	int map_ret = pms_counters__map_rings(s->cs, pages, maps, &bad_cpu);

	ret = 0;
	for (size_t c = 0; c < nr_cpus; c++) {
		struct sampler_ring *r;

		if (!maps[c].base)
			continue;
		r = &s->rings[s->nr_rings++];
		r->map = maps[c];
		s->pfds[s->nr_rings - 1] = (struct pollfd){ .fd = r->map.fd, .events = POLLIN };
		if (!ret && !map_ret)
			ret = pms_ring__init_mmap(&r->ring, &r->map);
	}
	free(maps);
	if (map_ret) {
		char buf[256];

		/* EPERM and ENOMEM of mmap are the locked-memory limit: say which knob */
		if (map_ret == -EPERM || map_ret == -ENOMEM)
			pms_mmap__error_reason(map_ret, pages, buf, sizeof(buf));
		else
			snprintf(buf, sizeof(buf), "%s", strerror(-map_ret));
		fail(err, PMS_SAMPLER_E_MAP, map_ret, -1, map_ret == -EPERM || map_ret == -ENOMEM ? -1 : bad_cpu, buf);
		return map_ret;
	}
	return ret;
}

int pms_sampler__open(struct pms_evlist *list, const int *cpus, size_t nr_cpus, const pid_t *threads,
		      size_t nr_threads, unsigned data_pages, struct pms_sampler **out, struct pms_sampler_error *err)
{
	struct pms_counter_opts copts = { .sampling = true };
	struct pms_counter_error cerr;
	struct pms_sampler *s;
	int ret;

	*out = NULL;
	if (err)
		err->msg[0] = 0;
	if (!list->nr)
		return -EINVAL;
	if (!data_pages && pms_mmap__default_pages(&data_pages))
		data_pages = 128;
	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	s->overwrite = list->entries[0].attr.write_backward;
	s->cs = pms_counters__new(list, cpus, nr_cpus, threads, nr_threads, &copts);
	if (!s->cs) {
		ret = -errno;
		goto out;
	}
	ret = pms_counters__open(s->cs, &copts, &cerr);
	if (ret == -ESRCH) {
		fail(err, PMS_SAMPLER_E_GONE, ret, -1, -1, "every thread of the target exited before sampling started");
		goto out;
	}
	if (ret) {
		fail(err, PMS_SAMPLER_E_OPEN, ret, cerr.idx, cerr.cpu, cerr.msg);
		goto out;
	}
	ret = collect(s, list, err);
	if (!ret)
		ret = index_layouts(s, list);
	if (!ret)
		ret = map_rings(s, data_pages, err);
out:
	if (ret) {
		if (err && !err->msg[0])
			fail(err, PMS_SAMPLER_E_OPEN, ret, -1, -1, strerror(-ret));
		pms_sampler__free(s);
		return ret;
	}
	*out = s;
	return 0;
}

void pms_sampler__free(struct pms_sampler *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->nr_rings; i++) {
		pms_ring__exit(&s->rings[i].ring);
		pms_mmap__unmap(&s->rings[i].map);
	}
	for (size_t e = 0; s->ev_ids && e < s->cs->nr; e++)
		free(s->ev_ids[e].ids);
	free(s->ev_ids);
	pms_counters__free(s->cs);
	free(s->rings);
	free(s->pfds);
	free(s->fds);
	free(s->cfgs);
	free(s->by_id);
	pms_ring_stats__exit(&s->st);
	free(s);
}

const uint64_t *pms_sampler__ids(const struct pms_sampler *s, size_t e, size_t *nr)
{
	*nr = e < s->cs->nr ? s->ev_ids[e].nr : 0;
	return *nr ? s->ev_ids[e].ids : NULL;
}

const int *pms_sampler__fds(const struct pms_sampler *s, size_t *nr)
{
	*nr = s->nr_fds;
	return s->fds;
}

struct pms_counters *pms_sampler__counters(struct pms_sampler *s)
{
	return s->cs;
}

int pms_sampler__set_filter(struct pms_sampler *s, size_t e, const char *filter)
{
	const struct pms_counter *c;
	size_t slots = pms_counters__nr_slots(s->cs);

	if (e >= s->cs->nr)
		return -EINVAL;
	c = &s->cs->c[e];
	for (size_t k = 0; k < slots; k++) {
		int err = c->fds[k] < 0 ? 0 : pms_perf_fd__set_filter(c->fds[k], filter);

		if (err)
			return err;
	}
	return 0;
}

int pms_sampler__enable(struct pms_sampler *s)
{
	return pms_counters__enable(s->cs);
}

int pms_sampler__disable(struct pms_sampler *s)
{
	return pms_counters__disable(s->cs);
}

int pms_sampler__wait(struct pms_sampler *s, int timeout_ms, const sigset_t *mask)
{
	struct timespec ts = { .tv_sec = timeout_ms / 1000, .tv_nsec = (long)(timeout_ms % 1000) * 1000000L };
	/* an overwrite ring is never drained while it runs: its wake-ups mean nothing */
	int n = ppoll(s->overwrite ? NULL : s->pfds, s->overwrite ? 0 : s->nr_rings, timeout_ms < 0 ? NULL : &ts, mask);

	return n < 0 ? -errno : n;
}

/* The decoding of the event that wrote h: the first event's unless the layouts differ. */
static const struct pms_decode_cfg *cfg_of(const struct pms_sampler *s, const struct perf_event_header *h)
{
	struct id_event key, *found;

	if (!s->by_id || pms_record__peek_id(h, h->size, true, &key.id))
		return &s->cfg;
	found = bsearch(&key, s->by_id, s->nr_by_id, sizeof(*s->by_id), cmp_id);
	return found ? &s->cfgs[found->event] : &s->cfg;
}

static int on_record(const struct perf_event_header *h, void *arg)
{
	struct pms_sampler *s = arg;
	struct pms_record dec;
	size_t off;
	bool decoded = pms_record__decode(cfg_of(s, h), h, h->size, &dec, &off) == 0;

	if (decoded)
		pms_ring_stats__account(&s->st, &dec);
	s->pass_records++;
	if (s->fn(h, decoded ? &dec : NULL, s->arg))
		s->stop = true;
	return s->stop;
}

static int keep_copy(const struct perf_event_header *h, void *arg)
{
	struct backward_copy *bc = arg;
	unsigned char *c;

	if (bc->nr == bc->cap) {
		size_t cap = bc->cap ? bc->cap * 2 : 256;
		unsigned char **recs = realloc(bc->recs, cap * sizeof(*recs));

		if (!recs) {
			bc->oom = true;
			return 1;
		}
		bc->recs = recs;
		bc->cap = cap;
	}
	c = malloc(h->size);
	if (!c) {
		bc->oom = true;
		return 1;
	}
	memcpy(c, h, h->size);
	bc->recs[bc->nr++] = c;
	return 0;
}

/*
 * An overwrite ring, paused so the kernel does not write under the reader:
 * what it wrote since the last read (at most the ring), in time order.
 */
static void read_overwrite_ring(struct pms_sampler *s, struct sampler_ring *r)
{
	struct backward_copy bc = { 0 };
	uint64_t head;

	pms_perf_fd__pause_output(r->map.fd, true);
	head = __atomic_load_n(&r->ring.meta->data_head, __ATOMIC_ACQUIRE);
	pms_ring__read_backward_max(&r->ring, r->read_before ? r->prev_head - head : r->ring.size_bytes, keep_copy, &bc);
	r->prev_head = head;
	r->read_before = true;
	pms_perf_fd__pause_output(r->map.fd, false);
	for (size_t i = bc.nr; i-- > 0;) {
		if (!s->stop)
			on_record((const struct perf_event_header *)(void *)bc.recs[i], s);
		free(bc.recs[i]);
	}
	free(bc.recs);
}

uint64_t pms_sampler__drain(struct pms_sampler *s, pms_sampler_record_fn fn, void *arg)
{
	s->fn = fn;
	s->arg = arg;
	s->pass_records = 0;
	s->stop = false;
	for (size_t i = 0; i < s->nr_rings && !s->stop; i++) {
		if (s->overwrite)
			read_overwrite_ring(s, &s->rings[i]);
		else
			pms_ring__drain(&s->rings[i].ring, on_record, s);
	}
	return s->pass_records;
}

const struct pms_ring_stats *pms_sampler__stats(const struct pms_sampler *s)
{
	return &s->st;
}
