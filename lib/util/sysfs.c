// SPDX-License-Identifier: MIT
// Root directories of sysfs, procfs and tracefs, overridable for tests.
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mount.h>
#include <sys/stat.h>

#include "util/sysfs.h"

static const char *env_or(const char *name, const char *dflt)
{
	const char *v = getenv(name);

	return v && *v ? v : dflt;
}

const char *pms_sysfs_root(void)
{
	return env_or("PMS_SYSFS_ROOT", "/sys");
}

const char *pms_procfs_root(void)
{
	return env_or("PMS_PROCFS_ROOT", "/proc");
}

static int has_events_dir(const char *root)
{
	char path[4096];
	struct stat st;

	snprintf(path, sizeof(path), "%s/events", root);
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

const char *pms_tracefs_root(void)
{
	static const char *const candidates[] = {
		"/sys/kernel/tracing",
		"/sys/kernel/debug/tracing",
	};
	const char *env = getenv("PMS_TRACEFS_ROOT");
	size_t i;

	if (env && *env)
		return env;
	for (i = 0; i < sizeof(candidates) / sizeof(candidates[0]); i++)
		if (has_events_dir(candidates[i]))
			return candidates[i];
	errno = ENOENT;
	return NULL;
}

int pms_tracefs__mount(void)
{
	if (getenv("PMS_TRACEFS_ROOT"))
		return -EPERM; /* never mount over a fixture tree */
	if (mount("nodev", "/sys/kernel/tracing", "tracefs", 0, NULL) == 0)
		return 0;
	if (errno == EBUSY && has_events_dir("/sys/kernel/tracing"))
		return 0;
	return -errno;
}

static int vpath(char *buf, size_t size, const char *root, const char *fmt, va_list ap)
{
	int n = snprintf(buf, size, "%s/", root);
	int m;

	if (n < 0 || (size_t)n >= size)
		return -ENAMETOOLONG;
	m = vsnprintf(buf + n, size - (size_t)n, fmt, ap);
	if (m < 0 || (size_t)m >= size - (size_t)n)
		return -ENAMETOOLONG;
	return 0;
}

int pms_sysfs__path(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int err;

	va_start(ap, fmt);
	err = vpath(buf, size, pms_sysfs_root(), fmt, ap);
	va_end(ap);
	return err;
}

int pms_procfs__path(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int err;

	va_start(ap, fmt);
	err = vpath(buf, size, pms_procfs_root(), fmt, ap);
	va_end(ap);
	return err;
}

int pms_pmu_dir__path(char *buf, size_t size, const char *fmt, ...)
{
	char root[4096];
	va_list ap;
	int err;

	snprintf(root, sizeof(root), "%s/bus/event_source/devices", pms_sysfs_root());
	va_start(ap, fmt);
	err = vpath(buf, size, root, fmt, ap);
	va_end(ap);
	return err;
}

const char *pms_debug_root(void)
{
	const char *r = getenv("PMS_DEBUG_ROOT");

	return r && *r ? r : "/usr/lib/debug";
}
