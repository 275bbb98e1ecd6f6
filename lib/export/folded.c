// SPDX-License-Identifier: MIT
// Folded (collapsed) stacks: one "root;...;leaf COUNT" line per distinct stack, the input of flamegraph.pl, speedscope and Pyroscope.
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "export/export.h"
#include "util/array.h"

/*
 * A frame's name as one folded field: ';' would split it and a newline end
 * the line, so they become ':' and ' ' (stackcollapse's --tidy-generic
 * choice); pseudo frames read "comm-PID" and "comm-PID/TID" like
 * stackcollapse-perf.pl's --pid/--tid.
 */
static void add_field(struct strbuf *out, const struct pms_stack_frame *f)
{
	size_t start = out->len;

	strbuf_adds(out, f->name ? f->name : "[unknown]");
	if (f->kind == PMS_STACK_PROCESS && f->pid)
		strbuf_addf(out, "-%" PRIu32, f->pid);
	else if (f->kind == PMS_STACK_THREAD)
		strbuf_addf(out, "-%" PRIu32 "/%" PRIu32, f->pid, f->tid);
	if (out->oom)
		return;
	for (size_t i = start; i < out->len; i++) {
		if (out->buf[i] == ';')
			out->buf[i] = ':';
		else if (out->buf[i] == '\n' || out->buf[i] == '\r')
			out->buf[i] = ' ';
	}
}

int pms_export__folded(const struct pms_stacks *st, enum pms_export_weight w, struct strbuf *out)
{
	size_t nn, nf, depth_cap = 64;
	const struct pms_stack_node *n = pms_stacks__nodes(st, &nn);
	const struct pms_stack_frame *f = pms_stacks__frames(st, &nf);
	struct strbuf line = STRBUF_INIT;
	size_t *mark; /* line length before each depth's field */
	uint32_t node;

	if (w != PMS_WEIGHT_SAMPLES && w != PMS_WEIGHT_PERIOD)
		return -EINVAL;
	mark = malloc(depth_cap * sizeof(*mark));
	if (!mark)
		return -ENOMEM;
	/* depth-first, in child order, without recursion: stacks may be deep */
	node = nn > 1 ? n[0].first_child : 0;
	while (node) {
		uint64_t self = w == PMS_WEIGHT_SAMPLES ? n[node].self_samples : n[node].self_period;
		size_t d = n[node].depth;

		if (d >= depth_cap && pms_array__reserve(&mark, &depth_cap, d + 1, sizeof(*mark))) {
			free(mark);
			strbuf_release(&line);
			return -ENOMEM;
		}
		line.len = d > 1 ? mark[d - 1] : 0;
		if (line.buf)
			line.buf[line.len] = '\0';
		if (d > 1)
			strbuf_addch(&line, ';');
		add_field(&line, &f[n[node].frame]);
		mark[d] = line.len;
		if (self) {
			strbuf_add(out, line.buf, line.len);
			strbuf_addf(out, " %" PRIu64 "\n", self);
		}
		/* next in pre-order: first child, else the next sibling of the nearest ancestor */
		if (n[node].first_child) {
			node = n[node].first_child;
			continue;
		}
		while (node && !n[node].next_sibling)
			node = n[node].parent;
		if (node)
			node = n[node].next_sibling;
	}
	free(mark);
	if (line.oom) {
		strbuf_release(&line);
		return -ENOMEM;
	}
	strbuf_release(&line);
	return out->oom ? -ENOMEM : 0;
}
