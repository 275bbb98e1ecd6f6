// SPDX-License-Identifier: MIT
// Marks the objects under sampled IPs and call chains, so record writes build-ids only for them.
#include <linux/perf_event.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "record_hits.h"

struct hit_map {
	uint64_t start, end;
	uint32_t obj;
};

struct hit_proc {
	uint32_t pid;
	bool used;
	struct hit_map *maps;
	size_t nr, cap;
	size_t last; /* index of the last map hit, for runs of IPs in one object */
};

struct hit_obj {
	char *name;
	bool hit, kernel;
	uint64_t start, end; /* modules only */
};

enum { P_EMPTY, P_WAITING, P_RETRIED, P_RESOLVED };

struct pending {
	uint64_t ip;
	uint32_t pid;
	uint8_t state; /* P_*; P_RESOLVED entries stay as tombstones */
};

/* Bound on remembered unresolved user addresses (16 B each). */
#define PENDING_MAX (1u << 20)

struct rec_hits {
	struct pending *pending; /* open addressing on (pid, ip) */
	size_t nr_pending, cap_pending; /* used slots (tombstones included) */
	size_t nr_waiting;              /* P_WAITING entries */
	struct hit_obj *objs;
	size_t nr_objs, cap_objs;
	size_t nr_modules;
	struct hit_proc *procs; /* open addressing on pid, power-of-two size */
	size_t nr_procs, cap_procs;
	struct hit_proc *last_proc;
};

static size_t add_obj(struct rec_hits *h, const char *name, bool kernel)
{
	if (h->nr_objs == h->cap_objs) {
		h->cap_objs = h->cap_objs ? 2 * h->cap_objs : 32;
		h->objs = xrealloc(h->objs, h->cap_objs * sizeof(*h->objs));
	}
	memset(&h->objs[h->nr_objs], 0, sizeof(h->objs[0]));
	h->objs[h->nr_objs].name = xstrdup(name);
	h->objs[h->nr_objs].kernel = kernel;
	return h->nr_objs++;
}

struct rec_hits *rec_hits__new(void)
{
	struct rec_hits *h = xcalloc(1, sizeof(*h));

	add_obj(h, "[kernel.kallsyms]", true);
	h->cap_procs = 64;
	h->procs = xcalloc(h->cap_procs, sizeof(*h->procs));
	return h;
}

void rec_hits__free(struct rec_hits *h)
{
	if (!h)
		return;
	for (size_t i = 0; i < h->nr_objs; i++)
		free(h->objs[i].name);
	free(h->objs);
	for (size_t i = 0; i < h->cap_procs; i++)
		free(h->procs[i].maps);
	free(h->procs);
	free(h->pending);
	free(h);
}

static size_t slot_of(uint32_t pid, size_t cap)
{
	return (size_t)(pid * 2654435761u) & (cap - 1);
}

static struct hit_proc *find_proc(struct rec_hits *h, uint32_t pid, bool create)
{
	size_t i;

	if (h->last_proc && h->last_proc->pid == pid)
		return h->last_proc;
	for (i = slot_of(pid, h->cap_procs); h->procs[i].used; i = (i + 1) & (h->cap_procs - 1))
		if (h->procs[i].pid == pid)
			return h->last_proc = &h->procs[i];
	if (!create)
		return NULL;
	if (2 * (h->nr_procs + 1) > h->cap_procs) {
		struct hit_proc *old = h->procs;
		size_t old_cap = h->cap_procs;

		h->cap_procs *= 2;
		h->procs = xcalloc(h->cap_procs, sizeof(*h->procs));
		for (size_t k = 0; k < old_cap; k++) {
			if (!old[k].used)
				continue;
			for (i = slot_of(old[k].pid, h->cap_procs); h->procs[i].used;
			     i = (i + 1) & (h->cap_procs - 1))
				;
			h->procs[i] = old[k];
		}
		free(old);
		for (i = slot_of(pid, h->cap_procs); h->procs[i].used; i = (i + 1) & (h->cap_procs - 1))
			;
	}
	h->procs[i].used = true;
	h->procs[i].pid = pid;
	h->nr_procs++;
	return h->last_proc = &h->procs[i];
}

static size_t obj_index(struct rec_hits *h, const char *name)
{
	/* newest first: a process maps its own objects in a row */
	for (size_t i = h->nr_objs; i-- > 1 + h->nr_modules;)
		if (!strcmp(h->objs[i].name, name))
			return i;
	return add_obj(h, name, false);
}

void rec_hits__add_module(struct rec_hits *h, const char *name, uint64_t start, uint64_t len)
{
	size_t i;

	if (h->nr_objs != 1 + h->nr_modules)
		return; /* modules come before any user object */
	i = add_obj(h, name, true);
	h->objs[i].start = start;
	h->objs[i].end = start + len;
	h->nr_modules++;
}

static void push_map(struct hit_proc *p, uint64_t start, uint64_t end, uint32_t obj)
{
	if (p->nr == p->cap) {
		p->cap = p->cap ? 2 * p->cap : 16;
		p->maps = xrealloc(p->maps, p->cap * sizeof(*p->maps));
	}
	p->maps[p->nr].start = start;
	p->maps[p->nr].end = end;
	p->maps[p->nr].obj = obj;
	p->last = p->nr++;
}

void rec_hits__mmap(struct rec_hits *h, uint32_t pid, uint64_t start, uint64_t len, const char *path)
{
	if (!path || !len)
		return;
	push_map(find_proc(h, pid, true), start, start + len, (uint32_t)obj_index(h, path));
}

void rec_hits__fork(struct rec_hits *h, uint32_t pid, uint32_t ppid)
{
	struct hit_proc *parent, *child;

	if (pid == ppid)
		return; /* a new thread shares its process's maps */
	child = find_proc(h, pid, true);
	child->nr = 0;
	parent = find_proc(h, ppid, false);
	if (!parent || !parent->nr)
		return;
	if (child->cap < parent->nr) {
		child->cap = parent->nr;
		child->maps = xrealloc(child->maps, child->cap * sizeof(*child->maps));
	}
	memcpy(child->maps, parent->maps, parent->nr * sizeof(*child->maps));
	child->nr = parent->nr;
	child->last = 0;
}

void rec_hits__exec(struct rec_hits *h, uint32_t pid)
{
	struct hit_proc *p = find_proc(h, pid, false);

	if (p)
		p->nr = 0;
}

static void mark_kernel(struct rec_hits *h, uint64_t ip)
{
	for (size_t i = 1; i <= h->nr_modules; i++) {
		if (ip >= h->objs[i].start && ip < h->objs[i].end) {
			h->objs[i].hit = true;
			return;
		}
	}
	h->objs[0].hit = true;
}

static size_t pending_slot(uint32_t pid, uint64_t ip, size_t cap)
{
	uint64_t k = (ip ^ ((uint64_t)pid << 40)) * 0x9e3779b97f4a7c15ULL;

	return (size_t)(k >> 20) & (cap - 1);
}

static void pending_add(struct rec_hits *h, uint32_t pid, uint64_t ip)
{
	size_t i;

	if (2 * (h->nr_pending + 1) > h->cap_pending) {
		struct pending *old = h->pending;
		size_t old_cap = h->cap_pending;

		if (h->nr_pending >= PENDING_MAX)
			return;
		h->cap_pending = old_cap ? 2 * old_cap : 1024;
		h->pending = xcalloc(h->cap_pending, sizeof(*h->pending));
		for (size_t k = 0; k < old_cap; k++) {
			if (old[k].state == P_EMPTY)
				continue;
			for (i = pending_slot(old[k].pid, old[k].ip, h->cap_pending); h->pending[i].state != P_EMPTY;
			     i = (i + 1) & (h->cap_pending - 1))
				;
			h->pending[i] = old[k];
		}
		free(old);
	}
	for (i = pending_slot(pid, ip, h->cap_pending); h->pending[i].state != P_EMPTY;
	     i = (i + 1) & (h->cap_pending - 1)) {
		struct pending *e = &h->pending[i];

		if (e->pid == pid && e->ip == ip) {
			if (e->state != P_WAITING) {
				e->state = P_WAITING; /* seen unmapped again: look again */
				h->nr_waiting++;
			}
			return;
		}
	}
	h->pending[i].state = P_WAITING;
	h->pending[i].pid = pid;
	h->pending[i].ip = ip;
	h->nr_pending++;
	h->nr_waiting++;
}

static bool lookup_user(struct rec_hits *h, struct hit_proc *p, uint64_t ip)
{
	const struct hit_map *m;

	if (!p || !p->nr)
		return false;
	m = &p->maps[p->last];
	if (ip >= m->start && ip < m->end) {
		h->objs[m->obj].hit = true;
		return true;
	}
	for (size_t i = p->nr; i-- > 0;) {
		m = &p->maps[i];
		if (ip >= m->start && ip < m->end) {
			p->last = i;
			h->objs[m->obj].hit = true;
			return true;
		}
	}
	return false;
}

/*
 * Rings are per CPU and drained one after the other, so a sample can arrive
 * before the MMAP2 (written on another CPU) that maps its IP: such
 * addresses wait in `pending` and are looked up again at the end.
 */
static void mark_user(struct rec_hits *h, uint32_t pid, struct hit_proc *p, uint64_t ip)
{
	if (!lookup_user(h, p, ip))
		pending_add(h, pid, ip);
}

/*
 * After each drain pass (every ring read once) most waiting addresses find
 * their map: look them up while the maps are those of their time, before a
 * later exec or munmap changes them. The rest wait for rec_hits__finish().
 */
void rec_hits__pass_done(struct rec_hits *h)
{
	if (!h->nr_waiting)
		return;
	for (size_t i = 0; i < h->cap_pending; i++) {
		struct pending *e = &h->pending[i];

		if (e->state != P_WAITING)
			continue;
		e->state = lookup_user(h, find_proc(h, e->pid, false), e->ip) ? P_RESOLVED : P_RETRIED;
	}
	h->nr_waiting = 0;
}

void rec_hits__finish(struct rec_hits *h)
{
	for (size_t i = 0; i < h->cap_pending; i++) {
		const struct pending *e = &h->pending[i];

		if (e->state == P_WAITING || e->state == P_RETRIED)
			lookup_user(h, find_proc(h, e->pid, false), e->ip);
	}
	free(h->pending);
	h->pending = NULL;
	h->nr_pending = h->cap_pending = h->nr_waiting = 0;
}

static bool kernel_mode(uint16_t cpumode)
{
	return cpumode == PERF_RECORD_MISC_KERNEL || cpumode == PERF_RECORD_MISC_GUEST_KERNEL;
}

void rec_hits__sample(struct rec_hits *h, uint32_t pid, uint16_t cpumode, uint64_t ip,
		      const uint64_t *chain, uint64_t nr)
{
	struct hit_proc *p = find_proc(h, pid, false);
	bool kernel = kernel_mode(cpumode);

	if (kernel)
		mark_kernel(h, ip);
	else if (cpumode == PERF_RECORD_MISC_USER)
		mark_user(h, pid, p, ip);
	for (uint64_t i = 0; chain && i < nr; i++) {
		uint64_t a = chain[i];

		if (a >= (uint64_t)PERF_CONTEXT_MAX) {
			kernel = a == (uint64_t)PERF_CONTEXT_KERNEL;
			continue;
		}
		if (kernel)
			mark_kernel(h, a);
		else
			mark_user(h, pid, p, a);
	}
}

size_t rec_hits__nr(const struct rec_hits *h)
{
	return h->nr_objs;
}

const char *rec_hits__name(const struct rec_hits *h, size_t i, bool *hit, bool *kernel)
{
	*hit = h->objs[i].hit;
	*kernel = h->objs[i].kernel;
	return h->objs[i].name;
}
