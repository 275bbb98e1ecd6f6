// SPDX-License-Identifier: MIT
// Count events around one region of code with libpmuscope.
//
//   cc count.c $(pkg-config --cflags --libs pmuscope) -o count
//   ./count ["task-clock,page-faults"] [iterations]
//
// Prints each event's raw and scaled value, how long it ran, which read path
// the library took (user page = no system call), and the thread's CPU time as
// the kernel accounts it (CLOCK_THREAD_CPUTIME_ID) to compare task-clock with.
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <pmuscope/pmuscope.h>

static int print_diag(enum pms_print_level level, const char *fmt, va_list ap)
{
	if (level > PMS_WARN)
		return 0;
	return vfprintf(stderr, fmt, ap);
}

static volatile double sink;

static void work(long n)
{
	double x = 0;

	for (long i = 0; i < n; i++)
		x += (double)i * 0.5;
	sink = x;
}

static uint64_t thread_cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

int main(int argc, char **argv)
{
	const char *events = argc > 1 ? argv[1] : "task-clock,page-faults";
	long n = argc > 2 ? atol(argv[2]) : 50000000;
	struct pms_count_opts opts = { .sz = sizeof(opts) }; /* this thread, opened disabled */
	struct pms_count_set *set;
	uint64_t cpu0, cpu1;

	pms_set_print(print_diag);
	set = pms_count_set__open(events, &opts);
	if (!set) {
		fprintf(stderr, "count: %s: %s\n", events, pms_strerror(-errno));
		return 1;
	}
	cpu0 = thread_cpu_ns();
	pms_count_set__enable(set);
	work(n);
	pms_count_set__disable(set);
	cpu1 = thread_cpu_ns();

	for (size_t i = 0; i < pms_count_set__nr_events(set); i++) {
		struct pms_count_value v;
		int err = pms_count_set__read(set, i, &v);

		if (err) {
			fprintf(stderr, "count: reading %s: %s\n", pms_count_set__event_name(set, i), pms_strerror(err));
			pms_count_set__close(set);
			return 1;
		}
		printf("%-20s %15" PRIu64 " scaled %.0f running %.2f%% path %s\n", pms_count_set__event_name(set, i),
		       v.value, v.scaled, v.running_pct, v.path == PMS_READ_USER_PAGE ? "user-page" : "syscall");
	}
	printf("%-20s %15" PRIu64 "\n", "thread-cpu-ns", cpu1 - cpu0);
	pms_count_set__close(set);
	return 0;
}
