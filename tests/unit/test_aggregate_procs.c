// SPDX-License-Identifier: MIT
// Unit tests of lib/aggregate/procs: perf's map splitting checked against a naive model (the
// newest mapping covering an address wins, with the file offset it had there), fork, threads,
// exit, and the process table under growth.
#include <criterion/criterion.h>
#include <errno.h>
#include <stdlib.h>

#include "aggregate/procs.h"

struct elem {
	struct pms_vma vma;
	uint32_t id; /* which insert this piece comes from */
};

struct naive {
	uint64_t start, end, pgoff;
	uint32_t id;
};

/* splitmix64: deterministic pseudo-random ranges */
static uint64_t rnd(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

Test(aggregate_procs, splitting_matches_newest_wins)
{
	struct pms_vmas v;
	struct naive all[400];
	uint64_t seed = 42;

	pms_vmas__init(&v, sizeof(struct elem));
	for (uint32_t n = 0; n < 400; n++) {
		uint64_t start = (rnd(&seed) % 1000) * 16, len = (rnd(&seed) % 60 + 1) * 16;
		struct elem e = { .vma = { .start = start, .end = start + len, .pgoff = rnd(&seed) % 4096 }, .id = n };

		all[n] = (struct naive){ start, start + len, e.vma.pgoff, n };
		cr_assert_eq(pms_vmas__insert(&v, &e), 0);
		/* sorted, non-overlapping */
		for (size_t i = 1; i < v.nr; i++) {
			const struct pms_vma *a = pms_vmas__at(&v, i - 1), *b = pms_vmas__at(&v, i);

			cr_assert_leq(a->end, b->start, "overlap after insert %u at %zu", n, i);
		}
		/* every address: the newest naive mapping covering it, same id and offset */
		for (uint64_t addr = 0; addr < 17000; addr += 8) {
			const struct elem *got = pms_vmas__find(&v, addr);
			const struct naive *want = NULL;

			for (uint32_t k = n + 1; k-- > 0;) {
				if (addr >= all[k].start && addr < all[k].end) {
					want = &all[k];
					break;
				}
			}
			if (!want) {
				cr_assert_null(got, "0x%lx mapped by nothing", (unsigned long)addr);
				continue;
			}
			cr_assert_not_null(got, "0x%lx after insert %u", (unsigned long)addr, n);
			cr_assert_eq(got->id, want->id, "0x%lx", (unsigned long)addr);
			cr_assert_eq(got->vma.pgoff + (addr - got->vma.start), want->pgoff + (addr - want->start),
				     "file offset of 0x%lx", (unsigned long)addr);
		}
	}
	pms_vmas__release(&v);
}

Test(aggregate_procs, remove_clear_copy_and_gen)
{
	struct pms_vmas v, w;
	struct elem a = { .vma = { 0x1000, 0x2000, 0 }, .id = 1 }, b = { .vma = { 0x3000, 0x4000, 0 }, .id = 2 };
	const struct elem *e;
	uint32_t g;

	pms_vmas__init(&v, sizeof(struct elem));
	pms_vmas__init(&w, sizeof(struct elem));
	cr_assert_eq(pms_vmas__insert(&v, &a), 0);
	cr_assert_eq(pms_vmas__insert(&v, &b), 0);
	struct elem empty = { .vma = { 0x5000, 0x5000, 0 } };
	g = v.gen;
	cr_assert_eq(pms_vmas__insert(&v, &empty), 0);
	cr_assert_eq(v.nr, 2, "an empty range is no map");
	cr_assert_eq(v.gen, g);
	cr_assert_eq(pms_vmas__copy(&w, &v), 0);
	e = pms_vmas__find(&v, 0x1800);
	cr_assert_eq(e->id, 1);
	pms_vmas__remove(&v, e);
	cr_assert_null(pms_vmas__find(&v, 0x1800));
	cr_assert_neq(v.gen, g, "a change moves gen");
	cr_assert_eq(((const struct elem *)pms_vmas__find(&w, 0x1800))->id, 1, "the copy is its own");
	pms_vmas__clear(&w);
	cr_assert_null(pms_vmas__find(&w, 0x3800));
	pms_vmas__release(&v);
	pms_vmas__release(&w);
}

struct my_proc {
	struct pms_proc p;
	int extra;
};

static int released;

static void on_release(struct pms_proc *p)
{
	released += ((struct my_proc *)p)->extra;
}

Test(aggregate_procs, fork_threads_and_growth)
{
	struct pms_procs t;
	struct pms_proc *parent, *child;
	struct elem a = { .vma = { 0x400000, 0x401000, 0 }, .id = 7 };

	pms_procs__init(&t, sizeof(struct my_proc), sizeof(struct elem), on_release);
	parent = pms_procs__find(&t, 100, true);
	cr_assert_not_null(parent);
	((struct my_proc *)parent)->extra = 1;
	cr_assert_eq(pms_vmas__insert(&parent->vmas, &a), 0);
	cr_assert_null(pms_procs__fork(&t, 100, 100, true), "a thread");
	cr_assert_eq(errno, 0);
	child = pms_procs__fork(&t, 101, 100, true);
	cr_assert_not_null(child);
	((struct my_proc *)child)->extra = 10;
	cr_assert_eq(((const struct elem *)pms_vmas__find(&child->vmas, 0x400800))->id, 7, "fork copies the maps");
	pms_vmas__clear(&parent->vmas);
	cr_assert_not_null(pms_vmas__find(&child->vmas, 0x400800), "the child keeps its copy");
	child = pms_procs__fork(&t, 102, 101, false);
	cr_assert_eq(child->vmas.nr, 0, "a synthesized fork starts empty");
	for (int32_t pid = 1000; pid < 6000; pid++)
		cr_assert_not_null(pms_procs__find(&t, pid, true));
	cr_assert_eq(pms_procs__find(&t, 100, false), parent, "pointers are stable across growth");
	cr_assert_null(pms_procs__find(&t, 99, false));
	for (int32_t pid = 1000; pid < 6000; pid += 499)
		cr_assert_eq(pms_procs__find(&t, pid, false)->pid, pid);
	pms_procs__release(&t);
	cr_assert_eq(released, 11);
}
