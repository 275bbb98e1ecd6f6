/* SPDX-License-Identifier: MIT */
/*
 * Call stacks merged into one prefix tree, root first: the model every
 * exporter (folded, pprof, speedscope, Chrome trace, JSON), the flame graph,
 * `report --html` and `diff` draw from, and what `profile` (BPF) fills from
 * its in-kernel maps. Built from a session (perf.data replay) or path by
 * path.
 *
 * Invariants:
 *  - Node 0 is the root (frame PMS_STACKS_NO_FRAME, no parent). A node's
 *    total = its self + the totals of its children, for samples and period
 *    alike, so an exporter never recounts.
 *  - Frames are interned: one id per distinct (kind, name, dso, file, line),
 *    ids dense from 0 in first-seen order, so exporters can emit them as
 *    tables (pprof functions, speedscope shared frames) without a hash.
 *  - Names of unresolved frames are never invented: "[unknown]" when no
 *    mapping covered the address, else the address in hex with its object
 *    kept in dso (perf script's "[unknown] (dso)" made structured).
 *  - All strings are interned and stay valid until __free().
 *  - Children are kept in insertion order until pms_stacks__sort().
 *  - A session chain whose outer end repeats one user address (a frame
 *    pointer that points at itself) enters the tree with that frame once;
 *    meta.looped_chains counts such samples.
 */
#ifndef PMS_AGGREGATE_STACKS_H
#define PMS_AGGREGATE_STACKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "aggregate/session.h"

#define PMS_STACKS_NO_FRAME UINT32_MAX

enum pms_stack_kind {
	PMS_STACK_USER,
	PMS_STACK_KERNEL,
	PMS_STACK_JIT,      /* from /tmp/perf-PID.map */
	PMS_STACK_INLINED,  /* an inlined function, expanded from DWARF (opts.inline_frames) */
	PMS_STACK_UNKNOWN,  /* an address no symbol covers */
	PMS_STACK_PROCESS,  /* pseudo frame at the root: a process (opts.root) */
	PMS_STACK_THREAD,   /* pseudo frame under PROCESS: a thread (opts.root = TID) */
};

struct pms_stack_frame {
	const char *name;   /* demangled symbol, "[unknown]", "0x7f12..." or, for PROCESS/THREAD, comm */
	const char *dso;    /* object path, "[kernel.kallsyms]", module, "[jit]"; NULL for pseudo frames */
	const char *file;   /* source file with opts.srcline (NULL otherwise or unknown) */
	uint32_t line;      /* 0 when unknown */
	enum pms_stack_kind kind;
	uint32_t pid, tid;  /* PROCESS: pid; THREAD: pid and tid; 0 otherwise */
};

struct pms_stack_node {
	uint32_t frame;          /* frame id, PMS_STACKS_NO_FRAME for the root */
	uint32_t parent;         /* node id; the root's is itself (0) */
	uint32_t first_child;    /* node id, 0 = none (the root is never a child) */
	uint32_t next_sibling;   /* node id, 0 = none */
	uint32_t depth;          /* root 0 */
	uint64_t self_samples, total_samples;
	uint64_t self_period, total_period;
};

enum pms_stacks_root {
	PMS_STACKS_ROOT_NONE,  /* stacks start at their outermost function */
	PMS_STACKS_ROOT_COMM,  /* a PROCESS frame named by comm first, as stackcollapse-perf.pl */
	PMS_STACKS_ROOT_PID,   /* PROCESS frames per pid (name = comm, pid set) */
	PMS_STACKS_ROOT_TID,   /* PROCESS per pid, then THREAD per tid */
};

/* "none", "comm", "pid" or "tid" (--root): 0, or -EINVAL for another name. */
int pms_stacks_root__parse(const char *name, enum pms_stacks_root *out);

struct pms_stacks_opts {
	size_t sz;                  /* sizeof(struct pms_stacks_opts) */
	enum pms_stacks_root root;
	bool inline_frames;         /* expand inlined calls (DWARF) as INLINED frames */
	bool srcline;               /* fill file/line of each frame (DWARF) */
	bool kernel_only, user_only; /* keep only that part of each chain (profile -K / -U) */
	const char *event;          /* only samples of this event name; NULL: every event */
	uint64_t time_start_ns;     /* keep samples in [start, end], as perf --time; 0 = open */
	uint64_t time_end_ns;
};

/* What the file says about the run, for titles and summaries (all may be 0/NULL). */
struct pms_stacks_meta {
	const char *event;          /* event of the samples, or "cpu-clock,sched:..." when several */
	const char *period_unit;    /* "nanoseconds" for cpu-clock/task-clock, else "events" */
	const char *sample_noun;    /* what one sample is, plural: NULL = "samples"; "blocks" off-CPU */
	const char *period_noun;    /* what the period measures: NULL = "period"; "off-CPU time" */
	const char *command;        /* the recorded command line (HEADER_CMDLINE) */
	const char *hostname;
	uint64_t time_first_ns, time_last_ns;
	uint64_t samples;           /* samples in the tree (= root total_samples) */
	uint64_t samples_filtered;  /* seen but left out by opts (event, time, -K/-U) */
	uint64_t lost;              /* LOST + LOST_SAMPLES records' counts */
	uint64_t unresolved_leaves; /* samples whose leaf is UNKNOWN */
	uint64_t looped_chains;     /* samples whose chain ended in a run of one user address, kept
				       once: a looping frame-pointer walk (see stacks.c) */
	uint64_t start_wall_ns;     /* UTC of the first sample when the caller knows it (pprof
				       time_nanos; perf timestamps are not wall clock), else 0 */
};

struct pms_stacks;

/* NULL and errno (ENOMEM, EINVAL for a bad opts.sz). opts may be NULL. */
struct pms_stacks *pms_stacks__new(const struct pms_stacks_opts *opts);
void pms_stacks__free(struct pms_stacks *st);

/*
 * Replay the whole session into the tree; meta filled from its reader.
 * -errno as pms_session__next() on damage (the tree keeps what came before).
 */
int pms_stacks__add_session(struct pms_stacks *st, struct pms_session *s);

/*
 * A new tree of the whole session (*out; NULL only with -ENOMEM). Returns 0
 * or, when the replay stopped at damage, its -errno with the tree holding
 * what came before. *damage (may be NULL) gets the reader's description of
 * damage met, stopped at or stepped over (opts.recover), else NULL; it lives
 * as long as the session.
 */
int pms_stacks__from_session(struct pms_session *s, const struct pms_stacks_opts *opts, struct pms_stacks **out,
			     const struct pms_data_error **damage);

/* One session sample (frames[0] is the leaf). 0 or -ENOMEM. */
int pms_stacks__add_sample(struct pms_stacks *st, struct pms_session *s,
			   const struct pms_session_sample *sample);

/* Intern a frame (strings are copied); its id, or -ENOMEM. */
int64_t pms_stacks__intern(struct pms_stacks *st, const struct pms_stack_frame *frame);

/* A stack of frame ids, ROOT FIRST, with its weights: for BPF maps, diff, tests. 0 or -ENOMEM. */
int pms_stacks__add_path(struct pms_stacks *st, const uint32_t *frame_ids, size_t nr,
			 uint64_t samples, uint64_t period);

/*
 * Add every path of src to dst with its self weights scaled by num/den
 * (rounded down; a path whose sample count scales to 0 is left out), build-ids too:
 * merging one refresh into a running view (1/1), or a decayed copy of a
 * view (perf top's 7/8 into a new tree). 0, -EINVAL (den 0, dst == src)
 * or -ENOMEM (dst keeps what was added).
 */
int pms_stacks__add_tree(struct pms_stacks *dst, const struct pms_stacks *src, uint64_t num, uint64_t den);

/*
 * pms_stacks__add_tree() of the paths whose outermost frame (a PROCESS
 * frame when the tree has roots) keep() accepts; it is asked once per
 * such frame. The root's own weight is left out.
 */
typedef bool (*pms_stacks_keep_fn)(void *arg, const struct pms_stack_frame *outermost);
int pms_stacks__add_tree_if(struct pms_stacks *dst, const struct pms_stacks *src, uint64_t num, uint64_t den,
			    pms_stacks_keep_fn keep, void *arg);

enum pms_stacks_order {
	PMS_STACKS_BY_NAME,   /* children alphabetically (flame graphs: stable between runs) */
	PMS_STACKS_BY_WEIGHT, /* heaviest total_samples first (reports, trimmed exports) */
};
void pms_stacks__sort(struct pms_stacks *st, enum pms_stacks_order order);

const struct pms_stack_node *pms_stacks__nodes(const struct pms_stacks *st, size_t *nr);
const struct pms_stack_frame *pms_stacks__frames(const struct pms_stacks *st, size_t *nr);
const struct pms_stacks_meta *pms_stacks__meta(const struct pms_stacks *st);
/* Meta for trees filled by path (profile): strings are copied. */
int pms_stacks__set_meta(struct pms_stacks *st, const struct pms_stacks_meta *meta);

/* One function's weights over the whole tree (perf report's children and self columns). */
struct pms_stacks_function {
	uint32_t frame;                      /* frame id */
	uint64_t self_samples, self_period;  /* summed over every node of the frame */
	uint64_t total_samples, total_period; /* over the outermost node of the frame on each path:
						  a recursive function counts once per stack */
};

/*
 * The functions of the tree (PROCESS and THREAD frames left out, and frames
 * of no weight), in frame-id order. 0 with *out (the caller frees it) and
 * *nr, or -ENOMEM.
 */
int pms_stacks__functions(const struct pms_stacks *st, struct pms_stacks_function **out, size_t *nr);

/*
 * The build-id of object dso (a frame's dso) as the recording's
 * HEADER_BUILD_ID had it, in lowercase hex; NULL when not recorded.
 */
const char *pms_stacks__build_id(const struct pms_stacks *st, const char *dso);
/* Record one (for trees filled by path); both strings are copied. 0 or -ENOMEM. */
int pms_stacks__set_build_id(struct pms_stacks *st, const char *dso, const char *build_id_hex);

#endif
