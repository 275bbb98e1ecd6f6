// SPDX-License-Identifier: MIT
// Guest workload `shares N`: hot_a runs the loop of loop.h 3*N times, then hot_b N times, so
// under icount a sampler with a fixed period P puts exactly (to +-1) 12N/P samples in hot_a
// and 4N/P in hot_b (75% / 25%), each with the call chain hot_X <- main. Prints nothing.
// pmu-vm-cflags: -fno-omit-frame-pointer -g
#include <stdlib.h>
#include "loop.h"

static volatile unsigned long sink;

/* A non-tail call after the loop makes hot_a/hot_b non-leaf functions, so they save a frame
 * record and frame-pointer unwinding from a sample in the loop finds main. */
__attribute__((noinline)) static unsigned long fold(unsigned long x)
{
	return x ^ (x >> 7);
}

__attribute__((noinline)) static void hot_a(unsigned long n)
{
	sink = fold(vm_loop(3 * n));
	__asm__ volatile("" ::: "memory");
}

__attribute__((noinline)) static void hot_b(unsigned long n)
{
	sink = fold(vm_loop(n));
	__asm__ volatile("" ::: "memory");
}

int main(int argc, char **argv)
{
	char *end;
	unsigned long n;

	if (argc != 2)
		return 2;
	n = strtoul(argv[1], &end, 10);
	if (*end != '\0')
		return 2;
	hot_a(n);
	hot_b(n);
	return 0;
}
