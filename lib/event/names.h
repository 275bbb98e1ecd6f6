/* SPDX-License-Identifier: MIT */
/*
 * The kernel's generic event names, with perf's spellings: what `list`
 * enumerates and the parser recognizes. Tables are static and sorted the way
 * perf lists them.
 */
#ifndef PMS_EVENT_NAMES_H
#define PMS_EVENT_NAMES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct pms_event_name {
	const char *name;   /* canonical: "cpu-cycles" */
	const char *alias;  /* "cycles", or NULL */
	uint32_t type;      /* PERF_TYPE_HARDWARE / _SOFTWARE / _HW_CACHE */
	uint64_t config;
	const char *desc;   /* one line, for list/explain */
};

const struct pms_event_name *pms_event_names__hardware(size_t *nr);
const struct pms_event_name *pms_event_names__software(size_t *nr);
/*
 * Every valid legacy cache name in perf's canonical spelling
 * ("L1-dcache-load-misses", "LLC-prefetches", "branch-loads", ...) with its
 * PERF_TYPE_HW_CACHE config. Static storage.
 */
const struct pms_event_name *pms_event_names__cache(size_t *nr);

/* Hardware or software event whose name or alias is exactly w[0..len), or NULL. */
const struct pms_event_name *pms_event_names__find(const char *w, size_t len);

/* perf's validity table: e.g. iTLB and branch accept only loads. */
bool pms_event_names__cache_op_valid(int type, int op);
/* All spellings of cache type (what 0), op (1) or result (2) idx; NULL-terminated, first canonical. */
const char *const *pms_event_names__cache_spellings(int what, int idx);

/*
 * perf's evsel__name() for an attr that the file does not name (pipe mode
 * without EVENT_DESC): "cycles:ppH", "cpu-clock", "raw 0x1c2:u",
 * "L1-dcache-load-misses", "mem:0x1000:rw", "unknown tracepoint". Returns
 * the length snprintf would have written.
 */
struct perf_event_attr;
size_t pms_event_name__from_attr(const struct perf_event_attr *a, char *buf, size_t sz);

#endif
