/* SPDX-License-Identifier: MIT */
/*
 * Counting: an event list opened over a target (cpus x threads), read with
 * group reads, scaled for multiplexing and aggregated; plus the small pure
 * helpers `stat` builds on (scaling, running statistics, derived metrics).
 *
 * Invariants:
 *  - a counter set has nr_cpus x nr_threads slots per event; cpus is {-1}
 *    for per-thread targets and threads is {-1} for CPU-wide ones, so every
 *    slot is one perf_event_open(pid=threads[t], cpu=cpus[c]);
 *  - tool bits are perf stat's exactly: read_format TOTAL_TIME_ENABLED|
 *    TOTAL_TIME_RUNNING (|ID|GROUP in groups of more than one),
 *    sample_type IDENTIFIER, disabled=1 on leaders (+enable_on_exec for a
 *    forked workload), inherit unless asked not to;
 *  - slots are opened in perf's order (CPU, then event, then thread) so
 *    `stat -vv` can be diffed against `perf stat -vv`;
 *  - an event that cannot open here (ENOENT, EOPNOTSUPP, EINVAL, ...) is
 *    kept with open_err/reason and never read; errors that make the whole
 *    measurement meaningless (EACCES/EPERM after perf's :u fallback, EMFILE,
 *    a target that no longer exists, ...) fail the open and close
 *    everything; a slot whose thread exited meanwhile (ESRCH) is skipped;
 *  - a group is counted whole or not at all (GROUP_REFUSED), never partly
 *    because it did not fit; weak groups (:W) are split instead;
 *  - counts are cumulative since open; `prev` holds the previous read so
 *    interval deltas need no extra state in the caller.
 * The library never prints: open attempts are reported through a callback.
 */
#ifndef PMS_PERF_EVENT_COUNTER_H
#define PMS_PERF_EVENT_COUNTER_H

#include <linux/perf_event.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "event/event.h"

/* One counter reading: value, time enabled and time running (ns). */
struct pms_count {
	uint64_t val;
	uint64_t ena;
	uint64_t run;
};

enum pms_counter_state {
	PMS_COUNTER_OK,            /* opened (may still read as not counted) */
	PMS_COUNTER_UNSUPPORTED,   /* did not open here; see open_err/reason */
	PMS_COUNTER_GROUP_REFUSED, /* its group does not fit the PMU: the kernel refused a member
				      that opens on its own; nothing of the group is counted */
};

struct pms_counter {
	struct perf_event_attr attr; /* exactly as passed to the kernel */
	char *name;                  /* display name (owned) */
	char unit[32];               /* "msec" for the clocks, sysfs unit, or "" */
	double scale;                /* display value = count * scale (1e-6 for clocks) */
	int leader;                  /* index of the group leader (own index if leader) */
	int nr_members;              /* leaders: group size incl. itself; else 0 */
	bool weak_group;
	bool weak_split;             /* a weak group that was broken up */
	enum pms_tool_event tool;    /* duration_time/user_time/system_time: the caller supplies the
					value; the opened dummy only anchors it (as perf) and is not read */
	/*
	 * perf stat -G: count only the tasks of the cgroup whose directory this
	 * fd is open on (the caller's fd, set before opening; CPU-wide targets);
	 * -1: opts' cgroup, if any.
	 */
	int cgroup_fd;
	enum pms_counter_state state;
	int open_err;                /* -errno of the failed open, 0 if it opened */
	int open_cpu;                /* the CPU of that failed open (-1: any CPU) */
	char reason[192];            /* why it did not open, for messages */
	int *pmu_cpus;               /* the PMU's own CPUs (uncore "cpumask", hybrid "cpus"), or NULL */
	size_t nr_pmu_cpus;
	int *fds;                    /* [nr_cpus * nr_threads], -1 when not open */
	uint64_t *ids;               /* kernel event ids, parallel to fds */
	struct pms_count *counts;    /* latest cumulative reading per slot */
	struct pms_count *prev;      /* the reading before that (zeros at first) */
};

/* Called for every perf_event_open attempt (for -vv); ret is fd or -errno. */
typedef void (*pms_counter_open_cb)(void *arg, const struct perf_event_attr *attr, pid_t pid,
				    int cpu, int group_fd, unsigned long flags, int ret);

struct pms_counter_opts {
	/*
	 * Sampling (record): the attrs are the caller's as they are (sample_type,
	 * period, read_format, disabled, inherit): no counting bits are added.
	 * The open loop, fallbacks and group handling are the same.
	 */
	bool sampling;
	bool no_inherit;         /* children/threads created later are not counted */
	bool enable_on_exec;     /* forked workload: leaders start at its exec */
	/*
	 * perf's cgroup mode (stat -G): count only tasks of the cgroup whose
	 * directory cgroup_fd is open on (O_RDONLY), per CPU. Needs a CPU-wide
	 * target (threads {-1}, real CPUs); the fd stays the caller's.
	 */
	bool cgroup;
	int cgroup_fd;
	pms_counter_open_cb on_open;
	void *on_open_arg;
};

struct pms_counters {
	struct pms_counter *c;
	size_t nr;
	int *cpus;               /* {-1} for per-thread targets */
	size_t nr_cpus;
	pid_t *threads;          /* {-1} for CPU-wide targets */
	size_t nr_threads;
	bool opened;
};

/* Where a fatal open error happened (for the CLI's message). */
struct pms_counter_error {
	int err;                 /* -errno */
	int idx;                 /* counter index */
	int cpu;
	pid_t tid;
	char msg[256];
};

/*
 * Build the counters for `list` over cpus x threads (arrays are copied;
 * pass NULL/0 for {-1}). Copies each evsel's attr and adds the tool bits.
 * NULL + errno (EINVAL, ENOMEM).
 */
struct pms_counters *pms_counters__new(const struct pms_evlist *list, const int *cpus, size_t nr_cpus,
				       const pid_t *threads, size_t nr_threads,
				       const struct pms_counter_opts *opts);
void pms_counters__free(struct pms_counters *cs);

/*
 * Open every counter on every slot. Per-event failures are recorded in the
 * counter (state UNSUPPORTED) and do not fail the call. A group member
 * refused with EINVAL/ENOSPC that opens on its own means the group needs
 * more counters than the PMU has: the whole group becomes GROUP_REFUSED
 * (counting part of a group would break its promise of simultaneity). Returns 0, or -errno
 * for a fatal error with *err (optional) filled; then nothing stays open.
 * Weak groups (W) that fail are closed and reopened as single events.
 */
int pms_counters__open(struct pms_counters *cs, const struct pms_counter_opts *opts,
		       struct pms_counter_error *err);
void pms_counters__close(struct pms_counters *cs);

/*
 * Sampling: one ring per CPU of the set, mapped on the first fd opened on
 * that CPU, every other fd of the CPU redirected into it (SET_OUTPUT), as
 * perf record arranges them. maps must hold nr_cpus entries; a CPU where
 * nothing opened stays unmapped. 0, or -errno with *failed_cpu (optional)
 * naming the CPU (maps already made stay mapped: unmap them).
 */
struct pms_mmap;
int pms_counters__map_rings(struct pms_counters *cs, unsigned nr_data_pages, struct pms_mmap *maps,
			    int *failed_cpu);

/* Slots per counter: nr_cpus x nr_threads (fds[], ids[] of every counter have this many). */
size_t pms_counters__nr_slots(const struct pms_counters *cs);

/* ioctl ENABLE/DISABLE on every open leader (members follow). 0 or -errno. */
int pms_counters__enable(struct pms_counters *cs);
int pms_counters__disable(struct pms_counters *cs);

/*
 * Read every open counter: prev <- counts, counts <- kernel (group reads
 * for groups). 0 or -errno (nothing partial: on error counts are restored).
 */
int pms_counters__read(struct pms_counters *cs);

/*
 * Sum of one counter's slots: cpu_idx/thread_idx select one slot row or
 * column, -1 sums over all. delta: counts - prev instead of counts.
 */
struct pms_count pms_counter__sum(const struct pms_counter *c, const struct pms_counters *cs,
				  int cpu_idx, int thread_idx, bool delta);

/* Leader of a group whose time_running stayed 0 while enabled > 0? */
bool pms_counter__never_scheduled(const struct pms_count *leader_sum);

/* ---- pure helpers ---- */

void pms_count__add(struct pms_count *acc, const struct pms_count *c);
/* a - b per field, clamped at 0 (a counter cannot run backwards). */
struct pms_count pms_count__delta(const struct pms_count *a, const struct pms_count *b);
/*
 * Multiplexing scale: val * ena / run, rounded. Returns false when the
 * event never ran (run == 0): the count is unknown, not zero. With
 * no_scale the raw value is returned.
 */
bool pms_count__scaled(const struct pms_count *c, bool no_scale, double *out);
/* Percentage of enabled time the counter ran, 100 when ena == 0. */
double pms_count__running_pct(const struct pms_count *c);

/*
 * Decode a PERF_FORMAT_GROUP|ID|TOTAL_TIME_ENABLED|TOTAL_TIME_RUNNING read
 * buffer: for each of ids[0..nr), find its value; missing ids keep their
 * count untouched. 0 or -EINVAL for a malformed buffer.
 */
int pms_group_read__decode(const uint64_t *buf, size_t buf_words, const uint64_t *ids, size_t nr,
			   struct pms_count *out);

/*
 * One read(2) of a counting fd whose read_format is TOTAL_TIME_ENABLED|
 * TOTAL_TIME_RUNNING (no GROUP, no ID): 0 or -errno (-EIO for a short read).
 */
int pms_perf_fd__read_count(int fd, struct pms_count *out);
/* One read(2) of a group leader into buf; the number of bytes read or -errno. */
ssize_t pms_perf_fd__read_group(int leader_fd, uint64_t *buf, size_t buf_words);

/* Running mean and variance (Welford), as perf's stat.c. */
struct pms_stats {
	double n;
	double mean;
	double m2;
};
void pms_stats__update(struct pms_stats *s, double v);
/* Standard error of the mean (0 for n < 2), what perf shows as "+-". */
double pms_stats__stddev_mean(const struct pms_stats *s);
/* 100 * stddev / mean, 0 when mean == 0. */
double pms_stats__rel_pct(const struct pms_stats *s);

/* Kinds of events derived metrics are computed from. */
enum pms_metric_kind {
	PMS_MK_OTHER,
	PMS_MK_CLOCK,          /* task-clock, cpu-clock: value in ns */
	PMS_MK_CYCLES,
	PMS_MK_INSTRUCTIONS,
	PMS_MK_BRANCHES,
	PMS_MK_BRANCH_MISSES,
	PMS_MK_CACHE_REFS,
	PMS_MK_CACHE_MISSES,
	PMS_MK_STALLED_FRONTEND, /* stalled-cycles-frontend */
	PMS_MK_STALLED_BACKEND,  /* stalled-cycles-backend */
	PMS_MK__NR,
};
enum pms_metric_kind pms_attr__metric_kind(const struct perf_event_attr *attr);

/*
 * perf's shadow-stat pairing: a metric divides by inputs counted in the same
 * privilege context (the exclude_user/kernel/hv/host/idle bits), so
 * instructions:u is never divided by cycles that include the kernel; several
 * events of one kind in a context are averaged, not summed.
 */
#define PMS_METRIC_NR_CTX 32
int pms_attr__metric_context(const struct perf_event_attr *attr);

struct pms_metric_inputs {
	double sum[PMS_MK__NR]; /* by kind */
	int nr[PMS_MK__NR];
};

/* The inputs available for one aggregation unit (all, one CPU, one thread). */
struct pms_metric_ctx {
	double elapsed_ns;     /* wall time of the measurement (or interval) */
	struct pms_metric_inputs in[PMS_METRIC_NR_CTX];
};
/* Feed one counted (scaled) value of kind k in privilege context pctx. */
void pms_metric_ctx__add(struct pms_metric_ctx *m, enum pms_metric_kind k, int pctx, double value);

struct pms_metric {
	bool valid;
	double value;
	const char *fmt;       /* perf's printf format for the value ("%8.3f", "%7.2f%%") */
	char unit[32];         /* "CPUs utilized", "GHz", "insn per cycle", "of all branches", "K/sec" */
};
/* Derived metric for a counted event of kind k in context pctx with scaled value v. */
void pms_metric__compute(const struct pms_metric_ctx *m, enum pms_metric_kind k, int pctx, double v,
			 struct pms_metric *out);

/*
 * Named metrics (stat -M): each is num / den (times a factor) over event
 * kinds counted in one privilege context; pms_metric_kind__name() names
 * the event that counts each input.
 * One table, pms_metric_defs(); the shadow metrics after '#' are the same
 * formulas attached to an event row.
 */
struct pms_metric_def {
	const char *name;        /* -M name, matched case-insensitively: "IPC" */
	const char *unit;        /* what the value is: "insn per cycle" */
	const char *desc;
	enum pms_metric_kind num, den; /* den PMS_MK_OTHER: elapsed time (CPUs utilized) */
	double factor;           /* value = factor * num / den */
	const char *fmt;         /* "%8.2f" */
};
const struct pms_metric_def *pms_metric_defs(size_t *nr);
/* The metric named name (case-insensitive), or NULL. */
const struct pms_metric_def *pms_metric_def__find(const char *name);
/* perf's name of an input kind, for messages: "cycles", "task-clock". */
const char *pms_metric_kind__name(enum pms_metric_kind k);
/*
 * The metric in context pctx of m: 0 with *value, or -ENOENT with *missing
 * the input kind that was not counted (or counted 0) in that context.
 */
int pms_metric_def__compute(const struct pms_metric_def *d, const struct pms_metric_ctx *m, int pctx,
			    double *value, enum pms_metric_kind *missing);

#endif
