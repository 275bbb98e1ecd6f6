/* SPDX-License-Identifier: MIT */
/*
 * Finding cgroup v2 directories for perf's cgroup mode (PERF_FLAG_PID_CGROUP),
 * shared by `stat -G` and the agent.
 *
 * Invariants: names are cgroup v2 paths, relative to the hierarchy's root
 * or absolute under it ("/sys/fs/cgroup/x" and "x" are the same cgroup);
 * "/" (or "") is the root cgroup, everything.
 */
#ifndef PMS_UTIL_CGROUP_H
#define PMS_UTIL_CGROUP_H

#include <stddef.h>

/* Where the cgroup v2 hierarchy is mounted (/sys/fs/cgroup, or /sys/fs/cgroup/unified in the hybrid layout); NULL: nowhere. */
const char *pms_cgroup__v2_root(void);
/*
 * Open the directory of cgroup `name` (O_RDONLY|O_DIRECTORY|O_CLOEXEC) for
 * perf_event_open; path gets the directory tried. The fd, or -errno
 * (-ENOENT also when no v2 hierarchy is mounted: path is then "").
 */
int pms_cgroup__open(const char *name, char *path, size_t size);

#endif
