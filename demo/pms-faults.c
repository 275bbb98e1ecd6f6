// SPDX-License-Identifier: MIT
// Touches N fresh anonymous pages once each, so the page-fault count of the
// run is N plus the small constant cost of starting a process.
// Usage: pms-faults [pages (default 10000)]
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	unsigned long long pages = 10000;
	long page_size = sysconf(_SC_PAGESIZE);
	volatile char *p;
	char *end;

	if (argc > 1) {
		pages = strtoull(argv[1], &end, 10);
		if (end == argv[1] || *end || pages == 0) {
			fprintf(stderr, "usage: pms-faults [pages>0]\n");
			return 2;
		}
	}
	/* mmap, not malloc: no allocator heuristics, and no THP (which would
	 * fault 512 pages at once) */
	p = mmap(NULL, pages * (size_t)page_size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	madvise((void *)p, pages * (size_t)page_size, MADV_NOHUGEPAGE);
	for (unsigned long long i = 0; i < pages; i++)
		p[i * (size_t)page_size] = 1;
	return 0;
}
