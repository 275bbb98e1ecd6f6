// SPDX-License-Identifier: MIT
// Unit tests of lib/symbol/sysobj: ELF notes, loaded kernel modules against fixture roots, the vDSO image.
#include <criterion/criterion.h>
#include <elf.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/stat.h>
#include <unistd.h>

#include "symbol/dso.h"
#include "symbol/sysobj.h"

static char root[64];

static void make_root(void)
{
	snprintf(root, sizeof(root), "/tmp/pms-sysobj-XXXXXX");
	cr_assert_not_null(mkdtemp(root));
}

static void rm_root(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	cr_expect_eq(system(cmd), 0);
	unsetenv("PMS_PROCFS_ROOT");
	unsetenv("PMS_SYSFS_ROOT");
	unsetenv("PMS_MODULES_ROOT");
}

TestSuite(sysobj, .init = make_root, .fini = rm_root);

/* Write root/rel (with its directories) holding len bytes. */
static void put(const char *rel, const void *buf, size_t len)
{
	char path[PATH_MAX];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	for (char *s = path + strlen(root) + 1; (s = strchr(s, '/')); s++) {
		*s = 0;
		mkdir(path, 0755);
		*s = '/';
	}
	f = fopen(path, "w");
	cr_assert_not_null(f, "%s", path);
	cr_assert_eq(fwrite(buf, 1, len, f), len);
	fclose(f);
}

static void put_str(const char *rel, const char *text)
{
	put(rel, text, strlen(text));
}

/* One ELF note: namesz, descsz, type, name and desc padded to 4 bytes. */
static size_t note(uint8_t *p, const char *name, uint32_t type, const uint8_t *desc, uint32_t descsz)
{
	uint32_t namesz = (uint32_t)strlen(name) + 1;
	size_t off = 12;

	memcpy(p, &namesz, 4);
	memcpy(p + 4, &descsz, 4);
	memcpy(p + 8, &type, 4);
	memset(p + off, 0, (namesz + 3) & ~3u);
	memcpy(p + off, name, namesz);
	off += (namesz + 3) & ~3u;
	memset(p + off, 0, (descsz + 3) & ~3u);
	memcpy(p + off, desc, descsz);
	return off + ((descsz + 3) & ~3u);
}

static const uint8_t id_a[20] = { 0xa0, 0xa1, 0xa2, 0xa3, 0xa4, 0xa5, 0xa6, 0xa7, 0xa8, 0xa9,
				  0xaa, 0xab, 0xac, 0xad, 0xae, 0xaf, 0xb0, 0xb1, 0xb2, 0xb3 };
static const uint8_t id_b[16] = { 0xb0, 0xb1, 0xb2, 0xb3, 0xb4, 0xb5, 0xb6, 0xb7,
				  0xb8, 0xb9, 0xba, 0xbb, 0xbc, 0xbd, 0xbe, 0xbf };

Test(sysobj, notes_find_the_gnu_build_id_and_never_read_past_the_end)
{
	uint8_t buf[256], out[20];
	size_t n = 0;

	n += note(buf + n, "Linux", 0x100, id_a, 4);
	n += note(buf + n, "GNU", 1 /* ABI tag */, id_a, 16);
	n += note(buf + n, "GNU", NT_GNU_BUILD_ID, id_b, 16);
	cr_assert_eq(pms_build_id__from_notes(buf, n, out, sizeof(out)), 16);
	cr_expect_arr_eq(out, id_b, 16);
	/* every cut inside the build-id note finds nothing */
	for (size_t cut = n - 16; cut < n; cut++)
		cr_expect_eq(pms_build_id__from_notes(buf, cut, out, sizeof(out)), 0, "cut at %zu", cut);
	/* an id larger than the caller's buffer is not one */
	cr_expect_eq(pms_build_id__from_notes(buf, n, out, 8), 0);
	/* a namesz claiming more than there is */
	n = note(buf, "GNU", NT_GNU_BUILD_ID, id_a, 20);
	buf[0] = 0xf0;
	cr_expect_eq(pms_build_id__from_notes(buf, n, out, sizeof(out)), 0);
	cr_expect_eq(pms_build_id__from_notes(buf, 11, out, sizeof(out)), 0);
}

Test(sysobj, notes_file)
{
	uint8_t buf[64], out[20];
	char path[PATH_MAX];
	size_t n = note(buf, "GNU", NT_GNU_BUILD_ID, id_a, 20);

	put("notes", buf, n);
	snprintf(path, sizeof(path), "%s/notes", root);
	cr_expect_eq(pms_build_id__from_notes_file(path, out, sizeof(out)), 20);
	cr_expect_arr_eq(out, id_a, 20);
	put("empty", "", 0);
	snprintf(path, sizeof(path), "%s/empty", root);
	cr_expect_eq(pms_build_id__from_notes_file(path, out, sizeof(out)), -ENOENT);
	snprintf(path, sizeof(path), "%s/none", root);
	cr_expect_eq(pms_build_id__from_notes_file(path, out, sizeof(out)), -ENOENT);
}

Test(sysobj, module_names_as_the_kernel_spells_them)
{
	char name[64];

	cr_assert_eq(pms_kmod__name("/lib/modules/6.1/kernel/sound/pci/hda/snd-hda-intel.ko", name, sizeof(name)), 0);
	cr_expect_str_eq(name, "snd_hda_intel");
	cr_assert_eq(pms_kmod__name("/lib/modules/6.1/kernel/fs/xfs/xfs.ko.xz", name, sizeof(name)), 0);
	cr_expect_str_eq(name, "xfs");
	cr_assert_eq(pms_kmod__name("[nf-tables]", name, sizeof(name)), 0);
	cr_expect_str_eq(name, "nf_tables");
	cr_expect_eq(pms_kmod__name("/usr/lib/libc.so.6", name, sizeof(name)), -EINVAL);
	cr_expect_eq(pms_kmod__name("/x/kofoo", name, sizeof(name)), -EINVAL);
	cr_expect_eq(pms_kmod__name("[]", name, sizeof(name)), -EINVAL);
	cr_expect_eq(pms_kmod__name("[abc", name, sizeof(name)), -EINVAL);
	cr_expect_eq(pms_kmod__name("/a/very_long_module_name.ko", name, 8), -ENAMETOOLONG);

	cr_expect(pms_kmod__file_is("kernel/sound/pci/hda/snd-hda-intel.ko.xz", "snd_hda_intel"));
	cr_expect(pms_kmod__file_is("xfs.ko.zst", "xfs"));
	cr_expect_not(pms_kmod__file_is("kernel/sound/snd-hda.ko", "snd_hda_intel"));
	cr_expect_not(pms_kmod__file_is("kernel/fs/xfs/xfs2.ko", "xfs"));
	cr_expect_not(pms_kmod__file_is("kernel/fs/xfs/xfs", "xfs"));
}

/*
 * A machine with three modules, as /proc, /sys and /lib/modules show them:
 * one listed by modules.dep with a build-id note, one listed with an
 * absolute path, one not listed, plus one hidden at address 0.
 */
static void fixture_machine(char *moddir, size_t size)
{
	uint8_t buf[64];
	size_t n;

	put_str("proc/modules", "zeta_mod 16384 0 - Live 0xffffffffc0300000\n"
				"snd_hda_intel 57344 1 - Live 0xffffffffc0100000 (E)\n"
				"hidden 4096 0 - Live 0x0000000000000000\n"
				"loose 8192 0 - Live 0xffffffffc0200000\n");
	put_str("proc/sys/kernel/osrelease", "6.1.0-unit\n");
	put_str("lib/modules/6.1.0-unit/modules.dep",
		"kernel/sound/pci/hda/snd-hda-intel.ko: kernel/sound/core/snd.ko\n"
		"kernel/sound/core/snd.ko:\n"
		"/opt/extra/zeta-mod.ko:\n");
	n = note(buf, "GNU", NT_GNU_BUILD_ID, id_a, 20);
	put("sys/module/snd_hda_intel/notes/.note.gnu.build-id", buf, n);
	snprintf(moddir, size, "%s/lib/modules/6.1.0-unit", root);
	{
		char p[PATH_MAX];

		snprintf(p, sizeof(p), "%s/proc", root);
		setenv("PMS_PROCFS_ROOT", p, 1);
		snprintf(p, sizeof(p), "%s/sys", root);
		setenv("PMS_SYSFS_ROOT", p, 1);
		snprintf(p, sizeof(p), "%s/lib/modules", root);
		setenv("PMS_MODULES_ROOT", p, 1);
	}
}

Test(sysobj, loaded_modules_by_address_with_their_files)
{
	char moddir[512], want[PATH_MAX], dir[PATH_MAX];
	struct pms_kmod *m;
	size_t nr;

	fixture_machine(moddir, sizeof(moddir));
	cr_assert_eq(pms_kmods__dir(dir, sizeof(dir)), 0);
	cr_expect_str_eq(dir, moddir);
	cr_assert_eq(pms_kmods__read(&m, &nr), 0);
	cr_assert_eq(nr, 3, "the module at address 0 is hidden and left out");
	/* address order, as perf walks its kernel maps */
	cr_expect_str_eq(m[0].name, "snd_hda_intel");
	snprintf(want, sizeof(want), "%s/kernel/sound/pci/hda/snd-hda-intel.ko", moddir);
	cr_expect_str_eq(m[0].path, want);
	cr_expect_eq(m[0].start, 0xffffffffc0100000ULL);
	cr_expect_eq(m[0].size, 57344);
	cr_expect_str_eq(m[1].name, "loose");
	cr_expect_str_eq(m[1].path, "[loose]");
	cr_expect_str_eq(m[2].name, "zeta_mod");
	cr_expect_str_eq(m[2].path, "/opt/extra/zeta-mod.ko");
	pms_kmods__free(m, nr);
}

Test(sysobj, module_build_ids_from_sysfs_by_name_or_path)
{
	char moddir[512], path[PATH_MAX];
	uint8_t out[20];

	fixture_machine(moddir, sizeof(moddir));
	snprintf(path, sizeof(path), "%s/kernel/sound/pci/hda/snd-hda-intel.ko", moddir);
	cr_assert_eq(pms_kmod__build_id(path, out, sizeof(out)), 20);
	cr_expect_arr_eq(out, id_a, 20);
	cr_assert_eq(pms_kmod__build_id("[snd_hda_intel]", out, sizeof(out)), 20);
	cr_expect_eq(pms_kmod__build_id("[loose]", out, sizeof(out)), -ENOENT);
	cr_expect_eq(pms_kmod__build_id("/usr/bin/true", out, sizeof(out)), -EINVAL);
}

Test(sysobj, no_proc_modules_is_no_modules)
{
	char p[PATH_MAX];
	struct pms_kmod *m;
	size_t nr = 7;

	snprintf(p, sizeof(p), "%s/empty-proc", root);
	setenv("PMS_PROCFS_ROOT", p, 1);
	cr_expect_eq(pms_kmods__read(&m, &nr), 0);
	cr_expect_eq(nr, 0);
	pms_kmods__free(m, nr);
	cr_expect_eq(pms_kmods__dir(p, sizeof(p)), -ENOENT);
}

Test(sysobj, vdso_image_is_the_whole_elf_and_carries_its_build_id)
{
	const void *img;
	const uint8_t *base = (const uint8_t *)(uintptr_t)getauxval(AT_SYSINFO_EHDR);
	uint8_t id[20], again[20];
	size_t len;
	long page = sysconf(_SC_PAGESIZE);
	int n;

	if (!base) {
		cr_skip_test("this process has no vDSO");
		return;
	}
	cr_assert_eq(pms_vdso__image(&img, &len), 0);
	cr_expect_eq(img, base);
	cr_expect_eq(len % (size_t)page, 0);
	cr_expect_geq(len, (size_t)page);
	cr_expect_eq(memcmp(img, ELFMAG, SELFMAG), 0);
	n = pms_vdso__build_id(id, sizeof(id));
	cr_assert_gt(n, 0, "the vDSO has a build-id note on every kernel perf supports");
	/* the same id read back from a copy of the image, as a file in the cache would be */
	{
		char path[PATH_MAX];
		FILE *f;

		snprintf(path, sizeof(path), "%s/vdso", root);
		f = fopen(path, "w");
		cr_assert_not_null(f);
		cr_assert_eq(fwrite(img, 1, len, f), len);
		fclose(f);
		cr_assert_eq(pms_build_id__read(path, again, sizeof(again)), n);
		cr_expect_arr_eq(again, id, (size_t)n);
	}
}
