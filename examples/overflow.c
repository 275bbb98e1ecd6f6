// SPDX-License-Identifier: MIT
// A program that samples itself: task-clock overflows every period ns of CPU
// time raise SIGIO; the handler drains the samples, and at the end the library
// names where they landed (symbolizing this process's own addresses).
//
//   cc overflow.c $(pkg-config --cflags --libs pmuscope) -o overflow
//   ./overflow [period_ns] [iterations]
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <pmuscope/pmuscope.h>

#define MAX_IPS 100000

static struct pms_overflow *ov;
static uint64_t ips[MAX_IPS];
static volatile sig_atomic_t nr_ips, signals;
static volatile double sink;

static int print_diag(enum pms_print_level level, const char *fmt, va_list ap)
{
	return level > PMS_WARN ? 0 : vfprintf(stderr, fmt, ap);
}

/* In the signal handler: no allocation, no stdio. */
static void on_sample(const struct pms_overflow_sample *s, void *arg)
{
	(void)arg;
	if (nr_ips < MAX_IPS)
		ips[nr_ips++] = s->ip;
}

static void on_sigio(int sig)
{
	(void)sig;
	signals++;
	pms_overflow__drain(ov, on_sample, NULL);
}

static __attribute__((noinline)) void hot_loop(long n)
{
	double x = 0;

	for (long i = 0; i < n; i++)
		x += (double)i * 0.25;
	sink = x;
}

int main(int argc, char **argv)
{
	uint64_t period = argc > 1 ? strtoull(argv[1], NULL, 0) : 1000000;
	long n = argc > 2 ? atol(argv[2]) : 300000000;
	struct pms_overflow_opts opts = { .sz = sizeof(opts), .signo = SIGIO };
	struct sigaction sa;
	struct pms_symbolizer *sym;
	long in_hot = 0, named = 0;

	pms_set_print(print_diag);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_sigio;
	sa.sa_flags = SA_RESTART;
	sigaction(SIGIO, &sa, NULL);

	ov = pms_overflow__open("task-clock", period, &opts);
	if (!ov) {
		fprintf(stderr, "overflow: %s\n", pms_strerror(-errno));
		return 1;
	}
	pms_overflow__enable(ov);
	hot_loop(n);
	pms_overflow__disable(ov);
	pms_overflow__drain(ov, on_sample, NULL); /* what arrived after the last signal */

	sym = pms_symbolizer__new(getpid());
	for (long i = 0; sym && i < nr_ips; i++) {
		struct pms_sample_frame f;

		if (pms_symbolizer__lookup(sym, ips[i], false, &f) || !f.symbol)
			continue;
		named++;
		in_hot += !strcmp(f.symbol, "hot_loop");
	}
	printf("samples %ld signals %ld lost %" PRIu64 " named %ld in_hot_loop %ld\n", (long)nr_ips, (long)signals,
	       pms_overflow__lost(ov), named, in_hot);
	pms_symbolizer__free(sym);
	pms_overflow__close(ov);
	return 0;
}
