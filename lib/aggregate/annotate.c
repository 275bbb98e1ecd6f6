// SPDX-License-Identifier: MIT
// Samples per function and address, and one function's code disassembled with each instruction's share, source line, jumps and loops.
#include <elf.h>
#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "aggregate/annotate.h"
#include "data/reader.h"
#include "symbol/dso.h"
#include "symbol/kallsyms.h"
#include "symbol/kcore.h"
#include "symbol/resolver.h"
#include "symbol/srcline.h"
#include "util/array.h"
#include "util/fileio.h"
#include "util/hash.h"
#include "util/hex.h"
#include "util/idtab.h"

struct point {
	uint32_t sym;
	uint64_t addr;
	uint64_t samples, period;
};

struct pms_annotate_set {
	struct pms_annotate_sym *syms;
	size_t nr_syms, syms_alloc;
	struct pms_idtab sym_tab;
	struct point *pts;
	size_t nr_pts, pts_alloc;
	struct pms_idtab pt_tab;
	size_t *first_pt, *nr_pt;          /* per symbol, after sorting */
	struct pms_annotate_event *events;
	size_t nr_events, events_alloc;
	/* kernel symbols' sizes: the running kernel's kallsyms, when it is the recorded kernel */
	int kernel_state;                  /* 0 not looked at, 1 here, -1 not here */
	int64_t kernel_delta;
	struct pms_kallsyms ksyms;
	uint64_t unnamed_user, unnamed_kernel; /* samples in no named function */
};

static uint32_t sym_hash(const struct pms_annotate_sym *k)
{
	uint64_t h = pms_hash__mix64((uint64_t)(uintptr_t)k->elf ^ k->start);

	h = pms_hash__mix64(h ^ (uint64_t)(uintptr_t)k->name ^ ((uint64_t)k->event << 48));
	return (uint32_t)(h ^ (h >> 32));
}

static bool same_sym(const struct pms_annotate_sym *a, const struct pms_annotate_sym *b)
{
	return a->elf == b->elf && a->start == b->start && a->event == b->event &&
	       (a->name == b->name || !strcmp(a->name, b->name));
}

static int64_t sym_index(struct pms_annotate_set *set, const struct pms_annotate_sym *key)
{
	uint32_t h = sym_hash(key);
	size_t slot;
	int err;

	if ((err = pms_idtab__reserve(&set->sym_tab)))
		return err;
	for (slot = pms_idtab__start(&set->sym_tab, h); pms_idtab__used(&set->sym_tab, slot);
	     slot = pms_idtab__next(&set->sym_tab, slot)) {
		uint32_t id = pms_idtab__id(&set->sym_tab, slot);

		if (pms_idtab__hash(&set->sym_tab, slot) == h && same_sym(&set->syms[id], key))
			return id;
	}
	if ((err = pms_array__reserve(&set->syms, &set->syms_alloc, set->nr_syms + 1, sizeof(*set->syms))))
		return err;
	set->syms[set->nr_syms] = *key;
	pms_idtab__set(&set->sym_tab, slot, h, (uint32_t)set->nr_syms);
	return (int64_t)set->nr_syms++;
}

static int add_point(struct pms_annotate_set *set, uint32_t sym, uint64_t addr, uint64_t period)
{
	uint64_t hh = pms_hash__mix64(((uint64_t)sym << 40) ^ addr);
	uint32_t h = (uint32_t)(hh ^ (hh >> 32));
	size_t slot;
	int err;

	if ((err = pms_idtab__reserve(&set->pt_tab)))
		return err;
	for (slot = pms_idtab__start(&set->pt_tab, h); pms_idtab__used(&set->pt_tab, slot);
	     slot = pms_idtab__next(&set->pt_tab, slot)) {
		struct point *p = &set->pts[pms_idtab__id(&set->pt_tab, slot)];

		if (pms_idtab__hash(&set->pt_tab, slot) == h && p->sym == sym && p->addr == addr) {
			p->samples++;
			p->period += period;
			return 0;
		}
	}
	if ((err = pms_array__reserve(&set->pts, &set->pts_alloc, set->nr_pts + 1, sizeof(*set->pts))))
		return err;
	set->pts[set->nr_pts] = (struct point){ .sym = sym, .addr = addr, .samples = 1, .period = period };
	pms_idtab__set(&set->pt_tab, slot, h, (uint32_t)set->nr_pts++);
	return 0;
}

/* The running kernel's symbol called name, when exactly one is. */
static const struct pms_tsym *kernel_sym_named(const struct pms_kallsyms *ks, const char *name)
{
	const struct pms_tsym *found = NULL;

	for (size_t i = 0; i < ks->tab.nr; i++)
		if (!ks->tab.syms[i].module && !strcmp(ks->tab.syms[i].name, name)) {
			if (found)
				return NULL;
			found = &ks->tab.syms[i];
		}
	return found;
}

/*
 * Where a kernel symbol is in the running kernel, and its extent, when the
 * running kernel is the recorded one (the resolver named it with the running
 * kallsyms, or the recorded build-id is the running kernel's): else it stays
 * unsized and is not annotated.
 */
static void kernel_size(struct pms_annotate_set *set, struct pms_session *s, struct pms_annotate_sym *sym)
{
	const struct pms_tsym *t;
	uint64_t running;

	if (!set->kernel_state) {
		struct pms_kernel_info ki;
		uint8_t id[PMS_BUILD_ID_MAX];
		char hex[2 * PMS_BUILD_ID_MAX + 1] = "";
		int n = pms_kernel__build_id(id, sizeof(id));

		pms_resolver__kernel_info(pms_session__resolver(s), &ki);
		if (n > 0)
			pms_hex__encode(id, (size_t)n, hex);
		set->kernel_state = !ki.restricted && (ki.source == PMS_KSRC_RUNNING ||
						      (ki.build_id_hex && *ki.build_id_hex && !strcmp(ki.build_id_hex, hex))) &&
				    !pms_kallsyms__load(&set->ksyms) ? 1 : -1;
		set->kernel_delta = ki.source == PMS_KSRC_RUNNING ? ki.delta : 0;
	}
	if (set->kernel_state < 0)
		return;
	running = sym->start - (uint64_t)set->kernel_delta;
	t = pms_kallsyms__find(&set->ksyms, running);
	if (!t || t->start != running || strcmp(t->name, sym->name))
		t = kernel_sym_named(&set->ksyms, sym->name); /* another boot of the same kernel: moved by KASLR */
	if (!t)
		return;
	sym->kernel_here = true;
	sym->kernel_delta = (int64_t)(sym->start - t->start);
	sym->size = t->size;
}

static int add_sample(struct pms_annotate_set *set, struct pms_session *s, const struct pms_session_sample *smp)
{
	const struct pms_frame *f = &smp->frames[0];
	struct pms_annotate_event *ev;
	struct pms_annotate_sym key;
	int64_t id;
	int err;

	if (smp->attr_idx >= set->nr_events) {
		size_t n = smp->attr_idx + 1;

		if ((err = pms_array__reserve(&set->events, &set->events_alloc, n, sizeof(*set->events))))
			return err;
		for (size_t e = set->nr_events; e < n; e++) {
			const struct perf_event_attr *a = pms_data_reader__attr(pms_session__reader(s), e);

			set->events[e] = (struct pms_annotate_event){ .precise_ip = a ? a->precise_ip : 0 };
		}
		set->nr_events = n;
	}
	ev = &set->events[smp->attr_idx];
	ev->name = smp->event_name;
	ev->samples++;
	ev->period += smp->period;
	if (smp->sample && (smp->sample->misc & PERF_RECORD_MISC_EXACT_IP))
		ev->exact_samples++;
	if (f->res.status != PMS_RES_OK || !f->res.sym) {
		if (f->kind == PMS_FRAME_KERNEL)
			set->unnamed_kernel++;
		else
			set->unnamed_user++;
		return 0;
	}
	key = (struct pms_annotate_sym){
		.name = f->res.sym, .dso = f->res.dso, .elf = f->res.elf, .start = f->res.addr - f->res.sym_off,
		.event = smp->attr_idx, .kernel = f->kind == PMS_FRAME_KERNEL,
	};
	id = sym_index(set, &key);
	if (id < 0)
		return (int)id;
	if (!set->syms[id].samples && key.elf) {
		const struct pms_sym *es = pms_dso__find_sym(key.elf, key.start);

		set->syms[id].size = es && es->start == key.start ? es->size : 0;
	} else if (!set->syms[id].samples && key.kernel) {
		kernel_size(set, s, &set->syms[id]);
	}
	set->syms[id].samples++;
	set->syms[id].period += smp->period;
	return add_point(set, (uint32_t)id, f->res.addr, smp->period);
}

static int cmp_syms(const void *a, const void *b)
{
	const struct pms_annotate_sym *x = a, *y = b;

	if (x->samples != y->samples)
		return x->samples < y->samples ? 1 : -1;
	if (x->event != y->event)
		return x->event < y->event ? -1 : 1;
	return strcmp(x->name, y->name);
}

static int cmp_points(const void *a, const void *b)
{
	const struct point *x = a, *y = b;

	if (x->sym != y->sym)
		return x->sym < y->sym ? -1 : 1;
	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static int cmp_order(const void *a, const void *b, void *syms)
{
	const struct pms_annotate_sym *v = syms;

	return cmp_syms(&v[*(const size_t *)a], &v[*(const size_t *)b]);
}

/* Symbols heaviest first, points grouped by symbol in address order. */
static int finish(struct pms_annotate_set *set)
{
	size_t n = set->nr_syms;
	size_t *order = malloc((n ? n : 1) * sizeof(*order));
	uint32_t *rank = malloc((n ? n : 1) * sizeof(*rank));
	struct pms_annotate_sym *sorted = malloc((n ? n : 1) * sizeof(*sorted));
	int err = 0;

	set->first_pt = calloc(n ? n : 1, sizeof(*set->first_pt));
	set->nr_pt = calloc(n ? n : 1, sizeof(*set->nr_pt));
	if (!order || !rank || !sorted || !set->first_pt || !set->nr_pt) {
		err = -ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < n; i++)
		order[i] = i;
	if (n)
		qsort_r(order, n, sizeof(*order), cmp_order, set->syms);
	for (size_t i = 0; i < n; i++) {
		rank[order[i]] = (uint32_t)i;
		sorted[i] = set->syms[order[i]];
	}
	if (n)
		memcpy(set->syms, sorted, n * sizeof(*sorted));
	for (size_t p = 0; p < set->nr_pts; p++)
		set->pts[p].sym = rank[set->pts[p].sym];
	if (set->nr_pts)
		qsort(set->pts, set->nr_pts, sizeof(*set->pts), cmp_points);
	for (size_t p = 0; p < set->nr_pts; p++) {
		if (!set->nr_pt[set->pts[p].sym])
			set->first_pt[set->pts[p].sym] = p;
		set->nr_pt[set->pts[p].sym]++;
	}
	/* the tables index the old order: no lookups after this */
	pms_idtab__release(&set->sym_tab);
	pms_idtab__release(&set->pt_tab);
out:
	free(order);
	free(rank);
	free(sorted);
	return err;
}

struct pms_annotate_set *pms_annotate_set__new(void)
{
	return calloc(1, sizeof(struct pms_annotate_set));
}

int pms_annotate_set__add(struct pms_annotate_set *set, struct pms_session *s, const struct pms_session_sample *smp)
{
	return add_sample(set, s, smp);
}

int pms_annotate_set__finish(struct pms_annotate_set *set)
{
	return finish(set);
}

int pms_annotate_set__from_session(struct pms_session *s, struct pms_annotate_set **out)
{
	struct pms_annotate_set *set = pms_annotate_set__new();
	const struct pms_session_sample *smp;
	int err;

	*out = NULL;
	if (!set)
		return -ENOMEM;
	while ((err = pms_session__next(s, &smp)) > 0)
		if ((err = add_sample(set, s, smp)) < 0)
			break;
	if (!err)
		err = finish(set);
	if (err) {
		pms_annotate_set__free(set);
		return err;
	}
	*out = set;
	return 0;
}

void pms_annotate_set__unnamed(const struct pms_annotate_set *set, uint64_t *user, uint64_t *kernel)
{
	*user = set->unnamed_user;
	*kernel = set->unnamed_kernel;
}

void pms_annotate_set__free(struct pms_annotate_set *set)
{
	if (!set)
		return;
	free(set->syms);
	pms_idtab__release(&set->sym_tab);
	free(set->pts);
	pms_idtab__release(&set->pt_tab);
	free(set->first_pt);
	free(set->nr_pt);
	free(set->events);
	pms_kallsyms__release(&set->ksyms);
	free(set);
}

size_t pms_annotate_set__nr(const struct pms_annotate_set *set)
{
	return set->nr_syms;
}

const struct pms_annotate_sym *pms_annotate_set__sym(const struct pms_annotate_set *set, size_t i)
{
	return i < set->nr_syms ? &set->syms[i] : NULL;
}

size_t pms_annotate_set__nr_events(const struct pms_annotate_set *set)
{
	return set->nr_events;
}

const struct pms_annotate_event *pms_annotate_set__event(const struct pms_annotate_set *set, size_t e)
{
	return e < set->nr_events ? &set->events[e] : NULL;
}

/* ------------------------------------------------------------- one symbol -- */

struct source_file {
	char *path;
	char *text;          /* NULL: not readable here */
	char **lines;        /* 1-based: lines[0] unused */
	size_t nr_lines;
};

struct annotation_priv {
	struct pms_annotation pub;
	struct pms_srcline *sl;
	struct source_file *files;
	size_t nr_files, files_alloc;
};

static struct annotation_priv *priv_of(struct pms_annotation *a)
{
	return (struct annotation_priv *)a;
}

/* The instruction starting at addr, or the one holding it (*exact false), or -1. */
static ssize_t insn_at(const struct pms_annotation *a, uint64_t addr, bool *exact)
{
	size_t lo = 0, hi = a->nr_insns;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct pms_disasm_insn *d = &a->insns[mid].d;

		if (addr < d->addr)
			hi = mid;
		else if (addr >= d->addr + d->size)
			lo = mid + 1;
		else {
			*exact = addr == d->addr;
			return (ssize_t)mid;
		}
	}
	return -1;
}

static int cmp_loops(const void *a, const void *b)
{
	const struct pms_annotate_loop *x = a, *y = b;

	if (x->samples != y->samples)
		return x->samples < y->samples ? 1 : -1;
	return x->start < y->start ? -1 : x->start > y->start;
}

/* Jump targets, back-edges and the loops they close, with each loop's samples. */
static int find_loops(struct pms_annotation *a)
{
	uint64_t lo = a->sym->start, hi = a->sym->start + a->sym->size;
	size_t alloc = 0;
	int err;

	for (size_t i = 0; i < a->nr_insns; i++) {
		struct pms_annotate_insn *in = &a->insns[i];
		bool exact;
		ssize_t t;

		if (!in->d.target || in->d.kind == PMS_INSN_CALL || in->d.target < lo || in->d.target >= hi)
			continue;
		t = insn_at(a, in->d.target, &exact);
		if (t >= 0 && exact)
			a->insns[t].jump_target = true;
		if (in->d.target > in->d.addr)
			continue;
		in->back_edge = true;
		if ((err = pms_array__reserve(&a->loops, &alloc, a->nr_loops + 1, sizeof(*a->loops))))
			return err;
		a->loops[a->nr_loops++] = (struct pms_annotate_loop){ .start = in->d.target,
								      .end = in->d.addr + in->d.size };
	}
	for (size_t l = 0; l < a->nr_loops; l++)
		for (size_t i = 0; i < a->nr_insns; i++)
			if (a->insns[i].d.addr >= a->loops[l].start && a->insns[i].d.addr < a->loops[l].end) {
				a->loops[l].samples += a->insns[i].samples;
				a->loops[l].period += a->insns[i].period;
			}
	if (a->nr_loops)
		qsort(a->loops, a->nr_loops, sizeof(*a->loops), cmp_loops);
	return 0;
}

static bool same_file(const char *x, const char *y)
{
	return x == y || (x && y && !strcmp(x, y));
}

/* Each instruction's innermost file:line and inlined function, and the per-line totals. */
static int add_source(struct annotation_priv *p)
{
	struct pms_annotation *a = &p->pub;
	size_t alloc = 0;
	bool any = false;
	int err = pms_srcline__new(a->sym->elf, &p->sl);

	if (err == -ENOMEM)
		return err;
	if (err) {
		a->no_source = "no DWARF line information in the object or its debug file";
		return 0;
	}
	for (size_t i = 0; i < a->nr_insns; i++) {
		struct pms_annotate_insn *in = &a->insns[i];
		const struct pms_srcline_frame *fr;
		size_t nr, l;

		in->line_idx = UINT32_MAX;
		if (in->d.kind == PMS_INSN_BAD || pms_srcline__lookup(p->sl, in->d.addr, &fr, &nr) || !nr ||
		    !fr[0].file || !fr[0].line)
			continue;
		any = true;
		in->file = fr[0].file;
		in->comp_dir = fr[0].comp_dir;
		in->line = fr[0].line;
		in->func = nr > 1 ? (fr[0].func ? fr[0].func : fr[0].linkage_name) : NULL;
		for (l = 0; l < a->nr_lines; l++)
			if (a->lines[l].line == in->line && same_file(a->lines[l].file, in->file))
				break;
		if (l == a->nr_lines) {
			if ((err = pms_array__reserve(&a->lines, &alloc, a->nr_lines + 1, sizeof(*a->lines))))
				return err;
			a->lines[a->nr_lines++] = (struct pms_annotate_line){ .file = in->file, .comp_dir = in->comp_dir,
									     .line = in->line, .first_addr = in->d.addr };
		}
		in->line_idx = (uint32_t)l;
		a->lines[l].samples += in->samples;
		a->lines[l].period += in->period;
	}
	if (!any)
		a->no_source = "no source lines cover this function";
	return 0;
}

static uint16_t host_machine(void)
{
#if defined(__x86_64__)
	return EM_X86_64;
#elif defined(__aarch64__)
	return EM_AARCH64;
#else
	return EM_NONE;
#endif
}

int pms_annotation__build_sym(const struct pms_annotate_sym *sym, const struct pms_annotate_point *points,
			      size_t nr_points, const struct pms_annotate_opts *opts, struct pms_annotation **out)
{
	struct annotation_priv *p;
	struct pms_annotation *a;
	struct pms_disasm_insn *d = NULL;
	const uint8_t *code;
	size_t avail, nr = 0;
	int err;

	uint8_t *kbuf = NULL;
	uint16_t machine;

	*out = NULL;
	if (!sym || (opts && opts->sz != sizeof(*opts)))
		return -EINVAL;
	if (!sym->size || (!sym->elf && !(sym->kernel && sym->kernel_here)))
		return -ENOENT;
	if (sym->elf) {
		if (pms_dso__code(sym->elf, sym->start, sym->size, &code, &avail) || !avail)
			return -ENOENT;
		machine = sym->elf->e_machine;
	} else {
		/* the running kernel's own bytes, at its (KASLR-moved) address */
		if (sym->size > (1 << 20))
			return -ENOENT;
		kbuf = malloc(sym->size);
		if (!kbuf)
			return -ENOMEM;
		err = pms_kcore__read(sym->start - (uint64_t)sym->kernel_delta, kbuf, sym->size, &avail);
		if (err) {
			free(kbuf);
			return err;
		}
		code = kbuf;
		machine = host_machine();
	}
	err = pms_disasm(machine, opts ? opts->syntax : PMS_DISASM_ATT, code, avail, sym->start, &d, &nr);
	free(kbuf);
	if (err)
		return err;
	p = calloc(1, sizeof(*p));
	if (!p) {
		free(d);
		return -ENOMEM;
	}
	a = &p->pub;
	a->sym = sym;
	a->insns = calloc(nr ? nr : 1, sizeof(*a->insns));
	if (!a->insns) {
		free(d);
		free(p);
		return -ENOMEM;
	}
	for (size_t k = 0; k < nr; k++) {
		a->insns[k].d = d[k];
		a->insns[k].line_idx = UINT32_MAX;
	}
	a->nr_insns = nr;
	free(d);
	for (size_t k = 0; k < nr_points; k++) {
		bool exact = false;
		ssize_t at = insn_at(a, points[k].addr, &exact);

		if (at >= 0 && exact) {
			a->insns[at].samples += points[k].samples;
			a->insns[at].period += points[k].period;
		} else {
			a->samples_elsewhere += points[k].samples;
		}
	}
	err = find_loops(a);
	if (!err && !sym->elf)
		a->no_source = "kernel code read from /proc/kcore: no DWARF for it here (no vmlinux with debug info is read)";
	else if (!err && (!opts || opts->source))
		err = add_source(p);
	else if (!err)
		a->no_source = "left out (--no-source)";
	if (err) {
		pms_annotation__free(a);
		return err;
	}
	*out = a;
	return 0;
}

int pms_annotation__build(const struct pms_annotate_set *set, size_t i, const struct pms_annotate_opts *opts,
			  struct pms_annotation **out)
{
	struct pms_annotate_point *pts;
	size_t n;
	int err;

	*out = NULL;
	if (i >= set->nr_syms)
		return -EINVAL;
	n = set->nr_pt[i];
	pts = malloc((n ? n : 1) * sizeof(*pts));
	if (!pts)
		return -ENOMEM;
	for (size_t k = 0; k < n; k++) {
		const struct point *pt = &set->pts[set->first_pt[i] + k];

		pts[k] = (struct pms_annotate_point){ .addr = pt->addr, .samples = pt->samples, .period = pt->period };
	}
	err = pms_annotation__build_sym(&set->syms[i], pts, n, opts, out);
	free(pts);
	return err;
}

void pms_annotation__free(struct pms_annotation *a)
{
	struct annotation_priv *p;

	if (!a)
		return;
	p = priv_of(a);
	for (size_t i = 0; i < p->nr_files; i++) {
		free(p->files[i].path);
		free(p->files[i].text);
		free(p->files[i].lines);
	}
	free(p->files);
	pms_srcline__free(p->sl);
	free(a->insns);
	free(a->lines);
	free(a->loops);
	free(p);
}

/*
 * A source file's text, if it is a regular file of a sane size: DWARF names
 * any path, and a device or a huge file is not a source to read whole.
 */
static int read_source(const char *path, char **text, size_t *len)
{
	struct stat st;

	if (stat(path, &st) || !S_ISREG(st.st_mode) || st.st_size > (64 << 20))
		return -ENOENT;
	return pms_file__read_all(path, text, len);
}

/* file under dir (a relative DWARF path); true when read. */
static bool read_under(const char *dir, const char *file, char **text, size_t *len)
{
	char path[4096];
	int n = snprintf(path, sizeof(path), "%s/%s", dir, file);

	return n > 0 && (size_t)n < sizeof(path) && !read_source(path, text, len);
}

const char *pms_annotation__source(struct pms_annotation *a, const char *file, const char *comp_dir, unsigned line)
{
	struct annotation_priv *p = priv_of(a);
	struct source_file *f = NULL;

	if (!file)
		return NULL;
	for (size_t i = 0; i < p->nr_files && !f; i++)
		if (!strcmp(p->files[i].path, file))
			f = &p->files[i];
	if (!f) {
		size_t len = 0, n = 1;
		char *text = NULL;

		if (pms_array__reserve(&p->files, &p->files_alloc, p->nr_files + 1, sizeof(*p->files)))
			return NULL;
		f = &p->files[p->nr_files];
		memset(f, 0, sizeof(*f));
		f->path = strdup(file);
		if (!f->path)
			return NULL;
		p->nr_files++;
		if (read_source(file, &text, &len) && (file[0] == '/' || !comp_dir || !read_under(comp_dir, file, &text, &len)))
			return NULL;
		for (size_t k = 0; k < len; k++)
			n += text[k] == '\n';
		f->lines = calloc(n + 1, sizeof(*f->lines));
		if (!f->lines) {
			free(text);
			return NULL;
		}
		f->text = text;
		f->lines[f->nr_lines = 1] = text;
		for (size_t k = 0; k < len; k++)
			if (text[k] == '\n') {
				text[k] = 0;
				if (k + 1 < len)
					f->lines[++f->nr_lines] = text + k + 1;
			}
	}
	return f->text && line >= 1 && line <= f->nr_lines ? f->lines[line] : NULL;
}
