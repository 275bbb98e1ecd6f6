/* SPDX-License-Identifier: MIT */
/*
 * --time <start>,<end> as perf's report and script take it: seconds of the
 * sample clock, up to 9 decimals, either side may be empty (open), parsed
 * exactly (no floating point: 1234.000000001 stays one nanosecond apart).
 */
#ifndef PMS_UTIL_TIME_RANGE_H
#define PMS_UTIL_TIME_RANGE_H

#include <stdint.h>

/* 0 with [*start_ns, *end_ns] (0 = open side), or -EINVAL / -ERANGE. */
int pms_time_range__parse(const char *arg, uint64_t *start_ns, uint64_t *end_ns);

/*
 * A duration such as "250us", "1.5ms", "2s" or "100ns"; a bare number is
 * microseconds (bcc offcputime's -m/-M). 0 with *ns, or -EINVAL / -ERANGE.
 */
int pms_duration__parse_ns(const char *arg, uint64_t *ns);

#endif
