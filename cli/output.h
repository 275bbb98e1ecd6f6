/* SPDX-License-Identifier: MIT */
/* The one way commands write a finished output (-o FILE, with "-" for standard output). */
#ifndef PMS_CLI_OUTPUT_H
#define PMS_CLI_OUTPUT_H

#include <stdio.h>

#include "util/strbuf.h"

/*
 * sb to path ("-" or NULL: standard output, after what stdio holds).
 * 0, or -1 after printing "cannot write '<path>': <reason>".
 */
int output__write(const char *path, const struct strbuf *sb);

/* A document built in sb (JSON) onto a stdio stream, then sb released; out of memory ends the command. */
void output__put(FILE *f, struct strbuf *sb);

/* "  <key padded to key_width> <value>\n" on standard output: the key/value lines of info and explain. */
__attribute__((format(printf, 3, 4))) void output__kv(int key_width, const char *key, const char *fmt, ...);

struct pms_cmd;
struct pms_exporter;
/* --format's help: every registered export format, the first as the default. */
const char *output__format_help(void);
/* The exporter --format names (NULL: the default); an unknown name is a usage error listing them. */
const struct pms_exporter *output__format(const struct pms_cmd *cmd, const char *name);

#endif
