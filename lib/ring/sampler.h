/* SPDX-License-Identifier: MIT */
/*
 * Sampling events read through their ring buffers, as perf record arranges
 * them: an event list opened over cpus x threads, one ring per CPU (every
 * other fd of the CPU redirected into it), each record handed over with the
 * decoding of the event that wrote it. `record` writes the records to a
 * file; a live view decodes them.
 *
 * Invariants:
 *  - The caller configures the attrs (pms_evlist__config_sampling()); the
 *    list's attrs and names are updated to what was opened (perf's
 *    fallbacks: ":u", no exclude_guest), so a file describes the truth.
 *  - Events with different sample layouts: each record is decoded with the
 *    attr its IDENTIFIER names, not the first event's.
 *  - Every record goes through pms_ring_stats (samples, lost, throttles).
 *  - 0 or -errno; nothing is printed. Not thread-safe.
 */
#ifndef PMS_RING_SAMPLER_H
#define PMS_RING_SAMPLER_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "event/event.h"
#include "perf_event/counter.h"
#include "ring/record.h"
#include "ring/stats.h"

/* Why the sampler did not open: which step, which event and CPU, in words. */
struct pms_sampler_error {
	enum {
		PMS_SAMPLER_E_OPEN,    /* an event did not open (event, cpu) */
		PMS_SAMPLER_E_GONE,    /* every thread of the target exited first (-ESRCH) */
		PMS_SAMPLER_E_MAP,     /* a ring did not map (cpu) */
	} step;
	int err;                  /* -errno */
	int event;                /* event index, -1 when not one event's */
	int cpu;                  /* -1: any CPU */
	char msg[256];
};

struct pms_sampler;

/*
 * Open list over cpus x threads (NULL/0 for {-1}) with data_pages of ring
 * per CPU (0: perf's default for this user) and map the rings; the events
 * stay disabled until __enable() or their exec. NULL + errno ENOMEM, or
 * -errno with *err filled.
 */
int pms_sampler__open(struct pms_evlist *list, const int *cpus, size_t nr_cpus, const pid_t *threads,
		      size_t nr_threads, unsigned data_pages, struct pms_sampler **out, struct pms_sampler_error *err);
/* Accepts NULL; closes every event. */
void pms_sampler__free(struct pms_sampler *s);

/* The kernel ids of event e's fds, for the perf.data attr section (borrowed). */
const uint64_t *pms_sampler__ids(const struct pms_sampler *s, size_t e, size_t *nr);
/* Every fd opened (borrowed): a caller that polls them itself. */
const int *pms_sampler__fds(const struct pms_sampler *s, size_t *nr);
struct pms_counters *pms_sampler__counters(struct pms_sampler *s);

/*
 * Put filter on every fd of event e (perf record --filter: a tracepoint's
 * filter expression, which the kernel compiles). 0, or the kernel's -errno
 * (-EINVAL: the expression does not parse for this tracepoint).
 */
int pms_sampler__set_filter(struct pms_sampler *s, size_t e, const char *filter);
int pms_sampler__enable(struct pms_sampler *s);
int pms_sampler__disable(struct pms_sampler *s);

/*
 * Wait up to timeout_ms for a ring to fill past its wakeup mark, with
 * signals of mask (NULL: this thread's mask) deliverable meanwhile
 * (ppoll). The number of ready rings, 0, or -errno (-EINTR).
 */
int pms_sampler__wait(struct pms_sampler *s, int timeout_ms, const sigset_t *mask);

/*
 * A record read from a ring: h as it sits in the ring (copied out when it
 * wrapped), rec decoded, or NULL when it does not decode. Nonzero stops
 * the pass.
 */
typedef int (*pms_sampler_record_fn)(const struct perf_event_header *h, const struct pms_record *rec, void *arg);

/*
 * One pass over every ring. The number of records handed over. Overwrite
 * rings (the events' attr.write_backward, perf record --overwrite) are
 * paused, read back from their head and handed over oldest first: what was
 * written since the last pass, at most a ring's worth (the newest).
 */
uint64_t pms_sampler__drain(struct pms_sampler *s, pms_sampler_record_fn fn, void *arg);

/* Samples, lost records and throttles so far (borrowed). */
const struct pms_ring_stats *pms_sampler__stats(const struct pms_sampler *s);

#endif
