// SPDX-License-Identifier: MIT
// Unit tests of lib/symbol/buildid_cache: where the cache is, perf's layout, lookups, atomic adds.
#include <criterion/criterion.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "symbol/buildid_cache.h"
#include "util/fileio.h"

static const uint8_t bid[20] = { 0x4a, 0x5a, 0x9b, 0x0a, 0xff, 0xb6, 0x6c, 0x43, 0x7a, 0xbc,
				 0xd4, 0x55, 0xd2, 0x73, 0x8a, 0xf8, 0x79, 0x98, 0x5f, 0xa9 };
#define BID_HEX "4a5a9b0affb66c437abcd455d2738af879985fa9"

static char tmpdir[64];

static void make_tmp(void)
{
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/pms-bidc-XXXXXX");
	cr_assert_not_null(mkdtemp(tmpdir));
}

static void rm_tmp(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	cr_expect_eq(system(cmd), 0);
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	cr_assert_not_null(f, "%s", path);
	fputs(text, f);
	fclose(f);
}

TestSuite(buildid_cache, .init = make_tmp, .fini = rm_tmp);

Test(buildid_cache, dir_env_then_perfconfig_then_home)
{
	char buf[PATH_MAX], cfg[PATH_MAX];

	unsetenv("PERF_CONFIG");
	setenv("HOME", tmpdir, 1);
	setenv("PMS_BUILDID_DIR", "/somewhere/cache", 1);
	cr_assert_eq(pms_buildid_cache__dir(buf, sizeof(buf)), 0);
	cr_expect_str_eq(buf, "/somewhere/cache");
	unsetenv("PMS_BUILDID_DIR");
	cr_assert_eq(pms_buildid_cache__dir(buf, sizeof(buf)), 0);
	snprintf(cfg, sizeof(cfg), "%s/.debug", tmpdir);
	cr_expect_str_eq(buf, cfg);

	/* perf's git-config syntax: sections, comments, quotes, "~" */
	snprintf(cfg, sizeof(cfg), "%s/.perfconfig", tmpdir);
	write_file(cfg, "# comment\n[report]\n\tdir = /not/this\n[buildid]\n\tdir = ~/bids  \n");
	cr_assert_eq(pms_buildid_cache__dir(buf, sizeof(buf)), 0);
	snprintf(cfg, sizeof(cfg), "%s/bids", tmpdir);
	cr_expect_str_eq(buf, cfg);

	snprintf(cfg, sizeof(cfg), "%s/other.config", tmpdir);
	write_file(cfg, "[BuildId]\ndir=\"/quoted dir\"\n");
	setenv("PERF_CONFIG", cfg, 1);
	cr_assert_eq(pms_buildid_cache__dir(buf, sizeof(buf)), 0);
	cr_expect_str_eq(buf, "/quoted dir");

	unsetenv("PERF_CONFIG");
	unsetenv("HOME");
	snprintf(cfg, sizeof(cfg), "%s/.perfconfig", tmpdir);
	unlink(cfg);
	/* no HOME: nothing to fall back on unless /etc/perfconfig names one */
	if (access("/etc/perfconfig", F_OK))
		cr_expect_eq(pms_buildid_cache__dir(buf, sizeof(buf)), -ENOENT);
}

Test(buildid_cache, add_then_find_in_perfs_layout)
{
	char path[PATH_MAX], want[PATH_MAX], link[PATH_MAX], target[PATH_MAX];
	char *text;
	size_t len;
	bool added = false;
	ssize_t n;

	cr_assert_eq(pms_buildid_cache__add_mem(tmpdir, "[kernel.kallsyms]", bid, 20, "kallsyms",
						"ffffffff81000000 T _text\n", 25, &added), 0);
	cr_expect(added);
	snprintf(want, sizeof(want), "%s/[kernel.kallsyms]/" BID_HEX "/kallsyms", tmpdir);
	cr_assert_eq(pms_file__read_all(want, &text, &len), 0);
	cr_expect_eq(len, 25);
	free(text);
	/* the link perf makes: a relative directory link */
	snprintf(link, sizeof(link), "%s/.build-id/4a/5a9b0affb66c437abcd455d2738af879985fa9", tmpdir);
	n = readlink(link, target, sizeof(target) - 1);
	cr_assert_gt(n, 0);
	target[n] = 0;
	cr_expect_str_eq(target, "../../[kernel.kallsyms]/" BID_HEX);

	/* by name, and by build-id alone through the link */
	cr_assert_eq(pms_buildid_cache__find(tmpdir, "[kernel.kallsyms]", bid, 20, "kallsyms", path, sizeof(path)), 0);
	cr_expect_str_eq(path, want);
	cr_assert_eq(pms_buildid_cache__find(tmpdir, NULL, bid, 20, "kallsyms", path, sizeof(path)), 0);
	snprintf(want, sizeof(want), "%s/.build-id/4a/5a9b0affb66c437abcd455d2738af879985fa9/kallsyms", tmpdir);
	cr_expect_str_eq(path, want);
	cr_expect_eq(pms_buildid_cache__find(tmpdir, NULL, bid, 20, "elf", path, sizeof(path)), -ENOENT);

	/* again: nothing written */
	cr_assert_eq(pms_buildid_cache__add_mem(tmpdir, "[kernel.kallsyms]", bid, 20, "kallsyms", "x", 1, &added), 0);
	cr_expect(!added);
	/* no temporary file left behind */
	snprintf(path, sizeof(path), "ls -A '%s/[kernel.kallsyms]/" BID_HEX "' | grep -q XXX", tmpdir);
	cr_expect_neq(system(path), 0, "a temporary file was left in the cache");
}

Test(buildid_cache, files_keep_their_path_and_old_style_links_work)
{
	char src[PATH_MAX], path[PATH_MAX], want[PATH_MAX], link[PATH_MAX];
	bool added;

	snprintf(src, sizeof(src), "%s/prog", tmpdir);
	write_file(src, "\177ELF not really");
	cr_assert_eq(pms_buildid_cache__add_file(tmpdir, "/usr/bin/prog", bid, 20, "elf", src, &added), 0);
	snprintf(want, sizeof(want), "%s/usr/bin/prog/" BID_HEX "/elf", tmpdir);
	cr_assert_eq(pms_buildid_cache__find(tmpdir, "/usr/bin/prog", bid, 20, "elf", path, sizeof(path)), 0);
	cr_expect_str_eq(path, want);
	/* the 16-byte ids of some linkers are ids too */
	cr_expect_eq(pms_buildid_cache__find(tmpdir, "/usr/bin/prog", bid, 16, "elf", path, sizeof(path)), -ENOENT);

	/* an old perf linked .build-id to the file itself */
	snprintf(link, sizeof(link), "%s/.build-id/4a/5a9b0affb66c437abcd455d2738af879985fa9", tmpdir);
	cr_assert_eq(unlink(link), 0);
	cr_assert_eq(symlink("../../usr/bin/prog/" BID_HEX "/elf", link), 0);
	cr_assert_eq(pms_buildid_cache__find(tmpdir, NULL, bid, 20, "elf", path, sizeof(path)), 0);
	cr_expect_str_eq(path, link);
	cr_expect_eq(pms_buildid_cache__find(tmpdir, NULL, bid, 20, "debug", path, sizeof(path)), -ENOENT);

	cr_expect_eq(pms_buildid_cache__add_file(tmpdir, "/usr/bin/none", bid, 20, "elf", "/nonexistent/file", NULL),
		     -ENOENT);
}
