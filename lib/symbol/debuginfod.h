/* SPDX-License-Identifier: MIT */
/*
 * Executables and debug files by build-id from debuginfod servers, through
 * libdebuginfod (elfutils), for files that are neither on disk nor in the
 * build-id cache.
 *
 * Invariants:
 *  - Nothing is asked, and no client exists, unless $DEBUGINFOD_URLS is set
 *    and non-empty: then one debuginfod_client serves the whole process,
 *    created at the first lookup. Files land in libdebuginfod's own cache
 *    ($DEBUGINFOD_CACHE_PATH, else ~/.cache/debuginfod_client), where later
 *    runs find them without the network.
 *  - A failed lookup is remembered per (kind, build-id) for the life of the
 *    process, so a report asks the servers at most once per object.
 *  - No lookup waits more than the stall limit without receiving a byte:
 *    $DEBUGINFOD_TIMEOUT seconds when it is a positive number, else
 *    PMS_DEBUGINFOD_STALL_S. A lookup that ran into the limit (or that
 *    libdebuginfod gave up as unreachable) ends all lookups of the process:
 *    a dead server costs one wait, not one per object. libdebuginfod's
 *    negative-cache entry for such a lookup is removed: the file is not
 *    known to be missing, the server only did not answer.
 *  - Nothing is printed: pmuscope's progress callback replaces the one
 *    $DEBUGINFOD_PROGRESS would install (libdebuginfod still traces to
 *    stderr under $DEBUGINFOD_VERBOSE, which asks for exactly that).
 *  - The returned file is whatever the server sent: callers check its
 *    build-id before using it.
 *  - Calls are serialized by a mutex (one client, one shared miss table).
 */
#ifndef PMS_SYMBOL_DEBUGINFOD_H
#define PMS_SYMBOL_DEBUGINFOD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Seconds without a byte from any server after which a lookup is given up. */
#define PMS_DEBUGINFOD_STALL_S 10

enum pms_debuginfod_kind {
	PMS_DEBUGINFOD_EXECUTABLE,
	PMS_DEBUGINFOD_DEBUGINFO,
};

/*
 * The file of this kind with build-id id[0..id_size) (1..20 bytes). 0 with
 * *path a malloc'd path in libdebuginfod's cache that the caller frees;
 * -ENOENT when $DEBUGINFOD_URLS is unset or empty or no server has it
 * (also when it was not found earlier in this process); -ETIME when no
 * server answered in time (or an earlier lookup met a dead server);
 * -EINVAL for bad arguments; another -errno from libdebuginfod
 * (-ECONNREFUSED, -EHOSTUNREACH...) or -ENOMEM.
 */
int pms_debuginfod__find(enum pms_debuginfod_kind kind, const uint8_t *id, size_t id_size, char **path);

static inline int pms_debuginfod__find_executable(const uint8_t *id, size_t id_size, char **path)
{
	return pms_debuginfod__find(PMS_DEBUGINFOD_EXECUTABLE, id, id_size, path);
}

static inline int pms_debuginfod__find_debuginfo(const uint8_t *id, size_t id_size, char **path)
{
	return pms_debuginfod__find(PMS_DEBUGINFOD_DEBUGINFO, id, id_size, path);
}

/* What the lookups of this process cost, for diagnostics and tests. */
struct pms_debuginfod_stats {
	size_t queries;     /* lookups that went to libdebuginfod (its cache or a server) */
	size_t found;       /* of which returned a file */
	size_t remembered;  /* lookups answered from the miss table without asking */
	size_t stalled;     /* lookups given up after the stall limit */
	bool down;          /* lookups ended: a server did not answer */
};

void pms_debuginfod__stats(struct pms_debuginfod_stats *out);

/*
 * End the client and forget misses and counters: the next lookup starts
 * afresh (tests; a long-lived process after its environment changed).
 * Lookups also start afresh by themselves when $DEBUGINFOD_URLS changes.
 */
void pms_debuginfod__reset(void);

#endif
