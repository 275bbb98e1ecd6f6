// SPDX-License-Identifier: MIT
// Unit tests of lib/aggregate/stacks: interning, path merging, totals, ordering, and a fixture perf.data replayed into a tree.
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "aggregate/stacks.h"

static uint32_t fid(struct pms_stacks *st, const char *name, enum pms_stack_kind kind)
{
	struct pms_stack_frame f = { .name = name, .dso = "/bin/x", .kind = kind };
	int64_t id = pms_stacks__intern(st, &f);

	cr_assert_geq(id, 0);
	return (uint32_t)id;
}

/* The node under parent for frame name, or 0. */
static uint32_t find_child(struct pms_stacks *st, uint32_t parent, const char *name)
{
	size_t nn, nf;
	const struct pms_stack_node *n = pms_stacks__nodes(st, &nn);
	const struct pms_stack_frame *f = pms_stacks__frames(st, &nf);

	for (uint32_t c = n[parent].first_child; c; c = n[c].next_sibling)
		if (!strcmp(f[n[c].frame].name, name))
			return c;
	return 0;
}

Test(stacks, intern_dedupes_and_copies)
{
	struct pms_stacks *st = pms_stacks__new(NULL);
	char name[16] = "main";
	struct pms_stack_frame f = { .name = name, .dso = "/bin/x", .kind = PMS_STACK_USER };
	const struct pms_stack_frame *frames;
	size_t nr;
	int64_t a, b, c, d;

	cr_assert_not_null(st);
	a = pms_stacks__intern(st, &f);
	strcpy(name, "work");
	b = pms_stacks__intern(st, &f);
	strcpy(name, "main");
	c = pms_stacks__intern(st, &f);
	f.kind = PMS_STACK_KERNEL;
	d = pms_stacks__intern(st, &f);
	cr_assert_eq(a, 0);
	cr_assert_eq(b, 1);
	cr_assert_eq(c, 0);
	cr_assert_eq(d, 2);
	frames = pms_stacks__frames(st, &nr);
	cr_assert_eq(nr, 3);
	cr_assert_str_eq(frames[0].name, "main"); /* a copy: the caller's buffer changed since */
	cr_assert_neq(frames[0].name, name);
	pms_stacks__free(st);
}

Test(stacks, paths_merge_and_totals_add_up)
{
	struct pms_stacks *st = pms_stacks__new(NULL);
	uint32_t m = fid(st, "main", PMS_STACK_USER), w = fid(st, "work", PMS_STACK_USER),
		 z = fid(st, "zeta", PMS_STACK_USER), k = fid(st, "leaf", PMS_STACK_KERNEL);
	uint32_t p1[] = { m, z }, p2[] = { m, w, k }, p3[] = { m, w }, p4[] = { m, z };
	const struct pms_stack_node *n;
	uint32_t nm, nw, nz, nk;
	size_t nr;

	cr_assert_eq(pms_stacks__add_path(st, p1, 2, 1, 10), 0);
	cr_assert_eq(pms_stacks__add_path(st, p2, 3, 2, 20), 0);
	cr_assert_eq(pms_stacks__add_path(st, p3, 2, 4, 40), 0);
	cr_assert_eq(pms_stacks__add_path(st, p4, 2, 1, 10), 0);
	cr_assert_eq(pms_stacks__add_path(st, p4, 0, 1, 1), 0); /* an empty stack: the root's self */
	cr_assert_eq(pms_stacks__add_path(st, (uint32_t[]){ 99 }, 1, 1, 1), -EINVAL);
	n = pms_stacks__nodes(st, &nr);
	cr_assert_eq(nr, 5);
	nm = find_child(st, 0, "main");
	nz = find_child(st, nm, "zeta");
	nw = find_child(st, nm, "work");
	nk = find_child(st, nw, "leaf");
	cr_assert(nm && nz && nw && nk);
	cr_assert_eq(n[0].total_samples, 9);
	cr_assert_eq(n[0].self_samples, 1);
	cr_assert_eq(n[0].total_period, 81);
	cr_assert_eq(n[nm].total_samples, 8);
	cr_assert_eq(n[nm].self_samples, 0);
	cr_assert_eq(n[nz].self_samples, 2);
	cr_assert_eq(n[nw].total_samples, 6);
	cr_assert_eq(n[nw].self_period, 40);
	cr_assert_eq(n[nk].depth, 3);
	cr_assert_eq(n[nk].parent, nw);
	cr_assert_eq(pms_stacks__meta(st)->samples, 9);
	/* insertion order: zeta came first */
	cr_assert_eq(n[nm].first_child, nz);
	pms_stacks__sort(st, PMS_STACKS_BY_NAME);
	cr_assert_eq(n[nm].first_child, nw);
	cr_assert_eq(n[nw].next_sibling, nz);
	pms_stacks__sort(st, PMS_STACKS_BY_WEIGHT);
	cr_assert_eq(n[nm].first_child, nw);
	/* appends after a sort still land at the end of the sorted list */
	cr_assert_eq(pms_stacks__add_path(st, (uint32_t[]){ m, k }, 2, 1, 1), 0);
	n = pms_stacks__nodes(st, &nr);
	cr_assert_eq(n[n[n[nm].first_child].next_sibling].next_sibling, nr - 1);
	pms_stacks__free(st);
}

Test(stacks, sort_is_stable_for_many_children)
{
	struct pms_stacks *st = pms_stacks__new(NULL);
	const struct pms_stack_node *n;
	const struct pms_stack_frame *f;
	char name[16];
	size_t nr, nf, count = 0;
	const char *prev = "";

	for (int i = 0; i < 300; i++) {
		uint32_t id;

		snprintf(name, sizeof(name), "f%03d", (i * 7919) % 300);
		id = fid(st, name, PMS_STACK_USER);
		cr_assert_eq(pms_stacks__add_path(st, &id, 1, (uint64_t)i % 5 + 1, 1), 0);
	}
	pms_stacks__sort(st, PMS_STACKS_BY_NAME);
	n = pms_stacks__nodes(st, &nr);
	f = pms_stacks__frames(st, &nf);
	for (uint32_t c = n[0].first_child; c; c = n[c].next_sibling, count++) {
		cr_assert_lt(strcmp(prev, f[n[c].frame].name), 0);
		prev = f[n[c].frame].name;
	}
	cr_assert_eq(count, 300);
	pms_stacks__sort(st, PMS_STACKS_BY_WEIGHT);
	count = 0;
	for (uint32_t c = n[0].first_child, last = UINT32_MAX; c; c = n[c].next_sibling, count++) {
		cr_assert_leq(n[c].total_samples, last);
		last = (uint32_t)n[c].total_samples;
	}
	cr_assert_eq(count, 300);
	pms_stacks__free(st);
}

Test(stacks, set_meta_copies)
{
	struct pms_stacks *st = pms_stacks__new(NULL);
	char ev[] = "cpu-clock";
	struct pms_stacks_meta m = { .event = ev, .period_unit = "nanoseconds", .lost = 3 };

	cr_assert_eq(pms_stacks__set_meta(st, &m), 0);
	ev[0] = 'X';
	cr_assert_str_eq(pms_stacks__meta(st)->event, "cpu-clock");
	cr_assert_eq(pms_stacks__meta(st)->lost, 3);
	cr_assert_eq(pms_stacks__meta(st)->samples, 0);
	pms_stacks__free(st);
	errno = 0;
	cr_assert_null(pms_stacks__new(&(struct pms_stacks_opts){ .sz = 1 }));
	cr_assert_eq(errno, EINVAL);
}

/* ---------------------------------------------- fixture perf.data -- */

static char procdir[64];

static void fixture_env(void)
{
	const char *top = getenv("TOP");
	char cmd[4200], dir[4096];

	if (!top || !*top)
		top = ".";
	snprintf(procdir, sizeof(procdir), "/tmp/pms-stacks-XXXXXX");
	cr_assert_not_null(mkdtemp(procdir));
	snprintf(cmd, sizeof(cmd), "cp '%s/tests/fixtures/symbol/kallsyms.txt' '%s/kallsyms'", top, procdir);
	cr_assert_eq(system(cmd), 0);
	setenv("PMS_PROCFS_ROOT", procdir, 1);
	snprintf(dir, sizeof(dir), "%s/tests/fixtures/symbol", top);
	setenv("PMS_JITMAP_DIR", dir, 1);
}

static void fixture_cleanup(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", procdir);
	if (system(cmd)) {
	}
}

/* script_chain.data: 3 cpu-clock samples (see tests/cli/cases/script_chain.out). */
static struct pms_stacks *from_fixture(const struct pms_stacks_opts *o)
{
	struct pms_session_opts so = { .sz = sizeof(so), .callchain = true };
	struct pms_data_error derr = { 0 };
	const char *top = getenv("TOP");
	struct pms_session *s = NULL;
	struct pms_stacks *st;
	char path[4096];

	snprintf(path, sizeof(path), "%s/tests/cli/cases/script_chain.data", top && *top ? top : ".");
	cr_assert_eq(pms_session__open(&s, path, &so, &derr), 0, "%s", derr.msg);
	st = pms_stacks__new(o);
	cr_assert_not_null(st);
	cr_assert_eq(pms_stacks__add_session(st, s), 0);
	pms_session__free(s); /* the tree keeps its own copies */
	return st;
}

Test(stacks, session_frames_kinds_and_meta, .init = fixture_env, .fini = fixture_cleanup)
{
	struct pms_stacks_opts o = { .sz = sizeof(o), .root = PMS_STACKS_ROOT_COMM };
	struct pms_stacks *st = from_fixture(&o);
	const struct pms_stacks_meta *m = pms_stacks__meta(st);
	const struct pms_stack_node *n;
	const struct pms_stack_frame *f;
	uint32_t js, lib, fib, k2, k1, unm, anon, a77;
	size_t nn, nf;

	n = pms_stacks__nodes(st, &nn);
	f = pms_stacks__frames(st, &nf);
	cr_assert_eq(m->samples, 3);
	cr_assert_eq(m->samples_filtered, 0);
	cr_assert_str_eq(m->event, "cpu-clock");
	cr_assert_str_eq(m->period_unit, "nanoseconds");
	cr_assert_eq(m->unresolved_leaves, 1);
	cr_assert_eq(m->time_first_ns / 1000, 1234567891ULL);
	cr_assert_eq(n[0].total_period, 750000);
	/* jsapp;0x123;LazyCompile:*fib ...;secondary_startup_64+0x30;secondary_startup_64+0x10 */
	js = find_child(st, 0, "jsapp");
	cr_assert(js);
	cr_assert_eq(f[n[js].frame].kind, PMS_STACK_PROCESS);
	cr_assert_null(f[n[js].frame].dso);
	cr_assert_eq(n[js].total_samples, 2);
	lib = find_child(st, js, "0x123");
	cr_assert(lib);
	cr_assert_eq(f[n[lib].frame].kind, PMS_STACK_UNKNOWN);
	cr_assert_str_eq(f[n[lib].frame].dso, "/nonexistent/libapp.so");
	fib = find_child(st, lib, "LazyCompile:*fib /app/fib.js:3");
	cr_assert(fib);
	cr_assert_eq(f[n[fib].frame].kind, PMS_STACK_JIT);
	k2 = find_child(st, fib, "secondary_startup_64");
	cr_assert(k2);
	cr_assert_eq(f[n[k2].frame].kind, PMS_STACK_KERNEL);
	cr_assert_str_eq(f[n[k2].frame].dso, "[kernel.kallsyms]");
	/* both kernel frames are one function: the same frame id twice in a row */
	k1 = find_child(st, k2, "secondary_startup_64");
	cr_assert(k1);
	cr_assert_eq(n[k1].frame, n[k2].frame);
	cr_assert_eq(n[k1].self_samples, 1);
	/* second sample: [unknown] (no mapping) at the root side */
	unm = find_child(st, js, "[unknown]");
	cr_assert(unm);
	cr_assert_str_eq(f[n[unm].frame].dso, "[unknown]");
	cr_assert(find_child(st, find_child(st, unm, "0x456"), "[jit] Interpreter"));
	/* the unknown thread's sample */
	a77 = find_child(st, 0, ":77");
	cr_assert(a77);
	anon = find_child(st, a77, "[unknown]");
	cr_assert(anon);
	cr_assert_eq(n[anon].self_samples, 1);
	pms_stacks__free(st);
}

Test(stacks, session_roots_and_filters, .init = fixture_env, .fini = fixture_cleanup)
{
	struct pms_stacks_opts o = { .sz = sizeof(o), .root = PMS_STACKS_ROOT_TID, .kernel_only = true };
	struct pms_stacks *st = from_fixture(&o);
	const struct pms_stack_node *n;
	const struct pms_stack_frame *f;
	uint32_t p, t;
	size_t nn, nf;

	n = pms_stacks__nodes(st, &nn);
	f = pms_stacks__frames(st, &nf);
	cr_assert_eq(pms_stacks__meta(st)->samples, 1);
	cr_assert_eq(pms_stacks__meta(st)->samples_filtered, 2);
	p = find_child(st, 0, "jsapp");
	cr_assert(p);
	cr_assert_eq(f[n[p].frame].pid, 4242);
	t = n[p].first_child;
	cr_assert_eq(f[n[t].frame].kind, PMS_STACK_THREAD);
	cr_assert_eq(f[n[t].frame].tid, 4242);
	cr_assert_eq(f[n[n[t].first_child].frame].kind, PMS_STACK_KERNEL);
	cr_assert_eq(nn, 5);
	pms_stacks__free(st);

	o = (struct pms_stacks_opts){ .sz = sizeof(o), .event = "instructions" };
	st = from_fixture(&o);
	cr_assert_eq(pms_stacks__meta(st)->samples, 0);
	cr_assert_eq(pms_stacks__meta(st)->samples_filtered, 3);
	pms_stacks__free(st);

	/* [start, end) in ns: only the middle sample */
	o = (struct pms_stacks_opts){ .sz = sizeof(o), .time_start_ns = 1234568000000ULL,
				      .time_end_ns = 1234569891000ULL };
	st = from_fixture(&o);
	cr_assert_eq(pms_stacks__meta(st)->samples, 1);
	cr_assert_eq(pms_stacks__meta(st)->samples_filtered, 2);
	pms_stacks__free(st);
}
