/* SPDX-License-Identifier: MIT */
/*
 * An annotation (lib/aggregate/annotate) as text: perf annotate's --stdio
 * layout with the skid line, hottest lines and loop on top, or JSON. One
 * renderer for `annotate`, `top`'s a key and `report --html`.
 */
#ifndef PMS_EXPORT_ANNOTATE_TEXT_H
#define PMS_EXPORT_ANNOTATE_TEXT_H

#include <stdbool.h>

#include "aggregate/annotate.h"
#include "util/json.h"
#include "util/strbuf.h"

enum pms_annotate_pct {
	PMS_PCT_LOCAL_PERIOD,  /* of the function's period (perf's default) */
	PMS_PCT_GLOBAL_PERIOD, /* of the event's */
	PMS_PCT_LOCAL_HITS,    /* of the function's samples */
	PMS_PCT_GLOBAL_HITS,
};

struct pms_annotate_view {
	const struct pms_annotate_event *ev; /* the event's totals and exactness; NULL for live samples */
	const char *event_name;              /* when ev is NULL */
	enum pms_annotate_pct pct;               /* global types need ev (else they are local) */
	bool show_nr_samples, asm_raw;
	/* --group: the other events of the leader's group, one column each (an annotation may be NULL:
	   no samples of that event in the function) */
	struct pms_annotation **members;
	const struct pms_annotate_event **member_evs;
	size_t nr_members;
};

/* Append the --stdio text of a (it reads source files, hence not const). */
void pms_annotate_text__stdio(const struct pms_annotate_view *v, struct pms_annotation *a, struct strbuf *out);
/* Append one JSON object: every instruction, line and loop with its address. */
void pms_annotate_text__json(const struct pms_annotate_view *v, struct pms_annotation *a, struct pms_json *j);

#endif
