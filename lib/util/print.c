// SPDX-License-Identifier: MIT
// Diagnostics callback plumbing, version and error strings of the library.
#include <errno.h>
#include <stdarg.h>
#include <string.h>

#include "util/print.h"

static pms_print_fn_t print_fn;

PMS_API pms_print_fn_t pms_set_print(pms_print_fn_t fn)
{
	pms_print_fn_t old = print_fn;

	print_fn = fn;
	return old;
}

void pms__print(enum pms_print_level level, const char *fmt, ...)
{
	va_list ap;

	if (!print_fn)
		return;
	va_start(ap, fmt);
	print_fn(level, fmt, ap);
	va_end(ap);
}

PMS_API const char *pms_version(void)
{
	return PMS_VERSION_STRING;
}

PMS_API const char *pms_strerror(int err)
{
	if (err < 0)
		err = -err;
	switch (err) {
	case ENOENT:
		return "event not supported by this kernel or PMU";
	case EOPNOTSUPP:
		return "operation not supported by this PMU (e.g. sampling or a modifier)";
	case EACCES:
	case EPERM:
		return "permission denied (see /proc/sys/kernel/perf_event_paranoid)";
	case EMFILE:
		return "too many open files (raise 'ulimit -n')";
	case ENODEV:
		return "no such PMU or device";
	case ENOSPC:
		return "no hardware counter or breakpoint slot free";
	case EBUSY:
		return "PMU busy (another user holds the counters exclusively)";
	default:
		return strerror(err);
	}
}
