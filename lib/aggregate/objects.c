// SPDX-License-Identifier: MIT
// The objects a recording references and which its samples hit: record's build-id bookkeeping, perf buildid-list's replay.
#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aggregate/objects.h"
#include "aggregate/procs.h"
#include "data/ordered.h"
#include "ring/record.h"
#include "symbol/sysobj.h"
#include "util/array.h"
#include "util/hash.h"
#include "util/idtab.h"

#ifndef PERF_RECORD_FINISHED_ROUND
#define PERF_RECORD_FINISHED_ROUND 68
#endif
#define RECORD_USER_TYPE_START 64
/* perf marks the FORKs it synthesizes for running tasks: their maps come as MMAPs, not from the parent */
#define MISC_FORK_EXEC (1u << 13)
#define MAP_HUGETLB_FLAG 0x40000

struct omap {
	uint64_t start, end;
	uint32_t obj;
};

/* A user mapping in a process (aggregate/procs.h): its object. */
struct umap {
	struct pms_vma vma;
	uint32_t obj;
};

/* A process of the shared model, with the last map hit, for runs of IPs in one object. */
struct proc {
	struct pms_proc p;
	const struct umap *last;
	uint32_t last_gen;
};

enum { P_WAITING, P_RETRIED, P_RESOLVED };

struct pending {
	uint64_t ip;
	uint32_t pid;
	uint8_t state; /* P_*; resolved entries stay, so an address seen again is found */
};

/* Bound on remembered unresolved user addresses (16 B each). */
#define PENDING_MAX (1u << 20)

struct pms_objects {
	struct pms_objects_opts opts;
	struct pms_object *objs;
	size_t nr_objs, cap_objs;
	char **short_names;         /* per object: "[module]" for kernel modules, else NULL */
	size_t cap_short_names;
	struct pms_idtab by_name;   /* (machine, name) -> object index */
	struct omap *kmaps;         /* kernel-side maps */
	size_t nr_kmaps, cap_kmaps;
	struct pms_procs procs;     /* pid -> struct proc */
	struct pending *pending;    /* every (pid, ip) remembered, resolved ones included */
	size_t nr_pending, cap_pending;
	struct pms_idtab pending_ids; /* hash(pid, ip) -> index in pending */
	size_t nr_waiting;              /* P_WAITING entries */
};

int pms_objects__new(struct pms_objects **out, const struct pms_objects_opts *opts)
{
	struct pms_objects *o = calloc(1, sizeof(*o));

	*out = NULL;
	if (!o)
		return -ENOMEM;
	if (opts)
		memcpy(&o->opts, opts, opts->sz && opts->sz < sizeof(o->opts) ? opts->sz : sizeof(o->opts));
	pms_procs__init(&o->procs, sizeof(struct proc), sizeof(struct umap), NULL);
	*out = o;
	return 0;
}

void pms_objects__free(struct pms_objects *o)
{
	if (!o)
		return;
	for (size_t i = 0; i < o->nr_objs; i++) {
		free(o->objs[i].name);
		free(o->short_names[i]);
	}
	free(o->objs);
	free(o->short_names);
	pms_idtab__release(&o->by_name);
	free(o->kmaps);
	pms_procs__release(&o->procs);
	free(o->pending);
	pms_idtab__release(&o->pending_ids);
	free(o);
}

size_t pms_objects__nr(const struct pms_objects *o)
{
	return o->nr_objs;
}

const struct pms_object *pms_objects__at(const struct pms_objects *o, size_t i)
{
	return i < o->nr_objs ? &o->objs[i] : NULL;
}

/* ------------------------------------------------------------ names -- */

static uint32_t name_hash(int32_t machine, const char *name)
{
	return (uint32_t)pms_hash__str(pms_hash__mix64((uint64_t)(uint32_t)machine), name);
}

/* The slot of (machine, name) in by_name: its object's, or the empty one where it belongs. */
static size_t name_slot(const struct pms_objects *o, int32_t machine, const char *name, uint32_t h)
{
	size_t i;

	for (i = pms_idtab__start(&o->by_name, h); pms_idtab__used(&o->by_name, i); i = pms_idtab__next(&o->by_name, i)) {
		const struct pms_object *ob = &o->objs[pms_idtab__id(&o->by_name, i)];

		if (pms_idtab__hash(&o->by_name, i) == h && ob->machine == machine && !strcmp(ob->name, name))
			break;
	}
	return i;
}

int pms_objects__find(const struct pms_objects *o, int32_t machine, const char *name)
{
	size_t i;

	if (!o->by_name.cap)
		return -ENOENT;
	i = name_slot(o, machine, name, name_hash(machine, name));
	return pms_idtab__used(&o->by_name, i) ? (int)pms_idtab__id(&o->by_name, i) : -ENOENT;
}

/* "[snd_hda_intel]" for a module's path or bracketed name, as perf's short name; NULL for others. */
static char *module_short_name(const char *name)
{
	char mod[256], *s;

	if (!strncmp(name, "[kernel.kallsyms", 16) || !strncmp(name, "[guest.kernel.kallsyms", 22) ||
	    pms_kmod__name(name, mod, sizeof(mod)))
		return NULL;
	return asprintf(&s, "[%s]", mod) < 0 ? NULL : s;
}

int pms_objects__findnew(struct pms_objects *o, int32_t machine, const char *name, bool kernel)
{
	int i = pms_objects__find(o, machine, name);
	struct pms_object *ob;

	if (i >= 0) {
		if (kernel && !o->objs[i].kernel) {
			o->objs[i].kernel = true;
			o->short_names[i] = module_short_name(name);
		}
		return i;
	}
	if (o->nr_objs >= UINT32_MAX - 1)
		return -ENOMEM;
	if (pms_array__reserve(&o->objs, &o->cap_objs, o->nr_objs + 1, sizeof(*o->objs)) ||
	    pms_array__reserve(&o->short_names, &o->cap_short_names, o->nr_objs + 1, sizeof(*o->short_names)))
		return -ENOMEM;
	if (pms_idtab__reserve(&o->by_name))
		return -ENOMEM;
	ob = &o->objs[o->nr_objs];
	memset(ob, 0, sizeof(*ob));
	ob->name = strdup(name);
	if (!ob->name)
		return -ENOMEM;
	ob->machine = machine;
	ob->kernel = kernel;
	o->short_names[o->nr_objs] = kernel ? module_short_name(name) : NULL;
	{
		uint32_t h = name_hash(machine, name);

		pms_idtab__set(&o->by_name, name_slot(o, machine, name, h), h, (uint32_t)o->nr_objs);
	}
	return (int)o->nr_objs++;
}

void pms_objects__set_build_id(struct pms_objects *o, size_t idx, const uint8_t *id, size_t size)
{
	if (idx >= o->nr_objs || size > PMS_BUILD_ID_MAX)
		return;
	memcpy(o->objs[idx].build_id, id, size);
	o->objs[idx].build_id_size = (uint8_t)size;
}

void pms_objects__mark(struct pms_objects *o, size_t idx)
{
	if (idx < o->nr_objs)
		o->objs[idx].hit = true;
}

/* ------------------------------------------------------------- maps -- */

int pms_objects__kernel_map(struct pms_objects *o, size_t idx, uint64_t start, uint64_t len)
{
	struct omap *m;

	if (idx >= o->nr_objs || !len)
		return -EINVAL;
	if (pms_array__reserve(&o->kmaps, &o->cap_kmaps, o->nr_kmaps + 1, sizeof(*o->kmaps)))
		return -ENOMEM;
	m = &o->kmaps[o->nr_kmaps++];
	m->start = start;
	m->end = len > UINT64_MAX - start ? UINT64_MAX : start + len;
	m->obj = (uint32_t)idx;
	return 0;
}

static struct proc *find_proc(struct pms_objects *o, uint32_t pid, bool create)
{
	return (struct proc *)pms_procs__find(&o->procs, (int32_t)pid, create);
}

int pms_objects__mmap(struct pms_objects *o, uint32_t pid, uint64_t start, uint64_t len, size_t idx)
{
	struct umap m = { .vma = { .start = start, .end = len > UINT64_MAX - start ? UINT64_MAX : start + len },
			  .obj = (uint32_t)idx };
	struct proc *p;

	if (!len || idx >= o->nr_objs)
		return -EINVAL;
	p = find_proc(o, pid, true);
	if (!p)
		return -ENOMEM;
	return pms_vmas__insert(&p->p.vmas, &m);
}

int pms_objects__fork(struct pms_objects *o, uint32_t pid, uint32_t ppid, bool clone)
{
	if (!pms_procs__fork(&o->procs, (int32_t)pid, (int32_t)ppid, clone) && errno)
		return -errno;
	return 0;
}

void pms_objects__exit(struct pms_objects *o, uint32_t pid)
{
	struct proc *p = find_proc(o, pid, false);

	if (p)
		pms_vmas__clear(&p->p.vmas);
}

void pms_objects__exec(struct pms_objects *o, uint32_t pid)
{
	if (o->opts.exec_clears)
		pms_objects__exit(o, pid);
}

/* ------------------------------------------------------------- hits -- */

static void mark_kernel(struct pms_objects *o, uint64_t ip)
{
	const struct omap *best = NULL;

	for (size_t i = 0; i < o->nr_kmaps; i++) {
		const struct omap *m = &o->kmaps[i];

		if (ip >= m->start && ip < m->end && (!best || m->end - m->start < best->end - best->start))
			best = m;
	}
	if (best)
		o->objs[best->obj].hit = true;
}

static int pending_add(struct pms_objects *o, uint32_t pid, uint64_t ip)
{
	uint32_t h = (uint32_t)pms_hash__mix64(ip ^ ((uint64_t)pid << 40));
	struct pending *e;
	size_t i;

	if (pms_idtab__reserve(&o->pending_ids))
		return -ENOMEM;
	for (i = pms_idtab__start(&o->pending_ids, h); pms_idtab__used(&o->pending_ids, i);
	     i = pms_idtab__next(&o->pending_ids, i)) {
		e = &o->pending[pms_idtab__id(&o->pending_ids, i)];
		if (pms_idtab__hash(&o->pending_ids, i) == h && e->pid == pid && e->ip == ip) {
			if (e->state != P_WAITING) {
				e->state = P_WAITING; /* seen unmapped again: look again */
				o->nr_waiting++;
			}
			return 0;
		}
	}
	if (o->nr_pending >= PENDING_MAX)
		return 0; /* bounded: such an address is simply not marked */
	if (pms_array__reserve(&o->pending, &o->cap_pending, o->nr_pending + 1, sizeof(*o->pending)))
		return -ENOMEM;
	pms_idtab__set(&o->pending_ids, i, h, (uint32_t)o->nr_pending);
	o->pending[o->nr_pending++] = (struct pending){ .ip = ip, .pid = pid, .state = P_WAITING };
	o->nr_waiting++;
	return 0;
}

static bool lookup_user(struct pms_objects *o, struct proc *p, uint64_t ip)
{
	const struct umap *m;

	if (!p || !p->p.vmas.nr)
		return false;
	m = p->last_gen == p->p.vmas.gen ? p->last : NULL;
	if (!m || ip < m->vma.start || ip >= m->vma.end) {
		m = pms_vmas__find(&p->p.vmas, ip);
		if (!m)
			return false;
		p->last = m;
		p->last_gen = p->p.vmas.gen;
	}
	o->objs[m->obj].hit = true;
	return true;
}

static int mark_user(struct pms_objects *o, uint32_t pid, struct proc *p, uint64_t ip)
{
	if (lookup_user(o, p, ip) || !o->opts.retry_unmapped)
		return 0;
	return pending_add(o, pid, ip);
}

/*
 * After each drain pass (every ring read once) most waiting addresses find
 * their map: look them up while the maps are those of their time, before a
 * later exec or munmap changes them. The rest wait for __finish().
 */
void pms_objects__pass_done(struct pms_objects *o)
{
	if (!o->nr_waiting)
		return;
	for (size_t i = 0; i < o->nr_pending; i++) {
		struct pending *e = &o->pending[i];

		if (e->state != P_WAITING)
			continue;
		e->state = lookup_user(o, find_proc(o, e->pid, false), e->ip) ? P_RESOLVED : P_RETRIED;
	}
	o->nr_waiting = 0;
}

void pms_objects__finish(struct pms_objects *o)
{
	for (size_t i = 0; i < o->nr_pending; i++) {
		const struct pending *e = &o->pending[i];

		if (e->state == P_WAITING || e->state == P_RETRIED)
			lookup_user(o, find_proc(o, e->pid, false), e->ip);
	}
	free(o->pending);
	o->pending = NULL;
	pms_idtab__release(&o->pending_ids);
	o->nr_pending = o->cap_pending = o->nr_waiting = 0;
}

static bool kernel_mode(uint16_t cpumode)
{
	return cpumode == PERF_RECORD_MISC_KERNEL || cpumode == PERF_RECORD_MISC_GUEST_KERNEL;
}

int pms_objects__sample(struct pms_objects *o, uint32_t pid, uint16_t cpumode, uint64_t ip, const uint64_t *chain,
			uint64_t nr)
{
	struct proc *p = find_proc(o, pid, false);
	bool kernel = kernel_mode(cpumode);
	int err = 0;

	if (kernel)
		mark_kernel(o, ip);
	else if (cpumode == PERF_RECORD_MISC_USER)
		err = mark_user(o, pid, p, ip);
	if (!o->opts.callchains)
		return err;
	for (uint64_t i = 0; chain && i < nr && !err; i++) {
		uint64_t a = chain[i];

		if (a >= (uint64_t)PERF_CONTEXT_MAX) {
			kernel = a == (uint64_t)PERF_CONTEXT_KERNEL;
			continue;
		}
		if (kernel)
			mark_kernel(o, a);
		else
			err = mark_user(o, pid, p, a);
	}
	return err;
}

/* ----------------------------------------------------------- replay -- */

struct replay {
	struct pms_objects *o;
	struct pms_data_reader *r;
	struct pms_decode_cfg *cfgs;
	size_t nr_cfgs;
};

/* The kernel's object as perf picks it: the first kernel-side non-module object, else "[kernel.kallsyms]". */
static int kernel_object(struct pms_objects *o)
{
	for (size_t i = 0; i < o->nr_objs; i++)
		if (o->objs[i].machine == PMS_MACHINE_HOST && o->objs[i].kernel && !o->short_names[i])
			return (int)i;
	return pms_objects__findnew(o, PMS_MACHINE_HOST, "[kernel.kallsyms]", true);
}

/* A kernel MMAP: the kernel's text map, or a module (found by module name, as perf finds it). */
static int kernel_mmap(struct pms_objects *o, const struct pms_record *d)
{
	const char *name = d->mmap.filename;
	bool is_kernel = !strncmp(name, "[kernel.kallsyms", 16);
	int idx = -ENOENT;

	if (name[0] == '/' || (!is_kernel && name[0] == '[')) {
		char *sn = module_short_name(name);

		for (size_t i = 0; sn && i < o->nr_objs && idx < 0; i++)
			if (o->short_names[i] && o->objs[i].machine == PMS_MACHINE_HOST && !strcmp(o->short_names[i], sn))
				idx = (int)i;
		free(sn);
		if (idx < 0)
			idx = pms_objects__findnew(o, PMS_MACHINE_HOST, name, true);
	} else if (is_kernel) {
		idx = kernel_object(o);
	} else {
		return 0; /* perf's extra kernel maps (entry trampolines): no object of their own */
	}
	if (idx < 0)
		return idx;
	return pms_objects__kernel_map(o, (size_t)idx, d->mmap.addr, d->mmap.len ? d->mmap.len : UINT64_MAX - d->mmap.addr);
}

/* A user MMAP/MMAP2, named as perf's map__new() names its object. */
static int user_mmap(struct pms_objects *o, const struct pms_record *d)
{
	const char *name = d->mmap.filename;
	char anon[64];
	int idx;

	if (d->type == PERF_RECORD_MMAP ? d->mmap.data : !(d->mmap.prot & 4 /* PROT_EXEC */))
		return 0; /* data maps: no sample IP lands there */
	if (!strcmp(name, "//anon") || !strcmp(name, "/dev/zero") || !strncmp(name, "/anon_hugepage", 14) ||
	    (d->type == PERF_RECORD_MMAP2 && (d->mmap.flags & MAP_HUGETLB_FLAG))) {
		/* anonymous executable memory is a JIT's: perf names it by the JIT's symbol map */
		snprintf(anon, sizeof(anon), "/tmp/perf-%u.map", d->mmap.pid);
		name = anon;
	}
	idx = pms_objects__findnew(o, PMS_MACHINE_HOST, name, false);
	if (idx < 0)
		return idx;
	if (d->type == PERF_RECORD_MMAP2 && d->mmap.has_build_id && d->mmap.build_id_size)
		pms_objects__set_build_id(o, (size_t)idx, d->mmap.build_id, d->mmap.build_id_size);
	return pms_objects__mmap(o, d->mmap.pid, d->mmap.addr, d->mmap.len, (size_t)idx);
}

static const struct pms_decode_cfg *cfg_of(const struct replay *rp, int idx)
{
	return &rp->cfgs[idx >= 0 && (size_t)idx < rp->nr_cfgs ? (size_t)idx : 0];
}

/* One kernel record, delivered in perf's order. Undecodable records are skipped, as perf skips them. */
static int deliver(struct replay *rp, const struct perf_event_header *ev, int idx)
{
	struct pms_record d;
	size_t off;
	uint16_t cpumode = ev->misc & PERF_RECORD_MISC_CPUMODE_MASK;

	if (!rp->nr_cfgs || pms_record__decode(cfg_of(rp, idx), ev, ev->size, &d, &off))
		return 0;
	switch (d.type) {
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		if (!d.mmap.filename)
			return 0;
		if (cpumode == PERF_RECORD_MISC_KERNEL || cpumode == PERF_RECORD_MISC_GUEST_KERNEL)
			return kernel_mmap(rp->o, &d);
		return user_mmap(rp->o, &d);
	case PERF_RECORD_FORK:
		return pms_objects__fork(rp->o, d.task.pid, d.task.ppid, !(ev->misc & MISC_FORK_EXEC));
	case PERF_RECORD_EXIT:
		if (d.task.pid == d.task.tid)
			pms_objects__exit(rp->o, d.task.pid);
		return 0;
	case PERF_RECORD_SAMPLE:
		if (!(cfg_of(rp, idx)->sample_type & (PERF_SAMPLE_IP)))
			return 0;
		return pms_objects__sample(rp->o, d.sample.pid, cpumode, d.sample.ip, NULL, 0);
	default:
		return 0;
	}
}

/* The timestamp perf orders a record by, or 0 when it has none (handled at once). */
static uint64_t record_time(const struct replay *rp, const struct perf_event_header *ev, int idx)
{
	uint64_t t;

	return rp->nr_cfgs && pms_record__time(cfg_of(rp, idx), ev, &t) ? t : 0;
}

/* One entry of the build-id table (the header's, or a pipe's HEADER_BUILD_ID
 * record as the reader decoded it). */
static int add_listed_build_id(struct pms_objects *o, const struct pms_data_build_id *b)
{
	uint16_t m = b->cpumode;
	bool kernel = m == PERF_RECORD_MISC_KERNEL || m == PERF_RECORD_MISC_GUEST_KERNEL;
	int idx;

	if (!kernel && m != PERF_RECORD_MISC_USER && m != PERF_RECORD_MISC_GUEST_USER)
		return 0; /* perf skips entries of other cpumodes */
	idx = pms_objects__findnew(o, b->pid, b->filename, kernel);
	if (idx < 0)
		return idx;
	pms_objects__set_build_id(o, (size_t)idx, b->id, b->size);
	return 0;
}

static int drain(struct replay *rp, struct pms_ordered *q)
{
	const struct perf_event_header *ev;
	int tag, err;

	while (pms_ordered__pop(q, &ev, &tag, NULL) > 0)
		if ((err = deliver(rp, ev, tag)) == -ENOMEM)
			return err;
	return 0;
}

static int replay(struct replay *rp)
{
	const struct perf_event_header *ev;
	struct pms_ordered *q;
	uint64_t off;
	size_t bids_seen = 0; /* pipe files: HEADER_BUILD_ID records the reader has added */
	int rc, err = pms_ordered__new(&q);

	if (err)
		return err;
	while (!err && (rc = pms_data_reader__next(rp->r, &ev, &off)) > 0) {
		int idx;
		uint64_t t;

		if (ev->type == PERF_RECORD_FINISHED_ROUND) {
			pms_ordered__round(q);
			err = drain(rp, q);
			continue;
		}
		if (ev->type >= RECORD_USER_TYPE_START) {
			/* perf handles its own records at once, outside the time order */
			const struct pms_data_features *f = pms_data_reader__features(rp->r);

			while (!err && bids_seen < f->nr_build_ids)
				err = add_listed_build_id(rp->o, &f->build_ids[bids_seen++]);
			continue;
		}
		idx = pms_data_reader__record_attr(rp->r, ev);
		t = record_time(rp, ev, idx);
		if (t && t != UINT64_MAX)
			err = pms_ordered__push(q, ev, t, idx, 0);
		else if (deliver(rp, ev, idx) == -ENOMEM)
			err = -ENOMEM;
	}
	if (!err) {
		pms_ordered__flush_all(q);
		err = drain(rp, q);
	}
	pms_ordered__free(q);
	return err ? err : rc < 0 ? rc : 0;
}

static int cmp_machine(const struct pms_object *x, const struct pms_object *y)
{
	return x->machine < y->machine ? -1 : x->machine > y->machine;
}

/* Host first, then guests by pid, creation order kept inside each (perf's machines walk). */
static void sort_for_listing(struct pms_objects *o)
{
	bool guests = false;

	for (size_t i = 0; i < o->nr_objs && !guests; i++)
		guests = o->objs[i].machine != PMS_MACHINE_HOST;
	if (!guests)
		return;
	/* insertion sort: stable, and listings are short */
	for (size_t i = 1; i < o->nr_objs; i++) {
		struct pms_object t = o->objs[i];
		char *sn = o->short_names[i];
		size_t j = i;

		while (j > 0 && cmp_machine(&o->objs[j - 1], &t) > 0) {
			o->objs[j] = o->objs[j - 1];
			o->short_names[j] = o->short_names[j - 1];
			j--;
		}
		o->objs[j] = t;
		o->short_names[j] = sn;
	}
	/* the index names objects by position: build it again */
	pms_idtab__release(&o->by_name);
	for (size_t i = 0; i < o->nr_objs; i++) {
		uint32_t h = name_hash(o->objs[i].machine, o->objs[i].name);

		if (pms_idtab__reserve(&o->by_name))
			return; /* lookups after a listing are not made; the listing stays right */
		pms_idtab__set(&o->by_name, name_slot(o, o->objs[i].machine, o->objs[i].name, h), h, (uint32_t)i);
	}
}

int pms_objects__from_file(struct pms_data_reader *r, bool with_hits, struct pms_objects **out,
			   bool *with_hits_out)
{
	const struct pms_data_features *f = pms_data_reader__features(r);
	struct pms_objects_opts oo = { .sz = sizeof(oo) };
	struct replay rp = { .r = r };
	bool pipe = pms_data_reader__is_pipe(r);
	int err;

	*out = NULL;
	err = pms_objects__new(&rp.o, &oo);
	if (err)
		return err;
	/* perf buildid-list's rules, in its order: AUXTRACE files list everything, files without a table need hits */
	const void *raw;
	size_t raw_size;

	if (!pipe && !pms_data_reader__feature_raw(r, PMS_FEAT_AUXTRACE, &raw, &raw_size))
		with_hits = false;
	if (pipe || !pms_data_features__has(f, PMS_FEAT_BUILD_ID))
		with_hits = true;
	for (size_t i = 0; !pipe && i < f->nr_build_ids && !err; i++)
		err = add_listed_build_id(rp.o, &f->build_ids[i]);
	if (!err && with_hits) {
		rp.nr_cfgs = pms_data_reader__nr_attrs(r);
		rp.cfgs = calloc(rp.nr_cfgs ? rp.nr_cfgs : 1, sizeof(*rp.cfgs));
		if (!rp.cfgs)
			err = -ENOMEM;
		for (size_t i = 0; !err && i < rp.nr_cfgs; i++)
			pms_decode_cfg__from_attr(&rp.cfgs[i], pms_data_reader__attr(r, i));
		if (!err)
			err = replay(&rp);
		free(rp.cfgs);
	}
	sort_for_listing(rp.o);
	if (with_hits_out)
		*with_hits_out = with_hits;
	if (err == -ENOMEM) {
		pms_objects__free(rp.o);
		return err;
	}
	*out = rp.o;
	return err;
}
