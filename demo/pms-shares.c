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
// are set by unit counts alone. The units are interleaved in rounds of ten slots (5 alpha,
// 3 bravo, 2 charlie, shuffled afresh each round) of a few microseconds each, so one round is
// far shorter than any sampling period and neither sampling frequency, a timer beating with the
// round, nor a slow phase of the run can bias one function against another.
//
// With --leaves, alpha, bravo and delta each spin in a leaf function of their own (leaf_alpha,
// leaf_bravo, leaf_delta, the same loop as leaf_work): three leaves with self shares 50/30/20, the
// truth for views that rank functions by where samples land (top).
//
// Usage: pms-shares [--seconds S | --rounds N] [--unit ITERS] [--shares A,B,C] [--leaves]
//   default --seconds 2; --rounds gives a fixed amount of work (deterministic instruction count).
//   --shares sets other units per round for alpha, bravo and charlie (e.g. 30,50,20: reduced by
//   their common divisor to 3,5,2; at most 100 slots; 0 leaves a function out), interleaved as
//   evenly as the counts allow, so `pmuscope diff` can be checked on a known change. Without it
//   the round is exactly the fixed 5/3/2 schedule above.
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

static int leaves; /* --leaves: each caller spins in its own leaf */

/*
 * leaf_work's loop written out again in each (not an inlined helper: DWARF
 * would make the helper every sample's leaf), each from its own seed so the
 * compiler cannot fold the identical functions into one (-fipa-icf at -O2).
 */
__attribute__((noinline)) static uint64_t leaf_alpha(uint64_t iters)
{
	uint64_t x = 0x9e3779b97f4a7c17ULL; /* its own seed: no identical-code folding */

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

__attribute__((noinline)) static uint64_t leaf_bravo(uint64_t iters)
{
	uint64_t x = 0x9e3779b97f4a7c19ULL; /* its own seed: no identical-code folding */

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

__attribute__((noinline)) static uint64_t leaf_delta(uint64_t iters)
{
	uint64_t x = 0x9e3779b97f4a7c1bULL; /* its own seed: no identical-code folding */

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
	sink += leaves ? leaf_alpha(unit) : leaf_work(unit);
}

__attribute__((noinline)) static void bravo(uint64_t unit)
{
	sink += leaves ? leaf_bravo(unit) : leaf_work(unit);
}

__attribute__((noinline)) static void delta(uint64_t unit)
{
	sink += leaves ? leaf_delta(unit) : leaf_work(unit);
}

__attribute__((noinline)) static void charlie(uint64_t unit)
{
	delta(unit);
	__asm__ volatile("" ::: "memory"); /* keep the call to delta from becoming a tail call */
}

// One round: the slots in an order that spreads each function over the round.
static const char default_schedule[ROUND_UNITS] = { 'A', 'B', 'A', 'C', 'A', 'B', 'A', 'C', 'A', 'B' };

#define MAX_ROUND_UNITS 100
static char custom_schedule[MAX_ROUND_UNITS];
static const char *schedule = default_schedule;
static int round_units = ROUND_UNITS;
static unsigned units[3] = { ALPHA_UNITS, BRAVO_UNITS, CHARLIE_UNITS };

static unsigned gcd(unsigned a, unsigned b)
{
	while (b) {
		unsigned t = a % b;

		a = b;
		b = t;
	}
	return a;
}

// "30,50,20" -> units 3,5,2 and a schedule where each function's slots are spread over the round
// (each slot goes to the function furthest behind its share so far). 0 or -1 if malformed.
static int set_shares(const char *arg)
{
	unsigned long v[3];
	unsigned g = 0, n = 0;
	int credit[3] = { 0, 0, 0 };
	char *end;

	for (int i = 0; i < 3; i++) {
		v[i] = strtoul(arg, &end, 10);
		if (end == arg || v[i] > 1000 || (i < 2 ? *end != ',' : *end != 0))
			return -1;
		arg = end + 1;
		g = gcd(g, (unsigned)v[i]);
	}
	if (!g)
		return -1;
	for (int i = 0; i < 3; i++) {
		units[i] = (unsigned)v[i] / g;
		n += units[i];
	}
	if (n > MAX_ROUND_UNITS)
		return -1;
	for (unsigned s = 0; s < n; s++) {
		int best = 0;

		for (int i = 0; i < 3; i++)
			credit[i] += (int)units[i];
		for (int i = 1; i < 3; i++)
			if (credit[i] > credit[best])
				best = i;
		credit[best] -= (int)n;
		custom_schedule[s] = "ABC"[best];
	}
	schedule = custom_schedule;
	round_units = (int)n;
	return 0;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

__attribute__((noinline)) static uint64_t run(double seconds, uint64_t rounds, uint64_t unit)
{
	double end = seconds > 0 ? now_s() + seconds : 0;
	char order[MAX_ROUND_UNITS];
	uint64_t rng = 0x2545f4914f6cdd1dULL, r;

	memcpy(order, schedule, (size_t)round_units);
	for (r = 0; rounds == 0 || r < rounds; r++) {
		/* A fresh order every round (Fisher-Yates): a timer that beats with the round's length
		 * (a guest's timer under a loaded host does) cannot favour a slot, hence a function. */
		for (int s = round_units - 1; s > 0; s--) {
			int k;
			char t;

			rng ^= rng << 13;
			rng ^= rng >> 7;
			rng ^= rng << 17;
			k = (int)(rng % (uint64_t)(s + 1));
			t = order[s];
			order[s] = order[k];
			order[k] = t;
		}
		for (int s = 0; s < round_units; s++) {
			switch (order[s]) {
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
	fprintf(stderr, "usage: pms-shares [--seconds S | --rounds N] [--unit ITERS] [--shares A,B,C] [--leaves]\n");
	return 2;
}

int main(int argc, char **argv)
{
	double seconds = 2.0;
	uint64_t rounds = 0, unit = 2000, done;
	char *end;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--leaves")) {
			leaves = 1;
			continue;
		}
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
		} else if (!strcmp(argv[i], "--shares")) {
			if (set_shares(argv[++i]))
				return usage();
		} else {
			return usage();
		}
	}
	printf("pms-shares: alpha %d%%, bravo %d%%, charlie->delta %d%% of leaf_work (unit %llu iterations)\n",
	       (int)(units[0] * 100 / (unsigned)round_units), (int)(units[1] * 100 / (unsigned)round_units),
	       (int)(units[2] * 100 / (unsigned)round_units), (unsigned long long)unit);
	fflush(stdout);
	done = run(seconds, rounds, unit);
	printf("pms-shares: %llu rounds (checksum %llx)\n", (unsigned long long)done,
	       (unsigned long long)(sink & 0xffff));
	return 0;
}
