// SPDX-License-Identifier: MIT
// Sorted address -> name table shared by kallsyms and JIT map readers.
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "symbol/sym_alias.h"
#include "symbol/symtab.h"
#include "util/array.h"

int pms_symtab__add(struct pms_symtab *t, uint64_t start, uint64_t size, const char *name,
		    size_t name_len, const char *module, size_t module_len, char type)
{
	struct pms_tsym *s;

	if (t->nr == t->cap && pms_array__reserve(&t->syms, &t->cap, t->nr + 1, sizeof(*t->syms)))
		return -ENOMEM;
	s = &t->syms[t->nr];
	memset(s, 0, sizeof(*s));
	s->start = start;
	s->size = size;
	s->type = type;
	s->order = (uint32_t)t->nr;
	s->name = strndup(name, name_len);
	if (module)
		s->module = strndup(module, module_len);
	if (!s->name || (module && !s->module)) {
		free(s->name);
		free(s->module);
		return -ENOMEM;
	}
	t->nr++;
	return 0;
}

static int tsym_cmp(const void *a, const void *b)
{
	const struct pms_tsym *x = a, *y = b;
	int c;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	/*
	 * Among aliases the one perf keeps first. perf sizes kallsyms entries
	 * before it drops aliases: each ends where the next starts, so only
	 * the last alias has a size and wins (`__x64_sys_vfork` over
	 * `__ia32_sys_vfork`, `__pi_memcpy` over `memcpy`). JIT map entries
	 * have sizes: perf's rules (sym_alias.h), as global symbols.
	 */
	if (x->type && y->type)
		return x->order > y->order ? -1 : x->order < y->order;
	c = pms_sym_alias__cmp(&(struct pms_sym_alias){ x->size != 0, pms_sym_alias__kallsyms_bind(x->type ? x->type : 'T'), x->name },
			       &(struct pms_sym_alias){ y->size != 0, pms_sym_alias__kallsyms_bind(y->type ? y->type : 'T'), y->name });
	if (c)
		return c;
	return x->order < y->order ? -1 : x->order > y->order;
}

void pms_symtab__finish(struct pms_symtab *t, uint64_t last_end)
{
	size_t n = 0;

	if (!t->nr)
		return;
	qsort(t->syms, t->nr, sizeof(*t->syms), tsym_cmp);
	for (size_t i = 0; i < t->nr; i++) {
		if (n && t->syms[n - 1].start == t->syms[i].start) {
			free(t->syms[i].name);
			free(t->syms[i].module);
			continue;
		}
		t->syms[n++] = t->syms[i];
	}
	t->nr = n;
	for (size_t i = 0; i < n; i++) {
		struct pms_tsym *s = &t->syms[i];

		if (s->size)
			continue;
		if (i + 1 < n)
			s->size = t->syms[i + 1].start - s->start;
		else
			s->size = last_end > s->start ? last_end - s->start : 1;
	}
}

const struct pms_tsym *pms_symtab__find(const struct pms_symtab *t, uint64_t addr)
{
	size_t lo = 0, hi = t->nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->syms[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return NULL;
	const struct pms_tsym *s = &t->syms[lo - 1];

	return addr - s->start < s->size ? s : NULL;
}

void pms_symtab__release(struct pms_symtab *t)
{
	for (size_t i = 0; i < t->nr && !t->borrowed_names; i++) {
		free(t->syms[i].name);
		free(t->syms[i].module);
	}
	free(t->syms);
	memset(t, 0, sizeof(*t));
}
