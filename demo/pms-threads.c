// SPDX-License-Identifier: MIT
// CPU-bound multi-thread workload with a known amount of work per thread, so
// that a counter inherited by every thread can be checked against the sum;
// each thread can also touch its own fresh pages (an exact page-fault count).
// Usage: pms-threads [threads (default 8)] [iterations per thread (default 20000000)]
//                    [pages per thread (default 0)]
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

static volatile uint64_t sink;

__attribute__((noinline)) static uint64_t spin(uint64_t n)
{
	uint64_t x = 0x9e3779b97f4a7c15ULL;

	for (uint64_t i = 0; i < n; i++)
		x ^= (x << 13) ^ (x >> 7) ^ i;
	return x;
}

static uint64_t pages_per_thread;

/* mmap, not malloc: no arena reuse between threads, no THP */
static void touch_pages(uint64_t pages)
{
	size_t len = (size_t)pages * (size_t)sysconf(_SC_PAGESIZE);
	volatile char *p;

	if (!pages)
		return;
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return;
	madvise((void *)p, len, MADV_NOHUGEPAGE);
	for (size_t off = 0; off < len; off += (size_t)sysconf(_SC_PAGESIZE))
		p[off] = 1;
	munmap((void *)p, len);
}

static void *worker(void *arg)
{
	touch_pages(pages_per_thread);
	sink += spin(*(uint64_t *)arg);
	return NULL;
}

static int parse_u64(const char *s, uint64_t *out)
{
	char *end;
	unsigned long long v;

	v = strtoull(s, &end, 10);
	if (end == s || *end)
		return -1;
	*out = v;
	return 0;
}

int main(int argc, char **argv)
{
	uint64_t nthreads = 8, iters = 20000000;
	pthread_t *t;

	if ((argc > 1 && parse_u64(argv[1], &nthreads)) || (argc > 2 && parse_u64(argv[2], &iters)) ||
	    (argc > 3 && parse_u64(argv[3], &pages_per_thread)) || nthreads < 1 || nthreads > 1024) {
		fprintf(stderr, "usage: pms-threads [threads 1..1024] [iterations] [pages per thread]\n");
		return 2;
	}
	t = calloc(nthreads, sizeof(*t));
	if (!t)
		return 1;
	for (uint64_t i = 0; i < nthreads; i++)
		if (pthread_create(&t[i], NULL, worker, &iters)) {
			perror("pthread_create");
			return 1;
		}
	for (uint64_t i = 0; i < nthreads; i++)
		pthread_join(t[i], NULL);
	free(t);
	return 0;
}
