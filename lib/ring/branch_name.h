/* SPDX-License-Identifier: MIT */
/*
 * perf's names of a branch stack entry's type (perf_branch_entry.type and,
 * for PERF_BR_EXTEND_ABI, new_type), as perf script prints them in
 * -F brstack ("COND", "CALL", "" for unknown).
 */
#ifndef PMS_RING_BRANCH_NAME_H
#define PMS_RING_BRANCH_NAME_H

#include <linux/perf_event.h>

/* "" for PERF_BR_UNKNOWN and types perf 6.1 does not name; never NULL */
const char *pms_branch_entry__type_name(const struct perf_branch_entry *e);

#endif
