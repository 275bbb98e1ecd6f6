/* SPDX-License-Identifier: MIT */
/*
 * Report histograms: samples from the session grouped by sort keys (comm,
 * pid, tid, dso, sym, srcline, cpu), per event, with self and children
 * (inclusive) weights and call-graph trees per entry.
 *
 * How it stays cheap: __add() does no allocation in the steady state and no
 * tree work. Each sample's frames are interned into a frame table, its chain
 * into a chain table (a sequence of frame ids), and the sample into a
 * "class" (event, the sort-relevant thread fields, chain id) that sums
 * period and samples. __finish() then walks the classes once: entries,
 * children sums and call-graph trees are derived per distinct class, not per
 * sample, and source lines per distinct frame, not per sample.
 *
 * Invariants:
 *  - comm, dso and sym strings of the samples must be interned (one pointer
 *    per distinct string, as the session guarantees) and outlive the hist:
 *    equality is pointer equality.
 *  - A sample adds its period to the self weight of its leaf's entry, and
 *    (children mode) to the children weight of every distinct entry on its
 *    chain exactly once, so a recursive function counts once per sample and
 *    children >= self for every entry.
 *  - Percentages are of the event's total period. As in perf, samples
 *    outside --time or --cpu are dropped from it, while samples hidden by
 *    the comm/pid/tid/dso/sym filters still count in it (perf's default
 *    "absolute" percentages), so a filtered report's rows keep their values.
 *  - Entries and trees are read only after __finish(); they stay valid
 *    until __free().
 *  - Branch mode (opts.branch, perf's default view of files recorded with
 *    -b): every branch of a sample's branch stack is one histogram hit of
 *    weight 1, as perf counts them ("the percentage of total branches
 *    captured, not events sampled"): an event's samples and period are then
 *    its branch count. No children, no trees.
 *  - A group view (__group()) only points into the hist's entries: free it
 *    before the hist.
 */
#ifndef PMS_AGGREGATE_HIST_H
#define PMS_AGGREGATE_HIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "aggregate/callchain.h"
#include "aggregate/session.h"

enum pms_sort_key {
	PMS_SORT_COMM,
	PMS_SORT_PID,
	PMS_SORT_TID,
	PMS_SORT_DSO,
	PMS_SORT_SYM,
	PMS_SORT_SRCLINE,
	PMS_SORT_CPU,
	PMS_SORT_PARENT,     /* "parent": the first frame from the sampled one out whose symbol matches
				pms_hist_opts.parent_regex, "[other]" (NULL) when none does */
	/* branch mode only (perf's names): one branch's source and target, its flags */
	PMS_SORT_DSO_FROM,   /* "dso_from": "Source Shared Object" */
	PMS_SORT_DSO_TO,     /* "dso_to" */
	PMS_SORT_SYM_FROM,   /* "symbol_from" (or "sym_from"): "Source Symbol" */
	PMS_SORT_SYM_TO,     /* "symbol_to" */
	PMS_SORT_CYCLES,     /* "cycles": the LBR's basic-block cycles, "-" when not recorded */
	PMS_SORT_MISPREDICT, /* "mispredict": Y, N (predicted) or N/A */
	PMS_SORT__NR,
};

#define PMS_HIST_MAX_KEYS 8

/* "comm" -> PMS_SORT_COMM ("symbol" and "sym" both work); -EINVAL if unknown. */
int pms_sort_key__parse(const char *name);
const char *pms_sort_key__name(enum pms_sort_key key);
/* A key that only means something in branch mode (dso_from ... mispredict). */
bool pms_sort_key__is_branch(enum pms_sort_key key);
/* Comma list -> keys (no duplicates). 0, or -EINVAL with *bad naming the offending word's offset. */
int pms_sort_keys__parse(const char *list, enum pms_sort_key *keys, size_t max, size_t *nr,
			 size_t *bad);

enum pms_cg_order {
	PMS_CG_NONE,    /* no trees */
	PMS_CG_CALLEE,  /* paths start at the entry's function and go to its callers */
	PMS_CG_CALLER,  /* paths start at the outermost caller */
};

/* Filters on the sample (its leaf frame for dso/sym); an empty list passes everything (see the percentage rule above). */
struct pms_hist_filter {
	const char *const *comms; size_t nr_comms;
	const uint32_t *pids; size_t nr_pids;
	const uint32_t *tids; size_t nr_tids;
	const uint32_t *cpus; size_t nr_cpus;
	const char *const *dsos; size_t nr_dsos;   /* full path or base name */
	const char *const *syms; size_t nr_syms;
	uint64_t time_start_ns, time_end_ns;       /* 0: open end */
	bool hide_unresolved;                      /* perf's -U: hide samples whose IP has no symbol */
	bool parent_only;                          /* perf's -x: hide samples without a parent match */
	const char *sym_substr;                    /* perf's --symbol-filter: hide samples whose symbol lacks it */
};

struct pms_hist_opts {
	size_t sz;                  /* sizeof(struct pms_hist_opts) */
	enum pms_sort_key keys[PMS_HIST_MAX_KEYS];
	size_t nr_keys;             /* 0: comm,dso,sym */
	bool children;              /* inclusive weights from callchains */
	enum pms_cg_order order;    /* trees to build */
	const struct pms_hist_filter *filter; /* borrowed; may be NULL */
	/*
	 * Trees only for entries whose weight reaches this percent of their
	 * event's period: nothing of a lighter entry's graph would print under
	 * perf's threshold (0.5). 0 builds every tree.
	 */
	double cg_min_percent;
	/*
	 * Branch mode: samples come through __add_branches(), not __add();
	 * children and order must be off. Keys may include the branch keys;
	 * dso and sym then name the branch target (perf's he->ms). nr_keys 0:
	 * perf's comm,dso_from,symbol_from,symbol_to,cycles.
	 */
	bool branch;
	/*
	 * The parent key's pattern (POSIX extended regex, perf's -p); NULL:
	 * perf's default "^sys_|^do_page_fault". A bad one fails __new() with
	 * -EINVAL.
	 */
	const char *parent_regex;
};

/* One end of a branch, as an entry keys it. */
struct pms_hist_frame_ref {
	const char *dso;   /* canonical by base name, as the dso key; NULL when no key looks at it */
	const char *sym;   /* NULL: unresolved, see addr */
	uint64_t addr;     /* file address (runtime when no map covered it); 0 with a symbol */
	enum pms_frame_kind kind;
	enum pms_res_status status;
	bool unmapped;     /* no map covered it: perf prints level "[H]" */
};

struct pms_hist_entry {
	/* Key fields: only those of the sort keys are set (others 0 / NULL). */
	const char *comm;
	uint32_t pid, tid, cpu;
	const char *dso;       /* as resolved (full path); printing takes the base name */
	const char *sym;       /* NULL: unresolved, print addr */
	uint64_t addr;         /* file address of an unresolved frame */
	const char *srcline;   /* "file.c:12", "sym+13" or "dso[0x1234]" (perf's forms) */
	const char *parent;    /* key parent: the matching caller's symbol; NULL: perf's "[other]" */
	enum pms_frame_kind kind;
	enum pms_res_status status;
	/* Weights. children_* include self_*; equal to self_* without children mode. */
	uint64_t self_period, self_samples;
	uint64_t children_period, children_samples;
	/* Of self_period: samples taken in the kernel, in user space (perf's period_sys, period_us; guests in neither). */
	uint64_t self_period_sys, self_period_us;
	/* Branch mode: source and target (set as far as the keys look at them), flags. */
	struct pms_hist_frame_ref from, to;
	uint16_t cycles;       /* 0: not recorded */
	bool mispred, predicted;
	uint32_t cg_root;      /* call-graph tree (pms_hist__cg()), 0 if none */
	uint32_t max_depth;    /* longest chain through the entry from it (perf's tie-break) */
	uint32_t priv_stamp;   /* private */
	size_t priv_event;     /* private */
};

struct pms_hist_event {
	size_t attr_idx;
	const char *name;              /* the session's event name */
	uint64_t samples, period;      /* totals (hidden samples included, dropped ones not) */
	uint64_t hidden_samples, hidden_period; /* of those, the hidden ones (perf's --percentage relative leaves them out) */
	struct pms_hist_entry **entries; /* sorted: children (or self) period, descending */
	size_t nr_entries;
};

struct pms_hist;

/* 0 or -EINVAL (bad opts), -ENOMEM. */
int pms_hist__new(struct pms_hist **out, const struct pms_hist_opts *opts);
void pms_hist__free(struct pms_hist *h);
/* 1 if the sample was counted, 0 if a filter dropped it, -ENOMEM; -EINVAL in branch mode. */
int pms_hist__add(struct pms_hist *h, const struct pms_session_sample *s);

/* One branch of a sample's branch stack, its ends resolved (pms_session__resolve_addr()). */
struct pms_hist_branch {
	struct pms_frame from, to;
	uint16_t cycles;
	bool mispred, predicted;
};
/*
 * Branch mode: the nr branches of sample s, each a hit of weight 1. The
 * filters judge the sample (its thread, its sampled IP), as perf's do, and
 * count each of its branches as dropped or hidden. Returns the number of
 * branches counted, -EINVAL outside branch mode, -ENOMEM.
 */
int pms_hist__add_branches(struct pms_hist *h, const struct pms_session_sample *s,
			   const struct pms_hist_branch *br, size_t nr);
/*
 * Build entries and trees. resolver (may be NULL) gives source lines for the
 * srcline key. 0 or -ENOMEM. Call once, after the last __add().
 */
int pms_hist__finish(struct pms_hist *h, struct pms_resolver *resolver);

/* Events that had at least one sample, in attr order. */
size_t pms_hist__nr_events(const struct pms_hist *h);
const struct pms_hist_event *pms_hist__event(const struct pms_hist *h, size_t i);
/* The event of attr_idx if it had at least one sample, else NULL. */
const struct pms_hist_event *pms_hist__event_of(const struct pms_hist *h, size_t attr_idx);
/* Samples (branches in branch mode) dropped or hidden by the filters. */
uint64_t pms_hist__filtered(const struct pms_hist *h);

/*
 * perf's group view of one event group: its events' entries matched by
 * their sort keys (perf's hists__match + hists__link), one row per distinct
 * key with one entry per member (NULL where that event has none). Rows are
 * sorted as perf sorts them: in children mode by the leader's children
 * weight (perf's Children sort looks at the leader only); then by self
 * weight, the leader's, then each member's in group order; then the keys as
 * in an event's own list.
 */
struct pms_hist_group_row {
	const struct pms_hist_entry **members; /* nr_members entries, [0] the leader's */
	const struct pms_hist_entry *key;      /* the first non-NULL member: the key fields */
};

struct pms_hist_group {
	size_t nr_members;
	const struct pms_hist_event **events;  /* per member; NULL for one without samples */
	struct pms_hist_group_row *rows;
	size_t nr_rows;
	const struct pms_hist_entry **priv_block; /* private: every row's members */
};

/*
 * The group of the events attr_idx[0..nr) ([0] leads). After __finish();
 * valid until pms_hist_group__free() (call it before pms_hist__free()).
 * 0, -EINVAL (not finished, nr 0), -ENOMEM.
 */
int pms_hist__group(const struct pms_hist *h, const size_t *attr_idx, size_t nr,
		    struct pms_hist_group **out);
void pms_hist_group__free(struct pms_hist_group *g);
/*
 * perf's --group-sort-idx: rows by member's weight (children or self),
 * heaviest first, rows of equal weight in their previous order; a member
 * past the group's end sorts by the leader, as perf. 0 or -ENOMEM.
 */
int pms_hist_group__sort_by_member(struct pms_hist_group *g, size_t member, bool children);

/* The node array of every entry's tree (node.frame is a pms_hist__frame() id). */
const struct pms_cg *pms_hist__cg(const struct pms_hist *h);

/* A frame of the trees: what to print for it. */
struct pms_hist_frame {
	const char *dso;
	const char *sym;     /* NULL: unresolved */
	uint64_t addr;       /* file address (res.addr) of the first sample seen there */
	enum pms_frame_kind kind;
	enum pms_res_status status;
};
const struct pms_hist_frame *pms_hist__frame(const struct pms_hist *h, uint32_t id);

/* perf's level marker: "[k]" kernel, "[.]" user, "[g]" guest. */
const char *pms_hist__level(enum pms_frame_kind kind);
/* The same for a branch end: "[H]" when no map covered it (perf's level for an address it found nowhere). */
const char *pms_hist__branch_level(const struct pms_hist_frame_ref *end);

#endif
