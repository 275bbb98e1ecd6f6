/* SPDX-License-Identifier: MIT */
/*
 * Kernel symbols from <procfs>/kallsyms: text symbols (t/T/w/W) of the core
 * kernel and of modules (the "[module]" column), and module address ranges
 * from <procfs>/modules. Invariant: when every
 * address reads as zero (kptr_restrict, or not root) the load fails with
 * -EACCES and `restricted` is set, instead of attributing every kernel
 * sample to the first symbol.
 */
#ifndef PMS_SYMBOL_KALLSYMS_H
#define PMS_SYMBOL_KALLSYMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "symbol/symtab.h"

/* A loaded module's core text+data range from <procfs>/modules. */
struct pms_kmodule {
	char *name;
	uint64_t start, size;
};

struct pms_kallsyms {
	struct pms_symtab tab;
	struct pms_kmodule *modules; /* sorted by start; empty if unreadable */
	size_t nr_modules;
	size_t nr_modules_syms; /* entries with a module */
	bool restricted;        /* addresses were all zero */
};

/* Parse kallsyms text. -EACCES (restricted) / -EINVAL / -ENOMEM. */
int pms_kallsyms__parse(const char *text, size_t len, struct pms_kallsyms *ks);
/* <procfs>/kallsyms, plus <procfs>/modules when readable. */
int pms_kallsyms__load(struct pms_kallsyms *ks);
/* Parse /proc/modules text into ks->modules (replacing any). -EINVAL / -ENOMEM. */
int pms_kallsyms__parse_modules(const char *text, size_t len, struct pms_kallsyms *ks);
/* Module whose range contains addr (also for addresses without a symbol), or NULL. */
const struct pms_kmodule *pms_kallsyms__module_of(const struct pms_kallsyms *ks, uint64_t addr);
const struct pms_tsym *pms_kallsyms__find(const struct pms_kallsyms *ks, uint64_t addr);
void pms_kallsyms__release(struct pms_kallsyms *ks);

#endif
