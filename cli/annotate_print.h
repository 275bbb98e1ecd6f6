/* SPDX-License-Identifier: MIT */
/*
 * An annotation (lib/aggregate/annotate) printed: perf annotate's --stdio
 * layout with the skid line, hottest lines and loop on top, or JSON. One
 * renderer for `annotate` and `top`'s a key.
 */
#ifndef PMS_CLI_ANNOTATE_PRINT_H
#define PMS_CLI_ANNOTATE_PRINT_H

#include <stdbool.h>
#include <stdio.h>

#include "aggregate/annotate.h"
#include "util/json.h"

enum annotate_pct { PCT_LOCAL_PERIOD, PCT_GLOBAL_PERIOD, PCT_LOCAL_HITS, PCT_GLOBAL_HITS };

struct annotate_view {
	const struct pms_annotate_event *ev; /* the event's totals and exactness; NULL for live samples */
	const char *event_name;              /* when ev is NULL */
	enum annotate_pct pct;               /* global types need ev (else they are local) */
	bool show_nr_samples, asm_raw;
	/* --group: the other events of the leader's group, one column each (an annotation may be NULL:
	   no samples of that event in the function) */
	struct pms_annotation **members;
	const struct pms_annotate_event **member_evs;
	size_t nr_members;
};

void annotate_print__stdio(const struct annotate_view *v, struct pms_annotation *a, FILE *f);
void annotate_print__json(const struct annotate_view *v, struct pms_annotation *a, struct pms_json *j);

#endif
