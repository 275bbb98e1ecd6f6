/* SPDX-License-Identifier: MIT */
/*
 * The report part of `report --html`: summary, top functions and the
 * per-process and per-thread breakdown as HTML sections, handed to
 * pms_flamegraph__html() as opts.preamble_html (the flame graph below them
 * is that page's own). In the spirit of simpleperf's report_html.
 *
 * Invariants:
 *  - Every string from the file (command line, host, comm, symbol, object)
 *    goes through pms_html__escape(): a hostile symbol name cannot inject
 *    markup or script into the page.
 *  - Numbers are the hist's, as `report --json` gives them: percentages of
 *    each event's kept period with 2 decimals; counts as integers. Elements
 *    carry stable ids and data- attributes (documented in docs/report.md)
 *    so tests read values without parsing the text.
 *  - One small script of ours: click a column title to sort its table
 *    (the page's main script is the flame graph's); it reads no data.
 */
#ifndef PMS_EXPORT_REPORT_HTML_H
#define PMS_EXPORT_REPORT_HTML_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "aggregate/hist.h"
#include "util/strbuf.h"

/* What the summary says; strings may be NULL (shown as "unknown"). */
struct pms_report_html_summary {
	const char *file;          /* input path as given */
	const char *command;       /* recorded command line (HEADER_CMDLINE, joined) */
	const char *hostname;
	const char *os_release;
	const char *perf_version;  /* the recorder's version string */
	const char *events;        /* event names, comma separated */
	uint64_t samples;          /* SAMPLE records read (report --json summary.samples) */
	uint64_t lost_samples, lost_events;
	uint64_t unresolved;       /* samples whose sampled IP has no symbol */
	uint64_t filtered;         /* samples dropped or hidden by filters */
	uint64_t time_first_ns, time_last_ns; /* duration = last - first; 0 0 when unknown */
	const char *damage;        /* the file is damaged: what and where (the page is partial); NULL if whole */
};

/* A function's annotation for the top table: clicking its row shows the text. */
struct pms_report_html_annotation {
	size_t attr_idx;           /* the event's table */
	const char *sym, *dso;     /* as the hist entry names them */
	const char *text;          /* the annotate --stdio text */
};

struct pms_report_html_opts {
	size_t sz;                               /* sizeof(struct pms_report_html_opts) */
	const struct pms_report_html_summary *summary;
	const struct pms_hist *funcs;            /* the report's hist (finished) */
	const enum pms_sort_key *keys;           /* its sort keys: the table's columns */
	size_t nr_keys;
	bool children;                           /* funcs has children weights */
	const struct pms_hist *procs;            /* keyed by pid; NULL: no section */
	const struct pms_hist *threads;          /* keyed by pid,tid; NULL: no section */
	size_t limit;                            /* rows per table; 0 = 50 */
	double percent_limit;                    /* hide rows below this share */
	const char *flame_note;                  /* one line said above the flame graph (escaped); may be NULL */
	const struct pms_report_html_annotation *annotations; /* rows that open their annotation */
	size_t nr_annotations;
};

/* Append the sections. 0, -EINVAL (bad opts), -ENOMEM. */
int pms_report_html__preamble(const struct pms_report_html_opts *opts, struct strbuf *out);

/* Append s with &, <, >, " and ' as entities (safe in text and quoted attributes). NULL -> nothing. */
void pms_html__escape(struct strbuf *out, const char *s);

#endif
