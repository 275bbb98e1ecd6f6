// SPDX-License-Identifier: MIT
// stat rows as perf-style text, CSV and JSON.
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "perf_event/stat_fmt.h"
#include "util/json.h"

#define VALUE_WIDTH 18
#define UNIT_WIDTH 4
#define NAME_WIDTH 32
#define NAME_WIDTH_UNCOUNTED 25
#define METRIC_LEN 35

const char *pms_stat_row__state_str(enum pms_stat_row_state s)
{
	switch (s) {
	case PMS_ROW_NOT_COUNTED:
		return "<not counted>";
	case PMS_ROW_NOT_SUPPORTED:
		return "<not supported>";
	default:
		return "counted";
	}
}

/* perf shows fractions only for events with a fractional scale (msec clocks). */
static bool fractional(double scale)
{
	return floor(scale) != scale;
}

static void trim_trailing(struct strbuf *out, size_t from)
{
	while (out->len > from && out->buf && out->buf[out->len - 1] == ' ')
		out->buf[--out->len] = '\0';
}

/* The value as perf's "%'18.2f": digits of the integer part grouped by three with sep. */
static void add_value(struct strbuf *out, double v, bool frac, const char *sep)
{
	char num[64], grouped[192];
	size_t n, lead, k = 0;
	const char *dot;

	snprintf(num, sizeof(num), frac ? "%.2f" : "%.0f", v);
	if (!sep || !*sep) {
		strbuf_addf(out, "%*s", VALUE_WIDTH, num);
		return;
	}
	dot = strchr(num, '.');
	n = dot ? (size_t)(dot - num) : strlen(num);
	lead = num[0] == '-' ? 1 : 0;
	for (size_t i = 0; i < n && k + strlen(sep) + 2 < sizeof(grouped); i++) {
		if (i > lead && (n - i) % 3 == 0)
			for (const char *p = sep; *p; p++)
				grouped[k++] = *p;
		grouped[k++] = num[i];
	}
	grouped[k] = '\0';
	strbuf_addf(out, "%*s%s", VALUE_WIDTH - (dot ? (int)strlen(dot) : 0), grouped, dot ? dot : "");
}

void pms_stat_row__human(const struct pms_stat_row *r, struct strbuf *out)
{
	size_t start = out->len;
	const char *unit = r->unit ? r->unit : "";

	if (r->state == PMS_ROW_COUNTED) {
		add_value(out, r->value * r->scale, fractional(r->scale), r->thousands_sep);
		strbuf_addf(out, " %-*s %-*s", UNIT_WIDTH, unit, NAME_WIDTH, r->name);
		if (r->cgroup)
			strbuf_addf(out, " %s", r->cgroup);
		if (r->metric.valid) {
			char num[64];
			int n;

			snprintf(num, sizeof(num), r->metric.fmt, r->metric.value);
			n = 3 + (int)strlen(num);
			strbuf_addf(out, " # %s %-*s", num, METRIC_LEN - n - 1 > 0 ? METRIC_LEN - n - 1 : 0,
				    r->metric.unit);
		} else {
			strbuf_addf(out, "%-*s", METRIC_LEN, "");
		}
	} else {
		strbuf_addf(out, "%*s %-*s %-*s", VALUE_WIDTH, pms_stat_row__state_str(r->state), UNIT_WIDTH,
			    unit, NAME_WIDTH_UNCOUNTED, r->name);
		if (r->cgroup)
			strbuf_addf(out, " %s", r->cgroup);
		strbuf_addf(out, "%-*s", METRIC_LEN, "");
	}
	if (r->has_noise && r->noise_pct != 0)
		strbuf_addf(out, "  ( +-%6.2f%% )", r->noise_pct);
	if (r->state != PMS_ROW_NOT_SUPPORTED && r->run != r->ena)
		strbuf_addf(out, "  (%.2f%%)", r->ena ? 100.0 * (double)r->run / (double)r->ena : 0.0);
	trim_trailing(out, start);
}

void pms_csv__field(struct strbuf *out, const char *s, const char *sep)
{
	if (!s)
		s = "";
	if ((sep && *sep && strstr(s, sep)) || strpbrk(s, "\"\n")) {
		strbuf_addch(out, '"');
		for (; *s; s++) {
			if (*s == '"')
				strbuf_addch(out, '"');
			strbuf_addch(out, *s);
		}
		strbuf_addch(out, '"');
	} else {
		strbuf_adds(out, s);
	}
}

/* perf's CSV metric: the formatted number without padding or '%'. */
static void metric_number(const struct pms_metric *m, char *buf, size_t size)
{
	char tmp[64];
	const char *p = tmp;
	size_t n = 0;

	snprintf(tmp, sizeof(tmp), m->fmt, m->value);
	while (*p == ' ')
		p++;
	while (n + 1 < size && (isdigit((unsigned char)p[n]) || p[n] == '.' || p[n] == '-'))
		n++;
	memcpy(buf, p, n);
	buf[n] = '\0';
}

void pms_stat_row__csv(const struct pms_stat_row *r, const char *sep, struct strbuf *out)
{
	char num[64];

	if (r->state == PMS_ROW_COUNTED)
		snprintf(num, sizeof(num), fractional(r->scale) ? "%.2f" : "%.0f", r->value * r->scale);
	else
		snprintf(num, sizeof(num), "%s", pms_stat_row__state_str(r->state));
	pms_csv__field(out, num, sep);
	strbuf_adds(out, sep);
	pms_csv__field(out, r->unit, sep);
	strbuf_adds(out, sep);
	pms_csv__field(out, r->name, sep);
	if (r->cgroup) {
		strbuf_adds(out, sep);
		pms_csv__field(out, r->cgroup, sep);
	}
	if (r->has_noise)
		strbuf_addf(out, "%s%.2f%%", sep, r->noise_pct);
	strbuf_addf(out, "%s%llu%s%.2f", sep, (unsigned long long)r->run, sep,
		    r->ena && r->run != r->ena ? 100.0 * (double)r->run / (double)r->ena : 100.0);
	strbuf_adds(out, sep);
	if (r->state == PMS_ROW_COUNTED && r->metric.valid) {
		metric_number(&r->metric, num, sizeof(num));
		strbuf_adds(out, num);
		strbuf_adds(out, sep);
		pms_csv__field(out, r->metric.unit, sep);
	} else {
		strbuf_adds(out, sep);
	}
}

void pms_stat_row__json(const struct pms_stat_row *r, struct pms_json *j)
{
	bool counted = r->state == PMS_ROW_COUNTED;

	pms_json__str(j, "event", r->name);
	if (r->cgroup)
		pms_json__str(j, "cgroup", r->cgroup);
	pms_json__str(j, "status", counted ? "counted" : r->state == PMS_ROW_NOT_COUNTED ? "not counted" : "not supported");
	if (counted) {
		pms_json__double(j, "counter_value", r->value * r->scale);
		pms_json__double(j, "raw_count", r->value);
	} else {
		pms_json__null(j, "counter_value");
		pms_json__null(j, "raw_count");
	}
	pms_json__str(j, "unit", r->unit ? r->unit : "");
	pms_json__uint(j, "time_enabled_ns", r->ena);
	pms_json__uint(j, "time_running_ns", r->run);
	if (r->state == PMS_ROW_NOT_SUPPORTED)
		pms_json__null(j, "percent_running");
	else
		pms_json__double(j, "percent_running",
				 r->ena ? floor(10000.0 * (double)r->run / (double)r->ena + 0.5) / 100.0 : 100.0);
	if (r->has_noise)
		pms_json__double(j, "stddev_pct", floor(r->noise_pct * 100.0 + 0.5) / 100.0);
	if (counted && r->metric.valid) {
		pms_json__obj(j, "metric");
		pms_json__double(j, "value", r->metric.value);
		pms_json__str(j, "unit", r->metric.unit);
		pms_json__end(j);
	} else {
		pms_json__null(j, "metric");
	}
	if (!counted && r->reason && *r->reason)
		pms_json__str(j, "reason", r->reason);
}

int pms_stat__elapsed_precision(double sd)
{
	if (sd <= 0)
		return 9;
	if (sd > 1)
		return 2;
	return (int)lround(ceil(-log10(sd))) + 2;
}
