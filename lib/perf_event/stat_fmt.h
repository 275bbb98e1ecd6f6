/* SPDX-License-Identifier: MIT */
/*
 * One row of `stat` output rendered three ways: perf's human table line,
 * a separator-delimited (CSV) line, and a JSON object. Pure functions over
 * already-scaled numbers so the layout is unit tested without a kernel.
 *
 * Invariants: human lines follow perf 6.1's column widths (value 18, unit 4,
 * name 32 (25 when not counted), metric 35) with trailing blanks trimmed;
 * CSV columns are value, unit, event, [variance,] run time, run %, metric
 * value, metric unit, with fields quoted RFC-4180 style when they contain
 * the separator or a quote; JSON numbers are numbers (non-finite -> null).
 */
#ifndef PMS_PERF_EVENT_STAT_FMT_H
#define PMS_PERF_EVENT_STAT_FMT_H

#include <stdbool.h>
#include <stdint.h>

#include "perf_event/counter.h"
#include "util/strbuf.h"

enum pms_stat_row_state {
	PMS_ROW_COUNTED,
	PMS_ROW_NOT_COUNTED,    /* opened, but never ran (time_running 0) */
	PMS_ROW_NOT_SUPPORTED,  /* did not open here */
};

struct pms_stat_row {
	const char *name;
	const char *unit;         /* "" if none */
	double scale;             /* display value = value * scale */
	enum pms_stat_row_state state;
	double value;             /* count after multiplexing scaling */
	uint64_t ena, run;        /* ns */
	struct pms_metric metric; /* .valid false if none */
	bool has_noise;           /* -r: show the variance */
	double noise_pct;
	const char *reason;       /* not supported: why (JSON only), or NULL */
	const char *thousands_sep; /* human value grouped by thousands with this (perf -B), or NULL */
	const char *cgroup;       /* perf stat -G: the event's cgroup, a column after the name; or NULL */
};

/* perf's "<not counted>" / "<not supported>" */
const char *pms_stat_row__state_str(enum pms_stat_row_state s);

/* Human line without prefix and without the trailing newline. */
void pms_stat_row__human(const struct pms_stat_row *r, struct strbuf *out);
/* CSV fields joined by sep, no prefix, no newline. */
void pms_stat_row__csv(const struct pms_stat_row *r, const char *sep, struct strbuf *out);
/*
 * The row's members, written into the object the caller has open in j (so
 * it can add its own, such as "cpu", after them).
 */
struct pms_json;
void pms_stat_row__json(const struct pms_stat_row *r, struct pms_json *j);

/* Append one CSV field, quoted when it holds sep, '"' or a newline. */
void pms_csv__field(struct strbuf *out, const char *s, const char *sep);

/* perf's "-r" elapsed precision: 2 digits more than the stddev's first one. */
int pms_stat__elapsed_precision(double stddev_s);

#endif
