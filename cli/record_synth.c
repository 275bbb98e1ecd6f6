// SPDX-License-Identifier: MIT
// What record writes besides the kernel's records: synthesized FORK/COMM/MMAP(2) of what already runs, and build-ids.
#include <dirent.h>
#include <elf.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <unistd.h>

#include "cmd.h"
#include "record_hits.h"
#include "record_synth.h"
#include "data/writer.h"
#ifndef PMS_NO_HOST_LIBS
#include "symbol/dso.h"
#endif
#include "symbol/maps.h"
#include "util/sysfs.h"

/* "PPid:" / "Tgid:" of /proc/<tid>/status, or -1. */
long rec_synth__status_field(pid_t tid, const char *field)
{
	char path[PATH_MAX], line[256];
	size_t flen = strlen(field);
	long v = -1;
	FILE *f;

	if (pms_procfs__path(path, sizeof(path), "%d/status", (int)tid) < 0 || !(f = fopen(path, "r")))
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, field, flen) && line[flen] == ':') {
			v = strtol(line + flen + 1, NULL, 10);
			break;
		}
	}
	fclose(f);
	return v;
}

/*
 * FORK + COMM of one existing thread, as perf synthesizes them: the leader
 * forks from its parent process, other threads from their leader.
 */
static void synthesize_thread(const struct rec_out *r, pid_t pid, pid_t tid, pid_t ppid)
{
	char path[PATH_MAX], comm[64];
	uint32_t parent = tid == pid ? (uint32_t)(ppid < 0 ? 0 : ppid) : (uint32_t)pid;
	FILE *f;

	if (pms_procfs__path(path, sizeof(path), "%d/task/%d/comm", (int)pid, (int)tid) < 0 ||
	    !(f = fopen(path, "r")))
		return;
	if (!fgets(comm, sizeof(comm), f))
		comm[0] = 0;
	fclose(f);
	comm[strcspn(comm, "\n")] = 0;
	pms_data_writer__fork(r->w, (uint32_t)pid, parent, (uint32_t)tid, parent, 0, NULL);
	pms_data_writer__comm(r->w, (uint32_t)pid, (uint32_t)tid, comm, false, NULL);
}

/* MMAP2 of every executable mapping of pid (files, [vdso], [vsyscall], //anon). */
static void synthesize_maps(const struct rec_out *r, pid_t pid)
{
	struct pms_maps *maps;

	if (pms_maps__read_pid(pid, &maps))
		return;
	for (size_t i = 0; i < maps->nr; i++) {
		const struct pms_map *m = &maps->maps[i];
		struct pms_data_mmap2 mm;

		if (!pms_map__is_exec(m))
			continue;
		memset(&mm, 0, sizeof(mm));
		mm.pid = mm.tid = (uint32_t)pid;
		mm.addr = m->start;
		mm.len = m->end - m->start;
		mm.pgoff = m->pgoff;
		mm.maj = m->dev_major;
		mm.min = m->dev_minor;
		mm.ino = m->inode;
		mm.prot = 4 | (m->prot[0] == 'r' ? 1 : 0) | (m->prot[1] == 'w' ? 2 : 0);
		mm.flags = m->prot[3] == 's' ? 1 : 2; /* MAP_SHARED : MAP_PRIVATE */
		mm.cpumode = PERF_RECORD_MISC_USER;
		mm.filename = m->anon ? "//anon" : m->path;
		pms_data_writer__mmap2(r->w, &mm, NULL);
		if (r->hits)
			rec_hits__mmap(r->hits, mm.pid, mm.addr, mm.len, mm.filename);
	}
	pms_maps__free(maps);
}

/* FORK/COMM of every thread of pid (or only of tids[0..nr)), then its maps. */
void rec_synth__process(const struct rec_out *r, pid_t pid, const pid_t *only, size_t nr_only)
{
	char path[PATH_MAX];
	long ppid = rec_synth__status_field(pid, "PPid");
	DIR *d;
	struct dirent *de;

	if (only) {
		for (size_t i = 0; i < nr_only; i++)
			synthesize_thread(r, pid, only[i], (pid_t)ppid);
	} else {
		if (pms_procfs__path(path, sizeof(path), "%d/task", (int)pid) < 0 || !(d = opendir(path)))
			return;
		/* the leader first: its FORK names the parent process */
		synthesize_thread(r, pid, pid, (pid_t)ppid);
		while ((de = readdir(d))) {
			long tid = strtol(de->d_name, NULL, 10);

			if (tid > 0 && tid != pid)
				synthesize_thread(r, pid, (pid_t)tid, (pid_t)ppid);
		}
		closedir(d);
	}
	synthesize_maps(r, pid);
}

/*
 * _etext - _text without reading all of kallsyms (~80 ms of CPU for 100k
 * lines): /proc/iomem's "Kernel code" spans exactly [_text, _etext) in
 * physical addresses. 0 when hidden (non-root sees zeros) or absent.
 */
static uint64_t kernel_text_len(void)
{
	char path[PATH_MAX], line[256];
	uint64_t len = 0;
	FILE *f;

	if (pms_procfs__path(path, sizeof(path), "%s", "iomem") < 0 || !(f = fopen(path, "r")))
		return 0;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long lo, hi;

		if (strstr(line, " : Kernel code\n") && sscanf(line, " %llx-%llx", &lo, &hi) == 2 && hi > lo) {
			len = hi - lo + 1;
			break;
		}
	}
	fclose(f);
	return len;
}

/*
 * The kernel map perf report needs to attribute kernel samples: one MMAP of
 * [kernel.kallsyms]_text from _text to _etext, as perf writes it (to the top
 * of the address space when _etext is unknown). Skipped when kallsyms hides
 * addresses (kptr_restrict): a zero address helps nobody.
 */
void rec_synth__kernel(const struct rec_out *r)
{
	char path[PATH_MAX], line[512];
	uint64_t text = 0, len;
	FILE *f;

	if (pms_procfs__path(path, sizeof(path), "%s", "kallsyms") < 0 || !(f = fopen(path, "r")))
		return;
	while (fgets(line, sizeof(line), f)) {
		char *end;
		uint64_t addr = strtoull(line, &end, 16);

		if (end != line && !strcmp(end, " T _text\n")) {
			text = addr;
			break;
		}
	}
	fclose(f);
	if (!text)
		return;
	len = kernel_text_len();
	if (!len || len > ~0ULL - text)
		len = ~0ULL - text;
	pms_data_writer__mmap(r->w, (uint32_t)-1, 0, text, len, text, PERF_RECORD_MISC_KERNEL,
			      "[kernel.kallsyms]_text", NULL);
}

/* modules.dep names a file "dir/snd-hda-intel.ko.xz"; the kernel says "snd_hda_intel". */
static bool module_file_is(const char *file, const char *name)
{
	const char *base = strrchr(file, '/');
	size_t i;

	base = base ? base + 1 : file;
	for (i = 0; name[i] && base[i]; i++)
		if (base[i] != name[i] && !(base[i] == '-' && name[i] == '_'))
			return false;
	return !name[i] && !strncmp(base + i, ".ko", 3);
}

struct kmod {
	char name[64];
	char file[PATH_MAX];
	unsigned long long addr, size;
};

/*
 * One MMAP per loaded module (name, text address and size from
 * /proc/modules), named by its file under /lib/modules/<release> when
 * modules.dep lists it (one pass over it), else "[name]", as perf names them.
 */
void rec_synth__modules(const struct rec_out *r)
{
	char path[PATH_MAX], line[1024], rel[256] = "";
	struct kmod *mods = NULL;
	size_t nr = 0;
	FILE *f;

	if (pms_procfs__path(path, sizeof(path), "%s", "modules") < 0 || !(f = fopen(path, "r")))
		return;
	while (fgets(line, sizeof(line), f)) {
		struct kmod m;

		if (sscanf(line, "%63s %llu %*s %*s %*s 0x%llx", m.name, &m.size, &m.addr) != 3 || !m.addr)
			continue;
		snprintf(m.file, sizeof(m.file), "[%s]", m.name);
		mods = xrealloc(mods, (nr + 1) * sizeof(*mods));
		mods[nr++] = m;
	}
	fclose(f);
	if (!nr)
		return;
	if (pms_procfs__path(path, sizeof(path), "%s", "sys/kernel/osrelease") == 0 && (f = fopen(path, "r"))) {
		if (fgets(rel, sizeof(rel), f))
			rel[strcspn(rel, "\n")] = 0;
		fclose(f);
	}
	if (rel[0] && snprintf(path, sizeof(path), "/lib/modules/%s/modules.dep", rel) < (int)sizeof(path) &&
	    (f = fopen(path, "r"))) {
		while (fgets(line, sizeof(line), f)) {
			char *colon = strchr(line, ':');

			if (!colon)
				continue;
			*colon = 0;
			for (size_t i = 0; i < nr; i++)
				if (mods[i].file[0] == '[' && module_file_is(line, mods[i].name))
					snprintf(mods[i].file, sizeof(mods[i].file), "/lib/modules/%s/%s", rel, line);
		}
		fclose(f);
	}
	for (size_t i = 0; i < nr; i++) {
		pms_data_writer__mmap(r->w, (uint32_t)-1, 0, mods[i].addr, mods[i].size, 0,
				      PERF_RECORD_MISC_KERNEL, mods[i].file, NULL);
		if (r->hits)
			rec_hits__add_module(r->hits, mods[i].file, mods[i].addr, mods[i].size);
	}
	free(mods);
}

void rec_synth__all(const struct rec_out *r)
{
	char path[PATH_MAX];
	DIR *d;
	struct dirent *de;

	if (pms_procfs__path(path, sizeof(path), "%s", "") < 0 || !(d = opendir(path)))
		return;
	while ((de = readdir(d))) {
		long pid = strtol(de->d_name, NULL, 10);

		if (pid > 0 && pid != getpid())
			rec_synth__process(r, (pid_t)pid, NULL, 0);
	}
	closedir(d);
}

/* NT_GNU_BUILD_ID in a buffer of ELF notes; its size or 0. */
static size_t build_id_from_notes(const uint8_t *p, size_t len, uint8_t *out)
{
	size_t off = 0;

	while (off + 12 <= len) {
		uint32_t namesz, descsz, type;
		size_t name_off, desc_off;

		memcpy(&namesz, p + off, 4);
		memcpy(&descsz, p + off + 4, 4);
		memcpy(&type, p + off + 8, 4);
		name_off = off + 12;
		desc_off = name_off + (((size_t)namesz + 3) & ~(size_t)3);
		if (desc_off > len || descsz > len - desc_off)
			break;
		if (type == NT_GNU_BUILD_ID && namesz == 4 && !memcmp(p + name_off, "GNU", 4) &&
		    descsz > 0 && descsz <= PMS_BUILD_ID_MAX) {
			memcpy(out, p + desc_off, descsz);
			return descsz;
		}
		off = desc_off + (((size_t)descsz + 3) & ~(size_t)3);
	}
	return 0;
}

/* Build-id from a notes file: /sys/kernel/notes, /sys/module/X/notes/.note.gnu.build-id. */
static size_t build_id_from_notes_file(const char *path, uint8_t *out)
{
	uint8_t buf[4096];
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf));
	close(fd);
	return n > 0 ? build_id_from_notes(buf, (size_t)n, out) : 0;
}

#if UINTPTR_MAX > 0xffffffffu
typedef Elf64_Ehdr vdso_ehdr;
typedef Elf64_Phdr vdso_phdr;
#else
typedef Elf32_Ehdr vdso_ehdr;
typedef Elf32_Phdr vdso_phdr;
#endif

/* Build-id of the vDSO: it is the same image in every process, ours included. */
static size_t build_id_of_vdso(uint8_t *out)
{
	const uint8_t *base = (const uint8_t *)(uintptr_t)getauxval(AT_SYSINFO_EHDR);
	const vdso_ehdr *eh = (const vdso_ehdr *)base;

	if (!base || memcmp(eh->e_ident, ELFMAG, SELFMAG))
		return 0;
	for (unsigned i = 0; i < eh->e_phnum; i++) {
		const vdso_phdr *ph = (const vdso_phdr *)(base + eh->e_phoff + (size_t)i * eh->e_phentsize);
		size_t n;

		if (ph->p_type == PT_NOTE && (n = build_id_from_notes(base + ph->p_offset, ph->p_filesz, out)))
			return n;
	}
	return 0;
}

/*
 * HEADER_BUILD_ID for every object with samples (by IP or call chain), the
 * kernel and modules included. The static arm64 build has no libelf: its
 * files get no build-ids, which only costs the rebuilt-binary check.
 */
void rec_synth__build_ids(const struct rec_out *r, bool all)
{
	struct pms_data_features *f = pms_data_writer__features(r->w);

	rec_hits__finish(r->hits);
	for (size_t i = 0; i < rec_hits__nr(r->hits); i++) {
		uint8_t id[PMS_BUILD_ID_MAX];
		char path[PATH_MAX];
		bool hit, kernel;
		const char *name = rec_hits__name(r->hits, i, &hit, &kernel);
		size_t n = 0;

		if (!hit && !all)
			continue;
		if (i == 0) {
			if (pms_sysfs__path(path, sizeof(path), "%s", "kernel/notes") == 0)
				n = build_id_from_notes_file(path, id);
		} else if (kernel) {
			const char *base = strrchr(name, '/');
			char mod[256];
			size_t len;

			base = base ? base + 1 : name + 1; /* "[name]" */
			len = strcspn(base, ".]");
			if (len < sizeof(mod)) {
				memcpy(mod, base, len);
				mod[len] = 0;
				for (char *c = mod; *c; c++)
					if (*c == '-')
						*c = '_';
				if (pms_sysfs__path(path, sizeof(path), "module/%s/notes/.note.gnu.build-id", mod) == 0)
					n = build_id_from_notes_file(path, id);
			}
		} else if (!strcmp(name, "[vdso]")) {
			n = build_id_of_vdso(id);
		} else if (name[0] == '/') {
#ifndef PMS_NO_HOST_LIBS
			int got = pms_build_id__read(name, id, sizeof(id));

			n = got > 0 ? (size_t)got : 0;
#endif
		}
		if (n)
			pms_data_features__add_build_id(f, name, id, n, -1,
							kernel ? PERF_RECORD_MISC_KERNEL : PERF_RECORD_MISC_USER);
	}
}
