// SPDX-License-Identifier: MIT
// Unit tests of frame-pointer chains that stop short: the object check (prologues) and the counts per object.
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aggregate/chaincheck.h"
#include "symbol/dso.h"
#include "test_symbol_fixture.h"

Test(chaincheck, objects_with_and_without_frame_pointers)
{
	char dir[64], fp[4096], nofp[4096], src[4096];
	struct pms_dso *a, *b;
	FILE *f;

	fx_tmpdir(dir, sizeof(dir));
	snprintf(fp, sizeof(fp), "%s/fp", dir);
	snprintf(nofp, sizeof(nofp), "%s/nofp", dir);
	snprintf(src, sizeof(src), "%s/prog.c", dir);
	/* a score of functions that do some work and call each other */
	f = fopen(src, "w");
	cr_assert_not_null(f);
	fprintf(f, "#include <stdlib.h>\n__attribute__((noinline)) long f0(long x) { return x * 7 + rand(); }\n");
	for (int i = 1; i < 24; i++)
		fprintf(f, "__attribute__((noinline)) long f%d(long x) { long s = 0; for (long i = 0; i < x; i++) "
			   "s += f%d(i ^ %d) * %d; return s + rand(); }\n", i, i - 1, i, i);
	fprintf(f, "int main(int argc, char **argv) { (void)argv; return (int)f23(argc); }\n");
	fclose(f);
	/* the same code both ways: only the prologues differ */
	fx_sh("cc -O2 -fno-omit-frame-pointer -o '%s' '%s'", fp, src);
	fx_sh("cc -O2 -fomit-frame-pointer -o '%s' '%s'", nofp, src);
	cr_assert_eq(pms_dso__open(fp, &a), 0);
	cr_assert_eq(pms_dso__open(nofp, &b), 0);
	cr_expect_eq(pms_dso__frame_pointers(a), 1, "built with -fno-omit-frame-pointer");
	cr_expect_eq(pms_dso__frame_pointers(b), 0, "built with -fomit-frame-pointer");
	/* the answer is kept */
	cr_expect_eq(pms_dso__frame_pointers(b), 0);
	cr_expect_neq(a->e_entry, 0);
	pms_dso__free(a);
	pms_dso__free(b);
	fx_rmdir(dir);
}

Test(chaincheck, chains_counted_by_where_they_stop)
{
	struct pms_chaincheck *c = pms_chaincheck__new();
	struct pms_chaincheck_result r;
	struct pms_chaincheck_chain whole = { .outer_sym = "__libc_start_call_main", .blame_dso = "/usr/lib/libc.so.6" };
	struct pms_chaincheck_chain thread = { .outer_sym = "start_thread", .blame_dso = "/usr/lib/libc.so.6" };
	struct pms_chaincheck_chain lost = { .outer_sym = "lzma_code", .blame_dso = "/usr/lib/liblzma.so.5" };
	struct pms_chaincheck_chain astray = { .outer_sym = NULL, .blame_dso = "/usr/bin/app" };
	struct pms_chaincheck_chain deep = { .outer_sym = "recurse", .blame_dso = "/usr/bin/app", .at_depth_limit = 1 };
	struct pms_dso fake = { .e_entry = 0x1040 };
	struct pms_chaincheck_chain stripped_start = { .outer_vaddr = 0x1065, .outer_elf = &fake, .blame_dso = "/usr/bin/xz" };

	cr_assert_not_null(c);
	cr_assert_eq(pms_chaincheck__add(c, &whole), 0);
	cr_assert_eq(pms_chaincheck__add(c, &thread), 0);
	for (int i = 0; i < 3; i++)
		cr_assert_eq(pms_chaincheck__add(c, &lost), 0);
	cr_assert_eq(pms_chaincheck__add(c, &astray), 0);
	cr_assert_eq(pms_chaincheck__add(c, &deep), 0);
	cr_assert_eq(pms_chaincheck__add(c, &stripped_start), 0);
	pms_chaincheck__result(c, &r);
	cr_expect_eq(r.chains, 8);
	cr_expect_eq(r.complete, 3, "entries by name, and a stripped _start by the ELF entry point");
	cr_expect_eq(r.cut, 4, "a chain stopped by the depth limit is not cut by a missing frame pointer");
	cr_assert_eq(r.nr_objects, 2);
	cr_expect_str_eq(r.objects[0].dso, "/usr/lib/liblzma.so.5");
	cr_expect_eq(r.objects[0].cut, 3);
	cr_expect_str_eq(r.objects[1].dso, "/usr/bin/app");
	cr_expect_eq(r.objects[1].frame_pointers, -1, "no file at hand: unknown");
	cr_expect_eq(r.cut_no_fp, 0);
	cr_expect(pms_chaincheck__is_entry("_start") && !pms_chaincheck__is_entry("main_loop") &&
		  !pms_chaincheck__is_entry(NULL));
	pms_chaincheck__free(c);
}
