/* SPDX-License-Identifier: MIT */
/*
 * perf's event syntax -> struct perf_event_attr.
 *
 * Grammar (perf 6.x): comma-separated events and groups; repeated calls to
 * pms_evlist__parse() append (repeated -e).
 *   event  := hw-name | sw-name | tool-name | cache-name | 'r'HEX | tracepoint
 *           | 'mem:' ADDR ['/' LEN] [':' rwx]      (breakpoint)
 *           | pmu '/' [terms] '/' [mods] | pmu-alias-name
 *             followed by optional ':' mods (not after pmu/.../ form, where
 *             mods directly follow the closing slash, as in perf)
 *   group  := '{' event (',' event)* '}' [':' mods]
 *   mods   := [ukhGHIpPSDWeb]*  (first of u/k/h excludes the other two)
 *
 * Invariants of a parsed list: entries of one group are contiguous, the
 * leader first; every entry's attr.size == PERF_ATTR_SIZE_VER* the library
 * was built with; attr carries only what the string specifies plus perf's
 * defaults (exclude_guest=1 as perf sets outside `perf kvm`), never
 * tool-specific bits such as read_format or disabled (those are the
 * perf_event layer's business). As in perf's parser, tracepoints come with
 * sample_type RAW|TIME|CPU|PERIOD and sample_period 1, breakpoints with
 * sample_period 1; counting tools clear sample_period and set their own
 * sample_type, as perf stat does. Syntax details: docs/events.md.
 */
#ifndef PMS_EVENT_EVENT_H
#define PMS_EVENT_EVENT_H

#include <linux/perf_event.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/strbuf.h"

struct pms_event_ctx; /* sysfs PMU + tracefs cache; see event/pmu.h */

struct pms_evsel {
	struct perf_event_attr attr;
	char *name;        /* display name, as perf prints it: "cycles:u", "msr/tsc/", "sched:sched_switch" */
	char *pmu_name;    /* sysfs PMU this resolved to ("software", "msr", "cpu", "tracepoint", ...) */
	int leader_idx;    /* index of the group leader in the list; own index for leaders */
	int nr_members;    /* leaders: number of events in the group incl. itself; others: 0 */
	bool weak_group;   /* W: on open failure, break the group up and retry */
	bool sample_read;  /* S */
	bool precise_max;  /* P: caller raises precise_ip to the highest the PMU accepts */
	bool is_tracepoint;
	double scale;      /* multiply counts by this (sysfs events/<alias>.scale); 1.0 if none */
	char unit[32];     /* sysfs events/<alias>.unit, "" if none */
	char *pmu_cpus;    /* the PMU's "cpumask"/"cpus" file (uncore: where to open), NULL if none */
	/*
	 * period=/freq= terms were given: attr.sample_period / sample_freq+freq
	 * hold them. `record` keeps them instead of its -c/-F defaults; `stat`
	 * clears both fields, as perf stat ignores these terms.
	 */
	bool period_set;
	bool freq_set;
	/*
	 * perf's tool events (duration_time, user_time, system_time): attr is a
	 * software dummy (config 9) that only anchors the value, which the tool
	 * computes itself (wall clock, rusage). perf stat opens duration_time
	 * without enable_on_exec.
	 */
	enum pms_tool_event { PMS_TOOL_NONE, PMS_TOOL_DURATION_TIME, PMS_TOOL_USER_TIME,
			      PMS_TOOL_SYSTEM_TIME } tool_event;
};

struct pms_evlist {
	struct pms_evsel *entries;
	size_t nr;
	size_t cap;
};

/* Where and why a string did not parse. pos indexes the string passed in. */
struct pms_parse_error {
	int err;          /* -EINVAL syntax, -ENOENT unknown name/PMU/tracepoint, -ERANGE value too big,
			     -EOPNOTSUPP a perf term pmuscope does not take, -ENOMEM, or the -errno
			     of a sysfs file that exists but cannot be read */
	size_t pos;       /* byte offset of the offending character */
	char msg[256];    /* "unknown event 'cache-mises'", "expected ',' or '}'", ... */
	char hint[1024];  /* "did you mean 'cache-misses'?", "PMUs on this machine: ...", or "" */
};

/*
 * Parse `str` and append its events to `list`. On failure the list is left
 * as it was, -errno is returned and *err (optional) says where and why.
 */
int pms_evlist__parse(struct pms_evlist *list, struct pms_event_ctx *ctx,
		      const char *str, struct pms_parse_error *err);
void pms_evlist__release(struct pms_evlist *list);

/*
 * Render an error the way the CLI shows it:
 *   event syntax error: 'cache-mises'
 *                        \___ unknown event 'cache-mises'
 *   did you mean 'cache-misses'?
 * (the exact layout is documented in docs/events.md).
 */
void pms_parse_error__format(const struct pms_parse_error *err, const char *str, struct strbuf *out);

/* Context: caches sysfs PMUs and tracepoint ids. NULL + errno on failure. */
struct pms_event_ctx *pms_event_ctx__new(void);
void pms_event_ctx__free(struct pms_event_ctx *ctx);

#endif
