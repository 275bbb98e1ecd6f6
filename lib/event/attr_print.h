/* SPDX-License-Identifier: MIT */
/*
 * perf's "-vv" rendering of a perf_event_attr, field for field, so that our
 * attrs can be diffed against `perf stat -vv` output (tests/kernel oracle)
 * and shown by `stat -vv` and `explain`; and `perf evlist -v`'s one-line
 * form of the same fields.
 */
#ifndef PMS_EVENT_ATTR_PRINT_H
#define PMS_EVENT_ATTR_PRINT_H

#include <linux/perf_event.h>

#include "util/strbuf.h"

/*
 * Append exactly what perf 6.1 prints between its dashed lines:
 *   "perf_event_attr:\n" then one "  %-32s %s\n" line per non-zero field,
 * in perf's order and with perf's value spelling (hex config, symbolic
 * sample_type/read_format flags such as "IP|TID|TIME", "disabled 1").
 */
void pms_attr__format(const struct perf_event_attr *attr, struct strbuf *out);

/*
 * The same fields as `perf evlist -v` prints them after the event's name,
 * on one line without its newline: ": size: 136, config: 0x1, sample_type: IP|TID".
 */
void pms_attr__format_inline(const struct perf_event_attr *attr, struct strbuf *out);

#endif
