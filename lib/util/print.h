/* SPDX-License-Identifier: MIT */
/*
 * Library-internal diagnostics. Everything the library wants to say goes
 * through pms__print(), which forwards to the callback from pms_set_print();
 * the library itself never writes to stdout/stderr.
 */
#ifndef PMS_UTIL_PRINT_H
#define PMS_UTIL_PRINT_H

#include <pmuscope/pmuscope.h>

__attribute__((format(printf, 2, 3)))
void pms__print(enum pms_print_level level, const char *fmt, ...);

#define pr_warn(...)  pms__print(PMS_WARN, __VA_ARGS__)
#define pr_info(...)  pms__print(PMS_INFO, __VA_ARGS__)
#define pr_debug(...) pms__print(PMS_DEBUG, __VA_ARGS__)

#endif
