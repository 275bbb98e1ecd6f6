// SPDX-License-Identifier: MIT
// The tracing data a recording of an event list needs: its tracepoints named from their event strings.
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <linux/perf_event.h>

#include "data/tracing_data.h"
#include "event/event.h"

int pms_tracing_data__for_evlist(const struct pms_evlist *list, void **blob, size_t *size)
{
	struct pms_tracepoint_ref *refs = calloc(list->nr ? list->nr : 1, sizeof(*refs));
	char **names = calloc(list->nr ? list->nr : 1, sizeof(*names));
	size_t nr = 0;
	int err = 0;

	*blob = NULL;
	*size = 0;
	if (!refs || !names) {
		err = -ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < list->nr; i++) {
		const struct pms_evsel *e = &list->entries[i];
		char *colon;

		if (e->attr.type != PERF_TYPE_TRACEPOINT)
			continue;
		refs[nr].id = e->attr.config;
		/* "sched:sched_switch"; found by id when the name says nothing */
		if (e->name && strchr(e->name, ':')) {
			names[nr] = strdup(e->name);
			if (!names[nr]) {
				err = -ENOMEM;
				goto out;
			}
			colon = strchr(names[nr], ':');
			*colon++ = '\0';
			colon[strcspn(colon, ":/")] = '\0';
			refs[nr].sys = names[nr];
			refs[nr].name = colon;
		}
		nr++;
	}
	if (nr)
		err = pms_tracing_data__synthesize(refs, nr, blob, size);
out:
	for (size_t i = 0; names && i < nr; i++)
		free(names[i]);
	free(names);
	free(refs);
	return err;
}
