// SPDX-License-Identifier: MIT
// Kernel modules (file, build-id) and the vDSO image, identified as perf identifies them.
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <unistd.h>

#include "symbol/kallsyms.h"
#include "symbol/sysobj.h"
#include "util/fileio.h"
#include "util/sysfs.h"

size_t pms_build_id__from_notes(const void *notes, size_t len, uint8_t *out, size_t size)
{
	const uint8_t *p = notes;
	size_t off = 0;

	while (len - off >= 12) {
		uint32_t namesz, descsz, type;
		size_t name_off, desc_off;

		memcpy(&namesz, p + off, 4);
		memcpy(&descsz, p + off + 4, 4);
		memcpy(&type, p + off + 8, 4);
		name_off = off + 12;
		if (namesz > len - name_off)
			break;
		desc_off = name_off + (((size_t)namesz + 3) & ~(size_t)3);
		if (desc_off > len || descsz > len - desc_off)
			break;
		if (type == NT_GNU_BUILD_ID && namesz == 4 && !memcmp(p + name_off, "GNU", 4) && descsz > 0 &&
		    descsz <= size) {
			memcpy(out, p + desc_off, descsz);
			return descsz;
		}
		off = desc_off + (((size_t)descsz + 3) & ~(size_t)3);
		if (off > len)
			break;
	}
	return 0;
}

int pms_build_id__from_notes_file(const char *path, uint8_t *out, size_t size)
{
	uint8_t buf[4096];
	size_t got = 0, n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	/* sysfs answers a notes file in one read, but a fixture may be a plain file: read to EOF */
	while (got < sizeof(buf)) {
		ssize_t r = read(fd, buf + got, sizeof(buf) - got);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			int err = -errno;

			close(fd);
			return err;
		}
		if (!r)
			break;
		got += (size_t)r;
	}
	close(fd);
	n = pms_build_id__from_notes(buf, got, out, size);
	return n ? (int)n : -ENOENT;
}

int pms_kmods__dir(char *buf, size_t size)
{
	const char *root = getenv("PMS_MODULES_ROOT");
	char path[4096], rel[256];
	int n;

	if (pms_procfs__path(path, sizeof(path), "sys/kernel/osrelease") ||
	    pms_file__read_str(path, rel, sizeof(rel)) || !rel[0] || strchr(rel, '/'))
		return -ENOENT;
	n = snprintf(buf, size, "%s/%s", root && *root ? root : "/lib/modules", rel);
	return n < 0 || (size_t)n >= size ? -ENAMETOOLONG : 0;
}

bool pms_kmod__file_is(const char *file, const char *name)
{
	const char *base = strrchr(file, '/');
	size_t i;

	base = base ? base + 1 : file;
	for (i = 0; name[i] && base[i]; i++)
		if (base[i] != name[i] && !((base[i] == '-' || base[i] == '_') && (name[i] == '_' || name[i] == '-')))
			return false;
	return !name[i] && !strncmp(base + i, ".ko", 3);
}

int pms_kmod__name(const char *path, char *buf, size_t size)
{
	const char *base, *end;
	size_t len;

	if (path[0] == '[') {
		base = path + 1;
		end = strchr(base, ']');
		if (!end || end[1])
			return -EINVAL;
	} else {
		base = strrchr(path, '/');
		base = base ? base + 1 : path;
		end = strstr(base, ".ko");
		/* ".ko", or a compressed ".ko.xz" / ".ko.gz" / ".ko.zst" */
		if (!end || (end[3] && end[3] != '.'))
			return -EINVAL;
	}
	len = (size_t)(end - base);
	if (!len)
		return -EINVAL;
	if (len >= size)
		return -ENAMETOOLONG;
	for (size_t i = 0; i < len; i++)
		buf[i] = base[i] == '-' ? '_' : base[i];
	buf[len] = '\0';
	return 0;
}

int pms_kmod__build_id(const char *name_or_path, uint8_t *out, size_t size)
{
	char name[256], path[4096];
	int err = pms_kmod__name(name_or_path, name, sizeof(name));

	if (err)
		return err;
	err = pms_sysfs__path(path, sizeof(path), "module/%s/notes/.note.gnu.build-id", name);
	return err ? err : pms_build_id__from_notes_file(path, out, size);
}

void pms_kmods__free(struct pms_kmod *mods, size_t nr)
{
	for (size_t i = 0; mods && i < nr; i++) {
		free(mods[i].name);
		free(mods[i].path);
	}
	free(mods);
}

/* One pass over modules.dep ("kernel/x/y.ko: deps..."): the file of every module it lists. */
static int paths_from_modules_dep(struct pms_kmod *mods, size_t nr)
{
	char dir[4096], path[4200], line[4096];
	FILE *f;

	if (pms_kmods__dir(dir, sizeof(dir)) ||
	    snprintf(path, sizeof(path), "%s/modules.dep", dir) >= (int)sizeof(path) || !(f = fopen(path, "re")))
		return 0; /* no modules.dep: every module keeps its "[name]" */
	while (fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');

		if (!colon)
			continue;
		*colon = '\0';
		for (size_t i = 0; i < nr; i++) {
			char *full;

			if (mods[i].path[0] != '[' || !pms_kmod__file_is(line, mods[i].name))
				continue;
			/* modules.dep names files relative to the directory; older ones gave absolute paths */
			if (line[0] == '/' ? asprintf(&full, "%s", line) < 0 : asprintf(&full, "%s/%s", dir, line) < 0) {
				fclose(f);
				return -ENOMEM;
			}
			free(mods[i].path);
			mods[i].path = full;
		}
	}
	fclose(f);
	return 0;
}

int pms_kmods__read(struct pms_kmod **out, size_t *nr)
{
	struct pms_kallsyms ks;
	struct pms_kmod *mods;
	char path[4096], *text;
	size_t len;
	int err;

	*out = NULL;
	*nr = 0;
	err = pms_procfs__path(path, sizeof(path), "modules");
	if (err)
		return err;
	err = pms_file__read_all(path, &text, &len);
	if (err)
		return err == -ENOENT ? 0 : err;
	/* /proc/modules has one parser, kallsyms': it sorts by address, the order perf synthesizes modules in */
	memset(&ks, 0, sizeof(ks));
	err = pms_kallsyms__parse_modules(text, len, &ks);
	free(text);
	if (err)
		return err;
	mods = calloc(ks.nr_modules ? ks.nr_modules : 1, sizeof(*mods));
	if (!mods) {
		pms_kallsyms__release(&ks);
		return -ENOMEM;
	}
	for (size_t i = 0; i < ks.nr_modules; i++) {
		mods[i].start = ks.modules[i].start;
		mods[i].size = ks.modules[i].size;
		mods[i].name = strdup(ks.modules[i].name);
		if (!mods[i].name || asprintf(&mods[i].path, "[%s]", ks.modules[i].name) < 0) {
			mods[i].path = NULL;
			pms_kmods__free(mods, i + 1);
			pms_kallsyms__release(&ks);
			return -ENOMEM;
		}
	}
	*nr = ks.nr_modules;
	pms_kallsyms__release(&ks);
	err = paths_from_modules_dep(mods, *nr);
	if (err) {
		pms_kmods__free(mods, *nr);
		*nr = 0;
		return err;
	}
	*out = mods;
	return 0;
}

#if UINTPTR_MAX > 0xffffffffu
typedef Elf64_Ehdr vdso_ehdr;
typedef Elf64_Phdr vdso_phdr;
#else
typedef Elf32_Ehdr vdso_ehdr;
typedef Elf32_Phdr vdso_phdr;
#endif

int pms_vdso__image(const void **image, size_t *len)
{
	const uint8_t *base = (const uint8_t *)(uintptr_t)getauxval(AT_SYSINFO_EHDR);
	const vdso_ehdr *eh = (const vdso_ehdr *)base;
	size_t end, page = (size_t)sysconf(_SC_PAGESIZE);

	if (!base || memcmp(eh->e_ident, ELFMAG, SELFMAG))
		return -ENOENT;
	/*
	 * The image is the ELF file the kernel maps whole (section headers
	 * last): its extent rounded up to a page is the [vdso] mapping, what
	 * perf saves as .../[vdso]/<build-id>/vdso.
	 */
	end = (size_t)eh->e_shoff + (size_t)eh->e_shnum * eh->e_shentsize;
	for (unsigned i = 0; i < eh->e_phnum; i++) {
		const vdso_phdr *ph = (const vdso_phdr *)(base + eh->e_phoff + (size_t)i * eh->e_phentsize);

		if ((size_t)(ph->p_offset + ph->p_filesz) > end)
			end = (size_t)(ph->p_offset + ph->p_filesz);
	}
	if (!page)
		page = 4096;
	*image = base;
	*len = (end + page - 1) / page * page;
	return 0;
}

int pms_vdso__build_id(uint8_t *out, size_t size)
{
	const uint8_t *base;
	const vdso_ehdr *eh;
	const void *img;
	size_t len, n;

	if (pms_vdso__image(&img, &len))
		return -ENOENT;
	base = img;
	eh = img;
	for (unsigned i = 0; i < eh->e_phnum; i++) {
		const vdso_phdr *ph = (const vdso_phdr *)(base + eh->e_phoff + (size_t)i * eh->e_phentsize);

		if (ph->p_type == PT_NOTE && ph->p_offset + ph->p_filesz <= len &&
		    (n = pms_build_id__from_notes(base + ph->p_offset, ph->p_filesz, out, size)))
			return (int)n;
	}
	return -ENOENT;
}
