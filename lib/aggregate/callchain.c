// SPDX-License-Identifier: MIT
// Call-graph trees in one node array: paths added by frame id, siblings sorted by weight at the end.
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "aggregate/callchain.h"
#include "util/array.h"

void pms_cg__init(struct pms_cg *cg)
{
	memset(cg, 0, sizeof(*cg));
}

void pms_cg__release(struct pms_cg *cg)
{
	if (!cg)
		return;
	free(cg->nodes);
	memset(cg, 0, sizeof(*cg));
}

static uint32_t new_node(struct pms_cg *cg, uint32_t frame, uint32_t parent)
{
	struct pms_cg_node *n;

	if (cg->nr == 0)
		cg->nr = 1; /* index 0 stays unused: it means "none" */
	if (cg->nr >= UINT32_MAX - 1)
		return 0;
	if (cg->nr >= cg->alloc && pms_array__reserve(&cg->nodes, &cg->alloc, cg->nr + 1, sizeof(*cg->nodes)))
		return 0;
	n = &cg->nodes[cg->nr];
	memset(n, 0, sizeof(*n));
	n->frame = frame;
	n->parent = parent;
	return (uint32_t)cg->nr++;
}

uint32_t pms_cg__new_root(struct pms_cg *cg)
{
	return new_node(cg, UINT32_MAX, 0);
}

int pms_cg__add_path(struct pms_cg *cg, uint32_t root, const uint32_t *frames, size_t nr,
		     uint64_t period, uint64_t samples)
{
	uint32_t cur = root;

	if (!root || root >= cg->nr)
		return -EINVAL;
	cg->nodes[root].period += period;
	cg->nodes[root].samples += samples;
	for (size_t i = 0; i < nr; i++) {
		uint32_t prev = 0, c = cg->nodes[cur].first_child;

		while (c && cg->nodes[c].frame != frames[i]) {
			prev = c;
			c = cg->nodes[c].next_sibling;
		}
		if (c && prev) {
			/* move to front: hot paths are found after one step next time */
			cg->nodes[prev].next_sibling = cg->nodes[c].next_sibling;
			cg->nodes[c].next_sibling = cg->nodes[cur].first_child;
			cg->nodes[cur].first_child = c;
		} else if (!c) {
			c = new_node(cg, frames[i], cur); /* may move cg->nodes */
			if (!c)
				return -ENOMEM;
			cg->nodes[c].next_sibling = cg->nodes[cur].first_child;
			cg->nodes[cur].first_child = c;
		}
		cg->nodes[c].period += period;
		cg->nodes[c].samples += samples;
		cur = c;
	}
	return 0;
}

static const struct pms_cg_node *sort_base;

static int cmp_nodes(const void *a, const void *b)
{
	const struct pms_cg_node *x = &sort_base[*(const uint32_t *)a];
	const struct pms_cg_node *y = &sort_base[*(const uint32_t *)b];

	if (x->period != y->period)
		return x->period > y->period ? -1 : 1;
	return x->frame < y->frame ? -1 : x->frame > y->frame;
}

void pms_cg__sort(struct pms_cg *cg)
{
	uint32_t *tmp = NULL;
	size_t tmp_alloc = 0;

	sort_base = cg->nodes;
	for (size_t i = 1; i < cg->nr; i++) {
		size_t n = 0;

		if (!cg->nodes[i].first_child || !cg->nodes[cg->nodes[i].first_child].next_sibling)
			continue;
		for (uint32_t c = cg->nodes[i].first_child; c; c = cg->nodes[c].next_sibling) {
			if (pms_array__reserve(&tmp, &tmp_alloc, n + 1, sizeof(*tmp)))
				goto out; /* unsorted output is still correct output */
			tmp[n++] = c;
		}
		qsort(tmp, n, sizeof(*tmp), cmp_nodes);
		cg->nodes[i].first_child = tmp[0];
		for (size_t k = 0; k + 1 < n; k++)
			cg->nodes[tmp[k]].next_sibling = tmp[k + 1];
		cg->nodes[tmp[n - 1]].next_sibling = 0;
	}
out:
	free(tmp);
}
