/* SPDX-License-Identifier: MIT */
/*
 * JIT symbol maps in perf's format: /tmp/perf-PID.map, one
 * "START SIZE name" line per symbol, START and SIZE in hex (with or
 * without 0x). Invariant: malformed lines are skipped and counted (JIT
 * runtimes append while we read), never fatal; later duplicates of one
 * start address lose to the first.
 */
#ifndef PMS_SYMBOL_JITMAP_H
#define PMS_SYMBOL_JITMAP_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "symbol/symtab.h"

struct pms_jitmap {
	struct pms_symtab tab;
	size_t nr_bad_lines;
};

int pms_jitmap__parse(const char *text, size_t len, struct pms_jitmap *jm);
int pms_jitmap__load(const char *path, struct pms_jitmap *jm);
/* <dir>/perf-<pid>.map with dir = $PMS_JITMAP_DIR or /tmp. */
int pms_jitmap__load_pid(pid_t pid, struct pms_jitmap *jm);
const struct pms_tsym *pms_jitmap__find(const struct pms_jitmap *jm, uint64_t addr);
void pms_jitmap__release(struct pms_jitmap *jm);
/*
 * perf's short name of an object (its report's Shared Object column): the
 * base name, "[JIT] tid N" for a JIT map /tmp/perf-N.map (anonymous code of
 * process N). Returns path's base name or buf.
 */
const char *pms_jitmap__dso_short_name(const char *path, char *buf, size_t size);

#endif
