/* SPDX-License-Identifier: MIT */
/* What the public API's files share and a library user never sees. */
#ifndef PMS_API_PRIV_H
#define PMS_API_PRIV_H

#include <pmuscope/count.h>

#include "perf_event/counter.h"

/* Read event idx as the engine's count (user page first); *path says how. 0 or -errno. */
int pms_count_set__read_raw(struct pms_count_set *set, size_t idx, struct pms_count *out,
			    enum pms_read_path *path);
/* The public value of a count: exact scaling (no rounding), running percentage. */
void pms_count_value__from_count(const struct pms_count *c, enum pms_read_path path,
				 struct pms_count_value *out);

#endif
