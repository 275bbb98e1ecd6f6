// SPDX-License-Identifier: MIT
// report --html's sections above the flame graph: summary, top functions, per-process and per-thread tables.
#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "export/report_html.h"

#define DEFAULT_LIMIT 50

void pms_html__escape(struct strbuf *out, const char *s)
{
	const char *run = s;

	if (!s)
		return;
	for (; *s; s++) {
		const char *ent;

		switch (*s) {
		case '&': ent = "&amp;"; break;
		case '<': ent = "&lt;"; break;
		case '>': ent = "&gt;"; break;
		case '"': ent = "&quot;"; break;
		case '\'': ent = "&#39;"; break;
		default: continue;
		}
		strbuf_add(out, run, (size_t)(s - run));
		strbuf_adds(out, ent);
		run = s + 1;
	}
	strbuf_add(out, run, (size_t)(s - run));
}

static double pct(uint64_t part, uint64_t total)
{
	return total ? 100.0 * (double)part / (double)total : 0.0;
}

static const char *short_dso(const char *dso)
{
	const char *b;

	if (!dso)
		return "[unknown]";
	b = strrchr(dso, '/');
	return b && b[1] ? b + 1 : dso;
}

/* <tr><th>label</th><td data-key="key">value</td></tr>, value escaped. */
static void sum_row(struct strbuf *out, const char *key, const char *label, const char *value)
{
	strbuf_addf(out, "<tr><th>%s</th><td data-key=\"%s\">", label, key);
	if (value && *value)
		pms_html__escape(out, value);
	else
		strbuf_adds(out, "<span class=\"pms-na\">unknown</span>");
	strbuf_adds(out, "</td></tr>\n");
}

static void sum_num(struct strbuf *out, const char *key, const char *label, uint64_t v)
{
	strbuf_addf(out, "<tr><th>%s</th><td data-key=\"%s\" data-value=\"%" PRIu64 "\">%" PRIu64 "</td></tr>\n",
		    label, key, v, v);
}

static void summary(struct strbuf *out, const struct pms_report_html_summary *s)
{
	strbuf_adds(out, "<section id=\"pms-summary\"><h2>Summary</h2>\n<table class=\"pms-kv\">\n");
	sum_row(out, "file", "File", s->file);
	if (s->damage)
		sum_row(out, "damage", "Partial: file damaged", s->damage);
	sum_row(out, "command", "Command", s->command);
	sum_row(out, "events", "Events", s->events);
	sum_num(out, "samples", "Samples", s->samples);
	sum_num(out, "lost_samples", "Lost samples", s->lost_samples);
	sum_num(out, "lost_events", "Lost events", s->lost_events);
	if (s->time_last_ns > s->time_first_ns) {
		uint64_t d = s->time_last_ns - s->time_first_ns;

		strbuf_addf(out, "<tr><th>Duration</th><td data-key=\"duration\" data-value=\"%" PRIu64 "\">%.3f s</td></tr>\n",
			    d, (double)d / 1e9);
	} else {
		sum_row(out, "duration", "Duration", NULL);
	}
	sum_num(out, "unresolved", "Unsymbolized samples", s->unresolved);
	if (s->filtered)
		sum_num(out, "filtered", "Filtered out", s->filtered);
	sum_row(out, "hostname", "Host", s->hostname);
	sum_row(out, "os_release", "OS release", s->os_release);
	sum_row(out, "perf_version", "Recorded by", s->perf_version);
	strbuf_adds(out, "</table></section>\n");
}

static const char *key_title(enum pms_sort_key k)
{
	switch (k) {
	case PMS_SORT_COMM: return "Command";
	case PMS_SORT_PID: return "PID";
	case PMS_SORT_TID: return "TID";
	case PMS_SORT_DSO: return "Shared Object";
	case PMS_SORT_SYM: return "Symbol";
	case PMS_SORT_SRCLINE: return "Source:Line";
	case PMS_SORT_CPU: return "CPU";
	default: return "?";
	}
}

static void key_cell(struct strbuf *out, enum pms_sort_key k, const struct pms_hist_entry *e)
{
	strbuf_addf(out, "<td class=\"pms-%s\">", pms_sort_key__name(k));
	switch (k) {
	case PMS_SORT_COMM:
		pms_html__escape(out, e->comm ? e->comm : "[unknown]");
		break;
	case PMS_SORT_PID:
		strbuf_addf(out, "%u", e->pid);
		break;
	case PMS_SORT_TID:
		strbuf_addf(out, "%u", e->tid);
		break;
	case PMS_SORT_DSO:
		strbuf_adds(out, "<span title=\"");
		pms_html__escape(out, e->dso ? e->dso : "[unknown]");
		strbuf_adds(out, "\">");
		pms_html__escape(out, short_dso(e->dso));
		strbuf_adds(out, "</span>");
		break;
	case PMS_SORT_SYM:
		strbuf_addf(out, "<span class=\"pms-level\">%s</span> ", pms_hist__level(e->kind));
		if (e->sym)
			pms_html__escape(out, e->sym);
		else
			strbuf_addf(out, "%#018" PRIx64, e->addr);
		break;
	case PMS_SORT_SRCLINE:
		pms_html__escape(out, e->srcline ? e->srcline : "??:0");
		break;
	case PMS_SORT_CPU:
		strbuf_addf(out, "%d", (int)e->cpu);
		break;
	default:
		break;
	}
	strbuf_adds(out, "</td>");
}

static void pct_cell(struct strbuf *out, const char *cls, uint64_t part, uint64_t total)
{
	double p = pct(part, total);

	/* the bar's width is the share: a table reads like a histogram */
	strbuf_addf(out, "<td class=\"pms-pct %s\" data-value=\"%.4f\" style=\"background:linear-gradient(90deg,"
		    "#f4b18399 %.1f%%,transparent %.1f%%)\">%.2f%%</td>",
		    cls, p, p > 100 ? 100.0 : p, p > 100 ? 100.0 : p, p);
}

/* The annotation of entry e of event attr_idx, or -1. */
static ssize_t annotation_of(const struct pms_report_html_opts *o, size_t attr_idx, const struct pms_hist_entry *e)
{
	for (size_t i = 0; e->sym && i < o->nr_annotations; i++) {
		const struct pms_report_html_annotation *a = &o->annotations[i];

		if (a->attr_idx == attr_idx && !strcmp(a->sym, e->sym) && a->dso && e->dso && !strcmp(a->dso, e->dso))
			return (ssize_t)i;
	}
	return -1;
}

static void top_table(struct strbuf *out, const struct pms_report_html_opts *o, const struct pms_hist_event *ev,
		      size_t limit)
{
	bool funcs = false;
	size_t shown = 0;

	for (size_t k = 0; k < o->nr_keys; k++)
		funcs |= o->keys[k] == PMS_SORT_SYM;
	strbuf_addf(out, "<h3>%s</h3>\n", funcs ? "Top functions" : "Top entries");
	strbuf_adds(out, "<table class=\"pms-table pms-top\" data-event=\"");
	pms_html__escape(out, ev->name);
	strbuf_adds(out, "\"><thead><tr>");
	if (o->children)
		strbuf_adds(out, "<th>Children</th>");
	strbuf_adds(out, "<th>Self</th><th>Samples</th>");
	for (size_t k = 0; k < o->nr_keys; k++)
		strbuf_addf(out, "<th>%s</th>", key_title(o->keys[k]));
	strbuf_adds(out, "</tr></thead><tbody>\n");
	for (size_t i = 0; i < ev->nr_entries && shown < limit; i++) {
		const struct pms_hist_entry *e = ev->entries[i];
		uint64_t w = o->children ? e->children_period : e->self_period;

		ssize_t ann = annotation_of(o, ev->attr_idx, e);

		if (pct(w, ev->period) < o->percent_limit)
			continue;
		if (ann >= 0)
			strbuf_addf(out, "<tr class=\"pms-annotatable\" data-ann=\"%zd\" title=\"click: where inside the "
				    "function the samples land\">", ann);
		else
			strbuf_adds(out, "<tr>");
		if (o->children)
			pct_cell(out, "pms-children", e->children_period, ev->period);
		pct_cell(out, "pms-self", e->self_period, ev->period);
		strbuf_addf(out, "<td class=\"pms-samples\">%" PRIu64 "</td>",
			    o->children ? e->children_samples : e->self_samples);
		for (size_t k = 0; k < o->nr_keys; k++)
			key_cell(out, o->keys[k], e);
		strbuf_adds(out, "</tr>\n");
		shown++;
	}
	strbuf_adds(out, "</tbody></table>\n");
	if (shown < ev->nr_entries)
		strbuf_addf(out, "<p class=\"pms-more\">%zu of %zu rows shown (limit %zu", shown, ev->nr_entries, limit);
	if (shown < ev->nr_entries && o->percent_limit > 0)
		strbuf_addf(out, ", below %.2f%% hidden", o->percent_limit);
	if (shown < ev->nr_entries)
		strbuf_adds(out, "; `pmuscope report` prints them all)</p>\n");
}

static const struct pms_hist_event *same_event(const struct pms_hist *h, size_t attr_idx)
{
	for (size_t i = 0; h && i < pms_hist__nr_events(h); i++)
		if (pms_hist__event(h, i)->attr_idx == attr_idx)
			return pms_hist__event(h, i);
	return NULL;
}

/* Processes or threads: share of the event's period, samples, pid[, tid], comm. */
static void task_table(struct strbuf *out, const char *id, const char *title, bool threads,
		       const struct pms_hist_event *ev, size_t limit)
{
	size_t shown = 0;

	if (!ev)
		return;
	strbuf_addf(out, "<h3>%s</h3>\n<table class=\"pms-table\" id=\"%s-", title, id);
	strbuf_addf(out, "%zu\"><thead><tr><th>Share</th><th>Samples</th><th>PID</th>%s<th>Command</th></tr></thead><tbody>\n",
		    ev->attr_idx, threads ? "<th>TID</th>" : "");
	for (size_t i = 0; i < ev->nr_entries && shown < limit; i++, shown++) {
		const struct pms_hist_entry *e = ev->entries[i];

		strbuf_adds(out, "<tr>");
		pct_cell(out, "pms-self", e->self_period, ev->period);
		strbuf_addf(out, "<td class=\"pms-samples\">%" PRIu64 "</td><td class=\"pms-pid\">%u</td>",
			    e->self_samples, e->pid);
		if (threads)
			strbuf_addf(out, "<td class=\"pms-tid\">%u</td>", e->tid);
		strbuf_adds(out, "<td class=\"pms-comm\">");
		pms_html__escape(out, e->comm ? e->comm : "[unknown]");
		strbuf_adds(out, "</td></tr>\n");
	}
	strbuf_adds(out, "</tbody></table>\n");
	if (shown < ev->nr_entries)
		strbuf_addf(out, "<p class=\"pms-more\">%zu of %zu rows shown</p>\n", shown, ev->nr_entries);
}

static const char style[] =
	"<style>\n"
	".pms-report{font:13px/1.4 sans-serif;margin:0 10px 16px}\n"
	".pms-report h2{font-size:18px;margin:10px 0 4px}.pms-report h3{font-size:15px;margin:12px 0 4px}\n"
	".pms-report table{border-collapse:collapse;margin-bottom:6px}\n"
	".pms-report th,.pms-report td{border:1px solid #ccc;padding:2px 6px;text-align:left;vertical-align:top}\n"
	".pms-report thead th{background:#eee}\n"
	".pms-kv th{background:#f6f6f6;font-weight:normal}\n"
	".pms-pct{text-align:right !important;min-width:64px;white-space:nowrap}\n"
	".pms-samples,.pms-pid,.pms-tid{text-align:right !important}\n"
	".pms-sym{font-family:monospace}.pms-level{color:#888}.pms-na{color:#999}\n"
	".pms-more{color:#666;margin:0 0 8px}\n"
	"tr.pms-annotatable{cursor:pointer}tr.pms-annotatable:hover{background:#fff3e0}\n"
	".pms-annotation{font:12px/1.3 monospace;margin:0;max-height:480px;overflow:auto;background:#fafafa}\n"
	"</style>\n";

/*
 * Click a column title to sort its table (again: the other way). Numbers
 * sort by data-value or their text, the rest as text. Self-contained: it
 * touches only .pms-report tables, so the flame graph's script is unaware.
 */
static const char sort_script[] =
	"(function () {\n"
	"  function key(td) {\n"
	"    var v = td.dataset.value !== undefined ? td.dataset.value : td.textContent.replace(/%$/, '');\n"
	"    return v !== '' && isFinite(v) ? Number(v) : td.textContent.toLowerCase();\n"
	"  }\n"
	"  document.querySelectorAll('.pms-report table.pms-table thead th').forEach(function (th, i, all) {\n"
	"    th.title = 'sort';\n"
	"    th.style.cursor = 'pointer';\n"
	"    th.addEventListener('click', function () {\n"
	"      var tb = th.closest('table').tBodies[0], col = th.cellIndex, down = th.dataset.sort !== 'down';\n"
	"      var rows = Array.prototype.slice.call(tb.rows);\n"
	"      rows.sort(function (a, b) {\n"
	"        var x = key(a.cells[col]), y = key(b.cells[col]);\n"
	"        var c = typeof x === typeof y ? (x < y ? -1 : x > y ? 1 : 0) : (typeof x === 'number' ? -1 : 1);\n"
	"        return down ? -c : c;\n"
	"      });\n"
	"      rows.forEach(function (r) { tb.appendChild(r); });\n"
	"      th.parentNode.querySelectorAll('th').forEach(function (o) { delete o.dataset.sort; });\n"
	"      th.dataset.sort = down ? 'down' : 'up';\n"
	"    });\n"
	"  });\n"
	"})();\n";

/*
 * A click on an annotatable row opens a row under it holding a copy of its
 * annotation; another click closes it. Sorting moves the pair apart: a
 * sort closes the open ones first.
 */
static const char annotate_script[] =
	"(function () {\n"
	"  function close(tr) { var n = tr.nextElementSibling; if (n && n.classList.contains('pms-ann-row')) n.remove(); }\n"
	"  document.querySelectorAll('.pms-report table.pms-top').forEach(function (t) {\n"
	"    t.addEventListener('click', function (e) {\n"
	"      var tr = e.target.closest('tr.pms-annotatable');\n"
	"      if (!tr) return;\n"
	"      var n = tr.nextElementSibling;\n"
	"      if (n && n.classList.contains('pms-ann-row')) { n.remove(); return; }\n"
	"      var row = document.createElement('tr'), td = document.createElement('td');\n"
	"      var pre = document.getElementById('pms-ann-' + tr.dataset.ann).cloneNode(true);\n"
	"      pre.hidden = false; pre.removeAttribute('id');\n"
	"      row.className = 'pms-ann-row'; td.colSpan = tr.cells.length; td.appendChild(pre); row.appendChild(td);\n"
	"      tr.after(row);\n"
	"    });\n"
	"    t.querySelectorAll('thead th').forEach(function (th) {\n"
	"      th.addEventListener('click', function () { t.querySelectorAll('tr.pms-ann-row').forEach(function (r) { r.remove(); }); }, true);\n"
	"    });\n"
	"  });\n"
	"})();\n";

int pms_report_html__preamble(const struct pms_report_html_opts *o, struct strbuf *out)
{
	size_t limit;

	if (!o || o->sz < sizeof(*o) || !o->summary || !o->funcs || (o->nr_keys && !o->keys) || !out)
		return -EINVAL;
	limit = o->limit ? o->limit : DEFAULT_LIMIT;
	strbuf_adds(out, style);
	strbuf_adds(out, "<div class=\"pms-report\" id=\"pms-report\">\n");
	summary(out, o->summary);
	for (size_t i = 0; i < pms_hist__nr_events(o->funcs); i++) {
		const struct pms_hist_event *ev = pms_hist__event(o->funcs, i);

		strbuf_addf(out, "<section class=\"pms-event\" id=\"pms-event-%zu\" data-samples=\"%" PRIu64
			    "\" data-period=\"%" PRIu64 "\"><h2>Event <code>", ev->attr_idx, ev->samples, ev->period);
		pms_html__escape(out, ev->name);
		strbuf_addf(out, "</code>: %" PRIu64 " samples, event count %" PRIu64 "</h2>\n", ev->samples, ev->period);
		top_table(out, o, ev, limit);
		task_table(out, "pms-procs", "Processes", false, same_event(o->procs, ev->attr_idx), limit);
		task_table(out, "pms-threads", "Threads", true, same_event(o->threads, ev->attr_idx), limit);
		strbuf_adds(out, "</section>\n");
	}
	if (!pms_hist__nr_events(o->funcs))
		strbuf_adds(out, "<p id=\"pms-no-samples\">No samples.</p>\n");
	if (o->flame_note) {
		strbuf_adds(out, "<p id=\"pms-flame-note\">");
		pms_html__escape(out, o->flame_note);
		strbuf_adds(out, "</p>\n");
	}
	/* the annotations, as text: a click on their row shows them under it */
	for (size_t i = 0; i < o->nr_annotations; i++) {
		strbuf_addf(out, "<pre class=\"pms-annotation\" id=\"pms-ann-%zu\" hidden>", i);
		pms_html__escape(out, o->annotations[i].text);
		strbuf_adds(out, "</pre>\n");
	}
	/* one script, after every name from the file */
	strbuf_adds(out, "<script>\n");
	strbuf_adds(out, sort_script);
	strbuf_adds(out, annotate_script);
	strbuf_adds(out, "</script>\n");
	strbuf_adds(out, "</div>\n");
	return out->oom ? -ENOMEM : 0;
}
