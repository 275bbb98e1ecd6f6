// SPDX-License-Identifier: MIT
// Regions in a multi-threaded program: each thread runs an outer region with an
// inner one nested in it; the library counts per thread and writes JSON.
//
//   cc regions.c $(pkg-config --cflags --libs pmuscope) -lpthread -o regions
//   PMS_REGION_EVENTS=task-clock ./regions [threads] [calls] [out.json]
#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include <pmuscope/pmuscope.h>

static long calls = 20;
static volatile double sink;

static int print_diag(enum pms_print_level level, const char *fmt, va_list ap)
{
	return level > PMS_WARN ? 0 : vfprintf(stderr, fmt, ap);
}

static void work(long n)
{
	double x = 0;

	for (long i = 0; i < n; i++)
		x += (double)i * 1.5;
	sink = x;
}

static void *thread_main(void *arg)
{
	(void)arg;
	for (long c = 0; c < calls; c++) {
		if (pms_region__begin("outer"))
			return (void *)1;
		work(200000);
		if (pms_region__begin("inner"))
			return (void *)1;
		work(600000);
		if (pms_region__end("inner") || pms_region__end("outer"))
			return (void *)1;
	}
	return NULL;
}

static int print_region(const struct pms_region_result *r, void *arg)
{
	(void)arg;
	printf("tid %d region %-6s calls %" PRIu64 " time_ns %" PRIu64, (int)r->tid, r->name, r->calls, r->time_ns);
	for (size_t i = 0; i < r->nr_events; i++)
		printf(" %s %" PRIu64, pms_region__event_name(i), r->counts[i].value);
	printf("\n");
	return 0;
}

int main(int argc, char **argv)
{
	int nr_threads = argc > 1 ? atoi(argv[1]) : 4;
	const char *json = argc > 3 ? argv[3] : NULL;
	struct pms_region_opts opts = { .sz = sizeof(opts), .json_path = json };
	pthread_t *t;
	int err, failed = 0;

	calls = argc > 2 ? atol(argv[2]) : calls;
	pms_set_print(print_diag);
	err = pms_region__init(&opts);
	if (err) {
		fprintf(stderr, "regions: %s\n", pms_strerror(err));
		return 1;
	}
	t = calloc((size_t)nr_threads, sizeof(*t));
	if (!t)
		return 1;
	for (int i = 0; i < nr_threads; i++)
		pthread_create(&t[i], NULL, thread_main, NULL);
	for (int i = 0; i < nr_threads; i++) {
		void *ret;

		pthread_join(t[i], &ret);
		failed |= ret != NULL;
	}
	free(t);
	pms_region__foreach(print_region, NULL);
	pms_region__finish(); /* writes the JSON when a path was given */
	return failed;
}
