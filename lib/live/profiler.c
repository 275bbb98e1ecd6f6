// SPDX-License-Identifier: MIT
// Live profiling: the BPF sampler's stacks named by the live-process symbolizer and merged into a call tree, with the sampler's maps kept from filling.
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "profiler.h"
#include "event/sampling.h"
#include "ring/sample.h"
#include "symbol/dso.h"
#include "symbol/maps.h"
#include "symbol/resolver.h"
#include "symbol/unwind.h"
#include "util/clock.h"
#include "util/array.h"
#include "util/hash.h"
#include "util/cpulist.h"
#include "util/idtab.h"
#include "util/tasks.h"

/* A thread the ring sampler has seen: its comm and its process's image count (execs seen). */
struct ring_task {
	uint32_t tid, tgid;
	uint32_t exec_id;
	char comm[PF_COMM_LEN];
};

/* Samples at one user address of one process image (pms_profiler__keep_addresses()). */
struct leaf_addr {
	struct pms_live_image *img;
	uint64_t ip;
	uint64_t samples, period;
};

struct pms_profiler {
	struct pms_profiler_opts opts;
	bool keep_addresses;
	struct leaf_addr *leaves;
	size_t nr_leaves, leaves_alloc;
	struct pms_idtab leaf_tab;
	struct pms_profile *sampler;   /* BPF; NULL for a builder fed by hand or the ring sampler */
	struct pms_sampler *ring;      /* perf's ring buffers, without BPF */
	struct pms_evlist ring_events;
	struct ring_task *tasks;
	size_t nr_tasks, tasks_alloc;
	struct pms_idtab task_tab;
	bool include_idle;
	struct pms_resolver *res;
	size_t max_files;          /* pms_profiler__limit_files(); 0: unbounded */
	pms_profiler_announce_fn on_announce;
	void *on_announce_arg;
	struct pms_live_syms *syms;
	struct pms_stacks *st;
	struct pms_chaincheck *chains;
	struct pms_profiler_counts counts;
	bool asked_stream;             /* streaming from the start: never a switch */
	bool check_chains;             /* pms_profiler__check_chains(): profile's end-of-run advice */
	bool switched, switch_told;
	int err;                       /* the first error of a callback, handed back by the call that ran it */
	uint64_t next_check_ns;
	uint32_t path[2 * PF_MAX_FRAMES + 2];
};

static struct pms_stacks *new_tree(const struct pms_profiler *pr)
{
	struct pms_stacks_opts sto = { .sz = sizeof(sto), .root = pr->opts.root };

	return pms_stacks__new(&sto);
}

struct pms_profiler *pms_profiler__new(const struct pms_profiler_opts *opts)
{
	struct pms_profiler *pr;

	if (opts && opts->sz != sizeof(*opts)) {
		errno = EINVAL;
		return NULL;
	}
	if (opts && (unsigned)opts->root > PMS_STACKS_ROOT_TID) {
		errno = EINVAL;
		return NULL;
	}
	pr = calloc(1, sizeof(*pr));
	if (!pr)
		goto oom;
	if (opts)
		pr->opts = *opts;
	pr->opts.sz = sizeof(pr->opts);
	if (pr->opts.root == PMS_STACKS_ROOT_NONE)
		pr->opts.root = PMS_STACKS_ROOT_COMM;
	pr->res = pms_resolver__new();
	pr->syms = pr->res ? pms_live_syms__new(pr->res) : NULL;
	pr->st = new_tree(pr);
	pr->chains = pms_chaincheck__new();
	if (!pr->syms || !pr->st || !pr->chains)
		goto oom;
	return pr;
oom:
	pms_profiler__free(pr);
	errno = ENOMEM;
	return NULL;
}

void pms_profiler__free(struct pms_profiler *pr)
{
	if (!pr)
		return;
	if (pr->sampler)
		pms_profile__stop(pr->sampler);
	pms_profile__free(pr->sampler);
	pms_sampler__free(pr->ring);
	pms_evlist__release(&pr->ring_events);
	free(pr->leaves);
	pms_idtab__release(&pr->leaf_tab);
	free(pr->tasks);
	free(pr->task_tab.slots);
	pms_chaincheck__free(pr->chains);
	pms_stacks__free(pr->st);
	pms_live_syms__free(pr->syms);
	pms_resolver__free(pr->res);
	free(pr);
}

/* ------------------------------------------------------ the tree -- */

static int push(struct pms_profiler *pr, size_t *n, const struct pms_stack_frame *f)
{
	int64_t id = pms_stacks__intern(pr->st, f);

	if (id < 0)
		return (int)id;
	pr->path[(*n)++] = (uint32_t)id;
	return 0;
}

static int push_lost_user(struct pms_profiler *pr, size_t *n)
{
	struct pms_stack_frame f = { .kind = PMS_STACK_UNKNOWN, .name = "[user stack lost]" };

	return push(pr, n, &f);
}

/* --call-graph dwarf: unwind the copied stack with the image's CFI, outermost frame first. */
static int add_dwarf_user(struct pms_profiler *pr, struct pms_live_image *img, const struct pms_profile_sample *s,
			  size_t *n)
{
	struct pms_unwinder *unw = pms_live_syms__unwinder(pr->syms, img);
	struct pms_unwind_regs regs = { .arch = PMS_UNWIND_X86_64, .mask = s->user_regs_mask, .values = s->user_regs };
	uint64_t ips[PF_MAX_FRAMES];
	size_t nr = 0;

	if (!unw || pms_unwinder__unwind(unw, &regs, s->user_stack, s->user_stack_size, ips, PF_MAX_FRAMES, &nr) ||
	    !nr) {
		pr->counts.unwind_failed += s->count;
		return push_lost_user(pr, n);
	}
	pr->counts.unwound += s->count;
	for (size_t i = nr; i-- > 0;) {
		int err = pms_live_syms__user_frame(pr->syms, pr->st, img, ips[i], i == 0, &pr->path[*n]);

		if (err)
			return err;
		(*n)++;
	}
	return 0;
}

/* Where a frame-pointer user stack ended, for the "stopped before an entry point" check. */
static int check_chain(struct pms_profiler *pr, struct pms_live_image *img, const struct pms_profile_sample *s)
{
	struct pms_chaincheck_chain ch = { .weight = s->count, .at_depth_limit = s->nr_user >= PF_MAX_FRAMES };

	for (uint32_t i = s->nr_user; i-- > 0;) {
		const struct pms_map *m;
		struct pms_resolved r;
		int err = pms_live_syms__resolve_user(pr->syms, img, s->user[i], i == 0, &r, &m);

		if (err)
			return err;
		if (i == s->nr_user - 1) {
			ch.outer_sym = r.status == PMS_RES_OK ? r.sym : NULL;
			ch.outer_vaddr = r.addr;
			ch.outer_elf = r.elf;
		}
		if (m && r.dso) {
			ch.blame_dso = r.dso;
			ch.blame_elf = r.elf;
			break;
		}
	}
	return pms_chaincheck__add(pr->chains, &ch);
}

/* The tracepoint's own frames: the BPF program and the kernel's code that runs it. */
static bool tracing_frame(const struct pms_profiler *pr, uint32_t frame)
{
	size_t nr;
	const struct pms_stack_frame *f = pms_stacks__frames(pr->st, &nr);
	const char *name = frame < nr ? f[frame].name : "";

	return !strncmp(name, "bpf_prog_", 9) || !strncmp(name, "bpf_trace_run", 13) ||
	       !strncmp(name, "__bpf_trace_", 12) || !strncmp(name, "__traceiter_", 12);
}

static int add_kernel(struct pms_profiler *pr, const struct pms_profile_sample *s, size_t *n)
{
	uint32_t skip = 0, frame;
	int err;

	/* off-CPU stacks are taken inside the tracepoint: its frames are not where the thread blocked */
	while (pr->opts.off_cpu && skip < s->nr_kernel) {
		err = pms_live_syms__kernel_frame(pr->syms, pr->st, s->kernel[skip], &frame);
		if (err)
			return err;
		if (!tracing_frame(pr, frame))
			break;
		skip++;
	}
	for (uint32_t i = s->nr_kernel; i-- > skip;) {
		err = pms_live_syms__kernel_frame(pr->syms, pr->st, s->kernel[i], &pr->path[*n]);
		if (err)
			return err;
		(*n)++;
	}
	return 0;
}

static uint32_t leaf_hash(const struct pms_live_image *img, uint64_t ip)
{
	uint64_t h = pms_hash__mix64((uint64_t)(uintptr_t)img ^ (ip * 0x9e3779b97f4a7c15ull));

	return (uint32_t)(h ^ (h >> 32));
}

static int keep_leaf(struct pms_profiler *pr, struct pms_live_image *img, uint64_t ip, uint64_t samples,
		     uint64_t period)
{
	uint32_t h = leaf_hash(img, ip);
	size_t slot;
	int err;

	if ((err = pms_idtab__reserve(&pr->leaf_tab)))
		return err;
	for (slot = pms_idtab__start(&pr->leaf_tab, h); pms_idtab__used(&pr->leaf_tab, slot);
	     slot = pms_idtab__next(&pr->leaf_tab, slot)) {
		struct leaf_addr *l = &pr->leaves[pms_idtab__id(&pr->leaf_tab, slot)];

		if (pms_idtab__hash(&pr->leaf_tab, slot) == h && l->img == img && l->ip == ip) {
			l->samples += samples;
			l->period += period;
			return 0;
		}
	}
	if ((err = pms_array__reserve(&pr->leaves, &pr->leaves_alloc, pr->nr_leaves + 1, sizeof(*pr->leaves))))
		return err;
	pr->leaves[pr->nr_leaves] = (struct leaf_addr){ .img = img, .ip = ip, .samples = samples, .period = period };
	pms_idtab__set(&pr->leaf_tab, slot, h, (uint32_t)pr->nr_leaves++);
	return 0;
}

/* After images were let go: their addresses can no longer be named. Without memory to re-index, all go. */
static void drop_gone_leaves(struct pms_profiler *pr)
{
	size_t n = 0;

	for (size_t i = 0; i < pr->nr_leaves; i++)
		if (pr->leaves[i].img->maps)
			pr->leaves[n++] = pr->leaves[i];
	if (n == pr->nr_leaves)
		return;
	pr->nr_leaves = n;
	pms_idtab__release(&pr->leaf_tab);
	for (size_t i = 0; i < n; i++) {
		uint32_t h = leaf_hash(pr->leaves[i].img, pr->leaves[i].ip);
		size_t slot;

		if (pms_idtab__reserve(&pr->leaf_tab)) {
			pms_idtab__release(&pr->leaf_tab);
			pr->nr_leaves = 0;
			return;
		}
		for (slot = pms_idtab__start(&pr->leaf_tab, h); pms_idtab__used(&pr->leaf_tab, slot);
		     slot = pms_idtab__next(&pr->leaf_tab, slot))
			;
		pms_idtab__set(&pr->leaf_tab, slot, h, (uint32_t)i);
	}
}

void pms_profiler__keep_addresses(struct pms_profiler *pr, bool on)
{
	pr->keep_addresses = on;
}

int pms_profiler__annotate(struct pms_profiler *pr, const char *dso, const char *sym,
			   const struct pms_annotate_opts *opts, struct pms_annotate_sym *sym_out,
			   struct pms_annotation **out)
{
	struct pms_annotate_point *pts = NULL;
	size_t nr = 0, alloc = 0;
	int err = 0;

	*out = NULL;
	memset(sym_out, 0, sizeof(*sym_out));
	for (size_t i = 0; i < pr->nr_leaves && !err; i++) {
		const struct leaf_addr *l = &pr->leaves[i];
		const struct pms_map *m;
		struct pms_resolved r;

		if (pms_live_syms__resolve_user(pr->syms, l->img, l->ip, true, &r, &m) || !m ||
		    r.status != PMS_RES_OK || !r.sym || !r.dso || !r.elf || strcmp(r.sym, sym) || strcmp(r.dso, dso))
			continue;
		if (!sym_out->elf) {
			const struct pms_sym *es;

			sym_out->name = r.sym;
			sym_out->dso = r.dso;
			sym_out->elf = r.elf;
			sym_out->start = r.addr - r.sym_off;
			es = pms_dso__find_sym(r.elf, sym_out->start);
			sym_out->size = es && es->start == sym_out->start ? es->size : 0;
		} else if (r.elf != sym_out->elf || r.addr - r.sym_off != sym_out->start) {
			continue; /* another file of the same name: one function at a time */
		}
		sym_out->samples += l->samples;
		sym_out->period += l->period;
		if (!(err = pms_array__reserve(&pts, &alloc, nr + 1, sizeof(*pts))))
			pts[nr++] = (struct pms_annotate_point){ .addr = r.addr, .samples = l->samples, .period = l->period };
	}
	if (!err && !nr)
		err = -ENOENT;
	if (!err)
		err = pms_annotation__build_sym(sym_out, pts, nr, opts, out);
	free(pts);
	return err;
}

int pms_profiler__add_sample(struct pms_profiler *pr, const struct pms_profile_sample *s)
{
	const struct pf_key *k = s->key;
	struct pms_stack_frame root = { .kind = PMS_STACK_PROCESS };
	char comm[PF_COMM_LEN + 1];
	size_t n = 0;
	int err;

	memcpy(comm, k->comm, PF_COMM_LEN);
	comm[PF_COMM_LEN] = 0;
	root.name = comm;
	if (pr->opts.root == PMS_STACKS_ROOT_PID || pr->opts.root == PMS_STACKS_ROOT_TID)
		root.pid = k->tgid;
	err = push(pr, &n, &root);
	if (!err && pr->opts.root == PMS_STACKS_ROOT_TID) {
		struct pms_stack_frame thread = { .kind = PMS_STACK_THREAD, .name = comm, .pid = k->tgid, .tid = k->pid };

		err = push(pr, &n, &thread);
	}
	if (!err && (s->user_stack || s->user)) {
		struct pms_live_image *img = pms_live_syms__image(pr->syms, k->tgid, k->exec_id);

		if (!img)
			return -ENOMEM;
		if (s->user_stack) {
			err = add_dwarf_user(pr, img, s, &n);
		} else {
			for (uint32_t i = s->nr_user; !err && i-- > 0;) {
				err = pms_live_syms__user_frame(pr->syms, pr->st, img, s->user[i], i == 0, &pr->path[n]);
				n += !err;
			}
			/* a sample taken in user code: its address, for annotating */
			if (!err && s->nr_user && !s->nr_kernel && pr->keep_addresses)
				err = keep_leaf(pr, img, s->user[0], s->count,
						pr->opts.off_cpu ? s->time_ns : s->count * pr->opts.period_ns);
			if (!err && s->nr_user && pr->check_chains)
				err = check_chain(pr, img, s);
		}
	} else if (!err && (k->flags & PF_F_USER_LOST) && !pr->opts.kernel_only) {
		err = push_lost_user(pr, &n);
	}
	if (!err)
		err = add_kernel(pr, s, &n);
	if (!err)
		err = pms_stacks__add_path(pr->st, pr->path, n, s->count,
					   pr->opts.off_cpu ? s->time_ns : s->count * pr->opts.period_ns);
	if (err)
		return err;
	pr->counts.samples += s->count;
	pr->counts.streamed += s->streamed ? s->count : 0;
	pr->counts.blocked_ns += s->time_ns;
	if (s->missing_user || s->missing_kernel)
		pr->counts.evicted += s->count;
	return 0;
}

int pms_profiler__announce(struct pms_profiler *pr, uint32_t tgid, uint32_t exec_id)
{
	if (!pms_live_syms__announce(pr->syms, tgid, exec_id))
		return -ENOMEM;
	if (pr->on_announce)
		pr->on_announce(pr->on_announce_arg, tgid, exec_id);
	return 0;
}

/* ------------------------------------------------------ the sampler -- */

static int on_sample(void *ctx, const struct pms_profile_sample *s)
{
	struct pms_profiler *pr = ctx;

	pr->err = pms_profiler__add_sample(pr, s);
	return pr->err;
}

static int on_task(void *ctx, const struct pf_task_event *ev)
{
	struct pms_profiler *pr = ctx;

	pr->err = pms_profiler__announce(pr, ev->tgid, ev->exec_id);
	return pr->err;
}

/* A sampler call that ran the callbacks: the callback's error first (it stopped the walk). */
static int callback_result(struct pms_profiler *pr, int ret)
{
	int err = pr->err;

	pr->err = 0;
	return err ? err : ret;
}

int pms_profiler__start(const struct pms_profile_opts *sampler, enum pms_stacks_root root,
			struct pms_profiler **out, enum pms_profile_fail *fail)
{
	struct pms_profiler_opts po = {
		.sz = sizeof(po), .root = root, .off_cpu = sampler->off_cpu,
		.kernel_only = sampler->kernel && !sampler->user,
		.period_ns = 1000000000ull / (sampler->freq ? sampler->freq : 1),
	};
	struct pms_profiler *pr = pms_profiler__new(&po);
	int err;

	*fail = PMS_PF_OK;
	if (!pr)
		return -errno;
	err = pms_profile__start(sampler, &pr->sampler, fail);
	if (err) {
		pms_profiler__free(pr);
		return err;
	}
	pr->asked_stream = sampler->stream || sampler->dwarf_stack_bytes;
	pr->next_check_ns = pms_clock__monotonic_ns() + 500000000ull;
	*out = pr;
	return 0;
}

/* Move the counts into the tree (which adds them up) before the map fills; start the stacks over when half full. */
static int read_counts(struct pms_profiler *pr)
{
	struct pms_profile_stats ps;
	int err = callback_result(pr, pms_profile__read(pr->sampler, true, on_sample, pr));

	if (err)
		return err;
	if (!pms_profile__stats(pr->sampler, &ps) && ps.nr_stacks > ps.max_stacks / 2)
		return pms_profile__clear_stacks(pr->sampler);
	return 0;
}

static int ring_poll(struct pms_profiler *pr, int timeout_ms);

int pms_profiler__poll(struct pms_profiler *pr, int timeout_ms)
{
	struct pms_profile_stats ps;
	int ret;

	if (pr->ring)
		return ring_poll(pr, timeout_ms);
	if (!pr->sampler)
		return -EINVAL;
	ret = callback_result(pr, pms_profile__poll(pr->sampler, timeout_ms, on_task, on_sample, pr));
	if (ret < 0)
		return ret;
	if (!pr->asked_stream && pms_profile__streaming(pr->sampler))
		pr->switched = true;
	if (pms_clock__monotonic_ns() >= pr->next_check_ns) {
		pr->next_check_ns = pms_clock__monotonic_ns() + 500000000ull;
		if (!pms_profile__stats(pr->sampler, &ps) && ps.live_counts > ps.max_counts / 4 * 3) {
			int err = read_counts(pr);

			if (err)
				return err;
			pr->counts.drains++;
		}
	}
	return ret;
}

bool pms_profiler__just_switched(struct pms_profiler *pr)
{
	if (!pr->switched || pr->switch_told)
		return false;
	pr->switch_told = true;
	return true;
}

int pms_profiler__cut(struct pms_profiler *pr, struct pms_stacks **out)
{
	struct pms_stacks *next;
	int err = pr->sampler ? read_counts(pr) : pr->ring ? ring_poll(pr, 0) : 0;

	if (err < 0)
		return err;
	next = new_tree(pr);
	if (!next)
		return -ENOMEM;
	*out = pr->st;
	pr->st = next;
	pms_live_syms__new_tree(pr->syms);
	/* what gone processes were sampled doing has just been read: their snapshots can go */
	if (pms_live_syms__release_gone(pr->syms) && pr->nr_leaves)
		drop_gone_leaves(pr);
	if (pr->max_files)
		pms_resolver__trim_files(pr->res, pr->max_files);
	pr->counts.cuts++;
	return 0;
}

int pms_profiler__stop(struct pms_profiler *pr)
{
	int err;

	if (pr->ring) {
		pms_sampler__disable(pr->ring);
		err = ring_poll(pr, 0);
		return err < 0 ? err : 0;
	}
	if (!pr->sampler)
		return 0;
	pms_profile__stop(pr->sampler);
	do
		err = callback_result(pr, pms_profile__poll(pr->sampler, 0, on_task, on_sample, pr));
	while (err > 0);
	if (err < 0 && err != -EINTR)
		return err;
	return callback_result(pr, pms_profile__read(pr->sampler, true, on_sample, pr));
}

struct pms_stacks *pms_profiler__tree(struct pms_profiler *pr)
{
	return pr->st;
}

struct pms_profile *pms_profiler__sampler(struct pms_profiler *pr)
{
	return pr->sampler;
}

struct pms_sampler *pms_profiler__ring(struct pms_profiler *pr)
{
	return pr->ring;
}

const char *pms_profiler__event(struct pms_profiler *pr)
{
	if (pr->ring)
		return pr->ring_events.entries[0].name;
	if (!pr->sampler)
		return NULL;
	return pr->opts.off_cpu ? "sched:sched_switch" : pms_profile__event(pr->sampler);
}

int pms_profiler__losses(struct pms_profiler *pr, struct pms_profiler_losses *out)
{
	struct pms_profile_stats ps;
	int err;

	memset(out, 0, sizeof(*out));
	if (pr->ring) {
		const struct pms_ring_stats *st = pms_sampler__stats(pr->ring);

		out->taken = st->nr_samples + st->nr_lost_events + st->nr_lost_samples;
		out->dropped_ring = st->nr_lost_events + st->nr_lost_samples;
		return 0;
	}
	if (!pr->sampler)
		return 0;
	err = pms_profile__stats(pr->sampler, &ps);
	if (err)
		return err;
	out->taken = ps.v[PF_STAT_SAMPLES];
	out->dropped_ring = ps.v[PF_STAT_STREAM_LOST];
	out->dropped_maps = ps.v[PF_STAT_COUNTS_FULL];
	/* a sample dropped whole lost its stacks too: counted once, as dropped */
	out->user_stacks_lost = pms_profile_stats__user_lost(&ps) - ps.v[PF_STAT_COUNTS_FULL_USER] -
				ps.v[PF_STAT_STREAM_LOST_USER];
	out->kernel_stacks_lost = pms_profile_stats__kernel_lost(&ps);
	out->truncated = ps.v[PF_STAT_USER_TRUNC] + ps.v[PF_STAT_KERNEL_TRUNC];
	return 0;
}

const struct pms_profiler_counts *pms_profiler__counts(const struct pms_profiler *pr)
{
	return &pr->counts;
}

const struct pms_live_syms_stats *pms_profiler__syms_stats(const struct pms_profiler *pr)
{
	return pms_live_syms__stats(pr->syms);
}

void pms_profiler__check_chains(struct pms_profiler *pr, bool on)
{
	pr->check_chains = on;
}

void pms_profiler__chains(struct pms_profiler *pr, struct pms_chaincheck_result *out)
{
	pms_chaincheck__result(pr->chains, out);
}

/* ------------------------------------------------- the ring sampler -- */

static uint32_t tid_hash(uint32_t tid)
{
	return tid * 0x9e3779b1u;
}

/* The thread's entry, made from /proc (comm, process) at its first record. NULL on ENOMEM. */
static struct ring_task *task_of(struct pms_profiler *pr, uint32_t tid, uint32_t tgid)
{
	uint32_t h = tid_hash(tid);
	struct ring_task *t;
	size_t slot;
	char *comm;

	if (pms_idtab__reserve(&pr->task_tab))
		return NULL;
	for (slot = pms_idtab__start(&pr->task_tab, h); pms_idtab__used(&pr->task_tab, slot);
	     slot = pms_idtab__next(&pr->task_tab, slot))
		if (pms_idtab__hash(&pr->task_tab, slot) == h && pr->tasks[pms_idtab__id(&pr->task_tab, slot)].tid == tid)
			return &pr->tasks[pms_idtab__id(&pr->task_tab, slot)];
	if (pms_array__reserve(&pr->tasks, &pr->tasks_alloc, pr->nr_tasks + 1, sizeof(*pr->tasks)))
		return NULL;
	t = &pr->tasks[pr->nr_tasks];
	memset(t, 0, sizeof(*t));
	t->tid = tid;
	t->tgid = tgid;
	comm = pms_task__comm((pid_t)tid);
	snprintf(t->comm, sizeof(t->comm), "%s", comm ? comm : tid ? "[unknown]" : "swapper");
	free(comm);
	pms_idtab__set(&pr->task_tab, slot, h, (uint32_t)pr->nr_tasks);
	return &pr->tasks[pr->nr_tasks++];
}

/* The same thread's process image after an exec: every thread of the process shares it. */
static void set_exec_id(struct pms_profiler *pr, uint32_t tgid, uint32_t exec_id)
{
	for (size_t i = 0; i < pr->nr_tasks; i++)
		if (pr->tasks[i].tgid == tgid)
			pr->tasks[i].exec_id = exec_id;
}

/* A ring SAMPLE as the BPF sampler would hand it over: chain split at its context markers, leaf first. */
static int ring_sample(struct pms_profiler *pr, const struct pms_sample *smp)
{
	__u64 user[PF_MAX_FRAMES], kernel[PF_MAX_FRAMES];
	uint32_t nr_user = 0, nr_kernel = 0;
	uint64_t ctx = PERF_CONTEXT_KERNEL;
	struct ring_task *t;
	struct pf_key k;
	struct pms_profile_sample ps = { .key = &k, .count = 1, .streamed = true };

	if (!smp->pid && !pr->include_idle)
		return 0;
	t = task_of(pr, smp->tid, smp->pid);
	if (!t)
		return -ENOMEM;
	memset(&k, 0, sizeof(k));
	k.tgid = smp->pid;
	k.pid = smp->tid;
	k.exec_id = t->exec_id;
	memcpy(k.comm, t->comm, sizeof(k.comm));
	for (uint64_t i = 0; i < smp->callchain_nr; i++) {
		uint64_t ip = smp->callchain[i];

		if (pms_callchain__is_context(ip)) {
			ctx = ip;
			continue;
		}
		if (ctx == PERF_CONTEXT_KERNEL && nr_kernel < PF_MAX_FRAMES)
			kernel[nr_kernel++] = ip;
		else if (ctx == PERF_CONTEXT_USER && nr_user < PF_MAX_FRAMES)
			user[nr_user++] = ip;
	}
	if (!smp->callchain_nr) {
		bool in_kernel = (smp->misc & PERF_RECORD_MISC_CPUMODE_MASK) == PERF_RECORD_MISC_KERNEL;

		if (in_kernel)
			kernel[nr_kernel++] = smp->ip;
		else
			user[nr_user++] = smp->ip;
	}
	ps.user = nr_user ? user : NULL;
	ps.nr_user = nr_user;
	ps.kernel = kernel;
	ps.nr_kernel = nr_kernel;
	return pms_profiler__add_sample(pr, &ps);
}

static int on_ring_record(const struct perf_event_header *h, const struct pms_record *rec, void *arg)
{
	struct pms_profiler *pr = arg;
	struct ring_task *t;

	(void)h;
	if (!rec || pr->err)
		return pr->err;
	switch (rec->type) {
	case PERF_RECORD_SAMPLE:
		pr->err = ring_sample(pr, &rec->sample);
		break;
	case PERF_RECORD_COMM:
		t = task_of(pr, rec->comm.tid, rec->comm.pid);
		if (!t) {
			pr->err = -ENOMEM;
			break;
		}
		snprintf(t->comm, sizeof(t->comm), "%s", rec->comm.comm);
		if (rec->comm.exec) {
			/* a new image: read its mappings now, while the process lives */
			set_exec_id(pr, t->tgid, t->exec_id + 1);
			pr->err = pms_profiler__announce(pr, t->tgid, t->exec_id);
		}
		break;
	default:
		break;
	}
	return pr->err;
}

static int ring_poll(struct pms_profiler *pr, int timeout_ms)
{
	uint64_t n;
	int err = timeout_ms ? pms_sampler__wait(pr->ring, timeout_ms, NULL) : 0;

	if (err < 0 && err != -EINTR)
		return err;
	n = pms_sampler__drain(pr->ring, on_ring_record, pr);
	err = callback_result(pr, 0);
	return err ? err : (int)(n > INT32_MAX ? INT32_MAX : n);
}

int pms_profiler__start_ring(const struct pms_profile_opts *sampler, enum pms_stacks_root root,
			     struct pms_profiler **out, struct pms_sampler_error *err)
{
	struct pms_profiler_opts po = {
		.sz = sizeof(po), .root = root, .kernel_only = sampler->kernel && !sampler->user,
		.period_ns = 1000000000ull / (sampler->freq ? sampler->freq : 1),
	};
	struct pms_sampling_opts so = {
		.freq = sampler->freq, .cg = { .mode = PMS_CALL_GRAPH_FP },
		.system_wide = !sampler->pids, .inherit = sampler->pids && !sampler->threads,
	};
	struct pms_event_ctx *ctx = NULL;
	struct pms_parse_error pe;
	struct pms_profiler *pr;
	struct pms_cpulist online = { 0 };
	pid_t *threads = NULL;
	size_t nr_threads = 0, threads_alloc = 0;
	int ret;

	memset(err, 0, sizeof(*err));
	err->event = err->cpu = -1;
	if (sampler->off_cpu || sampler->dwarf_stack_bytes)
		return -EOPNOTSUPP;
	pr = pms_profiler__new(&po);
	if (!pr)
		return -errno;
	pr->include_idle = sampler->include_idle;
	ctx = pms_event_ctx__new();
	ret = ctx ? pms_evlist__parse(&pr->ring_events, ctx, sampler->kernel ? "cpu-clock:k" : sampler->user ?
				      "cpu-clock:u" : "cpu-clock", &pe) : -errno;
	pms_event_ctx__free(ctx);
	if (ret)
		goto fail;
	pms_evlist__config_sampling(&pr->ring_events, &so);
	/* processes: every thread they have now, the later ones by inheritance */
	for (size_t i = 0; i < sampler->nr_pids && !ret; i++) {
		pid_t one = sampler->pids[i], *t = NULL;
		size_t n = 1;

		if (!sampler->threads)
			ret = pms_tasks__of_process(sampler->pids[i], &t, &n);
		if (!ret)
			ret = pms_array__reserve(&threads, &threads_alloc, nr_threads + n, sizeof(*threads));
		if (!ret) {
			memcpy(threads + nr_threads, t ? t : &one, n * sizeof(*threads));
			nr_threads += n;
		}
		free(t);
	}
	/* one event per CPU (and thread): the kernel maps no inherited event opened on any CPU (-1) */
	if (!ret && !sampler->cpus)
		ret = pms_cpulist__online(&online);
	if (!ret)
		ret = pms_sampler__open(&pr->ring_events, sampler->cpus ? sampler->cpus : online.cpus,
					sampler->cpus ? sampler->nr_cpus : online.nr, threads, nr_threads, 0, &pr->ring, err);
	free(threads);
	pms_cpulist__release(&online);
	if (!ret)
		ret = pms_sampler__enable(pr->ring);
	if (ret)
		goto fail;
	*out = pr;
	return 0;
fail:
	if (!err->msg[0])
		snprintf(err->msg, sizeof(err->msg), "%s", strerror(-ret));
	pms_profiler__free(pr);
	return ret;
}

struct pms_live_syms *pms_profiler__syms(struct pms_profiler *pr)
{
	return pr->syms;
}

int pms_profiler__load_kernel_symbols(struct pms_profiler *pr)
{
	return pms_resolver__load_running_kernel(pr->res);
}

const struct pms_resolver *pms_profiler__resolver(const struct pms_profiler *pr)
{
	return pr->res;
}

void pms_profiler__limit_files(struct pms_profiler *pr, size_t max_files)
{
	pr->max_files = max_files;
}

void pms_profiler__on_announce(struct pms_profiler *pr, pms_profiler_announce_fn fn, void *arg)
{
	pr->on_announce = fn;
	pr->on_announce_arg = arg;
}
