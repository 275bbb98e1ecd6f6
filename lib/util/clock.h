/* SPDX-License-Identifier: MIT */
/*
 * The monotonic clock in nanoseconds, for deadlines, intervals and rates:
 * one definition, inline (region begin/end read it on every call).
 */
#ifndef PMS_UTIL_CLOCK_H
#define PMS_UTIL_CLOCK_H

#include <stdint.h>
#include <time.h>

static inline uint64_t pms_clock__monotonic_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

#endif
