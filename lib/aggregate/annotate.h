/* SPDX-License-Identifier: MIT */
/*
 * Where inside a function the samples land: a session's samples counted per
 * (object, symbol, event) and per address, then one symbol's code
 * disassembled in process (capstone) with each instruction's share, its
 * source line and inlined function (libdw), jump targets, loop back-edges
 * and the loops they close, and per-line totals: what `annotate` prints,
 * as perf annotate would, without forking objdump or addr2line.
 *
 * Invariants:
 *  - Addresses are ELF vaddrs of the symbol's file (as perf annotate
 *    prints them), never runtime addresses.
 *  - The code is read from the object the resolver matched to the
 *    recording (path, build-id cache, debug link; a rebuilt file is refused
 *    by build-id before it gets here), so the bytes are the recorded ones.
 *  - A sample counts on the instruction that holds its address; one that
 *    falls where no instruction starts (never, unless the file is not the
 *    one recorded) is counted apart, in samples_elsewhere.
 *  - The set borrows the session's objects: free it before the session.
 *  - 0 or -errno; nothing is printed.
 */
#ifndef PMS_AGGREGATE_ANNOTATE_H
#define PMS_AGGREGATE_ANNOTATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "aggregate/session.h"
#include "symbol/disasm.h"

struct pms_dso;

/* A function with samples of one event. */
struct pms_annotate_sym {
	const char *name;          /* demangled, as report names it */
	const char *dso;           /* the object as report names it */
	struct pms_dso *elf;       /* its file; NULL for kernel and JIT code (no bytes to read here) */
	uint64_t start, size;      /* ELF vaddr range of the symbol (size 0 when unknown) */
	size_t event;              /* attr index */
	uint64_t samples, period;
	bool kernel;
	bool kernel_here;          /* kernel code of the running kernel, which the recording's is: /proc/kcore has it */
	int64_t kernel_delta;      /* recorded address - running address (KASLR) */
};

/* An event of the file, for headers: its totals and whether its samples were exact. */
struct pms_annotate_event {
	const char *name;
	uint64_t samples, period;  /* every sample of the event, annotatable or not (global percent) */
	uint64_t exact_samples;    /* with PERF_RECORD_MISC_EXACT_IP: the IP of the instruction that caused them */
	unsigned precise_ip;       /* attr.precise_ip: 0 arbitrary skid ... 3 must be exact */
};

struct pms_annotate_set;

/* Replay the whole session (leaf frames only). -errno as pms_session__next() on damage. */
int pms_annotate_set__from_session(struct pms_session *s, struct pms_annotate_set **out);
/*
 * The same sample by sample, for a caller that replays the session itself
 * (report --html): __new(), __add() each sample, __finish() before reading.
 */
struct pms_annotate_set *pms_annotate_set__new(void);
int pms_annotate_set__add(struct pms_annotate_set *set, struct pms_session *s, const struct pms_session_sample *smp);
int pms_annotate_set__finish(struct pms_annotate_set *set);
void pms_annotate_set__free(struct pms_annotate_set *set);
/* Symbols, most samples first (all events). */
size_t pms_annotate_set__nr(const struct pms_annotate_set *set);
const struct pms_annotate_sym *pms_annotate_set__sym(const struct pms_annotate_set *set, size_t i);
size_t pms_annotate_set__nr_events(const struct pms_annotate_set *set);
const struct pms_annotate_event *pms_annotate_set__event(const struct pms_annotate_set *set, size_t e);
/* Samples whose leaf is in no named function (a missing file, another kernel, JIT code without a map). */
void pms_annotate_set__unnamed(const struct pms_annotate_set *set, uint64_t *user, uint64_t *kernel);

struct pms_annotate_opts {
	size_t sz;                 /* sizeof(struct pms_annotate_opts) */
	enum pms_disasm_syntax syntax;
	bool source;               /* file:line and inlined functions from DWARF */
};

struct pms_annotate_insn {
	struct pms_disasm_insn d;
	uint64_t samples, period;
	const char *file;          /* innermost source location (NULL: none known) */
	const char *comp_dir;      /* where file is relative to, when it is */
	unsigned line;
	const char *func;          /* the inlined function the instruction belongs to, NULL when it is
				      the symbol's own code */
	uint32_t line_idx;         /* into lines[], UINT32_MAX without a location */
	bool jump_target;          /* a branch of the function lands here */
	bool back_edge;            /* a branch to an earlier address of the function: a loop's end */
};

struct pms_annotate_line {
	const char *file;
	const char *comp_dir;
	unsigned line;
	uint64_t samples, period;
	uint64_t first_addr;       /* its first instruction */
};

struct pms_annotate_loop {
	uint64_t start, end;       /* [start, end): from the branch target to past the back-edge */
	uint64_t samples, period;
};

struct pms_annotation {
	const struct pms_annotate_sym *sym;
	struct pms_annotate_insn *insns;
	size_t nr_insns;
	struct pms_annotate_line *lines;   /* per source line, in order of first appearance */
	size_t nr_lines;
	struct pms_annotate_loop *loops;   /* hottest first */
	size_t nr_loops;
	uint64_t samples_elsewhere;        /* at no instruction's first byte */
	const char *no_source;             /* why there are no source lines, NULL when there are */
};

/* Samples at one address. */
struct pms_annotate_point {
	uint64_t addr;
	uint64_t samples, period;
};

/*
 * The same for any function of a file with samples given by address: the
 * entry point for callers with their own samples (and the fuzzer). sym is
 * borrowed by the annotation; points need not be sorted.
 */
int pms_annotation__build_sym(const struct pms_annotate_sym *sym, const struct pms_annotate_point *points,
			      size_t nr_points, const struct pms_annotate_opts *opts, struct pms_annotation **out);

/*
 * Disassemble symbol i of set and attribute its samples. Kernel code is
 * read from /proc/kcore when the running kernel is the recorded one.
 * -EOPNOTSUPP: the machine has no disassembler here; -ENOENT: no code bytes
 * (JIT code, a file without them, another kernel); -ENODEV: no kcore in
 * this kernel; -EACCES/-EPERM: kcore needs root; -ENOMEM.
 */
int pms_annotation__build(const struct pms_annotate_set *set, size_t i, const struct pms_annotate_opts *opts,
			  struct pms_annotation **out);
void pms_annotation__free(struct pms_annotation *a);
/*
 * The text of a source line (its file read once, where this machine has
 * it, relative paths under comp_dir; NULL otherwise). Borrowed until __free().
 */
const char *pms_annotation__source(struct pms_annotation *a, const char *file, const char *comp_dir, unsigned line);

#endif
