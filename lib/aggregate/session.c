// SPDX-License-Identifier: MIT
// Replays perf.data records in time order into threads, address spaces and symbolized samples.
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "aggregate/procs.h"
#include "aggregate/session.h"
#include "data/ordered.h"
#include "data/reader.h"
#include "data/tracing_data.h"
#include "event/names.h"
#include "ring/record.h"
#include "ring/sample.h"
#include "symbol/maps.h"
#include "symbol/resolver.h"
#include "symbol/sysobj.h"
#include "symbol/unwind.h"
#include "util/array.h"
#include "util/ptrmap.h"
#include "util/hash.h"
#include "util/idtab.h"

#ifndef PERF_RECORD_FINISHED_ROUND
#define PERF_RECORD_FINISHED_ROUND 68
#endif

#define DEFAULT_MAX_STACK 127
#define NO_TIME UINT64_MAX
/* Lowest kernel address on x86_64 and arm64 (upper half): the fallback when no context marker says. */
#define KERNEL_HALF 0xffff800000000000ULL

/* ---- bump arena: strings, threads, build-ids; freed only with the session ---- */

struct arena_block {
	struct arena_block *next;
	size_t used, cap;
	char data[];
};

struct arena {
	struct arena_block *head;
};

static void *arena_alloc(struct arena *a, size_t size)
{
	struct arena_block *b = a->head;

	size = (size + 7) & ~(size_t)7;
	if (!b || b->cap - b->used < size) {
		size_t cap = size > (64u << 10) ? size : (64u << 10);

		b = malloc(sizeof(*b) + cap);
		if (!b)
			return NULL;
		b->used = 0;
		b->cap = cap;
		b->next = a->head;
		a->head = b;
	}
	b->used += size;
	return b->data + b->used - size;
}

static void arena_free(struct arena *a)
{
	while (a->head) {
		struct arena_block *n = a->head->next;

		free(a->head);
		a->head = n;
	}
}

/* Interned strings: one copy of each comm and path, stable until the session is freed. */
struct strtab {
	const char **strs;      /* by id */
	size_t nr, alloc;
	struct pms_idtab by_text;
};

static const char *intern_n(struct strtab *t, struct arena *a, const char *s, size_t len)
{
	uint32_t h = (uint32_t)pms_hash__bytes(PMS_HASH_SEED, s, len);
	size_t i;
	char *copy;

	if (pms_idtab__reserve(&t->by_text) || pms_array__reserve(&t->strs, &t->alloc, t->nr + 1, sizeof(*t->strs)))
		return NULL;
	for (i = pms_idtab__start(&t->by_text, h); pms_idtab__used(&t->by_text, i); i = pms_idtab__next(&t->by_text, i)) {
		const char *e = t->strs[pms_idtab__id(&t->by_text, i)];

		if (pms_idtab__hash(&t->by_text, i) == h && !strncmp(e, s, len) && e[len] == '\0')
			return e;
	}
	copy = arena_alloc(a, len + 1);
	if (!copy)
		return NULL;
	memcpy(copy, s, len);
	copy[len] = '\0';
	pms_idtab__set(&t->by_text, i, h, (uint32_t)t->nr);
	t->strs[t->nr++] = copy;
	return copy;
}

static const char *intern(struct strtab *t, struct arena *a, const char *s)
{
	return intern_n(t, a, s, strlen(s));
}

/* ---- machine state ---- */

struct thread {
	int32_t pid, tid;
	const char *comm;
	bool comm_set;   /* named by a COMM (or the idle task's "swapper"), not ":TID": a FORK passes it on */
};

enum smap_kind { SMAP_FILE, SMAP_ANON, SMAP_KERNEL, SMAP_MODULE, SMAP_KSYM };

/* One executable mapping of a process (or of the kernel), as recorded. */
struct smap {
	struct pms_vma vma;        /* first: the element of the process model (aggregate/procs.h) */
	const char *path;          /* interned; a module's name ("ext4") for SMAP_MODULE */
	const char *name;          /* SMAP_MODULE: what perf shows, "[ext4]" */
	const char *long_name;     /* SMAP_MODULE: what perf script shows: the recorded path when the
				      build-id table names it, else name */
	const uint8_t *build_id;   /* arena copy, or NULL: not recorded */
	const char *ksym;          /* a KSYMBOL's range (a BPF program, a trampoline): its name, the
				      one symbol here; the other fields are those of the map it was
				      registered in, or name = ksym when none covered it */
	uint8_t build_id_size;
	uint8_t kind;
};

struct aspace {
	struct pms_proc proc;      /* first: pid and the maps (struct smap), sorted, non-overlapping */
	const char *jit_dso;       /* "/tmp/perf-PID.map", as perf names anonymous code */
	/* --call-graph dwarf: built lazily from maps, rebuilt after they change */
	struct pms_maps *umaps;
	struct pms_unwinder *unw;
	int unw_err;
	bool unw_valid;
};

/*
 * Resolved frames by (address space, ip, caller): most samples repeat a
 * small set of addresses, and a hit costs one probe instead of a map search,
 * a file lookup and a symbol search. Direct-mapped; a miss overwrites.
 */
struct fcache_ent {
	uint64_t ip;
	const struct aspace *as;   /* NULL: kernel */
	uint32_t gen;
	uint8_t kind, out_kind, caller, mapped, valid;
	struct pms_resolved res;
	uint64_t map_addr;
	const char *dso_path;
};

#define FCACHE_MIN 256
#define FCACHE_MAX 16384


struct pms_session {
	struct pms_session_opts opts;
	struct pms_session_read *reads; /* PERF_RECORD_READ values per (thread, event), first met first */
	size_t nr_reads, reads_alloc;
	struct pms_data_reader *reader;
	struct pms_resolver *resolver;
	struct pms_session_stats stats;
	struct arena arena;
	struct strtab strs;
	struct pms_ptrmap threads; /* tid -> struct thread * */
	struct pms_procs aspaces;  /* pid -> struct aspace */
	struct aspace *kernel;     /* the host kernel's maps: the kernel itself and its modules */
	const struct pms_data_build_id *kernel_bid; /* from HEADER_BUILD_ID */
	struct thread *last_thread;
	enum pms_unwind_arch arch;

	size_t nr_attrs;
	struct pms_decode_cfg *cfgs;
	const char **event_names;
	uint64_t *fixed_period;    /* per attr: the period of samples without PERIOD (-c N), else 1 */

	/* HEADER_BUILD_ID entries by interned path */
	struct pms_ptrmap build_ids; /* (intptr) path -> struct pms_data_build_id * */
	bool build_ids_by_pid;     /* some entry has pid != -1 */

	/* time ordering */
	bool ordered;
	struct pms_ordered *oq;
	bool eof;
	int end_err;

	/* output */
	struct pms_session_sample out;
	struct pms_record side_rec;   /* the side-band record in out.record */
	struct pms_sample sample;
	struct pms_frame *frames;
	bool *exact;               /* per frame: an interrupted address, not a return address */
	struct fcache_ent *fcache;
	size_t fcache_mask;        /* entries - 1: starts small, grows x4 while it misses a lot */
	uint64_t fcache_misses;
	bool own_resolver;
	struct pms_chaincheck *chains;
	size_t max_frames;
	uint64_t *uw_ips;
};

const char *pms_unres_reason__describe(enum pms_unres_reason reason)
{
	switch (reason) {
	case PMS_UNRES_NO_MAP: return "no mapping";
	case PMS_UNRES_NO_FILE: return "file missing";
	case PMS_UNRES_NO_SYM: return "no symbol";
	case PMS_UNRES_STALE: return "binary rebuilt";
	case PMS_UNRES_RESTRICTED: return "kernel symbols restricted";
	case PMS_UNRES_NO_KERNEL: return "kernel symbols not here";
	case PMS_UNRES_STRIPPED: return "stripped binary";
	default: return "unknown";
	}
}

const char *pms_session__event_name(const struct pms_session *s, size_t attr_idx)
{
	return attr_idx < s->nr_attrs ? s->event_names[attr_idx] : NULL;
}

size_t pms_session__nr_reads(const struct pms_session *s)
{
	return s->nr_reads;
}

const struct pms_session_read *pms_session__read(const struct pms_session *s, size_t i)
{
	return i < s->nr_reads ? &s->reads[i] : NULL;
}

const struct pms_session_stats *pms_session__stats(const struct pms_session *s)
{
	return &s->stats;
}

struct pms_data_reader *pms_session__reader(struct pms_session *s)
{
	return s->reader;
}

struct pms_resolver *pms_session__resolver(struct pms_session *s)
{
	return s->resolver;
}

static void aspace_drop_unwinder(struct aspace *as)
{
	pms_unwinder__free(as->unw);
	as->unw = NULL;
	pms_maps__free(as->umaps);
	as->umaps = NULL;
	as->unw_valid = false;
	as->unw_err = 0;
}

static void aspace_release(struct pms_proc *p)
{
	aspace_drop_unwinder((struct aspace *)p);
}

static void aspace_free(struct aspace *as)
{
	if (!as)
		return;
	aspace_drop_unwinder(as);
	pms_vmas__release(&as->proc.vmas);
	free(as);
}

/* The kernel's maps: an address space outside the process table. */
static struct aspace *kernel_aspace_new(void)
{
	struct aspace *as = calloc(1, sizeof(*as));

	if (as) {
		as->proc.pid = -1;
		pms_vmas__init(&as->proc.vmas, sizeof(struct smap));
	}
	return as;
}

void pms_session__free(struct pms_session *s)
{
	if (!s)
		return;
	pms_procs__release(&s->aspaces);
	aspace_free(s->kernel);
	pms_ptrmap__release(&s->threads);
	pms_ptrmap__release(&s->build_ids);
	free(s->reads);
	free(s->strs.strs);
	pms_idtab__release(&s->strs.by_text);
	arena_free(&s->arena);
	pms_ordered__free(s->oq);
	free(s->cfgs);
	free(s->event_names);
	free(s->fixed_period);
	free(s->frames);
	free(s->exact);
	free(s->fcache);
	free(s->uw_ips);
	pms_chaincheck__free(s->chains);
	if (s->own_resolver)
		pms_resolver__free(s->resolver);
	pms_data_reader__free(s->reader);
	free(s);
}

/* ---- threads and address spaces ---- */

static struct thread *thread_new(struct pms_session *s, int32_t pid, int32_t tid, const char *comm)
{
	struct thread *t = arena_alloc(&s->arena, sizeof(*t));

	if (!t)
		return NULL;
	t->pid = pid;
	t->tid = tid;
	t->comm = comm;
	t->comm_set = tid == 0;
	if (pms_ptrmap__put(&s->threads, tid, t))
		return NULL;
	s->last_thread = t;
	return t;
}

/* perf's name for a thread whose COMM was never seen: ":TID" ("swapper" for the idle task). */
static const char *default_comm(struct pms_session *s, int32_t tid)
{
	char buf[24];

	if (tid == 0)
		return intern(&s->strs, &s->arena, "swapper");
	snprintf(buf, sizeof(buf), ":%d", tid);
	return intern(&s->strs, &s->arena, buf);
}

static struct thread *thread_find(struct pms_session *s, int32_t pid, int32_t tid, bool create)
{
	struct thread *t;
	const char *comm;

	if (s->last_thread && s->last_thread->tid == tid)
		return s->last_thread;
	t = pms_ptrmap__get(&s->threads, tid);
	if (t) {
		s->last_thread = t;
		return t;
	}
	if (!create)
		return NULL;
	comm = default_comm(s, tid);
	return comm ? thread_new(s, pid, tid, comm) : NULL;
}

static struct aspace *aspace_find(struct pms_session *s, int32_t pid, bool create)
{
	struct aspace *as = (struct aspace *)pms_procs__find(&s->aspaces, pid, create);
	char buf[48];

	if (as && !as->jit_dso) {
		snprintf(buf, sizeof(buf), "/tmp/perf-%d.map", pid);
		as->jit_dso = intern(&s->strs, &s->arena, buf);
		if (!as->jit_dso)
			return NULL;
	}
	return as;
}

static inline const struct smap *aspace_lookup(const struct aspace *as, uint64_t addr)
{
	return pms_vmas__find(&as->proc.vmas, addr);
}

/* Forget m (one of as's maps). */
static int aspace_remove(struct aspace *as, const struct smap *m)
{
	pms_vmas__remove(&as->proc.vmas, m);
	as->unw_valid = false;
	return 0;
}

/*
 * Insert m; a newer mapping replaces the overlapped parts of older ones
 * (which keep their non-overlapping head and tail, as perf splits them).
 */
static int aspace_insert(struct aspace *as, const struct smap *m)
{
	as->unw_valid = false;
	return pms_vmas__insert(&as->proc.vmas, m);
}

/* A new process pid: a copy of src's address space (none: empty). */
static struct aspace *aspace_clone(struct pms_session *s, const struct aspace *src, int32_t pid)
{
	struct aspace *as = aspace_find(s, pid, true);

	if (!as)
		return NULL;
	aspace_drop_unwinder(as);
	if (src && src != as) {
		if (pms_vmas__copy(&as->proc.vmas, &src->proc.vmas))
			return NULL;
	} else {
		pms_vmas__clear(&as->proc.vmas);
	}
	return as;
}

/* ---- build-ids from HEADER_BUILD_ID ---- */

static const char *module_name(struct pms_session *s, const char *path, bool *kmod);
static bool is_kernel_map_name(const char *name);
static int tell_kernel(struct pms_session *s, const struct smap *kmap, const char *reloc_sym, uint64_t reloc_addr);

static int index_build_ids(struct pms_session *s)
{
	const struct pms_data_features *f = pms_data_reader__features(s->reader);

	for (size_t i = 0; f && i < f->nr_build_ids; i++) {
		struct pms_data_build_id *b = &f->build_ids[i];
		const char *p;

		if (!b->filename || !b->size)
			continue;
		p = intern(&s->strs, &s->arena, b->filename);
		if (!p)
			return -ENOMEM;
		if (!s->kernel_bid && b->cpumode == PERF_RECORD_MISC_KERNEL) {
			/* the kernel's entry is the first kernel-space one that is not a module */
			bool kmod;

			if (!module_name(s, b->filename, &kmod))
				return -ENOMEM;
			if (!kmod || is_kernel_map_name(b->filename))
				s->kernel_bid = b;
		}
		if (b->pid != -1)
			s->build_ids_by_pid = true;
		if (!pms_ptrmap__get(&s->build_ids, (int64_t)(intptr_t)p) &&
		    pms_ptrmap__put(&s->build_ids, (int64_t)(intptr_t)p, b))
			return -ENOMEM;
	}
	return 0;
}

static const struct pms_data_build_id *build_id_of(struct pms_session *s, const char *path,
						   int32_t pid)
{
	const struct pms_data_build_id *b = pms_ptrmap__get(&s->build_ids, (int64_t)(intptr_t)path);
	const struct pms_data_features *f;

	if (!b || !s->build_ids_by_pid || b->pid == -1 || b->pid == pid)
		return b;
	/* The first entry is another process's: look for ours or a host one. */
	f = pms_data_reader__features(s->reader);
	for (size_t i = 0; i < f->nr_build_ids; i++) {
		const struct pms_data_build_id *c = &f->build_ids[i];

		if (c->filename && !strcmp(c->filename, path) && (c->pid == pid || c->pid == -1))
			return c;
	}
	return NULL;
}

/* ---- the kernel and its modules (perf's kernel maps) ---- */

/*
 * perf's kmod_path__parse_name(): "/lib/modules/…/i2c-piix4.ko.xz" and
 * "[i2c_piix4]" are module "i2c_piix4" (shown "[i2c_piix4]"); a path that
 * is not a .ko keeps its base name. Sets *kmod when it is a module.
 */
static const char *module_name(struct pms_session *s, const char *path, bool *kmod)
{
	char buf[256];
	const char *b;

	*kmod = !pms_kmod__name(path, buf, sizeof(buf));
	if (*kmod)
		return intern(&s->strs, &s->arena, buf);
	b = strrchr(path, '/');
	snprintf(buf, sizeof(buf), "%s", b ? b + 1 : path);
	for (char *c = buf; *c; c++)
		if (*c == '-')
			*c = '_';
	return intern(&s->strs, &s->arena, buf);
}

static bool is_kernel_map_name(const char *name)
{
	/* perf compares strlen("[kernel.kallsyms]") - 1 bytes: "[kernel.kallsyms" */
	return !strncmp(name, "[kernel.kallsyms", 16);
}

/* What the resolver needs to pick the kernel's symbols, from the header and the kernel map. */
static int tell_kernel(struct pms_session *s, const struct smap *kmap, const char *reloc_sym, uint64_t reloc_addr)
{
	const struct pms_data_features *f = pms_data_reader__features(s->reader);
	struct pms_kernel_ref k = { 0 };

	if (kmap && kmap->build_id) {
		k.build_id = kmap->build_id;
		k.build_id_size = kmap->build_id_size;
	} else if (s->kernel_bid) {
		k.build_id = s->kernel_bid->id;
		k.build_id_size = s->kernel_bid->size;
	}
	k.reloc_sym = reloc_sym;
	k.reloc_addr = reloc_addr;
	if (kmap) {
		k.map_start = kmap->vma.start;
		k.map_end = kmap->vma.end;
	}
	k.osrelease = f && pms_data_features__has(f, PMS_FEAT_OSRELEASE) ? f->osrelease : NULL;
	return pms_resolver__set_kernel(s->resolver, &k);
}

/* A host kernel MMAP (pid -1): the kernel itself ("[kernel.kallsyms]_text") or a module. */
/* The record's build-id lives in the reader's buffer, which is reused for
 * the next record; the map outlives it. */
static int copy_record_build_id(struct pms_session *s, const struct pms_record *r,
				struct smap *m)
{
	uint8_t *b = arena_alloc(&s->arena, r->mmap.build_id_size);

	if (!b)
		return -ENOMEM;
	memcpy(b, r->mmap.build_id, r->mmap.build_id_size);
	m->build_id = b;
	m->build_id_size = r->mmap.build_id_size;
	return 0;
}

static int handle_kernel_mmap(struct pms_session *s, const struct pms_record *r)
{
	const char *path = r->mmap.filename;
	struct smap m = { 0 };
	bool kmod;

	if (!s->kernel) {
		s->kernel = kernel_aspace_new();
		if (!s->kernel)
			return -ENOMEM;
	}
	m.vma.start = r->mmap.addr;
	m.vma.end = m.vma.start + r->mmap.len;
	if (r->mmap.len > UINT64_MAX - m.vma.start)
		return 0; /* perf's map would end below its start and never match */
	if (r->mmap.has_build_id && r->mmap.build_id_size &&
	    copy_record_build_id(s, r, &m))
		return -ENOMEM;
	if (path[0] == '/' || (path[0] == '[' && !is_kernel_map_name(path))) {
		m.kind = SMAP_MODULE;
		m.path = module_name(s, path, &kmod);
		if (!m.path)
			return -ENOMEM;
		if (kmod) {
			char buf[260];

			snprintf(buf, sizeof(buf), "[%s]", m.path);
			m.name = intern(&s->strs, &s->arena, buf);
		} else {
			m.name = m.path;
		}
		if (!m.name)
			return -ENOMEM;
		m.long_name = m.name;
		if (pms_ptrmap__nr(&s->build_ids)) {
			const char *p = intern(&s->strs, &s->arena, path);

			if (!p)
				return -ENOMEM;
			if (pms_ptrmap__get(&s->build_ids, (int64_t)(intptr_t)p))
				m.long_name = p;
		}
		return aspace_insert(s->kernel, &m);
	}
	if (!is_kernel_map_name(path))
		return 0; /* perf's extra kernel maps (entry trampolines): not named here either */
	m.kind = SMAP_KERNEL;
	m.path = "[kernel.kallsyms]";
	m.name = m.path;
	/* some files carry a zero-sized kernel map: perf then takes it as covering everything */
	if (!m.vma.start && !m.vma.end)
		m.vma.end = UINT64_MAX;
	{
		int err = tell_kernel(s, &m, path + 17, r->mmap.pgoff);

		if (err)
			return err;
	}
	return aspace_insert(s->kernel, &m);
}

/*
 * PERF_RECORD_KSYMBOL: code the kernel made at run time (BPF programs,
 * trampolines), as perf's machine__process_ksymbol_*(): a range that no
 * kernel map covers becomes one named after the symbol; inside a map the
 * symbol names that range of the map. Unregistering forgets it.
 */
static int handle_ksymbol(struct pms_session *s, const struct pms_record *r)
{
	uint64_t start = r->ksymbol.addr, len = r->ksymbol.len;
	const struct smap *cover;
	struct smap m = { 0 };

	if (!len || len > UINT64_MAX - start || !r->ksymbol.name)
		return 0;
	if (!s->kernel) {
		s->kernel = kernel_aspace_new();
		if (!s->kernel)
			return -ENOMEM;
	}
	cover = aspace_lookup(s->kernel, start);
	if (r->ksymbol.flags & PERF_RECORD_KSYMBOL_FLAGS_UNREGISTER) {
		if (!cover || !cover->ksym)
			return 0;
		/* a range carved from a map goes back to it; one of its own goes away */
		if (cover->kind == SMAP_KSYM)
			return aspace_remove(s->kernel, cover);
		m = *cover;
		m.ksym = NULL;
		return aspace_insert(s->kernel, &m);
	}
	if (cover && !cover->ksym) {
		m = *cover;
		m.vma.pgoff += start - cover->vma.start;
	} else {
		m.kind = SMAP_KSYM;
		m.name = intern(&s->strs, &s->arena, r->ksymbol.name);
		if (!m.name)
			return -ENOMEM;
		m.path = m.name;
		m.long_name = m.name;
	}
	m.vma.start = start;
	m.vma.end = start + len;
	m.ksym = intern(&s->strs, &s->arena, r->ksymbol.name);
	if (!m.ksym)
		return -ENOMEM;
	return aspace_insert(s->kernel, &m);
}

/* ---- record handlers ---- */

/*
 * Memory perf calls anonymous and names "/tmp/perf-PID.map" (its JIT map);
 * other file-less mappings (memfd, SysV shm, [heap]) keep their own name,
 * as in perf script.
 */
static bool is_perf_anon(const char *p)
{
	return !strcmp(p, "//anon") || !strncmp(p, "/anon_hugepage", 14) || !strncmp(p, "/dev/zero", 9);
}

static bool is_anon_path(const char *p)
{
	return p[0] != '/' ? strcmp(p, "[vdso]") != 0 :
	       is_perf_anon(p) || !strncmp(p, "/memfd:", 7) || !strncmp(p, "/SYSV", 5);
}

static int handle_mmap(struct pms_session *s, const struct pms_record *r)
{
	struct smap m = { 0 };
	struct aspace *as;
	const char *path = r->mmap.filename;

	if (r->mmap.data)
		return 0;
	if (r->type == PERF_RECORD_MMAP2 && r->mmap.prot && !(r->mmap.prot & PROT_EXEC))
		return 0;
	if ((int32_t)r->mmap.pid == -1)
		return handle_kernel_mmap(s, r);
	/* a guest's kernel maps: guest frames are not resolved */
	if ((r->misc & PERF_RECORD_MISC_CPUMODE_MASK) == PERF_RECORD_MISC_KERNEL ||
	    (r->misc & PERF_RECORD_MISC_CPUMODE_MASK) == PERF_RECORD_MISC_GUEST_KERNEL)
		return 0;
	as = aspace_find(s, (int32_t)r->mmap.pid, true);
	if (!as)
		return -ENOMEM;
	m.vma.start = r->mmap.addr;
	if (r->mmap.len > UINT64_MAX - m.vma.start)
		return 0;
	m.vma.end = m.vma.start + r->mmap.len;
	m.vma.pgoff = r->mmap.pgoff;
	m.kind = is_anon_path(path) ? SMAP_ANON : SMAP_FILE;
	m.path = intern(&s->strs, &s->arena, path);
	if (!m.path)
		return -ENOMEM;
	if (r->mmap.has_build_id && r->mmap.build_id_size) {
		if (copy_record_build_id(s, r, &m))
			return -ENOMEM;
	} else if (m.kind == SMAP_FILE && pms_ptrmap__nr(&s->build_ids)) {
		const struct pms_data_build_id *b = build_id_of(s, m.path, as->proc.pid);

		if (b) {
			m.build_id = b->id;
			m.build_id_size = b->size;
		}
	}
	return aspace_insert(as, &m);
}

static int handle_comm(struct pms_session *s, const struct pms_record *r)
{
	struct thread *t = thread_find(s, (int32_t)r->comm.pid, (int32_t)r->comm.tid, true);
	const char *comm;

	if (!t)
		return -ENOMEM;
	comm = intern(&s->strs, &s->arena, r->comm.comm);
	if (!comm)
		return -ENOMEM;
	t->comm = comm;
	t->comm_set = true;
	t->pid = (int32_t)r->comm.pid;
	if (r->comm.exec) {
		/*
		 * exec replaced the address space, but the old mappings stay
		 * until the new program's MMAPs cover them, as in perf: the
		 * kernel reports COMM before those MMAPs, and a sample taken in
		 * between (in execve itself) still returns to the old program's
		 * execve call. Only the unwinder's view is stale.
		 */
		struct aspace *as = aspace_find(s, (int32_t)r->comm.pid, false);

		if (as) {
			aspace_drop_unwinder(as);
			as->proc.vmas.gen++;
		}
	}
	return 0;
}

static int handle_fork(struct pms_session *s, const struct pms_record *r)
{
	int32_t pid = (int32_t)r->task.pid, ppid = (int32_t)r->task.ppid;
	int32_t tid = (int32_t)r->task.tid, ptid = (int32_t)r->task.ptid;
	struct thread *parent = thread_find(s, ppid, ptid, false), *child;
	/* as perf: only a name a COMM gave is inherited (the idle task is "swapper" from the start) */
	bool named = parent ? parent->comm_set : ptid == 0;
	const char *comm = parent && parent->comm_set ? parent->comm : default_comm(s, named ? 0 : tid);

	if (!comm)
		return -ENOMEM;
	/* A tid seen again after EXIT is a new thread: replace it. */
	child = thread_new(s, pid, tid, comm);
	if (!child)
		return -ENOMEM;
	child->comm_set = named;
	if (pid != ppid) {
		/* A new process: a copy of the parent's address space as it is now. */
		struct aspace *src = aspace_find(s, ppid, false);

		if (!aspace_clone(s, src, pid))
			return -ENOMEM;
	}
	return 0;
}

/* ---- frames ---- */

static void frame_unknown(struct pms_frame *f, uint64_t ip)
{
	memset(&f->res, 0, sizeof(f->res));
	f->res.status = PMS_RES_NO_FILE;
	f->res.dso = "[unknown]";
	f->res.addr = ip;
}

/*
 * Resolve one frame. Return addresses are looked up at ip - 1 (the call
 * instruction) but reported with their own ip and offset. Returns whether a
 * mapping covered the address (for the NO_MAP statistic).
 */
enum {
	FRAME_AT_IP,      /* a sampled IP, or where a context was interrupted */
	FRAME_RET_FP,     /* a return address of a frame-pointer chain */
	FRAME_RET_DWARF,  /* one a DWARF unwinder found (perf looks those up at ip - 1 too) */
};
static bool resolve_frame_uncached(struct pms_session *s, struct aspace *as, int32_t pid,
				   struct pms_frame *f, unsigned caller);

static bool resolve_frame(struct pms_session *s, struct aspace *as, int32_t pid,
			  struct pms_frame *f, unsigned caller)
{
	const struct aspace *key_as = f->kind == PMS_FRAME_KERNEL ? s->kernel : as;
	uint32_t gen = key_as ? key_as->proc.vmas.gen : 0;
	struct fcache_ent *e;
	enum pms_frame_kind in_kind;
	bool mapped;

	if (f->kind == PMS_FRAME_GUEST || !key_as)
		return resolve_frame_uncached(s, as, pid, f, caller);
	e = &s->fcache[pms_hash__mix64(f->ip ^ (uint64_t)(uintptr_t)key_as ^ caller) & s->fcache_mask];
	if (e->valid && e->ip == f->ip && e->as == key_as && e->gen == gen && e->caller == caller &&
	    e->kind == f->kind) {
		f->res = e->res;
		f->map_addr = e->map_addr;
		f->dso_path = e->dso_path;
		f->caller = caller != FRAME_AT_IP;
		f->kind = e->out_kind;
		return e->mapped;
	}
	in_kind = f->kind;
	mapped = resolve_frame_uncached(s, as, pid, f, caller);
	/* a file with many distinct addresses outgrows a small cache: drop it for one 4x larger */
	if (++s->fcache_misses > 2 * (s->fcache_mask + 1) && s->fcache_mask + 1 < FCACHE_MAX) {
		struct fcache_ent *n = calloc(4 * (s->fcache_mask + 1), sizeof(*n));

		if (n) {
			free(s->fcache);
			s->fcache = n;
			s->fcache_mask = 4 * (s->fcache_mask + 1) - 1;
			s->fcache_misses = 0;
			e = &s->fcache[pms_hash__mix64(f->ip ^ (uint64_t)(uintptr_t)key_as ^ caller) & s->fcache_mask];
		}
	}
	/* stale results go back to the resolver each time: it counts them per sample */
	if (f->res.status != PMS_RES_STALE) {
		e->ip = f->ip;
		e->as = key_as;
		e->gen = gen;
		e->caller = (uint8_t)caller;
		e->kind = in_kind;
		e->out_kind = f->kind;
		e->mapped = mapped;
		e->res = f->res;
		e->map_addr = f->map_addr;
		e->dso_path = f->dso_path;
		e->valid = 1;
	}
	return mapped;
}

static bool resolve_frame_uncached2(struct pms_session *s, struct aspace *as, int32_t pid,
				    struct pms_frame *f, unsigned caller);

static bool resolve_frame_uncached(struct pms_session *s, struct aspace *as, int32_t pid,
				   struct pms_frame *f, unsigned caller)
{
	bool mapped;

	f->dso_path = NULL;
	mapped = resolve_frame_uncached2(s, as, pid, f, caller);
	if (!f->dso_path)
		f->dso_path = f->res.dso;
	return mapped;
}

/* What the resolver needs of a user mapping. */
static struct pms_map_ref map_ref(const struct smap *m, int32_t pid)
{
	return (struct pms_map_ref){
		.path = m->kind == SMAP_ANON && m->path[0] != '/' ? "//anon" : m->path,
		.start = m->vma.start,
		.pgoff = m->vma.pgoff,
		.build_id = m->build_id,
		.build_id_size = m->build_id_size,
		.pid = pid,
	};
}

static bool resolve_frame_uncached2(struct pms_session *s, struct aspace *as, int32_t pid,
				    struct pms_frame *f, unsigned caller)
{
	uint64_t ip = f->ip, look = caller != FRAME_AT_IP && ip ? ip - 1 : ip;
	uint64_t adj = ip - look;
	const struct smap *m;
	struct pms_map_ref ref;

	f->caller = caller != FRAME_AT_IP;
	f->map_addr = ip;

	if (f->kind == PMS_FRAME_GUEST) {
		frame_unknown(f, ip);
		return false;
	}
	if (f->kind == PMS_FRAME_KERNEL && s->opts.skip_kernel) {
		frame_unknown(f, ip);
		return false;
	}
	if (f->kind == PMS_FRAME_KERNEL) {
		/* as perf: a kernel address outside the recorded kernel maps belongs to nothing */
		m = s->kernel ? aspace_lookup(s->kernel, look) : NULL;
		if (!m && s->kernel && s->kernel->proc.vmas.nr) {
			/* recorded on this very kernel: perf maps it from /proc/kcore, init text included */
			uint64_t lo, hi;

			if (pms_resolver__running_kernel_text(s->resolver, &lo, &hi) && look >= lo && look < hi &&
			    !pms_resolver__kernel(s->resolver, look, &f->res))
				goto adjust;
		}
		if (!m) {
			frame_unknown(f, ip);
			return false;
		}
		if (m->ksym) {
			/* as perf: the KSYMBOL's name is the one symbol of its range */
			memset(&f->res, 0, sizeof(f->res));
			f->res.status = PMS_RES_OK;
			f->res.dso = m->name;
			f->res.sym = m->ksym;
			f->res.sym_off = look - m->vma.start;
			f->res.addr = look - m->vma.start;
			f->dso_path = m->long_name ? m->long_name : m->name;
		} else if (m->kind == SMAP_MODULE) {
			if (pms_resolver__module(s->resolver, m->path, m->vma.start, look, &f->res)) {
				frame_unknown(f, ip);
			} else {
				f->res.dso = m->name;
				f->dso_path = m->long_name;
			}
		} else if (pms_resolver__kernel(s->resolver, look, &f->res)) {
			frame_unknown(f, ip);
		}
		goto adjust;
	}
	m = as ? aspace_lookup(as, look) : NULL;
	if (!m) {
		frame_unknown(f, ip);
		return false;
	}
	ref = map_ref(m, pid);
	if (pms_resolver__user(s->resolver, &ref, look, &f->res)) {
		frame_unknown(f, ip);
		return true;
	}
	if (adj && caller == FRAME_RET_FP && (f->res.status != PMS_RES_OK || f->res.sym_open_end)) {
		/*
		 * No code before this "return address" (padding between
		 * functions, another mapping): it was no call's, most likely a
		 * function pointer a frame-pointer walk read off the stack.
		 * Name what it points at, as perf does. Likewise when the call
		 * ends an assembly label and the address starts the next one:
		 * the code falls through into it (ld.so's _start into
		 * _dl_start_user).
		 */
		bool label_end = f->res.status == PMS_RES_OK;
		const struct smap *m_ip = ip < m->vma.end ? m : aspace_lookup(as, ip);
		struct pms_map_ref ref_ip;
		struct pms_resolved at_ip;

		if (m_ip)
			ref_ip = map_ref(m_ip, pid);
		if (m_ip && !pms_resolver__user(s->resolver, &ref_ip, ip, &at_ip) && at_ip.status == PMS_RES_OK &&
		    (!label_end || at_ip.sym_off == 0)) {
			f->res = at_ip;
			m = m_ip;
			adj = 0;
		}
	}
	if (m->kind == SMAP_ANON) {
		/* memfd & co. are looked up in the JIT map too, but keep their name unless found there */
		if (f->res.status == PMS_RES_OK || is_perf_anon(m->path)) {
			f->kind = PMS_FRAME_JIT;
			f->res.dso = as->jit_dso;
		} else {
			f->res.dso = m->path;
		}
	}
	if (!is_perf_anon(m->path))
		f->map_addr = ip - m->vma.start + m->vma.pgoff;
	if (!f->res.dso)
		f->res.dso = "[unknown]";
adjust:
	f->res.addr += adj;
	if (f->res.status == PMS_RES_OK)
		f->res.sym_off += adj;
	return true;
}

static enum pms_frame_kind kind_of_cpumode(uint16_t cpumode, uint64_t ip)
{
	switch (cpumode) {
	case PERF_RECORD_MISC_KERNEL:
	case PERF_RECORD_MISC_HYPERVISOR:
		return PMS_FRAME_KERNEL;
	case PERF_RECORD_MISC_USER:
		return PMS_FRAME_USER;
	case PERF_RECORD_MISC_GUEST_KERNEL:
	case PERF_RECORD_MISC_GUEST_USER:
		return PMS_FRAME_GUEST;
	default:
		return ip >= KERNEL_HALF ? PMS_FRAME_KERNEL : PMS_FRAME_USER;
	}
}

/*
 * Append the callchain's addresses to frames. Markers set the kind of what
 * follows; the first address after a marker is where that context was
 * interrupted (exact), the rest are return addresses. When kernel_only,
 * stop at the user part (dwarf mode unwinds it instead).
 */
static size_t add_chain(struct pms_session *s, const struct pms_sample *smp, enum pms_frame_kind kind,
			size_t n, bool kernel_only)
{
	bool after_marker = true, dropped_ip = false;
	size_t cap = s->max_frames, skip = 0;

	if (s->opts.max_stack_from_root && !kernel_only) {
		size_t total = 0;

		for (uint64_t i = 0; i < smp->callchain_nr; i++)
			total += !pms_callchain__is_context(smp->callchain[i]);
		if (total > s->max_frames) {
			/* perf keeps the outermost max_stack entries: the sampled IP's copy goes first */
			skip = total - s->max_frames;
			cap = s->max_frames + 1;
			s->out.leaf_cut = true;
		}
	}
	for (uint64_t i = 0; i < smp->callchain_nr && n < cap; i++) {
		uint64_t ip = smp->callchain[i];
		struct pms_frame *f;

		if (pms_callchain__is_context(ip)) {
			switch (ip) {
			case PERF_CONTEXT_KERNEL:
			case PERF_CONTEXT_HV:
				kind = PMS_FRAME_KERNEL;
				break;
			case PERF_CONTEXT_USER:
				kind = PMS_FRAME_USER;
				break;
			case PERF_CONTEXT_GUEST:
			case PERF_CONTEXT_GUEST_KERNEL:
			case PERF_CONTEXT_GUEST_USER:
				kind = PMS_FRAME_GUEST;
				break;
			default:
				/*
				 * Not a marker: a garbage return address from a user
				 * frame-pointer walk that landed in the marker range.
				 * What follows is not trustworthy either (perf drops
				 * the whole chain).
				 */
				s->out.bad_callchain = true;
				s->stats.bad_callchains++;
				return n;
			}
			after_marker = true;
			continue;
		}
		if (kernel_only && kind != PMS_FRAME_KERNEL)
			break;
		if (skip) {
			skip--;
			dropped_ip = true;
			after_marker = false;
			continue;
		}
		/* The chain starts with the sampled IP, which frames[0] already is. */
		if (!dropped_ip && n == 1 && ip == s->frames[0].ip) {
			dropped_ip = true;
			after_marker = false;
			continue;
		}
		dropped_ip = true;
		s->exact[n] = after_marker;
		f = &s->frames[n++];
		f->ip = ip;
		f->kind = kind;
		after_marker = false;
	}
	return n;
}

static int unwind_user(struct pms_session *s, struct aspace *as, const struct pms_sample *smp,
		       size_t room, size_t *nr)
{
	struct pms_unwind_regs regs = {
		.arch = s->arch,
		.mask = smp->regs_user.mask,
		.values = smp->regs_user.regs,
	};

	*nr = 0;
	if (!as)
		return -ENOENT;
	if (!as->unw_valid) {
		struct pms_maps *um;

		aspace_drop_unwinder(as);
		as->unw_valid = true;
		um = calloc(1, sizeof(*um));
		if (!um)
			return -ENOMEM;
		um->maps = calloc(as->proc.vmas.nr ? as->proc.vmas.nr : 1, sizeof(*um->maps));
		if (!um->maps) {
			free(um);
			return -ENOMEM;
		}
		for (size_t i = 0; i < as->proc.vmas.nr; i++) {
			const struct smap *m = pms_vmas__at(&as->proc.vmas, i);
			struct pms_map *d = &um->maps[um->nr];

			if (m->kind != SMAP_FILE)
				continue;
			d->path = strdup(m->path);
			if (!d->path) {
				pms_maps__free(um);
				return -ENOMEM;
			}
			d->start = m->vma.start;
			d->end = m->vma.end;
			d->pgoff = m->vma.pgoff;
			memcpy(d->prot, "r-xp", 5);
			d->special = m->path[0] == '[';
			um->nr++;
		}
		as->umaps = um;
		as->unw_err = pms_unwinder__new(um, &as->unw);
	}
	if (as->unw_err || !as->unw)
		return as->unw_err ? as->unw_err : -ENOENT;
	return pms_unwinder__unwind(as->unw, &regs, smp->stack_user, smp->stack_user_dyn_size,
				    s->uw_ips, room, nr);
}

static void count_leaf(struct pms_session *s, const struct pms_frame *f, bool mapped)
{
	pms_resolver__count_leaf(s->resolver, &f->res);
	if (!mapped) {
		s->stats.unresolved[PMS_UNRES_NO_MAP]++;
		return;
	}
	switch (f->res.status) {
	case PMS_RES_OK: break;
	case PMS_RES_NO_SYM: s->stats.unresolved[PMS_UNRES_NO_SYM]++; break;
	case PMS_RES_NO_FILE: s->stats.unresolved[PMS_UNRES_NO_FILE]++; break;
	case PMS_RES_STALE: s->stats.unresolved[PMS_UNRES_STALE]++; break;
	case PMS_RES_RESTRICTED: s->stats.unresolved[PMS_UNRES_RESTRICTED]++; break;
	case PMS_RES_NO_KERNEL: s->stats.unresolved[PMS_UNRES_NO_KERNEL]++; break;
	case PMS_RES_STRIPPED: s->stats.unresolved[PMS_UNRES_STRIPPED]++; break;
	}
}

static int build_frames(struct pms_session *s, struct aspace *as)
{
	const struct pms_sample *smp = &s->sample;
	struct pms_session_sample *o = &s->out;
	enum pms_frame_kind kind0 = kind_of_cpumode(o->cpumode, smp->ip);
	bool has_chain = smp->present & PERF_SAMPLE_CALLCHAIN;
	bool dwarf = (smp->present & PERF_SAMPLE_REGS_USER) && smp->regs_user.abi != PERF_SAMPLE_REGS_ABI_NONE &&
		     (smp->present & PERF_SAMPLE_STACK_USER) && smp->stack_user_dyn_size > 0;
	size_t n = 1;
	bool mapped;

	s->frames[0].ip = smp->ip;
	s->frames[0].kind = kind0;
	s->exact[0] = true;
	o->has_callchain = has_chain || dwarf;
	o->dwarf_unwound = false;
	o->leaf_cut = false;
	if (dwarf)
		s->stats.dwarf_samples++;
	if (s->opts.callchain && has_chain)
		n = add_chain(s, smp, kind0, n, dwarf);
	if (s->opts.callchain && dwarf) {
		size_t nr = 0, room = s->max_frames - n + (kind0 == PMS_FRAME_USER ? 1 : 0);
		int err = room ? unwind_user(s, as, smp, room, &nr) : -ENOSPC;

		if (err || nr <= 1)
			s->stats.dwarf_failed++;
		if (!err && nr) {
			size_t k = 0;

			/* A user-mode sample: ips[0] is frames[0]. */
			if (kind0 != PMS_FRAME_KERNEL && s->uw_ips[0] == smp->ip)
				k = 1;
			for (; k < nr && n < s->max_frames; k++) {
				struct pms_frame *f = &s->frames[n];

				/* ips[0] of a kernel-mode sample is where the syscall or fault came from */
				s->exact[n++] = k == 0;
				f->ip = s->uw_ips[k];
				f->kind = PMS_FRAME_USER;
			}
			o->dwarf_unwound = nr > 1;
		} else if (kind0 == PMS_FRAME_KERNEL && n < s->max_frames) {
			/* no unwinder (or it failed): at least where user mode was left */
			struct pms_unwind_regs regs = { .arch = s->arch, .mask = smp->regs_user.mask,
							.values = smp->regs_user.regs };
			uint64_t uip;

			if (!pms_unwind_regs__get(&regs, s->arch == PMS_UNWIND_ARM64 ? PMS_ARM64_REG_PC :
							 PMS_X86_REG_IP, &uip) && uip) {
				s->exact[n] = true;
				s->frames[n].ip = uip;
				s->frames[n++].kind = PMS_FRAME_USER;
			}
		}
	}
	mapped = true;
	for (size_t i = 0; i < n; i++) {
		struct pms_frame *f = &s->frames[i];
		bool m = resolve_frame(s, as, (int32_t)o->pid, f,
				       s->exact[i] ? FRAME_AT_IP
				       : dwarf && f->kind == PMS_FRAME_USER ? FRAME_RET_DWARF : FRAME_RET_FP);

		if (i == 0)
			mapped = m;
	}
	count_leaf(s, &s->frames[0], mapped);
	if (s->opts.callchain && has_chain && !o->dwarf_unwound && !dwarf) {
		/* where the frame-pointer walk of the user stack ended, and the last object it knew */
		size_t last = n, blame = n;

		for (size_t i = 0; i < n; i++) {
			const struct pms_frame *f = &s->frames[i];

			if (f->kind != PMS_FRAME_USER && f->kind != PMS_FRAME_JIT)
				continue;
			last = i;
			if (f->res.dso && strcmp(f->res.dso, "[unknown]"))
				blame = i;
		}
		if (last < n) {
			struct pms_chaincheck_chain ch = {
				.outer_sym = s->frames[last].res.sym,
				.outer_vaddr = s->frames[last].res.addr,
				.outer_elf = s->frames[last].res.elf,
				.blame_dso = blame < n ? s->frames[blame].res.dso : NULL,
				.blame_elf = blame < n ? s->frames[blame].res.elf : NULL,
				.at_depth_limit = n >= s->max_frames || smp->callchain_nr >= DEFAULT_MAX_STACK - 1,
			};

			if (pms_chaincheck__add(s->chains, &ch))
				return -ENOMEM;
		}
	}
	o->frames = s->frames;
	o->nr_frames = n;
	return 0;
}

void pms_session__chain_check(struct pms_session *s, struct pms_chaincheck_result *out)
{
	pms_chaincheck__result(s->chains, out);
}

int pms_session__resolve_pid_addr(struct pms_session *s, uint32_t pid, uint64_t addr, struct pms_frame *out)
{
	struct aspace *as = aspace_find(s, (int32_t)pid, false);

	/* perf's thread__find_cpumode_addr_location(): the process's maps, then the kernel's */
	memset(out, 0, sizeof(*out));
	out->ip = addr;
	out->kind = PMS_FRAME_USER;
	if (resolve_frame(s, as, (int32_t)pid, out, FRAME_AT_IP))
		return 0;
	memset(out, 0, sizeof(*out));
	out->ip = addr;
	out->kind = PMS_FRAME_KERNEL;
	if (!resolve_frame(s, as, (int32_t)pid, out, FRAME_AT_IP))
		out->kind = addr >= KERNEL_HALF ? PMS_FRAME_KERNEL : PMS_FRAME_USER;
	return 0;
}

int pms_session__kernel_map_start(struct pms_session *s, uint64_t addr, uint64_t *start)
{
	const struct smap *m = s->kernel ? aspace_lookup(s->kernel, addr) : NULL;

	if (!m)
		return -ENOENT;
	*start = m->vma.start;
	return 0;
}

int pms_session__resolve_addr(struct pms_session *s, uint64_t addr, struct pms_frame *out)
{
	if (!s->out.sample)
		return -EINVAL;
	return pms_session__resolve_pid_addr(s, s->out.pid, addr, out);
}

/* ---- sample delivery ---- */

static int process_sample(struct pms_session *s, const struct perf_event_header *ev, int attr_idx,
			  uint64_t file_offset)
{
	struct pms_session_sample *o = &s->out;
	const struct pms_sample *smp = &s->sample;
	struct thread *t;
	struct aspace *as;
	size_t off;

	if (attr_idx < 0 || (size_t)attr_idx >= s->nr_attrs ||
	    pms_sample__decode(&s->cfgs[attr_idx], ev, ev->size, &s->sample, &off)) {
		s->stats.bad_samples++;
		return 0;
	}
	memset(o, 0, sizeof(*o));
	o->sample = smp;
	o->attr_idx = (size_t)attr_idx;
	o->event_name = s->event_names[attr_idx];
	o->file_offset = file_offset;
	o->cpumode = ev->misc & PERF_RECORD_MISC_CPUMODE_MASK;
	if (smp->present & PERF_SAMPLE_TID) {
		o->pid = smp->pid;
		o->tid = smp->tid;
	} else {
		o->pid = o->tid = (uint32_t)-1;
	}
	o->cpu = smp->present & PERF_SAMPLE_CPU ? smp->cpu : (uint32_t)-1;
	o->time_ns = smp->present & PERF_SAMPLE_TIME ? smp->time : 0;
	o->period = smp->present & PERF_SAMPLE_PERIOD ? smp->period : s->fixed_period[attr_idx];
	t = thread_find(s, (int32_t)o->pid, (int32_t)o->tid, true);
	if (!t)
		return -ENOMEM;
	o->comm = t->comm;
	as = aspace_find(s, (int32_t)o->pid, false);
	if (build_frames(s, as))
		return -ENOMEM;
	s->stats.samples++;
	if (smp->present & PERF_SAMPLE_TIME) {
		if (!s->stats.time_first_ns || smp->time < s->stats.time_first_ns)
			s->stats.time_first_ns = smp->time;
		if (smp->time > s->stats.time_last_ns)
			s->stats.time_last_ns = smp->time;
	}
	return 1;
}

/* The thread perf script names beside a side-band record: the one the record is about. */
static bool side_band_thread(const struct pms_record *r, int32_t *pid, int32_t *tid)
{
	switch (r->type) {
	case PERF_RECORD_COMM:
		*pid = (int32_t)r->comm.pid, *tid = (int32_t)r->comm.tid;
		return true;
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		*pid = (int32_t)r->mmap.pid, *tid = (int32_t)r->mmap.tid;
		return true;
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		*pid = (int32_t)r->task.pid, *tid = (int32_t)r->task.tid;
		return true;
	case PERF_RECORD_NAMESPACES:
		*pid = (int32_t)r->namespaces.pid, *tid = (int32_t)r->namespaces.tid;
		return true;
	default:
		if (!(r->sid.present & PERF_SAMPLE_TID))
			return false;
		*pid = (int32_t)r->sid.pid, *tid = (int32_t)r->sid.tid;
		return true;
	}
}

/* A side-band record into s->out (opts.side_band); returns 1, or -ENOMEM. */
static int side_band_out(struct pms_session *s, const struct pms_record *r, int attr_idx, uint64_t file_offset)
{
	struct pms_session_sample *o = &s->out;
	int32_t pid, tid;

	s->side_rec = *r;
	memset(o, 0, sizeof(*o));
	o->record = &s->side_rec;
	o->attr_idx = attr_idx >= 0 && (size_t)attr_idx < s->nr_attrs ? (size_t)attr_idx : 0;
	o->event_name = s->nr_attrs ? s->event_names[o->attr_idx] : "";
	o->file_offset = file_offset;
	o->cpumode = r->misc & PERF_RECORD_MISC_CPUMODE_MASK;
	o->pid = r->sid.present & PERF_SAMPLE_TID ? r->sid.pid : 0;
	o->tid = r->sid.present & PERF_SAMPLE_TID ? r->sid.tid : 0;
	o->cpu = r->sid.present & PERF_SAMPLE_CPU ? r->sid.cpu : 0;
	o->time_ns = r->sid.present & PERF_SAMPLE_TIME ? r->sid.time : 0;
	o->frames = s->frames;
	if (side_band_thread(r, &pid, &tid) && tid != -1) {
		struct thread *t = thread_find(s, pid, tid, true);

		if (!t)
			return -ENOMEM;
		o->record_comm = t->comm;
	}
	o->comm = o->record_comm ? o->record_comm : ":-1";
	return 1;
}

/* Adds value to (pid, tid, event), as perf's perf_read_values_add_value() does. 0 or -ENOMEM. */
static int add_read(struct pms_session *s, uint32_t pid, uint32_t tid, size_t attr_idx, uint64_t value)
{
	for (size_t i = 0; i < s->nr_reads; i++) {
		struct pms_session_read *x = &s->reads[i];

		if (x->pid == pid && x->tid == tid && x->attr_idx == attr_idx) {
			x->value += value;
			return 0;
		}
	}
	if (pms_array__reserve(&s->reads, &s->reads_alloc, s->nr_reads + 1, sizeof(*s->reads)))
		return -ENOMEM;
	s->reads[s->nr_reads++] = (struct pms_session_read){ .pid = pid, .tid = tid, .attr_idx = attr_idx, .value = value };
	return 0;
}

/*
 * A READ record's counts: each value's event by its id when the read_format
 * has ids (a group read names every member), else the record's own event.
 */
static int handle_read(struct pms_session *s, const struct pms_record *r, int attr_idx)
{
	const struct pms_read_values *rv = &r->read.values;

	for (uint64_t i = 0; i < rv->nr; i++) {
		struct pms_read_value v;
		int idx = attr_idx;

		if (pms_read_values__get(rv, i, &v))
			break;
		if (rv->read_format & PERF_FORMAT_ID) {
			int by_id = pms_data_reader__attr_of_id(s->reader, v.id);

			if (by_id >= 0)
				idx = by_id;
		}
		if (idx < 0)
			continue; /* no event to put it under */
		if (add_read(s, r->read.pid, r->read.tid, (size_t)idx, v.value))
			return -ENOMEM;
	}
	return 0;
}

/* Returns 1 when a sample is ready in s->out, 0 for other records, -errno. */
static int process_record(struct pms_session *s, const struct perf_event_header *ev, int attr_idx,
			  uint64_t file_offset)
{
	struct pms_record r;
	size_t off;
	int cfg_idx, rc = 0;

	if (ev->type < 128)
		s->stats.records_by_type[ev->type]++;
	if (ev->type == PERF_RECORD_SAMPLE)
		return process_sample(s, ev, attr_idx, file_offset);
	if (ev->type >= PERF_RECORD_MAX || !s->nr_attrs)
		return 0;
	cfg_idx = attr_idx >= 0 && (size_t)attr_idx < s->nr_attrs ? attr_idx : 0;
	if (pms_record__decode(&s->cfgs[cfg_idx], ev, ev->size, &r, &off))
		return 0;
	switch (ev->type) {
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		rc = handle_mmap(s, &r);
		break;
	case PERF_RECORD_COMM:
		rc = handle_comm(s, &r);
		break;
	case PERF_RECORD_FORK:
		rc = handle_fork(s, &r);
		break;
	case PERF_RECORD_KSYMBOL:
		rc = handle_ksymbol(s, &r);
		break;
	case PERF_RECORD_READ:
		rc = handle_read(s, &r, attr_idx >= 0 && (size_t)attr_idx < s->nr_attrs ? attr_idx : -1);
		break;
	case PERF_RECORD_LOST:
		s->stats.lost_events += r.lost.lost;
		break;
	case PERF_RECORD_LOST_SAMPLES:
		s->stats.lost_samples += r.lost_samples.lost;
		break;
	case PERF_RECORD_THROTTLE:
		s->stats.throttles++;
		break;
	case PERF_RECORD_UNTHROTTLE:
		s->stats.unthrottles++;
		break;
	default:
		break;
	}
	if (rc)
		return rc;
	if (ev->type < 64 && (s->opts.side_band & (1ULL << ev->type)))
		return side_band_out(s, &r, attr_idx, file_offset);
	return 0;
}

/* ---- time ordering (perf's ordered events) ---- */

/* The record's timestamp without decoding it, or NO_TIME. */
static uint64_t record_time(const struct pms_session *s, const struct perf_event_header *ev, int idx)
{
	uint64_t t;

	if (idx < 0 || (size_t)idx >= s->nr_attrs)
		idx = 0;
	if (!s->nr_attrs || !pms_record__time(&s->cfgs[idx], ev, &t))
		return NO_TIME;
	return t;
}

int pms_session__next(struct pms_session *s, const struct pms_session_sample **out)
{
	const struct perf_event_header *ev;
	uint64_t off;
	int rc, idx;

	for (;;) {
		if (s->ordered && pms_ordered__pop(s->oq, &ev, &idx, &off) > 0) {
			rc = process_record(s, ev, idx, off);
			if (rc < 0)
				return rc;
			if (rc) {
				*out = &s->out;
				return 1;
			}
			continue;
		}
		if (s->eof)
			return s->end_err;
		rc = pms_data_reader__next(s->reader, &ev, &off);
		if (rc > 0)
			pms_data_reader__drop_behind(s->reader, off);
		if (rc <= 0) {
			s->eof = true;
			s->end_err = rc;
			if (s->ordered)
				pms_ordered__flush_all(s->oq);
			continue;
		}
		if (ev->type == PERF_RECORD_FINISHED_ROUND) {
			if (ev->type < 128)
				s->stats.records_by_type[ev->type]++;
			if (s->ordered)
				pms_ordered__round(s->oq);
			if (s->opts.side_band_rounds) {
				memset(&s->side_rec, 0, sizeof(s->side_rec));
				s->side_rec.type = ev->type;
				s->side_rec.size = ev->size;
				memset(&s->out, 0, sizeof(s->out));
				s->out.record = &s->side_rec;
				s->out.event_name = "";
				s->out.comm = "";
				s->out.file_offset = off;
				s->out.frames = s->frames;
				*out = &s->out;
				return 1;
			}
			continue;
		}
		idx = ev->type == PERF_RECORD_SAMPLE || ev->type < PERF_RECORD_MAX ?
			      pms_data_reader__record_attr(s->reader, ev) : -1;
		if (ev->type == PERF_RECORD_SAMPLE && idx < 0 && s->nr_attrs == 1)
			idx = 0;
		if (s->ordered) {
			uint64_t t = record_time(s, ev, idx);

			if (t != NO_TIME) {
				rc = pms_ordered__push(s->oq, ev, t, idx, off);
				if (rc)
					return rc;
				continue;
			}
		}
		/* Not orderable: handled at once, as perf does with untimed events. */
		rc = process_record(s, ev, idx, off);
		if (rc < 0)
			return rc;
		if (rc) {
			*out = &s->out;
			return 1;
		}
	}
}

/* ---- open ---- */

/*
 * Events the file does not name (pipe mode without EVENT_DESC) get perf's
 * name for their attr; a tracepoint, "sys:name" from the file's own tracing
 * data (its ids are the recording machine's), as perf names it.
 */
static const char *fallback_event_name(struct pms_session *s, const struct perf_event_attr *a,
				       struct pms_tracing_data **td, bool *td_tried)
{
	char buf[300];

	if (a->type == PERF_TYPE_TRACEPOINT) {
		const char *sys, *name;

		if (!*td_tried) {
			const void *blob;
			size_t size;
			char msg[160];

			*td_tried = true;
			if (!pms_data_reader__feature_raw(s->reader, PMS_FEAT_TRACING_DATA, &blob, &size))
				(void)pms_tracing_data__open(td, blob, size, msg, sizeof(msg));
		}
		if (*td && !pms_tracing_data__event(*td, a->config, &sys, &name)) {
			snprintf(buf, sizeof(buf), "%s:%s", sys, name);
			return intern(&s->strs, &s->arena, buf);
		}
	}
	pms_event_name__from_attr(a, buf, sizeof(buf));
	return intern(&s->strs, &s->arena, buf);
}

static enum pms_unwind_arch file_arch(struct pms_session *s)
{
	const struct pms_data_features *f = pms_data_reader__features(s->reader);

	if (f && f->arch) {
		if (!strcmp(f->arch, "aarch64") || !strcmp(f->arch, "arm64"))
			return PMS_UNWIND_ARM64;
		if (!strcmp(f->arch, "x86_64"))
			return PMS_UNWIND_X86_64;
	}
#ifdef __aarch64__
	return PMS_UNWIND_ARM64;
#else
	return PMS_UNWIND_X86_64;
#endif
}

static int session_init(struct pms_session *s, const struct pms_session_opts *opts)
{
	size_t nr;
	bool all_time = true, td_tried = false;
	struct pms_tracing_data *td = NULL;
	int err;

	if (opts) {
		size_t sz = opts->sz && opts->sz < sizeof(s->opts) ? opts->sz : sizeof(s->opts);

		memcpy(&s->opts, opts, sz);
	} else {
		s->opts.callchain = true;
	}
	s->opts.sz = sizeof(s->opts);
	s->max_frames = s->opts.max_stack ? s->opts.max_stack : DEFAULT_MAX_STACK;
	if (s->max_frames < 1)
		s->max_frames = 1;
	/* + 1: max_stack_from_root keeps the sampled IP beside max_stack chain entries */
	s->frames = calloc(s->max_frames + 1, sizeof(*s->frames));
	s->exact = calloc(s->max_frames + 1, sizeof(*s->exact));
	s->fcache = calloc(FCACHE_MIN, sizeof(*s->fcache));
	s->fcache_mask = FCACHE_MIN - 1;
	s->uw_ips = calloc(s->max_frames + 1, sizeof(*s->uw_ips));
	s->own_resolver = !s->opts.resolver;
	s->resolver = s->opts.resolver ? s->opts.resolver : pms_resolver__new();
	s->chains = pms_chaincheck__new();
	if (!s->frames || !s->exact || !s->fcache || !s->uw_ips || !s->resolver || !s->chains)
		return -ENOMEM;
	s->arch = file_arch(s);
	nr = pms_data_reader__nr_attrs(s->reader);
	s->nr_attrs = nr;
	s->cfgs = calloc(nr ? nr : 1, sizeof(*s->cfgs));
	s->event_names = calloc(nr ? nr : 1, sizeof(*s->event_names));
	s->fixed_period = calloc(nr ? nr : 1, sizeof(*s->fixed_period));
	if (!s->cfgs || !s->event_names || !s->fixed_period)
		return -ENOMEM;
	for (size_t i = 0; i < nr; i++) {
		const struct perf_event_attr *a = pms_data_reader__attr(s->reader, i);
		const char *name = pms_data_reader__attr_name(s->reader, i);
		uint64_t st = a->sample_type;

		pms_decode_cfg__from_attr(&s->cfgs[i], a);
		/* as perf: without PERIOD each sample counts the attr's period; perf takes the union
		 * as it is, a frequency too (perf's own files sample PERIOD with one); 0 would
		 * weigh nothing */
		s->fixed_period[i] = a->sample_period ? a->sample_period : 1;
		s->event_names[i] = name ? intern(&s->strs, &s->arena, name) : fallback_event_name(s, a, &td, &td_tried);
		if (!s->event_names[i]) {
			pms_tracing_data__free(td);
			return -ENOMEM;
		}
		if (!(st & PERF_SAMPLE_TIME))
			all_time = false;
	}
	pms_tracing_data__free(td);
	/* perf script --show-round-events delivers in file order, rounds where they are */
	s->ordered = nr && all_time && !s->opts.side_band_rounds;
	if (s->ordered && pms_ordered__new(&s->oq))
		return -ENOMEM;
	err = index_build_ids(s);
	if (!err)
		err = pms_resolver__set_paths(s->resolver, s->opts.symfs ? s->opts.symfs : "", s->opts.buildid_dir);
	if (!err && s->opts.kallsyms)
		err = pms_resolver__set_kallsyms(s->resolver, s->opts.kallsyms);
	/* a recording: kernel addresses are named only with its own kernel's symbols */
	if (!err)
		err = tell_kernel(s, NULL, NULL, 0);
	return err;
}

static int session_finish_open(struct pms_session **out, struct pms_session *s,
			       const struct pms_session_opts *opts)
{
	int err;

	pms_procs__init(&s->aspaces, sizeof(struct aspace), sizeof(struct smap), aspace_release);
	err = session_init(s, opts);
	if (err) {
		pms_session__free(s);
		return err;
	}
	*out = s;
	return 0;
}

int pms_session__open(struct pms_session **out, const char *path,
		      const struct pms_session_opts *opts, struct pms_data_error *err)
{
	struct pms_data_reader_opts ropts = { .sz = sizeof(ropts), .recover = opts && opts->recover };
	struct pms_session *s;
	int rc;

	*out = NULL;
	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	rc = pms_data_reader__open(&s->reader, path, &ropts, err);
	if (rc) {
		free(s);
		return rc;
	}
	return session_finish_open(out, s, opts);
}

int pms_session__open_mem(struct pms_session **out, const void *buf, size_t len,
			  const struct pms_session_opts *opts, struct pms_data_error *err)
{
	struct pms_data_reader_opts ropts = { .sz = sizeof(ropts), .recover = opts && opts->recover };
	struct pms_session *s;
	int rc;

	*out = NULL;
	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	rc = pms_data_reader__open_mem(&s->reader, buf, len, &ropts, err);
	if (rc) {
		free(s);
		return rc;
	}
	return session_finish_open(out, s, opts);
}
