/* SPDX-License-Identifier: MIT */
/*
 * Call-graph trees for report entries, kept as one compact node array shared
 * by every tree (no per-node allocation).
 *
 * Invariants:
 *  - Node 0 is never used, so index 0 means "none"; a tree is named by the
 *    index of its root node, whose own frame is empty (frame == UINT32_MAX):
 *    the root only holds the total of every path added under it.
 *  - A node's period/samples are the sums over every path through it, so a
 *    node's value is at least the sum of its children's values.
 *  - Frames are opaque ids (the caller's interned frame table); two nodes
 *    with one parent never share a frame id.
 *  - After pms_cg__sort() every sibling list is in decreasing period order
 *    (ties: by frame id, so output is deterministic).
 */
#ifndef PMS_AGGREGATE_CALLCHAIN_H
#define PMS_AGGREGATE_CALLCHAIN_H

#include <stddef.h>
#include <stdint.h>

struct pms_cg_node {
	uint32_t frame;        /* caller's frame id; UINT32_MAX for a root */
	uint32_t parent;       /* 0 for a root */
	uint32_t first_child;  /* 0: leaf */
	uint32_t next_sibling; /* 0: last */
	uint64_t period;
	uint64_t samples;
};

struct pms_cg {
	struct pms_cg_node *nodes;
	size_t nr, alloc;
};

void pms_cg__init(struct pms_cg *cg);
void pms_cg__release(struct pms_cg *cg);
/* A new empty tree: its root index, or 0 on ENOMEM. */
uint32_t pms_cg__new_root(struct pms_cg *cg);
/*
 * Add one path (frames[0] first below the root) with its weight.
 * 0 or -ENOMEM (the tree then holds a prefix of the path).
 */
int pms_cg__add_path(struct pms_cg *cg, uint32_t root, const uint32_t *frames, size_t nr,
		     uint64_t period, uint64_t samples);
/* Sort every sibling list of every tree by decreasing period. */
void pms_cg__sort(struct pms_cg *cg);

static inline const struct pms_cg_node *pms_cg__node(const struct pms_cg *cg, uint32_t idx)
{
	return idx && idx < cg->nr ? &cg->nodes[idx] : NULL;
}

#endif
