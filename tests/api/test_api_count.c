// SPDX-License-Identifier: MIT
// Public-API tests of counting (include/pmuscope/count.h), built from the installed headers and
// library only (pkg-config), run by the kernel suite: they open real software events.
#include <criterion/criterion.h>
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <pmuscope/pmuscope.h>

#include "burn.h"

static char diag[2048];

static int capture(enum pms_print_level level, const char *fmt, va_list ap)
{
	size_t n = strlen(diag);

	(void)level;
	return vsnprintf(diag + n, sizeof(diag) - n, fmt, ap);
}

static struct pms_count_set *open_self(const char *events)
{
	struct pms_count_opts o = { .sz = sizeof(o) };
	struct pms_count_set *s = pms_count_set__open(events, &o);

	cr_assert_not_null(s, "%s: %s", events, strerror(errno));
	return s;
}

Test(api_count, counts_only_while_enabled)
{
	struct pms_count_set *s = open_self("task-clock");
	struct pms_count_value a, b, c;

	cr_assert_eq(pms_count_set__nr_events(s), 1);
	cr_assert_str_eq(pms_count_set__event_name(s, 0), "task-clock");
	cr_assert_null(pms_count_set__event_name(s, 1));
	burn_ns(2000000);
	cr_assert_eq(pms_count_set__read(s, 0, &a), 0);
	cr_assert_eq(a.value, 0, "opened disabled: %lu", (unsigned long)a.value);
	cr_assert_eq(pms_count_set__enable(s), 0);
	burn_ns(5000000);
	cr_assert_eq(pms_count_set__disable(s), 0);
	cr_assert_eq(pms_count_set__read(s, 0, &b), 0);
	/* task-clock is the thread's CPU time: at least the 5 ms burnt */
	cr_assert_geq(b.value, 5000000);
	cr_assert_eq(b.path, PMS_READ_SYSCALL, "a software event has no counter register");
	cr_assert_eq(b.enabled_ns, b.running_ns);
	cr_assert_float_eq(b.scaled, (double)b.value, 0.5);
	cr_assert_float_eq(b.running_pct, 100.0, 1e-9);
	burn_ns(2000000);
	cr_assert_eq(pms_count_set__read(s, 0, &c), 0);
	cr_assert_eq(c.value, b.value, "disabled again: no growth");
	cr_assert_eq(pms_count_set__reset(s), 0);
	cr_assert_eq(pms_count_set__read(s, 0, &c), 0);
	cr_assert_eq(c.value, 0);
	cr_assert_not(pms_count_set__user_page_capable(s, 0));
	pms_count_set__close(s);
}

Test(api_count, group_and_read_all)
{
	struct pms_count_set *s = open_self("{task-clock,context-switches},page-faults");
	struct pms_count_value v[3];

	cr_assert_eq(pms_count_set__nr_events(s), 3);
	pms_count_set__enable(s);
	burn_ns(3000000);
	pms_count_set__disable(s);
	cr_assert_eq(pms_count_set__read_all(s, v, 2), -EINVAL, "too small an array");
	cr_assert_eq(pms_count_set__read_all(s, v, 3), 0);
	cr_assert_geq(v[0].value, 3000000);
	/* one group read: both members share the leader's times */
	cr_assert_eq(v[0].enabled_ns, v[1].enabled_ns);
	cr_assert_eq(pms_count_set__read(s, 3, &v[0]), -EINVAL);
	pms_count_set__close(s);
}

Test(api_count, inherit_counts_children)
{
	struct pms_count_opts o = { .sz = sizeof(o), .inherit = true, .enabled = true };
	struct pms_count_opts no = { .sz = sizeof(no), .enabled = true };
	struct pms_count_set *with = pms_count_set__open("task-clock", &o);
	struct pms_count_set *without = pms_count_set__open("task-clock", &no);
	struct pms_count_value a, b;
	pid_t child;
	int status;

	cr_assert_not_null(with);
	cr_assert_not_null(without);
	child = fork();
	if (child == 0) {
		burn_ns(30000000);
		_exit(0);
	}
	cr_assert_eq(waitpid(child, &status, 0), child);
	cr_assert_eq(pms_count_set__read(with, 0, &a), 0);
	cr_assert_eq(pms_count_set__read(without, 0, &b), 0);
	cr_assert_geq(a.value, 30000000, "the child's 30 ms: %lu", (unsigned long)a.value);
	cr_assert_lt(b.value, 30000000, "without inherit the child is not counted: %lu", (unsigned long)b.value);
	cr_assert_not(pms_count_set__user_page_capable(with, 0), "inherit: no user-page reads");
	pms_count_set__close(with);
	pms_count_set__close(without);
}

Test(api_count, another_process)
{
	int go[2];
	pid_t child;
	struct pms_count_set *s;
	struct pms_count_value v;
	char c = 0;

	cr_assert_eq(pipe(go), 0);
	child = fork();
	if (child == 0) {
		close(go[1]);
		if (read(go[0], &c, 1) != 1)
			_exit(1);
		burn_ns(20000000);
		_exit(0);
	}
	close(go[0]);
	struct pms_count_opts o = { .sz = sizeof(o), .pid = child, .enabled = true };
	s = pms_count_set__open("task-clock", &o);
	cr_assert_not_null(s, "%s", strerror(errno));
	cr_assert_eq(write(go[1], "x", 1), 1);
	waitpid(child, NULL, 0);
	cr_assert_eq(pms_count_set__read(s, 0, &v), 0);
	cr_assert_geq(v.value, 20000000);
	pms_count_set__close(s);
	close(go[1]);
}

Test(api_count, errors_say_why)
{
	struct pms_count_opts bad = { .sz = sizeof(bad) + 8 };
	struct pms_count_opts nocpu = { .sz = sizeof(nocpu), .pid = -1 };
	pms_print_fn_t old = pms_set_print(capture);

	diag[0] = 0;
	errno = 0;
	cr_assert_null(pms_count_set__open("task-clokc", NULL));
	cr_assert(errno == ENOENT || errno == EINVAL, "errno %d", errno);
	cr_assert(strstr(diag, "task-clokc"), "the caret message names the event: %s", diag);
	cr_assert(strstr(diag, "did you mean 'task-clock'"), "%s", diag);
	cr_assert_null(pms_count_set__open("task-clock", &bad));
	cr_assert_eq(errno, EINVAL);
	cr_assert_null(pms_count_set__open("task-clock", &nocpu), "every task needs a cpu");
	cr_assert_eq(errno, EINVAL);
	cr_assert_null(pms_count_set__open(NULL, NULL));
	cr_assert_eq(pms_count_set__read(NULL, 0, NULL), -EINVAL);
	pms_count_set__close(NULL);
	cr_assert_str_eq(pms_version(), PMS_VERSION_STRING);
	pms_set_print(old);
}

Test(api_count, every_cpu)
{
	struct pms_count_opts sys = { .sz = sizeof(sys), .pid = -1, .all_cpus = true };
	struct pms_count_opts me = { .sz = sizeof(me), .all_cpus = true, .enabled = true };
	struct pms_count_set *s = pms_count_set__open("cpu-clock", &sys), *t;
	struct timespec nap = { .tv_sec = 0, .tv_nsec = 50000000 }, t0, t1;
	struct pms_count_value sum, v;
	uint64_t wall, per_cpu_sum = 0;
	size_t n;

	cr_assert_not_null(s, "%s", strerror(errno));
	/* counted within [t0, t1] and across the whole nap, however late this thread gets the CPU */
	clock_gettime(CLOCK_MONOTONIC, &t0);
	cr_assert_eq(pms_count_set__enable(s), 0);
	nanosleep(&nap, NULL);
	cr_assert_eq(pms_count_set__disable(s), 0);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	wall = (uint64_t)(t1.tv_sec - t0.tv_sec) * 1000000000u + (uint64_t)t1.tv_nsec - (uint64_t)t0.tv_nsec;
	n = pms_count_set__nr_cpus(s);
	cr_assert_eq(n, (size_t)sysconf(_SC_NPROCESSORS_ONLN));
	for (size_t k = 0; k < n; k++) {
		cr_assert_geq(pms_count_set__cpu(s, k), 0);
		if (k)
			cr_assert_gt(pms_count_set__cpu(s, k), pms_count_set__cpu(s, k - 1), "ascending CPUs");
		cr_assert_eq(pms_count_set__read_cpu(s, 0, k, &v), 0);
		/* a CPU's cpu-clock runs all the time it is counted, idle or not: the 50 ms nap at least */
		cr_assert_geq(v.value, 45000000, "cpu %d: %lu ns", pms_count_set__cpu(s, k), (unsigned long)v.value);
		cr_assert_leq(v.value, wall, "cpu %d: %lu ns of %lu", pms_count_set__cpu(s, k), (unsigned long)v.value,
			      (unsigned long)wall);
		per_cpu_sum += v.value;
	}
	cr_assert_eq(pms_count_set__read(s, 0, &sum), 0);
	cr_assert_eq(sum.value, per_cpu_sum, "the set's value is the sum over its CPUs");
	cr_assert_eq(sum.path, PMS_READ_SYSCALL);
	cr_assert_eq(pms_count_set__read_cpu(s, 0, n, &v), -EINVAL);
	cr_assert_eq(pms_count_set__cpu(s, n), -EINVAL);
	pms_count_set__close(s);

	/* this thread, on whichever CPU it runs: the CPUs' parts add up to its CPU time */
	t = pms_count_set__open("task-clock", &me);
	cr_assert_not_null(t, "%s", strerror(errno));
	burn_ns(20000000);
	pms_count_set__disable(t);
	cr_assert_eq(pms_count_set__read(t, 0, &sum), 0);
	cr_assert_geq(sum.value, 20000000);
	cr_assert_not(pms_count_set__user_page_capable(t, 0));
	pms_count_set__close(t);
	struct pms_count_opts both = { .sz = sizeof(both), .all_cpus = true, .cpu_set = true };
	cr_assert_null(pms_count_set__open("task-clock", &both), "one CPU or all, not both");
	cr_assert_eq(errno, EINVAL);
}
