// SPDX-License-Identifier: MIT
// Address resolution facade: cached DSOs (build-id checked), demangled names, kallsyms, JIT maps, srclines.
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "symbol/buildid_cache.h"
#include "symbol/debuginfod.h"
#include "symbol/demangle.h"
#include "symbol/dso.h"
#include "symbol/jitmap.h"
#include "symbol/kallsyms.h"
#include "symbol/maps.h"
#include "symbol/resolver.h"
#include "util/array.h"
#include "util/hash.h"
#include "util/idtab.h"
#include "util/hex.h"
#include "util/sysfs.h"

struct dso_entry {
	char *path;
	uint8_t build_id[PMS_BUILD_ID_MAX];
	size_t build_id_size;
	bool checked;           /* build_id given at open time */
	int err;                /* cached open failure (-ESTALE, -ENOENT, ...) */
	char found_hex[PMS_BUILD_ID_HEX_MAX];
	size_t stale_samples;
	size_t leaf_unnamed;    /* leaf samples of this file that could not be named */
	enum pms_res_status leaf_why;
	char bid_hex[PMS_BUILD_ID_HEX_MAX];
	struct pms_dso *dso;
	char **demangled;       /* lazily, parallel to dso->syms; (char *)1 = not mangled */
	struct pms_srcline *sl;
	int sl_err;
	bool used;              /* looked up since the last pms_resolver__trim_files() */
};

struct jit_entry {
	pid_t pid;
	int err;
	struct pms_jitmap jm;
};

/*
 * The vDSO is not a file: samples in "[vdso]" are resolved with this
 * process's own vDSO image (same kernel as the recording when reporting on
 * the recording machine), and only if its build-id matches when one was
 * recorded.
 */
struct vdso_entry {
	bool tried;
	void *image;
	struct pms_dso *dso;
};

/* The kernel a recording ran on, and the symbols chosen to name its addresses. */
struct kernel_state {
	bool recorded;            /* set_kernel() was called: a recording, not the live system */
	uint8_t bid[PMS_BUILD_ID_MAX];
	size_t bid_size;
	char bid_hex[PMS_BUILD_ID_HEX_MAX];
	char reloc_sym[32];
	uint64_t reloc_addr, map_start, map_end;
	char *osrelease;
	char *kallsyms_path;      /* --kallsyms */
	bool chosen;
	int identity;             /* -1 not yet known, 0/1: the running kernel is the recording's */
	enum pms_kernel_source src;
	char path[4096];
	int64_t delta;
	char why[256];
};

struct pms_resolver {
	struct vdso_entry vdso;
	struct dso_entry *dsos;
	size_t nr_dsos, cap_dsos;
	size_t last; /* index of the last hit: consecutive samples share a file */
	struct pms_idtab index; /* hash(path) -> dsos index (several per path: one per build-id) */
	struct jit_entry *jits;
	size_t nr_jits;
	struct pms_kallsyms own_ks;  /* a cached or given kallsyms */
	const struct pms_kallsyms *kp; /* the symbols naming kernel addresses: own_ks, run_ks or NULL */
	int ks_err;
	struct kernel_state k;
	size_t *unnamed_order;    /* dsos indices by leaf_unnamed, built by pms_resolver__unnamed(0) */
	size_t nr_unnamed;
	/* running kernel's kallsyms, read once for the identity checks (may become ks) */
	struct pms_kallsyms run_ks;
	int run_ks_err;
	bool run_ks_loaded;
	char *symfs;
	char *cache_dir;          /* "" = no cache */
	bool cache_dir_set;
	bool symfs_is_cache;
};

#define NOT_MANGLED ((char *)1)

static void entry_release(struct dso_entry *e);

struct pms_resolver *pms_resolver__new(void)
{
	return calloc(1, sizeof(struct pms_resolver));
}

void pms_resolver__free(struct pms_resolver *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->nr_dsos; i++)
		entry_release(&r->dsos[i]);
	free(r->dsos);
	pms_idtab__release(&r->index);
	free(r->unnamed_order);
	for (size_t i = 0; i < r->nr_jits; i++)
		pms_jitmap__release(&r->jits[i].jm);
	free(r->jits);
	pms_kallsyms__release(&r->own_ks);
	pms_kallsyms__release(&r->run_ks);
	free(r->k.osrelease);
	free(r->k.kallsyms_path);
	free(r->symfs);
	free(r->cache_dir);
	pms_dso__free(r->vdso.dso);
	free(r->vdso.image);
	free(r);
}

/* ---- where files are looked for ---- */

int pms_resolver__set_paths(struct pms_resolver *r, const char *symfs, const char *buildid_dir)
{
	if (symfs) {
		char link_dir[4096];
		struct stat st;

		free(r->symfs);
		r->symfs = *symfs ? strdup(symfs) : NULL;
		if (*symfs && !r->symfs)
			return -ENOMEM;
		r->symfs_is_cache = r->symfs &&
				    snprintf(link_dir, sizeof(link_dir), "%s/.build-id", r->symfs) < (int)sizeof(link_dir) &&
				    !stat(link_dir, &st) && S_ISDIR(st.st_mode);
	}
	if (buildid_dir) {
		free(r->cache_dir);
		r->cache_dir = strdup(buildid_dir);
		if (!r->cache_dir)
			return -ENOMEM;
		r->cache_dir_set = true;
	}
	return 0;
}

/* The build-id cache directory, "" when there is none. */
static const char *cache_dir(struct pms_resolver *r)
{
	if (!r->cache_dir_set) {
		char buf[4096];

		r->cache_dir_set = true;
		r->cache_dir = strdup(pms_buildid_cache__dir(buf, sizeof(buf)) ? "" : buf);
	}
	return r->cache_dir ? r->cache_dir : "";
}

/* A cached copy (kind "elf", "kallsyms", "vdso"...) of name with this build-id: in --symfs, then the cache. */
static int find_cached(struct pms_resolver *r, const char *name, const uint8_t *id, size_t id_size,
		       const char *kind, char *buf, size_t size)
{
	const char *dir = cache_dir(r);

	if (r->symfs_is_cache && !pms_buildid_cache__find(r->symfs, name, id, id_size, kind, buf, size))
		return 0;
	if (*dir && !pms_buildid_cache__find(dir, name, id, id_size, kind, buf, size))
		return 0;
	return -ENOENT;
}

/* ---- the recording's kernel ---- */

int pms_resolver__set_kernel(struct pms_resolver *r, const struct pms_kernel_ref *k)
{
	struct kernel_state *ks = &r->k;
	char *rel = k->osrelease ? strdup(k->osrelease) : NULL;

	if (k->osrelease && !rel)
		return -ENOMEM;
	free(ks->osrelease);
	ks->osrelease = rel;
	ks->recorded = true;
	ks->bid_size = k->build_id && k->build_id_size <= PMS_BUILD_ID_MAX ? k->build_id_size : 0;
	if (ks->bid_size)
		memcpy(ks->bid, k->build_id, ks->bid_size);
	pms_hex__encode(ks->bid, ks->bid_size, ks->bid_hex);
	snprintf(ks->reloc_sym, sizeof(ks->reloc_sym), "%s", k->reloc_sym ? k->reloc_sym : "");
	ks->reloc_addr = k->reloc_addr;
	ks->map_start = k->map_start;
	ks->map_end = k->map_end;
	/* choose again: what was known at the last choice has changed */
	ks->chosen = false;
	ks->identity = -1;
	return 0;
}

int pms_resolver__set_kallsyms(struct pms_resolver *r, const char *path)
{
	char *p = path ? strdup(path) : NULL;

	if (path && !p)
		return -ENOMEM;
	free(r->k.kallsyms_path);
	r->k.kallsyms_path = p;
	r->k.chosen = false;
	return 0;
}

static const struct pms_kallsyms *running_kallsyms(struct pms_resolver *r)
{
	if (!r->run_ks_loaded) {
		r->run_ks_loaded = true;
		r->run_ks_err = pms_kallsyms__load(&r->run_ks);
	}
	return r->run_ks_err ? NULL : &r->run_ks;
}

int pms_resolver__load_running_kernel(struct pms_resolver *r)
{
	return running_kallsyms(r) ? 0 : r->run_ks_err;
}

/*
 * Is the running kernel the one that made the recording? By build-id when
 * one was recorded; else only when the recorded kernel map is exactly the
 * running kernel's [reloc_sym, _etext) and the release agrees: perf files
 * without a kernel build-id (pipe mode) come from every kind of machine,
 * and a fixed _text (no KASLR) alone says little.
 */
static bool running_is_recorded(struct pms_resolver *r)
{
	struct kernel_state *k = &r->k;

	if (!k->recorded)
		return true;
	if (k->identity >= 0)
		return k->identity;
	k->identity = 0;
	if (k->bid_size) {
		uint8_t run[PMS_BUILD_ID_MAX];
		int n = pms_kernel__build_id(run, sizeof(run));

		k->identity = n > 0 && (size_t)n == k->bid_size && !memcmp(run, k->bid, k->bid_size);
		return k->identity;
	}
	if (k->reloc_addr && k->reloc_sym[0] && k->map_end > k->map_start) {
		const struct pms_kallsyms *run = running_kallsyms(r);
		struct utsname u;

		if (run && pms_kallsyms__ref_addr(run, k->reloc_sym) == k->reloc_addr &&
		    run->etext_addr == k->map_end &&
		    (!k->osrelease || (!uname(&u) && !strcmp(u.release, k->osrelease))))
			k->identity = 1;
	}
	return k->identity;
}

static int load_kallsyms_from(struct pms_resolver *r, const char *path, enum pms_kernel_source src)
{
	int err;

	pms_kallsyms__release(&r->own_ks);
	/* the build-id cache's copies get an index beside them: mapped, not parsed, next time */
	err = src == PMS_KSRC_CACHE ? pms_kallsyms__load_file_indexed(path, &r->own_ks) :
				      pms_kallsyms__load_file(path, &r->own_ks);
	if (!err) {
		r->kp = &r->own_ks;
		r->k.src = src;
		snprintf(r->k.path, sizeof(r->k.path), "%s", path);
	}
	return err;
}

/* KASLR: the recorded reloc_sym address against the one in the symbols chosen. */
static void set_delta(struct pms_resolver *r)
{
	uint64_t src = r->k.reloc_sym[0] ? pms_kallsyms__ref_addr(r->kp, r->k.reloc_sym) : 0;

	r->k.delta = r->k.reloc_addr && src ? (int64_t)(r->k.reloc_addr - src) : 0;
}

static void choose_kernel(struct pms_resolver *r)
{
	struct kernel_state *k = &r->k;
	char path[4096];

	if (k->chosen)
		return;
	k->chosen = true;
	k->src = PMS_KSRC_NONE;
	k->path[0] = k->why[0] = '\0';
	k->delta = 0;
	r->kp = NULL;
	r->ks_err = 0;
	if (k->kallsyms_path) {
		r->ks_err = load_kallsyms_from(r, k->kallsyms_path, PMS_KSRC_FILE);
		if (r->ks_err)
			snprintf(k->why, sizeof(k->why), "cannot read the kallsyms file '%s': %s", k->kallsyms_path,
				 strerror(-r->ks_err));
		else
			set_delta(r);
		return;
	}
	if (!k->recorded) {
		if (running_kallsyms(r)) {
			r->kp = &r->run_ks;
			k->src = PMS_KSRC_RUNNING;
			return;
		}
		r->ks_err = r->run_ks_err;
		snprintf(k->why, sizeof(k->why), "cannot read this machine's kallsyms: %s", strerror(-r->ks_err));
		return;
	}
	if (k->bid_size && !find_cached(r, "[kernel.kallsyms]", k->bid, k->bid_size, "kallsyms", path, sizeof(path)) &&
	    !load_kallsyms_from(r, path, PMS_KSRC_CACHE)) {
		set_delta(r);
		return;
	}
	if (running_is_recorded(r)) {
		const struct pms_kallsyms *run = running_kallsyms(r);

		if (run) {
			/* shared with the identity check: one read of /proc/kallsyms */
			r->kp = run;
			k->src = PMS_KSRC_RUNNING;
			snprintf(k->path, sizeof(k->path), "/proc/kallsyms");
			set_delta(r);
			return;
		}
		r->ks_err = r->run_ks_err;
		if (r->run_ks_err == -EACCES)
			snprintf(k->why, sizeof(k->why), "this machine's kallsyms reads as zeros (kptr_restrict): run as root");
		else
			snprintf(k->why, sizeof(k->why), "cannot read this machine's kallsyms: %s", strerror(-r->run_ks_err));
		return;
	}
	r->ks_err = -ENOENT;
	if (k->bid_size)
		snprintf(k->why, sizeof(k->why),
			 "recorded on a kernel of another build-id (%s), whose kallsyms is not in the build-id cache",
			 k->bid_hex);
	else
		snprintf(k->why, sizeof(k->why),
			 "no kernel build-id was recorded and the recorded kernel map is not this kernel's");
}

bool pms_resolver__running_kernel_text(struct pms_resolver *r, uint64_t *start, uint64_t *end)
{
	const struct pms_kallsyms *run;
	uint64_t ref, delta = 0;

	choose_kernel(r);
	if (!r->k.recorded || !r->kp || !running_is_recorded(r) || !(run = running_kallsyms(r)) || !run->core_hi)
		return false;
	/* in the recording's addresses: moved by the KASLR offset between then and now */
	ref = r->k.reloc_sym[0] ? pms_kallsyms__ref_addr(run, r->k.reloc_sym) : 0;
	if (r->k.reloc_addr && ref)
		delta = r->k.reloc_addr - ref;
	*start = run->core_lo + delta;
	*end = run->core_hi + delta;
	return true;
}

bool pms_resolver__kernel_touched(const struct pms_resolver *r)
{
	return r->k.chosen;
}

void pms_resolver__kernel_info(struct pms_resolver *r, struct pms_kernel_info *out)
{
	choose_kernel(r);
	memset(out, 0, sizeof(*out));
	out->source = r->k.src;
	out->path = r->k.path[0] ? r->k.path : NULL;
	out->build_id_hex = r->k.bid_hex;
	out->delta = r->k.delta;
	out->restricted = r->ks_err == -EACCES;
	out->why = r->k.why;
}


static struct pms_dso *get_vdso(struct pms_resolver *r)
{
	struct pms_maps *maps;

	if (r->vdso.tried)
		return r->vdso.dso;
	r->vdso.tried = true;
	if (pms_maps__read_pid(0, &maps))
		return NULL;
	for (size_t i = 0; i < maps->nr; i++) {
		const struct pms_map *m = &maps->maps[i];
		size_t len = (size_t)(m->end - m->start);

		if (strcmp(m->path, "[vdso]") || !len || len > (1 << 20))
			continue;
		r->vdso.image = malloc(len);
		if (!r->vdso.image)
			break;
		memcpy(r->vdso.image, (const void *)(uintptr_t)m->start, len);
		if (pms_dso__open_mem(r->vdso.image, len, &r->vdso.dso)) {
			free(r->vdso.image);
			r->vdso.image = NULL;
			r->vdso.dso = NULL;
		}
		break;
	}
	pms_maps__free(maps);
	return r->vdso.dso;
}

static struct dso_entry *get_dso(struct pms_resolver *r, const struct pms_map_ref *m);
static void resolve_in_entry(struct pms_resolver *r, struct dso_entry *e, const struct pms_map_ref *map,
			     uint64_t ip, struct pms_resolved *out);

/*
 * "[vdso]" has no file: a copy saved in the build-id cache names it, or this
 * process's own vDSO, but only when it is the recorded one (same build-id,
 * or no build-id recorded and the recording's kernel is the running one).
 */
static void resolve_vdso(struct pms_resolver *r, const struct pms_map_ref *map, uint64_t ip,
			 struct pms_resolved *out)
{
	struct pms_dso *v;
	const struct pms_sym *s;
	uint64_t vaddr;
	char path[4096];

	out->dso = "[vdso]";
	out->addr = ip - map->start + map->pgoff;
	if (map->build_id &&
	    !find_cached(r, "[vdso]", map->build_id, map->build_id_size, "vdso", path, sizeof(path))) {
		struct pms_map_ref cached = *map;
		struct dso_entry *e;

		cached.path = path;
		e = get_dso(r, &cached);
		if (e && !e->err) {
			resolve_in_entry(r, e, map, ip, out);
			out->dso = "[vdso]";
			return;
		}
	}
	v = map->build_id || running_is_recorded(r) ? get_vdso(r) : NULL;
	if (!v || (map->build_id && (map->build_id_size != v->build_id_size ||
				     memcmp(map->build_id, v->build_id, v->build_id_size)))) {
		/* another kernel's vDSO: missing here, counted and listed like any missing file */
		struct dso_entry *e = get_dso(r, map);

		if (e)
			resolve_in_entry(r, e, map, ip, out);
		out->dso = "[vdso]";
		return;
	}
	if (pms_dso__map_ip(v, map->start, map->pgoff, ip, &vaddr))
		return;
	out->addr = vaddr;
	s = pms_dso__find_sym(v, vaddr);
	out->status = s ? PMS_RES_OK : PMS_RES_NO_SYM;
	if (s) {
		out->sym = s->name;
		out->sym_off = vaddr - s->start;
		out->sym_open_end = s->size_guessed;
	}
}

static bool entry_matches(const struct dso_entry *e, const struct pms_map_ref *m)
{
	if (strcmp(e->path, m->path))
		return false;
	if (!m->build_id)
		return !e->checked;
	return e->checked && e->build_id_size == m->build_id_size &&
	       !memcmp(e->build_id, m->build_id, m->build_id_size);
}

static uint32_t path_hash(const char *path)
{
	return (uint32_t)pms_hash__str(PMS_HASH_SEED, path);
}

static int index_add(struct pms_resolver *r, size_t idx)
{
	uint32_t h = path_hash(r->dsos[idx].path);
	size_t i;

	if (pms_idtab__reserve(&r->index))
		return -ENOMEM;
	for (i = pms_idtab__start(&r->index, h); pms_idtab__used(&r->index, i); i = pms_idtab__next(&r->index, i))
		;
	pms_idtab__set(&r->index, i, h, (uint32_t)idx);
	return 0;
}

/* <symfs>/<path> into buf, when --symfs is set. */
static bool symfs_path(const struct pms_resolver *r, const char *path, char *buf, size_t size)
{
	return r->symfs && snprintf(buf, size, "%s%s%s", r->symfs, path[0] == '/' ? "" : "/", path) < (int)size;
}

/*
 * The file a mapping names, looked up as perf does: --symfs, then (with a
 * recorded build-id) the build-id cache, then the recorded path, then the
 * debuginfod servers of $DEBUGINFOD_URLS. A file found only under another
 * build-id is -ESTALE (found_hex says which), none at all -ENOENT.
 */
static int open_mapped_file(struct pms_resolver *r, const struct pms_map_ref *m, struct pms_dso **out,
			    char *found_hex)
{
	char path[4096], *fetched;
	int err, stale = 0;

	if (!m->build_id || m->build_id_size > PMS_BUILD_ID_MAX) {
		if (symfs_path(r, m->path, path, sizeof(path)) && !access(path, R_OK))
			return pms_dso__open(path, out);
		return pms_dso__open(m->path, out);
	}
	if (symfs_path(r, m->path, path, sizeof(path))) {
		err = pms_dso__open_checked(path, m->build_id, m->build_id_size, out, found_hex);
		if (!err || err == -ENOMEM)
			return err;
		stale = err == -ESTALE;
	}
	if (!find_cached(r, m->path, m->build_id, m->build_id_size, "elf", path, sizeof(path))) {
		err = pms_dso__open_checked(path, m->build_id, m->build_id_size, out, NULL);
		if (!err || err == -ENOMEM)
			return err;
	}
	if (!stale || access(m->path, F_OK) == 0) {
		err = pms_dso__open_checked(m->path, m->build_id, m->build_id_size, out, found_hex);
		if (!err || err == -ENOMEM)
			return err;
		stale |= err == -ESTALE;
	}
	/*
	 * Last, as it may cost a network round trip: the recorded binary by its
	 * build-id. Checked like any other copy; when it is not there, a rebuilt
	 * file on disk still says "rebuilt" rather than "missing".
	 */
	if (!pms_debuginfod__find_executable(m->build_id, m->build_id_size, &fetched)) {
		err = pms_dso__open_checked(fetched, m->build_id, m->build_id_size, out, NULL);
		free(fetched);
		if (!err || err == -ENOMEM)
			return err;
	}
	return stale ? -ESTALE : -ENOENT;
}

static struct dso_entry *get_dso(struct pms_resolver *r, const struct pms_map_ref *m)
{
	struct dso_entry *e;

	if (r->last < r->nr_dsos && entry_matches(&r->dsos[r->last], m)) {
		r->dsos[r->last].used = true;
		return &r->dsos[r->last];
	}
	if (r->index.cap) {
		uint32_t h = path_hash(m->path);

		for (size_t i = pms_idtab__start(&r->index, h); pms_idtab__used(&r->index, i);
		     i = pms_idtab__next(&r->index, i))
			if (pms_idtab__hash(&r->index, i) == h && entry_matches(&r->dsos[pms_idtab__id(&r->index, i)], m)) {
				r->last = pms_idtab__id(&r->index, i);
				r->dsos[r->last].used = true;
				return &r->dsos[r->last];
			}
	}
	if (pms_array__reserve(&r->dsos, &r->cap_dsos, r->nr_dsos + 1, sizeof(*r->dsos)))
		return NULL;
	e = &r->dsos[r->nr_dsos];
	memset(e, 0, sizeof(*e));
	e->path = strdup(m->path);
	if (!e->path)
		return NULL;
	if (m->build_id && m->build_id_size <= PMS_BUILD_ID_MAX) {
		e->checked = true;
		memcpy(e->build_id, m->build_id, m->build_id_size);
		e->build_id_size = m->build_id_size;
		pms_hex__encode(e->build_id, e->build_id_size, e->bid_hex);
	}
	e->err = open_mapped_file(r, m, &e->dso, e->found_hex);
	if (!e->err && e->dso->nr_syms) {
		e->demangled = calloc(e->dso->nr_syms, sizeof(*e->demangled));
		if (!e->demangled) {
			pms_dso__free(e->dso);
			free(e->path);
			return NULL;
		}
	}
	if (index_add(r, r->nr_dsos)) {
		if (e->demangled)
			free(e->demangled);
		pms_dso__free(e->dso);
		free(e->path);
		return NULL;
	}
	e->used = true;
	r->last = r->nr_dsos++;
	return e;
}

static void entry_release(struct dso_entry *e)
{
	if (e->demangled)
		for (size_t j = 0; j < e->dso->nr_syms; j++)
			if (e->demangled[j] != NOT_MANGLED)
				free(e->demangled[j]);
	free(e->demangled);
	pms_srcline__free(e->sl);
	pms_dso__free(e->dso);
	free(e->path);
}

size_t pms_resolver__trim_files(struct pms_resolver *r, size_t max_files)
{
	size_t kept = 0, freed = 0;

	if (r->nr_dsos > max_files) {
		for (size_t i = 0; i < r->nr_dsos; i++) {
			if (!r->dsos[i].used) {
				entry_release(&r->dsos[i]);
				freed++;
				continue;
			}
			r->dsos[kept++] = r->dsos[i];
		}
		if (freed) {
			r->nr_dsos = kept;
			r->last = 0;
			free(r->unnamed_order);
			r->unnamed_order = NULL;
			r->nr_unnamed = 0;
			pms_idtab__release(&r->index);
			for (size_t i = 0; i < kept; i++)
				if (index_add(r, i)) {
					/* without an index every lookup opens the file again: correct, slower */
					pms_idtab__release(&r->index);
					break;
				}
		}
	}
	for (size_t i = 0; i < r->nr_dsos; i++)
		r->dsos[i].used = false;
	return freed;
}

static const char *sym_name(struct dso_entry *e, const struct pms_sym *s)
{
	size_t i = (size_t)(s - e->dso->syms);
	char *d;

	if (!e->demangled)
		return s->name;
	if (!e->demangled[i]) {
		d = pms_demangle__perf(s->name);
		e->demangled[i] = d ? d : NOT_MANGLED;
	}
	return e->demangled[i] == NOT_MANGLED ? s->name : e->demangled[i];
}

static struct jit_entry *get_jit(struct pms_resolver *r, pid_t pid)
{
	struct jit_entry *n;

	for (size_t i = 0; i < r->nr_jits; i++)
		if (r->jits[i].pid == pid)
			return &r->jits[i];
	n = realloc(r->jits, (r->nr_jits + 1) * sizeof(*n));
	if (!n)
		return NULL;
	r->jits = n;
	n = &r->jits[r->nr_jits++];
	memset(n, 0, sizeof(*n));
	n->pid = pid;
	n->err = pms_jitmap__load_pid(pid, &n->jm);
	return n;
}

/* Names the kernel (and perf's MMAP records) give to memory without a file. */
static bool is_anon(const char *path)
{
	return path[0] != '/' || !strcmp(path, "//anon") || !strncmp(path, "/anon_hugepage", 14) ||
	       !strncmp(path, "/dev/zero", 9) || !strncmp(path, "/memfd:", 7) ||
	       !strncmp(path, "/SYSV", 5);
}

int pms_resolver__user(struct pms_resolver *r, const struct pms_map_ref *map, uint64_t ip,
		       struct pms_resolved *out)
{
	struct dso_entry *e;

	memset(out, 0, sizeof(*out));
	out->addr = ip;
	out->status = PMS_RES_NO_FILE;
	if (map && map->path && !strcmp(map->path, "[vdso]")) {
		resolve_vdso(r, map, ip, out);
		return 0;
	}
	if (!map || !map->path || is_anon(map->path)) {
		/* Anonymous executable memory: a JIT's perf-PID.map, if any. */
		struct jit_entry *j = map && map->pid > 0 ? get_jit(r, map->pid) : NULL;
		const struct pms_tsym *t;

		if (map && map->pid > 0 && !j)
			return -ENOMEM;
		out->dso = map && map->path && map->path[0] ? map->path : NULL;
		if (j && !j->err && (t = pms_jitmap__find(&j->jm, ip))) {
			out->dso = "[jit]";
			out->sym = t->name;
			out->sym_off = ip - t->start;
			out->status = PMS_RES_OK;
		}
		return 0;
	}
	e = get_dso(r, map);
	if (!e)
		return -ENOMEM;
	out->dso = e->path;
	resolve_in_entry(r, e, map, ip, out);
	return 0;
}

/*
 * ip in map, whose file is e. Unresolved addresses are given relative to the
 * mapping (file offsets, as perf prints them) when the file is not there to
 * say its own addresses.
 */
static void resolve_in_entry(struct pms_resolver *r, struct dso_entry *e, const struct pms_map_ref *map,
			     uint64_t ip, struct pms_resolved *out)
{
	const struct pms_sym *s;
	uint64_t vaddr;

	out->addr = ip - map->start + map->pgoff;
	out->priv_file = (size_t)(e - r->dsos) + 1;
	if (e->err) {
		if (e->err == -ESTALE) {
			out->status = PMS_RES_STALE;
			e->stale_samples++;
		}
		return;
	}
	if (pms_dso__map_ip(e->dso, map->start, map->pgoff, ip, &vaddr))
		return;
	out->addr = vaddr;
	out->elf = e->dso;
	out->priv_dso = (size_t)(e - r->dsos);
	s = pms_dso__find_sym(e->dso, vaddr);
	if (!s) {
		out->status = e->dso->syms_from_dynsym || !e->dso->nr_syms ? PMS_RES_STRIPPED : PMS_RES_NO_SYM;
		return;
	}
	out->sym = sym_name(e, s);
	out->sym_off = vaddr - s->start;
	out->sym_open_end = s->size_guessed;
	out->status = PMS_RES_OK;
}

static enum pms_res_status kernel_unavailable(const struct pms_resolver *r)
{
	if (r->ks_err == -EACCES)
		return PMS_RES_RESTRICTED;
	return r->k.recorded || r->k.kallsyms_path ? PMS_RES_NO_KERNEL : PMS_RES_NO_FILE;
}

int pms_resolver__kernel(struct pms_resolver *r, uint64_t ip, struct pms_resolved *out)
{
	const struct pms_tsym *t;
	uint64_t at;

	memset(out, 0, sizeof(*out));
	out->addr = ip;
	out->dso = "[kernel.kallsyms]";
	choose_kernel(r);
	if (!r->kp) {
		out->status = kernel_unavailable(r);
		return 0;
	}
	at = ip - (uint64_t)r->k.delta;
	t = pms_kallsyms__find(r->kp, at);
	/* a recording's module addresses go through its module maps, never here */
	if (!t || (t->module && r->k.recorded)) {
		const struct pms_kmodule *m = r->k.recorded ? NULL : pms_kallsyms__module_of(r->kp, ip);

		if (m)
			out->dso = m->name;
		out->status = PMS_RES_NO_SYM;
		return 0;
	}
	out->dso = t->module ? t->module : "[kernel.kallsyms]";
	out->sym = t->name;
	out->sym_off = at - t->start;
	out->status = PMS_RES_OK;
	return 0;
}

int pms_resolver__module(struct pms_resolver *r, const char *module, uint64_t map_start, uint64_t ip,
			 struct pms_resolved *out)
{
	const struct pms_tsym *t;

	memset(out, 0, sizeof(*out));
	out->addr = ip - map_start;
	choose_kernel(r);
	if (!r->kp) {
		out->status = kernel_unavailable(r);
		return 0;
	}
	if (r->kp == &r->run_ks && r->k.recorded) {
		/* this boot's module symbols name the recording only where the module still sits */
		const struct pms_kmodule *m = pms_kallsyms__module_of(r->kp, map_start);

		if (!m || m->start != map_start || strcmp(m->name, module)) {
			out->status = PMS_RES_NO_KERNEL;
			return 0;
		}
	}
	t = pms_kallsyms__find(r->kp, ip);
	if (!t || !t->module || strcmp(t->module, module)) {
		out->status = PMS_RES_NO_SYM;
		return 0;
	}
	out->addr = ip;
	out->sym = t->name;
	out->sym_off = ip - t->start;
	out->status = PMS_RES_OK;
	return 0;
}

int pms_resolver__srcline(struct pms_resolver *r, const struct pms_resolved *res,
			  const struct pms_srcline_frame **frames, size_t *nr)
{
	struct dso_entry *e;

	if (!res->elf)
		return -ENODATA;
	if (res->priv_dso >= r->nr_dsos || r->dsos[res->priv_dso].dso != res->elf)
		return -EINVAL;
	e = &r->dsos[res->priv_dso];
	if (!e->sl && !e->sl_err)
		e->sl_err = pms_srcline__new(e->dso, &e->sl);
	if (e->sl_err)
		return e->sl_err;
	return pms_srcline__lookup(e->sl, res->addr, frames, nr);
}

void pms_resolver__count_leaf(struct pms_resolver *r, const struct pms_resolved *res)
{
	struct dso_entry *e;

	if (!res->priv_file || res->priv_file > r->nr_dsos)
		return;
	if (res->status != PMS_RES_NO_FILE && res->status != PMS_RES_STALE && res->status != PMS_RES_STRIPPED)
		return;
	e = &r->dsos[res->priv_file - 1];
	e->leaf_unnamed++;
	e->leaf_why = res->status;
}

static int by_unnamed(const void *a, const void *b, void *ctx)
{
	const struct pms_resolver *r = ctx;
	const struct dso_entry *x = &r->dsos[*(const size_t *)a], *y = &r->dsos[*(const size_t *)b];

	if (x->leaf_unnamed != y->leaf_unnamed)
		return x->leaf_unnamed > y->leaf_unnamed ? -1 : 1;
	return strcmp(x->path, y->path);
}

int pms_resolver__unnamed(struct pms_resolver *r, size_t i, struct pms_unnamed_file *out)
{
	const struct dso_entry *e;

	if (i == 0) {
		size_t *o = realloc(r->unnamed_order, (r->nr_dsos ? r->nr_dsos : 1) * sizeof(*o));

		if (!o)
			return -ENOMEM;
		r->unnamed_order = o;
		r->nr_unnamed = 0;
		for (size_t j = 0; j < r->nr_dsos; j++)
			if (r->dsos[j].leaf_unnamed)
				o[r->nr_unnamed++] = j;
		qsort_r(o, r->nr_unnamed, sizeof(*o), by_unnamed, r);
	}
	if (i >= r->nr_unnamed)
		return -ENOENT;
	e = &r->dsos[r->unnamed_order[i]];
	out->path = e->path;
	out->why = e->leaf_why;
	out->samples = e->leaf_unnamed;
	out->build_id_hex = e->bid_hex;
	out->found_build_id_hex = e->found_hex;
	return 0;
}

int pms_resolver__stale(const struct pms_resolver *r, size_t i, const char **path, size_t *samples,
			const char **found_build_id_hex)
{
	size_t k = 0;

	for (size_t j = 0; j < r->nr_dsos; j++) {
		const struct dso_entry *e = &r->dsos[j];

		if (e->err != -ESTALE)
			continue;
		if (k++ == i) {
			*path = e->path;
			*samples = e->stale_samples;
			if (found_build_id_hex)
				*found_build_id_hex = e->found_hex;
			return 0;
		}
	}
	return -ENOENT;
}

void pms_resolver__held(const struct pms_resolver *r, size_t *files, size_t *jit_maps)
{
	*files = r->nr_dsos;
	*jit_maps = r->nr_jits;
}
