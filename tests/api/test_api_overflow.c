// SPDX-License-Identifier: MIT
// Public-API tests of overflow sampling (include/pmuscope/overflow.h) and of symbolizing this
// process's own addresses: samples arrive by signal and by poll(2), one per period of task-clock.
#include <criterion/criterion.h>
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <pmuscope/pmuscope.h>

#include "burn.h"

static struct pms_overflow *ov;
static volatile sig_atomic_t samples, signals, mine;
static uint64_t first_ip;

static void on_sample(const struct pms_overflow_sample *s, void *arg)
{
	(void)arg;
	if (!first_ip && !s->kernel)
		first_ip = s->ip;
	samples++;
	mine += s->tid == (uint32_t)getpid();
}

static void on_signal(int sig)
{
	(void)sig;
	signals++;
	pms_overflow__drain(ov, on_sample, NULL);
}

Test(api_overflow, a_signal_per_period_of_cpu_time)
{
	struct pms_overflow_opts o = { .sz = sizeof(o), .signo = SIGRTMIN + 1 };
	struct sigaction sa = { .sa_handler = on_signal, .sa_flags = SA_RESTART };
	struct pms_symbolizer *sym;
	struct pms_sample_frame f;

	sigaction(SIGRTMIN + 1, &sa, NULL);
	ov = pms_overflow__open("task-clock", 2000000, &o);
	cr_assert_not_null(ov, "%s", strerror(errno));
	cr_assert_eq(pms_overflow__enable(ov), 0);
	burn_ns(100000000);
	cr_assert_eq(pms_overflow__disable(ov), 0);
	pms_overflow__drain(ov, on_sample, NULL);
	/* 100 ms of CPU time at one sample per 2 ms; the clock read in the loop adds a little */
	cr_assert_geq(samples, 45, "samples %d", (int)samples);
	cr_assert_leq(samples, 60, "samples %d", (int)samples);
	cr_assert_geq(signals, samples - 2, "about one signal per sample: %d signals", (int)signals);
	cr_assert_eq(mine, samples, "every sample is of this thread");
	cr_assert_eq(pms_overflow__lost(ov), 0);
	pms_overflow__close(ov);
	ov = NULL;
	signal(SIGRTMIN + 1, SIG_IGN);

	/* where the samples landed, named from this process's own maps and symbols */
	sym = pms_symbolizer__new(getpid());
	cr_assert_not_null(sym, "%s", strerror(errno));
	cr_assert_eq(pms_symbolizer__lookup(sym, (uint64_t)(uintptr_t)burn_ns + 4, false, &f), 0);
	cr_assert_str_eq(f.symbol, "burn_ns");
	cr_assert_eq(f.symbol_offset, 4);
	cr_assert(strstr(f.object, "api-tests"), "object %s", f.object);
	cr_assert_eq(pms_symbolizer__lookup(sym, (uint64_t)(uintptr_t)strlen, false, &f), 0);
	cr_assert(strstr(f.object, "libc"), "object %s", f.object);
	cr_assert_eq(pms_symbolizer__lookup(sym, 0x10, false, &f), 0);
	cr_assert_null(f.symbol, "nothing is mapped at 0x10");
	cr_assert_str_eq(f.object, "[unknown]");
	pms_symbolizer__free(sym);
}

static void count_only(const struct pms_overflow_sample *s, void *arg)
{
	(void)s;
	++*(int *)arg;
}

Test(api_overflow, poll_without_a_signal)
{
	struct pms_overflow_opts o = { .sz = sizeof(o), .enabled = true };
	struct pollfd pfd;
	int n = 0;

	ov = pms_overflow__open("task-clock", 1000000, &o);
	cr_assert_not_null(ov);
	burn_ns(10000000);
	pfd = (struct pollfd){ .fd = pms_overflow__fd(ov), .events = POLLIN };
	cr_assert_eq(poll(&pfd, 1, 1000), 1);
	cr_assert(pfd.revents & POLLIN);
	cr_assert_geq(pms_overflow__drain(ov, count_only, &n), 1);
	cr_assert_geq(n, 5, "10 ms at 1 ms: %d", n);
	pms_overflow__close(ov);
	ov = NULL;
	errno = 0;
	cr_assert_null(pms_overflow__open("{task-clock,page-faults}", 1000, NULL), "one event only");
	cr_assert_eq(errno, EINVAL);
	cr_assert_null(pms_overflow__open("task-clock", 0, NULL), "period 0");
	cr_assert_null(pms_symbolizer__new(0));
}
