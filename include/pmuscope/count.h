/* SPDX-License-Identifier: MIT */
/*
 * Counting events from inside a program: the events of a perf event string
 * opened on one target, read with their enabled/running times.
 *
 *   struct pms_count_set *s = pms_count_set__open("instructions,cycles", NULL);
 *   pms_count_set__enable(s);
 *   work();
 *   pms_count_set__disable(s);
 *   struct pms_count_value v;
 *   pms_count_set__read(s, 0, &v);        // v.value, v.scaled, v.running_pct
 *   pms_count_set__close(s);
 *
 * Reads of the calling thread's own events take the user-page fast path
 * where the kernel allows it (x86: rdpmc, when
 * /sys/bus/event_source/devices/cpu/rdpmc is not 0; arm64: user access to
 * the PMU counters, when /proc/sys/kernel/perf_user_access is 1): no system
 * call, the perf_event_mmap_page seqlock protocol, the raw counter
 * sign-extended by pmc_width, the times extrapolated from the timestamp
 * counter. Whenever the page says it may not be used (the event is not on a
 * hardware counter right now: multiplexed out, or a software event) the
 * read falls back to read(2). Every value says which path it took.
 *
 * Ownership: a set owns its file descriptors and mappings until
 * pms_count_set__close(). Thread-safety: a set may be read from any thread,
 * but the user-page path only applies on the thread that opened it (the
 * page describes that thread's counters), and one set must not be used by
 * two threads at the same time.
 */
#ifndef PMUSCOPE_COUNT_H
#define PMUSCOPE_COUNT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <pmuscope/pmuscope.h>

#ifdef __cplusplus
extern "C" {
#endif

struct pms_count_set;

/* Which way a value was read. */
enum pms_read_path {
	PMS_READ_SYSCALL = 0,   /* read(2) on the event's file descriptor */
	PMS_READ_USER_PAGE = 1, /* the mmap()ed page and the counter register, no system call */
};

struct pms_count_value {
	uint64_t value;      /* raw count since open or the last reset */
	uint64_t enabled_ns; /* time the event was enabled */
	uint64_t running_ns; /* time it was on a counter (less than enabled when multiplexed) */
	/*
	 * value * enabled_ns / running_ns, unrounded: the estimate for the
	 * whole enabled time. Equal to value when the event always ran; 0 when
	 * it never ran (running_ns == 0: the count is unknown, not zero).
	 */
	double scaled;
	double running_pct; /* 100 * running_ns / enabled_ns; 100 when never enabled */
	enum pms_read_path path;
};

/*
 * Options; zero-filled means: the calling thread, any CPU, children not
 * counted, opened disabled, user-page reads where possible. sz must be
 * sizeof(struct pms_count_opts) (fields added later keep old callers
 * working).
 */
struct pms_count_opts {
	size_t sz;
	pid_t pid;         /* 0: the calling thread; > 0: that thread/process; -1 with cpu_set: every task */
	bool cpu_set;      /* count only on `cpu` */
	int cpu;
	bool inherit;      /* also count threads and processes created later (no user-page reads) */
	bool enabled;      /* start counting at open instead of at pms_count_set__enable() */
	bool no_user_page; /* always read(2) */
	/*
	 * Count on every online CPU (per-CPU values through
	 * pms_count_set__read_cpu(); __read() sums them, then scales, as perf
	 * stat -a does). With pid -1: every task, system-wide. No user-page reads.
	 */
	bool all_cpus;
};

/*
 * Parse `events` (perf syntax: "cycles,instructions", "{cycles,instructions}:u",
 * "cpu/event=0x3c/", "sched:sched_switch", ...) and open every event on the
 * target. NULL and errno when the string does not parse (EINVAL, ENOENT;
 * the diagnostics callback gets perf's message with a caret) or an event
 * cannot be opened here (the open's errno, e.g. ENOENT for an event this
 * PMU does not have, EACCES for perf_event_paranoid; see pms_strerror()).
 * Opened events are disabled unless opts->enabled. A group ({...}) counts
 * its events at the same time or not at all.
 */
PMS_API struct pms_count_set *pms_count_set__open(const char *events, const struct pms_count_opts *opts);
/* Close the events and unmap their pages; NULL is ignored. */
PMS_API void pms_count_set__close(struct pms_count_set *set);

PMS_API size_t pms_count_set__nr_events(const struct pms_count_set *set);
/* The event's name as perf prints it ("cycles:u"); NULL past the end. Owned by the set. */
PMS_API const char *pms_count_set__event_name(const struct pms_count_set *set, size_t idx);

/* Start, stop and zero every event (groups as a whole). 0 or -errno. */
PMS_API int pms_count_set__enable(struct pms_count_set *set);
PMS_API int pms_count_set__disable(struct pms_count_set *set);
PMS_API int pms_count_set__reset(struct pms_count_set *set);

/*
 * Read event idx: 0, -EINVAL for a bad index, or the read's -errno. Tries
 * the user page first (see above) unless the set was opened with
 * no_user_page.
 */
PMS_API int pms_count_set__read(struct pms_count_set *set, size_t idx, struct pms_count_value *out);
/* CPUs the set counts on: 1 unless opened with all_cpus. */
PMS_API size_t pms_count_set__nr_cpus(const struct pms_count_set *set);
/* The i-th of them (its number), or -1 for "wherever the thread runs"; -EINVAL past the end. */
PMS_API int pms_count_set__cpu(const struct pms_count_set *set, size_t cpu_idx);
/* Event idx on the cpu_idx-th CPU alone (read(2)). -ENODEV where the event does not count on it (its PMU's CPUs). */
PMS_API int pms_count_set__read_cpu(struct pms_count_set *set, size_t idx, size_t cpu_idx,
				    struct pms_count_value *out);
/* Read every event into out[0 .. nr_events); nr must be at least nr_events (-EINVAL). */
PMS_API int pms_count_set__read_all(struct pms_count_set *set, struct pms_count_value *out, size_t nr);
/*
 * Whether reads of event idx can take the user page: it is the calling
 * thread's own event, without inherit, mapped, and the kernel grants user
 * access to its counter (cap_user_rdpmc). A read may still fall back while
 * the event is not on a counter.
 */
PMS_API bool pms_count_set__user_page_capable(const struct pms_count_set *set, size_t idx);

#ifdef __cplusplus
}
#endif

#endif /* PMUSCOPE_COUNT_H */
