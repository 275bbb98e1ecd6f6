/* SPDX-License-Identifier: MIT */
/*
 * Source lines and inline frames of ELF vaddrs through libdw, in process
 * (never a forked addr2line), with a per-DSO address cache.
 *
 * Invariants:
 *  - frames[0] is the innermost location (the address's own file:line,
 *    in the innermost inlined function); each following frame is the
 *    caller the previous one was inlined into, at the DW_AT_call_file/line
 *    of that inlining; the last frame is the real (out-of-line) function.
 *  - Strings (func, file) belong to the libdw handle; frames arrays belong
 *    to the cache. Both stay valid until pms_srcline__free().
 *  - One lookup per distinct address hits DWARF; repeats are a hash probe.
 */
#ifndef PMS_SYMBOL_SRCLINE_H
#define PMS_SYMBOL_SRCLINE_H

#include <stddef.h>
#include <stdint.h>

#include "symbol/dso.h"

struct pms_srcline_frame {
	const char *func; /* DW_AT_name, NULL if unknown */
	/*
	 * DW_AT_linkage_name, demangled as perf prints names (no parameters),
	 * NULL without one. What addr2line, and so perf, calls the function:
	 * glibc's "__GI___qsort_r" where DW_AT_name says "__qsort_r".
	 */
	const char *linkage_name;
	const char *file; /* path as recorded in DWARF (maybe relative to comp_dir), NULL if unknown */
	const char *comp_dir; /* the compile unit's DW_AT_comp_dir, NULL if none */
	unsigned int line;  /* 0 if unknown */
};

struct pms_srcline;

/*
 * DWARF of dso: its own .debug_info, else its separate debug file
 * (pms_dso__find_debug_file()). -ENODATA if neither has DWARF.
 * dso must outlive the srcline handle.
 */
int pms_srcline__new(struct pms_dso *dso, struct pms_srcline **out);
/* 0 with frames/nr set, -ENOENT if the address has no DWARF coverage. */
int pms_srcline__lookup(struct pms_srcline *sl, uint64_t vaddr,
			const struct pms_srcline_frame **frames, size_t *nr);
void pms_srcline__free(struct pms_srcline *sl);
/* Cache statistics for benchmarks and tests. */
void pms_srcline__stats(const struct pms_srcline *sl, size_t *lookups, size_t *misses);

#endif
