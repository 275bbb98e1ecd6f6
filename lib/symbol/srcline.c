// SPDX-License-Identifier: MIT
// Source file:line and inline frames via libdw (dwarf_addrdie, dwarf_getsrc_die, dwarf_getscopes), cached per DSO.
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <errno.h>
#include <fcntl.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "symbol/srcline.h"

#define MAX_INLINE_DEPTH 64

struct entry {
	uint64_t vaddr;
	struct pms_srcline_frame *frames; /* NULL: no coverage (negative cache) */
	size_t nr;
	int used;
};

struct pms_srcline {
	Dwarf *dw;
	Elf *own_elf; /* a debug file this handle opened itself */
	int own_fd;
	struct entry *tab;
	size_t cap, nr;
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
	if (!err) {
		sl->cap = 1024;
		sl->tab = calloc(sl->cap, sizeof(*sl->tab));
		if (!sl->tab)
			err = -ENOMEM;
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
	for (size_t i = 0; i < sl->cap && sl->tab; i++)
		free(sl->tab[i].frames);
	free(sl->tab);
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

static size_t hash(uint64_t v)
{
	v ^= v >> 33;
	v *= 0xff51afd7ed558ccdULL;
	v ^= v >> 33;
	return (size_t)v;
}

static struct entry *slot(struct entry *tab, size_t cap, uint64_t vaddr)
{
	size_t i = hash(vaddr) & (cap - 1);

	while (tab[i].used && tab[i].vaddr != vaddr)
		i = (i + 1) & (cap - 1);
	return &tab[i];
}

static int grow(struct pms_srcline *sl)
{
	size_t ncap = sl->cap * 2;
	struct entry *n = calloc(ncap, sizeof(*n));

	if (!n)
		return -ENOMEM;
	for (size_t i = 0; i < sl->cap; i++)
		if (sl->tab[i].used)
			*slot(n, ncap, sl->tab[i].vaddr) = sl->tab[i];
	free(sl->tab);
	sl->tab = n;
	sl->cap = ncap;
	return 0;
}

static const char *call_file(Dwarf_Die *cu, Dwarf_Die *die)
{
	Dwarf_Attribute a;
	Dwarf_Word idx;
	Dwarf_Files *files;
	size_t nfiles;

	if (!dwarf_attr(die, DW_AT_call_file, &a) || dwarf_formudata(&a, &idx) ||
	    dwarf_getsrcfiles(cu, &files, &nfiles) || idx >= nfiles)
		return NULL;
	return dwarf_filesrc(files, idx, NULL, NULL);
}

static unsigned int call_line(Dwarf_Die *die)
{
	Dwarf_Attribute a;
	Dwarf_Word v;

	if (!dwarf_attr(die, DW_AT_call_line, &a) || dwarf_formudata(&a, &v) || v > UINT32_MAX)
		return 0;
	return (unsigned int)v;
}

/* Resolves vaddr into a malloc()ed frames array; *nr = 0 when DWARF has nothing. */
static int resolve(struct pms_srcline *sl, uint64_t vaddr, struct pms_srcline_frame **out, size_t *nr)
{
	Dwarf_Die cu, *scopes = NULL;
	Dwarf_Line *line;
	struct pms_srcline_frame cur = { 0 }, *frames;
	size_t n = 0;
	int nscopes;

	*out = NULL;
	*nr = 0;
	if (!dwarf_addrdie(sl->dw, vaddr, &cu))
		return 0;
	line = dwarf_getsrc_die(&cu, vaddr);
	if (line) {
		int ln = 0;

		cur.file = dwarf_linesrc(line, NULL, NULL);
		if (!dwarf_lineno(line, &ln) && ln > 0)
			cur.line = (unsigned int)ln;
	}
	/*
	 * dwarf_getscopes() follows the abstract origin after an inlined
	 * instance (up to the CU), so only its innermost function scope is
	 * used; the concrete chain of callers comes from dwarf_getscopes_die().
	 */
	nscopes = dwarf_getscopes(&cu, vaddr, &scopes);
	for (int i = 0; i < nscopes; i++) {
		int tag = dwarf_tag(&scopes[i]);

		if (tag == DW_TAG_inlined_subroutine || tag == DW_TAG_subprogram) {
			Dwarf_Die fn = scopes[i];

			free(scopes);
			scopes = NULL;
			nscopes = dwarf_getscopes_die(&fn, &scopes);
			break;
		}
		if (i == nscopes - 1) {
			free(scopes);
			scopes = NULL;
			nscopes = 0;
		}
	}
	frames = calloc(MAX_INLINE_DEPTH + 1, sizeof(*frames));
	if (!frames) {
		free(scopes);
		return -ENOMEM;
	}
	for (int i = 0; i < nscopes && n < MAX_INLINE_DEPTH; i++) {
		int tag = dwarf_tag(&scopes[i]);

		if (tag != DW_TAG_inlined_subroutine && tag != DW_TAG_subprogram)
			continue;
		cur.func = dwarf_diename(&scopes[i]);
		frames[n++] = cur;
		if (tag == DW_TAG_subprogram)
			break;
		/* The caller is where this copy was inlined. */
		cur.file = call_file(&cu, &scopes[i]);
		cur.line = call_line(&scopes[i]);
	}
	free(scopes);
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
	size_t n;
	int err;

	sl->lookups++;
	e = slot(sl->tab, sl->cap, vaddr);
	if (!e->used) {
		sl->misses++;
		err = resolve(sl, vaddr, &f, &n);
		if (err)
			return err;
		if ((sl->nr + 1) * 2 > sl->cap) {
			err = grow(sl);
			if (err) {
				free(f);
				return err;
			}
		}
		e = slot(sl->tab, sl->cap, vaddr);
		*e = (struct entry){ .vaddr = vaddr, .frames = f, .nr = n, .used = 1 };
		sl->nr++;
	}
	if (!e->frames)
		return -ENOENT;
	*frames = e->frames;
	*nr = e->nr;
	return 0;
}
