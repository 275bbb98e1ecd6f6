/* SPDX-License-Identifier: MIT */
/*
 * `pmuscope top`'s state, shared by its batch printer (cmd_top.c) and its
 * terminal view (top_tui.c): the live profiler, the decayed view it feeds,
 * the rows under the current sort keys and filters, and the line layout
 * both modes print.
 */
#ifndef PMS_CLI_TOP_H
#define PMS_CLI_TOP_H

#include <regex.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "aggregate/top.h"
#include "bpf/profile.h"
#include "util/strbuf.h"

struct pms_profiler;

struct top {
	/* what to sample */
	struct pms_profile_opts po;
	bool force_ring;             /* PMS_TOP_NO_BPF / --no-bpf */
	struct pms_profiler *pr;
	bool ring;                   /* the fallback: perf's ring buffers */
	char why_ring[200];          /* why BPF did not load (shown in the header) */
	const char *target;          /* "every process", "process 123", ... */
	/* the view */
	struct pms_stacks *view;     /* decayed running total; NULL before the first refresh */
	uint64_t interval_samples;   /* samples of the last refresh's own interval */
	double interval_s;
	double delay_s;
	uint64_t decay_num, decay_den;
	bool zero, paused, off_cpu;
	enum pms_top_key keys[PMS_TOP_MAX_KEYS];
	size_t nr_keys;
	struct pms_top_filter filter;
	regex_t re;
	char *re_text, *dso_text;    /* owned: the tree's strings go at each refresh */
	struct pms_top_rows rows;
	bool call_graph, callers_first;
	unsigned refreshes;
	/* health and CPU */
	struct pms_profiler_losses_view {
		uint64_t taken, dropped_ring, dropped_maps, user_lost, kernel_lost;
	} loss;
	double self_pct, target_pct;  /* of one CPU; target: of every CPU when system-wide */
	uint64_t prev_self_ns, prev_target_ns, prev_all_ns, prev_wall_ns;
	/* -o / w */
	const char *output, *format;
	char message[640];           /* one line for the status bar: "wrote top.folded", errors */
};

/* (Re)start sampling: on-CPU, or off-CPU when t->off_cpu. 0, or -1 after saying why. */
int top__start(struct top *t);
void top__stop(struct top *t);
/* Move what was sampled since the last call into the view (decayed or zeroed) and rebuild the rows. */
int top__refresh(struct top *t);
/* Rebuild the rows after a change of filter or keys. */
void top__rows(struct top *t);
/* A new symbol filter (regex, NULL or "" for none); false with t->message set when it does not compile. */
bool top__set_regex(struct top *t, const char *text);
/* Write the view as -o/--format say (the `w` key, and batch mode at its end). */
int top__write(struct top *t);

/* The header lines (event, rate, mode, samples, losses, CPU) for a screen width. */
void top__header(const struct top *t, int width, struct strbuf *line1, struct strbuf *line2);
/* The column titles and one row, fitted to width (40 columns and up), appended to out. */
void top__columns(const struct top *t, int width, struct strbuf *out);
void top__row_line(const struct top *t, const struct pms_top_row *r, int width, struct strbuf *out);
/*
 * A row's call chains, heaviest first, as lines "  12.3%  leaf <- caller <- ..."
 * (or outermost first), at most max of them. Returns how many were added.
 */
size_t top__chain_lines(const struct top *t, const struct pms_top_row *r, int width, size_t max,
			struct strbuf *lines);

/* The terminal view; returns the exit code. */
int top_tui__run(struct top *t, int iterations);

#endif
