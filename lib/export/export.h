/* SPDX-License-Identifier: MIT */
/*
 * Profile exports from a stacks tree (aggregate/stacks.h) into a caller's
 * buffer: what `export`, `flamegraph`, `report --html` and `diff` write.
 * Format facts and the readers that check them: docs/export.md.
 *
 * Invariants:
 *  - Output goes to out (binary-safe: pprof is gzip); nothing is printed,
 *    nothing is written to a file here. 0 or -errno (ENOMEM; EINVAL for bad
 *    options; EIO from zlib).
 *  - The tree is read only (sort it first if the order matters).
 *  - Weights are integers: samples, or the summed period (ns for cpu-clock).
 */
#ifndef PMS_EXPORT_EXPORT_H
#define PMS_EXPORT_EXPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "aggregate/stacks.h"
#include "util/strbuf.h"

enum pms_export_weight {
	PMS_WEIGHT_SAMPLES,
	PMS_WEIGHT_PERIOD,
};

/* "comm;main;work;leaf 12\n", one space, integer counts, ';' in names replaced by ':'. */
int pms_export__folded(const struct pms_stacks *st, enum pms_export_weight w, struct strbuf *out);

/*
 * gzipped profile.proto: sample_type [samples/count, <event>/<period unit>],
 * dense ids 1..N for mappings, functions and locations (Parca's rule),
 * string_table[0] = "", leaf-first location ids.
 */
int pms_export__pprof(const struct pms_stacks *st, struct strbuf *out);

/* speedscope file format, one "sampled" profile per process (or one in all), shared frames. */
int pms_export__speedscope(const struct pms_stacks *st, enum pms_export_weight w,
			   struct strbuf *out);

/* Chrome trace event JSON ("X" events laid out as a flame chart per thread; pid and tid on each). */
int pms_export__chrome(const struct pms_stacks *st, enum pms_export_weight w, struct strbuf *out);

/* pmuscope's own JSON (schema "pmuscope-stacks/1": frames table and nested nodes). */
int pms_export__json(const struct pms_stacks *st, struct strbuf *out);

struct pms_flamegraph_opts {
	size_t sz;                       /* sizeof(struct pms_flamegraph_opts) */
	const char *title;               /* NULL: "Flame Graph" */
	const char *subtitle;            /* NULL: built from meta (event, samples, command) */
	enum pms_export_weight weight;
	bool icicle;                     /* start as an icicle (top-down); the page can toggle */
	double min_width_fraction;       /* merge frames narrower than this share into their parent's
					    "(merged)" child; 0 = 1/20000 (keeps 100k-stack pages small) */
	const struct pms_stacks *base;   /* diff: colour each frame by its share change vs base
					    (red grew, blue shrank); NULL = plain */
	const char *preamble_html;       /* trusted HTML put above the graph (report --html: summary
					    and tables); NULL = none */
};

/* One self-contained HTML page (inline JS/CSS, no network): zoom, search, tooltips, icicle toggle. */
int pms_flamegraph__html(const struct pms_stacks *st, const struct pms_flamegraph_opts *opts,
			 struct strbuf *out);
/* Static SVG of the same layout (no script needed to view it). */
int pms_flamegraph__svg(const struct pms_stacks *st, const struct pms_flamegraph_opts *opts,
			struct strbuf *out);

#endif
