/* SPDX-License-Identifier: MIT */
/*
 * libpmuscope public API.
 *
 * Invariants: functions returning int return 0 on success or a negative
 * errno; functions returning pointers return NULL and set errno. The library
 * never prints and never exits: diagnostics go to the callback installed with
 * pms_set_print() (none by default). Only libc and Linux uapi headers are
 * included here.
 */
#ifndef PMUSCOPE_PMUSCOPE_H
#define PMUSCOPE_PMUSCOPE_H

#include <stdarg.h>

#ifdef __cplusplus
extern "C" {
#endif

#ifndef PMS_API
#define PMS_API __attribute__((visibility("default")))
#endif

#define PMS_VERSION_MAJOR 0
#define PMS_VERSION_MINOR 1
#define PMS_VERSION_PATCH 0
#define PMS_VERSION_STRING "0.1.0"

/* Library version as "MAJOR.MINOR.PATCH"; a static string. */
PMS_API const char *pms_version(void);

enum pms_print_level {
	PMS_WARN = 0,
	PMS_INFO = 1,
	PMS_DEBUG = 2,
};

typedef int (*pms_print_fn_t)(enum pms_print_level level, const char *fmt, va_list ap);

/*
 * Install the diagnostics callback; NULL silences the library. Returns the
 * previous callback. Not thread-safe against concurrent library calls.
 */
PMS_API pms_print_fn_t pms_set_print(pms_print_fn_t fn);

/*
 * Describe a negative errno returned by this library, with perf_event
 * specific wording where the generic strerror() text misleads (ENOENT from
 * perf_event_open means "event not supported", not "no such file").
 * Returns a static string.
 */
PMS_API const char *pms_strerror(int err);

#ifdef __cplusplus
}
#endif

/* The whole API from one include. */
#include <pmuscope/count.h>
#include <pmuscope/overflow.h>
#include <pmuscope/perf_data.h>
#include <pmuscope/region.h>

#endif /* PMUSCOPE_PMUSCOPE_H */
