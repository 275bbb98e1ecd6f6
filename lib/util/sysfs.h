/* SPDX-License-Identifier: MIT */
/*
 * Where the kernel's pseudo file systems live. Every library path into
 * /sys, /proc or tracefs is built from these roots so that unit tests can
 * point the library at fixture trees:
 *   PMS_SYSFS_ROOT   replaces "/sys"            (e.g. tests/fixtures/sysfs/intel)
 *   PMS_PROCFS_ROOT  replaces "/proc"
 *   PMS_TRACEFS_ROOT replaces the tracefs mount point
 *   PMS_DEBUG_ROOT   replaces "/usr/lib/debug" (separate debug files)
 */
#ifndef PMS_UTIL_SYSFS_H
#define PMS_UTIL_SYSFS_H

#include <stddef.h>

const char *pms_sysfs_root(void);
const char *pms_procfs_root(void);
/* Where distributions install separate debug files: $PMS_DEBUG_ROOT, else /usr/lib/debug. */
const char *pms_debug_root(void);
/*
 * The tracefs mount point: $PMS_TRACEFS_ROOT, else /sys/kernel/tracing or
 * /sys/kernel/debug/tracing, whichever has an "events" directory. NULL with
 * errno = ENOENT when tracefs is not mounted (see pms_tracefs__mount()).
 */
const char *pms_tracefs_root(void);
/* Mount tracefs on /sys/kernel/tracing (needs CAP_SYS_ADMIN); 0 or -errno. */
int pms_tracefs__mount(void);

/* snprintf(buf, "<root>/<rel>") helpers; return -ENAMETOOLONG on truncation. */
__attribute__((format(printf, 3, 4)))
int pms_sysfs__path(char *buf, size_t size, const char *fmt, ...);
__attribute__((format(printf, 3, 4)))
int pms_procfs__path(char *buf, size_t size, const char *fmt, ...);
/* The PMU directory root: <sysfs>/bus/event_source/devices */
__attribute__((format(printf, 3, 4)))
int pms_pmu_dir__path(char *buf, size_t size, const char *fmt, ...);

#endif
