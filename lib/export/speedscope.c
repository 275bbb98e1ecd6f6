// SPDX-License-Identifier: MIT
// speedscope file format: "sampled" profiles (one per process when the tree has process roots) over one shared frame table.
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export/export.h"
#include "util/array.h"
#include "util/json.h"

/* A THREAD pseudo frame becomes a real speedscope frame (threads are not profiles here). */
static bool shown(const struct pms_stack_frame *f)
{
	return f->kind != PMS_STACK_PROCESS;
}

static void frame_json(struct pms_json *j, const struct pms_stack_frame *f)
{
	char buf[512];

	pms_json__obj(j, NULL);
	if (f->kind == PMS_STACK_THREAD) {
		snprintf(buf, sizeof(buf), "%s (tid %" PRIu32 ")", f->name ? f->name : "?", f->tid);
		pms_json__str(j, "name", buf);
	} else {
		pms_json__str(j, "name", f->name ? f->name : "[unknown]");
	}
	/* the source file when known, else the object: speedscope shows "file" as the frame's place */
	if (f->file) {
		pms_json__str(j, "file", f->file);
		if (f->line)
			pms_json__uint(j, "line", f->line);
	} else if (f->dso) {
		pms_json__str(j, "file", f->dso);
	}
	pms_json__end(j);
}

struct profile_ctx {
	const struct pms_stack_node *n;
	const struct pms_stack_frame *f;
	const uint32_t *shared; /* frame id -> shared index */
	enum pms_export_weight w;
	uint32_t *stack;        /* scratch: shared frame indices leaf first */
	size_t stack_cap;
};

static uint64_t self_w(const struct profile_ctx *c, uint32_t node)
{
	return c->w == PMS_WEIGHT_SAMPLES ? c->n[node].self_samples : c->n[node].self_period;
}

static uint64_t total_w(const struct profile_ctx *c, uint32_t node)
{
	return c->w == PMS_WEIGHT_SAMPLES ? c->n[node].total_samples : c->n[node].total_period;
}

/* Next node of the subtree under top in pre-order, 0 at the end. */
static uint32_t next_in(const struct pms_stack_node *n, uint32_t node, uint32_t top)
{
	if (n[node].first_child)
		return n[node].first_child;
	while (node != top && !n[node].next_sibling)
		node = n[node].parent;
	return node == top ? 0 : n[node].next_sibling;
}

/*
 * The samples and weights of the subtrees of the given first-level nodes.
 * Samples are written root first; weights in the same order.
 */
static int emit_profile(struct pms_json *j, struct profile_ctx *c, const char *name, const uint32_t *tops,
			size_t nr_tops, const char *unit)
{
	uint64_t total = 0;

	for (size_t t = 0; t < nr_tops; t++)
		total += total_w(c, tops[t]);
	pms_json__obj(j, NULL);
	pms_json__str(j, "type", "sampled");
	pms_json__str(j, "name", name);
	pms_json__str(j, "unit", unit);
	pms_json__uint(j, "startValue", 0);
	pms_json__uint(j, "endValue", total);
	for (int pass = 0; pass < 2; pass++) {
		pms_json__arr(j, pass ? "weights" : "samples");
		for (size_t t = 0; t < nr_tops; t++) {
			uint32_t node = tops[t];

			/* a top is a PROCESS node (not a frame) or a frame node: walk its subtree */
			for (; node; node = next_in(c->n, node, tops[t])) {
				size_t depth = 0;

				if (!self_w(c, node))
					continue;
				if (pass) {
					pms_json__uint(j, NULL, self_w(c, node));
					continue;
				}
				for (uint32_t k = node; k; k = c->n[k].parent) {
					if (!shown(&c->f[c->n[k].frame]))
						continue;
					if (pms_array__reserve(&c->stack, &c->stack_cap, depth + 1, sizeof(*c->stack)))
						return -ENOMEM;
					c->stack[depth++] = c->shared[c->n[k].frame];
				}
				pms_json__arr(j, NULL);
				while (depth--)
					pms_json__uint(j, NULL, c->stack[depth]);
				pms_json__end(j);
			}
		}
		pms_json__end(j);
	}
	pms_json__end(j);
	return 0;
}

int pms_export__speedscope(const struct pms_stacks *st, enum pms_export_weight w, struct strbuf *out)
{
	const struct pms_stacks_meta *meta = pms_stacks__meta(st);
	size_t nn, nf, nr_other = 0, nr_shared = 0;
	const struct pms_stack_node *n = pms_stacks__nodes(st, &nn);
	const struct pms_stack_frame *f = pms_stacks__frames(st, &nf);
	struct profile_ctx c = { .n = n, .f = f, .w = w };
	uint32_t *shared, *other;
	const char *unit = "none";
	struct pms_json j;
	bool procs = false;
	int err = 0;
	char name[512];

	if (w != PMS_WEIGHT_SAMPLES && w != PMS_WEIGHT_PERIOD)
		return -EINVAL;
	/* speedscope's units are time or bytes: an event count has none */
	if (w == PMS_WEIGHT_PERIOD && meta->period_unit && !strcmp(meta->period_unit, "nanoseconds"))
		unit = "nanoseconds";
	shared = calloc(nf ? nf : 1, sizeof(*shared));
	other = calloc(nn, sizeof(*other));
	if (!shared || !other) {
		free(shared);
		free(other);
		return -ENOMEM;
	}
	c.shared = shared;
	pms_json__init(&j, out, false);
	pms_json__obj(&j, NULL);
	pms_json__str(&j, "$schema", "https://www.speedscope.app/file-format-schema.json");
	pms_json__obj(&j, "shared");
	pms_json__arr(&j, "frames");
	for (size_t i = 0; i < nf; i++) {
		if (!shown(&f[i]))
			continue;
		shared[i] = (uint32_t)nr_shared++;
		frame_json(&j, &f[i]);
	}
	pms_json__end(&j);
	pms_json__end(&j);
	pms_json__arr(&j, "profiles");
	for (uint32_t c1 = n[0].first_child; c1; c1 = n[c1].next_sibling) {
		if (f[n[c1].frame].kind == PMS_STACK_PROCESS) {
			const struct pms_stack_frame *p = &f[n[c1].frame];

			procs = true;
			if (p->pid)
				snprintf(name, sizeof(name), "%s (pid %" PRIu32 ")", p->name, p->pid);
			else
				snprintf(name, sizeof(name), "%s", p->name);
			if ((err = emit_profile(&j, &c, name, &c1, 1, unit)))
				break;
		} else {
			other[nr_other++] = c1;
		}
	}
	if (!err && (nr_other || !procs)) {
		snprintf(name, sizeof(name), "%s%s", procs ? "other: " : "",
			 meta->command ? meta->command : meta->event ? meta->event : "pmuscope");
		err = emit_profile(&j, &c, name, other, nr_other, unit);
	}
	pms_json__end(&j);
	pms_json__str(&j, "name", meta->command ? meta->command : "pmuscope export");
	pms_json__uint(&j, "activeProfileIndex", 0);
	pms_json__str(&j, "exporter", "pmuscope");
	pms_json__end(&j);
	pms_json__finish(&j);
	free(shared);
	free(other);
	free(c.stack);
	if (err)
		return err;
	return out->oom ? -ENOMEM : 0;
}
