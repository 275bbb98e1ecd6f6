/* SPDX-License-Identifier: MIT */
/*
 * Growable NUL-terminated string. Invariant: buf is always NUL-terminated
 * once any append succeeded; a failed allocation sets the sticky `oom` flag
 * and later appends are no-ops, so callers check once at the end.
 */
#ifndef PMS_UTIL_STRBUF_H
#define PMS_UTIL_STRBUF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct strbuf {
	char *buf;
	size_t len;
	size_t cap;
	bool oom;
};

#define STRBUF_INIT { 0 }

void strbuf_add(struct strbuf *sb, const char *s, size_t n);
void strbuf_adds(struct strbuf *sb, const char *s);
void strbuf_addch(struct strbuf *sb, char c);
__attribute__((format(printf, 2, 3)))
void strbuf_addf(struct strbuf *sb, const char *fmt, ...);
/* A time as people read it: "1.234 s", "12.3 ms", "850 us" (off-CPU times, block lengths). */
void strbuf_add_duration_ns(struct strbuf *sb, uint64_t ns);
void strbuf_reset(struct strbuf *sb);
/* Cut to len bytes (no-op when shorter), and trailing spaces off. */
void strbuf_setlen(struct strbuf *sb, size_t len);
void strbuf_rtrim(struct strbuf *sb);
/* Returns the buffer (caller frees) and resets sb; NULL on earlier OOM. */
char *strbuf_detach(struct strbuf *sb);
void strbuf_release(struct strbuf *sb);
/* "" when nothing was appended yet; never NULL. */
const char *strbuf_str(const struct strbuf *sb);

#endif
