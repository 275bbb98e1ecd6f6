// SPDX-License-Identifier: MIT
// Prometheus text exposition format 0.0.4 writer (families, samples, names).
#include <errno.h>
#include <inttypes.h>
#include <locale.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export/prom.h"
#include "util/utf8.h"

static bool is_alpha(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static bool is_digit(unsigned char c)
{
	return c >= '0' && c <= '9';
}

bool pms_prom__valid_metric_name(const char *name)
{
	const unsigned char *p = (const unsigned char *)name;

	if (!p || !(is_alpha(*p) || *p == '_' || *p == ':'))
		return false;
	for (p++; *p; p++)
		if (!(is_alpha(*p) || is_digit(*p) || *p == '_' || *p == ':'))
			return false;
	return true;
}

bool pms_prom__valid_label_name(const char *name)
{
	const unsigned char *p = (const unsigned char *)name;

	if (!p || !(is_alpha(*p) || *p == '_') || (p[0] == '_' && p[1] == '_'))
		return false;
	for (p++; *p; p++)
		if (!(is_alpha(*p) || is_digit(*p) || *p == '_'))
			return false;
	return true;
}

/* s escaped as HELP text (quotes == false) or as a label value (quotes == true). */
static void add_escaped(struct strbuf *out, const char *s, bool quotes)
{
	const unsigned char *p = (const unsigned char *)s, *end = p + strlen(s);
	const unsigned char *run = p;

	while (p < end) {
		const char *esc = NULL;
		size_t n = 1;

		if (*p == '\\')
			esc = "\\\\";
		else if (*p == '\n')
			esc = "\\n";
		else if (*p == '"' && quotes)
			esc = "\\\"";
		else if (*p >= 0x80 && !(n = pms_utf8__len(p, (size_t)(end - p)))) {
			esc = "\xef\xbf\xbd"; /* U+FFFD */
			n = 1;
		}
		if (esc) {
			strbuf_add(out, (const char *)run, (size_t)(p - run));
			strbuf_adds(out, esc);
			run = p + n;
		}
		p += n;
	}
	strbuf_add(out, (const char *)run, (size_t)(p - run));
}

static const char *const types[] = { "counter", "gauge", "summary", "histogram", "untyped" };

/* out already has "# TYPE name " at the start of a line. */
static bool has_type_line(const struct strbuf *out, const char *name)
{
	const char *s = strbuf_str(out), *p = s;
	size_t n = strlen(name);

	/* newlines inside HELP text and label values are escaped, so any match at a line start is a TYPE line */
	while ((p = strstr(p, "# TYPE ")) != NULL) {
		if ((p == s || p[-1] == '\n') && !strncmp(p + 7, name, n) && p[7 + n] == ' ')
			return true;
		p += 7;
	}
	return false;
}

int pms_prom__family(struct strbuf *out, const char *name, const char *type, const char *help)
{
	bool known = false;

	if (!pms_prom__valid_metric_name(name) || !type)
		return -EINVAL;
	for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++)
		known |= !strcmp(type, types[i]);
	if (!known)
		return -EINVAL;
	if (has_type_line(out, name))
		return -EEXIST;
	if (help) {
		strbuf_addf(out, "# HELP %s ", name);
		add_escaped(out, help, false);
		strbuf_addch(out, '\n');
	}
	strbuf_addf(out, "# TYPE %s %s\n", name, type);
	return out->oom ? -ENOMEM : 0;
}

static locale_t c_numeric;
static pthread_once_t c_numeric_once = PTHREAD_ONCE_INIT;

static void c_numeric_init(void)
{
	/* a program that calls setlocale() would otherwise get "0,5", which Prometheus cannot parse */
	c_numeric = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0);
}

int pms_prom__format_value(double value, char *buf, size_t size)
{
	locale_t old = (locale_t)0;
	int n = -1;

	if (isnan(value))
		n = snprintf(buf, size, "NaN");
	else if (isinf(value))
		n = snprintf(buf, size, "%s", value > 0 ? "+Inf" : "-Inf");
	if (n >= 0)
		return (size_t)n < size ? n : -ENOSPC;

	pthread_once(&c_numeric_once, c_numeric_init);
	if (c_numeric)
		old = uselocale(c_numeric);
	if (value == trunc(value) && fabs(value) <= 9007199254740992.0) {
		n = snprintf(buf, size, "%.0f", value);
	} else {
		/*
		 * The shortest that reads back exactly. %g drops trailing zeros and a
		 * double holds 15 decimal digits, so %.15g already is the shortest form
		 * of every value that has one of 15 digits or fewer; %.17g always reads
		 * back.
		 */
		for (int prec = 15; prec <= 17; prec++) {
			n = snprintf(buf, size, "%.*g", prec, value);
			if (n < 0 || (size_t)n >= size || strtod(buf, NULL) == value)
				break;
		}
	}
	if (c_numeric)
		uselocale(old);
	return n >= 0 && (size_t)n < size ? n : -ENOSPC;
}

/* Validates everything first, so a refused sample writes nothing; then "name{...} ". */
static int sample_head(struct strbuf *out, const char *name, const struct pms_prom_label *labels,
		       size_t nr_labels)
{
	bool open = false;

	if (!pms_prom__valid_metric_name(name) || (nr_labels && !labels))
		return -EINVAL;
	for (size_t i = 0; i < nr_labels; i++) {
		if (!pms_prom__valid_label_name(labels[i].name))
			return -EINVAL;
		for (size_t j = 0; j < i; j++)
			if (!strcmp(labels[i].name, labels[j].name))
				return -EINVAL; /* Prometheus fails the scrape on it */
	}
	strbuf_adds(out, name);
	for (size_t i = 0; i < nr_labels; i++) {
		if (!labels[i].value || !labels[i].value[0])
			continue;
		strbuf_addch(out, open ? ',' : '{');
		open = true;
		strbuf_adds(out, labels[i].name);
		strbuf_add(out, "=\"", 2);
		add_escaped(out, labels[i].value, true);
		strbuf_addch(out, '"');
	}
	if (open)
		strbuf_addch(out, '}');
	strbuf_addch(out, ' ');
	return 0;
}

int pms_prom__sample(struct strbuf *out, const char *name, const struct pms_prom_label *labels,
		     size_t nr_labels, double value)
{
	char buf[32];
	int n = pms_prom__format_value(value, buf, sizeof(buf));
	int err;

	if (n < 0)
		return n; /* cannot happen: 32 bytes hold any double this way */
	err = sample_head(out, name, labels, nr_labels);
	if (err)
		return err;
	strbuf_add(out, buf, (size_t)n);
	strbuf_addch(out, '\n');
	return out->oom ? -ENOMEM : 0;
}

int pms_prom__sample_u64(struct strbuf *out, const char *name, const struct pms_prom_label *labels,
			 size_t nr_labels, uint64_t value)
{
	int err = sample_head(out, name, labels, nr_labels);

	if (err)
		return err;
	strbuf_addf(out, "%" PRIu64 "\n", value);
	return out->oom ? -ENOMEM : 0;
}

/* Append c to out[0..*len) keeping room for the NUL; false when full. */
static bool put(char *out, size_t out_size, size_t *len, char c)
{
	if (*len + 1 >= out_size)
		return false;
	out[(*len)++] = c;
	return true;
}

int pms_prom__name_from(const char *in, const char *prefix, const char *suffix, char *out,
			size_t out_size)
{
	size_t plen, slen, len;
	bool sep = false, fits = true;

	if (out && out_size)
		out[0] = '\0';
	if (!in || !*in || !out)
		return -EINVAL;
	prefix = prefix ? prefix : "";
	suffix = suffix ? suffix : "";
	plen = strlen(prefix);
	slen = strlen(suffix);
	if (plen >= out_size)
		return -ENAMETOOLONG;
	memcpy(out, prefix, plen);
	len = plen;
	for (const unsigned char *p = (const unsigned char *)in; *p && fits; p++) {
		unsigned char c = *p;

		if (!(is_alpha(c) || is_digit(c) || c == '_')) {
			sep = true;
			continue;
		}
		/* a separator needs a character before it, and merges with an '_' on either side */
		if (sep && len > plen && out[len - 1] != '_' && c != '_')
			fits = put(out, out_size, &len, '_');
		else if (sep && len > plen && out[len - 1] == '_' && c == '_')
			c = 0;
		sep = false;
		if (!c)
			continue;
		if (len == 0 && is_digit(c))
			fits = fits && put(out, out_size, &len, '_');
		fits = fits && put(out, out_size, &len, (char)(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c));
	}
	if (fits && len == plen) {
		out[0] = '\0';
		return -EINVAL;
	}
	if (!fits || len + slen >= out_size) {
		out[0] = '\0';
		return -ENAMETOOLONG;
	}
	memcpy(out + len, suffix, slen + 1);
	if (!pms_prom__valid_metric_name(out)) {
		out[0] = '\0';
		return -EINVAL;
	}
	return 0;
}
