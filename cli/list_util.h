/* SPDX-License-Identifier: MIT */
/*
 * Shared by list, info and explain: a small streaming JSON writer, errno
 * names, and the rule for when probing the real kernel is skipped.
 *
 * Invariants: the JSON writer emits valid JSON as long as begin/end calls
 * nest; keys are ignored inside arrays and required inside objects.
 */
#ifndef PMS_CLI_LIST_UTIL_H
#define PMS_CLI_LIST_UTIL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define JW_MAX_DEPTH 16

struct jw {
	FILE *f;
	int depth;
	bool in_array[JW_MAX_DEPTH];
	int count[JW_MAX_DEPTH];
};

void jw_init(struct jw *w, FILE *f);
void jw_obj(struct jw *w, const char *key);   /* begin an object (key NULL at top or in arrays) */
void jw_arr(struct jw *w, const char *key);   /* begin an array */
void jw_end(struct jw *w);                    /* close the innermost object/array */
void jw_str(struct jw *w, const char *key, const char *val); /* NULL val -> null */
void jw_int(struct jw *w, const char *key, long long val);
void jw_uint(struct jw *w, const char *key, unsigned long long val);
/* A number with up to decimals digits after the point (trailing zeros kept); non-finite -> null. */
void jw_num(struct jw *w, const char *key, double val, int decimals);
void jw_bool(struct jw *w, const char *key, bool val);
void jw_null(struct jw *w, const char *key);
/* An int knob that may be PMS_KNOB_ABSENT (written as null). */
void jw_knob(struct jw *w, const char *key, int val);
/* Finish the document with a newline. */
void jw_finish(struct jw *w);

/* "ENOENT" for 2 or -2; "E<n>" for unknown numbers. */
const char *errno_name(int err);

/*
 * Probing opens real events on this kernel, which says nothing about a
 * fixture tree: skipped when PMS_SYSFS_ROOT is set, when PMS_NO_PROBE=1
 * (test-only) or when the command's --no-probe was given.
 */
bool probes_disabled(bool no_probe_opt);

#endif
