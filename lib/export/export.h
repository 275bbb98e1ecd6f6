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

/* "samples" or "period" (--weight): 0, or -EINVAL for another name. */
int pms_export_weight__parse(const char *name, enum pms_export_weight *out);

/* "comm;main;work;leaf 12\n", one space, integer counts, ';' in names replaced by ':'. */
int pms_export__folded(const struct pms_stacks *st, enum pms_export_weight w, struct strbuf *out);

/*
 * gzipped profile.proto: sample_type [samples/count, <event>/<period unit>],
 * dense ids 1..N for mappings, functions and locations (Parca's rule),
 * string_table[0] = "", leaf-first location ids.
 */
int pms_export__pprof(const struct pms_stacks *st, struct strbuf *out);

/* A pprof sample label: a string (str) or a number (num, str NULL). */
struct pms_pprof_label {
	const char *key;
	const char *str;
	int64_t num;
};
/*
 * More labels for the samples of process pid (a PROCESS frame of the tree):
 * fills at most max, returns how many. Strings must stay valid until the
 * export returns.
 */
typedef size_t (*pms_pprof_labels_fn)(void *arg, uint32_t pid, const char *comm,
				      struct pms_pprof_label *out, size_t max);
struct pms_pprof_opts {
	size_t sz;                      /* sizeof(struct pms_pprof_opts) */
	pms_pprof_labels_fn process_labels; /* NULL: comm, pid, tid and thread only */
	void *arg;
	uint64_t period;                /* one sample's weight in the period type's unit (ns at a fixed
					   rate: 1e9 / Hz, as Go writes it); 0: left out */
};
/* pms_export__pprof() with options (NULL: the defaults). */
int pms_export__pprof_opts(const struct pms_stacks *st, const struct pms_pprof_opts *opts, struct strbuf *out);

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

/*
 * Every format `export` and `profile -o` write, registered once: a new
 * format is one more entry in lib/export/exporters.c.
 */
struct pms_export_opts {
	size_t sz;                       /* sizeof(struct pms_export_opts) */
	enum pms_export_weight weight;   /* formats with a choice of weight */
	const char *title;               /* flame graphs; NULL: their default */
};

struct pms_exporter {
	const char *name;                /* as --format takes it */
	const char *alias;               /* another spelling, or NULL */
	const char *description;
	enum pms_stacks_root root;       /* the pseudo frames it reads best with (export's --root default) */
	bool binary;                     /* not text (gzip): no terminal */
	/* Sorts the tree first where the format's order depends on it. */
	int (*write)(struct pms_stacks *st, const struct pms_export_opts *opts, struct strbuf *out);
};

/* The exporter called name (or its alias); NULL and errno ENOENT if none. */
const struct pms_exporter *pms_exporter__find(const char *name);
/* The i-th registered exporter, NULL past the last (the first is the default, folded). */
const struct pms_exporter *pms_exporter__at(size_t i);
/* "folded, pprof, ... or svg" for messages and help, into out. */
void pms_exporter__names(struct strbuf *out);

#endif
