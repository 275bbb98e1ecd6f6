// SPDX-License-Identifier: MIT
// perf_event_open(2) wrapper and the open-to-probe check used by list/info.
#include <dirent.h>
#include <stdbool.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "perf_event/sys.h"
#include "util/sysfs.h"

int pms_sys__perf_event_open(struct perf_event_attr *attr, pid_t pid, int cpu, int group_fd,
			     unsigned long flags)
{
	long fd = syscall(SYS_perf_event_open, attr, pid, cpu, group_fd, flags | PERF_FLAG_FD_CLOEXEC);

	return fd < 0 ? -errno : (int)fd;
}

static int try_open(const struct perf_event_attr *in, int exclude_kernel, int cpu)
{
	struct perf_event_attr attr = *in;
	int fd;

	attr.size = sizeof(attr);
	attr.disabled = 1;
	if (exclude_kernel) {
		attr.exclude_kernel = 1;
		attr.exclude_hv = 1;
	}
	fd = pms_sys__perf_event_open(&attr, cpu < 0 ? 0 : -1, cpu, -1, 0);
	if (fd >= 0) {
		close(fd);
		return 0;
	}
	return fd;
}

static int rank(int err)
{
	switch (-err) {
	case EACCES:
	case EPERM:
		return 3;
	case ENOENT:
	case EOPNOTSUPP:
		return 2;
	default:
		return 1;
	}
}

int pms_event__probe(const struct perf_event_attr *attr)
{
	int best = 0, err;

	/* per-task first, then CPU-wide (uncore/msr-like PMUs refuse tasks) */
	for (int cpu = -1; cpu <= 0; cpu++) {
		for (int ek = 0; ek <= 1; ek++) {
			err = try_open(attr, ek, cpu);
			if (!err)
				return 0;
			if (!best || rank(err) > rank(best))
				best = err;
		}
	}
	return best;
}

/*
 * The CPU's own PMU as sysfs names it (x86 "cpu", hybrid "cpu_core"/"cpu_atom",
 * arm "armv8_pmuv3_0", "armv8_cortex_a72", ...), copied into buf; false if none.
 */
static bool core_pmu_name(char *buf, size_t size)
{
	char path[512];
	struct dirent *d;
	bool found = false;
	DIR *dir;

	if (pms_sysfs__path(path, sizeof(path), "bus/event_source/devices") < 0)
		return false;
	dir = opendir(path);
	if (!dir)
		return false;
	/* the alphabetically first, so the answer does not depend on readdir order */
	while ((d = readdir(dir))) {
		const char *n = d->d_name;

		if ((!strcmp(n, "cpu") || !strncmp(n, "cpu_", 4) || !strncmp(n, "armv", 4)) &&
		    (!found || strcmp(n, buf) < 0)) {
			snprintf(buf, size, "%s", n);
			found = true;
		}
	}
	closedir(dir);
	return found;
}

const char *pms_event__open_error_reason(const struct perf_event_attr *attr, int err)
{
	/* per thread: the reason may embed the PMU's name */
	static __thread char reason[384];
	char core[256];

	switch (-err) {
	case ENOENT:
		if (attr->type == PERF_TYPE_HARDWARE || attr->type == PERF_TYPE_HW_CACHE) {
			/* with a core PMU present, ENOENT means this CPU (or its hypervisor) lacks the event */
			if (core_pmu_name(core, sizeof(core))) {
				snprintf(reason, sizeof(reason),
					 "not supported: the core PMU '%s' has no such event on this CPU", core);
				return reason;
			}
			return "not supported: no hardware PMU provides this event here";
		}
		return "not supported by this PMU";
	case EOPNOTSUPP:
		if (attr->sample_period)
			return "this PMU cannot sample (no overflow interrupt); count it instead";
		return "operation not supported by this PMU";
	case EACCES:
	case EPERM:
		return "needs privileges: run as root, grant CAP_PERFMON, or lower kernel.perf_event_paranoid";
	case EINVAL:
		if (attr->exclude_kernel || attr->exclude_user || attr->exclude_hv)
			return "invalid for this PMU (it may not support the u/k/h modifiers)";
		return "invalid attribute for this PMU";
	case ENODEV:
		return "PMU not available on this CPU";
	case ENOSPC:
		return "no free counter or slot";
	case EMFILE:
		return "too many open files: raise 'ulimit -n'";
	case EBUSY:
		return "PMU busy: another user holds it exclusively";
	default:
		return strerror(-err);
	}
}
