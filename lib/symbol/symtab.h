/* SPDX-License-Identifier: MIT */
/*
 * A text-sourced address -> name table (kallsyms, perf-PID.map JIT maps).
 * Invariant after pms_symtab__finish(): entries sorted by start, every
 * size > 0 (entries without a size end at the next start), lookup is one
 * binary search. Names and module names are owned by the table.
 */
#ifndef PMS_SYMBOL_SYMTAB_H
#define PMS_SYMBOL_SYMTAB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct pms_tsym {
	uint64_t start, size; /* size 0 before finish() = "up to the next symbol" */
	char *name;
	char *module;         /* kallsyms [module] column, else NULL */
	char type;            /* kallsyms type letter, 0 for JIT maps */
	uint32_t order;       /* position as added: the tie-break among aliases */
};

struct pms_symtab {
	struct pms_tsym *syms;
	size_t nr, cap;
	bool borrowed_names; /* names point into storage the owner keeps (a mapped index) */
};

int pms_symtab__add(struct pms_symtab *t, uint64_t start, uint64_t size, const char *name,
		    size_t name_len, const char *module, size_t module_len, char type);
/* Sort, drop exact duplicates, fill sizes; last_end bounds the last sizeless entry. */
void pms_symtab__finish(struct pms_symtab *t, uint64_t last_end);
const struct pms_tsym *pms_symtab__find(const struct pms_symtab *t, uint64_t addr);
/* Releases the contents (not t itself). */
void pms_symtab__release(struct pms_symtab *t);

#endif
