// SPDX-License-Identifier: MIT
// Unit tests of lib/aggregate/hist + callchain: self/children sums (recursion counted once), sort keys, filters, trees, srclines forms.
#include <criterion/criterion.h>
#include <errno.h>
#include <string.h>

#include "aggregate/hist.h"

/* Interned strings, as the session hands them out: one pointer per string. */
static const char *const COMM_A = "app", *const COMM_B = "other";
static const char *const DSO_APP = "/usr/bin/app", *const DSO_LIBC = "/lib/libc.so.6";
static const char *const DSO_K = "[kernel.kallsyms]";
static const char *const S_MAIN = "main", *const S_FOO = "foo", *const S_BAR = "bar";
static const char *const S_REC = "rec", *const S_START = "__libc_start_main";
static const char *const S_SCHED = "schedule";

struct fr {
	const char *dso, *sym;
	uint64_t addr;
	bool kernel;
};

static struct pms_frame frames_buf[32];

/* One sample: leaf first. */
static struct pms_session_sample mk(size_t attr, const char *comm, uint32_t pid, uint32_t cpu,
				    uint64_t period, uint64_t t, const struct fr *fr, size_t nr)
{
	struct pms_session_sample s;

	memset(&s, 0, sizeof(s));
	for (size_t i = 0; i < nr; i++) {
		memset(&frames_buf[i], 0, sizeof(frames_buf[i]));
		frames_buf[i].ip = 0x400000 + fr[i].addr;
		frames_buf[i].kind = fr[i].kernel ? PMS_FRAME_KERNEL : PMS_FRAME_USER;
		frames_buf[i].res.dso = fr[i].dso;
		frames_buf[i].res.sym = fr[i].sym;
		frames_buf[i].res.status = fr[i].sym ? PMS_RES_OK : PMS_RES_NO_SYM;
		frames_buf[i].res.addr = fr[i].addr;
		frames_buf[i].res.sym_off = fr[i].addr & 0xf;
	}
	s.attr_idx = attr;
	s.event_name = attr ? "task-clock" : "cpu-clock";
	s.comm = comm;
	s.pid = pid;
	s.tid = pid;
	s.cpu = cpu;
	s.period = period;
	s.time_ns = t;
	s.frames = frames_buf;
	s.nr_frames = nr;
	s.has_callchain = nr > 1;
	return s;
}

static struct pms_hist *new_hist(const char *keys, bool children, enum pms_cg_order order,
				 const struct pms_hist_filter *f)
{
	struct pms_hist_opts o = { .sz = sizeof(o), .children = children, .order = order, .filter = f };
	struct pms_hist *h;

	if (keys)
		cr_assert_eq(pms_sort_keys__parse(keys, o.keys, PMS_HIST_MAX_KEYS, &o.nr_keys, NULL), 0);
	cr_assert_eq(pms_hist__new(&h, &o), 0);
	return h;
}

static void add(struct pms_hist *h, struct pms_session_sample s, int want)
{
	cr_assert_eq(pms_hist__add(h, &s), want);
}

static const struct pms_hist_entry *find(const struct pms_hist_event *ev, const char *sym)
{
	for (size_t i = 0; i < ev->nr_entries; i++)
		if (ev->entries[i]->sym == sym)
			return ev->entries[i];
	return NULL;
}

/* main -> foo -> bar (leaf), main -> foo (leaf), main (leaf) */
static void add_basic(struct pms_hist *h)
{
	const struct fr c1[] = { { DSO_APP, S_BAR, 0x30, false }, { DSO_APP, S_FOO, 0x20, false }, { DSO_APP, S_MAIN, 0x10, false } };
	const struct fr c2[] = { { DSO_APP, S_FOO, 0x21, false }, { DSO_APP, S_MAIN, 0x11, false } };
	const struct fr c3[] = { { DSO_APP, S_MAIN, 0x12, false } };

	for (int i = 0; i < 5; i++)
		add(h, mk(0, COMM_A, 10, 0, 100, 1000 + i, c1, 3), 1);
	for (int i = 0; i < 3; i++)
		add(h, mk(0, COMM_A, 10, 0, 100, 2000 + i, c2, 2), 1);
	add(h, mk(0, COMM_A, 10, 1, 200, 3000, c3, 1), 1);
}

Test(hist_keys, parse)
{
	enum pms_sort_key k[PMS_HIST_MAX_KEYS];
	size_t nr, bad;

	cr_assert_eq(pms_sort_keys__parse("comm,dso,symbol", k, PMS_HIST_MAX_KEYS, &nr, NULL), 0);
	cr_assert_eq(nr, 3);
	cr_assert_eq(k[2], PMS_SORT_SYM);
	cr_assert_eq(pms_sort_keys__parse("pid,tid,cpu,srcline,sym,sym", k, PMS_HIST_MAX_KEYS, &nr, NULL), 0);
	cr_assert_eq(nr, 5, "duplicates are dropped");
	cr_assert_eq(pms_sort_keys__parse("comm,bogus", k, PMS_HIST_MAX_KEYS, &nr, &bad), -EINVAL);
	cr_assert_eq(bad, 5);
	cr_assert_eq(pms_sort_keys__parse("comm,,dso", k, PMS_HIST_MAX_KEYS, &nr, &bad), -EINVAL);
	cr_assert_eq(pms_sort_keys__parse("", k, PMS_HIST_MAX_KEYS, &nr, &bad), -EINVAL);
	cr_assert_str_eq(pms_sort_key__name(PMS_SORT_SRCLINE), "srcline");
}

Test(hist_self, default_keys_sorted_by_self)
{
	struct pms_hist *h = new_hist(NULL, false, PMS_CG_NONE, NULL);
	const struct pms_hist_event *ev;

	add_basic(h);
	cr_assert_eq(pms_hist__finish(h, NULL), 0);
	cr_assert_eq(pms_hist__nr_events(h), 1);
	ev = pms_hist__event(h, 0);
	cr_assert_eq(ev->samples, 9);
	cr_assert_eq(ev->period, 1000);
	cr_assert_eq(ev->nr_entries, 3);
	cr_assert_eq(ev->entries[0]->sym, S_BAR);
	cr_assert_eq(ev->entries[0]->self_period, 500);
	cr_assert_eq(ev->entries[0]->self_samples, 5);
	cr_assert_eq(ev->entries[1]->sym, S_FOO);
	cr_assert_eq(ev->entries[1]->self_period, 300);
	cr_assert_eq(ev->entries[2]->sym, S_MAIN);
	cr_assert_eq(ev->entries[2]->self_period, 200);
	cr_assert_eq(ev->entries[2]->children_period, 200, "no children mode: children = self");
	cr_assert_eq(ev->entries[0]->comm, COMM_A);
	cr_assert_eq(ev->entries[0]->dso, DSO_APP);
	cr_assert_eq(ev->entries[0]->pid, 0, "pid is not a key");
	pms_hist__free(h);
}

Test(hist_children, inclusive_sums)
{
	struct pms_hist *h = new_hist(NULL, true, PMS_CG_NONE, NULL);
	const struct pms_hist_event *ev;

	add_basic(h);
	cr_assert_eq(pms_hist__finish(h, NULL), 0);
	ev = pms_hist__event(h, 0);
	cr_assert_eq(ev->entries[0]->sym, S_MAIN, "sorted by children");
	cr_assert_eq(ev->entries[0]->children_period, 1000);
	cr_assert_eq(ev->entries[0]->children_samples, 9);
	cr_assert_eq(ev->entries[0]->self_period, 200);
	cr_assert_eq(find(ev, S_FOO)->children_period, 800);
	cr_assert_eq(find(ev, S_FOO)->self_period, 300);
	cr_assert_eq(find(ev, S_BAR)->children_period, 500);
	pms_hist__free(h);
}

Test(hist_children, recursion_counts_once)
{
	const struct fr c[] = { { DSO_APP, S_REC, 0x40, false }, { DSO_APP, S_REC, 0x41, false }, { DSO_APP, S_REC, 0x42, false },
				{ DSO_APP, S_MAIN, 0x10, false } };
	struct pms_hist *h = new_hist(NULL, true, PMS_CG_CALLER, NULL);
	const struct pms_hist_event *ev;

	for (int i = 0; i < 4; i++)
		add(h, mk(0, COMM_A, 10, 0, 10, 0, c, 4), 1);
	cr_assert_eq(pms_hist__finish(h, NULL), 0);
	ev = pms_hist__event(h, 0);
	cr_assert_eq(ev->nr_entries, 2);
	cr_assert_eq(find(ev, S_REC)->children_period, 40, "a recursive function counts once per sample");
	cr_assert_eq(find(ev, S_REC)->self_period, 40);
	cr_assert_eq(find(ev, S_MAIN)->children_period, 40);
	cr_assert_eq(find(ev, S_MAIN)->self_period, 0);
	for (size_t i = 0; i < ev->nr_entries; i++)
		cr_assert_geq(ev->entries[i]->children_period, ev->entries[i]->self_period);
	pms_hist__free(h);
}

/* Walk a single-path tree into names. */
static size_t path_of(const struct pms_hist *h, uint32_t root, const char **out, size_t max)
{
	const struct pms_cg *cg = pms_hist__cg(h);
	const struct pms_cg_node *n = pms_cg__node(cg, root);
	size_t nr = 0;

	while (n && n->first_child && nr < max) {
		n = pms_cg__node(cg, n->first_child);
		out[nr++] = pms_hist__frame(h, n->frame)->sym;
	}
	return nr;
}

Test(hist_tree, callee_order_no_children)
{
	struct pms_hist *h = new_hist(NULL, false, PMS_CG_CALLEE, NULL);
	const struct pms_hist_event *ev;
	const struct pms_cg *cg;
	const struct pms_cg_node *root, *n;
	const char *p[8];

	add_basic(h);
	cr_assert_eq(pms_hist__finish(h, NULL), 0);
	ev = pms_hist__event(h, 0);
	cr_assert_eq(path_of(h, find(ev, S_BAR)->cg_root, p, 8), 3);
	cr_assert_eq(p[0], S_BAR);
	cr_assert_eq(p[1], S_FOO);
	cr_assert_eq(p[2], S_MAIN);
	cg = pms_hist__cg(h);
	root = pms_cg__node(cg, find(ev, S_BAR)->cg_root);
	cr_assert_eq(root->period, 500);
	n = pms_cg__node(cg, root->first_child);
	cr_assert_eq(n->period, 500);
	cr_assert_eq(n->next_sibling, 0);
	pms_hist__free(h);
}

Test(hist_tree, caller_order_children)
{
	struct pms_hist *h = new_hist(NULL, true, PMS_CG_CALLER, NULL);
	const struct pms_hist_event *ev;
	const struct pms_cg *cg;
	const struct pms_cg_node *root, *n;
	const char *p[8];

	add_basic(h);
	cr_assert_eq(pms_hist__finish(h, NULL), 0);
	ev = pms_hist__event(h, 0);
	cg = pms_hist__cg(h);
	/* bar is only ever sampled: its tree is the whole chain, outermost first */
	cr_assert_eq(path_of(h, find(ev, S_BAR)->cg_root, p, 8), 3);
	cr_assert_eq(p[0], S_MAIN);
	cr_assert_eq(p[2], S_BAR);
	/* main's tree: main, then its callees; foo (800) before nothing else */
	root = pms_cg__node(cg, find(ev, S_MAIN)->cg_root);
	cr_assert_eq(root->period, 1000);
	n = pms_cg__node(cg, root->first_child);
	cr_assert_eq(pms_hist__frame(h, n->frame)->sym, S_MAIN);
	cr_assert_eq(n->period, 1000);
	n = pms_cg__node(cg, n->first_child);
	cr_assert_eq(pms_hist__frame(h, n->frame)->sym, S_FOO);
	cr_assert_eq(n->period, 800);
	n = pms_cg__node(cg, n->first_child);
	cr_assert_eq(pms_hist__frame(h, n->frame)->sym, S_BAR);
	cr_assert_eq(n->period, 500);
	pms_hist__free(h);
}

Test(hist_tree, siblings_sorted)
{
	const struct fr a[] = { { DSO_APP, S_FOO, 0x20, false }, { DSO_APP, S_MAIN, 0x10, false } };
	const struct fr b[] = { { DSO_APP, S_BAR, 0x30, false }, { DSO_APP, S_MAIN, 0x10, false } };
	struct pms_hist *h = new_hist("dso", false, PMS_CG_CALLER, NULL);
	const struct pms_cg *cg;
	const struct pms_cg_node *n;

	add(h, mk(0, COMM_A, 1, 0, 10, 0, a, 2), 1);
	for (int i = 0; i < 3; i++)
		add(h, mk(0, COMM_A, 1, 0, 10, 0, b, 2), 1);
	cr_assert_eq(pms_hist__finish(h, NULL), 0);
	cg = pms_hist__cg(h);
	n = pms_cg__node(cg, pms_hist__event(h, 0)->entries[0]->cg_root);
	n = pms_cg__node(cg, n->first_child); /* main */
	n = pms_cg__node(cg, n->first_child);
	cr_assert_eq(pms_hist__frame(h, n->frame)->sym, S_BAR, "heavier branch first");
	cr_assert_eq(n->period, 30);
	n = pms_cg__node(cg, n->next_sibling);
	cr_assert_eq(pms_hist__frame(h, n->frame)->sym, S_FOO);
	cr_assert_eq(n->period, 10);
	pms_hist__free(h);
}

Test(hist_keys, pid_cpu_dso_merge)
{
	const struct fr x[] = { { DSO_APP, S_FOO, 0x20, false } };
	const struct fr y[] = { { DSO_APP, S_BAR, 0x30, false } };
	const struct fr z[] = { { DSO_LIBC, S_START, 0x50, false } };
	struct pms_hist *h = new_hist("pid,dso", false, PMS_CG_NONE, NULL);
	const struct pms_hist_event *ev;

	add(h, mk(0, COMM_A, 10, 0, 1, 0, x, 1), 1);
	add(h, mk(0, COMM_A, 10, 1, 1, 0, y, 1), 1);
	add(h, mk(0, COMM_B, 11, 0, 1, 0, y, 1), 1);
	add(h, mk(0, COMM_A, 10, 0, 1, 0, z, 1), 1);
	cr_assert_eq(pms_hist__finish(h, NULL), 0);
	ev = pms_hist__event(h, 0);
	cr_assert_eq(ev->nr_entries, 3);
	cr_assert_eq(ev->entries[0]->pid, 10);
	cr_assert_eq(ev->entries[0]->dso, DSO_APP);
	cr_assert_eq(ev->entries[0]->self_samples, 2, "foo and bar merge under dso");
	cr_assert_eq(ev->entries[0]->comm, COMM_A, "pid entries keep the comm for printing");
	cr_assert_null(ev->entries[0]->sym);
	pms_hist__free(h);

	h = new_hist("cpu", false, PMS_CG_NONE, NULL);
	add(h, mk(0, COMM_A, 10, 0, 1, 0, x, 1), 1);
	add(h, mk(0, COMM_A, 10, 1, 5, 0, y, 1), 1);
	add(h, mk(0, COMM_B, 11, 1, 1, 0, y, 1), 1);
	cr_assert_eq(pms_hist__finish(h, NULL), 0);
	ev = pms_hist__event(h, 0);
	cr_assert_eq(ev->nr_entries, 2);
	cr_assert_eq(ev->entries[0]->cpu, 1);
	cr_assert_eq(ev->entries[0]->self_period, 6);
	pms_hist__free(h);
}

Test(hist_keys, unresolved_by_address_and_kernel_level)
{
	const struct fr u1[] = { { DSO_APP, NULL, 0x1234, false } };
	const struct fr u2[] = { { DSO_APP, NULL, 0x5678, false } };
	const struct fr k[] = { { DSO_K, S_SCHED, 0xffffffff81000000ULL, true } };
	struct pms_hist *h = new_hist(NULL, false, PMS_CG_NONE, NULL);
	const struct pms_hist_event *ev;

	add(h, mk(0, COMM_A, 1, 0, 1, 0, u1, 1), 1);
	add(h, mk(0, COMM_A, 1, 0, 1, 0, u1, 1), 1);
	add(h, mk(0, COMM_A, 1, 0, 1, 0, u2, 1), 1);
	add(h, mk(0, COMM_A, 1, 0, 1, 0, k, 1), 1);
	cr_assert_eq(pms_hist__finish(h, NULL), 0);
	ev = pms_hist__event(h, 0);
	cr_assert_eq(ev->nr_entries, 3);
	cr_assert_null(ev->entries[0]->sym);
	cr_assert_eq(ev->entries[0]->addr, 0x1234);
	cr_assert_eq(ev->entries[0]->self_samples, 2);
	cr_assert_eq(ev->entries[0]->status, PMS_RES_NO_SYM);
	cr_assert_str_eq(pms_hist__level(ev->entries[0]->kind), "[.]");
	cr_assert_str_eq(pms_hist__level(find(ev, S_SCHED)->kind), "[k]");
	pms_hist__free(h);
}

Test(hist_keys, srcline_fallback_forms)
{
	const struct fr a[] = { { DSO_APP, S_FOO, 0x23, false } };
	const struct fr b[] = { { DSO_APP, S_FOO, 0x25, false } };
	const struct fr u[] = { { DSO_LIBC, NULL, 0xabc, false } };
	struct pms_hist *h = new_hist("srcline", false, PMS_CG_NONE, NULL);
	const struct pms_hist_event *ev;

	add(h, mk(0, COMM_A, 1, 0, 1, 0, a, 1), 1);
	add(h, mk(0, COMM_A, 1, 0, 1, 0, a, 1), 1);
	add(h, mk(0, COMM_A, 1, 0, 1, 0, b, 1), 1);
	add(h, mk(0, COMM_A, 1, 0, 1, 0, u, 1), 1);
	cr_assert_eq(pms_hist__finish(h, NULL), 0);
	ev = pms_hist__event(h, 0);
	cr_assert_eq(ev->nr_entries, 3, "one entry per address without DWARF");
	cr_assert_str_eq(ev->entries[0]->srcline, "foo+3");
	cr_assert_eq(ev->entries[0]->self_samples, 2);
	cr_assert_str_eq(ev->entries[1]->srcline, "foo+5");
	cr_assert_str_eq(ev->entries[2]->srcline, "libc.so.6[abc]");
	pms_hist__free(h);
}

Test(hist_filter, all_kinds)
{
	const char *comms[] = { "app" };
	const uint32_t pids[] = { 10 };
	const char *dsos[] = { "app" };
	const char *syms[] = { "bar" };
	struct pms_hist_filter f;
	struct pms_hist *h;
	const struct fr c1[] = { { DSO_APP, S_BAR, 0x30, false }, { DSO_APP, S_MAIN, 0x10, false } };
	const struct fr c2[] = { { DSO_LIBC, S_START, 0x50, false } };

	memset(&f, 0, sizeof(f));
	f.comms = comms;
	f.nr_comms = 1;
	h = new_hist(NULL, false, PMS_CG_NONE, &f);
	add(h, mk(0, COMM_A, 10, 0, 1, 0, c1, 2), 1);
	add(h, mk(0, COMM_B, 10, 0, 1, 0, c1, 2), 0);
	cr_assert_eq(pms_hist__filtered(h), 1);
	pms_hist__free(h);

	memset(&f, 0, sizeof(f));
	f.pids = pids;
	f.nr_pids = 1;
	f.dsos = dsos; /* base name matches */
	f.nr_dsos = 1;
	h = new_hist(NULL, false, PMS_CG_NONE, &f);
	add(h, mk(0, COMM_A, 10, 0, 1, 0, c1, 2), 1);
	add(h, mk(0, COMM_A, 11, 0, 1, 0, c1, 2), 0);
	add(h, mk(0, COMM_A, 10, 0, 1, 0, c2, 1), 0);
	pms_hist__free(h);

	memset(&f, 0, sizeof(f));
	f.syms = syms;
	f.nr_syms = 1;
	f.time_start_ns = 100;
	f.time_end_ns = 200;
	h = new_hist(NULL, false, PMS_CG_NONE, &f);
	add(h, mk(0, COMM_A, 10, 0, 1, 150, c1, 2), 1);
	add(h, mk(0, COMM_A, 10, 0, 1, 250, c1, 2), 0);
	add(h, mk(0, COMM_A, 10, 0, 1, 50, c1, 2), 0);
	add(h, mk(0, COMM_A, 10, 0, 1, 150, c2, 1), 0);
	cr_assert_eq(pms_hist__finish(h, NULL), 0);
	cr_assert_eq(pms_hist__event(h, 0)->samples, 2, "out of time: dropped; other symbol: hidden but counted");
	cr_assert_eq(pms_hist__event(h, 0)->nr_entries, 1);
	cr_assert_eq(pms_hist__filtered(h), 3);
	pms_hist__free(h);
}

Test(hist_events, separate_per_attr)
{
	const struct fr a[] = { { DSO_APP, S_FOO, 0x20, false } };
	const struct fr b[] = { { DSO_APP, S_BAR, 0x30, false } };
	struct pms_hist *h = new_hist(NULL, false, PMS_CG_NONE, NULL);

	add(h, mk(0, COMM_A, 1, 0, 10, 0, a, 1), 1);
	add(h, mk(1, COMM_A, 1, 0, 7, 0, b, 1), 1);
	add(h, mk(1, COMM_A, 1, 0, 7, 0, a, 1), 1);
	cr_assert_eq(pms_hist__finish(h, NULL), 0);
	cr_assert_eq(pms_hist__nr_events(h), 2);
	cr_assert_eq(pms_hist__event(h, 0)->nr_entries, 1);
	cr_assert_eq(pms_hist__event(h, 1)->nr_entries, 2);
	cr_assert_eq(pms_hist__event(h, 1)->period, 14);
	cr_assert_str_eq(pms_hist__event(h, 1)->name, "task-clock");
	pms_hist__free(h);
}

Test(hist_cg, add_path_and_sort)
{
	struct pms_cg cg;
	uint32_t root;
	const uint32_t p1[] = { 1, 2 }, p2[] = { 1, 3 }, p3[] = { 1, 3 };

	pms_cg__init(&cg);
	root = pms_cg__new_root(&cg);
	cr_assert_neq(root, 0);
	cr_assert_eq(pms_cg__add_path(&cg, root, p1, 2, 5, 1), 0);
	cr_assert_eq(pms_cg__add_path(&cg, root, p2, 2, 5, 1), 0);
	cr_assert_eq(pms_cg__add_path(&cg, root, p3, 2, 5, 1), 0);
	pms_cg__sort(&cg);
	cr_assert_eq(cg.nodes[root].period, 15);
	{
		const struct pms_cg_node *one = pms_cg__node(&cg, cg.nodes[root].first_child);
		const struct pms_cg_node *first = pms_cg__node(&cg, one->first_child);

		cr_assert_eq(one->period, 15);
		cr_assert_eq(first->frame, 3);
		cr_assert_eq(first->period, 10);
		cr_assert_eq(pms_cg__node(&cg, first->next_sibling)->frame, 2);
	}
	cr_assert_eq(pms_cg__add_path(&cg, 0, p1, 2, 1, 1), -EINVAL);
	pms_cg__release(&cg);
	pms_cg__release(NULL);
}

Test(hist_keys, strings_merge_by_content_and_dso_by_base_name)
{
	static char comm2[] = "app", sym2[] = "foo";
	const struct fr a[] = { { DSO_APP, S_FOO, 0x20, false } };
	const struct fr b[] = { { "/other/build/app", sym2, 0x20, false } };
	struct pms_hist *h = new_hist(NULL, false, PMS_CG_NONE, NULL);
	const struct pms_hist_event *ev;

	add(h, mk(0, COMM_A, 1, 0, 1, 0, a, 1), 1);
	add(h, mk(0, comm2, 2, 0, 1, 0, b, 1), 1);
	cr_assert_eq(pms_hist__finish(h, NULL), 0);
	ev = pms_hist__event(h, 0);
	cr_assert_eq(ev->nr_entries, 1, "same comm text, same base name, same symbol text: one row (perf's keys)");
	cr_assert_eq(ev->entries[0]->self_samples, 2);
	cr_assert_str_eq(ev->entries[0]->dso, DSO_APP);
	pms_hist__free(h);
}

/* ------------------------------------------------------- branch mode -- */

struct br {
	const char *from_dso, *from_sym;
	uint64_t from_addr;
	const char *to_dso, *to_sym;
	uint64_t to_addr;
	uint16_t cycles;
	bool mispred;
};

static struct pms_hist_branch branches_buf[16];

static void end_frame(struct pms_frame *f, const char *dso, const char *sym, uint64_t addr)
{
	memset(f, 0, sizeof(*f));
	f->ip = 0x400000 + addr;
	f->kind = dso == DSO_K ? PMS_FRAME_KERNEL : PMS_FRAME_USER;
	f->res.dso = dso;
	f->res.sym = sym;
	f->res.status = sym ? PMS_RES_OK : PMS_RES_NO_SYM;
	f->res.addr = addr;
}

/* One sample (leaf main in app) with the branches b[0..nr). */
static int add_br(struct pms_hist *h, const char *comm, const struct br *b, size_t nr)
{
	const struct fr leaf[] = { { DSO_APP, S_MAIN, 0x10, false } };
	struct pms_session_sample s = mk(0, comm, 10, 0, 1000, 1, leaf, 1);

	for (size_t i = 0; i < nr; i++) {
		end_frame(&branches_buf[i].from, b[i].from_dso, b[i].from_sym, b[i].from_addr);
		end_frame(&branches_buf[i].to, b[i].to_dso, b[i].to_sym, b[i].to_addr);
		branches_buf[i].cycles = b[i].cycles;
		branches_buf[i].mispred = b[i].mispred;
		branches_buf[i].predicted = !b[i].mispred;
	}
	return pms_hist__add_branches(h, &s, branches_buf, nr);
}

static struct pms_hist *new_branch_hist(const char *keys, const struct pms_hist_filter *f)
{
	struct pms_hist_opts o = { .sz = sizeof(o), .branch = true, .filter = f };
	struct pms_hist *h;

	if (keys)
		cr_assert_eq(pms_sort_keys__parse(keys, o.keys, PMS_HIST_MAX_KEYS, &o.nr_keys, NULL), 0);
	cr_assert_eq(pms_hist__new(&h, &o), 0);
	return h;
}

Test(hist_branch, keys_parse_and_refused_outside_branch_mode)
{
	enum pms_sort_key k[PMS_HIST_MAX_KEYS];
	size_t nr;
	struct pms_hist_opts o = { .sz = sizeof(o) };
	struct pms_hist *h;

	cr_assert_eq(pms_sort_keys__parse("comm,dso_from,symbol_from,sym_to,cycles,mispredict,dso_to", k,
					  PMS_HIST_MAX_KEYS, &nr, NULL), 0);
	cr_assert_eq(nr, 7);
	cr_assert_eq(k[2], PMS_SORT_SYM_FROM);
	cr_assert_eq(k[3], PMS_SORT_SYM_TO);
	cr_assert_str_eq(pms_sort_key__name(PMS_SORT_SYM_FROM), "symbol_from");
	cr_assert(pms_sort_key__is_branch(PMS_SORT_CYCLES));
	cr_assert_not(pms_sort_key__is_branch(PMS_SORT_SYM));
	/* a branch key without branch mode, srcline or children with it: refused */
	o.keys[0] = PMS_SORT_SYM_FROM;
	o.nr_keys = 1;
	cr_assert_eq(pms_hist__new(&h, &o), -EINVAL);
	o.branch = true;
	o.keys[0] = PMS_SORT_SRCLINE;
	cr_assert_eq(pms_hist__new(&h, &o), -EINVAL);
	o.nr_keys = 0;
	o.children = true;
	cr_assert_eq(pms_hist__new(&h, &o), -EINVAL);
	o.children = false;
	cr_assert_eq(pms_hist__new(&h, &o), 0);
	{
		const struct fr leaf[] = { { DSO_APP, S_MAIN, 0x10, false } };
		struct pms_session_sample s = mk(0, COMM_A, 10, 0, 100, 1, leaf, 1);

		cr_assert_eq(pms_hist__add(h, &s), -EINVAL, "samples come as branches in branch mode");
	}
	pms_hist__free(h);
	o.branch = false;
	cr_assert_eq(pms_hist__new(&h, &o), 0);
	cr_assert_eq(add_br(h, COMM_A, (const struct br[]){ { DSO_APP, S_FOO, 1, DSO_APP, S_BAR, 2, 0, false } }, 1),
		     -EINVAL);
	pms_hist__free(h);
}

Test(hist_branch, one_hit_per_branch_keyed_by_function_or_address)
{
	struct pms_hist *h = new_branch_hist(NULL, NULL);
	const struct pms_hist_event *ev;
	/* foo+1 and foo+5 -> bar: one entry (same functions); 0x900 -> 0x950 unresolved: per address */
	const struct br s1[] = {
		{ DSO_APP, S_FOO, 0x101, DSO_APP, S_BAR, 0x200, 0, false },
		{ DSO_APP, S_FOO, 0x105, DSO_APP, S_BAR, 0x210, 0, false },
		{ DSO_APP, NULL, 0x900, DSO_APP, NULL, 0x950, 0, false },
		{ DSO_APP, NULL, 0x904, DSO_APP, NULL, 0x950, 0, false },
	};
	const struct br s2[] = {
		{ DSO_APP, S_FOO, 0x101, DSO_APP, S_BAR, 0x200, 0, false },
		{ "[unknown]", NULL, 0, "[unknown]", NULL, 0, 0, false },
	};

	cr_assert_eq(add_br(h, COMM_A, s1, 4), 4);
	cr_assert_eq(add_br(h, COMM_A, s2, 2), 2);
	cr_assert_eq(add_br(h, COMM_A, s2, 0), 0, "a sample without branches adds nothing");
	cr_assert_eq(pms_hist__finish(h, NULL), 0);
	ev = pms_hist__event(h, 0);
	/* perf's pseudo period: 6 branches, whatever the samples' periods */
	cr_assert_eq(ev->samples, 6);
	cr_assert_eq(ev->period, 6);
	cr_assert_eq(ev->nr_entries, 4);
	cr_assert_eq(ev->entries[0]->from.sym, S_FOO);
	cr_assert_eq(ev->entries[0]->to.sym, S_BAR);
	cr_assert_eq(ev->entries[0]->self_period, 3);
	cr_assert_eq(ev->entries[0]->self_samples, 3);
	cr_assert_eq(ev->entries[0]->from.addr, 0, "keyed by function");
	cr_assert_str_eq(ev->entries[0]->from.dso, DSO_APP);
	cr_assert_eq(ev->entries[0]->comm, COMM_A);
	cr_assert_eq(ev->entries[0]->sym, NULL, "sym is not a key");
	for (size_t i = 1; i < 4; i++)
		cr_assert_eq(ev->entries[i]->self_period, 1);
	/* equal weights, perf's order: dso_from with no map first, then symbol_from's addresses ascending */
	cr_assert_str_eq(ev->entries[1]->from.dso, "[unknown]");
	cr_assert(ev->entries[1]->from.unmapped);
	cr_assert_str_eq(pms_hist__branch_level(&ev->entries[1]->from), "[H]");
	cr_assert_eq(ev->entries[2]->from.addr, 0x900);
	cr_assert_eq(ev->entries[3]->from.addr, 0x904);
	cr_assert_not(ev->entries[2]->from.unmapped);
	cr_assert_str_eq(pms_hist__branch_level(&ev->entries[2]->from), "[.]");
	pms_hist__free(h);
}

Test(hist_branch, cycles_and_mispredict_split_entries)
{
	struct pms_hist *h = new_branch_hist("symbol_from,cycles,mispredict", NULL);
	const struct pms_hist_event *ev;
	const struct br s[] = {
		{ DSO_APP, S_FOO, 1, DSO_APP, S_BAR, 2, 7, false },
		{ DSO_APP, S_FOO, 1, DSO_APP, S_BAR, 2, 7, false },
		{ DSO_APP, S_FOO, 1, DSO_APP, S_BAR, 2, 9, false },
		{ DSO_APP, S_FOO, 1, DSO_APP, S_BAR, 2, 7, true },
		{ DSO_APP, S_FOO, 1, DSO_APP, S_MAIN, 3, 0, false },
	};

	cr_assert_eq(add_br(h, COMM_A, s, 5), 5);
	cr_assert_eq(pms_hist__finish(h, NULL), 0);
	ev = pms_hist__event(h, 0);
	cr_assert_eq(ev->nr_entries, 4, "the target is not a key: main and bar merge, cycles and mispredict split");
	cr_assert_eq(ev->entries[0]->cycles, 7);
	cr_assert_eq(ev->entries[0]->self_period, 2);
	cr_assert(ev->entries[0]->predicted);
	/* equal weights: cycles descending (perf's order) */
	cr_assert_eq(ev->entries[1]->cycles, 9);
	cr_assert_eq(ev->entries[2]->cycles, 7);
	cr_assert(ev->entries[2]->mispred);
	cr_assert_eq(ev->entries[3]->cycles, 0);
	cr_assert_eq(ev->entries[3]->to.dso, NULL, "the target is not a key");
	pms_hist__free(h);
}

Test(hist_branch, filters_judge_the_sample_and_count_branches)
{
	const char *const comms[] = { "other" };
	struct pms_hist_filter f = { .comms = comms, .nr_comms = 1 };
	struct pms_hist *h = new_branch_hist(NULL, &f);
	const struct pms_hist_event *ev;
	const struct br s[] = {
		{ DSO_APP, S_FOO, 1, DSO_APP, S_BAR, 2, 0, false },
		{ DSO_APP, S_BAR, 2, DSO_APP, S_FOO, 3, 0, false },
	};

	cr_assert_eq(add_br(h, COMM_A, s, 2), 0, "hidden by --comm");
	cr_assert_eq(add_br(h, COMM_B, s, 1), 1);
	cr_assert_eq(pms_hist__finish(h, NULL), 0);
	cr_assert_eq(pms_hist__filtered(h), 2, "counted per branch");
	ev = pms_hist__event(h, 0);
	cr_assert_eq(ev->period, 3, "hidden branches keep counting in the total (perf's absolute percentages)");
	cr_assert_eq(ev->nr_entries, 1);
	cr_assert_eq(ev->entries[0]->comm, COMM_B);
	pms_hist__free(h);
}

/* ------------------------------------------------------------- groups -- */

Test(hist_group, rows_matched_by_keys_sorted_leader_first)
{
	struct pms_hist *h = new_hist(NULL, false, PMS_CG_NONE, NULL);
	struct pms_hist_group *g;
	const size_t members[] = { 0, 1, 2 };
	const struct fr foo[] = { { DSO_APP, S_FOO, 0x20, false } };
	const struct fr bar[] = { { DSO_APP, S_BAR, 0x30, false } };
	const struct fr sched[] = { { DSO_K, S_SCHED, 0x40, true } };

	/* leader (0): foo 300, bar 100; member (1): bar 50, schedule 150; event 2: no samples */
	add(h, mk(0, COMM_A, 10, 0, 300, 1, foo, 1), 1);
	add(h, mk(0, COMM_A, 10, 0, 100, 2, bar, 1), 1);
	add(h, mk(1, COMM_A, 10, 0, 50, 3, bar, 1), 1);
	add(h, mk(1, COMM_A, 10, 0, 150, 4, sched, 1), 1);
	cr_assert_eq(pms_hist__group(h, members, 3, &g), -EINVAL, "only after finish");
	cr_assert_eq(pms_hist__finish(h, NULL), 0);
	cr_assert_eq(pms_hist__group(h, members, 0, &g), -EINVAL);
	cr_assert_eq(pms_hist__group(h, members, 3, &g), 0);
	cr_assert_eq(g->nr_members, 3);
	cr_assert_not_null(g->events[0]);
	cr_assert_not_null(g->events[1]);
	cr_assert_null(g->events[2], "an event without samples");
	cr_assert_eq(pms_hist__event_of(h, 2), NULL);
	cr_assert_eq(g->nr_rows, 3);
	/* leader's weight first (foo 300, bar 100, schedule 0), then the member's */
	cr_assert_eq(g->rows[0].key->sym, S_FOO);
	cr_assert_eq(g->rows[0].members[0]->self_period, 300);
	cr_assert_null(g->rows[0].members[1]);
	cr_assert_eq(g->rows[1].key->sym, S_BAR);
	cr_assert_eq(g->rows[1].members[0]->self_period, 100);
	cr_assert_eq(g->rows[1].members[1]->self_period, 50);
	cr_assert_eq(g->rows[1].members[0]->priv_event, 0);
	cr_assert_eq(g->rows[1].members[1]->priv_event, 1);
	cr_assert_eq(g->rows[2].key->sym, S_SCHED, "a member-only row, as perf's linked dummy entries");
	cr_assert_null(g->rows[2].members[0]);
	cr_assert_eq(g->rows[2].members[1]->self_period, 150);
	cr_assert_null(g->rows[2].members[2]);
	pms_hist_group__free(g);
	pms_hist__free(h);
}

Test(hist_group, ties_on_the_leader_go_by_members)
{
	struct pms_hist *h = new_hist(NULL, false, PMS_CG_NONE, NULL);
	struct pms_hist_group *g;
	const size_t members[] = { 0, 1 };
	const struct fr foo[] = { { DSO_APP, S_FOO, 0x20, false } };
	const struct fr bar[] = { { DSO_APP, S_BAR, 0x30, false } };

	add(h, mk(0, COMM_A, 10, 0, 100, 1, foo, 1), 1);
	add(h, mk(0, COMM_A, 10, 0, 100, 2, bar, 1), 1);
	add(h, mk(1, COMM_A, 10, 0, 10, 3, foo, 1), 1);
	add(h, mk(1, COMM_A, 10, 0, 90, 4, bar, 1), 1);
	cr_assert_eq(pms_hist__finish(h, NULL), 0);
	cr_assert_eq(pms_hist__group(h, members, 2, &g), 0);
	cr_assert_eq(g->nr_rows, 2);
	cr_assert_eq(g->rows[0].key->sym, S_BAR, "equal leader weights: the member's decides (bar 90 > foo 10)");
	cr_assert_eq(g->rows[1].key->sym, S_FOO);
	pms_hist_group__free(g);
	pms_hist__free(h);
}

static const struct pms_hist_entry *find_addr(const struct pms_hist_event *ev, const char *dso, uint64_t addr)
{
	for (size_t i = 0; i < ev->nr_entries; i++)
		if (!ev->entries[i]->sym && ev->entries[i]->addr == addr && !strcmp(ev->entries[i]->dso, dso))
			return ev->entries[i];
	return NULL;
}

/*
 * perf's cumulative pass walks the recorded chain, whose first entry is the
 * sampled IP: an unresolved sampled frame counts (children only) under its
 * runtime address too, beside its own row at the file address. An address
 * outside every map takes the level of the node perf looked at before it
 * (from the outermost caller by default, from the leaf with callee order).
 */
static void unmapped_and_twin_rows(enum pms_cg_order order, const char *unmapped_level)
{
	const struct fr k_chain[] = { { DSO_K, S_SCHED, 0xffffffff81000000ULL, true },
				      { DSO_APP, NULL, 0x1234, false },
				      { "[unknown]", NULL, 0x20, false } };
	const struct fr u_chain[] = { { DSO_APP, NULL, 0x1234, false }, { DSO_APP, S_MAIN, 0x10, false } };
	struct pms_hist *h = new_hist(NULL, true, order, NULL);
	const struct pms_hist_event *ev;
	const struct pms_hist_entry *e;
	struct pms_session_sample s;

	s = mk(0, COMM_A, 1, 0, 1, 0, k_chain, 3);
	frames_buf[2].res.addr = frames_buf[2].ip; /* no map: the address as it ran */
	add(h, s, 1);
	add(h, mk(0, COMM_A, 1, 0, 1, 1, u_chain, 2), 1);
	cr_assert_eq(pms_hist__finish(h, NULL), 0);
	ev = pms_hist__event(h, 0);
	e = find_addr(ev, "[unknown]", 0x400020);
	cr_assert_not_null(e);
	cr_expect_eq(e->children_samples, 1);
	cr_expect_eq(e->self_samples, 0);
	cr_expect_str_eq(pms_hist__level(e->kind), unmapped_level);
	e = find_addr(ev, DSO_APP, 0x1234);
	cr_assert_not_null(e, "the sampled frame's own row, at its file address");
	cr_expect_eq(e->self_samples, 1);
	cr_expect_eq(e->children_samples, 1);
	e = find_addr(ev, DSO_APP, 0x401234);
	cr_assert_not_null(e, "its runtime-address row");
	cr_expect_eq(e->self_samples, 0);
	cr_expect_eq(e->children_samples, 2, "the caller frame of the first sample and the twin of the second");
	pms_hist__free(h);
}

Test(hist_children, unmapped_level_and_sampled_frame_twin_caller_order)
{
	unmapped_and_twin_rows(PMS_CG_CALLER, "[k]");
}

Test(hist_children, unmapped_level_and_sampled_frame_twin_no_graph)
{
	unmapped_and_twin_rows(PMS_CG_NONE, "[k]");
}

Test(hist_children, unmapped_level_and_sampled_frame_twin_callee_order)
{
	unmapped_and_twin_rows(PMS_CG_CALLEE, "[.]");
}

/* perf's period_sys/period_us: an entry's self period by where the sampled IP ran. */
Test(hist_self, sys_and_user_periods)
{
	struct pms_hist *h = new_hist(NULL, true, PMS_CG_NONE, NULL);
	const struct fr k[] = { { DSO_K, S_SCHED, 0x40, true }, { DSO_APP, S_MAIN, 0x10, false } };
	const struct fr u[] = { { DSO_APP, S_MAIN, 0x12, false } };
	const struct pms_hist_event *ev;
	const struct pms_hist_entry *e;

	add(h, mk(0, COMM_A, 10, 0, 300, 1, k, 2), 1);
	add(h, mk(0, COMM_A, 10, 0, 100, 2, u, 1), 1);
	cr_assert_eq(pms_hist__finish(h, NULL), 0);
	ev = pms_hist__event(h, 0);
	e = find(ev, S_SCHED);
	cr_assert(e);
	cr_assert_eq(e->self_period_sys, 300);
	cr_assert_eq(e->self_period_us, 0);
	e = find(ev, S_MAIN);
	cr_assert(e);
	cr_assert_eq(e->self_period_us, 100, "main's own sample only");
	cr_assert_eq(e->self_period_sys, 0, "a caller's children weight is not its own");
	cr_assert_eq(e->children_period, 400);
	pms_hist__free(h);
}

/* -U and --symbol-filter hide samples: counted in the event's total and in its hidden part. */
Test(hist_filter, hide_unresolved_and_substring)
{
	struct pms_hist_filter f;
	struct pms_hist *h;
	const struct fr named[] = { { DSO_APP, S_FOO, 0x20, false } };
	const struct fr other[] = { { DSO_APP, S_BAR, 0x30, false } };
	const struct fr unnamed[] = { { DSO_APP, NULL, 0x99, false } };
	const struct pms_hist_event *ev;

	memset(&f, 0, sizeof(f));
	f.hide_unresolved = true;
	h = new_hist(NULL, false, PMS_CG_NONE, &f);
	add(h, mk(0, COMM_A, 10, 0, 100, 1, named, 1), 1);
	add(h, mk(0, COMM_A, 10, 0, 50, 2, unnamed, 1), 0);
	cr_assert_eq(pms_hist__finish(h, NULL), 0);
	ev = pms_hist__event(h, 0);
	cr_assert_eq(ev->period, 150, "absolute percentages keep the hidden sample in the total");
	cr_assert_eq(ev->hidden_period, 50);
	cr_assert_eq(ev->hidden_samples, 1);
	cr_assert_eq(ev->nr_entries, 1);
	pms_hist__free(h);

	memset(&f, 0, sizeof(f));
	f.sym_substr = "oo";
	h = new_hist(NULL, false, PMS_CG_NONE, &f);
	add(h, mk(0, COMM_A, 10, 0, 100, 1, named, 1), 1);
	add(h, mk(0, COMM_A, 10, 0, 30, 2, other, 1), 0);
	add(h, mk(0, COMM_A, 10, 0, 20, 3, unnamed, 1), 0);
	cr_assert_eq(pms_hist__finish(h, NULL), 0);
	ev = pms_hist__event(h, 0);
	cr_assert_eq(ev->nr_entries, 1);
	cr_assert_eq(ev->entries[0]->sym, S_FOO);
	cr_assert_eq(ev->hidden_period, 50);
	cr_assert_eq(pms_hist__filtered(h), 2);
	pms_hist__free(h);
}

/* A chain --max-stack cut from the root: the entry is the sampled frame, its tree starts further out. */
Test(hist_tree, leaf_cut_chain_leaves_the_sampled_frame_out)
{
	struct pms_hist *h = new_hist(NULL, false, PMS_CG_CALLER, NULL);
	const struct fr c[] = { { DSO_APP, S_BAR, 0x30, false }, { DSO_APP, S_START, 0x5, false }, { DSO_APP, S_MAIN, 0x10, false } };
	struct pms_session_sample s = mk(0, COMM_A, 10, 0, 100, 1, c, 3);
	const struct pms_hist_entry *e;
	const struct pms_cg *cg;
	const struct pms_cg_node *root, *n;

	s.leaf_cut = true;
	add(h, s, 1);
	cr_assert_eq(pms_hist__finish(h, NULL), 0);
	e = find(pms_hist__event(h, 0), S_BAR);
	cr_assert(e);
	cr_assert_eq(e->self_period, 100);
	cg = pms_hist__cg(h);
	root = pms_cg__node(cg, e->cg_root);
	cr_assert(root);
	n = pms_cg__node(cg, root->first_child);
	cr_assert(n);
	cr_assert_str_eq(pms_hist__frame(h, n->frame)->sym, S_MAIN, "caller order: the outermost kept frame first");
	n = pms_cg__node(cg, n->first_child);
	cr_assert(n);
	cr_assert_str_eq(pms_hist__frame(h, n->frame)->sym, S_START);
	cr_assert_eq(n->first_child, 0, "no node for the sampled frame itself");
	pms_hist__free(h);
}

/* --group-sort-idx: rows by a member's weight, equal ones in their order before. */
Test(hist_group, sort_by_member)
{
	struct pms_hist *h = new_hist(NULL, false, PMS_CG_NONE, NULL);
	struct pms_hist_group *g;
	const size_t members[] = { 0, 1 };
	const struct fr foo[] = { { DSO_APP, S_FOO, 0x20, false } };
	const struct fr bar[] = { { DSO_APP, S_BAR, 0x30, false } };
	const struct fr sched[] = { { DSO_K, S_SCHED, 0x40, true } };

	/* leader: foo 300, bar 100, schedule 50; member: schedule 150, bar 10 */
	add(h, mk(0, COMM_A, 10, 0, 300, 1, foo, 1), 1);
	add(h, mk(0, COMM_A, 10, 0, 100, 2, bar, 1), 1);
	add(h, mk(0, COMM_A, 10, 0, 50, 3, sched, 1), 1);
	add(h, mk(1, COMM_A, 10, 0, 150, 4, sched, 1), 1);
	add(h, mk(1, COMM_A, 10, 0, 10, 5, bar, 1), 1);
	cr_assert_eq(pms_hist__finish(h, NULL), 0);
	cr_assert_eq(pms_hist__group(h, members, 2, &g), 0);
	cr_assert_eq(pms_hist_group__sort_by_member(g, 1, false), 0);
	cr_assert_eq(g->rows[0].key->sym, S_SCHED);
	cr_assert_eq(g->rows[1].key->sym, S_BAR);
	cr_assert_eq(g->rows[2].key->sym, S_FOO, "no weight in member 1: last");
	cr_assert_eq(pms_hist_group__sort_by_member(g, 7, false), 0, "past the end: the leader, as perf");
	cr_assert_eq(g->rows[0].key->sym, S_FOO);
	cr_assert_eq(g->rows[1].key->sym, S_BAR);
	cr_assert_eq(g->rows[2].key->sym, S_SCHED);
	pms_hist_group__free(g);
	pms_hist__free(h);
}

/* perf's parent key: the first symbol from the sampled frame out matching the pattern, else none ([other]). */
Test(hist_keys, parent_key_and_exclude_other)
{
	struct pms_hist_opts o = { .sz = sizeof(o), .parent_regex = "^(foo|main)$" };
	struct pms_hist_filter f;
	struct pms_hist *h;
	const struct fr via_foo[] = { { DSO_APP, S_BAR, 0x30, false }, { DSO_APP, S_FOO, 0x20, false }, { DSO_APP, S_MAIN, 0x10, false } };
	const struct fr via_rec[] = { { DSO_APP, S_BAR, 0x31, false }, { DSO_APP, S_REC, 0x40, false } };
	const struct pms_hist_event *ev;

	cr_assert_eq(pms_sort_keys__parse("sym,parent", o.keys, PMS_HIST_MAX_KEYS, &o.nr_keys, NULL), 0);
	cr_assert_str_eq(pms_sort_key__name(PMS_SORT_PARENT), "parent");
	cr_assert_not(pms_sort_key__is_branch(PMS_SORT_PARENT));
	cr_assert_eq(pms_hist__new(&h, &o), 0);
	add(h, mk(0, COMM_A, 10, 0, 100, 1, via_foo, 3), 1);
	add(h, mk(0, COMM_A, 10, 0, 40, 2, via_rec, 2), 1);
	cr_assert_eq(pms_hist__finish(h, NULL), 0);
	ev = pms_hist__event(h, 0);
	cr_assert_eq(ev->nr_entries, 2, "bar under two parents: two rows");
	cr_assert_eq(ev->entries[0]->parent, S_FOO, "the first match from the leaf out, not main");
	cr_assert_eq(ev->entries[0]->self_period, 100);
	cr_assert_null(ev->entries[1]->parent);
	pms_hist__free(h);

	memset(&f, 0, sizeof(f));
	f.parent_only = true;
	o.filter = &f;
	cr_assert_eq(pms_hist__new(&h, &o), 0);
	add(h, mk(0, COMM_A, 10, 0, 100, 1, via_foo, 3), 1);
	add(h, mk(0, COMM_A, 10, 0, 40, 2, via_rec, 2), 0);
	cr_assert_eq(pms_hist__finish(h, NULL), 0);
	ev = pms_hist__event(h, 0);
	cr_assert_eq(ev->nr_entries, 1);
	cr_assert_eq(ev->hidden_period, 40);
	pms_hist__free(h);

	o.filter = NULL;
	o.parent_regex = "(";
	cr_assert_eq(pms_hist__new(&h, &o), -EINVAL, "a bad pattern");
}
