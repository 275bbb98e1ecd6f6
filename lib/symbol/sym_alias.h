/* SPDX-License-Identifier: MIT */
/*
 * Which of several symbols at one address names it. perf keeps one
 * (symbols__fixup_duplicate(), choose_best_symbol()): a sized one, then one
 * that is not weak, then a global one, then the one with fewer leading
 * underscores, then the longer name; on a full tie the one met first in the
 * table. Following the same rule makes our names perf's (`__GI___execve`
 * from libc's debug symbols, `__x64_sys_vfork` from kallsyms).
 */
#ifndef PMS_SYMBOL_SYM_ALIAS_H
#define PMS_SYMBOL_SYM_ALIAS_H

#include <stdbool.h>
#include <stdint.h>

struct pms_sym_alias {
	bool sized;        /* has a size of its own (st_size, a JIT map's size) */
	uint8_t bind;      /* STB_LOCAL, STB_GLOBAL or STB_WEAK */
	const char *name;
};

/* <0: a names the address, >0: b does, 0: a tie (the earlier in the table does). */
int pms_sym_alias__cmp(const struct pms_sym_alias *a, const struct pms_sym_alias *b);

/* perf's binding for a kallsyms type letter: 'W' weak, other upper case global, else local. */
uint8_t pms_sym_alias__kallsyms_bind(char type);

#endif
