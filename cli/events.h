/* SPDX-License-Identifier: MIT */
/*
 * Event strings from the command line, parsed the way every command shows
 * them: perf's error layout on stderr, and tracefs mounted on demand.
 */
#ifndef PMS_CLI_EVENTS_H
#define PMS_CLI_EVENTS_H

#include "event/event.h"

/*
 * Parse str into list. When a tracepoint cannot be resolved because tracefs
 * is not mounted and we are root, mount it on /sys/kernel/tracing (as perf
 * does), say so once, and parse again. On failure prints the parser's
 * message with its caret to stderr and returns -errno.
 */
int cli_parse_events(struct pms_evlist *list, struct pms_event_ctx *ctx, const char *str);

#endif
