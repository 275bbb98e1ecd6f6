// SPDX-License-Identifier: MIT
// Unit tests of lib/symbol/srcline: file:line and inline frames through libdw, checked against the
// fixture's source markers and against binutils addr2line.
#include <criterion/criterion.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "symbol/dso.h"
#include "symbol/srcline.h"
#include "test_symbol_fixture.h"

static const struct pms_sym *sym_named(const struct pms_dso *dso, const char *name)
{
	for (size_t i = 0; i < dso->nr_syms; i++)
		if (!strcmp(dso->syms[i].name, name))
			return &dso->syms[i];
	cr_assert_fail("no symbol %s", name);
	return NULL;
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t a = s ? strlen(s) : 0, b = strlen(suffix);

	return s && a >= b && !strcmp(s + a - b, suffix);
}

/* Some address of pms_fx_inline_host must show the full inline chain with the marker lines. */
static void check_inline_chain(const char *bin)
{
	struct pms_dso *dso;
	struct pms_srcline *sl;
	const struct pms_sym *host;
	int inner = fx_line_of("LINE_INNER"), outer = fx_line_of("LINE_OUTER_CALL");
	int hostl = fx_line_of("LINE_HOST_CALL");
	int found = 0;

	cr_assert_eq(pms_dso__open(bin, &dso), 0);
	cr_assert_eq(pms_srcline__new(dso, &sl), 0);
	host = sym_named(dso, "pms_fx_inline_host");
	for (uint64_t a = host->start; a < host->start + host->size; a++) {
		const struct pms_srcline_frame *f;
		size_t nr;

		if (pms_srcline__lookup(sl, a, &f, &nr) || !f[nr - 1].func)
			continue; /* alignment padding: line table only */
		cr_assert_str_eq(f[nr - 1].func, "pms_fx_inline_host", "outermost frame is the real function");
		if (nr == 3 && !strcmp(f[0].func, "pms_fx_inl_inner") && f[0].line == (unsigned)inner &&
		    !strcmp(f[1].func, "pms_fx_inl_outer") && f[1].line == (unsigned)outer &&
		    f[2].line == (unsigned)hostl && ends_with(f[0].file, "/prog.c") &&
		    ends_with(f[1].file, "/prog.c") && ends_with(f[2].file, "/prog.c"))
			found++;
	}
	cr_assert_gt(found, 0, "no address showed inner<-outer<-host at lines %d,%d,%d", inner, outer, hostl);
	pms_srcline__free(sl);
	pms_dso__free(dso);
}

Test(symbol_srcline, inline_frames_pie)
{
	char dir[64], bin[4096];

	fx_tmpdir(dir, sizeof(dir));
	fx_build(dir, "pie", bin, sizeof(bin));
	check_inline_chain(bin);
	fx_rmdir(dir);
}

Test(symbol_srcline, inline_frames_via_debuglink)
{
	char dir[64], bin[4096];

	fx_tmpdir(dir, sizeof(dir));
	fx_build(dir, "stripped", bin, sizeof(bin));
	check_inline_chain(bin);
	fx_rmdir(dir);
}

Test(symbol_srcline, agrees_with_addr2line)
{
	char dir[64], bin[4096], cmd[16384];
	struct pms_dso *dso;
	struct pms_srcline *sl;
	const char *names[] = { "pms_fx_leaf", "main", "_ZN3pms2fx5cxxfnEi" };
	int compared = 0;

	fx_tmpdir(dir, sizeof(dir));
	fx_build(dir, "nopie", bin, sizeof(bin));
	cr_assert_eq(pms_dso__open(bin, &dso), 0);
	cr_assert_eq(pms_srcline__new(dso, &sl), 0);
	for (size_t k = 0; k < sizeof(names) / sizeof(names[0]); k++) {
		const struct pms_sym *s = sym_named(dso, names[k]);

		for (uint64_t a = s->start; a < s->start + s->size; a += 3) {
			const struct pms_srcline_frame *f;
			size_t nr;
			char *out, want[4200];

			if (pms_srcline__lookup(sl, a, &f, &nr))
				continue;
			/*
			 * addr2line -f -i prints innermost first, "function" then "file:line";
			 * its function is the linkage name where DWARF has one (perf's name
			 * for the frame), which c++filt -p demangles as perf does.
			 */
			snprintf(cmd, sizeof(cmd),
				 "addr2line -f -i -e '%s' 0x%llx | sed 's/ (discriminator [0-9]*)//' | c++filt -p",
				 bin, (unsigned long long)a);
			out = fx_output(cmd);
			struct strbuf_lite { char b[4096]; size_t n; } ours = { .n = 0 };
			for (size_t i = 0; i < nr; i++)
				ours.n += (size_t)snprintf(ours.b + ours.n, sizeof(ours.b) - ours.n, "%s\n%s:%u\n",
							   f[i].linkage_name ? f[i].linkage_name
									     : f[i].func ? f[i].func : "??",
							   f[i].file ? f[i].file : "??", f[i].line);
			snprintf(want, sizeof(want), "%s", out);
			cr_assert_str_eq(ours.b, want, "0x%llx", (unsigned long long)a);
			free(out);
			compared++;
		}
	}
	cr_assert_gt(compared, 10);
	/* the asm-renamed function: DW_AT_name "pms_fx_cxx", linkage "_ZN3pms2fx5cxxfnEi" */
	{
		const struct pms_sym *s = sym_named(dso, "_ZN3pms2fx5cxxfnEi");
		const struct pms_srcline_frame *f;
		size_t nr;

		cr_assert_eq(pms_srcline__lookup(sl, s->start, &f, &nr), 0);
		cr_assert_gt(nr, 0);
		cr_assert_str_eq(f[nr - 1].func, "pms_fx_cxx");
		cr_assert_str_eq(f[nr - 1].linkage_name, "pms::fx::cxxfn");
	}
	pms_srcline__free(sl);
	pms_dso__free(dso);
	fx_rmdir(dir);
}

Test(symbol_srcline, cache_and_misses)
{
	char dir[64], bin[4096];
	struct pms_dso *dso;
	struct pms_srcline *sl;
	const struct pms_srcline_frame *f1, *f2;
	size_t n1, n2, lookups, misses;
	const struct pms_sym *s;

	fx_tmpdir(dir, sizeof(dir));
	fx_build(dir, "pie", bin, sizeof(bin));
	cr_assert_eq(pms_dso__open(bin, &dso), 0);
	cr_assert_eq(pms_srcline__new(dso, &sl), 0);
	s = sym_named(dso, "pms_fx_leaf");
	cr_assert_eq(pms_srcline__lookup(sl, s->start, &f1, &n1), 0);
	cr_assert_eq(pms_srcline__lookup(sl, s->start, &f2, &n2), 0);
	cr_assert_eq(f1, f2);
	cr_assert_eq(n1, n2);
	cr_assert_str_eq(f1[n1 - 1].func, "pms_fx_leaf");
	cr_assert_eq(pms_srcline__lookup(sl, 0x10, &f1, &n1), -ENOENT);
	cr_assert_eq(pms_srcline__lookup(sl, 0x10, &f1, &n1), -ENOENT);
	/* Many distinct addresses force the table to grow; all stay correct. */
	for (uint64_t a = 0; a < 5000; a++)
		(void)pms_srcline__lookup(sl, 0x100000 + a, &f1, &n1);
	cr_assert_eq(pms_srcline__lookup(sl, s->start, &f2, &n2), 0);
	cr_assert_str_eq(f2[n2 - 1].func, "pms_fx_leaf");
	pms_srcline__stats(sl, &lookups, &misses);
	cr_assert_eq(lookups, 5005);
	cr_assert_eq(misses, 5002);
	pms_srcline__free(sl);
	pms_dso__free(dso);
	fx_rmdir(dir);
}

Test(symbol_srcline, no_dwarf_is_enodata)
{
	char dir[64], bin[4096];
	struct pms_dso *dso;
	struct pms_srcline *sl = NULL;

	fx_tmpdir(dir, sizeof(dir));
	fx_build(dir, "stripped", bin, sizeof(bin));
	fx_sh("rm -f '%s/prog.debug'", dir);
	cr_assert_eq(pms_dso__open(bin, &dso), 0);
	cr_assert_eq(pms_srcline__new(dso, &sl), -ENODATA);
	cr_assert_null(sl);
	pms_srcline__free(NULL);
	pms_dso__free(dso);
	fx_rmdir(dir);
}

/* clang emits no .debug_aranges: libdw 0.188 finds no CU by address, so the CUs' own ranges must. */
Test(symbol_srcline, clang_without_aranges)
{
	char dir[64], src[128], bin[128], cmd[512];
	struct pms_dso *dso;
	struct pms_srcline *sl;
	const struct pms_srcline_frame *f;
	const struct pms_sym *s;
	size_t nr;
	FILE *fp;

	if (system("command -v clang >/dev/null 2>&1"))
		cr_skip_test("no clang");
	fx_tmpdir(dir, sizeof(dir));
	snprintf(src, sizeof(src), "%s/c.c", dir);
	snprintf(bin, sizeof(bin), "%s/c", dir);
	fp = fopen(src, "w");
	cr_assert_not_null(fp);
	fputs("__attribute__((noinline)) int twice(int x)\n{\n\treturn x * 2;\n}\n"
	      "int main(int argc, char **argv)\n{\n\t(void)argv;\n\treturn twice(argc);\n}\n", fp);
	fclose(fp);
	snprintf(cmd, sizeof(cmd), "clang -O1 -g -o '%s' '%s'", bin, src);
	cr_assert_eq(system(cmd), 0);
	snprintf(cmd, sizeof(cmd), "readelf -S '%s' | grep -q debug_aranges", bin);
	if (!system(cmd))
		cr_skip_test("this clang emits .debug_aranges: nothing to fall back from");
	cr_assert_eq(pms_dso__open(bin, &dso), 0);
	cr_assert_eq(pms_srcline__new(dso, &sl), 0);
	s = sym_named(dso, "twice");
	cr_assert_eq(pms_srcline__lookup(sl, s->start, &f, &nr), 0, "found through the CU ranges");
	cr_assert_eq(nr, 1);
	cr_assert_str_eq(f[0].func, "twice");
	cr_assert(ends_with(f[0].file, "c.c"));
	cr_assert_eq(f[0].line, 3, "the body's line");
	pms_srcline__free(sl);
	pms_dso__free(dso);
	fx_rmdir(dir);
}
