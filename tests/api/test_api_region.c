// SPDX-License-Identifier: MIT
// Public-API tests of regions (include/pmuscope/region.h): nesting, per-thread results, mismatched
// ends, JSON, finish and init again. Software events only (task-clock counts CPU time here).
#include <criterion/criterion.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <pmuscope/pmuscope.h>

#include "burn.h"

static void init(void)
{
	struct pms_region_opts o = { .sz = sizeof(o), .events = "task-clock,context-switches" };

	cr_assert_eq(pms_region__init(&o), 0);
}

static void fini(void)
{
	pms_region__finish();
}

struct found {
	const char *name;
	pid_t tid;
	struct pms_region_result r;
	struct pms_region_count c0;
	int n;
};

static int find(const struct pms_region_result *r, void *arg)
{
	struct found *f = arg;

	if (!strcmp(r->name, f->name) && (!f->tid || r->tid == f->tid)) {
		f->r = *r;
		f->c0 = r->counts[0];
		f->n++;
	}
	return 0;
}

static struct found lookup(const char *name, pid_t tid)
{
	struct found f = { .name = name, .tid = tid };

	cr_assert_eq(pms_region__foreach(find, &f), 0);
	return f;
}

Test(api_region, nested_regions_count_their_own_span, .init = init, .fini = fini)
{
	struct found outer, inner;

	cr_assert_eq(pms_region__nr_events(), 2);
	cr_assert_str_eq(pms_region__event_name(0), "task-clock");
	cr_assert_eq(pms_region__init(NULL), -EALREADY);
	for (int i = 0; i < 3; i++) {
		cr_assert_eq(pms_region__begin("outer"), 0);
		burn_ns(2000000);
		cr_assert_eq(pms_region__begin("inner"), 0);
		burn_ns(4000000);
		cr_assert_eq(pms_region__end("inner"), 0);
		cr_assert_eq(pms_region__end("outer"), 0);
	}
	outer = lookup("outer", 0);
	inner = lookup("inner", 0);
	cr_assert_eq(outer.n, 1);
	cr_assert_eq(outer.r.calls, 3);
	cr_assert_eq(inner.r.calls, 3);
	cr_assert_geq(inner.c0.value, 12000000, "inner burnt 3 x 4 ms: %lu", (unsigned long)inner.c0.value);
	cr_assert_geq(outer.c0.value, inner.c0.value + 6000000, "outer includes inner plus 3 x 2 ms");
	cr_assert_geq(outer.r.time_ns, outer.c0.value / 2, "wall time is there");
	cr_assert_eq(outer.r.user_page_reads + outer.r.syscall_reads, 3 * 2, "one read per event per end");
	cr_assert_float_eq(inner.c0.scaled, (double)inner.c0.value, 1.0);
}

Test(api_region, mismatched_ends_are_refused, .init = init, .fini = fini)
{
	char many[16];
	int i;

	cr_assert_eq(pms_region__end("nothing-open"), -EINVAL);
	cr_assert_eq(pms_region__begin("a"), 0);
	cr_assert_eq(pms_region__begin("b"), 0);
	cr_assert_eq(pms_region__end("a"), -EINVAL, "b is the innermost");
	cr_assert_eq(pms_region__end("b"), 0);
	cr_assert_eq(pms_region__end("a"), 0);
	cr_assert_eq(lookup("a", 0).r.calls, 1);
	for (i = 0; i < PMS_REGION_MAX_DEPTH; i++) {
		snprintf(many, sizeof(many), "d%d", i);
		cr_assert_eq(pms_region__begin(many), 0);
	}
	cr_assert_eq(pms_region__begin("one-too-deep"), -E2BIG);
	while (i-- > 0) {
		snprintf(many, sizeof(many), "d%d", i);
		cr_assert_eq(pms_region__end(many), 0);
	}
	cr_assert_eq(pms_region__begin(NULL), -EINVAL);
}

static void *worker(void *arg)
{
	pid_t *tid = arg;

	*tid = (pid_t)syscall(SYS_gettid);
	for (int i = 0; i < 5; i++) {
		if (pms_region__begin("work"))
			return arg;
		burn_ns(1000000);
		if (pms_region__end("work"))
			return arg;
	}
	return NULL;
}

Test(api_region, threads_count_apart_and_json, .init = init, .fini = fini)
{
	pthread_t t[3];
	pid_t tids[3];
	char path[] = "/tmp/pms-api-region-XXXXXX";
	char buf[65536];
	int fd;
	ssize_t n;

	for (int i = 0; i < 3; i++)
		cr_assert_eq(pthread_create(&t[i], NULL, worker, &tids[i]), 0);
	for (int i = 0; i < 3; i++) {
		void *ret;

		pthread_join(t[i], &ret);
		cr_assert_null(ret);
	}
	for (int i = 0; i < 3; i++) {
		struct found f = lookup("work", tids[i]);

		cr_assert_eq(f.n, 1, "thread %d has its own entry", tids[i]);
		cr_assert_eq(f.r.calls, 5);
		cr_assert_geq(f.c0.value, 5000000);
	}
	fd = mkstemp(path);
	cr_assert_geq(fd, 0);
	cr_assert_eq(pms_region__write_json(path), 0);
	n = read(fd, buf, sizeof(buf) - 1);
	cr_assert_gt(n, 0);
	buf[n] = 0;
	close(fd);
	unlink(path);
	cr_assert(strstr(buf, "\"events\": [\n    \"task-clock\",\n    \"context-switches\"\n  ]"), "%s", buf);
	cr_assert(strstr(buf, "\"name\": \"work\""));
	cr_assert(strstr(buf, "\"calls\": 5"));
	cr_assert_eq(pms_region__write_json("/nonexistent-dir/x.json"), -ENOENT);
}

Test(api_region, finish_then_init_again)
{
	struct pms_region_opts o = { .sz = sizeof(o), .events = "page-faults" };

	cr_assert_eq(pms_region__begin("implicit"), 0, "the first begin initializes");
	cr_assert_eq(pms_region__end("implicit"), 0);
	cr_assert_geq(pms_region__nr_events(), 1);
	pms_region__finish();
	cr_assert_eq(pms_region__nr_events(), 0);
	cr_assert_eq(pms_region__end("implicit"), -EINVAL, "finish forgot the open state");
	cr_assert_eq(pms_region__init(&o), 0);
	cr_assert_str_eq(pms_region__event_name(0), "page-faults");
	cr_assert_eq(pms_region__begin("x"), 0);
	cr_assert_eq(pms_region__end("x"), 0);
	cr_assert_eq(lookup("implicit", 0).n, 0);
	cr_assert_eq(lookup("x", 0).r.calls, 1);
	pms_region__finish();
}
