/* SPDX-License-Identifier: MIT */
/*
 * A live view's rows from a stacks tree, as perf top shows them: the
 * samples whose leaf (where the sample landed) is a function, added up by
 * sort keys (comm, pid, tid, dso, sym), filtered, heaviest first; and the
 * call chains under one row. The tree is the view's running total (decayed
 * between refreshes with pms_stacks__add_tree()); these functions only read it.
 *
 * Invariants:
 *  - A tree's paths start with a PROCESS frame (name = comm, pid) and, for
 *    per-thread views, a THREAD frame (tid); functions follow.
 *  - Rows borrow their strings from the tree: they live until it is freed.
 *  - Percentages are the caller's: total_* is every sample of the tree,
 *    shown_* what the filter kept (perf's absolute and relative).
 *  - 0 or -errno; nothing is printed.
 */
#ifndef PMS_AGGREGATE_TOP_H
#define PMS_AGGREGATE_TOP_H

#include <regex.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "aggregate/stacks.h"

enum pms_top_key {
	PMS_TOP_COMM,
	PMS_TOP_PID,
	PMS_TOP_TID,
	PMS_TOP_DSO,
	PMS_TOP_SYM,
	PMS_TOP__NR_KEYS,
};

#define PMS_TOP_MAX_KEYS 5

/* "comm,dso,sym", "sym", "pid,comm"...: 0 with the keys in order, or -EINVAL (*bad: the offending word). */
int pms_top_keys__parse(const char *text, enum pms_top_key *keys, size_t *nr, const char **bad);
const char *pms_top_key__name(enum pms_top_key k);

struct pms_top_filter {
	const regex_t *sym;        /* only leaves whose name matches (NULL: any) */
	const char *dso;           /* only leaves in this object (NULL: any) */
	uint32_t pid, tid;         /* only this process / thread (0: any) */
	bool hide_kernel;          /* leave out kernel leaves (perf top -K) */
	bool hide_user;            /* leave out every other leaf (-U) */
	/*
	 * Where a sample counts (its row's leaf), for off-CPU trees whose leaf
	 * is always the scheduler: skip_sched takes the innermost frame that
	 * is not the scheduler's own (__schedule, schedule_timeout, ...: where
	 * the thread chose to wait), user_leaf the innermost user frame (the
	 * call that blocked), applied before the filters above.
	 */
	bool skip_sched, user_leaf;
};

struct pms_top_row {
	const char *comm;          /* set for the keys given, else NULL/0 */
	uint32_t pid, tid;
	const char *dso;           /* NULL: no object known */
	const char *sym;
	enum pms_stack_kind kind;  /* the leaf's (with sym) */
	uint64_t samples, period;
};

struct pms_top_rows {
	struct pms_top_row *rows;  /* heaviest first (by period when by_period) */
	size_t nr;
	uint64_t total_samples, total_period;  /* the whole tree */
	uint64_t shown_samples, shown_period;  /* what the filter kept */
};

/* The rows of st by keys; rows->rows is malloc()ed (__release()). 0 or -ENOMEM/-EINVAL. */
int pms_top__rows(const struct pms_stacks *st, const enum pms_top_key *keys, size_t nr_keys,
		  const struct pms_top_filter *filter, bool by_period, struct pms_top_rows *out);
void pms_top_rows__release(struct pms_top_rows *r);

/*
 * The call chains of the samples of row (as keys and filter grouped them)
 * as a new tree in *out (the caller frees it): the leaf first, then its
 * callers (perf's callee order), or outermost caller first when
 * callers_first. Pseudo frames (process, thread) are left out. 0 or -ENOMEM.
 */
int pms_top__chains(const struct pms_stacks *st, const enum pms_top_key *keys, size_t nr_keys,
		    const struct pms_top_filter *filter, const struct pms_top_row *row, bool callers_first,
		    struct pms_stacks **out);

#endif
