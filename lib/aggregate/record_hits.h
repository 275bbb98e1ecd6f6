/* SPDX-License-Identifier: MIT */
/*
 * record's use of the objects table (aggregate/objects.h): which objects
 * have samples, for HEADER_BUILD_ID and the build-id cache. record tells it
 * every MMAP/MMAP2/FORK/COMM it copies into the file and every sample, IP
 * and call chain, as the kernel wrote them (exec drops a process's maps;
 * addresses no map covers yet are looked up again after each pass over the
 * per-CPU rings and at the end).
 *
 * Invariants:
 *  - Index 0 is "[kernel.kallsyms]", whose map is every kernel address not
 *    in a module; modules are kernel-side objects with their own ranges.
 *  - Bookkeeping never ends a recording: an event the table could not take
 *    for lack of memory is dropped and remembered (__incomplete()), which
 *    costs at most some build-ids.
 */
#ifndef PMS_AGGREGATE_RECORD_HITS_H
#define PMS_AGGREGATE_RECORD_HITS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct pms_record_hits;
struct pms_objects;

/* NULL (errno ENOMEM) when out of memory. */
struct pms_record_hits *pms_record_hits__new(void);
void pms_record_hits__free(struct pms_record_hits *h);
/* The table itself (build-ids are stored there for the cache step). */
struct pms_objects *pms_record_hits__objects(struct pms_record_hits *h);
/* Some event was dropped for lack of memory. */
bool pms_record_hits__incomplete(const struct pms_record_hits *h);

/* A kernel module's [start, start + len), reported under name. */
void pms_record_hits__add_module(struct pms_record_hits *h, const char *name, uint64_t start, uint64_t len);
/* An executable user mapping of pid (path: a file, "[vdso]", "//anon"...). */
void pms_record_hits__mmap(struct pms_record_hits *h, uint32_t pid, uint64_t start, uint64_t len, const char *path);
/* FORK: child pid gets a copy of ppid's maps when it is a new process. */
void pms_record_hits__fork(struct pms_record_hits *h, uint32_t pid, uint32_t ppid);
/* COMM with PERF_RECORD_MISC_COMM_EXEC: the address space was replaced. */
void pms_record_hits__exec(struct pms_record_hits *h, uint32_t pid);
/* One sample: its cpumode (PERF_RECORD_MISC_*), ip, and call chain (nr entries, markers included; may be NULL). */
void pms_record_hits__sample(struct pms_record_hits *h, uint32_t pid, uint16_t cpumode, uint64_t ip,
		      const uint64_t *chain, uint64_t nr);
/* After each pass over all rings, and once at the end. */
void pms_record_hits__pass_done(struct pms_record_hits *h);
void pms_record_hits__finish(struct pms_record_hits *h);

/* Objects: name, whether samples hit them, and whether it is kernel-side. */
size_t pms_record_hits__nr(const struct pms_record_hits *h);
const char *pms_record_hits__name(const struct pms_record_hits *h, size_t i, bool *hit, bool *kernel);

#endif
