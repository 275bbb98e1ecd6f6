// SPDX-License-Identifier: MIT
// Address resolution facade: cached DSOs (build-id checked), demangled names, kallsyms, JIT maps, srclines.
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "symbol/demangle.h"
#include "symbol/dso.h"
#include "symbol/jitmap.h"
#include "symbol/kallsyms.h"
#include "symbol/maps.h"
#include "symbol/resolver.h"
#include "util/hash.h"

struct dso_entry {
	char *path;
	uint8_t build_id[PMS_BUILD_ID_MAX];
	size_t build_id_size;
	bool checked;           /* build_id given at open time */
	int err;                /* cached open failure (-ESTALE, -ENOENT, ...) */
	char found_hex[PMS_BUILD_ID_HEX_MAX];
	size_t stale_samples;
	struct pms_dso *dso;
	char **demangled;       /* lazily, parallel to dso->syms; (char *)1 = not mangled */
	struct pms_srcline *sl;
	int sl_err;
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

struct pms_resolver {
	struct vdso_entry vdso;
	struct dso_entry *dsos;
	size_t nr_dsos, cap_dsos;
	size_t last; /* index of the last hit: consecutive samples share a file */
	size_t *index; /* open addressing on hash(path): dsos index + 1, 0 = empty */
	size_t index_cap;
	struct jit_entry *jits;
	size_t nr_jits;
	struct pms_kallsyms ks;
	int ks_err;
	bool ks_loaded;
};

#define NOT_MANGLED ((char *)1)

struct pms_resolver *pms_resolver__new(void)
{
	return calloc(1, sizeof(struct pms_resolver));
}

void pms_resolver__free(struct pms_resolver *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->nr_dsos; i++) {
		struct dso_entry *e = &r->dsos[i];

		if (e->demangled)
			for (size_t j = 0; j < e->dso->nr_syms; j++)
				if (e->demangled[j] != NOT_MANGLED)
					free(e->demangled[j]);
		free(e->demangled);
		pms_srcline__free(e->sl);
		pms_dso__free(e->dso);
		free(e->path);
	}
	free(r->dsos);
	free(r->index);
	for (size_t i = 0; i < r->nr_jits; i++)
		pms_jitmap__release(&r->jits[i].jm);
	free(r->jits);
	pms_kallsyms__release(&r->ks);
	pms_dso__free(r->vdso.dso);
	free(r->vdso.image);
	free(r);
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

static void resolve_vdso(struct pms_resolver *r, const struct pms_map_ref *map, uint64_t ip,
			 struct pms_resolved *out)
{
	struct pms_dso *v = get_vdso(r);
	const struct pms_sym *s;
	uint64_t vaddr;

	out->dso = "[vdso]";
	if (!v)
		return;
	if (map->build_id && (map->build_id_size != v->build_id_size ||
			      memcmp(map->build_id, v->build_id, v->build_id_size))) {
		out->status = PMS_RES_STALE;
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

static int index_insert(size_t *index, size_t cap, const char *path, size_t idx)
{
	size_t i = (size_t)pms_hash__str(PMS_HASH_SEED, path) & (cap - 1);

	while (index[i])
		i = (i + 1) & (cap - 1);
	index[i] = idx + 1;
	return 0;
}

/* Keeps the index at most half full; rebuilt from dsos[] when it grows. */
static int index_add(struct pms_resolver *r, size_t idx)
{
	if ((r->nr_dsos + 1) * 2 > r->index_cap) {
		size_t ncap = r->index_cap ? r->index_cap * 2 : 64;
		size_t *n = calloc(ncap, sizeof(*n));

		if (!n)
			return -ENOMEM;
		for (size_t i = 0; i < r->nr_dsos; i++)
			index_insert(n, ncap, r->dsos[i].path, i);
		free(r->index);
		r->index = n;
		r->index_cap = ncap;
	}
	return index_insert(r->index, r->index_cap, r->dsos[idx].path, idx);
}

static struct dso_entry *get_dso(struct pms_resolver *r, const struct pms_map_ref *m)
{
	struct dso_entry *e;

	if (r->last < r->nr_dsos && entry_matches(&r->dsos[r->last], m))
		return &r->dsos[r->last];
	if (r->index_cap) {
		for (size_t i = (size_t)pms_hash__str(PMS_HASH_SEED, m->path) & (r->index_cap - 1); r->index[i];
		     i = (i + 1) & (r->index_cap - 1))
			if (entry_matches(&r->dsos[r->index[i] - 1], m)) {
				r->last = r->index[i] - 1;
				return &r->dsos[r->last];
			}
	}
	if (r->nr_dsos == r->cap_dsos) {
		size_t ncap = r->cap_dsos ? r->cap_dsos * 2 : 32;
		struct dso_entry *n = realloc(r->dsos, ncap * sizeof(*n));

		if (!n)
			return NULL;
		r->dsos = n;
		r->cap_dsos = ncap;
	}
	e = &r->dsos[r->nr_dsos];
	memset(e, 0, sizeof(*e));
	e->path = strdup(m->path);
	if (!e->path)
		return NULL;
	if (m->build_id && m->build_id_size <= PMS_BUILD_ID_MAX) {
		e->checked = true;
		memcpy(e->build_id, m->build_id, m->build_id_size);
		e->build_id_size = m->build_id_size;
		e->err = pms_dso__open_checked(m->path, m->build_id, m->build_id_size, &e->dso,
					       e->found_hex);
	} else {
		e->err = pms_dso__open(m->path, &e->dso);
	}
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
	r->last = r->nr_dsos++;
	return e;
}

static const char *sym_name(struct dso_entry *e, const struct pms_sym *s)
{
	size_t i = (size_t)(s - e->dso->syms);
	char *d;

	if (!e->demangled)
		return s->name;
	if (!e->demangled[i]) {
		d = pms_demangle(s->name);
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
	const struct pms_sym *s;
	uint64_t vaddr;

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
	if (e->err) {
		if (e->err == -ESTALE) {
			out->status = PMS_RES_STALE;
			e->stale_samples++;
		}
		return 0;
	}
	if (pms_dso__map_ip(e->dso, map->start, map->pgoff, ip, &vaddr))
		return 0;
	out->addr = vaddr;
	out->elf = e->dso;
	out->priv_dso = (size_t)(e - r->dsos);
	s = pms_dso__find_sym(e->dso, vaddr);
	if (!s) {
		out->status = PMS_RES_NO_SYM;
		return 0;
	}
	out->sym = sym_name(e, s);
	out->sym_off = vaddr - s->start;
	out->status = PMS_RES_OK;
	return 0;
}

int pms_resolver__kernel(struct pms_resolver *r, uint64_t ip, struct pms_resolved *out)
{
	const struct pms_tsym *t;

	memset(out, 0, sizeof(*out));
	out->addr = ip;
	out->dso = "[kernel.kallsyms]";
	if (!r->ks_loaded) {
		r->ks_err = pms_kallsyms__load(&r->ks);
		r->ks_loaded = true;
	}
	if (r->ks_err) {
		out->status = r->ks_err == -EACCES ? PMS_RES_RESTRICTED : PMS_RES_NO_FILE;
		return 0;
	}
	t = pms_kallsyms__find(&r->ks, ip);
	if (!t) {
		const struct pms_kmodule *m = pms_kallsyms__module_of(&r->ks, ip);

		if (m)
			out->dso = m->name;
		out->status = PMS_RES_NO_SYM;
		return 0;
	}
	out->dso = t->module ? t->module : "[kernel.kallsyms]";
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
