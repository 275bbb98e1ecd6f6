/* SPDX-License-Identifier: MIT */
/*
 * perf archive's tarball, written in process as .tar.gz: for every object a
 * perf.data file names, its build-id cache entry (the .build-id/xx/<rest>
 * link and the <name>/<hex>/ directory with every file in it), paths
 * relative to the cache directory, so that `tar xf ARCHIVE -C ~/.debug` on
 * another machine gives perf report and pmuscope report the same objects.
 *
 * Invariants:
 *  - An object missing from the cache is first added to it when it can be
 *    (pms_buildid_cache__add_object: the file still on disk with the same
 *    build-id, the running kernel's kallsyms, this boot's vDSO); what still
 *    is not there is reported per object, never silently dropped.
 *  - An entry directory shared by several objects is archived once; the
 *    files pmuscope derives and keeps in entries (PMS_BUILDID_CACHE_DERIVED_PREFIX)
 *    are left out.
 *  - Nothing prints; 0 or -errno.
 */
#ifndef PMS_SYMBOL_BUILDID_ARCHIVE_H
#define PMS_SYMBOL_BUILDID_ARCHIVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct pms_archive_object {
	const char *name;     /* as in the build-id table: "/usr/lib/x/libc.so.6", "[kernel.kallsyms]" */
	const uint8_t *id;
	size_t id_size;
	bool kernel;          /* a kernel-side entry (cpumode kernel) */
	int status;           /* out: 0 archived, else why not (-ENOENT not here, -ESTALE other build-id, ...) */
	bool added;           /* out: it was added to the cache first */
};

struct pms_archive_stats {
	size_t nr_archived;   /* objects whose entry is in the archive */
	size_t nr_files;      /* regular files written */
	uint64_t file_bytes;  /* their bytes, before compression */
};

/*
 * Archive objs[0..nr) from the cache dir into fd as a gzip'ed tar (fd is
 * borrowed). Each object's status/added fields are set. -errno only for
 * failures of the archive itself (writing fd, reading the cache).
 */
int pms_buildid_archive__write(const char *dir, struct pms_archive_object *objs, size_t nr, int fd,
			       struct pms_archive_stats *stats);

#endif
