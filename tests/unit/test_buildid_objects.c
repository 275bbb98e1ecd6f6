// SPDX-License-Identifier: MIT
// Unit tests of lib/symbol/buildid_cache's object adds (perf record's cache policy) and lib/symbol/buildid_archive (perf archive's tarball).
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "symbol/buildid_archive.h"
#include "symbol/buildid_cache.h"
#include "symbol/dso.h"
#include "symbol/sysobj.h"
#include "util/fileio.h"
#include "util/hex.h"

static char root[64];
static char cache[128];

static void make_root(void)
{
	snprintf(root, sizeof(root), "/tmp/pms-bido-XXXXXX");
	cr_assert_not_null(mkdtemp(root));
	snprintf(cache, sizeof(cache), "%s/cache", root);
	/* an empty debug root: only what a test puts there is found */
	{
		char p[PATH_MAX];

		snprintf(p, sizeof(p), "%s/debug", root);
		mkdir(p, 0755);
		setenv("PMS_DEBUG_ROOT", p, 1);
	}
}

static void rm_root(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	cr_expect_eq(system(cmd), 0);
}

TestSuite(buildid_objects, .init = make_root, .fini = rm_root);

static void mkdirs(char *path)
{
	for (char *s = path + 1; (s = strchr(s, '/')); s++) {
		*s = 0;
		mkdir(path, 0755);
		*s = '/';
	}
}

static void put(const char *path, const void *buf, size_t len)
{
	char p[PATH_MAX];
	FILE *f;

	snprintf(p, sizeof(p), "%s", path);
	mkdirs(p);
	f = fopen(path, "w");
	cr_assert_not_null(f, "%s", path);
	cr_assert_eq(fwrite(buf, 1, len, f), len);
	fclose(f);
}

static void copy(const char *from, const char *to)
{
	char *text;
	size_t len;

	cr_assert_eq(pms_file__read_all(from, &text, &len), 0, "%s", from);
	put(to, text, len);
	free(text);
}

static bool same_bytes(const char *a, const char *b)
{
	char *x, *y;
	size_t lx, ly;
	bool same;

	if (pms_file__read_all(a, &x, &lx))
		return false;
	if (pms_file__read_all(b, &y, &ly)) {
		free(x);
		return false;
	}
	same = lx == ly && !memcmp(x, y, lx);
	free(x);
	free(y);
	return same;
}

/* A copy of src (an ELF with a build-id) at root/<rel>; its build-id in id. */
static size_t elf_from(const char *src, const char *rel, char *path, size_t size, uint8_t *id)
{
	int n;

	snprintf(path, size, "%s/%s", root, rel);
	copy(src, path);
	n = pms_build_id__read(path, id, 20);
	cr_assert_gt(n, 0, "%s has a build-id", src);
	return (size_t)n;
}

/* The same with this test binary. */
static size_t elf_at(const char *rel, char *path, size_t size, uint8_t *id)
{
	return elf_from("/proc/self/exe", rel, path, size, id);
}

static void entry(char *buf, size_t size, const char *name, const uint8_t *id, size_t n, const char *kind)
{
	cr_assert_eq(pms_buildid_cache__entry_path(cache, name, id, n, kind, buf, size), 0);
}

Test(buildid_objects, a_file_is_saved_once_and_only_with_its_own_build_id)
{
	char prog[PATH_MAX], path[PATH_MAX];
	uint8_t id[20], other[20];
	unsigned added = 99;
	size_t n = elf_at("bin/prog", prog, sizeof(prog), id);

	cr_assert_eq(pms_buildid_cache__add_object(cache, prog, false, id, n, &added), 0);
	cr_expect_eq(added, PMS_BIDC_ADDED_ELF);
	entry(path, sizeof(path), prog, id, n, "elf");
	cr_expect(same_bytes(path, prog));
	cr_assert_eq(pms_buildid_cache__find(cache, NULL, id, n, "elf", path, sizeof(path)), 0, "found by build-id");
	/* again: nothing read or written */
	cr_assert_eq(pms_buildid_cache__add_object(cache, prog, false, id, n, &added), 0);
	cr_expect_eq(added, 0);
	/* the file here is not the recorded one */
	memcpy(other, id, n);
	other[0] ^= 0xff;
	cr_expect_eq(pms_buildid_cache__add_object(cache, prog, false, other, n, &added), -ESTALE);
	cr_expect_eq(added, 0);
	entry(path, sizeof(path), prog, other, n, NULL);
	cr_expect_neq(access(path, F_OK), 0, "nothing filed under the other build-id");
	/* gone, or nothing to copy */
	snprintf(path, sizeof(path), "%s/bin/gone", root);
	cr_expect_eq(pms_buildid_cache__add_object(cache, path, false, id, n, NULL), -ENOENT);
	cr_expect_eq(pms_buildid_cache__add_object(cache, "//anon", false, id, n, NULL), -ENOENT);
	cr_expect_eq(pms_buildid_cache__add_object(cache, "[snd_hda_intel]", true, id, n, NULL), -ENOENT);
	cr_expect_eq(pms_buildid_cache__add_object(cache, prog, false, id, 0, NULL), -EINVAL);
}

Test(buildid_objects, a_separate_debug_file_comes_along_for_user_objects_only)
{
	char prog[PATH_MAX], dbg[PATH_MAX], path[PATH_MAX], hex[41];
	uint8_t id[20];
	unsigned added = 0;
	size_t n = elf_at("bin/prog", prog, sizeof(prog), id);

	pms_hex__encode(id, n, hex);
	snprintf(dbg, sizeof(dbg), "%s/debug/.build-id/%.2s/%s.debug", root, hex, hex + 2);
	copy(prog, dbg);
	cr_assert_eq(pms_buildid_cache__add_object(cache, prog, false, id, n, &added), 0);
	cr_expect_eq(added, PMS_BIDC_ADDED_ELF | PMS_BIDC_ADDED_DEBUG);
	entry(path, sizeof(path), prog, id, n, "debug");
	cr_expect(same_bytes(path, dbg));

	/* a module (kernel side) is saved without looking for a debug file, as perf does */
	snprintf(cache, sizeof(cache), "%s/cache2", root);
	cr_assert_eq(pms_buildid_cache__add_object(cache, prog, true, id, n, &added), 0);
	cr_expect_eq(added, PMS_BIDC_ADDED_ELF);

	/* a debug file of another build-id under the right name is refused */
	snprintf(cache, sizeof(cache), "%s/cache3", root);
	put(dbg, "\177ELF but not really", 19);
	cr_assert_eq(pms_buildid_cache__add_object(cache, prog, false, id, n, &added), 0);
	cr_expect_eq(added, PMS_BIDC_ADDED_ELF);
}

/* <root>/sys/kernel/notes with build-id id, and <root>/proc/kallsyms with text; roots set. */
static void fixture_kernel(const uint8_t *id, const char *kallsyms)
{
	uint32_t hdr[3] = { 4, 20, 3 };
	char p[PATH_MAX], notes[64];

	memcpy(notes, hdr, 12);
	memcpy(notes + 12, "GNU", 4);
	memcpy(notes + 16, id, 20);
	snprintf(p, sizeof(p), "%s/sys/kernel/notes", root);
	put(p, notes, 36);
	snprintf(p, sizeof(p), "%s/proc/kallsyms", root);
	put(p, kallsyms, strlen(kallsyms));
	snprintf(p, sizeof(p), "%s/sys", root);
	setenv("PMS_SYSFS_ROOT", p, 1);
	snprintf(p, sizeof(p), "%s/proc", root);
	setenv("PMS_PROCFS_ROOT", p, 1);
}

static const uint8_t kid[20] = { 0x4a, 0x5a, 0x9b, 0x0a, 0xff, 0xb6, 0x6c, 0x43, 0x7a, 0xbc,
				 0xd4, 0x55, 0xd2, 0x73, 0x8a, 0xf8, 0x79, 0x98, 0x5f, 0xa9 };
static const char ktext[] = "0000000000000000 A fixed_percpu_data\n"
			    "ffffffff81000000 T _text\n"
			    "ffffffff81000100 T start_kernel\n";

Test(buildid_objects, kallsyms_of_the_running_kernel_only_and_not_when_restricted)
{
	char path[PATH_MAX], src[PATH_MAX];
	uint8_t other[20] = { 1 };
	unsigned added = 0;

	fixture_kernel(kid, ktext);
	cr_expect_eq(pms_buildid_cache__add_object(cache, "[kernel.kallsyms]", true, other, 20, &added), -ESTALE);
	cr_assert_eq(pms_buildid_cache__add_object(cache, "[kernel.kallsyms]", true, kid, 20, &added), 0);
	cr_expect_eq(added, PMS_BIDC_ADDED_KALLSYMS);
	entry(path, sizeof(path), "[kernel.kallsyms]", kid, 20, "kallsyms");
	snprintf(src, sizeof(src), "%s/proc/kallsyms", root);
	cr_expect(same_bytes(path, src));

	/* kptr_restrict: every address reads 0, nothing worth saving */
	snprintf(cache, sizeof(cache), "%s/cache-r", root);
	fixture_kernel(kid, "0000000000000000 A fixed_percpu_data\n0000000000000000 T _text\n");
	cr_expect_eq(pms_buildid_cache__add_object(cache, "[kernel.kallsyms]", true, kid, 20, &added), -ENODATA);
	cr_expect_eq(added, 0);
}

Test(buildid_objects, vdso_image_under_its_build_id)
{
	const void *img;
	uint8_t id[20];
	char path[PATH_MAX];
	size_t len;
	unsigned added = 0;
	int n = pms_vdso__build_id(id, sizeof(id));
	char *text;
	size_t got;

	if (n <= 0) {
		cr_skip_test("no vDSO build-id in this process");
		return;
	}
	cr_assert_eq(pms_vdso__image(&img, &len), 0);
	cr_assert_eq(pms_buildid_cache__add_object(cache, "[vdso]", false, id, (size_t)n, &added), 0);
	cr_expect_eq(added, PMS_BIDC_ADDED_VDSO);
	entry(path, sizeof(path), "[vdso]", id, (size_t)n, "vdso");
	cr_assert_eq(pms_file__read_all(path, &text, &got), 0);
	cr_expect_eq(got, len);
	cr_expect_eq(memcmp(text, img, len), 0);
	free(text);
	id[0] ^= 1;
	cr_expect_eq(pms_buildid_cache__add_object(cache, "[vdso]", false, id, (size_t)n, &added), -ESTALE);
}

Test(buildid_objects, entry_directories_by_name_or_through_the_link)
{
	char prog[1024], rel[PATH_MAX], link[PATH_MAX], hex[41], want[PATH_MAX];
	uint8_t id[20];
	size_t n = elf_at("bin/prog", prog, sizeof(prog), id);

	pms_hex__encode(id, n, hex);
	cr_assert_eq(pms_buildid_cache__link_path(cache, id, n, link, sizeof(link)), 0);
	snprintf(want, sizeof(want), "%s/.build-id/%.2s/%s", cache, hex, hex + 2);
	cr_expect_str_eq(link, want);
	cr_expect_eq(pms_buildid_cache__entry_rel(cache, prog, id, n, rel, sizeof(rel)), -ENOENT);
	cr_assert_eq(pms_buildid_cache__add_object(cache, prog, false, id, n, NULL), 0);
	cr_assert_eq(pms_buildid_cache__entry_rel(cache, prog, id, n, rel, sizeof(rel)), 0);
	snprintf(want, sizeof(want), "%s/%s", prog + 1, hex);
	cr_expect_str_eq(rel, want);
	/* another name for the same build-id (the file moved since): the link finds the entry */
	cr_assert_eq(pms_buildid_cache__entry_rel(cache, "/elsewhere/prog", id, n, rel, sizeof(rel)), 0);
	cr_expect_str_eq(rel, want);
	/* an old perf's link to the file itself: its directory */
	cr_assert_eq(unlink(link), 0);
	snprintf(want, sizeof(want), "../../%s/%s/elf", prog + 1, hex);
	cr_assert_eq(symlink(want, link), 0);
	cr_assert_eq(pms_buildid_cache__entry_rel(cache, NULL, id, n, rel, sizeof(rel)), 0);
	snprintf(want, sizeof(want), "%s/%s", prog + 1, hex);
	cr_expect_str_eq(rel, want);
	/* a link leading out of the cache is not followed */
	cr_assert_eq(unlink(link), 0);
	cr_assert_eq(symlink("../../../../etc", link), 0);
	cr_expect_eq(pms_buildid_cache__entry_rel(cache, NULL, id, n, rel, sizeof(rel)), -ENOENT);
}

/* ------------------------------------------------------------ archive -- */

static bool have_tar(void)
{
	return system("tar --version >/dev/null 2>&1") == 0;
}

Test(buildid_objects, archive_in_perfs_layout_extracts_to_the_same_cache)
{
	char prog[PATH_MAX], late[PATH_MAX], out[PATH_MAX], cmd[3 * PATH_MAX];
	uint8_t id[20], late_id[20], gone_id[20] = { 0xee };
	size_t n = elf_at("bin/prog", prog, sizeof(prog), id), nl;
	struct pms_archive_stats st;
	struct pms_archive_object objs[5];
	int fd;

	if (!have_tar()) {
		cr_skip_test("GNU tar is not installed: the archive cannot be checked");
		return;
	}
	fixture_kernel(kid, ktext);
	cr_assert_eq(pms_buildid_cache__add_object(cache, prog, false, id, n, NULL), 0);
	cr_assert_eq(pms_buildid_cache__add_object(cache, "[kernel.kallsyms]", true, kid, 20, NULL), 0);
	/* an index pmuscope derived from the kallsyms: rebuilt where needed, not archived */
	{
		char idx[PATH_MAX];

		entry(idx, sizeof(idx), "[kernel.kallsyms]", kid, 20, PMS_BUILDID_CACHE_DERIVED_PREFIX "ksyms-1.idx");
		put(idx, "index", 5);
	}
	/* on disk but not cached yet (recorded with -N): the archive adds it first */
	nl = elf_from("/bin/true", "lib/late.so", late, sizeof(late), late_id);
	memset(objs, 0, sizeof(objs));
	objs[0] = (struct pms_archive_object){ .name = "[kernel.kallsyms]", .id = kid, .id_size = 20, .kernel = true };
	objs[1] = (struct pms_archive_object){ .name = prog, .id = id, .id_size = n };
	objs[2] = (struct pms_archive_object){ .name = late, .id = late_id, .id_size = nl };
	objs[3] = (struct pms_archive_object){ .name = "/no/such/lib.so", .id = gone_id, .id_size = 20 };
	objs[4] = objs[1]; /* named twice: archived once */
	snprintf(out, sizeof(out), "%s/perf.data.tar.gz", root);
	fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	cr_assert_geq(fd, 0);
	cr_assert_eq(pms_buildid_archive__write(cache, objs, 5, fd, &st), 0);
	close(fd);
	cr_expect_eq(objs[0].status, 0);
	cr_expect_eq(objs[1].status, 0);
	cr_expect_eq(objs[2].status, 0);
	cr_expect(objs[2].added);
	cr_expect_eq(objs[3].status, -ENOENT);
	cr_expect_eq(st.nr_archived, 4);
	cr_expect_eq(st.nr_files, 3, "kallsyms, two elf files");

	/* GNU tar reads it, and unpacking it gives the cache's entries back */
	snprintf(cmd, sizeof(cmd), "mkdir -p '%s/x' && tar xzf '%s' -C '%s/x'", root, out, root);
	cr_assert_eq(system(cmd), 0);
	snprintf(cmd, sizeof(cmd), "cd '%s' && for f in $(find . -type f ! -name '" PMS_BUILDID_CACHE_DERIVED_PREFIX "*' -o -type l | sort); do "
		 "if [ -L \"$f\" ]; then [ \"$(readlink \"$f\")\" = \"$(readlink '%s/x'/\"$f\")\" ] || exit 1; "
		 "else cmp -s \"$f\" '%s/x'/\"$f\" || exit 1; fi; done",
		 cache, root, root);
	cr_expect_eq(system(cmd), 0, "every cache file and link is in the archive, the same");
	snprintf(cmd, sizeof(cmd), "test \"$(tar tzf '%s' | wc -l)\" = 9", out);
	cr_expect_eq(system(cmd), 0, "3 links, 3 directories, 3 files, and nothing else (no derived index)");
}
