/* SPDX-License-Identifier: MIT */
/*
 * report's output of one event's histogram: perf-style --stdio columns and
 * call graphs, and the entries part of the --json document.
 *
 * Invariants: column widths cover every entry of the event (as perf's do),
 * not only those above the percent limit; percentages are of the event's
 * kept total period (in a group view each member's of its own event, and
 * the percent limit judges the leader's, as perf's); nothing here reads the
 * file or the session.
 */
#ifndef PMS_CLI_REPORT_PRINT_H
#define PMS_CLI_REPORT_PRINT_H

#include <stdbool.h>
#include <stdio.h>

#include "aggregate/chaincheck.h"
#include "aggregate/hist.h"
#include "util/json.h"

struct report_view {
	const struct pms_hist *h;
	const enum pms_sort_key *keys;
	size_t nr_keys;
	bool children;        /* Children + Self columns, sorted by children */
	bool graph;           /* print call graphs (the hist has trees) */
	bool skip_first_frame;/* --sort starting with sym: the entry already names the frame */
	bool nr_samples;      /* -n: a Samples column (the entry's self samples, as perf) */
	double percent_limit; /* hide entries below (children % in children mode) */
	double cg_min_percent;/* graph threshold, perf's 0.5 */
};

/* The "# Overhead  Command ..." table (with graphs) of one event. */
void report_print_stdio(FILE *f, const struct report_view *v, const struct pms_hist_event *ev);
/*
 * The same for a group view (perf's anon group): one percentage (and -n
 * samples) column per member side by side, each of its own event's total;
 * the leader's graphs.
 */
void report_print_group_stdio(FILE *f, const struct report_view *v, const struct pms_hist_group *g);
/* perf's "1K": the sample count with its unit letter (' ' below 1000). */
unsigned long report_convert_unit(unsigned long value, char *unit);
/* The "entries" array of one event into w. */
void report_json_entries(struct pms_json *w, const struct report_view *v, const struct pms_hist_event *ev);
/* The same for a group view: the leader's weights, and "group" with every member's. */
void report_json_group_entries(struct pms_json *w, const struct report_view *v, const struct pms_hist_group *g);
/* "<prefix>call chains: ..." when frame-pointer chains stopped short of an entry point; nothing otherwise. */
void report_print_chain_check(FILE *f, const char *prefix, const struct pms_chaincheck_result *cc);
/* "libc.so.6" for "/usr/lib/.../libc.so.6"; "[kernel.kallsyms]" as is. */
const char *report_dso_short(const char *dso);

#endif
