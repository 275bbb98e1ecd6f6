// SPDX-License-Identifier: MIT
// What record writes besides the kernel's records: synthesized FORK/COMM/MMAP(2) of what already runs, and build-ids.
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "aggregate/objects.h"
#include "aggregate/record_hits.h"
#include "aggregate/record_synth.h"
#include "data/writer.h"
#include "symbol/buildid_cache.h"
#ifndef PMS_NO_HOST_LIBS
#include "symbol/dso.h"
#endif
#include "symbol/kallsyms.h"
#include "symbol/maps.h"
#include "symbol/sysobj.h"
#include "util/sysfs.h"

/* "PPid:" / "Tgid:" of /proc/<tid>/status, or -1. */
long pms_record_synth__status_field(pid_t tid, const char *field)
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
static int synthesize_thread(const struct pms_record_synth *r, pid_t pid, pid_t tid, pid_t ppid)
{
	char path[PATH_MAX], comm[64];
	uint32_t parent = tid == pid ? (uint32_t)(ppid < 0 ? 0 : ppid) : (uint32_t)pid;
	FILE *f;
	int err;

	if (pms_procfs__path(path, sizeof(path), "%d/task/%d/comm", (int)pid, (int)tid) < 0 ||
	    !(f = fopen(path, "r")))
		return 0; /* gone meanwhile */
	if (!fgets(comm, sizeof(comm), f))
		comm[0] = 0;
	fclose(f);
	comm[strcspn(comm, "\n")] = 0;
	err = pms_data_writer__fork(r->w, (uint32_t)pid, parent, (uint32_t)tid, parent, 0, NULL);
	return err ? err : pms_data_writer__comm(r->w, (uint32_t)pid, (uint32_t)tid, comm, false, NULL);
}

/* MMAP2 of every executable mapping of pid (files, [vdso], [vsyscall], //anon). */
static int synthesize_maps(const struct pms_record_synth *r, pid_t pid)
{
	struct pms_maps *maps;
	int err = 0;

	if (pms_maps__read_pid(pid, &maps))
		return 0; /* gone meanwhile */
	for (size_t i = 0; i < maps->nr && !err; i++) {
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
		err = pms_data_writer__mmap2(r->w, &mm, NULL);
		if (!err && r->hits)
			pms_record_hits__mmap(r->hits, mm.pid, mm.addr, mm.len, mm.filename);
	}
	pms_maps__free(maps);
	return err;
}

/* FORK/COMM of every thread of pid (or only of tids[0..nr)), then its maps. */
int pms_record_synth__process(const struct pms_record_synth *r, pid_t pid, const pid_t *only, size_t nr_only)
{
	char path[PATH_MAX];
	long ppid = pms_record_synth__status_field(pid, "PPid");
	DIR *d;
	struct dirent *de;
	int err = 0;

	if (only) {
		for (size_t i = 0; i < nr_only && !err; i++)
			err = synthesize_thread(r, pid, only[i], (pid_t)ppid);
	} else {
		if (pms_procfs__path(path, sizeof(path), "%d/task", (int)pid) < 0 || !(d = opendir(path)))
			return 0; /* gone meanwhile */
		/* the leader first: its FORK names the parent process */
		err = synthesize_thread(r, pid, pid, (pid_t)ppid);
		while (!err && (de = readdir(d))) {
			long tid = strtol(de->d_name, NULL, 10);

			if (tid > 0 && tid != pid)
				err = synthesize_thread(r, pid, (pid_t)tid, (pid_t)ppid);
		}
		closedir(d);
	}
	return err ? err : synthesize_maps(r, pid);
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
int pms_record_synth__kernel(const struct pms_record_synth *r)
{
	char path[PATH_MAX], line[512];
	uint64_t text = 0, len;
	FILE *f;

	if (pms_procfs__path(path, sizeof(path), "%s", "kallsyms") < 0 || !(f = fopen(path, "r")))
		return 0;
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
		return 0;
	len = kernel_text_len();
	if (!len || len > ~0ULL - text)
		len = ~0ULL - text;
	return pms_data_writer__mmap(r->w, (uint32_t)-1, 0, text, len, text, PERF_RECORD_MISC_KERNEL,
				     "[kernel.kallsyms]_text", NULL);
}

/*
 * One MMAP per loaded module, in address order, named by its file (or
 * "[name]") exactly as perf synthesizes them: pid -1, tid 0, pgoff 0, the
 * whole module size, cpumode kernel (symbol/sysobj.h finds the files).
 */
int pms_record_synth__modules(const struct pms_record_synth *r)
{
	struct pms_kmod *mods;
	size_t nr;
	int err = 0;

	if (pms_kmods__read(&mods, &nr))
		return 0; /* no modules, or /proc/modules hidden */
	for (size_t i = 0; i < nr && !err; i++) {
		err = pms_data_writer__mmap(r->w, (uint32_t)-1, 0, mods[i].start, mods[i].size, 0,
					    PERF_RECORD_MISC_KERNEL, mods[i].path, NULL);
		if (!err && r->hits)
			pms_record_hits__add_module(r->hits, mods[i].path, mods[i].start, mods[i].size);
	}
	pms_kmods__free(mods, nr);
	return err;
}

int pms_record_synth__all(const struct pms_record_synth *r)
{
	char path[PATH_MAX];
	DIR *d;
	struct dirent *de;
	int err = 0;

	if (pms_procfs__path(path, sizeof(path), "%s", "") < 0 || !(d = opendir(path)))
		return -errno;
	while (!err && (de = readdir(d))) {
		long pid = strtol(de->d_name, NULL, 10);

		if (pid > 0 && pid != getpid())
			err = pms_record_synth__process(r, (pid_t)pid, NULL, 0);
	}
	closedir(d);
	return err;
}

/*
 * HEADER_BUILD_ID for every object with samples (by IP or call chain), the
 * kernel and modules included. The static arm64 build has no libelf: its
 * files get no build-ids, which only costs the rebuilt-binary check.
 */
size_t pms_record_synth__build_id_of(const char *name, bool kernel, uint8_t *id)
{
	int n = 0;

	if (kernel && !strcmp(name, "[kernel.kallsyms]"))
		n = pms_kernel__build_id(id, PMS_BUILD_ID_MAX);
	else if (kernel)
		n = pms_kmod__build_id(name, id, PMS_BUILD_ID_MAX);
	else if (!strcmp(name, "[vdso]"))
		n = pms_vdso__build_id(id, PMS_BUILD_ID_MAX);
#ifndef PMS_NO_HOST_LIBS
	else if (name[0] == '/')
		n = pms_build_id__read(name, id, PMS_BUILD_ID_MAX);
#endif
	return n > 0 ? (size_t)n : 0;
}

int pms_record_synth__build_ids(const struct pms_record_synth *r, bool all)
{
	struct pms_data_features *f = pms_data_writer__features(r->w);
	struct pms_objects *objs = pms_record_hits__objects(r->hits);
	int err = 0;

	pms_record_hits__finish(r->hits);
	for (size_t i = 0; i < pms_record_hits__nr(r->hits) && !err; i++) {
		uint8_t id[PMS_BUILD_ID_MAX];
		bool hit, kernel;
		const char *name = pms_record_hits__name(r->hits, i, &hit, &kernel);
		size_t n;

		/* the vDSO's build-id is kept even unhit: the cache saves its image, as perf's does */
		if (!hit && !all && strcmp(name, "[vdso]"))
			continue;
		n = pms_record_synth__build_id_of(name, kernel, id);
		if (!n)
			continue;
		pms_objects__set_build_id(objs, i, id, n);
		if (hit || all)
			err = pms_data_features__add_build_id(f, name, id, n, -1,
							      kernel ? PERF_RECORD_MISC_KERNEL : PERF_RECORD_MISC_USER);
	}
	return err;
}

int pms_record_synth__cache(const struct pms_record_synth *r, const char *dir, bool all,
			    struct pms_record_cache_stats *st)
{
	const struct pms_objects *objs = pms_record_hits__objects(r->hits);
	int first_err = 0;

	memset(st, 0, sizeof(*st));
	for (size_t i = 0; i < pms_objects__nr(objs); i++) {
		const struct pms_object *ob = pms_objects__at(objs, i);
		unsigned added = 0;
		int err;

		/* what the file names (and the vDSO, as perf caches it), with a build-id to file it under */
		if (!ob->build_id_size || (!ob->hit && !all && strcmp(ob->name, "[vdso]")))
			continue;
		err = pms_buildid_cache__add_object(dir, ob->name, ob->kernel, ob->build_id, ob->build_id_size,
						    &added);
		if (!err) {
			st->nr_present++;
			st->nr_added += added != 0;
			continue;
		}
		st->nr_missing++;
		/* an object that is gone or changed is the file's loss, not the cache's: only writing failures count */
		if (err != -ENOENT && err != -ESTALE && err != -ENODATA && err != -EOPNOTSUPP && !first_err)
			first_err = err;
	}
	return first_err;
}
