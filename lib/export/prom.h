/* SPDX-License-Identifier: MIT */
/*
 * Prometheus text exposition format 0.0.4 into a strbuf: what `pmuscope
 * agent` serves on /metrics.
 *
 * Invariants:
 *  - Every line this writes ends in '\n' (the last one too), and nothing is
 *    written when a name is refused: a bad name is -EINVAL with the buffer
 *    as it was, so one bad event cannot corrupt the rest of a scrape.
 *  - Text is valid UTF-8 whatever the input bytes (comm names and event
 *    strings are not): invalid sequences become U+FFFD, because Prometheus
 *    rejects the whole scrape on an invalid label value.
 *  - Label values: `\` `"` and newline escaped; HELP text: `\` and newline.
 *  - A label whose value is NULL or "" is left out: Prometheus treats an
 *    empty label as an absent one, and writing it would only cost bytes.
 *  - The caller writes a family's HELP/TYPE (pms_prom__family) before its
 *    samples and keeps one family's samples together; __family refuses a
 *    second TYPE line for a name already in the buffer (Prometheus would
 *    fail the whole scrape on it; two events can map to one name), found
 *    by a scan of the buffer, so build one scrape per buffer. A counter's family name is its full
 *    sample name ending in _total; a summary's family "x" has samples
 *    "x_sum" and "x_count".
 *  - Numbers do not depend on the locale.
 *  - Memory failures: the strbuf's sticky oom flag, reported as -ENOMEM by
 *    the call that sees it set.
 * All functions are reentrant; a strbuf must not be shared between threads.
 */
#ifndef PMS_EXPORT_PROM_H
#define PMS_EXPORT_PROM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/strbuf.h"

/* The Content-Type of a /metrics response in this format. */
#define PMS_PROM_CONTENT_TYPE "text/plain; version=0.0.4; charset=utf-8"

struct pms_prom_label {
	const char *name;  /* [a-zA-Z_][a-zA-Z0-9_]*, not starting "__" */
	const char *value; /* any bytes; NULL or "" leaves the label out */
};

/* [a-zA-Z_:][a-zA-Z0-9_:]* */
bool pms_prom__valid_metric_name(const char *name);
/* [a-zA-Z_][a-zA-Z0-9_]* and no "__" prefix (reserved for Prometheus itself). */
bool pms_prom__valid_label_name(const char *name);

/*
 * "# HELP name help" (left out when help is NULL) and "# TYPE name type",
 * type one of counter, gauge, summary, histogram, untyped. 0; -EINVAL for
 * a bad name or type; -EEXIST when out already has a TYPE line for name;
 * -ENOMEM.
 */
int pms_prom__family(struct strbuf *out, const char *name, const char *type, const char *help);

/*
 * `name{l1="v1",...} value`. Integral values of magnitude up to 2^53 are
 * written as integers ("12345"); other finite values in the shortest form
 * that reads back as the same double; NaN, +Inf, -Inf. 0; -EINVAL for a bad
 * metric or label name, or a label name given twice; -ENOMEM.
 */
int pms_prom__sample(struct strbuf *out, const char *name, const struct pms_prom_label *labels,
		     size_t nr_labels, double value);
/* The same with an exact 64-bit count (a double loses counts above 2^53). */
int pms_prom__sample_u64(struct strbuf *out, const char *name, const struct pms_prom_label *labels,
			 size_t nr_labels, uint64_t value);

/*
 * The value as __sample writes it, into buf (32 bytes are always enough).
 * Returns the length, or -ENOSPC.
 */
int pms_prom__format_value(double value, char *buf, size_t size);

/*
 * A metric name from an event name: prefix + the name lowercased, each run
 * of characters outside [a-z0-9_] turned into one '_' (none at either end,
 * and merged with the '_' beside it: "a_-_b" -> "a_b") + suffix. ("context-switches",
 * "pmuscope_", "_total") -> "pmuscope_context_switches_total";
 * "sched:sched_switch" -> "sched_sched_switch" (':' is for recording
 * rules). Without a prefix, a leading digit gets a '_' before it.
 * prefix and suffix may be NULL. 0; -EINVAL for an input with no usable
 * character or a prefix/suffix that makes the name invalid; -ENAMETOOLONG
 * when out_size cannot hold the name and its NUL (out is "" on errors).
 */
int pms_prom__name_from(const char *in, const char *prefix, const char *suffix, char *out,
			size_t out_size);

#endif
