/* SPDX-License-Identifier: MIT */
/*
 * Per-function comparison of two profiles (stacks trees): what `pmuscope
 * diff` prints, as numbers a caller can sort, limit and render.
 *
 * Invariants:
 *  - A function is identified by its name and the base name of its object
 *    ("alpha" in "pms-shares"), so two builds of a program in different
 *    directories still match; unresolved frames of one object are merged
 *    into one "[unknown]" row of that object (their addresses move between
 *    runs with ASLR, so they could never match by address).
 *  - Shares are percents of each tree's root total (the same weight in both:
 *    period or samples). self = weight where the function is the leaf; total
 *    ("children") = weight of the samples with the function anywhere on
 *    their stack, counted once per sample even when it recurses. Deltas are
 *    new minus base, in points.
 *  - Pseudo frames (PROCESS/THREAD roots) are not functions and are skipped.
 *  - Rows borrow their strings from the trees: both must outlive the diff.
 */
#ifndef PMS_EXPORT_DIFF_H
#define PMS_EXPORT_DIFF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "aggregate/stacks.h"
#include "export/export.h"
#include "util/strbuf.h"

enum pms_diff_sort {
	PMS_DIFF_BY_TOTAL, /* |delta of total share| descending */
	PMS_DIFF_BY_SELF,  /* |delta of self share| descending */
};

struct pms_diff_opts {
	size_t sz;                     /* sizeof(struct pms_diff_opts) */
	enum pms_export_weight weight; /* SAMPLES or PERIOD (report's percentages are of period) */
	enum pms_diff_sort sort;
};

struct pms_diff_side {
	uint64_t self_w, total_w;      /* raw weights */
	double self, total;            /* percent of the tree's root total */
};

struct pms_diff_row {
	const char *name;              /* function name; "[unknown]" for unresolved frames */
	const char *dso;               /* object base name; "" when the frame had none */
	enum pms_stack_kind kind;      /* of the first frame seen (USER, KERNEL, JIT...) */
	bool in_base, in_new;          /* has weight on that side (one false: new or gone) */
	struct pms_diff_side base, new_;
	double delta_self, delta_total; /* new - base, points */
};

struct pms_diff {
	struct pms_diff_row *rows;     /* sorted by opts.sort; ties: larger share, then name */
	size_t nr_rows;
	uint64_t base_total, new_total; /* root totals in the chosen weight */
	enum pms_export_weight weight;
	enum pms_diff_sort sort;
};

/* 0, -EINVAL (bad opts), -ENOMEM. opts may be NULL (period, by total). */
int pms_diff__new(struct pms_diff **out, const struct pms_stacks *base, const struct pms_stacks *new_,
		  const struct pms_diff_opts *opts);
void pms_diff__free(struct pms_diff *d);

/* The row's share and delta for the diff's sort column. */
double pms_diff_row__delta(const struct pms_diff *d, const struct pms_diff_row *r);

/* "grew" / "shrank" / "new" / "gone" / "same" (|delta| < 0.005 points). */
const char *pms_diff_row__change(const struct pms_diff *d, const struct pms_diff_row *r);

#endif
