/* SPDX-License-Identifier: MIT */
/*
 * Regions: count events around named stretches of code, per thread, the way
 * LIKWID's marker API and PAPI's high-level API do.
 *
 *   pms_region__init(NULL);            // events from $PMS_REGION_EVENTS or the default
 *   pms_region__begin("solve");
 *   ...                                // nested regions allowed
 *   pms_region__end("solve");
 *   pms_region__write_json("regions.json");
 *
 * Each thread counts its own events (opened on its first begin, on the
 * calling thread, without inherit, so reads take the user-page path where
 * the kernel allows it). A region accumulates, per thread, the number of
 * calls, the wall time inside it (CLOCK_MONOTONIC) and for each event the
 * raw count, its enabled and running time and the scaled count (summed per
 * call: value * enabled / running of that call). Regions nest: an outer
 * region's counts include its inner regions'; ends must match the
 * innermost open begin.
 *
 * Thread-safety: begin and end may be called from any number of threads at
 * once. pms_region__foreach() and pms_region__write_json() may run while
 * other threads count, but only read exact totals once those threads are
 * quiet (joined). init and finish must not race with anything.
 *
 * Cost: a begin/end pair is two reads of every event plus two clock reads;
 * docs/library.md gives the measured cost (bench/library.sh).
 */
#ifndef PMUSCOPE_REGION_H
#define PMUSCOPE_REGION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <pmuscope/pmuscope.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Default events when neither opts->events nor $PMS_REGION_EVENTS says: the first that opens here. */
#define PMS_REGION_DEFAULT_EVENTS "instructions,cycles"
#define PMS_REGION_FALLBACK_EVENTS "task-clock,context-switches,page-faults"

/* Deepest nesting per thread; a deeper begin fails with -E2BIG. */
#define PMS_REGION_MAX_DEPTH 64

struct pms_region_opts {
	size_t sz;             /* sizeof(struct pms_region_opts) */
	const char *events;    /* perf event syntax; NULL: $PMS_REGION_EVENTS, else the defaults */
	const char *json_path; /* results written here at exit (and by finish); NULL: $PMS_REGION_OUTPUT */
	bool no_user_page;     /* always read(2) */
};

/*
 * Choose the events and open them for the calling thread. 0, -EALREADY if
 * already initialized, or the -errno of the event string (parse or open;
 * the diagnostics callback says why). Without it, the first begin
 * initializes with the defaults.
 */
PMS_API int pms_region__init(const struct pms_region_opts *opts);

/*
 * Enter / leave region `name` on the calling thread. 0, -E2BIG past
 * PMS_REGION_MAX_DEPTH, -EINVAL when end does not name the innermost open
 * region (nothing is recorded then; the callback says which was open),
 * -ENOMEM, or the -errno of opening this thread's events or reading them.
 * name is copied on its first use in each thread.
 */
PMS_API int pms_region__begin(const char *name);
PMS_API int pms_region__end(const char *name);

PMS_API size_t pms_region__nr_events(void);
/* NULL past the end or before init. Owned by the library until finish. */
PMS_API const char *pms_region__event_name(size_t idx);

struct pms_region_count {
	uint64_t value;      /* raw count, summed over calls */
	uint64_t enabled_ns; /* summed over calls */
	uint64_t running_ns;
	double scaled;       /* per-call value * enabled / running, summed */
};

struct pms_region_result {
	const char *name;
	pid_t tid;
	uint64_t calls;
	uint64_t time_ns;
	size_t nr_events;
	const struct pms_region_count *counts; /* [nr_events], in pms_region__event_name() order */
	uint64_t user_page_reads; /* reads that took the user page (the rest used read(2)) */
	uint64_t syscall_reads;
};

/* Called per (thread, region) in first-use order; a non-zero return stops the walk and is returned. */
typedef int (*pms_region_fn)(const struct pms_region_result *result, void *arg);
PMS_API int pms_region__foreach(pms_region_fn fn, void *arg);

/*
 * Write every thread's regions as JSON (format in docs/library.md) to
 * path. 0 or -errno.
 */
PMS_API int pms_region__write_json(const char *path);

/*
 * Write the JSON if a path was configured, close every thread's events and
 * forget all results; init may be called again afterwards.
 */
PMS_API void pms_region__finish(void);

#ifdef __cplusplus
}
#endif

#endif /* PMUSCOPE_REGION_H */
