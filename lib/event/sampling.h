/* SPDX-License-Identifier: MIT */
/*
 * The attrs of a sampling run, as perf record's evsel__config() and
 * evlist__config() set them, so that a file we write reads in perf as one of
 * its own and a live reader decodes every record.
 *
 * Invariants:
 *  - An event's own period=/freq= terms win over opts; an event that comes
 *    with a period (tracepoints, breakpoints: 1) keeps it unless opts give one.
 *  - Samples carry IP, TID and TIME; PERIOD only with a frequency; CPU
 *    system-wide; with several events ID, or IDENTIFIER when their layouts
 *    differ (a reader finds the event before it knows the layout).
 *  - Leaders start disabled (members follow them); the first event carries
 *    the side-band bits (mmap, mmap2, comm, task, comm_exec).
 */
#ifndef PMS_EVENT_SAMPLING_H
#define PMS_EVENT_SAMPLING_H

#include <stdbool.h>
#include <stdint.h>

#include "event/callgraph.h"
#include "event/event.h"

struct pms_sampling_opts {
	uint64_t period;              /* -c: every period events; 0 = by frequency */
	uint64_t freq;                /* -F: samples per second; 0 = perf's 4000 */
	struct pms_call_graph cg;     /* call chains: none, frame pointers, or DWARF copies */
	bool system_wide;             /* sample the CPU of each sample (-a, -C) */
	bool inherit;                 /* children and new threads too */
	bool enable_on_exec;          /* a forked command: start counting at its exec */
};

/* Configure every attr of list for sampling as above. */
void pms_evlist__config_sampling(struct pms_evlist *list, const struct pms_sampling_opts *opts);

#endif
