/* SPDX-License-Identifier: MIT */
/*
 * Live profiling: the BPF sampler's stacks (lib/bpf/profile) turned into a
 * call tree (lib/aggregate/stacks) named by the live-process symbolizer
 * (lib/aggregate/live_syms). `profile` prints the tree once or per
 * interval; `top` cuts it at every refresh. The engine keeps the in-kernel
 * maps from filling (it moves counts into the tree when they are three
 * quarters full) and accounts for every sample it could not place.
 *
 * Invariants:
 *  - Tree roots are PROCESS frames named by comm (opts.root COMM), or one
 *    per process with its pid (opts.root PID), followed by a THREAD frame
 *    per thread (opts.root TID); below them user frames outermost first,
 *    then kernel frames.
 *  - Weights: samples and, as period, nanoseconds (1/freq per sample; with
 *    off_cpu the time blocked).
 *  - A user stack that was expected and not taken becomes one
 *    "[user stack lost]" frame (unless only kernel stacks were asked for);
 *    a DWARF copy that cannot be unwound too.
 *  - Off-CPU kernel stacks lose their leading tracing frames (the BPF
 *    program and the tracepoint's code), which are not where a thread blocked.
 *  - 0 or -errno; nothing is printed. Not thread-safe.
 *  - __add_sample() and __announce() work without a sampler, so the tree
 *    building is testable without BPF (pms_profiler__new()).
 */
#ifndef PMS_LIVE_PROFILER_H
#define PMS_LIVE_PROFILER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "aggregate/annotate.h"
#include "aggregate/chaincheck.h"
#include "aggregate/live_syms.h"
#include "aggregate/stacks.h"
#include "bpf/profile.h"
#include "ring/sampler.h"

struct pms_profiler_opts {
	size_t sz;                     /* sizeof(struct pms_profiler_opts) */
	enum pms_stacks_root root;     /* COMM (NONE means COMM), PID or TID */
	bool off_cpu;                  /* weights are time blocked */
	bool kernel_only;              /* no "[user stack lost]" frames: user stacks were not asked for */
	uint64_t period_ns;            /* period of one sample (1e9 / freq); off_cpu: unused */
};

/* What the engine did with what the sampler handed over, since the start. */
struct pms_profiler_counts {
	uint64_t samples;        /* samples (off_cpu: blocks) put in trees */
	uint64_t streamed;       /* of them, through the ring buffer */
	uint64_t evicted;        /* whose stack was cleared before their counts were read */
	uint64_t unwound, unwind_failed; /* DWARF copies */
	uint64_t blocked_ns;     /* off_cpu: time in trees */
	uint64_t drains;         /* reads made early to keep room in the counts map */
	uint64_t cuts;           /* trees handed over by __cut() */
};

struct pms_profiler;

/* The tree builder alone (no sampler): NULL + errno (ENOMEM, EINVAL for a bad opts.sz). */
struct pms_profiler *pms_profiler__new(const struct pms_profiler_opts *opts);

/*
 * Builder and sampler: loads and attaches the BPF program with sampler's
 * options (opts.off_cpu, kernel_only and period_ns are taken from them).
 * On error *fail says which step, as pms_profile__start().
 */
int pms_profiler__start(const struct pms_profile_opts *sampler, enum pms_stacks_root root,
			struct pms_profiler **out, enum pms_profile_fail *fail);
/*
 * The same without BPF: cpu-clock samples with frame-pointer call chains
 * streamed through perf's ring buffers (perf record's way), for kernels or
 * users that cannot load the BPF program; processes are announced by their
 * COMM records. Sampling options only (no off_cpu: -EOPNOTSUPP). -errno
 * with *err filled (the event, the CPU, why).
 */
int pms_profiler__start_ring(const struct pms_profile_opts *sampler, enum pms_stacks_root root,
			     struct pms_profiler **out, struct pms_sampler_error *err);

/* Accepts NULL. Detaches the sampler first. */
void pms_profiler__free(struct pms_profiler *pr);

/*
 * Wait up to timeout_ms for announcements and streamed samples and put
 * them in the tree; every half second, read the counts into the tree when
 * the map is three quarters full. The number of records handled, or -errno
 * (-EINTR when a signal came). -EINVAL without a sampler.
 */
int pms_profiler__poll(struct pms_profiler *pr, int timeout_ms);

/*
 * True once, at the first call after the sampler switched to streaming
 * because its maps filled (not when streaming was asked for).
 */
bool pms_profiler__just_switched(struct pms_profiler *pr);

/*
 * Read the counts so far into the tree (deleting them in the kernel), hand
 * the tree over in *out (the caller frees it) and start an empty one: an
 * interval or a refresh. Clears the stacks map when it is half full.
 */
int pms_profiler__cut(struct pms_profiler *pr, struct pms_stacks **out);

/*
 * Stop sampling, read what is still queued (announcements first, so
 * processes are snapshotted before their counts are named) and the counts
 * left into the tree. 0 or -errno from reading the counts.
 */
int pms_profiler__stop(struct pms_profiler *pr);

/* The tree being filled (borrowed; replaced by __cut()). */
struct pms_stacks *pms_profiler__tree(struct pms_profiler *pr);
/* The BPF sampler, for its event, CPUs and drop counters (borrowed; NULL from __new() and __start_ring()). */
struct pms_profile *pms_profiler__sampler(struct pms_profiler *pr);
/* The ring-buffer sampler of __start_ring() (borrowed; NULL otherwise). */
struct pms_sampler *pms_profiler__ring(struct pms_profiler *pr);
/* "cpu-clock", "cycles" or, off-CPU, "sched:sched_switch"; NULL without a sampler. */
const char *pms_profiler__event(struct pms_profiler *pr);

/* What was not placed, by reason, summed since the start (either sampler). */
struct pms_profiler_losses {
	uint64_t taken;            /* samples the sampler took */
	uint64_t dropped_ring;     /* samples dropped whole: ring buffer full */
	uint64_t dropped_maps;     /* samples dropped whole: in-kernel counts map full */
	uint64_t user_stacks_lost; /* samples kept without their user stack */
	uint64_t kernel_stacks_lost;
	uint64_t truncated;        /* stacks cut at the frame limit (kept) */
};
int pms_profiler__losses(struct pms_profiler *pr, struct pms_profiler_losses *out);
const struct pms_profiler_counts *pms_profiler__counts(const struct pms_profiler *pr);
const struct pms_live_syms_stats *pms_profiler__syms_stats(const struct pms_profiler *pr);
/*
 * Look at where frame-pointer user stacks stop (off by default: it reads a
 * sample of each object's code to tell which objects lack frame pointers).
 */
void pms_profiler__check_chains(struct pms_profiler *pr, bool on);
/* Frame-pointer user stacks that stopped short of an entry point, by object (with __check_chains()). */
void pms_profiler__chains(struct pms_profiler *pr, struct pms_chaincheck_result *out);

/*
 * Keep the address of every sample taken in user code (off by default): what
 * __annotate() needs. Addresses of processes that are gone are let go at
 * each cut, with their snapshots.
 */
void pms_profiler__keep_addresses(struct pms_profiler *pr, bool on);
/*
 * Function sym of object dso (as the tree names them) annotated with the
 * user samples kept since __keep_addresses() (a live view: every process
 * that ran it, while its snapshot lasts). *sym is filled and borrowed by
 * *out; keep it until pms_annotation__free(). -ENOENT: no such samples;
 * else as pms_annotation__build_sym().
 */
int pms_profiler__annotate(struct pms_profiler *pr, const char *dso, const char *sym,
			   const struct pms_annotate_opts *opts, struct pms_annotate_sym *sym_out,
			   struct pms_annotation **out);

/*
 * The live-process symbolizer (borrowed): for pms_live_syms__set_access()
 * when the caller drops privileges after the start.
 */
struct pms_live_syms *pms_profiler__syms(struct pms_profiler *pr);
/*
 * Bound the object files the symbolizer keeps open: at each cut, past
 * max_files, those not used during the last interval are closed
 * (pms_resolver__trim_files()). 0: no bound (the default: a run of one
 * command sees few files; an always-on agent sees every binary the host ever runs).
 */
void pms_profiler__limit_files(struct pms_profiler *pr, size_t max_files);
/*
 * Called after each process image is announced and snapshotted (a new
 * process or an exec), while the process most likely still runs: what a
 * caller wants to know of it (its executable, cgroup) is still there to
 * read, even when it exits before its samples are read. NULL: none.
 */
typedef void (*pms_profiler_announce_fn)(void *arg, uint32_t tgid, uint32_t exec_id);
void pms_profiler__on_announce(struct pms_profiler *pr, pms_profiler_announce_fn fn, void *arg);
/* The resolver behind it (borrowed), for pms_resolver__held(). */
const struct pms_resolver *pms_profiler__resolver(const struct pms_profiler *pr);
/*
 * Read the running kernel's core symbols now rather than at the first
 * kernel frame: before dropping the privileges /proc/kallsyms needs. 0, or
 * -errno when they cannot be read (kernel frames will stay unnamed).
 */
int pms_profiler__load_kernel_symbols(struct pms_profiler *pr);

/* Feeding the builder by hand (tests, replays): a sample as the sampler hands it over. 0 or -ENOMEM. */
int pms_profiler__add_sample(struct pms_profiler *pr, const struct pms_profile_sample *s);
/* A new address space (tgid, exec_id), snapshotted now. 0 or -ENOMEM. */
int pms_profiler__announce(struct pms_profiler *pr, uint32_t tgid, uint32_t exec_id);

#endif
