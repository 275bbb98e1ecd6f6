/* SPDX-License-Identifier: MIT */
/*
 * Processes and their address spaces as perf models them from a recording's
 * MMAP/MMAP2, FORK, COMM exec and EXIT records: the one model behind the
 * perf.data session (symbolizing samples), the objects table (which objects
 * samples hit: record's build-ids, buildid-list) and anything else that
 * follows processes through their events.
 *
 * Invariants:
 *  - An address space (struct pms_vmas) is sorted by start and
 *    non-overlapping: a newer mapping replaces the parts of older ones it
 *    overlaps, which keep their head and tail (a tail's pgoff advances), as
 *    perf's maps__fixup_overlappings() splits them. So a lookup finds the
 *    newest mapping covering an address.
 *  - Elements are the caller's structs of elem_size bytes, each beginning
 *    with struct pms_vma; split parts are byte copies of the original (its
 *    file, build-id, ... stay shared).
 *  - gen changes whenever an address space changes, so caches keyed by
 *    (address space, gen) know they are stale.
 *  - A process (struct pms_proc, the first member of the caller's struct of
 *    proc_size bytes) keeps its address until the table is released; a
 *    FORK of a new process copies its parent's maps; a thread (pid == ppid)
 *    shares them; EXIT (and exec, where the caller wants it) empties them.
 *  - 0 or -errno (ENOMEM); nothing is printed.
 */
#ifndef PMS_AGGREGATE_PROCS_H
#define PMS_AGGREGATE_PROCS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/idtab.h"

struct pms_vma {
	uint64_t start, end; /* [start, end) */
	uint64_t pgoff;      /* file offset of start */
};

struct pms_vmas {
	void *maps;          /* nr elements of elem_size bytes, sorted by start */
	size_t nr, cap, elem_size;
	uint32_t gen;
};

void pms_vmas__init(struct pms_vmas *v, size_t elem_size);
void pms_vmas__release(struct pms_vmas *v);
static inline void *pms_vmas__at(const struct pms_vmas *v, size_t i)
{
	return (char *)v->maps + i * v->elem_size;
}
/* Insert elem (begins with struct pms_vma; empty ranges are ignored), splitting what it overlaps. */
int pms_vmas__insert(struct pms_vmas *v, const void *elem);
/* The element covering addr, or NULL. */
const void *pms_vmas__find(const struct pms_vmas *v, uint64_t addr);
/* Forget the element at elem (one of v's). */
void pms_vmas__remove(struct pms_vmas *v, const void *elem);
void pms_vmas__clear(struct pms_vmas *v);
/* dst becomes a copy of src (same elem_size). */
int pms_vmas__copy(struct pms_vmas *dst, const struct pms_vmas *src);

struct pms_proc {
	int32_t pid;
	struct pms_vmas vmas;
};

struct pms_procs {
	struct pms_proc **procs;  /* by id; each proc_size bytes */
	size_t nr, cap;
	struct pms_idtab by_pid;
	size_t proc_size, elem_size;
	struct pms_proc *last;    /* consecutive records are mostly of one process */
	void (*release)(struct pms_proc *p); /* frees what the caller's part owns; may be NULL */
};

/*
 * proc_size: the caller's process struct (struct pms_proc first);
 * elem_size: its map elements (struct pms_vma first). release(p), if not
 * NULL, is called for each process at __release().
 */
void pms_procs__init(struct pms_procs *t, size_t proc_size, size_t elem_size,
		     void (*release)(struct pms_proc *p));
void pms_procs__release(struct pms_procs *t);
/* Process pid; with create, a new zeroed one (maps empty) when unknown. NULL: unknown, or ENOMEM. */
struct pms_proc *pms_procs__find(struct pms_procs *t, int32_t pid, bool create);
/*
 * FORK of pid from ppid: a new process (pid != ppid) starts with a copy of
 * the parent's maps (clone false: empty, as for perf's synthesized forks);
 * a new thread changes nothing. The child, or NULL for a thread or ENOMEM
 * (errno says which: 0 or ENOMEM).
 */
struct pms_proc *pms_procs__fork(struct pms_procs *t, int32_t pid, int32_t ppid, bool clone);

#endif
