// SPDX-License-Identifier: MIT
// Unit tests of lib/aggregate/stacks: interning, path merging, totals, ordering, a fixture perf.data replayed into a tree, and looping frame-pointer chains collapsed.
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "aggregate/stacks.h"
#include "data/writer.h"
#include "export/export.h"
#include "symbol/maps.h"

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

Test(stacks, functions_count_recursion_once_and_skip_pseudo_frames)
{
	struct pms_stacks *st = pms_stacks__new(NULL);
	struct pms_stack_frame proc = { .name = "app", .kind = PMS_STACK_PROCESS, .pid = 7 };
	int64_t pid = pms_stacks__intern(st, &proc);
	uint32_t m = fid(st, "main", PMS_STACK_USER), r = fid(st, "rec", PMS_STACK_USER),
		 l = fid(st, "leaf", PMS_STACK_USER), unused = fid(st, "never", PMS_STACK_USER);
	struct pms_stacks_function *fn;
	size_t nr;

	cr_assert_geq(pid, 0);
	/* app;main;rec;rec;leaf x3, app;main;rec x2, app;main x1 */
	cr_assert_eq(pms_stacks__add_path(st, (uint32_t[]){ (uint32_t)pid, m, r, r, l }, 5, 3, 30), 0);
	cr_assert_eq(pms_stacks__add_path(st, (uint32_t[]){ (uint32_t)pid, m, r }, 3, 2, 20), 0);
	cr_assert_eq(pms_stacks__add_path(st, (uint32_t[]){ (uint32_t)pid, m }, 2, 1, 10), 0);
	cr_assert_eq(pms_stacks__functions(st, &fn, &nr), 0);
	cr_assert_eq(nr, 3, "main, rec, leaf: not the process frame, not a frame of no weight (%u)", unused);
	cr_assert_eq(fn[0].frame, m);
	cr_assert_eq(fn[0].total_samples, 6);
	cr_assert_eq(fn[0].self_samples, 1);
	cr_assert_eq(fn[1].frame, r);
	cr_assert_eq(fn[1].total_samples, 5, "rec twice on one stack counts once");
	cr_assert_eq(fn[1].self_samples, 2);
	cr_assert_eq(fn[1].total_period, 50);
	cr_assert_eq(fn[2].frame, l);
	cr_assert_eq(fn[2].self_samples, 3);
	cr_assert_eq(fn[2].self_period, 30);
	free(fn);
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
	/* the fixture files' kernel is the "running" one: the same build-id in kernel/notes */
	snprintf(dir, sizeof(dir), "%s/tests/fixtures/symbol/sysfs", top);
	setenv("PMS_SYSFS_ROOT", dir, 1);
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

	/* [start, end] in ns, as perf: only the middle sample; the end is inclusive */
	o = (struct pms_stacks_opts){ .sz = sizeof(o), .time_start_ns = 1234568000000ULL,
				      .time_end_ns = 1234569891000ULL };
	st = from_fixture(&o);
	cr_assert_eq(pms_stacks__meta(st)->samples, 1);
	cr_assert_eq(pms_stacks__meta(st)->samples_filtered, 2);
	pms_stacks__free(st);

	/* the end is inclusive: a window ending exactly on the last sample keeps it */
	o = (struct pms_stacks_opts){ .sz = sizeof(o), .time_start_ns = 1234568891234ULL,
				      .time_end_ns = 1234569891234ULL };
	st = from_fixture(&o);
	cr_assert_eq(pms_stacks__meta(st)->samples, 2);
	pms_stacks__free(st);
}

/* ------------------------------------------- looping frame-pointer chains -- */

/* Functions of this binary whose runtime addresses the synthetic chains use. */
__attribute__((noinline, used)) int stacks_fx_leaf(int x);
__attribute__((noinline, used)) int stacks_fx_rec(int x);
__attribute__((noinline, used)) int stacks_fx_main(int x);
__attribute__((noinline, used)) int stacks_fx_leaf(int x)
{
	return x * 7 + 3;
}

__attribute__((noinline, used)) int stacks_fx_rec(int x)
{
	return x > 0 ? stacks_fx_rec(x - 1) + 1 : stacks_fx_leaf(x);
}

__attribute__((noinline, used)) int stacks_fx_main(int x)
{
	return stacks_fx_rec(x) * 2;
}

#define LOOP_ST \
	(PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD | PERF_SAMPLE_CALLCHAIN)
#define LOOP_KIP 0xffffffff81000080ULL  /* secondary_startup_64+0x10 in the fixture kallsyms */
#define LOOP_HEAP 0x5555deadbee0ULL     /* no mapping covers it, like the dtv pointer perf sees */

struct memfile {
	int fd;
	struct pms_data_writer *w;
	uint8_t *buf;
	size_t len;
};

static uint64_t fx(int (*f)(int))
{
	return (uint64_t)(uintptr_t)f;
}

static void loop_sample(struct memfile *f, uint16_t misc, uint32_t pid, uint64_t time, const uint64_t *chain,
			size_t nr)
{
	uint64_t rec[64];
	size_t n = 1;
	struct perf_event_header *h = (struct perf_event_header *)rec;

	cr_assert_leq(nr + 6, 64);
	/* the IP is the first address after the first marker, as the kernel records it */
	rec[n++] = chain[1];
	rec[n++] = pid | (uint64_t)pid << 32;
	rec[n++] = time;
	rec[n++] = 1000;
	rec[n++] = nr;
	for (size_t i = 0; i < nr; i++)
		rec[n++] = chain[i];
	h->type = PERF_RECORD_SAMPLE;
	h->misc = misc;
	h->size = (uint16_t)(n * 8);
	cr_assert_eq(pms_data_writer__write(f->w, rec, n * 8), 0);
}

/*
 * A process (pid 100, "looper") with this binary mapped, a kernel thread (200), and the samples:
 *  1. leaf <- main <- HEAP x 5 (the walk stuck on a self-pointing word)
 *  2. kernel IP, then user leaf <- HEAP x 3 (a looping user part under a syscall)
 *  3. leaf <- rec <- rec <- rec <- main: recursion from one call site (one
 *     return address three times, then its caller): real, kept whole
 *  4. kthread, kernel only, its last return address three times: kernel chains are kept
 * Kernel frames are found by kind, not name: naming them is the resolver's business.
 *  5. leaf <- main <- HEAP: one copy of an address is no loop
 */
static struct pms_stacks *looped_tree(const struct pms_stacks_opts *o, struct pms_session **sp,
				       struct memfile *f)
{
	struct perf_event_attr a = {
		.type = PERF_TYPE_SOFTWARE, .config = PERF_COUNT_SW_CPU_CLOCK, .size = sizeof(a),
		.sample_type = LOOP_ST, .sample_id_all = 1, .sample_period = 1000,
	};
	/* a return address is looked up one byte back: +2 stays inside its function */
	uint64_t leaf = fx(stacks_fx_leaf) + 1, rec = fx(stacks_fx_rec) + 2, main_ = fx(stacks_fx_main) + 2;
	uint64_t c1[] = { PERF_CONTEXT_USER, leaf, main_, LOOP_HEAP, LOOP_HEAP, LOOP_HEAP, LOOP_HEAP, LOOP_HEAP };
	uint64_t c2[] = { PERF_CONTEXT_KERNEL, LOOP_KIP, PERF_CONTEXT_USER, leaf, LOOP_HEAP, LOOP_HEAP, LOOP_HEAP };
	uint64_t c3[] = { PERF_CONTEXT_USER, leaf, rec, rec, rec, main_ };
	uint64_t c4[] = { PERF_CONTEXT_KERNEL, LOOP_KIP, LOOP_KIP + 0x20, LOOP_KIP + 0x20, LOOP_KIP + 0x20 };
	uint64_t c5[] = { PERF_CONTEXT_USER, leaf, main_, LOOP_HEAP };
	struct pms_data_sample_id sid = { .pid = 100, .tid = 100, .time = 1 };
	struct pms_data_error derr = { 0 };
	struct pms_session_opts so = { .sz = sizeof(so), .callchain = true };
	struct pms_maps *maps;
	const struct pms_map *m;
	struct pms_data_mmap2 mm = { .pid = 100, .tid = 100, .prot = PROT_READ | PROT_EXEC, .flags = MAP_PRIVATE,
				     .cpumode = PERF_RECORD_MISC_USER };
	struct pms_stacks *st;
	char procfs[sizeof(procdir)];
	off_t end;

	memset(f, 0, sizeof(*f));
	f->fd = memfd_create("pms-stacks-loop", 0);
	cr_assert_geq(f->fd, 0);
	cr_assert_eq(pms_data_writer__open_fd(&f->w, f->fd, NULL), 0);
	cr_assert_eq(pms_data_writer__add_attr(f->w, &a, "cpu-clock", NULL, 0), 0);
	cr_assert_eq(pms_data_writer__comm(f->w, 100, 100, "looper", false, &sid), 0);
	sid.pid = sid.tid = 200;
	cr_assert_eq(pms_data_writer__comm(f->w, 200, 200, "kthread", false, &sid), 0);
	sid.pid = sid.tid = 100;
	/* this process' own maps, not the fixture procfs that names the kernel's symbols */
	snprintf(procfs, sizeof(procfs), "%s", getenv("PMS_PROCFS_ROOT") ? getenv("PMS_PROCFS_ROOT") : "");
	unsetenv("PMS_PROCFS_ROOT");
	cr_assert_eq(pms_maps__read_pid(0, &maps), 0);
	if (*procfs)
		setenv("PMS_PROCFS_ROOT", procfs, 1);
	m = pms_maps__find(maps, fx(stacks_fx_leaf));
	cr_assert_not_null(m);
	mm.addr = m->start;
	mm.len = m->end - m->start;
	mm.pgoff = m->pgoff;
	mm.filename = m->path;
	cr_assert_eq(pms_data_writer__mmap2(f->w, &mm, &sid), 0);
	pms_maps__free(maps);
	loop_sample(f, PERF_RECORD_MISC_USER, 100, 10, c1, sizeof(c1) / sizeof(c1[0]));
	loop_sample(f, PERF_RECORD_MISC_KERNEL, 100, 11, c2, sizeof(c2) / sizeof(c2[0]));
	loop_sample(f, PERF_RECORD_MISC_USER, 100, 12, c3, sizeof(c3) / sizeof(c3[0]));
	loop_sample(f, PERF_RECORD_MISC_KERNEL, 200, 13, c4, sizeof(c4) / sizeof(c4[0]));
	loop_sample(f, PERF_RECORD_MISC_USER, 100, 14, c5, sizeof(c5) / sizeof(c5[0]));
	cr_assert_eq(pms_data_writer__close(f->w), 0);
	pms_data_writer__free(f->w);
	end = lseek(f->fd, 0, SEEK_END);
	f->buf = malloc((size_t)end);
	cr_assert_not_null(f->buf);
	cr_assert_eq(pread(f->fd, f->buf, (size_t)end, 0), end);
	f->len = (size_t)end;
	close(f->fd);
	cr_assert_eq(pms_session__open_mem(sp, f->buf, f->len, &so, &derr), 0, "%s", derr.msg);
	st = pms_stacks__new(o);
	cr_assert_not_null(st);
	cr_assert_eq(pms_stacks__add_session(st, *sp), 0);
	return st;
}

/* Node ids of the root-first path of names under parent; 0 where it breaks. */
static uint32_t walk(struct pms_stacks *st, uint32_t node, const char *const *names, size_t nr)
{
	for (size_t i = 0; i < nr && node; i++)
		node = find_child(st, node, names[i]);
	return node;
}

Test(stacks, looping_chain_collapsed_and_counted, .init = fixture_env, .fini = fixture_cleanup)
{
	struct pms_stacks_opts o = { .sz = sizeof(o), .root = PMS_STACKS_ROOT_COMM };
	struct pms_session *s = NULL;
	struct memfile f;
	struct pms_stacks *st = looped_tree(&o, &s, &f);
	const struct pms_stack_node *n;
	const struct pms_stack_frame *fr;
	struct strbuf sb = STRBUF_INIT;
	uint32_t proc, heap, leaf, node;
	size_t nn, nf;

	n = pms_stacks__nodes(st, &nn);
	fr = pms_stacks__frames(st, &nf);
	cr_assert_eq(pms_stacks__meta(st)->samples, 5);
	cr_assert_eq(nn, 17, "%zu nodes", nn);
	cr_assert_eq(pms_stacks__meta(st)->looped_chains, 2, "samples 1 and 2 loop: %lu",
		     (unsigned long)pms_stacks__meta(st)->looped_chains);
	proc = find_child(st, 0, "looper");
	cr_assert(proc);
	/* 1: the five copies of the address are one frame, its callee right under it */
	heap = find_child(st, proc, "[unknown]");
	cr_assert(heap);
	cr_assert_eq(fr[n[heap].frame].kind, PMS_STACK_UNKNOWN);
	cr_assert_not(find_child(st, heap, "[unknown]"), "the run must be one frame");
	leaf = walk(st, heap, (const char *const[]){ "stacks_fx_main", "stacks_fx_leaf" }, 2);
	cr_assert(leaf);
	cr_assert_eq(n[leaf].depth, 4); /* looper, [unknown], main, leaf under the root */
	cr_assert_eq(n[leaf].self_samples, 2, "sample 5's path is the same once the run is one frame");
	/* 2: the user part collapsed the same way, the kernel frame on top */
	node = walk(st, heap, (const char *const[]){ "stacks_fx_leaf" }, 1);
	cr_assert(node);
	node = n[node].first_child;
	cr_assert(node);
	cr_assert_eq(n[node].depth, 4);
	cr_assert_eq(n[node].self_samples, 1);
	/* 5: a single copy is an ordinary frame (not counted): it shares the nodes of sample 1 */
	cr_assert_eq(n[heap].total_samples, 3);
	/* 3: recursion from one call site keeps every level */
	node = walk(st, proc, (const char *const[]){ "stacks_fx_main", "stacks_fx_rec", "stacks_fx_rec",
						     "stacks_fx_rec", "stacks_fx_leaf" }, 5);
	cr_assert(node, "recursion through one call site must not be collapsed");
	cr_assert_eq(n[node].self_samples, 1);
	/* 4: a kernel chain ending in one address three times is left as recorded: four levels */
	node = find_child(st, 0, "kthread");
	cr_assert(node);
	node = n[node].first_child;
	cr_assert(node && !n[node].next_sibling);
	for (int level = 1; level < 4; level++) {
		uint32_t up = node;

		node = n[node].first_child;
		cr_assert(node && !n[node].next_sibling, "level %d", level);
		if (level <= 2)
			cr_assert_eq(n[node].frame, n[up].frame, "the repeated return address, one frame each time");
	}
	cr_assert_not(n[node].first_child);
	cr_assert_eq(n[node].self_samples, 1);

	/* the count reaches the exports: the JSON meta and the flame graph's subtitle */
	cr_assert_eq(pms_export__json(st, &sb), 0);
	cr_assert_not_null(strstr(strbuf_str(&sb), "\"looped_chains\":2"), "%s", strbuf_str(&sb));
	strbuf_reset(&sb);
	cr_assert_eq(pms_flamegraph__html(st, NULL, &sb), 0);
	cr_assert_not_null(strstr(strbuf_str(&sb), "5 samples, 2 looping call chains collapsed"));
	cr_assert_not_null(strstr(strbuf_str(&sb), "\"loopedChains\":2"));
	strbuf_release(&sb);
	pms_stacks__free(st);
	pms_session__free(s);
	free(f.buf);
}

Test(stacks, looping_chain_count_follows_the_kept_part, .init = fixture_env, .fini = fixture_cleanup)
{
	struct pms_stacks_opts o = { .sz = sizeof(o), .kernel_only = true };
	struct pms_session *s = NULL;
	struct memfile f;
	struct pms_stacks *st = looped_tree(&o, &s, &f);
	struct strbuf sb = STRBUF_INIT;

	/* -K: the looping user parts are not in the tree, so nothing was collapsed */
	cr_assert_eq(pms_stacks__meta(st)->samples, 2);
	cr_assert_eq(pms_stacks__meta(st)->looped_chains, 0);
	cr_assert_eq(pms_export__json(st, &sb), 0);
	cr_assert_null(strstr(strbuf_str(&sb), "looped_chains"), "absent when 0, as before");
	strbuf_release(&sb);
	pms_stacks__free(st);
	pms_session__free(s);
	free(f.buf);

	o = (struct pms_stacks_opts){ .sz = sizeof(o), .user_only = true };
	st = looped_tree(&o, &s, &f);
	cr_assert_eq(pms_stacks__meta(st)->samples, 4);
	cr_assert_eq(pms_stacks__meta(st)->looped_chains, 2);
	pms_stacks__free(st);
	pms_session__free(s);
	free(f.buf);
}
