// SPDX-License-Identifier: MIT
// Frame-pointer call chains that stop before a process or thread entry, and the objects they stop in.
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "aggregate/chaincheck.h"
#include "symbol/dso.h"
#include "util/array.h"
#include "util/strbuf.h"

/* symbol names are interned by their producers: a pointer seen once is answered from here */
#define ENTRY_MEMO 64

struct pms_chaincheck {
	struct pms_chaincheck_result res;
	struct {
		const char *sym;
		int entry;
	} memo[ENTRY_MEMO];
	struct pms_chaincheck_object *objs;
	size_t nr, cap;
	bool sorted;
};

int pms_chaincheck__is_entry(const char *sym)
{
	/* where glibc, musl, Go and Rust start processes and threads */
	static const char *const entries[] = {
		"_start", "__libc_start_main", "__libc_start_call_main", "__libc_start_main_impl", "main",
		"start_thread", "clone", "clone3", "__clone", "__clone3", "__clone_internal", "thread_start",
		"__thread_start", "runtime.goexit", "runtime.rt0_go", "runtime.mstart", "_dl_start_user",
	};

	if (!sym)
		return 0;
	for (size_t i = 0; i < sizeof(entries) / sizeof(entries[0]); i++)
		if (!strcmp(sym, entries[i]))
			return 1;
	return 0;
}

struct pms_chaincheck *pms_chaincheck__new(void)
{
	return calloc(1, sizeof(struct pms_chaincheck));
}

void pms_chaincheck__free(struct pms_chaincheck *c)
{
	if (!c)
		return;
	free(c->objs);
	free(c);
}

int pms_chaincheck__add(struct pms_chaincheck *c, const struct pms_chaincheck_chain *ch)
{
	struct pms_chaincheck_object *o = NULL;
	const char *dso = ch->blame_dso;
	struct pms_dso *elf = ch->blame_elf;
	uint64_t w = ch->weight ? ch->weight : 1;

	c->res.chains += w;
	if (ch->outer_sym) {
		size_t m = ((uintptr_t)ch->outer_sym >> 4) % ENTRY_MEMO;

		if (c->memo[m].sym != ch->outer_sym) {
			c->memo[m].sym = ch->outer_sym;
			c->memo[m].entry = pms_chaincheck__is_entry(ch->outer_sym);
		}
		if (c->memo[m].entry) {
			c->res.complete += w;
			return 0;
		}
	}
	/* a stripped executable's _start has no name, but it is the entry point */
	if (!ch->outer_sym && ch->outer_elf && ch->outer_elf->e_entry && ch->outer_vaddr >= ch->outer_elf->e_entry &&
	    ch->outer_vaddr - ch->outer_elf->e_entry < 64) {
		c->res.complete += w;
		return 0;
	}
	if (ch->at_depth_limit)
		return 0;
	c->res.cut += w;
	if (!dso)
		dso = "[unknown]";
	for (size_t i = 0; i < c->nr && !o; i++)
		if (c->objs[i].dso == dso)
			o = &c->objs[i];
	for (size_t i = 0; i < c->nr && !o; i++)
		if (!strcmp(c->objs[i].dso, dso))
			o = &c->objs[i];
	if (!o) {
		if (pms_array__reserve(&c->objs, &c->cap, c->nr + 1, sizeof(*c->objs)))
			return -ENOMEM;
		o = &c->objs[c->nr++];
		o->dso = dso;
		o->cut = 0;
		o->frame_pointers = -1;
	}
	/* the first time the file is at hand decides it */
	if (o->frame_pointers < 0 && elf)
		o->frame_pointers = pms_dso__frame_pointers(elf);
	o->cut += w;
	if (o->frame_pointers == 0)
		c->res.cut_no_fp += w;
	c->sorted = false;
	return 0;
}

static int by_cut(const void *a, const void *b)
{
	const struct pms_chaincheck_object *x = a, *y = b;

	if (x->cut != y->cut)
		return x->cut > y->cut ? -1 : 1;
	return strcmp(x->dso, y->dso);
}

void pms_chaincheck__result(struct pms_chaincheck *c, struct pms_chaincheck_result *out)
{
	if (!c->sorted && c->nr > 1)
		qsort(c->objs, c->nr, sizeof(*c->objs), by_cut);
	c->sorted = true;
	c->res.objects = c->objs;
	c->res.nr_objects = c->nr;
	*out = c->res;
}

static const char *base_name(const char *path)
{
	const char *b = strrchr(path, '/');

	return b && b[1] ? b + 1 : path;
}

int pms_chaincheck__describe(const struct pms_chaincheck_result *r, struct strbuf *out)
{
	const char *sep = ": ";

	if (!r->cut || r->cut * 100 < r->chains)
		return 0;
	strbuf_addf(out, "%" PRIu64 " of %" PRIu64 " user call chains (%.1f%%) stop before reaching a thread or "
		    "process entry", r->cut, r->chains, 100.0 * (double)r->cut / (double)r->chains);
	if (!r->cut_no_fp) {
		if (r->nr_objects)
			strbuf_addf(out, ", most in %s", base_name(r->objects[0].dso));
		return 1;
	}
	strbuf_addf(out, ", %" PRIu64 " inside objects built without frame pointers", r->cut_no_fp);
	for (size_t i = 0, k = 0; i < r->nr_objects && k < 5; i++) {
		if (r->objects[i].frame_pointers != 0)
			continue;
		strbuf_addf(out, "%s%s (%" PRIu64 ")", sep, base_name(r->objects[i].dso), r->objects[i].cut);
		sep = ", ";
		k++;
	}
	strbuf_adds(out, "; their callers are missing: sample with --call-graph dwarf (or rebuild them with "
			 "-fno-omit-frame-pointer)");
	return 1;
}
