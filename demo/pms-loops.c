// SPDX-License-Identifier: MIT
// Ground-truth workload for annotate: one function with two loops of the same body, the first
// running three times the iterations of the second, so its instructions and source lines hold 3/4
// of the function's samples and the second loop's 1/4 (75% and 25%, whatever the sampling rate).
//
//     main -> two_loops(n):   loop A: 3n iterations of a xorshift step   (75% of two_loops)
//                             loop B:  n iterations of the same step     (25%)
//
// Each step is a dependent chain the compiler cannot fold (the empty asm makes x opaque), so an
// iteration costs the same in both loops. Usage: pms-loops [--seconds S] (default 2).
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static volatile uint64_t sink;

__attribute__((noinline)) static uint64_t two_loops(uint64_t n)
{
	uint64_t x = 0x9e3779b97f4a7c15ULL, y = 0x2545f4914f6cdd1dULL;

	for (uint64_t i = 0; i < 3 * n; i++) { /* loop A */
		x ^= x << 13;                  /* loop A */
		x ^= x >> 7;                   /* loop A */
		x ^= x << 17;                  /* loop A */
		__asm__ volatile("" : "+r"(x)); /* loop A */
	}
	for (uint64_t i = 0; i < n; i++) {     /* loop B */
		y ^= y << 13;                  /* loop B */
		y ^= y >> 7;                   /* loop B */
		y ^= y << 17;                  /* loop B */
		__asm__ volatile("" : "+r"(y)); /* loop B */
	}
	return x ^ y;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	double seconds = 2.0, end;
	uint64_t calls = 0;

	if (argc == 3 && !strcmp(argv[1], "--seconds"))
		seconds = strtod(argv[2], NULL);
	else if (argc != 1) {
		fprintf(stderr, "usage: pms-loops [--seconds S]\n");
		return 2;
	}
	end = now_s() + seconds;
	/* 4000 iterations per call: far shorter than a sampling period, so no phase is favoured */
	while (now_s() < end)
		for (int k = 0; k < 64; k++, calls++)
			sink += two_loops(1000);
	printf("pms-loops: %llu calls of two_loops(1000): loop A 3000 iterations, loop B 1000\n",
	       (unsigned long long)calls);
	return 0;
}
