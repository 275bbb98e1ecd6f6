// SPDX-License-Identifier: MIT
// The bundled demo workload: known shares of CPU work in distinct functions
// (hot 60%, warm 30%, cold 10% of the iterations), some page faults and
// context switches, and two worker threads, so that stat and record have
// something to show. Usage: pms-demo [scale] (default 1 ~= 0.3 s of CPU).
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static volatile uint64_t sink;

__attribute__((noinline)) static uint64_t spin(uint64_t n)
{
	uint64_t x = 0x9e3779b97f4a7c15ULL;

	for (uint64_t i = 0; i < n; i++)
		x ^= (x << 13) ^ (x >> 7) ^ i;
	return x;
}

__attribute__((noinline)) static void hot(uint64_t n) { sink += spin(n * 6); }
__attribute__((noinline)) static void warm(uint64_t n) { sink += spin(n * 3); }
__attribute__((noinline)) static void cold(uint64_t n) { sink += spin(n); }

static void touch_memory(size_t bytes)
{
	char *p = malloc(bytes);

	if (!p)
		return;
	for (size_t i = 0; i < bytes; i += 4096)
		p[i] = (char)i;
	sink += (uint64_t)p[bytes / 2];
	free(p);
}

static void *worker(void *arg)
{
	uint64_t n = *(uint64_t *)arg;

	for (int r = 0; r < 10; r++) {
		hot(n);
		warm(n);
		cold(n);
		usleep(100);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	double scale = argc > 1 ? strtod(argv[1], NULL) : 1.0;
	uint64_t n = (uint64_t)(scale * 1600000);
	pthread_t t[2];

	if (scale <= 0) {
		fprintf(stderr, "usage: pms-demo [scale>0]\n");
		return 2;
	}
	touch_memory(8u << 20);
	for (int i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, worker, &n);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	printf("pms-demo: done (checksum %llx)\n", (unsigned long long)(sink & 0xffff));
	return 0;
}
