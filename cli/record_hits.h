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
#ifndef PMS_CLI_RECORD_HITS_H
#define PMS_CLI_RECORD_HITS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct rec_hits;
struct pms_objects;

/* NULL when out of memory. */
struct rec_hits *rec_hits__new(void);
void rec_hits__free(struct rec_hits *h);
/* The table itself (build-ids are stored there for the cache step). */
struct pms_objects *rec_hits__objects(struct rec_hits *h);
/* Some event was dropped for lack of memory. */
bool rec_hits__incomplete(const struct rec_hits *h);

/* A kernel module's [start, start + len), reported under name. */
void rec_hits__add_module(struct rec_hits *h, const char *name, uint64_t start, uint64_t len);
/* An executable user mapping of pid (path: a file, "[vdso]", "//anon"...). */
void rec_hits__mmap(struct rec_hits *h, uint32_t pid, uint64_t start, uint64_t len, const char *path);
/* FORK: child pid gets a copy of ppid's maps when it is a new process. */
void rec_hits__fork(struct rec_hits *h, uint32_t pid, uint32_t ppid);
/* COMM with PERF_RECORD_MISC_COMM_EXEC: the address space was replaced. */
void rec_hits__exec(struct rec_hits *h, uint32_t pid);
/* One sample: its cpumode (PERF_RECORD_MISC_*), ip, and call chain (nr entries, markers included; may be NULL). */
void rec_hits__sample(struct rec_hits *h, uint32_t pid, uint16_t cpumode, uint64_t ip,
		      const uint64_t *chain, uint64_t nr);
/* After each pass over all rings, and once at the end. */
void rec_hits__pass_done(struct rec_hits *h);
void rec_hits__finish(struct rec_hits *h);

/* Objects: name, whether samples hit them, and whether it is kernel-side. */
size_t rec_hits__nr(const struct rec_hits *h);
const char *rec_hits__name(const struct rec_hits *h, size_t i, bool *hit, bool *kernel);

#endif
