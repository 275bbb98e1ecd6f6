/* SPDX-License-Identifier: MIT */
/*
 * sysfs PMUs: /sys/bus/event_source/devices/<pmu>/{type,format/,events/,
 * cpumask,cpus,caps/} read through util/sysfs.h roots (fixture-testable).
 * Objects returned by getters are borrowed from the context and live until
 * pms_event_ctx__free().
 */
#ifndef PMS_EVENT_PMU_H
#define PMS_EVENT_PMU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "event/event.h"

#define PMS_FORMAT_MAX_RANGES 4

/* One format term: "event" = config:0-7,32-35 */
struct pms_pmu_format {
	char *name;
	int field;          /* 0 config, 1 config1, 2 config2, 3 config3 */
	int nr_ranges;
	struct { int lo, hi; } ranges[PMS_FORMAT_MAX_RANGES];
	int nr_bits;        /* total width; a 1-bit format is a boolean term */
};

/* One events/<name> alias: "event=0x3c" or "event=0x2e,umask=0x4f" */
struct pms_pmu_alias {
	char *name;
	char *terms;
	double scale;       /* 1.0 when no .scale file */
	char unit[32];      /* "" when no .unit file */
};

struct pms_pmu {
	char *name;
	uint32_t type;
	char *cpus;         /* "cpumask" or "cpus" contents, NULL if absent */
	struct pms_pmu_format *formats;
	size_t nr_formats;
	struct pms_pmu_alias *aliases;
	size_t nr_aliases;
	int mux_interval_ms; /* perf_event_mux_interval_ms, -1 if absent */
};

/* All PMUs present, sorted by name. */
const struct pms_pmu *const *pms_event_ctx__pmus(struct pms_event_ctx *ctx, size_t *nr);
/* NULL + errno=ENOENT if no such PMU. */
const struct pms_pmu *pms_event_ctx__pmu(struct pms_event_ctx *ctx, const char *name);
const struct pms_pmu *pms_event_ctx__pmu_by_type(struct pms_event_ctx *ctx, uint32_t type);

struct perf_event_attr;
/* Extract the value of `fmt` from attr (for explain / display). */
uint64_t pms_pmu_format__extract(const struct pms_pmu_format *fmt, const struct perf_event_attr *attr);

#endif
