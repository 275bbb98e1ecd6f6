/* SPDX-License-Identifier: MIT */
/*
 * Call chains that stop short. A frame-pointer walk through code built
 * without frame pointers (Debian's default, most distributions' libraries)
 * skips callers or stops inside that code, so its samples never reach main
 * and a profile silently loses its callers. This counts, per sample with a
 * frame-pointer user chain, whether the chain reaches a process or thread
 * entry (_start, __libc_start_main, start_thread, clone3, ...), and when not,
 * the object its outermost frame is in and whether that object keeps frame
 * pointers (pms_dso__frame_pointers()), so the user can be told which
 * objects to blame and what to do (--call-graph dwarf).
 *
 * Invariants: counts only; objects and symbols are kept by their strings'
 * addresses (borrowed: they must outlive the check and not change, as the
 * interned names of a resolver or session); results are sorted by cut
 * chains, most first.
 */
#ifndef PMS_AGGREGATE_CHAINCHECK_H
#define PMS_AGGREGATE_CHAINCHECK_H

#include <stddef.h>
#include <stdint.h>

struct pms_dso;

struct pms_chaincheck_object {
	const char *dso;       /* as the frame names it */
	uint64_t cut;          /* chains that stop with their outermost frame in it */
	int frame_pointers;    /* 1, 0, -1 unknown (pms_dso__frame_pointers()) */
};

struct pms_chaincheck_result {
	uint64_t chains;       /* samples with a frame-pointer user chain */
	uint64_t complete;     /* ... that reach an entry point */
	uint64_t cut;          /* ... that stop elsewhere (not counting chains cut at the depth limit) */
	uint64_t cut_no_fp;    /* ... inside an object without frame pointers */
	const struct pms_chaincheck_object *objects;
	size_t nr_objects;
};

struct pms_chaincheck;

struct pms_chaincheck *pms_chaincheck__new(void);
void pms_chaincheck__free(struct pms_chaincheck *c);
/* One user chain, as far as the walk went. */
struct pms_chaincheck_chain {
	const char *outer_sym;     /* the outermost frame's symbol, NULL if unresolved */
	uint64_t outer_vaddr;      /* its ELF address (for an entry point without a symbol: stripped) */
	struct pms_dso *outer_elf; /* its file, NULL when not read */
	const char *blame_dso;     /* the outermost frame in a known object (a walk that went astray
				      ends in no mapping): where the chain was lost */
	struct pms_dso *blame_elf;
	int at_depth_limit;        /* the walk stopped at the kernel's frame limit */
	uint64_t weight;           /* samples with this chain (0 counts as 1) */
};

/* Count one user chain. 0 or -ENOMEM. */
int pms_chaincheck__add(struct pms_chaincheck *c, const struct pms_chaincheck_chain *ch);
/* The counts so far (borrowed until the next __add() or __free()). */
void pms_chaincheck__result(struct pms_chaincheck *c, struct pms_chaincheck_result *out);
/* Whether sym is where a process's or a thread's stack begins. */
int pms_chaincheck__is_entry(const char *sym);

struct strbuf;
/*
 * One line for the user when enough chains (1% or more) stop short: how
 * many, the objects without frame pointers they stop in, and the fix;
 * nothing otherwise. Returns whether it wrote.
 */
int pms_chaincheck__describe(const struct pms_chaincheck_result *r, struct strbuf *out);

#endif
