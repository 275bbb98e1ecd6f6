/* SPDX-License-Identifier: MIT */
/*
 * Tracepoints from tracefs (<tracefs>/events/<subsys>/<name>/id).
 * tracefs not mounted: functions return -ENOENT with pms_tracefs_root()
 * NULL; the CLI offers `pmuscope` to mount it (see util/sysfs.h).
 */
#ifndef PMS_EVENT_TRACEPOINT_H
#define PMS_EVENT_TRACEPOINT_H

#include <stdint.h>

/* id of subsys:name; -ENOENT if unknown, -EACCES if tracefs unreadable. */
int pms_tracepoint__id(const char *subsys, const char *name, uint64_t *id);

/* Call fn for every tracepoint in sorted order; stops and returns fn's nonzero return. */
typedef int (*pms_tracepoint_fn)(const char *subsys, const char *name, void *arg);
int pms_tracepoint__foreach(pms_tracepoint_fn fn, void *arg);

#endif
