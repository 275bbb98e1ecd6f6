// SPDX-License-Identifier: MIT
// Unit test of lib/symbol/unwind: a thread snapshots its own registers and stack inside a known
// call chain (as a --call-graph dwarf sample would), and the DWARF unwinder must recover the chain.
#include <criterion/criterion.h>
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "symbol/dso.h"
#include "symbol/maps.h"
#include "symbol/unwind.h"

#define STACK_COPY 16384

struct snap {
	uint64_t regs[8];
	uint64_t mask;
	size_t nregs;
	uint8_t stack[STACK_COPY];
	size_t stack_size;
	enum pms_unwind_arch arch;
	uint8_t *stack_top;
	int depth_work;
};

/*
 * Copying our own live stack crosses ASan's redzones by design (the kernel
 * copies raw bytes too), so this copy is not instrumented and not memcpy().
 */
__attribute__((no_sanitize_address, noinline)) static void raw_copy(uint8_t *dst, const uint8_t *src, size_t n)
{
	for (size_t i = 0; i < n; i++)
		dst[i] = ((const volatile uint8_t *)src)[i];
}

static __attribute__((noinline)) void symbol_unwind_capture(struct snap *s)
{
	uint64_t sp;

#if defined(__x86_64__)
	uint64_t bx, bp, ip, r12, r13, r14, r15;

	/* One asm block: every value describes the same instruction (the lea). */
	__asm__ volatile("leaq 0(%%rip), %0\n\t"
			 "movq %%rsp, %1\n\t"
			 "movq %%rbp, %2\n\t"
			 "movq %%rbx, %3\n\t"
			 "movq %%r12, %4\n\t"
			 "movq %%r13, %5\n\t"
			 "movq %%r14, %6\n\t"
			 "movq %%r15, %7\n\t"
			 : "=&r"(ip), "=m"(sp), "=m"(bp), "=m"(bx), "=m"(r12), "=m"(r13), "=m"(r14), "=m"(r15)
			 :
			 : "memory");
	/* perf register order (mask bit order): BX=1 BP=6 SP=7 IP=8 R12..R15=20..23 */
	s->arch = PMS_UNWIND_X86_64;
	s->mask = 1ULL << 1 | 1ULL << 6 | 1ULL << 7 | 1ULL << 8 | 0xfULL << 20;
	uint64_t v[] = { bx, bp, sp, ip, r12, r13, r14, r15 };
	memcpy(s->regs, v, sizeof(v));
	s->nregs = 8;
#elif defined(__aarch64__)
	uint64_t fp, lr, pc;

	__asm__ volatile("adr %0, .\n\t"
			 "mov %1, sp\n\t"
			 "mov %2, x29\n\t"
			 "mov %3, x30\n\t"
			 : "=&r"(pc), "=&r"(sp), "=&r"(fp), "=&r"(lr)
			 :
			 : "memory");
	s->arch = PMS_UNWIND_ARM64;
	s->mask = 1ULL << 29 | 1ULL << 30 | 1ULL << 31 | 1ULL << 32;
	uint64_t v[] = { fp, lr, sp, pc };
	memcpy(s->regs, v, sizeof(v));
	s->nregs = 4;
#else
	cr_skip_test("no register capture for this architecture");
#endif
	size_t avail = (size_t)(s->stack_top - (uint8_t *)(uintptr_t)sp);

	s->stack_size = avail < STACK_COPY ? avail : STACK_COPY;
	raw_copy(s->stack, (const uint8_t *)(uintptr_t)sp, s->stack_size);
}

/* volatile work after each call keeps the calls from becoming tail calls */
static __attribute__((noinline)) void symbol_unwind_c(struct snap *s)
{
	symbol_unwind_capture(s);
	s->depth_work += 3;
	__asm__ volatile("" ::: "memory");
}

static __attribute__((noinline)) void symbol_unwind_b(struct snap *s)
{
	symbol_unwind_c(s);
	s->depth_work += 2;
	__asm__ volatile("" ::: "memory");
}

static __attribute__((noinline)) void symbol_unwind_a(struct snap *s)
{
	symbol_unwind_b(s);
	s->depth_work += 1;
	__asm__ volatile("" ::: "memory");
}

static void *thread_main(void *arg)
{
	struct snap *s = arg;
	pthread_attr_t attr;
	void *lo;
	size_t size;

	cr_assert_eq(pthread_getattr_np(pthread_self(), &attr), 0);
	cr_assert_eq(pthread_attr_getstack(&attr, &lo, &size), 0);
	pthread_attr_destroy(&attr);
	s->stack_top = (uint8_t *)lo + size;
	symbol_unwind_a(s);
	return NULL;
}

static const char *sym_of(const struct pms_maps *maps, uint64_t ip, struct pms_dso **cache)
{
	const struct pms_map *m = pms_maps__find(maps, ip);
	const struct pms_sym *sym;
	uint64_t vaddr;

	if (!m || m->path[0] != '/')
		return "?";
	if (*cache && strcmp((*cache)->path, m->path)) {
		pms_dso__free(*cache);
		*cache = NULL;
	}
	if (!*cache && pms_dso__open(m->path, cache))
		return "?";
	if (pms_dso__map_ip(*cache, m->start, m->pgoff, ip, &vaddr))
		return "?";
	sym = pms_dso__find_sym(*cache, vaddr);
	return sym ? sym->name : "?";
}

Test(symbol_unwind, own_stack_chain)
{
	static struct snap s;
	pthread_t t;
	struct pms_maps *maps;
	struct pms_unwinder *u;
	struct pms_unwind_regs regs;
	uint64_t ips[64];
	size_t nr;
	struct pms_dso *cache = NULL;
	const char *want[] = { "symbol_unwind_capture", "symbol_unwind_c", "symbol_unwind_b",
			       "symbol_unwind_a", "thread_main" };
	size_t w = 0;
	char chain[2048] = "";

	cr_assert_eq(pthread_create(&t, NULL, thread_main, &s), 0);
	cr_assert_eq(pthread_join(t, NULL), 0);
	cr_assert_eq(s.depth_work, 6);
	cr_assert_gt(s.stack_size, 256);

	cr_assert_eq(pms_maps__read_pid(0, &maps), 0);
	cr_assert_eq(pms_unwinder__new(maps, &u), 0);
	regs = (struct pms_unwind_regs){ .arch = s.arch, .mask = s.mask, .values = s.regs };
	cr_assert_eq(pms_unwinder__unwind(u, &regs, s.stack, s.stack_size, ips, 64, &nr), 0);
	for (size_t i = 0; i < nr; i++) {
		/* Return addresses point after the call: symbolize ip - 1. */
		const char *name = sym_of(maps, i ? ips[i] - 1 : ips[i], &cache);
		size_t len = strlen(chain);

		snprintf(chain + len, sizeof(chain) - len, "%s ", name);
		if (w < 5 && !strcmp(name, want[w]))
			w++;
	}
	cr_assert_eq(w, 5, "unwound chain: %s", chain);
	cr_assert_str_eq(sym_of(maps, ips[0], &cache), "symbol_unwind_capture");

	/* The same unwinder serves a second sample; a truncated stack gives a shorter, valid chain. */
	size_t nr2;
	cr_assert_eq(pms_unwinder__unwind(u, &regs, s.stack, 16, ips, 64, &nr2), 0);
	cr_assert_geq(nr2, 1);
	cr_assert_lt(nr2, nr);
	cr_assert_eq(pms_unwinder__unwind(u, &regs, s.stack, s.stack_size, ips, 3, &nr2), 0);
	cr_assert_eq(nr2, 3);

	/* Missing IP/SP is an error, not a guess. */
	struct pms_unwind_regs none = { .arch = s.arch, .mask = 0, .values = s.regs };
	cr_assert_eq(pms_unwinder__unwind(u, &none, s.stack, s.stack_size, ips, 64, &nr2), -EINVAL);

	pms_dso__free(cache);
	pms_unwinder__free(u);
	pms_maps__free(maps);
}

Test(symbol_unwind, regs_lookup_by_mask)
{
	uint64_t vals[] = { 10, 20, 30 }, v;
	struct pms_unwind_regs r = { .arch = PMS_UNWIND_X86_64,
				     .mask = 1ULL << 3 | 1ULL << 7 | 1ULL << 40, .values = vals };

	cr_assert_eq(pms_unwind_regs__get(&r, 3, &v), 0);
	cr_assert_eq(v, 10);
	cr_assert_eq(pms_unwind_regs__get(&r, 7, &v), 0);
	cr_assert_eq(v, 20);
	cr_assert_eq(pms_unwind_regs__get(&r, 40, &v), 0);
	cr_assert_eq(v, 30);
	cr_assert_eq(pms_unwind_regs__get(&r, 8, &v), -ENOENT);
	cr_assert_eq(pms_unwind_regs__get(&r, 64, &v), -ENOENT);
}

/*
 * A sample taken on the first instruction of a vDSO function called from
 * symbol_unwind_capture: the stack is the captured one with the return
 * address pushed, IP is the vDSO entry. The vDSO has no file, so this only
 * unwinds if the unwinder reported the vDSO image itself.
 */
Test(symbol_unwind, through_vdso_entry)
{
#if !defined(__x86_64__)
	cr_skip_test("synthetic vDSO frame is built for x86_64 only");
#else
	static struct snap s;
	static uint8_t stack[STACK_COPY + 8];
	pthread_t t;
	struct pms_maps *maps;
	const struct pms_map *v = NULL;
	struct pms_dso *img, *cache = NULL;
	const struct pms_sym *entry = NULL;
	struct pms_unwinder *u;
	uint64_t regs[8], ips[64], vip;
	size_t nr, w = 0;
	const char *want[] = { "symbol_unwind_capture", "symbol_unwind_c", "symbol_unwind_b", "symbol_unwind_a" };
	char chain[2048] = "";

	cr_assert_eq(pthread_create(&t, NULL, thread_main, &s), 0);
	cr_assert_eq(pthread_join(t, NULL), 0);
	cr_assert_eq(pms_maps__read_pid(0, &maps), 0);
	for (size_t i = 0; i < maps->nr; i++)
		if (!strcmp(maps->maps[i].path, "[vdso]"))
			v = &maps->maps[i];
	if (!v)
		cr_skip_test("no [vdso]");
	cr_assert_eq(pms_dso__open_mem((const void *)(uintptr_t)v->start, v->end - v->start, &img), 0);
	for (size_t i = 0; i < img->nr_syms && !entry; i++)
		if (strstr(img->syms[i].name, "clock_gettime"))
			entry = &img->syms[i];
	cr_assert_not_null(entry);
	cr_assert_eq(pms_dso__unmap_ip(img, v->start, v->pgoff, entry->start, &vip), 0);

	/* regs: BX BP SP IP R12..R15 (see symbol_unwind_capture) */
	memcpy(regs, s.regs, sizeof(regs));
	memcpy(stack, &s.regs[3], 8);            /* return address = captured IP */
	memcpy(stack + 8, s.stack, s.stack_size);
	regs[2] = s.regs[2] - 8;                  /* SP after the call pushed it */
	regs[3] = vip;                            /* IP at the vDSO entry */
	struct pms_unwind_regs r = { .arch = PMS_UNWIND_X86_64, .mask = s.mask, .values = regs };

	cr_assert_eq(pms_unwinder__new(maps, &u), 0);
	cr_assert_eq(pms_unwinder__unwind(u, &r, stack, s.stack_size + 8, ips, 64, &nr), 0);
	cr_assert_eq(ips[0], vip);
	for (size_t i = 1; i < nr; i++) {
		const char *name = sym_of(maps, ips[i] - 1, &cache);
		size_t len = strlen(chain);

		snprintf(chain + len, sizeof(chain) - len, "%s ", name);
		if (w < 4 && !strcmp(name, want[w]))
			w++;
	}
	cr_assert_eq(w, 4, "chain after the vDSO frame: %s", chain);
	pms_dso__free(cache);
	pms_dso__free(img);
	pms_unwinder__free(u);
	pms_maps__free(maps);
#endif
}
