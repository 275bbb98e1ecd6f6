// SPDX-License-Identifier: MIT
// What record writes besides the kernel's records: synthesized FORK/COMM/MMAP(2) of what already runs, and build-ids.
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"
#include "record_hits.h"
#include "record_synth.h"
#include "aggregate/objects.h"
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

/*
 * One MMAP per loaded module, in address order, named by its file (or
 * "[name]") exactly as perf synthesizes them: pid -1, tid 0, pgoff 0, the
 * whole module size, cpumode kernel (symbol/sysobj.h finds the files).
 */
void rec_synth__modules(const struct rec_out *r)
{
	struct pms_kmod *mods;
	size_t nr;

	if (pms_kmods__read(&mods, &nr))
		return;
	for (size_t i = 0; i < nr; i++) {
		pms_data_writer__mmap(r->w, (uint32_t)-1, 0, mods[i].start, mods[i].size, 0,
				      PERF_RECORD_MISC_KERNEL, mods[i].path, NULL);
		if (r->hits)
			rec_hits__add_module(r->hits, mods[i].path, mods[i].start, mods[i].size);
	}
	pms_kmods__free(mods, nr);
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

/*
 * HEADER_BUILD_ID for every object with samples (by IP or call chain), the
 * kernel and modules included. The static arm64 build has no libelf: its
 * files get no build-ids, which only costs the rebuilt-binary check.
 */
/* The build-id of object i of the hits table, read where perf reads it; its size or 0. */
static size_t build_id_of(const char *name, size_t i, bool kernel, uint8_t *id)
{
	int n = 0;

	if (i == 0)
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

void rec_synth__build_ids(const struct rec_out *r, bool all)
{
	struct pms_data_features *f = pms_data_writer__features(r->w);
	struct pms_objects *objs = rec_hits__objects(r->hits);

	rec_hits__finish(r->hits);
	for (size_t i = 0; i < rec_hits__nr(r->hits); i++) {
		uint8_t id[PMS_BUILD_ID_MAX];
		bool hit, kernel;
		const char *name = rec_hits__name(r->hits, i, &hit, &kernel);
		size_t n;

		/* the vDSO's build-id is kept even unhit: the cache saves its image, as perf's does */
		if (!hit && !all && strcmp(name, "[vdso]"))
			continue;
		n = build_id_of(name, i, kernel, id);
		if (!n)
			continue;
		pms_objects__set_build_id(objs, i, id, n);
		if (hit || all)
			pms_data_features__add_build_id(f, name, id, n, -1,
							kernel ? PERF_RECORD_MISC_KERNEL : PERF_RECORD_MISC_USER);
	}
}

int rec_synth__cache(const struct rec_out *r, const char *dir, bool all, struct rec_cache_stats *st)
{
	const struct pms_objects *objs = rec_hits__objects(r->hits);
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
