/* SPDX-License-Identifier: MIT */
/*
 * Process and thread id lists as perf takes them on its command lines
 * (-p/-t, --pid/--tid): "12,34". One parser, so every command accepts and
 * refuses the same text.
 */
#ifndef PMS_UTIL_IDLIST_H
#define PMS_UTIL_IDLIST_H

#include <stddef.h>
#include <sys/types.h>

/*
 * Decimal ids separated by commas, none empty, each in [min_id, INT_MAX]:
 * min_id 1 for live targets, 0 for filters over a recording (where pid 0 is
 * the idle task). Duplicates are kept, in the order given.
 *
 * 0 with *ids (malloc'ed, the caller frees it) and *nr >= 1. -EINVAL when
 * the text is not such a list, -ENOMEM; either way *ids is NULL and *nr 0.
 */
int pms_id_list__parse(const char *text, int min_id, pid_t **ids, size_t *nr);

#endif
