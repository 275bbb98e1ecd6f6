/* SPDX-License-Identifier: MIT */
/*
 * Internals shared by the event layer's files (not for other layers).
 * The context scans the PMU directory once (names only) and loads a PMU's
 * type, formats and aliases on first use, so parsing "cpu-clock" never
 * touches sysfs beyond the first scan, and tracefs is read only for
 * "subsys:name" forms.
 */
#ifndef PMS_EVENT_PRIV_H
#define PMS_EVENT_PRIV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "event/pmu.h"

struct pms_pmu_ent {
	struct pms_pmu pub;  /* first: &ent->pub is what getters hand out */
	int state;           /* 0 name only, 1 loaded, <0 -errno of the failed load */
};

struct pms_event_ctx {
	struct pms_pmu_ent *pmus; /* sorted by name */
	size_t nr_pmus;
	int scan_err;             /* -errno if the PMU directory could not be read */
	const struct pms_pmu **pub_list;
	char **tp_names;          /* "subsys:name" for suggestions, loaded on demand */
	size_t nr_tp_names;
	bool tp_loaded;
	/* parser caches (event/parse.c): resolved tracepoint ids, the core PMU */
	struct pms_tp_id { char *name; uint64_t id; } *tp_ids; /* "subsys:name" */
	size_t nr_tp_ids, cap_tp_ids;
	const struct pms_pmu *core_pmu; /* valid when core_looked */
	bool core_looked;
};

/* The PMU named name[0..len) (exact), loaded; NULL + errno otherwise. */
struct pms_pmu_ent *pms_ctx__find_pmu(struct pms_event_ctx *ctx, const char *name, size_t len);
/* Load type/formats/aliases if not yet; 0 or -errno. */
int pms_ctx__load_pmu(struct pms_pmu_ent *ent);
/* Format or alias of a loaded PMU by name[0..len) (aliases case-insensitively, as perf). */
const struct pms_pmu_format *pms_pmu__format(const struct pms_pmu *pmu, const char *name, size_t len);
const struct pms_pmu_alias *pms_pmu__alias(const struct pms_pmu *pmu, const char *name, size_t len);

#endif
