// SPDX-License-Identifier: MIT
// stat output: perf's table, CSV and JSON for final counts, -r statistics and -I intervals.
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "cmd.h"
#include "perf_event/stat_fmt.h"
#include "stat_print.h"
#include "output.h"
#include "util/json.h"

static bool is_human(const struct stat_out *o)
{
	return !o->cfg->json && !o->cfg->csv_sep;
}

/* Warnings in JSON go into the document when the document itself goes to stderr. */
static bool warnings_to_stderr(const struct stat_out *o)
{
	return !(o->cfg->json && o->f == stderr);
}

double stat_tool_value(const struct stat_run_info *ri, enum pms_tool_event t)
{
	switch (t) {
	case PMS_TOOL_DURATION_TIME:
		return ri->elapsed_ns;
	case PMS_TOOL_USER_TIME:
		return ri->have_rusage ? ri->user_ns : -1;
	case PMS_TOOL_SYSTEM_TIME:
		return ri->have_rusage ? ri->sys_ns : -1;
	default:
		return -1;
	}
}

static void set_tool_values(struct stat_out *o, const struct stat_run_info *ri)
{
	for (int t = 0; t < 4; t++)
		o->tool_ns[t] = stat_tool_value(ri, (enum pms_tool_event)t);
}

void stat_warn(struct stat_out *o, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	o->warnings = xrealloc(o->warnings, (o->nr_warnings + 1) * sizeof(*o->warnings));
	o->warnings[o->nr_warnings++] = xstrdup(msg);
	if (warnings_to_stderr(o))
		warning("%s", msg);
}

size_t stat_nr_units(const struct stat_out *o, const struct pms_counters *cs)
{
	switch (o->cfg->aggr) {
	case AGGR_CPU:
		return cs->nr_cpus;
	case AGGR_THREAD:
		return cs->nr_threads;
	case AGGR_TOPO:
		return o->amap->nr_units;
	default:
		return 1;
	}
}

struct pms_count stat_unit_sum(const struct stat_out *o, const struct pms_counters *cs,
			       const struct pms_counter *c, size_t u, bool delta)
{
	struct pms_count sum = { 0, 0, 0 };

	switch (o->cfg->aggr) {
	case AGGR_CPU:
		return pms_counter__sum(c, cs, (int)u, -1, delta);
	case AGGR_THREAD:
		return pms_counter__sum(c, cs, -1, (int)u, delta);
	case AGGR_TOPO:
		for (size_t ci = 0; ci < cs->nr_cpus; ci++) {
			if (o->amap->unit_of[ci] == u) {
				struct pms_count one = pms_counter__sum(c, cs, (int)ci, -1, delta);

				pms_count__add(&sum, &one);
			}
		}
		return sum;
	default:
		return pms_counter__sum(c, cs, -1, -1, delta);
	}
}

/* -G: do counters i and j count the same cgroup (metrics pair only those, as perf)? */
static bool same_cgroup(const struct stat_out *o, size_t i, int j)
{
	const char *a, *b;

	if (!o->cgroup_of || j < 0)
		return true;
	a = o->cgroup_of[i];
	b = o->cgroup_of[j];
	return a == b || (a && b && !strcmp(a, b));
}

/* The metric inputs of unit u; cg_of >= 0: only counters of counter cg_of's cgroup. */
static void make_ctx_cg(const struct stat_out *o, const struct pms_counters *cs, size_t u, bool delta,
			double elapsed_ns, int cg_of, struct pms_metric_ctx *m)
{
	memset(m, 0, sizeof(*m));
	m->elapsed_ns = elapsed_ns;
	for (size_t i = 0; i < cs->nr; i++) {
		const struct pms_counter *c = &cs->c[i];
		struct pms_count sum;
		double v;

		if (c->state != PMS_COUNTER_OK || c->tool != PMS_TOOL_NONE || !same_cgroup(o, i, cg_of))
			continue;
		sum = stat_unit_sum(o, cs, c, u, delta);
		if (pms_count__scaled(&sum, o->cfg->no_scale, &v))
			pms_metric_ctx__add(m, pms_attr__metric_kind(&c->attr), pms_attr__metric_context(&c->attr), v);
	}
}

static void make_ctx(const struct stat_out *o, const struct pms_counters *cs, size_t u, bool delta,
		     double elapsed_ns, struct pms_metric_ctx *m)
{
	make_ctx_cg(o, cs, u, delta, elapsed_ns, -1, m);
}

/* A row's name and unit; false (row finished) when the counter never opened or its group was refused. */
static bool row_begin(const struct pms_counter *c, struct pms_stat_row *r)
{
	memset(r, 0, sizeof(*r));
	r->name = c->name;
	r->unit = c->unit;
	r->scale = c->scale;
	if (c->state == PMS_COUNTER_OK)
		return true;
	r->state = c->state == PMS_COUNTER_GROUP_REFUSED ? PMS_ROW_NOT_COUNTED : PMS_ROW_NOT_SUPPORTED;
	r->reason = c->reason;
	return false;
}

static void make_row(const struct stat_out *o, const struct pms_counters *cs, size_t i, size_t u, bool delta,
		     const struct pms_metric_ctx *m, struct pms_stat_row *r)
{
	const struct pms_counter *c = &cs->c[i];
	struct pms_count sum = stat_unit_sum(o, cs, c, u, delta);

	if (!row_begin(c, r))
		return;
	if (c->tool != PMS_TOOL_NONE) {
		double v = (unsigned)c->tool < 4 ? o->tool_ns[c->tool] : -1;

		if (v < 0) {
			r->state = PMS_ROW_NOT_COUNTED;
			return;
		}
		r->state = PMS_ROW_COUNTED;
		r->value = v;
		r->ena = r->run = (uint64_t)v; /* perf shows the value as its run time */
		return;
	}
	r->ena = sum.ena;
	r->run = sum.run;
	if (!pms_count__scaled(&sum, o->cfg->no_scale, &r->value)) {
		r->state = PMS_ROW_NOT_COUNTED;
		return;
	}
	r->state = PMS_ROW_COUNTED;
	pms_metric__compute(m, pms_attr__metric_kind(&c->attr), pms_attr__metric_context(&c->attr), r->value,
				    &r->metric);
}

/* -r: a row from the statistics of every run (e: this event in this unit). */
static void make_rrow(const struct pms_counters *cs, size_t i, const struct stat_rstat *e,
		      const struct pms_metric_ctx *m, struct pms_stat_row *r)
{
	const struct pms_counter *c = &cs->c[i];

	if (!row_begin(c, r))
		return;
	r->ena = e->sum.ena;
	r->run = e->sum.run;
	r->has_noise = true;
	if (!e->nr_counted) {
		r->state = PMS_ROW_NOT_COUNTED;
		return;
	}
	r->state = PMS_ROW_COUNTED;
	r->value = e->st.mean;
	r->noise_pct = pms_stats__rel_pct(&e->st);
	if (c->tool == PMS_TOOL_NONE)
		pms_metric__compute(m, pms_attr__metric_kind(&c->attr), pms_attr__metric_context(&c->attr), r->value,
				    &r->metric);
}

static void rctx_cg(const struct stat_out *o, const struct pms_counters *cs, const struct stat_rstat *rs,
		    size_t u, size_t nu, double elapsed_ns, int cg_of, struct pms_metric_ctx *m)
{
	memset(m, 0, sizeof(*m));
	m->elapsed_ns = elapsed_ns;
	for (size_t i = 0; i < cs->nr; i++) {
		const struct stat_rstat *e = &rs[i * nu + u];

		if (cs->c[i].state == PMS_COUNTER_OK && e->nr_counted && cs->c[i].tool == PMS_TOOL_NONE &&
		    same_cgroup(o, i, cg_of))
			pms_metric_ctx__add(m, pms_attr__metric_kind(&cs->c[i].attr),
					    pms_attr__metric_context(&cs->c[i].attr), e->st.mean);
	}
}

static void rctx(const struct stat_out *o, const struct pms_counters *cs, const struct stat_rstat *rs, size_t u,
		 size_t nu, double elapsed_ns, struct pms_metric_ctx *m)
{
	rctx_cg(o, cs, rs, u, nu, elapsed_ns, -1, m);
}



static const char *comm_of(const struct stat_out *o, size_t t)
{
	return o->comms && o->comms[t] ? o->comms[t] : "?";
}

/* The aggregation prefix of a row: "CPU0", "comm-tid", perf's "S0-D0-C0   2" or nothing. */
static void add_prefix(const struct stat_out *o, const struct pms_counters *cs, int cpu_idx, int thr_idx,
		       struct strbuf *sb)
{
	const char *sep = o->cfg->csv_sep;

	if (o->cfg->aggr == AGGR_TOPO && cpu_idx >= 0) {
		char name[64];
		size_t u = (size_t)cpu_idx, n = o->amap->nr_cpus[u];

		pms_aggr_map__name(o->amap, u, name, sizeof(name));
		if (sep) {
			strbuf_addf(sb, "%s%s%zu%s", name, sep, n, sep);
		} else {
			/* perf pads the last id to 5 (socket, node) or 8 (die, core) columns, then the CPUs to 4 */
			size_t id_w = o->amap->mode == PMS_AGGR_SOCKET || o->amap->mode == PMS_AGGR_NODE ? 6 : 0;

			if (!id_w) {
				const char *last = strrchr(name, '-');

				id_w = (size_t)(last - name) + 2 + 8;
			}
			strbuf_addf(sb, "%-*s %4zu ", (int)id_w, name, n);
		}
	} else if (o->cfg->aggr == AGGR_CPU && cpu_idx >= 0) {
		if (sep)
			strbuf_addf(sb, "CPU%d%s", cs->cpus[cpu_idx], sep);
		else
			strbuf_addf(sb, "CPU%-7d ", cs->cpus[cpu_idx]);
	} else if (o->cfg->aggr == AGGR_THREAD && thr_idx >= 0) {
		if (sep) {
			char buf[64];

			snprintf(buf, sizeof(buf), "%s-%d", comm_of(o, (size_t)thr_idx), (int)cs->threads[thr_idx]);
			pms_csv__field(sb, buf, sep);
			strbuf_adds(sb, sep);
		} else {
			strbuf_addf(sb, "%16s-%-8d ", comm_of(o, (size_t)thr_idx), (int)cs->threads[thr_idx]);
		}
	}
}

/* One row as a JSON object: the row's members, then its CPU or thread when not aggregated. */
static void json_row(const struct stat_out *o, const struct pms_counters *cs, int cpu_idx, int thr_idx,
		     const struct pms_stat_row *r, struct pms_json *j)
{
	pms_json__obj(j, NULL);
	pms_stat_row__json(r, j);
	if (o->cfg->aggr == AGGR_TOPO && cpu_idx >= 0) {
		char name[64];

		pms_aggr_map__name(o->amap, (size_t)cpu_idx, name, sizeof(name));
		pms_json__str(j, pms_aggr_mode__word(o->amap->mode), name);
		pms_json__int(j, "aggregate_number", (int64_t)o->amap->nr_cpus[cpu_idx]);
	} else if (o->cfg->aggr == AGGR_CPU && cpu_idx >= 0) {
		pms_json__int(j, "cpu", cs->cpus[cpu_idx]);
	} else if (o->cfg->aggr == AGGR_THREAD && thr_idx >= 0) {
		pms_json__int(j, "tid", (int)cs->threads[thr_idx]);
		pms_json__str(j, "comm", comm_of(o, (size_t)thr_idx));
	}
	pms_json__end(j);
}

static void json_warnings(const struct stat_out *o, struct pms_json *j)
{
	pms_json__arr(j, "warnings");
	for (size_t i = 0; i < o->nr_warnings; i++)
		pms_json__str(j, NULL, o->warnings[i]);
	pms_json__end(j);
}

/* --per-thread: busiest thread first, threads that never ran last (perf's order). */
static void sort_threads(const struct stat_out *o, const struct pms_counters *cs, size_t i, bool delta,
			 const struct stat_rstat *rs, size_t *order, size_t n)
{
	double *key = xcalloc(n, sizeof(*key));

	for (size_t t = 0; t < n; t++) {
		struct pms_count sum;
		double v;

		if (rs) {
			key[t] = rs[i * n + t].nr_counted ? rs[i * n + t].st.mean : -1;
			continue;
		}
		sum = stat_unit_sum(o, cs, &cs->c[i], t, delta);
		key[t] = pms_count__scaled(&sum, o->cfg->no_scale, &v) ? v : -1;
	}
	for (size_t a = 1; a < n; a++) { /* insertion sort: stable, n is small */
		size_t x = order[a], b = a;

		while (b > 0 && key[order[b - 1]] < key[x]) {
			order[b] = order[b - 1];
			b--;
		}
		order[b] = x;
	}
	free(key);
}

/* -a --per-thread: a thread that counted nothing gets no line, as perf. */
static bool thread_idle(const struct stat_out *o, const struct pms_counters *cs, size_t u, bool delta)
{
	if (o->cfg->target != ST_SYSTEM)
		return false;
	for (size_t i = 0; i < cs->nr; i++) {
		struct pms_count sum = stat_unit_sum(o, cs, &cs->c[i], u, delta);

		if (cs->c[i].state == PMS_COUNTER_OK && sum.run && sum.val)
			return false;
	}
	return true;
}

/* One row: event i in aggregation unit u, as a line or a JSON object. */
static void emit_row(struct stat_out *o, const struct pms_counters *cs, size_t i, size_t u, bool delta,
		     const struct pms_metric_ctx *ctx, const char *ts, struct pms_json *json,
		     const struct stat_rstat *rs, size_t nu, struct strbuf *line)
{
	int ci = o->cfg->aggr == AGGR_CPU || o->cfg->aggr == AGGR_TOPO ? (int)u : -1;
	int ti = o->cfg->aggr == AGGR_THREAD ? (int)u : -1;
	struct pms_stat_row r;
	struct pms_metric_ctx cg_ctx;

	if (o->cgroup_of) {
		/* -G: the metrics of a row come from its own cgroup's counters */
		if (rs)
			rctx_cg(o, cs, rs, u, nu, ctx->elapsed_ns, (int)i, &cg_ctx);
		else
			make_ctx_cg(o, cs, u, delta, ctx->elapsed_ns, (int)i, &cg_ctx);
		ctx = &cg_ctx;
	}
	if (rs)
		make_rrow(cs, i, &rs[i * nu + u], ctx, &r);
	else
		make_row(o, cs, i, u, delta, ctx, &r);
	r.cgroup = o->cgroup_of ? o->cgroup_of[i] : NULL;
	if (ti >= 0 && o->cfg->target == ST_SYSTEM &&
	    (r.state == PMS_ROW_NOT_COUNTED || (r.state == PMS_ROW_COUNTED && r.value == 0)))
		return; /* -a --per-thread: only the threads that did something, as perf */
	if (o->cfg->json) {
		json_row(o, cs, ci, ti, &r, json);
		return;
	}
	r.thousands_sep = o->thousands_sep;
	strbuf_reset(line);
	if (ts)
		strbuf_adds(line, ts);
	add_prefix(o, cs, ci, ti, line);
	if (o->cfg->csv_sep)
		pms_stat_row__csv(&r, o->cfg->csv_sep, line);
	else
		pms_stat_row__human(&r, line);
	fprintf(o->f, "%s\n", strbuf_str(line));
}

/* The privilege context of a metric: that of the first counter of one of its inputs (0: plain events). */
static int metric_pctx(const struct pms_counters *cs, const struct pms_metric_def *d)
{
	for (size_t i = 0; i < cs->nr; i++) {
		enum pms_metric_kind k = pms_attr__metric_kind(&cs->c[i].attr);

		if (cs->c[i].tool == PMS_TOOL_NONE && (k == d->num || k == d->den))
			return pms_attr__metric_context(&cs->c[i].attr);
	}
	return 0;
}

/* Why input kind k of a metric has no value: the state of its counter, never a silent 0. */
static void metric_why(const struct stat_out *o, const struct pms_counters *cs, size_t u, bool delta,
		       enum pms_metric_kind k, int pctx, char *buf, size_t size)
{
	const char *name = pms_metric_kind__name(k);

	for (size_t i = 0; i < cs->nr; i++) {
		const struct pms_counter *c = &cs->c[i];
		struct pms_count sum;
		double v;

		if (c->tool != PMS_TOOL_NONE || pms_attr__metric_kind(&c->attr) != k ||
		    pms_attr__metric_context(&c->attr) != pctx)
			continue;
		if (c->state != PMS_COUNTER_OK) {
			snprintf(buf, size, "%s: %s", c->name, c->reason[0] ? c->reason : "not supported");
			return;
		}
		sum = stat_unit_sum(o, cs, c, u, delta);
		if (!pms_count__scaled(&sum, o->cfg->no_scale, &v))
			snprintf(buf, size, "%s is <not counted>: it never ran", c->name);
		else
			snprintf(buf, size, "%s counted 0", c->name);
		return;
	}
	snprintf(buf, size, k == PMS_MK_OTHER ? "no elapsed time" : "%s is not among the events", name);
}

/* One metric of one unit: 0 with *v, or -ENOENT with the reason in why. */
static int metric_value(const struct stat_out *o, const struct pms_counters *cs, size_t u, bool delta,
			const struct pms_metric_ctx *ctx, const struct pms_metric_def *d, double *v, char *why,
			size_t size)
{
	enum pms_metric_kind missing = PMS_MK_OTHER;
	int pctx = metric_pctx(cs, d);

	if (pms_metric_def__compute(d, ctx, pctx, v, &missing) == 0)
		return 0;
	metric_why(o, cs, u, delta, missing, pctx, why, size);
	return -ENOENT;
}

/* The metric-only header: perf prints each metric's unit as its column title. */
static int metric_width(const struct pms_metric_def *d)
{
	int n = (int)strlen(d->unit);

	return n > 20 ? n : 20;
}

/*
 * -M: the metric lines of unit u after its event rows ("# value name", as
 * perf prints a metric), or with --metric-only one line of all the
 * metrics of the unit. A metric whose inputs did not count says why.
 */
static void emit_metrics(struct stat_out *o, const struct pms_counters *cs, size_t u, bool delta,
			 const struct pms_metric_ctx *ctx, const char *ts, struct pms_json *json, struct strbuf *line)
{
	const char *sep = o->cfg->csv_sep;
	int ci = o->cfg->aggr == AGGR_CPU || o->cfg->aggr == AGGR_TOPO ? (int)u : -1;
	int ti = o->cfg->aggr == AGGR_THREAD ? (int)u : -1;

	if (o->metric_only && !json) {
		strbuf_reset(line);
		if (ts)
			strbuf_adds(line, ts);
		add_prefix(o, cs, ci, ti, line);
	}
	for (size_t m = 0; m < o->nr_metrics; m++) {
		const struct pms_metric_def *d = o->metrics[m];
		char why[256], num[64];
		double v = 0;
		bool ok = metric_value(o, cs, u, delta, ctx, d, &v, why, sizeof(why)) == 0;

		if (ok)
			snprintf(num, sizeof(num), d->fmt, v);
		if (json) {
			pms_json__obj(json, NULL);
			pms_json__str(json, "metric", d->name);
			pms_json__str(json, "unit", d->unit);
			if (ok)
				pms_json__double(json, "value", v);
			else
				pms_json__null(json, "value");
			if (!ok)
				pms_json__str(json, "reason", why);
			if (o->cfg->aggr == AGGR_TOPO) {
				char name[64];

				pms_aggr_map__name(o->amap, u, name, sizeof(name));
				pms_json__str(json, pms_aggr_mode__word(o->amap->mode), name);
			} else if (ci >= 0) {
				pms_json__int(json, "cpu", cs->cpus[ci]);
			} else if (ti >= 0) {
				pms_json__int(json, "tid", (int)cs->threads[ti]);
			}
			pms_json__end(json);
			continue;
		}
		if (!ok && u == 0 && is_human(o) && o->metric_only && !delta)
			note("metric %s: no value: %s", d->name, why);
		if (o->metric_only) {
			if (sep) {
				char *p = num;

				while (*p == ' ')
					p++;
				strbuf_addf(line, "%s%s", ok ? p : "", sep);
			} else {
				strbuf_addf(line, "%*s ", metric_width(d), ok ? num : "<not counted>");
			}
			continue;
		}
		strbuf_reset(line);
		if (ts)
			strbuf_adds(line, ts);
		add_prefix(o, cs, ci, ti, line);
		if (sep) {
			char *p = num;

			while (*p == ' ')
				p++;
			strbuf_addf(line, "%s%s%s", ok ? "" : "<not counted>", sep, sep);
			pms_csv__field(line, d->name, sep);
			strbuf_addf(line, "%s%s%s%s%s", sep, sep, sep, ok ? p : "", sep);
			pms_csv__field(line, ok ? d->unit : why, sep); /* not counted: why, in the unit's column */
		} else if (ok) {
			strbuf_addf(line, "%*s # %s %s", 18 + 1 + 4 + 1 + 32, "", num, d->name);
		} else {
			strbuf_addf(line, "%*s # %s %s: %s", 18 + 1 + 4 + 1 + 32, "", "<not counted>", d->name, why);
		}
		fprintf(o->f, "%s\n", strbuf_str(line));
	}
	if (o->metric_only && !json) {
		while (line->len && line->buf[line->len - 1] == ' ')
			line->buf[--line->len] = '\0';
		fprintf(o->f, "%s\n", strbuf_str(line));
	}
}

/* --metric-only: the column titles (the metrics' units, as perf), after the prefix columns' blanks. */
static void metric_header(struct stat_out *o, const struct pms_counters *cs, const char *ts_title)
{
	struct strbuf sb = STRBUF_INIT;
	const char *sep = o->cfg->csv_sep;

	if (ts_title)
		strbuf_adds(&sb, ts_title);
	if (o->cfg->aggr != AGGR_GLOBAL) {
		struct strbuf pre = STRBUF_INIT;

		add_prefix(o, cs, 0, 0, &pre);
		if (sep)
			for (const char *p = strbuf_str(&pre); *p; p++)
				if (!strncmp(p, sep, strlen(sep)))
					strbuf_adds(&sb, sep);
		if (!sep)
			strbuf_addf(&sb, "%*s", (int)pre.len, "");
		strbuf_release(&pre);
	}
	for (size_t m = 0; m < o->nr_metrics; m++) {
		if (sep) {
			pms_csv__field(&sb, o->metrics[m]->unit, sep);
			strbuf_adds(&sb, sep);
		} else {
			strbuf_addf(&sb, "%*s ", metric_width(o->metrics[m]), o->metrics[m]->unit);
		}
	}
	while (sb.len && sb.buf[sb.len - 1] == ' ')
		sb.buf[--sb.len] = '\0';
	fprintf(o->f, "%s\n", strbuf_str(&sb));
	strbuf_release(&sb);
}

/*
 * Every row of one reading in output order: per event, then per CPU or
 * thread when not aggregated; per topology unit, then per event with
 * --per-core/socket/die/node (perf's orders). `ts` (may be NULL) prefixes
 * human/CSV lines; in JSON each row is an object in the array open in `json`.
 */
static void emit_rows(struct stat_out *o, const struct pms_counters *cs, bool delta, double elapsed_ns,
		      const char *ts, struct pms_json *json, const struct stat_rstat *rs)
{
	size_t nu = stat_nr_units(o, cs);
	struct pms_metric_ctx *ctx = xcalloc(nu, sizeof(*ctx));
	struct strbuf line = STRBUF_INIT;

	for (size_t u = 0; u < nu; u++) {
		if (rs)
			rctx(o, cs, rs, u, nu, elapsed_ns, &ctx[u]);
		else
			make_ctx(o, cs, u, delta, elapsed_ns, &ctx[u]);
	}
	if (o->metric_only && !json) {
		for (size_t u = 0; u < nu; u++)
			if (json || o->cfg->aggr != AGGR_THREAD || !thread_idle(o, cs, u, delta))
				emit_metrics(o, cs, u, delta, &ctx[u], ts, json, &line);
		goto out;
	}
	if (o->cfg->aggr == AGGR_TOPO) {
		for (size_t u = 0; u < nu; u++)
			for (size_t i = 0; i < cs->nr; i++)
				emit_row(o, cs, i, u, delta, &ctx[u], ts, json, rs, nu, &line);
	}
	for (size_t i = 0; i < cs->nr && o->cfg->aggr != AGGR_TOPO; i++) {
		size_t *order = xcalloc(nu, sizeof(*order));

		for (size_t u = 0; u < nu; u++)
			order[u] = u;
		if (o->cfg->aggr == AGGR_THREAD)
			sort_threads(o, cs, i, delta, rs, order, nu);
		for (size_t k = 0; k < nu; k++)
			emit_row(o, cs, i, order[k], delta, &ctx[order[k]], ts, json, rs, nu, &line);
		free(order);
	}
	/* -M in JSON: the metrics are the document's "metrics" array (emit_json_metrics) */
	for (size_t u = 0; u < nu && o->nr_metrics && !json; u++)
		if (o->cfg->aggr != AGGR_THREAD || !thread_idle(o, cs, u, delta))
			emit_metrics(o, cs, u, delta, &ctx[u], ts, NULL, &line);
out:
	strbuf_release(&line);
	free(ctx);
}

/* -M in JSON: every unit's metrics into the array open in json. */
static void emit_json_metrics(struct stat_out *o, const struct pms_counters *cs, bool delta, double elapsed_ns,
			      struct pms_json *json, const struct stat_rstat *rs)
{
	size_t nu = stat_nr_units(o, cs);
	struct strbuf line = STRBUF_INIT;

	for (size_t u = 0; u < nu; u++) {
		struct pms_metric_ctx ctx;

		if (rs)
			rctx(o, cs, rs, u, nu, elapsed_ns, &ctx);
		else
			make_ctx(o, cs, u, delta, elapsed_ns, &ctx);
		emit_metrics(o, cs, u, delta, &ctx, NULL, json, &line);
	}
	strbuf_release(&line);
}

static void describe_target(const struct stat_cfg *c, struct strbuf *sb)
{
	switch (c->target) {
	case ST_PID:
		strbuf_addf(sb, "process id '%s'", c->target_str);
		break;
	case ST_TID:
		strbuf_addf(sb, "thread id '%s'", c->target_str);
		break;
	case ST_SYSTEM:
		strbuf_adds(sb, "'system wide'");
		break;
	case ST_CPUS:
		strbuf_addf(sb, "'CPU(s) %s'", c->target_str);
		break;
	default:
		strbuf_addch(sb, '\'');
		for (int i = 0; i < c->argc; i++)
			strbuf_addf(sb, "%s%s", i ? " " : "", c->argv[i]);
		strbuf_addch(sb, '\'');
		break;
	}
}

static const char *target_name(enum stat_target t)
{
	switch (t) {
	case ST_PID:
		return "pid";
	case ST_TID:
		return "tid";
	case ST_SYSTEM:
		return "system-wide";
	case ST_CPUS:
		return "cpus";
	default:
		return "command";
	}
}

static const char *aggr_name(enum stat_aggr a)
{
	return a == AGGR_CPU ? "cpu" : a == AGGR_THREAD ? "thread" : "global";
}

static void print_json_doc(struct stat_out *o, const struct pms_counters *cs, const struct stat_run_info *ri,
			   const struct stat_rstat *rs, const struct pms_stats *wall)
{
	const struct stat_cfg *c = o->cfg;
	struct strbuf sb = STRBUF_INIT, cmd = STRBUF_INIT;
	struct pms_json j;

	pms_json__init(&j, &sb, false);
	pms_json__obj(&j, NULL);
	pms_json__str(&j, "schema", "pmuscope-stat/1");
	if (c->argv) {
		for (int i = 0; i < c->argc; i++)
			strbuf_addf(&cmd, "%s%s", i ? " " : "", c->argv[i]);
		pms_json__str(&j, "command", strbuf_str(&cmd));
		pms_json__arr(&j, "argv");
		for (int i = 0; i < c->argc; i++)
			pms_json__str(&j, NULL, c->argv[i]);
		pms_json__end(&j);
	} else {
		pms_json__null(&j, "command");
		pms_json__null(&j, "argv");
	}
	pms_json__str(&j, "target", target_name(c->target));
	pms_json__str(&j, "target_list", c->target == ST_COMMAND || c->target == ST_SYSTEM ? NULL : c->target_str);
	pms_json__str(&j, "aggregation", c->aggr == AGGR_TOPO ? pms_aggr_mode__word(o->amap->mode) : aggr_name(c->aggr));
	pms_json__int(&j, "runs", c->runs);
	pms_json__bool(&j, "scaled", !c->no_scale);
	pms_json__arr(&j, "events");
	emit_rows(o, cs, false, rs ? wall->mean : ri->elapsed_ns, NULL, &j, rs);
	pms_json__end(&j);
	if (o->nr_metrics) {
		pms_json__arr(&j, "metrics");
		emit_json_metrics(o, cs, false, rs ? wall->mean : ri->elapsed_ns, &j, rs);
		pms_json__end(&j);
	}
	pms_json__double(&j, "elapsed_ns", rs ? floor(wall->mean + 0.5) : ri->elapsed_ns);
	if (rs)
		pms_json__double(&j, "elapsed_stddev_pct", pms_stats__rel_pct(wall));
	if (ri->have_rusage && !rs) {
		pms_json__double(&j, "user_ns", ri->user_ns);
		pms_json__double(&j, "system_ns", ri->sys_ns);
	} else {
		pms_json__null(&j, "user_ns");
		pms_json__null(&j, "system_ns");
	}
	if (ri->exit_status >= 0)
		pms_json__int(&j, "exit_status", ri->exit_status);
	else
		pms_json__null(&j, "exit_status");
	pms_json__bool(&j, "interrupted", ri->interrupted);
	json_warnings(o, &j);
	pms_json__end(&j);
	pms_json__finish(&j);
	output__put(o->f, &sb);
	strbuf_release(&cmd);
}

void stat_print_final(struct stat_out *o, const struct pms_counters *cs, const struct stat_run_info *ri,
		      const struct stat_rstat *rs, const struct pms_stats *wall)
{
	const struct stat_cfg *c = o->cfg;
	struct strbuf sb = STRBUF_INIT;

	set_tool_values(o, ri);
	if (o->quiet)
		return;
	if (c->json) {
		print_json_doc(o, cs, ri, rs, wall);
		fflush(o->f);
		return;
	}
	if (!c->csv_sep) {
		describe_target(c, &sb);
		fprintf(o->f, "\n Performance counter stats for %s", strbuf_str(&sb));
		if (c->repeat > 1)
			fprintf(o->f, " (%d run%s)", c->runs, c->runs == 1 ? "" : "s");
		fprintf(o->f, ":\n\n");
	}
	if (o->metric_only)
		metric_header(o, cs, NULL);
	if (c->csv_sep && c->interval_ms && o->csv_summary) {
		/* --summary after -I in CSV: perf's "summary" in the time column (--no-csv-summary: none) */
		struct strbuf pre = STRBUF_INIT;

		strbuf_addf(&pre, "summary%s", c->csv_sep);
		emit_rows(o, cs, false, rs ? wall->mean : ri->elapsed_ns, strbuf_str(&pre), NULL, rs);
		strbuf_release(&pre);
	} else {
		emit_rows(o, cs, false, rs ? wall->mean : ri->elapsed_ns, NULL, NULL, rs);
	}
	if (!c->csv_sep) {
		if (cs->nr)
			fputc('\n', o->f); /* -n: no rows, a single blank line as perf */
		if (rs) {
			double mean_s = wall->mean / 1e9, sd_s = pms_stats__stddev_mean(wall) / 1e9;
			int prec = pms_stat__elapsed_precision(sd_s);
			double pct = pms_stats__rel_pct(wall);

			if (o->run_ns) {
				/* --table: perf's bars, one '#' per 5% off the mean, plus one; headings under the numbers */
				char num[64];
				int indent = 0;

				snprintf(num, sizeof(num), " %17.*f", prec, mean_s);
				while (num[indent] == ' ')
					indent++;
				fprintf(o->f, "%*s# Table of individual measurements:\n", indent, "");
				for (size_t k = 0; k < o->nr_run_ns; k++) {
					double run_s = o->run_ns[k] / 1e9;
					int bars = 1 + abs((int)(100.0 * (run_s - mean_s) / run_s) / 5);

					fprintf(o->f, " %17.*f (%+.*f) ", prec, run_s, prec, run_s - mean_s);
					for (int h = 0; h < bars; h++)
						fputc('#', o->f);
					fputc('\n', o->f);
				}
				fprintf(o->f, "\n%*s# Final result:\n", indent, "");
			}
			fprintf(o->f, " %17.*f +- %.*f seconds time elapsed", prec, mean_s, prec, sd_s);
			if (pct != 0)
				fprintf(o->f, "  ( +-%6.2f%% )", pct);
			fputc('\n', o->f);
		} else {
			fprintf(o->f, " %17.9f seconds time elapsed\n", ri->elapsed_ns / 1e9);
			if (ri->have_rusage)
				fprintf(o->f, "\n %17.9f seconds user\n %17.9f seconds sys\n", ri->user_ns / 1e9,
					ri->sys_ns / 1e9);
		}
		fputc('\n', o->f);
		if (!cs->nr)
			fputc('\n', o->f); /* perf -n ends with two blank lines */
	}
	strbuf_release(&sb);
	fflush(o->f);
}

void stat_print_interval(struct stat_out *o, const struct pms_counters *cs, uint64_t ts_ns, double interval_ns)
{
	const struct stat_cfg *c = o->cfg;
	char ts[64];

	o->tool_ns[PMS_TOOL_NONE] = -1;
	o->tool_ns[PMS_TOOL_DURATION_TIME] = interval_ns;
	o->tool_ns[PMS_TOOL_USER_TIME] = -1; /* rusage exists only once the workload is reaped */
	o->tool_ns[PMS_TOOL_SYSTEM_TIME] = -1;
	if (o->quiet)
		return;

	if (c->json) {
		struct strbuf sb = STRBUF_INIT;
		struct pms_json j;
		char time_s[48];

		/* seconds with every nanosecond, which a double would round */
		snprintf(time_s, sizeof(time_s), "%llu.%09llu", (unsigned long long)(ts_ns / 1000000000ULL),
			 (unsigned long long)(ts_ns % 1000000000ULL));
		pms_json__init(&j, &sb, false);
		pms_json__obj(&j, NULL);
		pms_json__raw(&j, "time_s", time_s, strlen(time_s));
		pms_json__double(&j, "interval_ns", interval_ns);
		pms_json__arr(&j, "events");
		emit_rows(o, cs, true, interval_ns, NULL, &j, NULL);
		pms_json__end(&j);
		if (o->nr_metrics) {
			pms_json__arr(&j, "metrics");
			emit_json_metrics(o, cs, true, interval_ns, &j, NULL);
			pms_json__end(&j);
		}
		pms_json__end(&j);
		pms_json__finish(&j);
		output__put(o->f, &sb);
		fflush(o->f);
		return;
	}
	if (c->csv_sep) {
		snprintf(ts, sizeof(ts), "%llu.%09llu%s", (unsigned long long)(ts_ns / 1000000000ULL),
			 (unsigned long long)(ts_ns % 1000000000ULL), c->csv_sep);
	} else {
		snprintf(ts, sizeof(ts), "%6llu.%09llu ", (unsigned long long)(ts_ns / 1000000000ULL),
			 (unsigned long long)(ts_ns % 1000000000ULL));
		if (o->interval_clear) {
			/* perf writes the clear sequence with puts(), to stdout */
			fputs("\033[H\033[2J\n", stdout);
			fflush(stdout);
		}
		if (o->metric_only && (o->interval_lines % 25 == 0 || o->interval_clear)) {
			metric_header(o, cs, "#           time ");
		} else if (o->interval_lines % 25 == 0 || o->interval_clear) {
			static const char *const topo_hdr[] = { "socket cpus", "die          cpus",
								"core            cpus", "node   cpus" };

			if (c->aggr == AGGR_TOPO)
				fprintf(o->f, "#           time %s             counts unit events\n",
					topo_hdr[o->amap->mode]);
			else if (c->aggr == AGGR_CPU)
				fprintf(o->f, "#           time CPU                    counts unit events\n");
			else if (c->aggr == AGGR_THREAD)
				fprintf(o->f, "#           time             comm-pid                  counts unit events\n");
			else
				fprintf(o->f, "#           time             counts unit events\n");
		}
	}
	o->interval_lines++;
	emit_rows(o, cs, true, interval_ns, ts, NULL, NULL);
	fflush(o->f);
}

static void group_desc(const struct pms_counters *cs, size_t l, struct strbuf *sb)
{
	strbuf_addch(sb, '{');
	for (int j = 0; j < cs->c[l].nr_members && l + (size_t)j < cs->nr; j++)
		strbuf_addf(sb, "%s%s", j ? "," : "", cs->c[l + (size_t)j].name);
	strbuf_addch(sb, '}');
}

void stat_check_counts(struct stat_out *o, const struct pms_counters *cs)
{
	struct strbuf hw = STRBUF_INIT;

	for (size_t i = 0; i < cs->nr; i++) {
		const struct pms_counter *c = &cs->c[i];
		struct pms_count sum;

		if (c->state == PMS_COUNTER_GROUP_REFUSED) {
			if (c->leader == (int)i) {
				struct strbuf g = STRBUF_INIT;

				group_desc(cs, i, &g);
				stat_warn(o,
					  "group %s was never scheduled: %s; split it or use fewer events",
					  strbuf_str(&g), c->reason);
				strbuf_release(&g);
			}
			continue;
		}
		if (c->state != PMS_COUNTER_OK) {
			bool hw_kind = c->attr.type == PERF_TYPE_HARDWARE || c->attr.type == PERF_TYPE_HW_CACHE;

			if (hw_kind && c->open_err == -ENOENT)
				strbuf_addf(&hw, "%s%s", hw.len ? ", " : "", c->name);
			else if (is_human(o))
				note("'%s' is <not supported> here: %s", c->name, c->reason);
			continue;
		}
		if (c->leader != (int)i)
			continue;
		sum = pms_counter__sum(c, cs, -1, -1, false);
		if (!pms_counter__never_scheduled(&sum))
			continue;
		if (c->nr_members > 1) {
			struct strbuf g = STRBUF_INIT;

			group_desc(cs, i, &g);
			stat_warn(o,
				  "group %s was never scheduled (time_running 0 of %.1f ms enabled): it needs more "
				  "counters than the PMU has free; split it or use fewer events",
				  strbuf_str(&g), (double)sum.ena / 1e6);
			strbuf_release(&g);
		} else {
			stat_warn(o,
				  "event '%s' was never scheduled (time_running 0 of %.1f ms enabled): no counter "
				  "of its PMU was free",
				  c->name, (double)sum.ena / 1e6);
		}
	}
	if (hw.len && is_human(o) && !o->hw_note_done) {
		note("%s: <not supported>: no hardware PMU on this machine (a VM without PMU "
		     "passthrough?); software events still count",
		     strbuf_str(&hw));
		o->hw_note_done = true;
	}
	strbuf_release(&hw);
}

void stat_print_warnings_line(struct stat_out *o)
{
	struct strbuf sb = STRBUF_INIT;
	struct pms_json j;

	if (!o->nr_warnings)
		return;
	pms_json__init(&j, &sb, false);
	pms_json__obj(&j, NULL);
	json_warnings(o, &j);
	pms_json__end(&j);
	pms_json__finish(&j);
	output__put(o->f, &sb);
}

void stat_out__release_warnings(struct stat_out *o)
{
	for (size_t i = 0; i < o->nr_warnings; i++)
		free(o->warnings[i]);
	free(o->warnings);
	o->warnings = NULL;
	o->nr_warnings = 0;
}
