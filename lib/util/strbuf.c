// SPDX-License-Identifier: MIT
// Growable string buffer with a sticky out-of-memory flag.
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/strbuf.h"

static bool grow(struct strbuf *sb, size_t extra)
{
	size_t need, cap;
	char *p;

	if (sb->oom)
		return false;
	need = sb->len + extra + 1;
	if (need <= sb->cap)
		return true;
	cap = sb->cap ? sb->cap : 64;
	while (cap < need)
		cap *= 2;
	p = realloc(sb->buf, cap);
	if (!p) {
		sb->oom = true;
		return false;
	}
	sb->buf = p;
	sb->cap = cap;
	return true;
}

void strbuf_add(struct strbuf *sb, const char *s, size_t n)
{
	if (!grow(sb, n))
		return;
	memcpy(sb->buf + sb->len, s, n);
	sb->len += n;
	sb->buf[sb->len] = '\0';
}

void strbuf_adds(struct strbuf *sb, const char *s)
{
	strbuf_add(sb, s, strlen(s));
}

void strbuf_addch(struct strbuf *sb, char c)
{
	strbuf_add(sb, &c, 1);
}

void strbuf_addf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0 || !grow(sb, (size_t)n))
		return;
	va_start(ap, fmt);
	vsnprintf(sb->buf + sb->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	sb->len += (size_t)n;
}

void strbuf_reset(struct strbuf *sb)
{
	sb->len = 0;
	if (sb->buf)
		sb->buf[0] = '\0';
}

void strbuf_setlen(struct strbuf *sb, size_t len)
{
	if (len >= sb->len)
		return;
	sb->len = len;
	sb->buf[len] = '\0';
}

void strbuf_rtrim(struct strbuf *sb)
{
	while (sb->len && sb->buf[sb->len - 1] == ' ')
		sb->buf[--sb->len] = '\0';
}

char *strbuf_detach(struct strbuf *sb)
{
	char *p = sb->oom ? NULL : sb->buf;

	if (sb->oom)
		free(sb->buf);
	else if (!p)
		p = calloc(1, 1);
	sb->buf = NULL;
	sb->len = sb->cap = 0;
	sb->oom = false;
	return p;
}

void strbuf_add_duration_ns(struct strbuf *sb, uint64_t ns)
{
	/* the unit is chosen on the rounded value: 999999 ns is "1.0 ms", not "1000 us" */
	if (ns >= 999950000ULL)
		strbuf_addf(sb, "%.3f s", (double)ns / 1e9);
	else if (ns >= 999500ULL)
		strbuf_addf(sb, "%.1f ms", (double)ns / 1e6);
	else
		strbuf_addf(sb, "%.0f us", (double)ns / 1e3);
}

void strbuf_release(struct strbuf *sb)
{
	free(sb->buf);
	sb->buf = NULL;
	sb->len = sb->cap = 0;
	sb->oom = false;
}

const char *strbuf_str(const struct strbuf *sb)
{
	return sb->buf && !sb->oom ? sb->buf : "";
}
