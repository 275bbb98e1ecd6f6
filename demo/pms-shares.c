// SPDX-License-Identifier: MIT
// Ground-truth workload for sampling profilers: three callers do known shares of one leaf
// kernel's work, so a report's self/children percentages and call chains can be checked.
//
// Call graph and the expected attribution (single thread, CPU-bound):
//
//     main -> run -> alpha --------------> leaf_work     alpha: 50% children
//                 -> bravo --------------> leaf_work     bravo: 30% children
//                 -> charlie -> delta ---> leaf_work     charlie, delta: 20% children
//
//   * self: leaf_work ~100% (the callers only loop and call), run/alpha/bravo/charlie/delta ~0;
//   * children: main = run = 100%, alpha 50%, bravo 30%, charlie = delta 20%;
//   * leaf_work's callers (its call chains): alpha 50%, bravo 30%, delta 20% (via charlie).
//
// Every unit of work is the same call leaf_work(unit) with the same argument, so the shares
// are set by unit counts alone. The units are interleaved in a fixed round of ten slots
// (A B A C A B A C A B: 5 alpha, 3 bravo, 2 charlie) of a few microseconds each, so one round
// is far shorter than any sampling period and neither sampling frequency nor a slow phase of
// the run can bias one function against another.
//
// Usage: pms-shares [--seconds S | --rounds N] [--unit ITERS]
//   default --seconds 2; --rounds gives a fixed amount of work (deterministic instruction count).
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define ALPHA_UNITS 5
#define BRAVO_UNITS 3
#define CHARLIE_UNITS 2
#define ROUND_UNITS (ALPHA_UNITS + BRAVO_UNITS + CHARLIE_UNITS)

static volatile uint64_t sink;

__attribute__((noinline)) static uint64_t fold(uint64_t x)
{
	return x ^ (x >> 32);
}

// The one hot kernel: a dependent xorshift chain the compiler cannot fold or vectorize
// (the empty asm makes x opaque on every iteration). The (non-tail) call to fold() keeps it
// from being a leaf function: GCC sets up no frame pointer in leaves even with
// -fno-omit-frame-pointer, and frame-pointer unwinding would then skip its caller.
__attribute__((noinline)) static uint64_t leaf_work(uint64_t iters)
{
	uint64_t x = 0x9e3779b97f4a7c15ULL;

	for (uint64_t i = 0; i < iters; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		__asm__ volatile("" : "+r"(x));
	}
	x = fold(x);
	__asm__ volatile("" : "+r"(x));
	return x;
}

__attribute__((noinline)) static void alpha(uint64_t unit)
{
	sink += leaf_work(unit);
}

__attribute__((noinline)) static void bravo(uint64_t unit)
{
	sink += leaf_work(unit);
}

__attribute__((noinline)) static void delta(uint64_t unit)
{
	sink += leaf_work(unit);
}

__attribute__((noinline)) static void charlie(uint64_t unit)
{
	delta(unit);
	__asm__ volatile("" ::: "memory"); /* keep the call to delta from becoming a tail call */
}

// One round: the slots in an order that spreads each function over the round.
static const char schedule[ROUND_UNITS] = { 'A', 'B', 'A', 'C', 'A', 'B', 'A', 'C', 'A', 'B' };

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

__attribute__((noinline)) static uint64_t run(double seconds, uint64_t rounds, uint64_t unit)
{
	double end = seconds > 0 ? now_s() + seconds : 0;
	uint64_t r;

	for (r = 0; rounds == 0 || r < rounds; r++) {
		for (int s = 0; s < ROUND_UNITS; s++) {
			switch (schedule[s]) {
			case 'A': alpha(unit); break;
			case 'B': bravo(unit); break;
			default: charlie(unit); break;
			}
		}
		/* Time check every 64 rounds: its cost stays far below 0.1% of the run. */
		if (rounds == 0 && (r & 63) == 63 && now_s() >= end)
			break;
	}
	return r + (rounds == 0);
}

static int usage(void)
{
	fprintf(stderr, "usage: pms-shares [--seconds S | --rounds N] [--unit ITERS]\n");
	return 2;
}

int main(int argc, char **argv)
{
	double seconds = 2.0;
	uint64_t rounds = 0, unit = 2000, done;
	char *end;

	for (int i = 1; i < argc; i++) {
		if (i + 1 >= argc)
			return usage();
		if (!strcmp(argv[i], "--seconds")) {
			seconds = strtod(argv[++i], &end);
			if (*end || seconds <= 0)
				return usage();
			rounds = 0;
		} else if (!strcmp(argv[i], "--rounds")) {
			rounds = strtoull(argv[++i], &end, 10);
			if (*end || rounds == 0)
				return usage();
			seconds = 0;
		} else if (!strcmp(argv[i], "--unit")) {
			unit = strtoull(argv[++i], &end, 10);
			if (*end || unit == 0)
				return usage();
		} else {
			return usage();
		}
	}
	printf("pms-shares: alpha %d%%, bravo %d%%, charlie->delta %d%% of leaf_work (unit %llu iterations)\n",
	       ALPHA_UNITS * 100 / ROUND_UNITS, BRAVO_UNITS * 100 / ROUND_UNITS,
	       CHARLIE_UNITS * 100 / ROUND_UNITS, (unsigned long long)unit);
	fflush(stdout);
	done = run(seconds, rounds, unit);
	printf("pms-shares: %llu rounds (checksum %llx)\n", (unsigned long long)done,
	       (unsigned long long)(sink & 0xffff));
	return 0;
}
