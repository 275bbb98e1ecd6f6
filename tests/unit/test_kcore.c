// SPDX-License-Identifier: MIT
// Kernel bytes from a kcore (PMS_PROCFS_ROOT fixture): an ELF core whose PT_LOAD maps a kernel address, read across and at its end; no kcore, not a core.
#include <criterion/criterion.h>
#include <elf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "symbol/kcore.h"

static char root[64];

static void write_file(const char *name, const void *buf, size_t len)
{
	char path[128];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, name);
	f = fopen(path, "w");
	cr_assert_not_null(f);
	cr_assert_eq(fwrite(buf, 1, len, f), len);
	fclose(f);
}

static void setup(void)
{
	snprintf(root, sizeof(root), "/tmp/pms-kcore-XXXXXX");
	cr_assert_not_null(mkdtemp(root));
	setenv("PMS_PROCFS_ROOT", root, 1);
}

static void teardown(void)
{
	char cmd[128];

	unsetenv("PMS_PROCFS_ROOT");
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	cr_assert_eq(system(cmd), 0);
}

Test(kcore, reads_a_mapped_kernel_address, .init = setup, .fini = teardown)
{
	struct {
		Elf64_Ehdr eh;
		Elf64_Phdr ph[2];
		uint8_t text[64];
	} core;
	uint8_t buf[16];
	size_t got;

	memset(&core, 0, sizeof(core));
	memcpy(core.eh.e_ident, ELFMAG, SELFMAG);
	core.eh.e_ident[EI_CLASS] = ELFCLASS64;
	core.eh.e_type = ET_CORE;
	core.eh.e_phoff = offsetof(__typeof__(core), ph);
	core.eh.e_phentsize = sizeof(Elf64_Phdr);
	core.eh.e_phnum = 2;
	core.ph[0].p_type = PT_NOTE;
	core.ph[1].p_type = PT_LOAD;
	core.ph[1].p_vaddr = 0xffffffff81000000ull;
	core.ph[1].p_offset = offsetof(__typeof__(core), text);
	core.ph[1].p_filesz = sizeof(core.text);
	for (size_t i = 0; i < sizeof(core.text); i++)
		core.text[i] = (uint8_t)i;
	write_file("kcore", &core, sizeof(core));

	cr_assert_eq(pms_kcore__read(0xffffffff81000010ull, buf, sizeof(buf), &got), 0);
	cr_assert_eq(got, 16);
	cr_assert_eq(buf[0], 0x10);
	cr_assert_eq(pms_kcore__read(0xffffffff81000038ull, buf, sizeof(buf), &got), 0);
	cr_assert_eq(got, 8, "cut at the segment's end");
	cr_assert_eq(pms_kcore__read(0xffffffff82000000ull, buf, sizeof(buf), &got), -ENOENT);

	core.eh.e_type = ET_EXEC;
	write_file("kcore", &core, sizeof(core));
	cr_assert_eq(pms_kcore__read(0xffffffff81000010ull, buf, sizeof(buf), &got), -EINVAL, "not a core");
}

Test(kcore, a_kernel_without_one, .init = setup, .fini = teardown)
{
	uint8_t buf[4];
	size_t got = 9;

	cr_assert_eq(pms_kcore__read(0xffffffff81000000ull, buf, sizeof(buf), &got), -ENODEV);
	cr_assert_eq(got, 0);
}
