/* SPDX-License-Identifier: MIT */
/*
 * JSON writer into a strbuf, for every JSON document pmuscope writes: the
 * library's exports (speedscope, Chrome trace, stacks JSON, the data of flame
 * graph pages), stat's JSON lines and the commands' --json output.
 *
 * Invariants:
 *  - Output is valid JSON whatever the input bytes: strings are escaped,
 *    invalid UTF-8 becomes U+FFFD, and the '<' of "</" and "<!" is written
 *    as \u003c so the text can sit inside an HTML <script> element as it is.
 *  - Commas and (when pretty) indentation are tracked per nesting level; a
 *    key is used inside objects and ignored inside arrays.
 *  - Memory failures are sticky in the strbuf (out->oom), checked once at the end.
 */
#ifndef PMS_UTIL_JSON_H
#define PMS_UTIL_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/strbuf.h"

#define PMS_JSON_MAX_DEPTH 64

struct pms_json {
	struct strbuf *out;
	bool pretty;
	int depth;
	bool in_array[PMS_JSON_MAX_DEPTH];
	uint32_t count[PMS_JSON_MAX_DEPTH];
};

void pms_json__init(struct pms_json *j, struct strbuf *out, bool pretty);
void pms_json__obj(struct pms_json *j, const char *key); /* begin an object */
void pms_json__arr(struct pms_json *j, const char *key); /* begin an array */
void pms_json__end(struct pms_json *j);                  /* close the innermost one */
void pms_json__str(struct pms_json *j, const char *key, const char *val); /* NULL -> null */
void pms_json__strn(struct pms_json *j, const char *key, const char *val, size_t len);
void pms_json__int(struct pms_json *j, const char *key, int64_t val);
void pms_json__uint(struct pms_json *j, const char *key, uint64_t val);
/* Up to decimals digits after the point, trailing zeros dropped; NaN/inf -> null. */
void pms_json__num(struct pms_json *j, const char *key, double val, int decimals);
/* A measured value at full precision: integral -> no fraction, else 9 significant digits; NaN/inf -> null. */
void pms_json__double(struct pms_json *j, const char *key, double val);
void pms_json__bool(struct pms_json *j, const char *key, bool val);
void pms_json__null(struct pms_json *j, const char *key);
/* A value already encoded as JSON by the caller (e.g. a cached string). */
void pms_json__raw(struct pms_json *j, const char *key, const char *json, size_t len);
/* Newline after the top-level value. */
void pms_json__finish(struct pms_json *j);

/* Append s[0..len) as a quoted JSON string (the escaping above). */
void pms_json__quote(struct strbuf *out, const char *s, size_t len);


#endif
