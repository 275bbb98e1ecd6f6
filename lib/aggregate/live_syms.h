/* SPDX-License-Identifier: MIT */
/*
 * Symbols for the stacks of live processes, as a profiler sees them: raw
 * addresses of processes that may exit at any moment (`profile`). Each
 * process image (tgid and exec count) is snapshotted once, at its
 * announcement or its first sample: its mappings, the build-ids of its
 * executable files, and, when it sees other files than we do (another mount
 * namespace or root), those files opened through /proc/PID/root while it
 * still exists. Frames are resolved once per (image, address) and interned
 * into the caller's stacks tree.
 *
 * Invariants:
 *  - An image's pointer stays valid while its process lives and one
 *    __release_gone() after (that call keeps the image itself and frees what
 *    it held; the next frees it), and its frame-cache key is a serial
 *    number, not a table slot: neither moves when the table grows.
 *  - 0 or -errno (ENOMEM); nothing is printed.
 *  - Frame ids belong to one stacks tree: call __new_tree() when the caller
 *    starts another (the next interval).
 *  - Not thread-safe.
 */
#ifndef PMS_AGGREGATE_LIVE_SYMS_H
#define PMS_AGGREGATE_LIVE_SYMS_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "aggregate/stacks.h"
#include "symbol/resolver.h"

struct pms_maps;
struct pms_map;
struct pms_unwinder;
struct pms_live_syms;

/* One image of a process, as snapshotted. */
struct pms_live_image {
	uint32_t tgid, exec_id;
	const struct pms_maps *maps;   /* NULL: could not be read (the process had exited) */
	const char *root;              /* "/proc/PID/root" when it sees other files than we do, else NULL */
};

struct pms_live_syms_stats {
	uint64_t snapshots;  /* images read at their announcement */
	uint64_t late;       /* read at a sample, the announcement not seen first */
	uint64_t missed;     /* gone before they could be read */
	uint64_t foreign;    /* seen through /proc/PID/root */
	uint64_t released;   /* images let go once their process had exited or exec'd */
	uint64_t forgotten;  /* of them, shells freed one cut later (the table does not grow with churn) */
	uint64_t images;     /* held now (live, and shells until forgotten) */
	uint64_t build_ids;  /* files' build-ids cached now */
};

/* res is borrowed (the caller frees it after __free()). NULL + errno ENOMEM. */
struct pms_live_syms *pms_live_syms__new(struct pms_resolver *res);
void pms_live_syms__free(struct pms_live_syms *ls);

/*
 * The image announced by the kernel side (a new process or exec): read now,
 * before the process can exit (counted as a snapshot, or missed). An image
 * already known is returned as it is. NULL + errno ENOMEM.
 */
struct pms_live_image *pms_live_syms__announce(struct pms_live_syms *ls, uint32_t tgid, uint32_t exec_id);
/* The image a sample belongs to, read now if its announcement was not seen (late, or missed). */
struct pms_live_image *pms_live_syms__image(struct pms_live_syms *ls, uint32_t tgid, uint32_t exec_id);

/*
 * The frame of address ip of image img in st: a return address looked up
 * at ip - 1 (inside the call) unless leaf. A file with a build-id gets it
 * recorded in st. 0 with *frame, or -ENOMEM.
 */
int pms_live_syms__user_frame(struct pms_live_syms *ls, struct pms_stacks *st, struct pms_live_image *img,
			      uint64_t ip, bool leaf, uint32_t *frame);
/* The frame of kernel address ip in st. 0 with *frame, or -ENOMEM. */
int pms_live_syms__kernel_frame(struct pms_live_syms *ls, struct pms_stacks *st, uint64_t ip, uint32_t *frame);
/*
 * ip of img resolved (as __user_frame() would) without touching a tree, for
 * callers that look at the symbol itself (call chains that stop short).
 * *map is the mapping that covers it, NULL when none does (r is then
 * zeroed). 0 or -ENOMEM.
 */
int pms_live_syms__resolve_user(struct pms_live_syms *ls, struct pms_live_image *img, uint64_t ip, bool leaf,
				struct pms_resolved *r, const struct pms_map **map);
/*
 * The DWARF unwinder of img's mappings, made at the first call (NULL when
 * they could not be read or it could not be made; the error is kept).
 */
struct pms_unwinder *pms_live_syms__unwinder(struct pms_live_syms *ls, struct pms_live_image *img);
/*
 * Let go of the images whose process has exited or exec'd since (their
 * mappings, build-ids, unwinder): call it after reading what they were
 * sampled doing. The image pointers stay valid until the next call, which
 * frees those shells (and starts a new frame cache); a late sample of one
 * names unknown frames. Returns how many were let go.
 */
size_t pms_live_syms__release_gone(struct pms_live_syms *ls);
/* Forget every frame id: the caller's next frames go into a new tree. */
void pms_live_syms__new_tree(struct pms_live_syms *ls);
const struct pms_live_syms_stats *pms_live_syms__stats(const struct pms_live_syms *ls);

/*
 * Called with begin = true before a process is read through /proc (its
 * mappings, its files through /proc/PID/root) and with false after: a
 * caller that dropped its privileges raises the read capabilities it kept
 * only then (the agent). fn NULL: none.
 */
typedef void (*pms_live_syms_access_fn)(void *arg, bool begin);
void pms_live_syms__set_access(struct pms_live_syms *ls, pms_live_syms_access_fn fn, void *arg);

#endif
