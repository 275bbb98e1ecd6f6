/* SPDX-License-Identifier: MIT */
/*
 * Kernel symbols from <procfs>/kallsyms: text symbols (t/T/w/W) of the core
 * kernel and of modules (the "[module]" column), and module address ranges
 * from <procfs>/modules. Invariant: when every
 * address reads as zero (kptr_restrict, or not root) the load fails with
 * -EACCES and `restricted` is set, instead of attributing every kernel
 * sample to the first symbol.
 *
 * Reading and sorting /proc/kallsyms (~120k lines) costs ~60 ms of CPU, more
 * than a whole small report: the parsed table is kept in the build-id cache
 * as an address-sorted index ("pmuscope-ksyms-<_text>.idx" beside the
 * kernel's kallsyms entry) and mapped by later runs. The running kernel's
 * index holds its core symbols, which a build-id and a KASLR offset fix;
 * module, BPF and trampoline symbols, which come and go, are read from
 * /proc/kallsyms only when an address outside the core is looked up. A
 * kallsyms file in the cache gets an index of all its symbols. Every index
 * is checked against its source (build-id and the first 64 KiB of the
 * running kernel's kallsyms; size and mtime of a file) and rebuilt when it
 * does not match.
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
	/* addresses perf relocates by and bounds the kernel map with (0: absent); kept apart
	   because aliases at one address collapse to one name in tab */
	uint64_t text_addr, stext_addr, etext_addr;
	/* mapped index tab's names point into, or NULL */
	void *idx_map;
	size_t idx_len;
	/* the core kernel's symbols (no [module]) lie in [core_lo, core_hi); with a core-only
	   index (rest set), addresses outside go to the whole kallsyms, read on first use */
	uint64_t core_lo, core_hi;
	struct pms_kallsyms_rest *rest;
	bool from_index;        /* the table came from an index (not parsed this time) */
};

/* Parse kallsyms text. -EACCES (restricted) / -EINVAL / -ENOMEM. */
int pms_kallsyms__parse(const char *text, size_t len, struct pms_kallsyms *ks);
/* <procfs>/kallsyms, plus <procfs>/modules when readable. */
int pms_kallsyms__load(struct pms_kallsyms *ks);
/* Any kallsyms-format file (a copy in the build-id cache, perf's --kallsyms); no module ranges. */
int pms_kallsyms__load_file(const char *path, struct pms_kallsyms *ks);
/* The same through an index kept beside it (a file of the build-id cache): built once, mapped after. */
int pms_kallsyms__load_file_indexed(const char *path, struct pms_kallsyms *ks);
/* The address of "_text", "_stext" or "_etext" as read, 0 if absent or another name. */
uint64_t pms_kallsyms__ref_addr(const struct pms_kallsyms *ks, const char *name);
/* The running kernel's build-id, from the notes in <sysfs>/kernel/notes: its size, or -errno. */
int pms_kernel__build_id(uint8_t *buf, size_t size);
/* Parse /proc/modules text into ks->modules (replacing any). -EINVAL / -ENOMEM. */
int pms_kallsyms__parse_modules(const char *text, size_t len, struct pms_kallsyms *ks);
/* Module whose range contains addr (also for addresses without a symbol), or NULL. */
const struct pms_kmodule *pms_kallsyms__module_of(const struct pms_kallsyms *ks, uint64_t addr);
const struct pms_tsym *pms_kallsyms__find(const struct pms_kallsyms *ks, uint64_t addr);
void pms_kallsyms__release(struct pms_kallsyms *ks);

#endif
