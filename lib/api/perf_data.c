// SPDX-License-Identifier: MIT
// Public perf.data reading and profile API (include/pmuscope/perf_data.h) over the session and stacks.
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <pmuscope/perf_data.h>

#include "api/api_priv.h"
#include "aggregate/session.h"
#include "aggregate/stacks.h"
#include "data/reader.h"
#include "export/export.h"
#include "util/array.h"
#include "util/fileio.h"
#include "util/print.h"
#include "util/strbuf.h"

struct pms_perf_data {
	struct pms_session *s;
	struct pms_sample_info info;
	struct pms_sample_frame *frames;
	size_t cap_frames;
};

static enum pms_sample_frame_kind frame_kind(enum pms_frame_kind k)
{
	switch (k) {
	case PMS_FRAME_KERNEL:
		return PMS_SAMPLE_FRAME_KERNEL;
	case PMS_FRAME_JIT:
		return PMS_SAMPLE_FRAME_JIT;
	case PMS_FRAME_GUEST:
		return PMS_SAMPLE_FRAME_GUEST;
	case PMS_FRAME_USER:
	default:
		return PMS_SAMPLE_FRAME_USER;
	}
}

static void public_frame(const struct pms_frame *f, struct pms_sample_frame *out)
{
	pms_api__frame(&f->res, f->ip, frame_kind(f->kind), f->caller, out);
}

static int open_session(const char *path, bool callchain, bool recover, const char *symfs,
			const char *kallsyms, struct pms_session **out)
{
	struct pms_session_opts so = {
		.sz = sizeof(so),
		.callchain = callchain,
		.recover = recover,
		.symfs = symfs,
		.kallsyms = kallsyms,
	};
	struct pms_data_error derr = { 0 };
	int err;

	if (!path)
		return -EINVAL;
	err = pms_session__open(out, path, &so, &derr);
	if (err)
		pr_warn("%s: %s\n", path, derr.msg[0] ? derr.msg : pms_strerror(err));
	return err;
}

PMS_API struct pms_perf_data *pms_perf_data__open(const char *path, const struct pms_perf_data_opts *opts)
{
	struct pms_perf_data_opts o;
	struct pms_perf_data *d;
	int err = pms_api__copy_opts(&o, sizeof(o), opts);

	if (err) {
		errno = -err;
		return NULL;
	}
	d = calloc(1, sizeof(*d));
	if (!d) {
		errno = ENOMEM;
		return NULL;
	}
	err = open_session(path, !o.no_callchain, o.recover, o.symfs, o.kallsyms, &d->s);
	if (err) {
		free(d);
		errno = -err;
		return NULL;
	}
	return d;
}

PMS_API void pms_perf_data__close(struct pms_perf_data *d)
{
	if (!d)
		return;
	pms_session__free(d->s);
	free(d->frames);
	free(d);
}

PMS_API int pms_perf_data__next(struct pms_perf_data *d, const struct pms_sample_info **out)
{
	const struct pms_session_sample *ss;
	int ret;

	if (!d || !out)
		return -EINVAL;
	ret = pms_session__next(d->s, &ss);
	if (ret <= 0) {
		if (ret < 0)
			pr_warn("%s\n", pms_data_reader__error(pms_session__reader(d->s))->msg);
		return ret;
	}
	if (pms_array__reserve(&d->frames, &d->cap_frames, ss->nr_frames, sizeof(*d->frames)))
		return -ENOMEM;
	for (size_t i = 0; i < ss->nr_frames; i++)
		public_frame(&ss->frames[i], &d->frames[i]);
	d->info = (struct pms_sample_info){
		.event = ss->event_name,
		.comm = ss->comm,
		.pid = ss->pid,
		.tid = ss->tid,
		.cpu = ss->cpu,
		.time_ns = ss->time_ns,
		.period = ss->period,
		.nr_frames = ss->nr_frames,
		.frames = d->frames,
	};
	*out = &d->info;
	return 1;
}

PMS_API int pms_perf_data__symbolize(struct pms_perf_data *d, uint32_t pid, uint64_t addr,
				     struct pms_sample_frame *out)
{
	struct pms_frame f;
	int err;

	if (!d || !out)
		return -EINVAL;
	err = pms_session__resolve_pid_addr(d->s, pid, addr, &f);
	if (err)
		return err;
	public_frame(&f, out);
	return 0;
}

PMS_API uint64_t pms_perf_data__lost(const struct pms_perf_data *d)
{
	const struct pms_session_stats *st = d ? pms_session__stats(d->s) : NULL;

	return st ? st->lost_events + st->lost_samples : 0;
}

struct pms_stack_tree {
	struct pms_stacks *st;
	uint64_t samples;
	struct pms_stack_tree_function *fns; /* built on the first foreach */
	size_t nr_fns;
};

PMS_API struct pms_stack_tree *pms_stack_tree__from_perf_data(const char *path, const struct pms_stack_tree_opts *opts)
{
	struct pms_stack_tree_opts o;
	struct pms_stacks_opts sto = { .sz = sizeof(sto) };
	struct pms_session *s = NULL;
	const struct pms_data_error *damage = NULL;
	struct pms_stack_tree *p;
	int err = pms_api__copy_opts(&o, sizeof(o), opts);

	if (err) {
		errno = -err;
		return NULL;
	}
	p = calloc(1, sizeof(*p));
	if (!p) {
		errno = ENOMEM;
		return NULL;
	}
	sto.event = o.event;
	sto.inline_frames = o.inline_frames;
	err = open_session(path, true, false, o.symfs, o.kallsyms, &s);
	if (err)
		goto fail;
	err = pms_stacks__from_session(s, &sto, &p->st, &damage);
	if (err) {
		if (damage)
			pr_warn("%s: %s\n", path, damage->msg);
		goto fail;
	}
	p->samples = pms_stacks__meta(p->st)->samples;
	pms_session__free(s);
	return p;
fail:
	pms_session__free(s);
	pms_stack_tree__free(p);
	errno = -err;
	return NULL;
}

PMS_API void pms_stack_tree__free(struct pms_stack_tree *p)
{
	if (!p)
		return;
	pms_stacks__free(p->st);
	free(p->fns);
	free(p);
}

PMS_API uint64_t pms_stack_tree__samples(const struct pms_stack_tree *p)
{
	return p ? p->samples : 0;
}

PMS_API int pms_stack_tree__write(struct pms_stack_tree *p, const char *format, const char *path)
{
	const struct pms_exporter *ex;
	struct pms_export_opts eo = { .sz = sizeof(eo) };
	struct strbuf out = STRBUF_INIT;
	int err;

	if (!p || !format || !path)
		return -EINVAL;
	ex = pms_exporter__find(format);
	if (!ex)
		return -ENOENT;
	err = ex->write(p->st, &eo, &out);
	if (!err && out.oom)
		err = -ENOMEM;
	if (!err)
		err = pms_file__write_all(path, out.buf ? out.buf : "", out.len);
	strbuf_release(&out);
	return err;
}

static int cmp_fn(const void *a, const void *b)
{
	const struct pms_stack_tree_function *x = a, *y = b;
	int c;

	if (x->self_samples != y->self_samples)
		return x->self_samples < y->self_samples ? 1 : -1;
	if (x->total_samples != y->total_samples)
		return x->total_samples < y->total_samples ? 1 : -1;
	c = strcmp(x->name, y->name);
	return c ? c : strcmp(x->object ? x->object : "", y->object ? y->object : "");
}

static int build_functions(struct pms_stack_tree *p)
{
	size_t nr_frames = 0, n = 0;
	const struct pms_stack_frame *frames = pms_stacks__frames(p->st, &nr_frames);
	struct pms_stacks_function *fn;
	struct pms_stack_tree_function *out;
	int err = pms_stacks__functions(p->st, &fn, &n);

	if (err)
		return err;
	out = calloc(n ? n : 1, sizeof(*out));
	if (!out) {
		free(fn);
		return -ENOMEM;
	}
	for (size_t i = 0; i < n; i++) {
		const struct pms_stack_frame *f = &frames[fn[i].frame];

		out[i] = (struct pms_stack_tree_function){
			.name = f->name, .object = f->dso,
			.self_samples = fn[i].self_samples, .self_period = fn[i].self_period,
			.total_samples = fn[i].total_samples, .total_period = fn[i].total_period,
		};
	}
	free(fn);
	qsort(out, n, sizeof(*out), cmp_fn);
	p->fns = out;
	p->nr_fns = n;
	return 0;
}

PMS_API int pms_stack_tree__foreach_function(struct pms_stack_tree *p, pms_stack_tree_function_fn fn, void *arg)
{
	if (!p || !fn)
		return -EINVAL;
	if (!p->fns) {
		int err = build_functions(p);

		if (err)
			return err;
	}
	for (size_t i = 0; i < p->nr_fns; i++) {
		int ret = fn(&p->fns[i], arg);

		if (ret)
			return ret;
	}
	return 0;
}
