// SPDX-License-Identifier: MIT
#include <errno.h>
#include <stdio.h>

#include "util/errname.h"

const char *pms_errno__name(int err)
{
	/* the errors perf_event_open, bpf and the files around them return */
	static const struct { int e; const char *n; } names[] = {
		{ EPERM, "EPERM" }, { ENOENT, "ENOENT" }, { ESRCH, "ESRCH" }, { EINTR, "EINTR" },
		{ EIO, "EIO" }, { ENXIO, "ENXIO" }, { E2BIG, "E2BIG" }, { EBADF, "EBADF" },
		{ EAGAIN, "EAGAIN" }, { ENOMEM, "ENOMEM" }, { EACCES, "EACCES" }, { EFAULT, "EFAULT" },
		{ EBUSY, "EBUSY" }, { EEXIST, "EEXIST" }, { ENODEV, "ENODEV" }, { EINVAL, "EINVAL" },
		{ EMFILE, "EMFILE" }, { ENOSPC, "ENOSPC" }, { ERANGE, "ERANGE" }, { ENOSYS, "ENOSYS" },
		{ EOPNOTSUPP, "EOPNOTSUPP" }, { EOVERFLOW, "EOVERFLOW" },
	};
	static char buf[16];

	if (err < 0)
		err = -err;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (names[i].e == err)
			return names[i].n;
	snprintf(buf, sizeof(buf), "E%d", err);
	return buf;
}
