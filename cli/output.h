/* SPDX-License-Identifier: MIT */
/* The one way commands write a finished output (-o FILE, with "-" for standard output). */
#ifndef PMS_CLI_OUTPUT_H
#define PMS_CLI_OUTPUT_H

#include "util/strbuf.h"

/*
 * sb to path ("-" or NULL: standard output, after what stdio holds).
 * 0, or -1 after printing "cannot write '<path>': <reason>".
 */
int output__write(const char *path, const struct strbuf *sb);

#endif
