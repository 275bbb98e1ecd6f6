/* SPDX-License-Identifier: MIT */
/*
 * perf record's -j/--branch-filter names ("any_call,u") and the
 * branch_sample_type bits they stand for.
 *
 * Invariants:
 *  - A filter that names only privilege levels (u, k, hv) samples any
 *    branch, as perf's does; privilege bits left out are the kernel's choice
 *    (the event's own exclude_* bits).
 */
#ifndef PMS_EVENT_BRANCH_FILTER_H
#define PMS_EVENT_BRANCH_FILTER_H

#include <stddef.h>
#include <stdint.h>

/*
 * "any_call,u" -> PERF_SAMPLE_BRANCH_ANY_CALL|PERF_SAMPLE_BRANCH_USER.
 * 0; -EINVAL for an empty text or an unknown name (*bad_off, *bad_len: where).
 */
int pms_branch_filter__parse(const char *text, uint64_t *mask, size_t *bad_off, size_t *bad_len);

/* The names pms_branch_filter__parse() takes, comma-separated, for messages. */
const char *pms_branch_filter__names(void);

#endif
