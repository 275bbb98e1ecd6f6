/* SPDX-License-Identifier: MIT */
/*
 * The perf_event_open(2) system call and single-event probing. This layer
 * is the only code that calls perf_event_open/ioctl/mmap on events.
 */
#ifndef PMS_PERF_EVENT_SYS_H
#define PMS_PERF_EVENT_SYS_H

#include <linux/perf_event.h>
#include <sys/types.h>

/* Returns an fd (O_CLOEXEC set) or -errno. */
int pms_sys__perf_event_open(struct perf_event_attr *attr, pid_t pid, int cpu, int group_fd,
			     unsigned long flags);

/*
 * Does this event open here? Opens it counting on the calling thread (pid 0,
 * cpu -1), then for CPU-bound PMUs on the first CPU, and closes it. Like perf,
 * retries with exclude_kernel/exclude_hv set when the plain open is refused
 * for privilege reasons. Returns 0 if it opens, else the -errno of the most
 * telling attempt (EACCES over ENOENT over others).
 */
int pms_event__probe(const struct perf_event_attr *attr);

/* One-line explanation of an open failure for this attr, for messages. */
const char *pms_event__open_error_reason(const struct perf_event_attr *attr, int err);

#endif
