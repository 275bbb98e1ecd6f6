// SPDX-License-Identifier: MIT
// Per-function self and total shares of two stacks trees and their deltas (pmuscope diff).
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "export/diff.h"
#include "util/array.h"
#include "util/hash.h"
#include "util/idtab.h"

#define NO_ROW UINT32_MAX

struct builder {
	struct pms_diff *d;
	size_t alloc;
	struct pms_idtab rows_by_key; /* (name, dso) -> row */
};

static const char *base_name(const char *dso)
{
	const char *b;

	if (!dso)
		return "";
	b = strrchr(dso, '/');
	return b && b[1] ? b + 1 : dso;
}

static uint32_t hash_key(const char *name, const char *dso)
{
	/* a separator byte: ("ab","c") != ("a","bc") */
	uint64_t h = pms_hash__bytes(pms_hash__str(PMS_HASH_SEED, name), "\xff", 1);

	h = pms_hash__str(h, dso);
	return (uint32_t)(h ^ (h >> 29));
}

/* The row of (name, dso base name), created on first sight; NO_ROW on ENOMEM. */
static uint32_t row_of(struct builder *b, const char *name, const char *dso, enum pms_stack_kind kind)
{
	struct pms_idtab *t = &b->rows_by_key;
	uint32_t h = hash_key(name, dso);
	size_t j;

	if (pms_idtab__reserve(t))
		return NO_ROW;
	for (j = pms_idtab__start(t, h); pms_idtab__used(t, j); j = pms_idtab__next(t, j)) {
		const struct pms_diff_row *r = &b->d->rows[pms_idtab__id(t, j)];

		if (pms_idtab__hash(t, j) == h && !strcmp(r->name, name) && !strcmp(r->dso, dso))
			return pms_idtab__id(t, j);
	}
	if (pms_array__reserve(&b->d->rows, &b->alloc, b->d->nr_rows + 1, sizeof(*b->d->rows)))
		return NO_ROW;
	memset(&b->d->rows[b->d->nr_rows], 0, sizeof(b->d->rows[0]));
	b->d->rows[b->d->nr_rows].name = name;
	b->d->rows[b->d->nr_rows].dso = dso;
	b->d->rows[b->d->nr_rows].kind = kind;
	pms_idtab__set(t, j, h, (uint32_t)b->d->nr_rows);
	return (uint32_t)b->d->nr_rows++;
}

static uint64_t w_self(const struct pms_stack_node *n, enum pms_export_weight w)
{
	return w == PMS_WEIGHT_PERIOD ? n->self_period : n->self_samples;
}

static uint64_t w_total(const struct pms_stack_node *n, enum pms_export_weight w)
{
	return w == PMS_WEIGHT_PERIOD ? n->total_period : n->total_samples;
}

/* Add one tree's weights into side is_new of the rows. */
static int add_tree(struct builder *b, const struct pms_stacks *st, bool is_new, uint64_t *root_total)
{
	size_t nr_frames = 0, nr_nodes = 0;
	const struct pms_stack_frame *frames = pms_stacks__frames(st, &nr_frames);
	const struct pms_stack_node *nodes = pms_stacks__nodes(st, &nr_nodes);
	enum pms_export_weight w = b->d->weight;
	uint32_t *map = NULL, *active = NULL;
	int err = -ENOMEM;
	uint32_t n;

	*root_total = nr_nodes ? w_total(&nodes[0], w) : 0;
	if (!nr_nodes)
		return 0;
	map = malloc((nr_frames ? nr_frames : 1) * sizeof(*map));
	if (!map)
		goto out;
	for (size_t f = 0; f < nr_frames; f++) {
		const struct pms_stack_frame *fr = &frames[f];

		if (fr->kind == PMS_STACK_PROCESS || fr->kind == PMS_STACK_THREAD) {
			map[f] = NO_ROW;
			continue;
		}
		map[f] = row_of(b, fr->kind == PMS_STACK_UNKNOWN || !fr->name ? "[unknown]" : fr->name,
				base_name(fr->dso), fr->kind);
		if (map[f] == NO_ROW)
			goto out;
	}
	/* how many nodes on the current path name each row: total counts the outermost only */
	active = calloc(b->d->nr_rows ? b->d->nr_rows : 1, sizeof(*active));
	if (!active)
		goto out;
	n = nodes[0].first_child;
	while (n && n < nr_nodes) {
		const struct pms_stack_node *x = &nodes[n];
		uint32_t r = x->frame < nr_frames ? map[x->frame] : NO_ROW;

		if (r != NO_ROW) {
			struct pms_diff_side *side = is_new ? &b->d->rows[r].new_ : &b->d->rows[r].base;

			side->self_w += w_self(x, w);
			if (active[r]++ == 0)
				side->total_w += w_total(x, w);
		}
		if (x->first_child) {
			n = x->first_child;
			continue;
		}
		/* leave n and every ancestor that has no next sibling */
		for (;;) {
			const struct pms_stack_node *y = &nodes[n];
			uint32_t ry = y->frame < nr_frames ? map[y->frame] : NO_ROW;

			if (ry != NO_ROW)
				active[ry]--;
			if (y->next_sibling) {
				n = y->next_sibling;
				break;
			}
			n = y->parent;
			if (!n)
				break;
		}
	}
	err = 0;
out:
	free(map);
	free(active);
	return err;
}

static double share(uint64_t w, uint64_t total)
{
	return total ? 100.0 * (double)w / (double)total : 0.0;
}

double pms_diff_row__delta(const struct pms_diff *d, const struct pms_diff_row *r)
{
	return d->sort == PMS_DIFF_BY_SELF ? r->delta_self : r->delta_total;
}

const char *pms_diff_row__change(const struct pms_diff *d, const struct pms_diff_row *r)
{
	double x = pms_diff_row__delta(d, r);

	if (!r->in_base)
		return "new";
	if (!r->in_new)
		return "gone";
	if (fabs(x) < 0.005)
		return "same";
	return x > 0 ? "grew" : "shrank";
}

static double peak(const struct pms_diff_row *r, bool self)
{
	double a = self ? r->base.self : r->base.total, b = self ? r->new_.self : r->new_.total;

	return a > b ? a : b;
}

static int cmp_rows(const struct pms_diff_row *a, const struct pms_diff_row *b, bool self)
{
	double da = fabs(self ? a->delta_self : a->delta_total), db = fabs(self ? b->delta_self : b->delta_total);
	double pa, pb;
	int c;

	if (da != db)
		return da > db ? -1 : 1;
	pa = peak(a, self);
	pb = peak(b, self);
	if (pa != pb)
		return pa > pb ? -1 : 1;
	c = strcmp(a->name, b->name);
	return c ? c : strcmp(a->dso, b->dso);
}

static int cmp_total(const void *a, const void *b)
{
	return cmp_rows(a, b, false);
}

static int cmp_self(const void *a, const void *b)
{
	return cmp_rows(a, b, true);
}

int pms_diff__new(struct pms_diff **out, const struct pms_stacks *base, const struct pms_stacks *new_,
		  const struct pms_diff_opts *opts)
{
	struct builder b = { .d = NULL };
	size_t keep = 0;
	int err;

	*out = NULL;
	if (!base || !new_ || (opts && (opts->sz < sizeof(*opts) || opts->weight > PMS_WEIGHT_PERIOD ||
					opts->sort > PMS_DIFF_BY_SELF)))
		return -EINVAL;
	b.d = calloc(1, sizeof(*b.d));
	if (!b.d)
		return -ENOMEM;
	b.d->weight = opts ? opts->weight : PMS_WEIGHT_PERIOD;
	b.d->sort = opts ? opts->sort : PMS_DIFF_BY_TOTAL;
	err = add_tree(&b, base, false, &b.d->base_total);
	if (!err)
		err = add_tree(&b, new_, true, &b.d->new_total);
	pms_idtab__release(&b.rows_by_key);
	if (err) {
		pms_diff__free(b.d);
		return err;
	}
	for (size_t i = 0; i < b.d->nr_rows; i++) {
		struct pms_diff_row *r = &b.d->rows[i];

		r->in_base = r->base.total_w > 0;
		r->in_new = r->new_.total_w > 0;
		if (!r->in_base && !r->in_new)
			continue; /* interned but never weighed */
		r->base.self = share(r->base.self_w, b.d->base_total);
		r->base.total = share(r->base.total_w, b.d->base_total);
		r->new_.self = share(r->new_.self_w, b.d->new_total);
		r->new_.total = share(r->new_.total_w, b.d->new_total);
		r->delta_self = r->new_.self - r->base.self;
		r->delta_total = r->new_.total - r->base.total;
		b.d->rows[keep++] = *r;
	}
	b.d->nr_rows = keep;
	if (keep)
		qsort(b.d->rows, keep, sizeof(b.d->rows[0]), b.d->sort == PMS_DIFF_BY_SELF ? cmp_self : cmp_total);
	*out = b.d;
	return 0;
}

void pms_diff__free(struct pms_diff *d)
{
	if (!d)
		return;
	free(d->rows);
	free(d);
}
