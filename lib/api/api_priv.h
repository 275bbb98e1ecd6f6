/* SPDX-License-Identifier: MIT */
/* What the public API's files share and a library user never sees. */
#ifndef PMS_API_PRIV_H
#define PMS_API_PRIV_H

#include <stdbool.h>
#include <stddef.h>

#include <pmuscope/count.h>
#include <pmuscope/perf_data.h>

#include "event/event.h"
#include "perf_event/counter.h"
#include "symbol/resolver.h"

/*
 * Copy the caller's options struct (its first field, sz, says how much of
 * it the caller knows) into dst zero-filled; NULL src: all defaults.
 * -EINVAL for an sz below a size_t or beyond dst_size.
 */
int pms_api__copy_opts(void *dst, size_t dst_size, const void *src);
/* Parse events into list; on failure the callback gets perf's caret message. 0 or -errno. */
int pms_api__parse_events(const char *events, struct pms_evlist *list, struct pms_event_ctx *ctx);
/* The public frame of a resolved address (symbol NULL unless resolved; object "[unknown]" when none). */
void pms_api__frame(const struct pms_resolved *r, uint64_t ip, enum pms_sample_frame_kind kind,
		    bool return_address, struct pms_sample_frame *out);

/* Read event idx as the engine's count (user page first); *path says how. 0 or -errno. */
int pms_count_set__read_raw(struct pms_count_set *set, size_t idx, struct pms_count *out,
			    enum pms_read_path *path);
/* The public value of a count: exact scaling (no rounding), running percentage. */
void pms_count_value__from_count(const struct pms_count *c, enum pms_read_path path,
				 struct pms_count_value *out);

#endif
