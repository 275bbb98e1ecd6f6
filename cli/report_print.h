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

/* perf's -g print_type: how call graphs print (none is report_view.graph false). */
enum report_graph_mode {
	REPORT_GRAPH,   /* the tree, percentages of the event's total */
	REPORT_FLAT,    /* every path that ends in samples, one frame a line */
	REPORT_FRACTAL, /* the tree, percentages of the parent node */
	REPORT_FOLDED,  /* every path that ends in samples, on one line: "a;b;c" */
};

/* perf's -g value: what a call-graph node shows. */
enum report_graph_value {
	REPORT_VALUE_PERCENT,
	REPORT_VALUE_PERIOD,
	REPORT_VALUE_COUNT,
};

/* One column of the table (perf's -F fields): a weight, or a sort key. */
enum report_col_type {
	REPORT_COL_CHILDREN, /* overhead_children */
	REPORT_COL_SELF,     /* overhead ("Self" beside Children) */
	REPORT_COL_SYS,      /* overhead_sys: the kernel samples' share */
	REPORT_COL_US,       /* overhead_us: the user samples' share */
	REPORT_COL_SAMPLES,  /* sample */
	REPORT_COL_PERIOD,   /* period */
	REPORT_COL_KEY,
};

struct report_column {
	enum report_col_type type;
	enum pms_sort_key key; /* REPORT_COL_KEY */
};

#define REPORT_MAX_COLS (PMS_HIST_MAX_KEYS + 8)

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
	const struct report_column *cols; /* -F: the columns in order; NULL: perf's default ones */
	size_t nr_cols;
	bool total_period;    /* --show-total-period: a Period column */
	bool cpu_util;        /* --show-cpu-utilization: sys and usr columns */
	const char *field_sep;/* -t: columns joined by it, unpadded; NULL: aligned */
	bool relative;        /* --percentage relative: of what the filters kept, not of the event's total */
	bool hierarchy;       /* --hierarchy: one level per key */
	bool hide_unresolved; /* -U: no row for an address without a symbol */
	bool branch;          /* branch mode: entries are branches */
	bool fields_order;    /* rows by the -F fields in turn (-F without -s, as perf sorts then) */
	const int *widths;    /* -w: fixed widths of the key columns, by column position; 0: fit */
	size_t nr_widths;
	enum report_graph_mode graph_mode;
	enum report_graph_value graph_value;
	int print_limit;      /* call-graph entries per level (graph) or per entry (flat, folded); 0: all */
};

/* perf's --hierarchy view of one event: a level per sort key (self weights). */
void report_print_hierarchy(FILE *f, const struct report_view *v, const struct pms_hist_event *ev);
/* The "# Overhead  Command ..." table (with graphs) of one event. */
void report_print_stdio(FILE *f, const struct report_view *v, const struct pms_hist_event *ev);
/*
 * The same for a group view (perf's anon group): one percentage (and -n
 * samples) column per member side by side, each of its own event's total;
 * the leader's graphs.
 */
void report_print_group_stdio(FILE *f, const struct report_view *v, const struct pms_hist_group *g);
/* The base of member ev's percentages: its total, less the hidden samples with --percentage relative. */
uint64_t report_total(const struct report_view *v, const struct pms_hist_event *ev);
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
