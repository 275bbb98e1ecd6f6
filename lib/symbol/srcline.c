// SPDX-License-Identifier: MIT
// Source file:line and inline frames via libdw (dwarf_addrdie, dwarf_getsrc_die, dwarf_getscopes), cached per DSO.
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <errno.h>
#include <fcntl.h>
#include <libelf.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "symbol/demangle.h"
#include "symbol/srcline.h"
#include "util/array.h"
#include "util/hash.h"
#include "util/idtab.h"

#define MAX_INLINE_DEPTH 64

struct entry {
	uint64_t vaddr;
	struct pms_srcline_frame *frames; /* NULL: no coverage (negative cache) */
	size_t nr;
};

/* A function-like DIE (out-of-line or inlined copy) of one CU. */
struct fn {
	const char *name;
	const char *linkage;    /* DW_AT_linkage_name as recorded, NULL without one */
	char *linkage_demangled; /* filled on first use; NULL if not mangled */
	bool demangle_tried;
	const char *call_file; /* where an inlined copy sits in its caller */
	unsigned int call_line;
	int parent;            /* enclosing fn index, -1 for a subprogram */
};

struct rng {
	uint64_t lo, hi;
	int fn, depth;
};

/*
 * One CU's function ranges, built by a single DIE walk on first use, so a
 * lookup is a binary search instead of dwarf_getscopes()'s walk from the
 * CU root on every address.
 */
struct cu_index {
	Dwarf_Off off;
	struct fn *fns;
	size_t nr_fns, cap_fns;
	struct rng *rngs;
	size_t nr_rngs, cap_rngs;
	Dwarf_Files *files;
	size_t nr_files;
};

/* A compile unit's address range, for files without .debug_aranges (clang's default). */
struct cu_range {
	uint64_t lo, hi;
	Dwarf_Off off;        /* the CU DIE's offset */
};

struct pms_srcline {
	Dwarf *dw;
	struct cu_range *ranges;    /* built at the first address .debug_aranges does not cover */
	size_t nr_ranges;
	bool ranges_built;
	struct cu_index *cus; /* sorted by off */
	size_t nr_cus, cap_cus;
	Elf *own_elf; /* a debug file this handle opened itself */
	int own_fd;
	struct entry *ents;         /* one per address looked up */
	size_t nr_ents, cap_ents;
	struct pms_idtab by_vaddr;  /* hash(vaddr) -> index in ents */
	size_t lookups, misses;
};

static int open_debug(struct pms_dso *dso, struct pms_srcline *sl, Elf **elf)
{
	char path[4096];

	if (dso->has_debug_info) {
		*elf = dso->elf;
		return 0;
	}
	if (dso->debug_elf) {
		*elf = dso->debug_elf;
		return 0;
	}
	if (pms_dso__find_debug_file(dso, path, sizeof(path)))
		return -ENODATA;
	sl->own_fd = open(path, O_RDONLY | O_CLOEXEC);
	if (sl->own_fd < 0)
		return -errno;
	sl->own_elf = elf_begin(sl->own_fd, ELF_C_READ_MMAP, NULL);
	if (!sl->own_elf)
		return -ENOEXEC;
	*elf = sl->own_elf;
	return 0;
}

int pms_srcline__new(struct pms_dso *dso, struct pms_srcline **out)
{
	struct pms_srcline *sl = calloc(1, sizeof(*sl));
	Elf *elf;
	int err;

	if (!sl)
		return -ENOMEM;
	sl->own_fd = -1;
	err = open_debug(dso, sl, &elf);
	if (!err) {
		sl->dw = dwarf_begin_elf(elf, DWARF_C_READ, NULL);
		if (!sl->dw)
			err = -ENODATA;
	}
	if (err) {
		pms_srcline__free(sl);
		return err;
	}
	*out = sl;
	return 0;
}

void pms_srcline__free(struct pms_srcline *sl)
{
	if (!sl)
		return;
	for (size_t i = 0; i < sl->nr_ents; i++)
		free(sl->ents[i].frames);
	free(sl->ents);
	pms_idtab__release(&sl->by_vaddr);
	for (size_t i = 0; i < sl->nr_cus; i++) {
		for (size_t k = 0; k < sl->cus[i].nr_fns; k++)
			free(sl->cus[i].fns[k].linkage_demangled);
		free(sl->cus[i].fns);
		free(sl->cus[i].rngs);
	}
	free(sl->cus);
	free(sl->ranges);
	if (sl->dw)
		dwarf_end(sl->dw);
	if (sl->own_elf)
		elf_end(sl->own_elf);
	if (sl->own_fd >= 0)
		close(sl->own_fd);
	free(sl);
}

void pms_srcline__stats(const struct pms_srcline *sl, size_t *lookups, size_t *misses)
{
	if (lookups)
		*lookups = sl->lookups;
	if (misses)
		*misses = sl->misses;
}

static unsigned int call_line(Dwarf_Die *die)
{
	Dwarf_Attribute a;
	Dwarf_Word v;

	if (!dwarf_attr(die, DW_AT_call_line, &a) || dwarf_formudata(&a, &v) || v > UINT32_MAX)
		return 0;
	return (unsigned int)v;
}

/* Through DW_AT_abstract_origin and DW_AT_specification, as the name is. */
static const char *linkage_name(Dwarf_Die *die)
{
	Dwarf_Attribute a;

	if (dwarf_attr_integrate(die, DW_AT_linkage_name, &a) ||
	    dwarf_attr_integrate(die, DW_AT_MIPS_linkage_name, &a))
		return dwarf_formstring(&a);
	return NULL;
}

static const char *call_file(struct cu_index *ci, Dwarf_Die *die)
{
	Dwarf_Attribute a;
	Dwarf_Word idx;

	if (!ci->files || !dwarf_attr(die, DW_AT_call_file, &a) || dwarf_formudata(&a, &idx) ||
	    idx >= ci->nr_files)
		return NULL;
	return dwarf_filesrc(ci->files, idx, NULL, NULL);
}

static int add_fn(struct cu_index *ci, Dwarf_Die *die, int parent, int depth)
{
	Dwarf_Addr base, lo, hi;
	ptrdiff_t off = 0;
	int idx, tag = dwarf_tag(die);

	if (pms_array__reserve(&ci->fns, &ci->cap_fns, ci->nr_fns + 1, sizeof(*ci->fns)))
		return -ENOMEM;
	idx = (int)ci->nr_fns++;
	ci->fns[idx] = (struct fn){
		.name = dwarf_diename(die),
		.linkage = linkage_name(die),
		.parent = tag == DW_TAG_inlined_subroutine ? parent : -1,
	};
	if (tag == DW_TAG_inlined_subroutine) {
		ci->fns[idx].call_file = call_file(ci, die);
		ci->fns[idx].call_line = call_line(die);
	}
	while ((off = dwarf_ranges(die, off, &base, &lo, &hi)) > 0) {
		if (hi <= lo)
			continue;
		if (pms_array__reserve(&ci->rngs, &ci->cap_rngs, ci->nr_rngs + 1, sizeof(*ci->rngs)))
			return -ENOMEM;
		ci->rngs[ci->nr_rngs++] = (struct rng){ .lo = lo, .hi = hi, .fn = idx, .depth = depth };
	}
	return idx;
}

static int walk(struct cu_index *ci, Dwarf_Die *parent_die, int parent, int depth)
{
	Dwarf_Die c;
	int r;

	if (depth > 256 || dwarf_child(parent_die, &c) != 0)
		return 0;
	do {
		int tag = dwarf_tag(&c), me = parent, d = depth;

		if (tag == DW_TAG_subprogram || tag == DW_TAG_inlined_subroutine) {
			me = add_fn(ci, &c, parent, depth);
			if (me < 0)
				return me;
			d = depth + 1;
		}
		if (dwarf_haschildren(&c)) {
			r = walk(ci, &c, me, d);
			if (r)
				return r;
		}
	} while (dwarf_siblingof(&c, &c) == 0);
	return 0;
}

static int rng_cmp(const void *a, const void *b)
{
	const struct rng *x = a, *y = b;

	if (x->lo != y->lo)
		return x->lo < y->lo ? -1 : 1;
	return x->depth - y->depth;
}

static struct cu_index *cu_index_get(struct pms_srcline *sl, Dwarf_Die *cu)
{
	Dwarf_Off off = dwarf_dieoffset(cu);
	size_t lo = 0, hi = sl->nr_cus;
	struct cu_index *ci;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (sl->cus[mid].off == off)
			return &sl->cus[mid];
		if (sl->cus[mid].off < off)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (pms_array__reserve(&sl->cus, &sl->cap_cus, sl->nr_cus + 1, sizeof(*sl->cus)))
		return NULL;
	memmove(&sl->cus[lo + 1], &sl->cus[lo], (sl->nr_cus - lo) * sizeof(*sl->cus));
	sl->nr_cus++;
	ci = &sl->cus[lo];
	memset(ci, 0, sizeof(*ci));
	ci->off = off;
	if (dwarf_getsrcfiles(cu, &ci->files, &ci->nr_files))
		ci->files = NULL;
	/* A half-built index (ENOMEM mid-walk) still answers what it has. */
	(void)walk(ci, cu, -1, 0);
	if (ci->nr_rngs)
		qsort(ci->rngs, ci->nr_rngs, sizeof(*ci->rngs), rng_cmp);
	return ci;
}

/* Innermost range containing addr: ranges nest, so it has the largest lo (then depth). */
static int innermost_fn(const struct cu_index *ci, uint64_t addr)
{
	size_t lo = 0, hi = ci->nr_rngs;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (ci->rngs[mid].lo <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	while (lo-- > 0)
		if (addr < ci->rngs[lo].hi)
			return ci->rngs[lo].fn;
	return -1;
}

static int cmp_range(const void *a, const void *b)
{
	const struct cu_range *x = a, *y = b;

	return x->lo < y->lo ? -1 : x->lo > y->lo;
}

/*
 * Every CU's ranges (DW_AT_low_pc/high_pc or DW_AT_ranges), sorted: libdw's
 * dwarf_addrdie() reads .debug_aranges only, which clang does not emit.
 */
static int build_ranges(struct pms_srcline *sl)
{
	Dwarf_Off off = 0, next;
	size_t hsize, alloc = 0;

	sl->ranges_built = true;
	while (dwarf_nextcu(sl->dw, off, &next, &hsize, NULL, NULL, NULL) == 0) {
		Dwarf_Die cu;
		Dwarf_Addr base, lo, hi;
		ptrdiff_t it = 0;

		if (dwarf_offdie(sl->dw, off + hsize, &cu)) {
			while ((it = dwarf_ranges(&cu, it, &base, &lo, &hi)) > 0) {
				if (hi <= lo)
					continue;
				if (pms_array__reserve(&sl->ranges, &alloc, sl->nr_ranges + 1, sizeof(*sl->ranges)))
					return -ENOMEM;
				sl->ranges[sl->nr_ranges++] = (struct cu_range){ .lo = lo, .hi = hi, .off = off + hsize };
			}
		}
		off = next;
	}
	qsort(sl->ranges, sl->nr_ranges, sizeof(*sl->ranges), cmp_range);
	return 0;
}

/* The CU holding vaddr: .debug_aranges first, else the CUs' own ranges. */
static bool cu_of(struct pms_srcline *sl, uint64_t vaddr, Dwarf_Die *cu)
{
	size_t lo = 0, hi;

	if (dwarf_addrdie(sl->dw, vaddr, cu))
		return true;
	if (!sl->ranges_built && build_ranges(sl))
		return false;
	hi = sl->nr_ranges;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (sl->ranges[mid].lo <= vaddr)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* ranges may nest or overlap a little: look back for one that holds vaddr */
	for (size_t k = lo; k-- > 0 && lo - k <= 8;)
		if (vaddr < sl->ranges[k].hi)
			return dwarf_offdie(sl->dw, sl->ranges[k].off, cu) != NULL;
	return false;
}

/* Resolves vaddr into a malloc()ed frames array; *nr = 0 when DWARF has nothing. */
static int resolve(struct pms_srcline *sl, uint64_t vaddr, struct pms_srcline_frame **out, size_t *nr)
{
	Dwarf_Die cu;
	Dwarf_Line *line;
	struct pms_srcline_frame cur = { 0 }, *frames;
	struct cu_index *ci;
	size_t n = 0;
	int fn;

	*out = NULL;
	*nr = 0;
	if (!cu_of(sl, vaddr, &cu))
		return 0;
	{
		Dwarf_Attribute at;

		cur.comp_dir = dwarf_formstring(dwarf_attr(&cu, DW_AT_comp_dir, &at));
	}
	line = dwarf_getsrc_die(&cu, vaddr);
	if (line) {
		int ln = 0;

		cur.file = dwarf_linesrc(line, NULL, NULL);
		if (!dwarf_lineno(line, &ln) && ln > 0)
			cur.line = (unsigned int)ln;
	}
	ci = cu_index_get(sl, &cu);
	if (!ci)
		return -ENOMEM;
	fn = innermost_fn(ci, vaddr);
	frames = calloc(MAX_INLINE_DEPTH + 1, sizeof(*frames));
	if (!frames)
		return -ENOMEM;
	while (fn >= 0 && n < MAX_INLINE_DEPTH) {
		struct fn *f = &ci->fns[fn];

		if (f->linkage && !f->demangle_tried) {
			f->linkage_demangled = pms_demangle__perf(f->linkage);
			f->demangle_tried = true;
		}
		cur.func = f->name;
		cur.linkage_name = f->linkage_demangled ? f->linkage_demangled : f->linkage;
		frames[n++] = cur;
		/* The caller is where this copy was inlined. */
		cur.file = f->call_file;
		cur.line = f->call_line;
		fn = f->parent;
	}
	if (!n && (cur.file || cur.line))
		frames[n++] = cur; /* line table without a covering subprogram DIE */
	if (!n) {
		free(frames);
		return 0;
	}
	/* Most addresses have one or two frames: give back the rest. */
	struct pms_srcline_frame *shrunk = realloc(frames, n * sizeof(*frames));

	*out = shrunk ? shrunk : frames;
	*nr = n;
	return 0;
}

int pms_srcline__lookup(struct pms_srcline *sl, uint64_t vaddr,
			const struct pms_srcline_frame **frames, size_t *nr)
{
	struct entry *e;
	struct pms_srcline_frame *f;
	size_t n, i;
	uint32_t h;
	int err;

	sl->lookups++;
	h = (uint32_t)pms_hash__mix64(vaddr);
	if (pms_idtab__reserve(&sl->by_vaddr))
		return -ENOMEM;
	for (i = pms_idtab__start(&sl->by_vaddr, h); pms_idtab__used(&sl->by_vaddr, i); i = pms_idtab__next(&sl->by_vaddr, i))
		if (pms_idtab__hash(&sl->by_vaddr, i) == h && sl->ents[pms_idtab__id(&sl->by_vaddr, i)].vaddr == vaddr)
			break;
	if (pms_idtab__used(&sl->by_vaddr, i)) {
		e = &sl->ents[pms_idtab__id(&sl->by_vaddr, i)];
	} else {
		sl->misses++;
		if (pms_array__reserve(&sl->ents, &sl->cap_ents, sl->nr_ents + 1, sizeof(*sl->ents)))
			return -ENOMEM;
		err = resolve(sl, vaddr, &f, &n);
		if (err)
			return err;
		pms_idtab__set(&sl->by_vaddr, i, h, (uint32_t)sl->nr_ents);
		e = &sl->ents[sl->nr_ents++];
		*e = (struct entry){ .vaddr = vaddr, .frames = f, .nr = n };
	}
	if (!e->frames)
		return -ENOENT;
	*frames = e->frames;
	*nr = e->nr;
	return 0;
}
