// SPDX-License-Identifier: MIT
// Unit tests of lib/symbol/sym_alias and the symtab's alias choice: the names perf keeps among symbols at one address.
#include <criterion/criterion.h>
#include <elf.h>
#include <string.h>

#include "symbol/sym_alias.h"
#include "symbol/symtab.h"

static int cmp(bool as, uint8_t ab, const char *an, bool bs, uint8_t bb, const char *bn)
{
	struct pms_sym_alias a = { as, ab, an }, b = { bs, bb, bn };
	int ab_ = pms_sym_alias__cmp(&a, &b), ba = pms_sym_alias__cmp(&b, &a);

	cr_assert(ab_ == 0 ? ba == 0 : (ab_ < 0) == (ba > 0), "antisymmetric for %s / %s", an, bn);
	return ab_;
}

Test(sym_alias, perf_rules_in_order)
{
	/* a size of its own beats everything below */
	cr_expect_lt(cmp(true, STB_WEAK, "x", false, STB_GLOBAL, "y"), 0);
	/* then not weak: libc's debug symbols keep a local __GI___execve over the weak execve */
	cr_expect_lt(cmp(true, STB_LOCAL, "__GI___execve", true, STB_WEAK, "execve"), 0);
	/* then global */
	cr_expect_lt(cmp(true, STB_GLOBAL, "__libc_read", true, STB_LOCAL, "read_nocancel"), 0);
	/* then fewer leading underscores */
	cr_expect_lt(cmp(true, STB_LOCAL, "mmap64", true, STB_LOCAL, "__mmap"), 0);
	/* then the longer name */
	cr_expect_lt(cmp(true, STB_LOCAL, "__GI___execve", true, STB_LOCAL, "__execve"), 0);
	/* a full tie: the table order decides */
	cr_expect_eq(cmp(true, STB_LOCAL, "abc", true, STB_LOCAL, "xyz"), 0);
}

Test(sym_alias, kallsyms_letters)
{
	cr_expect_eq(pms_sym_alias__kallsyms_bind('T'), STB_GLOBAL);
	cr_expect_eq(pms_sym_alias__kallsyms_bind('t'), STB_LOCAL);
	cr_expect_eq(pms_sym_alias__kallsyms_bind('W'), STB_WEAK);
	cr_expect_eq(pms_sym_alias__kallsyms_bind('w'), STB_LOCAL);
}

static void add(struct pms_symtab *t, uint64_t start, uint64_t size, const char *name, char type)
{
	cr_assert_eq(pms_symtab__add(t, start, size, name, strlen(name), NULL, 0, type), 0);
}

/* perf sizes kallsyms entries before dropping aliases: the last one listed is the only one with a size. */
Test(sym_alias, kallsyms_keeps_the_last_alias_listed)
{
	struct pms_symtab t = { 0 };

	add(&t, 0x2000, 0, "__x86_indirect_thunk_r12", 'T'); /* listed out of address order */
	add(&t, 0x1000, 0, "memcpy", 'T');
	add(&t, 0x1000, 0, "__memcpy", 'T');
	add(&t, 0x1000, 0, "__pi_memcpy", 'T');
	add(&t, 0x1800, 0, "__ia32_sys_vfork", 'T');
	add(&t, 0x1800, 0, "__x64_sys_vfork", 'T');
	add(&t, 0x2000, 0, "__pi___x86_indirect_thunk_r12", 'T');
	pms_symtab__finish(&t, 0x3000);
	cr_assert_eq(t.nr, 3);
	cr_expect_str_eq(pms_symtab__find(&t, 0x1004)->name, "__pi_memcpy");
	cr_expect_str_eq(pms_symtab__find(&t, 0x1804)->name, "__x64_sys_vfork");
	cr_expect_str_eq(pms_symtab__find(&t, 0x2004)->name, "__pi___x86_indirect_thunk_r12");
	pms_symtab__release(&t);
}

/* JIT map entries have sizes: perf's rules among them, as global symbols; ties by order. */
Test(sym_alias, jit_map_aliases_by_perf_rules)
{
	struct pms_symtab t = { 0 };

	add(&t, 0x1000, 0x10, "__stub", 0);
	add(&t, 0x1000, 0x10, "LazyCompile:foo", 0);
	add(&t, 0x1000, 0, "unsized", 0);
	pms_symtab__finish(&t, 0);
	cr_assert_eq(t.nr, 1);
	cr_expect_str_eq(t.syms[0].name, "LazyCompile:foo");
	pms_symtab__release(&t);
}
