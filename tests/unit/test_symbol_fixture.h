/* SPDX-License-Identifier: MIT */
/*
 * Shared helpers of the test_symbol_*.c suites: build the test ELF
 * (tests/fixtures/symbol/prog.c) in variants inside a per-test temp dir
 * with the system compiler, run it, and read files. Every helper asserts
 * on failure, so a missing compiler fails the test instead of passing it.
 */
#ifndef PMS_TESTS_SYMBOL_FIXTURE_H
#define PMS_TESTS_SYMBOL_FIXTURE_H

#include <criterion/criterion.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static inline const char *fx_src(void)
{
	static char path[4096];
	const char *top = getenv("TOP");

	snprintf(path, sizeof(path), "%s/tests/fixtures/symbol/prog.c", top && *top ? top : ".");
	if (access(path, R_OK))
		snprintf(path, sizeof(path), "tests/fixtures/symbol/prog.c");
	cr_assert(!access(path, R_OK), "fixture %s missing", path);
	return path;
}

static inline void fx_tmpdir(char *dir, size_t size)
{
	snprintf(dir, size, "/tmp/pms-symtest-XXXXXX");
	cr_assert_not_null(mkdtemp(dir));
}

static inline void fx_rmdir(const char *dir)
{
	char cmd[4200];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	cr_assert_eq(system(cmd), 0);
}

static inline void fx_sh(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static inline void fx_sh(const char *fmt, ...)
{
	char cmd[8192];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	cr_assert_eq(system(cmd), 0, "command failed: %s", cmd);
}

/*
 * kind: "pie", "nopie", "rebuilt" (PIE with other code => other build-id),
 * "stripped" (PIE without .symtab/DWARF + .gnu_debuglink to prog.debug).
 * Result path in out.
 */
static inline void fx_build(const char *dir, const char *kind, char *out, size_t size)
{
	const char *src = fx_src();
	char abs_src[4096];

	cr_assert_not_null(realpath(src, abs_src));
	snprintf(out, size, "%s/prog_%s", dir, kind);
	if (!strcmp(kind, "nopie"))
		fx_sh("cc -O2 -g -fno-pie -no-pie -DREBUILD_DELTA=1 -Wl,--build-id -o '%s' '%s'", out, abs_src);
	else if (!strcmp(kind, "rebuilt"))
		fx_sh("cc -O2 -g -fPIE -pie -DREBUILD_DELTA=2 -Wl,--build-id -o '%s' '%s'", out, abs_src);
	else if (!strcmp(kind, "stripped"))
		fx_sh("cd '%s' && cc -O2 -g -fPIE -pie -DREBUILD_DELTA=1 -Wl,--build-id -o full '%s' && "
		      "objcopy --only-keep-debug full prog.debug && "
		      "objcopy --strip-all --add-gnu-debuglink=prog.debug full prog_stripped && rm -f full",
		      dir, abs_src);
	else
		fx_sh("cc -O2 -g -fPIE -pie -DREBUILD_DELTA=1 -Wl,--build-id -o '%s' '%s'", out, abs_src);
}

/* Line number of the first line of the fixture source containing marker. */
static inline int fx_line_of(const char *marker)
{
	FILE *f = fopen(fx_src(), "r");
	char line[1024];
	int n = 0;

	cr_assert_not_null(f);
	while (fgets(line, sizeof(line), f)) {
		n++;
		if (strstr(line, marker)) {
			fclose(f);
			return n;
		}
	}
	fclose(f);
	cr_assert_fail("marker %s not found", marker);
	return -1;
}

/* Whole output of a command (malloc()ed). */
static inline char *fx_output(const char *cmd)
{
	FILE *p = popen(cmd, "r");
	size_t cap = 65536, len = 0, n;
	char *buf = malloc(cap);

	cr_assert_not_null(p);
	cr_assert_not_null(buf);
	while ((n = fread(buf + len, 1, cap - 1 - len, p)) > 0) {
		len += n;
		if (len + 1 == cap) {
			cap *= 2;
			buf = realloc(buf, cap);
			cr_assert_not_null(buf);
		}
	}
	buf[len] = '\0';
	cr_assert_eq(pclose(p), 0, "%s failed", cmd);
	return buf;
}

#endif
