// SPDX-License-Identifier: MIT
// JSON writer, errno names and the probe switch shared by list/info/explain.
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "list_util.h"
#include "perf_event/caps.h"

void jw_init(struct jw *w, FILE *f)
{
	memset(w, 0, sizeof(*w));
	w->f = f;
}

static void indent(struct jw *w)
{
	fputc('\n', w->f);
	for (int i = 0; i < w->depth; i++)
		fputs("  ", w->f);
}

static void put_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		switch (*p) {
		case '"': fputs("\\\"", f); break;
		case '\\': fputs("\\\\", f); break;
		case '\n': fputs("\\n", f); break;
		case '\t': fputs("\\t", f); break;
		case '\r': fputs("\\r", f); break;
		default:
			if (*p < 0x20)
				fprintf(f, "\\u%04x", *p);
			else
				fputc(*p, f);
		}
	}
	fputc('"', f);
}

/* Separator, indentation and key of the next value. */
static void value_prefix(struct jw *w, const char *key)
{
	if (w->depth > 0) {
		if (w->count[w->depth]++)
			fputc(',', w->f);
		indent(w);
		if (!w->in_array[w->depth] && key) {
			put_string(w->f, key);
			fputs(": ", w->f);
		}
	}
}

static void begin(struct jw *w, const char *key, bool array)
{
	value_prefix(w, key);
	fputc(array ? '[' : '{', w->f);
	if (w->depth + 1 < JW_MAX_DEPTH) {
		w->depth++;
		w->in_array[w->depth] = array;
		w->count[w->depth] = 0;
	}
}

void jw_obj(struct jw *w, const char *key) { begin(w, key, false); }
void jw_arr(struct jw *w, const char *key) { begin(w, key, true); }

void jw_end(struct jw *w)
{
	bool array = w->in_array[w->depth];
	bool empty = w->count[w->depth] == 0;

	if (w->depth > 0)
		w->depth--;
	if (!empty)
		indent(w);
	fputc(array ? ']' : '}', w->f);
}

void jw_str(struct jw *w, const char *key, const char *val)
{
	value_prefix(w, key);
	if (val)
		put_string(w->f, val);
	else
		fputs("null", w->f);
}

void jw_int(struct jw *w, const char *key, long long val)
{
	value_prefix(w, key);
	fprintf(w->f, "%lld", val);
}

void jw_uint(struct jw *w, const char *key, unsigned long long val)
{
	value_prefix(w, key);
	fprintf(w->f, "%llu", val);
}

void jw_num(struct jw *w, const char *key, double val, int decimals)
{
	value_prefix(w, key);
	if (val != val || val > 1e300 || val < -1e300)
		fputs("null", w->f);
	else
		fprintf(w->f, "%.*f", decimals < 0 ? 0 : decimals > 17 ? 17 : decimals, val);
}

void jw_bool(struct jw *w, const char *key, bool val)
{
	value_prefix(w, key);
	fputs(val ? "true" : "false", w->f);
}

void jw_null(struct jw *w, const char *key)
{
	value_prefix(w, key);
	fputs("null", w->f);
}

void jw_knob(struct jw *w, const char *key, int val)
{
	if (val == PMS_KNOB_ABSENT)
		jw_null(w, key);
	else
		jw_int(w, key, val);
}

void jw_finish(struct jw *w)
{
	fputc('\n', w->f);
}

const char *errno_name(int err)
{
	static const struct { int e; const char *n; } names[] = {
		{ EPERM, "EPERM" }, { ENOENT, "ENOENT" }, { ESRCH, "ESRCH" }, { EINTR, "EINTR" },
		{ EIO, "EIO" }, { ENXIO, "ENXIO" }, { E2BIG, "E2BIG" }, { EBADF, "EBADF" },
		{ EAGAIN, "EAGAIN" }, { ENOMEM, "ENOMEM" }, { EACCES, "EACCES" }, { EFAULT, "EFAULT" },
		{ EBUSY, "EBUSY" }, { EEXIST, "EEXIST" }, { ENODEV, "ENODEV" }, { EINVAL, "EINVAL" },
		{ EMFILE, "EMFILE" }, { ENOSPC, "ENOSPC" }, { ERANGE, "ERANGE" }, { ENOSYS, "ENOSYS" },
		{ EOPNOTSUPP, "EOPNOTSUPP" }, { E2BIG, "E2BIG" }, { EOVERFLOW, "EOVERFLOW" },
	};
	static char buf[16];

	if (err < 0)
		err = -err;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (names[i].e == err)
			return names[i].n;
	snprintf(buf, sizeof(buf), "E%d", err);
	return buf;
}

bool probes_disabled(bool no_probe_opt)
{
	const char *np = getenv("PMS_NO_PROBE");

	if (no_probe_opt)
		return true;
	if (np && *np && strcmp(np, "0"))
		return true;
	return getenv("PMS_SYSFS_ROOT") != NULL;
}
