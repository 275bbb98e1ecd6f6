// SPDX-License-Identifier: MIT
// A live view's rows and call chains from a stacks tree, grouped by sort keys and filtered as perf top does.
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "aggregate/top.h"
#include "util/array.h"
#include "util/hash.h"
#include "util/idtab.h"

static const char *const key_names[PMS_TOP__NR_KEYS] = {
	[PMS_TOP_COMM] = "comm", [PMS_TOP_PID] = "pid", [PMS_TOP_TID] = "tid",
	[PMS_TOP_DSO] = "dso", [PMS_TOP_SYM] = "sym",
};

const char *pms_top_key__name(enum pms_top_key k)
{
	return (unsigned)k < PMS_TOP__NR_KEYS ? key_names[k] : "?";
}

int pms_top_keys__parse(const char *text, enum pms_top_key *keys, size_t *nr, const char **bad)
{
	static char word[32];
	const char *p = text;

	*nr = 0;
	while (*p) {
		size_t len = strcspn(p, ",");
		int k = -1;

		for (int i = 0; i < PMS_TOP__NR_KEYS; i++)
			if (strlen(key_names[i]) == len && !strncmp(p, key_names[i], len))
				k = i;
		/* perf's spelling */
		if (k < 0 && len == 6 && !strncmp(p, "symbol", 6))
			k = PMS_TOP_SYM;
		if (k < 0 || *nr == PMS_TOP_MAX_KEYS) {
			if (bad) {
				size_t n = len < sizeof(word) - 1 ? len : sizeof(word) - 1;

				memcpy(word, p, n);
				word[n] = 0;
				*bad = word;
			}
			return -EINVAL;
		}
		for (size_t i = 0; i < *nr; i++)
			if (keys[i] == (enum pms_top_key)k)
				k = -2;
		if (k >= 0)
			keys[(*nr)++] = (enum pms_top_key)k;
		p += len;
		if (*p == ',')
			p++;
	}
	if (!*nr) {
		if (bad)
			*bad = "";
		return -EINVAL;
	}
	return 0;
}

/* Per node: the PROCESS and THREAD frames above it (parents come before children in the node array). */
struct owners {
	uint32_t *proc, *thread;   /* frame ids, PMS_STACKS_NO_FRAME when none */
};

static int owners_of(const struct pms_stacks *st, struct owners *o)
{
	size_t nn, nf;
	const struct pms_stack_node *n = pms_stacks__nodes(st, &nn);
	const struct pms_stack_frame *f = pms_stacks__frames(st, &nf);

	o->proc = malloc((nn ? nn : 1) * sizeof(*o->proc));
	o->thread = malloc((nn ? nn : 1) * sizeof(*o->thread));
	if (!o->proc || !o->thread) {
		free(o->proc);
		free(o->thread);
		return -ENOMEM;
	}
	for (size_t i = 0; i < nn; i++) {
		uint32_t fr = n[i].frame;

		o->proc[i] = i ? o->proc[n[i].parent] : PMS_STACKS_NO_FRAME;
		o->thread[i] = i ? o->thread[n[i].parent] : PMS_STACKS_NO_FRAME;
		if (i && fr < nf && f[fr].kind == PMS_STACK_PROCESS)
			o->proc[i] = fr;
		else if (i && fr < nf && f[fr].kind == PMS_STACK_THREAD)
			o->thread[i] = fr;
	}
	return 0;
}

static void owners_release(struct owners *o)
{
	free(o->proc);
	free(o->thread);
}

static bool is_function(const struct pms_stack_frame *f)
{
	return f->kind != PMS_STACK_PROCESS && f->kind != PMS_STACK_THREAD;
}

/* The scheduler's own frames on the way to a context switch: never where a thread chose to wait. */
static bool is_scheduler(const struct pms_stack_frame *f)
{
	static const char *const prefixes[] = {
		"__schedule", "schedule", "io_schedule", "preempt_schedule", "finish_task_switch", "__switch_to",
		"context_switch", "__cond_resched", "_cond_resched",
	};

	if (f->kind != PMS_STACK_KERNEL)
		return false;
	for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++)
		if (!strncmp(f->name, prefixes[i], strlen(prefixes[i])))
			return true;
	return false;
}

/* The node a sample of node i counts at under the filter's leaf rules. */
static uint32_t leaf_node(const struct pms_stacks *st, uint32_t i, const struct pms_top_filter *flt)
{
	size_t nn, nf;
	const struct pms_stack_node *n = pms_stacks__nodes(st, &nn);
	const struct pms_stack_frame *f = pms_stacks__frames(st, &nf);

	if (!flt)
		return i;
	while (flt->skip_sched && n[i].parent && is_function(&f[n[n[i].parent].frame]) && is_scheduler(&f[n[i].frame]))
		i = n[i].parent;
	while (flt->user_leaf && n[i].parent && is_function(&f[n[n[i].parent].frame]) &&
	       f[n[i].frame].kind == PMS_STACK_KERNEL)
		i = n[i].parent;
	return i;
}

/* Node i as a row under keys (only the keys' fields set), or false when the filter leaves it out. */
static bool row_of(const struct pms_stacks *st, const struct owners *o, size_t i, const enum pms_top_key *keys,
		   size_t nr_keys, const struct pms_top_filter *flt, struct pms_top_row *r)
{
	size_t nn, nf;
	const struct pms_stack_node *n = pms_stacks__nodes(st, &nn);
	const struct pms_stack_frame *f = pms_stacks__frames(st, &nf);
	const struct pms_stack_frame *leaf = &f[n[leaf_node(st, (uint32_t)i, flt)].frame];
	const struct pms_stack_frame *proc = o->proc[i] != PMS_STACKS_NO_FRAME ? &f[o->proc[i]] : NULL;
	const struct pms_stack_frame *thr = o->thread[i] != PMS_STACKS_NO_FRAME ? &f[o->thread[i]] : NULL;
	uint32_t pid = proc ? proc->pid : 0, tid = thr ? thr->tid : 0;

	if (!is_function(leaf))
		return false;
	if (flt) {
		bool kernel = leaf->kind == PMS_STACK_KERNEL;

		if ((flt->hide_kernel && kernel) || (flt->hide_user && !kernel))
			return false;
		if ((flt->pid && pid != flt->pid) || (flt->tid && tid != flt->tid))
			return false;
		if (flt->dso && (!leaf->dso || strcmp(flt->dso, leaf->dso)))
			return false;
		if (flt->sym && regexec(flt->sym, leaf->name, 0, NULL, 0))
			return false;
	}
	memset(r, 0, sizeof(*r));
	for (size_t k = 0; k < nr_keys; k++) {
		switch (keys[k]) {
		case PMS_TOP_COMM:
			r->comm = proc ? proc->name : thr ? thr->name : "[unknown]";
			break;
		case PMS_TOP_PID:
			r->pid = pid;
			break;
		case PMS_TOP_TID:
			r->tid = tid;
			break;
		case PMS_TOP_DSO:
			r->dso = leaf->dso;
			break;
		case PMS_TOP_SYM:
			r->sym = leaf->name;
			r->kind = leaf->kind;
			break;
		default:
			break;
		}
	}
	return true;
}

/* Strings are interned in the tree: one pointer per distinct string. */
static uint32_t row_hash(const struct pms_top_row *r)
{
	uint64_t h = pms_hash__mix64((uint64_t)(uintptr_t)r->comm ^ ((uint64_t)r->pid << 32 | r->tid));

	h = pms_hash__mix64(h ^ (uint64_t)(uintptr_t)r->dso);
	h = pms_hash__mix64(h ^ (uint64_t)(uintptr_t)r->sym ^ (uint64_t)r->kind);
	return (uint32_t)(h ^ (h >> 32));
}

static bool same_row(const struct pms_top_row *a, const struct pms_top_row *b)
{
	return a->comm == b->comm && a->pid == b->pid && a->tid == b->tid && a->dso == b->dso && a->sym == b->sym &&
	       a->kind == b->kind;
}

static int cmp_rows(const void *a, const void *b, void *by_period)
{
	const struct pms_top_row *x = a, *y = b;
	bool p = *(const bool *)by_period;
	uint64_t wx = p ? x->period : x->samples, wy = p ? y->period : y->samples;
	int c;

	if (wx != wy)
		return wx < wy ? 1 : -1;
	c = strcmp(x->sym ? x->sym : "", y->sym ? y->sym : "");
	if (c)
		return c;
	c = strcmp(x->comm ? x->comm : "", y->comm ? y->comm : "");
	if (c)
		return c;
	return x->pid != y->pid ? (x->pid < y->pid ? -1 : 1) : (x->tid < y->tid ? -1 : x->tid > y->tid);
}

int pms_top__rows(const struct pms_stacks *st, const enum pms_top_key *keys, size_t nr_keys,
		  const struct pms_top_filter *filter, bool by_period, struct pms_top_rows *out)
{
	size_t nn, alloc = 0;
	const struct pms_stack_node *n = pms_stacks__nodes(st, &nn);
	struct pms_idtab tab = { 0 };
	struct owners o;
	int err;

	memset(out, 0, sizeof(*out));
	if (!nr_keys || nr_keys > PMS_TOP_MAX_KEYS)
		return -EINVAL;
	if (nn) {
		out->total_samples = n[0].total_samples;
		out->total_period = n[0].total_period;
	}
	err = owners_of(st, &o);
	if (err)
		return err;
	for (size_t i = 1; i < nn && !err; i++) {
		struct pms_top_row r;
		uint32_t h;
		size_t slot;
		bool found = false;

		if ((!n[i].self_samples && !n[i].self_period) || !row_of(st, &o, i, keys, nr_keys, filter, &r))
			continue;
		r.samples = n[i].self_samples;
		r.period = n[i].self_period;
		out->shown_samples += r.samples;
		out->shown_period += r.period;
		h = row_hash(&r);
		if ((err = pms_idtab__reserve(&tab)))
			break;
		for (slot = pms_idtab__start(&tab, h); pms_idtab__used(&tab, slot); slot = pms_idtab__next(&tab, slot)) {
			struct pms_top_row *have = &out->rows[pms_idtab__id(&tab, slot)];

			if (pms_idtab__hash(&tab, slot) == h && same_row(have, &r)) {
				have->samples += r.samples;
				have->period += r.period;
				found = true;
				break;
			}
		}
		if (found)
			continue;
		if ((err = pms_array__reserve(&out->rows, &alloc, out->nr + 1, sizeof(*out->rows))))
			break;
		pms_idtab__set(&tab, slot, h, (uint32_t)out->nr);
		out->rows[out->nr++] = r;
	}
	free(tab.slots);
	owners_release(&o);
	if (err) {
		pms_top_rows__release(out);
		return err;
	}
	if (out->nr)
		qsort_r(out->rows, out->nr, sizeof(*out->rows), cmp_rows, &by_period);
	return 0;
}

void pms_top_rows__release(struct pms_top_rows *r)
{
	free(r->rows);
	memset(r, 0, sizeof(*r));
}

int pms_top__chains(const struct pms_stacks *st, const enum pms_top_key *keys, size_t nr_keys,
		    const struct pms_top_filter *filter, const struct pms_top_row *row, bool callers_first,
		    struct pms_stacks **out)
{
	size_t nn, nf, path_alloc = 0;
	const struct pms_stack_node *n = pms_stacks__nodes(st, &nn);
	const struct pms_stack_frame *f = pms_stacks__frames(st, &nf);
	struct pms_stacks_opts sto = { .sz = sizeof(sto), .root = PMS_STACKS_ROOT_NONE };
	uint32_t *map = NULL, *path = NULL;
	struct owners o;
	int err;

	*out = NULL;
	if (!nr_keys || nr_keys > PMS_TOP_MAX_KEYS)
		return -EINVAL;
	err = owners_of(st, &o);
	if (err)
		return err;
	*out = pms_stacks__new(&sto);
	map = malloc((nf ? nf : 1) * sizeof(*map));
	if (!*out || !map) {
		err = -ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < nf; i++)
		map[i] = UINT32_MAX;
	for (size_t i = 1; i < nn && !err; i++) {
		struct pms_top_row r;
		size_t len = 0;

		if ((!n[i].self_samples && !n[i].self_period) || !row_of(st, &o, i, keys, nr_keys, filter, &r) ||
		    !same_row(&r, row))
			continue;
		if ((err = pms_array__reserve(&path, &path_alloc, n[i].depth + 1, sizeof(*path))))
			break;
		/* leaf first, up to the outermost function */
		for (uint32_t up = leaf_node(st, (uint32_t)i, filter); up && !err; up = n[up].parent) {
			uint32_t fr = n[up].frame;

			if (!is_function(&f[fr]))
				continue;
			if (map[fr] == UINT32_MAX) {
				int64_t id = pms_stacks__intern(*out, &f[fr]);

				if (id < 0)
					err = (int)id;
				else
					map[fr] = (uint32_t)id;
			}
			path[len++] = map[fr];
		}
		if (err)
			break;
		if (callers_first)
			for (size_t a = 0, b = len; a + 1 < b; a++, b--) {
				uint32_t t = path[a];

				path[a] = path[b - 1];
				path[b - 1] = t;
			}
		err = pms_stacks__add_path(*out, path, len, n[i].self_samples, n[i].self_period);
	}
out:
	free(path);
	free(map);
	owners_release(&o);
	if (err) {
		pms_stacks__free(*out);
		*out = NULL;
	}
	return err;
}
