// SPDX-License-Identifier: MIT
// JSON writer into a strbuf (escaping, UTF-8 repair, comma and indent tracking).
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "util/json.h"
#include "util/utf8.h"

void pms_json__init(struct pms_json *j, struct strbuf *out, bool pretty)
{
	memset(j, 0, sizeof(*j));
	j->out = out;
	j->pretty = pretty;
}

void pms_json__quote(struct strbuf *out, const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s, *end = p + len;
	const unsigned char *run = p; /* bytes copied as they are */

	strbuf_addch(out, '"');
	while (p < end) {
		const char *esc = NULL;
		char ubuf[8];
		size_t n = 1;

		switch (*p) {
		case '"': esc = "\\\""; break;
		case '\\': esc = "\\\\"; break;
		case '\n': esc = "\\n"; break;
		case '\t': esc = "\\t"; break;
		case '\r': esc = "\\r"; break;
		case '<':
			/* "</script" or "<!--" would end or confuse an HTML script element */
			if (p + 1 < end && (p[1] == '/' || p[1] == '!'))
				esc = "\\u003c";
			break;
		default:
			if (*p < 0x20) {
				snprintf(ubuf, sizeof(ubuf), "\\u%04x", *p);
				esc = ubuf;
			} else if (*p >= 0x80) {
				n = pms_utf8__len(p, (size_t)(end - p));
				if (!n) {
					esc = "\xef\xbf\xbd"; /* U+FFFD */
					n = 1;
				}
			}
		}
		if (esc) {
			strbuf_add(out, (const char *)run, (size_t)(p - run));
			strbuf_adds(out, esc);
			p += n;
			run = p;
		} else {
			p += n;
		}
	}
	strbuf_add(out, (const char *)run, (size_t)(p - run));
	strbuf_addch(out, '"');
}

static void indent(struct pms_json *j)
{
	if (!j->pretty)
		return;
	strbuf_addch(j->out, '\n');
	for (int i = 0; i < j->depth; i++)
		strbuf_add(j->out, "  ", 2);
}

/* Separator, indentation and key of the next value. */
static void prefix(struct pms_json *j, const char *key)
{
	if (j->depth == 0)
		return;
	if (j->count[j->depth]++)
		strbuf_addch(j->out, ',');
	indent(j);
	if (!j->in_array[j->depth] && key) {
		pms_json__quote(j->out, key, strlen(key));
		strbuf_adds(j->out, j->pretty ? ": " : ":");
	}
}

static void begin(struct pms_json *j, const char *key, bool array)
{
	prefix(j, key);
	strbuf_addch(j->out, array ? '[' : '{');
	if (j->depth + 1 < PMS_JSON_MAX_DEPTH) {
		j->depth++;
		j->in_array[j->depth] = array;
		j->count[j->depth] = 0;
	}
}

void pms_json__obj(struct pms_json *j, const char *key) { begin(j, key, false); }
void pms_json__arr(struct pms_json *j, const char *key) { begin(j, key, true); }

void pms_json__end(struct pms_json *j)
{
	bool array = j->in_array[j->depth];
	bool empty = j->count[j->depth] == 0;

	if (j->depth > 0)
		j->depth--;
	if (!empty)
		indent(j);
	strbuf_addch(j->out, array ? ']' : '}');
}

void pms_json__str(struct pms_json *j, const char *key, const char *val)
{
	if (!val) {
		pms_json__null(j, key);
		return;
	}
	pms_json__strn(j, key, val, strlen(val));
}

void pms_json__strn(struct pms_json *j, const char *key, const char *val, size_t len)
{
	prefix(j, key);
	pms_json__quote(j->out, val, len);
}

void pms_json__int(struct pms_json *j, const char *key, int64_t val)
{
	prefix(j, key);
	strbuf_addf(j->out, "%lld", (long long)val);
}

void pms_json__uint(struct pms_json *j, const char *key, uint64_t val)
{
	prefix(j, key);
	strbuf_addf(j->out, "%llu", (unsigned long long)val);
}

void pms_json__num(struct pms_json *j, const char *key, double val, int decimals)
{
	char buf[64];
	int n;

	if (!isfinite(val)) {
		pms_json__null(j, key);
		return;
	}
	prefix(j, key);
	n = snprintf(buf, sizeof(buf), "%.*f", decimals < 0 ? 0 : decimals > 17 ? 17 : decimals, val);
	if (n < 0 || (size_t)n >= sizeof(buf)) {
		strbuf_adds(j->out, "null");
		return;
	}
	if (memchr(buf, '.', (size_t)n)) {
		while (n > 0 && buf[n - 1] == '0')
			n--;
		if (n > 0 && buf[n - 1] == '.')
			n--;
	}
	if (n == 2 && buf[0] == '-' && buf[1] == '0')
		buf[0] = '0', n = 1; /* "-0" from a tiny negative value */
	strbuf_add(j->out, buf, (size_t)n);
}

void pms_json__bool(struct pms_json *j, const char *key, bool val)
{
	prefix(j, key);
	strbuf_adds(j->out, val ? "true" : "false");
}

void pms_json__null(struct pms_json *j, const char *key)
{
	prefix(j, key);
	strbuf_adds(j->out, "null");
}

void pms_json__raw(struct pms_json *j, const char *key, const char *json, size_t len)
{
	prefix(j, key);
	strbuf_add(j->out, json, len);
}

void pms_json__double(struct pms_json *j, const char *key, double val)
{
	if (!isfinite(val)) {
		pms_json__null(j, key);
		return;
	}
	prefix(j, key);
	if (val == floor(val) && fabs(val) < 9007199254740992.0)
		strbuf_addf(j->out, "%.0f", val);
	else
		strbuf_addf(j->out, "%.9g", val);
}

void pms_json__finish(struct pms_json *j)
{
	strbuf_addch(j->out, '\n');
}
