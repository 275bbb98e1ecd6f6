/* SPDX-License-Identifier: MIT */
/*
 * perf's "tag values": a size with a B/K/M/G suffix ("20M") or a time with
 * an s/m/h/d suffix ("30s"), as perf record's --max-size and
 * --switch-output take them.
 *
 * Invariants: suffixes are single letters, either case; the number is a
 * positive decimal; overflow is -ERANGE, never a wrapped value.
 */
#ifndef PMS_UTIL_UNITS_H
#define PMS_UTIL_UNITS_H

#include <stdbool.h>
#include <stdint.h>

/*
 * "512", "20K", "1G" -> bytes. A bare number is bytes unless need_suffix
 * (perf's --switch-output tells a size from a time by its suffix).
 * 0, -EINVAL, -ERANGE.
 */
int pms_units__parse_size_bytes(const char *s, bool need_suffix, uint64_t *bytes);

/* "30s", "5m", "2h", "1d" -> seconds (a suffix is required). 0, -EINVAL, -ERANGE. */
int pms_units__parse_time_s(const char *s, uint64_t *seconds);

#endif
