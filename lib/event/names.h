/* SPDX-License-Identifier: MIT */
/*
 * The kernel's generic event names, with perf's spellings: what `list`
 * enumerates and the parser recognizes. Tables are static and sorted the way
 * perf lists them.
 */
#ifndef PMS_EVENT_NAMES_H
#define PMS_EVENT_NAMES_H

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

#endif
