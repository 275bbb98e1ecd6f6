/* SPDX-License-Identifier: MIT */
/*
 * Which objects have samples, for HEADER_BUILD_ID: record keeps a minimal
 * copy of every process's executable maps (from the MMAP/MMAP2/FORK/COMM
 * records it copies into the file) and marks the object under each sample's
 * IP and call-chain entries.
 *
 * Invariants:
 *  - Objects are unique by name; index 0 is "[kernel.kallsyms]", then the
 *    kernel modules in the order added, then user objects as first mapped.
 *  - A process's later maps shadow earlier ones at the same address (lookups
 *    scan newest first); an exec (COMM with the exec flag) drops its maps and
 *    a FORK into a new process copies the parent's, as the kernel does.
 *  - Cheap per sample: a per-process last-hit cache makes consecutive IPs in
 *    one object cost one range check; nothing is read from disk here.
 *  - Per-CPU rings are not in time order: an address no map covers yet is
 *    remembered (deduplicated, bounded) and looked up again after the
 *    pass over all rings that brought it, then at the end.
 */
#ifndef PMS_CLI_RECORD_HITS_H
#define PMS_CLI_RECORD_HITS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct rec_hits;

struct rec_hits *rec_hits__new(void);
void rec_hits__free(struct rec_hits *h);

/* A kernel module's text [start, start + len), reported under name. */
void rec_hits__add_module(struct rec_hits *h, const char *name, uint64_t start, uint64_t len);
/* An executable user mapping of pid (path: a file, "[vdso]", "//anon"...). */
void rec_hits__mmap(struct rec_hits *h, uint32_t pid, uint64_t start, uint64_t len, const char *path);
/* FORK: child pid gets a copy of ppid's maps when it is a new process. */
void rec_hits__fork(struct rec_hits *h, uint32_t pid, uint32_t ppid);
/* COMM with PERF_RECORD_MISC_COMM_EXEC: the address space was replaced. */
void rec_hits__exec(struct rec_hits *h, uint32_t pid);
/*
 * One sample: its cpumode (PERF_RECORD_MISC_*), ip, and call chain (nr
 * entries, context markers included; chain may be NULL).
 */
void rec_hits__sample(struct rec_hits *h, uint32_t pid, uint16_t cpumode, uint64_t ip,
		      const uint64_t *chain, uint64_t nr);

/*
 * Look up again the user addresses no map covered when their sample came:
 * __pass_done() after each pass over all rings (while maps are still those
 * of the samples' time), __finish() once at the end for the rest.
 */
void rec_hits__pass_done(struct rec_hits *h);
void rec_hits__finish(struct rec_hits *h);

/* Objects: name, whether samples hit them, and whether it is kernel-side. */
size_t rec_hits__nr(const struct rec_hits *h);
const char *rec_hits__name(const struct rec_hits *h, size_t i, bool *hit, bool *kernel);

#endif
