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
 *  - The options after enable_on_exec set what perf record's options of the
 *    same name set, bit for bit (checked against perf 6.1's files).
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
	/* perf record's optional sample contents and side-band records (its option in brackets) */
	bool no_time;                 /* --no-timestamp: samples without TIME */
	bool sample_cpu;              /* --sample-cpu: CPU even for a command */
	bool sample_period;           /* -P: PERIOD even with a fixed period */
	bool sample_addr;             /* -d: ADDR and DATA_SRC, and mmap_data for the maps of data */
	bool phys_addr;               /* --phys-data */
	bool data_page_size;          /* --data-page-size */
	bool code_page_size;          /* --code-page-size */
	bool weight;                  /* -W: WEIGHT_STRUCT, as perf 6.1 asks */
	bool transaction;             /* --transaction */
	bool raw;                     /* -R: RAW (and CPU) */
	bool sample_identifier;       /* --sample-identifier: IDENTIFIER even for one event */
	bool inherit_stat;            /* -s: per-thread counts in PERF_RECORD_READ at each exit */
	bool running_time;            /* --running-time: enabled/running times in reads */
	bool no_samples;              /* -n: count, do not sample */
	bool all_user, all_kernel;    /* --all-user / --all-kernel */
	bool context_switch;          /* --switch-events */
	bool namespaces;              /* --namespaces */
	bool cgroup;                  /* --all-cgroups: CGROUP records and the cgroup of each sample */
	bool write_backward;          /* --overwrite */
	bool use_clockid;             /* -k */
	int clockid;
	uint64_t regs_user;           /* --user-regs: REGS_USER with this mask, 0 = none */
	uint64_t regs_intr;           /* -I: REGS_INTR with this mask, 0 = none */
	uint64_t branch_sample_type;  /* -b / -j: BRANCH_STACK with these filters, 0 = none */
	bool no_buffering;            /* --no-buffering: a wake-up for every record */
	bool kernel_callchains_only;  /* --kernel-callchains */
	bool user_callchains_only;    /* --user-callchains */
};

/* Configure every attr of list for sampling as above. */
void pms_evlist__config_sampling(struct pms_evlist *list, const struct pms_sampling_opts *opts);

#endif
