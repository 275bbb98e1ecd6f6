/* SPDX-License-Identifier: MIT */
/* The API tests' workload: burn ns of this thread's CPU time (what task-clock counts). */
#ifndef PMS_TESTS_API_BURN_H
#define PMS_TESTS_API_BURN_H

#include <stdint.h>
#include <time.h>

static volatile double api_burn_sink;

static inline uint64_t api_thread_cpu_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

/* noinline: the overflow test names the samples' function */
static __attribute__((noinline, unused)) void burn_ns(uint64_t ns)
{
	uint64_t t0 = api_thread_cpu_ns();
	double x = 0;

	do {
		for (int i = 0; i < 10000; i++)
			x += i * 0.5;
	} while (api_thread_cpu_ns() - t0 < ns);
	api_burn_sink = x;
}

#endif
