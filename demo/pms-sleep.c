// SPDX-License-Identifier: MIT
// Ground-truth workload for off-CPU profilers: known functions block for known times.
//
//     main -> run -> nap_short -> nanosleep(short)        rounds x short ms asleep in nap_short
//                 -> nap_long  -> nanosleep(long)         rounds x long ms asleep in nap_long
//                 -> wait_pipe -> read(pipe)              rounds x pipe ms blocked in wait_pipe, until
//                                                         a second thread (writer) writes after pipe ms
//
// Each known function calls the libc wrapper through a helper (sleep_ms, pipe_read): the
// wrappers set up no frame, so frame-pointer unwinding from inside a system call skips the
// wrapper's caller, which is then the helper, not the function a check looks for.
//
// The writer thread itself sleeps in writer_nap, so a profile of the process holds a thread
// that blocks for a known time outside the main thread too. With the defaults (20 rounds of
// 10, 30 and 20 ms) main blocks 0.2 s in nap_short, 0.6 s in nap_long and 0.4 s in wait_pipe.
// What each block really lasted is measured with CLOCK_MONOTONIC and printed at the end, the
// total per function and its longest single block:
//     measured nap_short=0.2013 nap_long=0.6021 wait_pipe=0.4038 writer_nap=0.4012
//     longest nap_short=0.0102 nap_long=0.0305 wait_pipe=0.0211 writer_nap=0.0203
// so a check compares a profiler with the truth of this run rather than with the requested
// sleeps: the kernel adds timer slack and wake-up latency, and on a loaded machine a 20 ms
// sleep can last 30 ms, which matters to a --min-block check.
//
// Usage: pms-sleep [--rounds N] [--short-ms MS] [--long-ms MS] [--pipe-ms MS]
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static int pipe_fds[2], wake_fds[2];
static long pipe_ms = 20;

/* Indexed by the function: totals and longest single blocks, in seconds. */
enum { NAP_SHORT, NAP_LONG, WAIT_PIPE, WRITER_NAP, NR_FUNCS };
static double total_s[NR_FUNCS], longest_s[NR_FUNCS];

static void account(int fn, double block_s)
{
	total_s[fn] += block_s;
	if (block_s > longest_s[fn])
		longest_s[fn] = block_s;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

__attribute__((noinline)) static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts))
		;
}

__attribute__((noinline)) static double nap_short(long ms)
{
	double t = now_s();

	sleep_ms(ms);
	return now_s() - t;
}

__attribute__((noinline)) static double nap_long(long ms)
{
	double t = now_s();

	sleep_ms(ms);
	return now_s() - t;
}

__attribute__((noinline)) static void pipe_read(void)
{
	char c;

	if (read(pipe_fds[0], &c, 1) != 1) {
		perror("pms-sleep: pipe");
		exit(1);
	}
}

/* Block in read() until the writer answers, pipe_ms after our request. */
__attribute__((noinline)) static double wait_pipe(void)
{
	char c = 'r';
	double t = now_s();

	if (write(wake_fds[1], &c, 1) != 1) {
		perror("pms-sleep: pipe");
		exit(1);
	}
	pipe_read();
	return now_s() - t;
}

__attribute__((noinline)) static double writer_nap(long ms)
{
	double t = now_s();

	sleep_ms(ms);
	return now_s() - t;
}

static void *writer(void *arg)
{
	char c;

	(void)arg;
	while (read(wake_fds[0], &c, 1) == 1) {
		if (c == 'q')
			break;
		/* only this thread touches WRITER_NAP until main joins it */
		account(WRITER_NAP, writer_nap(pipe_ms));
		if (write(pipe_fds[1], &c, 1) != 1)
			break;
	}
	return NULL;
}

__attribute__((noinline)) static void run(int rounds, long short_ms, long long_ms)
{
	for (int i = 0; i < rounds; i++) {
		account(NAP_SHORT, nap_short(short_ms));
		account(NAP_LONG, nap_long(long_ms));
		account(WAIT_PIPE, wait_pipe());
	}
}

int main(int argc, char **argv)
{
	int rounds = 20;
	long short_ms = 10, long_ms = 30;
	pthread_t th;
	char q = 'q';

	for (int i = 1; i < argc; i++) {
		if (i + 1 < argc && !strcmp(argv[i], "--rounds"))
			rounds = atoi(argv[++i]);
		else if (i + 1 < argc && !strcmp(argv[i], "--short-ms"))
			short_ms = atol(argv[++i]);
		else if (i + 1 < argc && !strcmp(argv[i], "--long-ms"))
			long_ms = atol(argv[++i]);
		else if (i + 1 < argc && !strcmp(argv[i], "--pipe-ms"))
			pipe_ms = atol(argv[++i]);
		else {
			fprintf(stderr, "usage: pms-sleep [--rounds N] [--short-ms MS] [--long-ms MS] [--pipe-ms MS]\n");
			return 2;
		}
	}
	if (rounds < 1 || short_ms < 0 || long_ms < 0 || pipe_ms < 0) {
		fprintf(stderr, "pms-sleep: rounds must be >= 1 and times >= 0\n");
		return 2;
	}
	if (pipe(pipe_fds) || pipe(wake_fds) || pthread_create(&th, NULL, writer, NULL)) {
		perror("pms-sleep");
		return 1;
	}
	run(rounds, short_ms, long_ms);
	if (write(wake_fds[1], &q, 1) != 1)
		return 1;
	pthread_join(th, NULL);
	printf("measured nap_short=%.4f nap_long=%.4f wait_pipe=%.4f writer_nap=%.4f\n", total_s[NAP_SHORT],
	       total_s[NAP_LONG], total_s[WAIT_PIPE], total_s[WRITER_NAP]);
	printf("longest nap_short=%.4f nap_long=%.4f wait_pipe=%.4f writer_nap=%.4f\n", longest_s[NAP_SHORT],
	       longest_s[NAP_LONG], longest_s[WAIT_PIPE], longest_s[WRITER_NAP]);
	return 0;
}
