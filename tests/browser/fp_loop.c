// SPDX-License-Identifier: MIT
// Workload for the flame graph's first-view check: page faults under a short chain, under a self-pointing frame pointer (a looping chain), and at the bottom of a deep recursion.
//
// Usage: fp-loop NORMAL LOOPED DEPTH
// Each touched page faults exactly once (fresh anonymous memory, no huge
// pages), so `record -e page-faults -c 1` gets one sample per page whatever
// CPU the test gets: NORMAL samples with a short chain, LOOPED samples whose
// chain loops, and one sample DEPTH calls deep (a tower one sample wide).
// Built by tests/browser/test_fg_firstview.sh with -O0 -fno-omit-frame-pointer.
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>

#define PAGE 4096

__attribute__((noinline)) static void touch(volatile char *p, long pages)
{
	for (long i = 0; i < pages; i++)
		p[i * PAGE] = 1;
}

__attribute__((noinline)) static void normal_work(volatile char *p, long pages)
{
	touch(p, pages);
}

#if defined(__x86_64__)
/*
 * Fault with rbp = self, where self[0] = self: the kernel's user
 * frame-pointer walk reads next frame self and return address self[1]
 * forever, until its limit. The loop lives in the asm so that no code
 * addresses memory through rbp while it is borrowed.
 */
__attribute__((noinline)) static void looped_touch(volatile char *p, long pages, uintptr_t *self)
{
	uintptr_t saved;

	__asm__ volatile("mov %%rbp, %[saved]\n\t"
			 "mov %[self], %%rbp\n"
			 "1:\n\t"
			 "movb $1, (%[p])\n\t"
			 "add $4096, %[p]\n\t"
			 "dec %[n]\n\t"
			 "jnz 1b\n\t"
			 "mov %[saved], %%rbp"
			 : [saved] "=&r"(saved), [p] "+r"(p), [n] "+r"(pages)
			 : [self] "r"(self)
			 : "memory", "cc");
}
#endif

/* Recursion from one call site: every level returns to the same address, and the chain ends in main. */
__attribute__((noinline)) static int deep(volatile char *p, int depth)
{
	int r;

	if (depth == 0) {
		p[0] = 1;
		return 1;
	}
	r = deep(p, depth - 1);
	__asm__ volatile("" ::: "memory"); /* not a tail call */
	return r + 1;
}

int main(int argc, char **argv)
{
	long normal, looped, depth;
	volatile char *mem;
	uintptr_t *self;
	size_t len;

	if (argc != 4 || (normal = strtol(argv[1], NULL, 10)) < 1 || (looped = strtol(argv[2], NULL, 10)) < 1 ||
	    (depth = strtol(argv[3], NULL, 10)) < 1) {
		fprintf(stderr, "usage: fp-loop NORMAL LOOPED DEPTH (each >= 1)\n");
		return 2;
	}
#if !defined(__x86_64__)
	fprintf(stderr, "fp-loop: the looping frame is built for x86-64 only\n");
	return 3;
#else
	len = (size_t)(normal + looped + 1) * PAGE;
	mem = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	self = malloc(2 * sizeof(*self)); /* on the heap, which no MMAP record covers, like a dtv */
	if (mem == MAP_FAILED || !self) {
		perror("fp-loop");
		return 1;
	}
	madvise((void *)mem, len, MADV_NOHUGEPAGE); /* one fault per page */
	self[0] = (uintptr_t)self;
	self[1] = (uintptr_t)&self[1];
	normal_work(mem, normal);
	looped_touch(mem + (size_t)normal * PAGE, looped, self);
	deep(mem + (size_t)(normal + looped) * PAGE, (int)depth);
	free(self);
	munmap((void *)mem, len);
	return 0;
#endif
}
