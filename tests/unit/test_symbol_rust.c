// SPDX-License-Identifier: MIT
// Unit test of lib/symbol on real Rust binaries (legacy and v0 mangling): symbol, demangled name,
// source line. Needs rustc (skipped with a message when absent).
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "symbol/demangle.h"
#include "symbol/dso.h"
#include "symbol/srcline.h"
#include "test_symbol_fixture.h"

/* Debian's rustc (scripts/install-deps.sh) first, so no hand-installed toolchain is needed. */
static const char *rustc_path(void)
{
	if (!access("/usr/bin/rustc", X_OK))
		return "/usr/bin/rustc";
	if (!system("command -v rustc >/dev/null 2>&1"))
		return "rustc";
	return NULL;
}

static int line_of_rust(const char *marker, const char *path)
{
	FILE *fp = fopen(path, "r");
	char line[1024];
	int n = 0;

	cr_assert_not_null(fp);
	while (fgets(line, sizeof(line), fp)) {
		n++;
		if (strstr(line, marker)) {
			fclose(fp);
			return n;
		}
	}
	fclose(fp);
	cr_assert_fail("no %s", marker);
	return 0;
}

static void check_rust(const char *mangling, const char *prefix)
{
	char dir[64], rel[4096], src[4096], bin[4200];
	const char *rustc = rustc_path(), *top = getenv("TOP");
	struct pms_dso *dso;
	struct pms_srcline *sl;
	const struct pms_sym *s = NULL;
	const struct pms_srcline_frame *f;
	size_t nr;
	char *d;

	if (!rustc)
		cr_skip_test("rustc not installed");
	snprintf(rel, sizeof(rel), "%s/tests/fixtures/symbol/rust_prog.rs", top && *top ? top : ".");
	cr_assert_not_null(realpath(rel, src));
	fx_tmpdir(dir, sizeof(dir));
	snprintf(bin, sizeof(bin), "%s/rust_%s", dir, mangling);
	/* Legacy is stable rustc's default; naming it explicitly would need -Z unstable-options. */
	fx_sh("'%s' -O -g %s%s -o '%s' '%s' 2>&1", rustc, strcmp(mangling, "legacy") ? "-C symbol-mangling-version=" : "",
	      strcmp(mangling, "legacy") ? mangling : "", bin, src);
	cr_assert_eq(pms_dso__open(bin, &dso), 0);
	for (size_t i = 0; i < dso->nr_syms && !s; i++)
		if (strstr(dso->syms[i].name, "8pms_work"))
			s = &dso->syms[i];
	cr_assert_not_null(s);
	cr_assert(!strncmp(s->name, prefix, strlen(prefix)), "%s", s->name);
	d = pms_demangle(s->name);
	cr_assert_not_null(d, "%s", s->name);
	cr_assert_str_eq(d, "rust_prog::pms_work");
	free(d);
	cr_assert_eq(pms_srcline__new(dso, &sl), 0);
	cr_assert_eq(pms_srcline__lookup(sl, s->start, &f, &nr), 0);
	/* The first instruction may belong to an inlined core:: helper; the outermost frame is ours. */
	cr_assert_str_eq(f[nr - 1].func, "pms_work");
	cr_assert(strstr(f[nr - 1].file, "rust_prog.rs"), "%s", f[nr - 1].file);
	cr_assert_eq(f[nr - 1].line, (unsigned)line_of_rust("LINE_RUST_WORK", src));
	pms_srcline__free(sl);
	pms_dso__free(dso);
	fx_rmdir(dir);
}

Test(symbol_rust, legacy_mangling, .timeout = 60)
{
	check_rust("legacy", "_ZN");
}

Test(symbol_rust, v0_mangling, .timeout = 60)
{
	check_rust("v0", "_R");
}
