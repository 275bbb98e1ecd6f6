/* SPDX-License-Identifier: MIT */
/* errno values by their C names, as `explain`, `info` and `list --json` show an open failure. */
#ifndef PMS_UTIL_ERRNAME_H
#define PMS_UTIL_ERRNAME_H

/*
 * "ENOENT" for 2 or -2; "E<n>" for numbers without a name here (written
 * into a static buffer, so not thread-safe then).
 */
const char *pms_errno__name(int err);

#endif
