// SPDX-License-Identifier: MIT
// Chrome Trace Event JSON: each thread's merged stacks laid out as a flame chart of "X" events, with "M" events naming processes and threads.
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export/export.h"
#include "util/json.h"

/*
 * The chart is not a timeline: a node starts where its previous sibling
 * ends and lasts its total weight. Weights become time exactly, in integer
 * nanoseconds printed as microseconds with three decimals, so a child never
 * sticks out of its parent through rounding: one sample is 1 ms, one
 * period unit 1 ns (cpu-clock periods are nanoseconds already).
 */
#define NS_PER_SAMPLE 1000000ULL

static const char *kind_name(enum pms_stack_kind k)
{
	switch (k) {
	case PMS_STACK_USER: return "user";
	case PMS_STACK_KERNEL: return "kernel";
	case PMS_STACK_JIT: return "jit";
	case PMS_STACK_INLINED: return "inlined";
	case PMS_STACK_UNKNOWN: return "unknown";
	case PMS_STACK_PROCESS: return "process";
	case PMS_STACK_THREAD: return "thread";
	}
	return "unknown";
}

static void us(struct pms_json *j, const char *key, uint64_t ns)
{
	char buf[48];
	int len = snprintf(buf, sizeof(buf), "%" PRIu64 ".%03" PRIu64, ns / 1000, ns % 1000);

	pms_json__raw(j, key, buf, (size_t)len);
}

struct chrome {
	struct pms_json j;
	const struct pms_stack_node *n;
	const struct pms_stack_frame *f;
	enum pms_export_weight w;
	uint64_t *start; /* per node, ns */
};

static uint64_t total_ns(const struct chrome *c, uint32_t node)
{
	return c->w == PMS_WEIGHT_SAMPLES ? c->n[node].total_samples * NS_PER_SAMPLE : c->n[node].total_period;
}

static void meta_event(struct chrome *c, const char *what, const char *name, uint32_t pid, uint32_t tid)
{
	pms_json__obj(&c->j, NULL);
	pms_json__str(&c->j, "name", what);
	pms_json__str(&c->j, "ph", "M");
	pms_json__uint(&c->j, "pid", pid);
	pms_json__uint(&c->j, "tid", tid);
	pms_json__obj(&c->j, "args");
	pms_json__str(&c->j, "name", name);
	pms_json__end(&c->j);
	pms_json__end(&c->j);
}

static bool pseudo(const struct pms_stack_frame *f)
{
	return f->kind == PMS_STACK_PROCESS || f->kind == PMS_STACK_THREAD;
}

/* The frame children of parent (pseudo frames skipped) and their subtrees as one track. */
static void track(struct chrome *c, uint32_t parent, uint32_t pid, uint32_t tid)
{
	uint64_t at = 0;

	for (uint32_t top = c->n[parent].first_child; top; top = c->n[top].next_sibling) {
		uint32_t node = top;

		if (pseudo(&c->f[c->n[top].frame]))
			continue;
		c->start[top] = at;
		at += total_ns(c, top);
		while (node) {
			const struct pms_stack_frame *f = &c->f[c->n[node].frame];
			uint64_t s = c->start[node], d = total_ns(c, node);

			for (uint32_t ch = c->n[node].first_child; ch; ch = c->n[ch].next_sibling) {
				c->start[ch] = s;
				s += total_ns(c, ch);
			}
			if (d) {
				pms_json__obj(&c->j, NULL);
				pms_json__str(&c->j, "name", f->name);
				pms_json__str(&c->j, "cat", kind_name(f->kind));
				pms_json__str(&c->j, "ph", "X");
				us(&c->j, "ts", c->start[node]);
				us(&c->j, "dur", d);
				pms_json__uint(&c->j, "pid", pid);
				pms_json__uint(&c->j, "tid", tid);
				pms_json__obj(&c->j, "args");
				if (f->dso)
					pms_json__str(&c->j, "dso", f->dso);
				if (f->file) {
					pms_json__str(&c->j, "file", f->file);
					pms_json__uint(&c->j, "line", f->line);
				}
				pms_json__uint(&c->j, "samples", c->n[node].total_samples);
				pms_json__uint(&c->j, "self_samples", c->n[node].self_samples);
				pms_json__uint(&c->j, "period", c->n[node].total_period);
				pms_json__end(&c->j);
				pms_json__end(&c->j);
			}
			/* pre-order within this top's subtree */
			if (c->n[node].first_child) {
				node = c->n[node].first_child;
				continue;
			}
			while (node != top && !c->n[node].next_sibling)
				node = c->n[node].parent;
			node = node == top ? 0 : c->n[node].next_sibling;
		}
	}
}

int pms_export__chrome(const struct pms_stacks *st, enum pms_export_weight w, struct strbuf *out)
{
	const struct pms_stacks_meta *meta = pms_stacks__meta(st);
	size_t nn, nf;
	struct chrome c = { .w = w };
	uint32_t synth = 0;
	bool real_pids = false, others = false;

	if (w != PMS_WEIGHT_SAMPLES && w != PMS_WEIGHT_PERIOD)
		return -EINVAL;
	c.n = pms_stacks__nodes(st, &nn);
	c.f = pms_stacks__frames(st, &nf);
	c.start = calloc(nn, sizeof(*c.start));
	if (!c.start)
		return -ENOMEM;
	/* comm roots carry no pid: number them, unless pids are real (then 0 is swapper's) */
	for (uint32_t p = c.n[0].first_child; p; p = c.n[p].next_sibling)
		if (c.f[c.n[p].frame].kind == PMS_STACK_PROCESS && c.f[c.n[p].frame].pid)
			real_pids = true;
	pms_json__init(&c.j, out, false);
	pms_json__obj(&c.j, NULL);
	pms_json__arr(&c.j, "traceEvents");
	for (uint32_t p = c.n[0].first_child; p; p = c.n[p].next_sibling) {
		const struct pms_stack_frame *pf = &c.f[c.n[p].frame];
		bool plain = false;
		uint32_t pid;

		if (pf->kind != PMS_STACK_PROCESS) {
			others = true;
			continue;
		}
		pid = real_pids ? pf->pid : ++synth;
		meta_event(&c, "process_name", pf->name, pid, pid);
		for (uint32_t t = c.n[p].first_child; t; t = c.n[t].next_sibling) {
			const struct pms_stack_frame *tf = &c.f[c.n[t].frame];

			if (tf->kind == PMS_STACK_THREAD) {
				meta_event(&c, "thread_name", tf->name, pid, tf->tid);
				track(&c, t, pid, tf->tid);
			} else {
				plain = true;
			}
		}
		if (plain) {
			meta_event(&c, "thread_name", pf->name, pid, pid);
			track(&c, p, pid, pid);
		}
	}
	if (others) {
		meta_event(&c, "process_name", meta->command ? meta->command : "all samples", 0, 0);
		meta_event(&c, "thread_name", "all samples", 0, 0);
		track(&c, 0, 0, 0);
	}
	pms_json__end(&c.j);
	pms_json__str(&c.j, "displayTimeUnit", "ms");
	pms_json__obj(&c.j, "otherData");
	pms_json__str(&c.j, "exporter", "pmuscope");
	pms_json__str(&c.j, "event", meta->event);
	pms_json__str(&c.j, "command", meta->command);
	pms_json__str(&c.j, "weight", w == PMS_WEIGHT_SAMPLES ? "samples (1 ms each)" : "period (1 ns per unit)");
	pms_json__uint(&c.j, "samples", meta->samples);
	pms_json__end(&c.j);
	pms_json__end(&c.j);
	pms_json__finish(&c.j);
	free(c.start);
	return out->oom ? -ENOMEM : 0;
}
