// SPDX-License-Identifier: MIT
// report's tables: perf-style columns and call graphs (--stdio) and the JSON entries of one event.
#include <inttypes.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "report_print.h"

#define MAX_GRAPH_DEPTH 256

const char *report_dso_short(const char *dso)
{
	const char *b;

	if (!dso)
		return "[unknown]";
	b = strrchr(dso, '/');
	return b && b[1] ? b + 1 : dso;
}

unsigned long report_convert_unit(unsigned long value, char *unit)
{
	*unit = ' ';
	if (value > 1000) {
		value /= 1000;
		*unit = 'K';
	}
	if (value > 1000) {
		value /= 1000;
		*unit = 'M';
	}
	if (value > 1000) {
		value /= 1000;
		*unit = 'G';
	}
	return value;
}

static double pct(uint64_t part, uint64_t total)
{
	return total ? 100.0 * (double)part / (double)total : 0.0;
}

static const char *comm_of(const struct pms_hist_entry *e)
{
	return e->comm ? e->comm : "[unknown]";
}

/* The text of one key column for an entry (the sym column has no padding). */
static void key_text(enum pms_sort_key k, const struct pms_hist_entry *e, int width, char *buf, size_t sz)
{
	switch (k) {
	case PMS_SORT_COMM:
		snprintf(buf, sz, "%s", comm_of(e));
		break;
	case PMS_SORT_PID:
	case PMS_SORT_TID:
		snprintf(buf, sz, "%7u:%-*s", k == PMS_SORT_PID ? e->pid : e->tid, width > 8 ? width - 8 : 0,
			 comm_of(e));
		break;
	case PMS_SORT_DSO:
		snprintf(buf, sz, "%s", report_dso_short(e->dso));
		break;
	case PMS_SORT_SYM:
		if (e->sym)
			snprintf(buf, sz, "%s %s", pms_hist__level(e->kind), e->sym);
		else
			snprintf(buf, sz, e->addr ? "%s %#018llx" : "%s %016llx", pms_hist__level(e->kind),
				 (unsigned long long)e->addr);
		break;
	case PMS_SORT_SRCLINE:
		snprintf(buf, sz, "%s", e->srcline ? e->srcline : "??:0");
		break;
	case PMS_SORT_CPU:
		snprintf(buf, sz, "%*.*d", width, width, (int)e->cpu);
		break;
	default:
		snprintf(buf, sz, "?");
	}
}

static const char *key_header(enum pms_sort_key k)
{
	switch (k) {
	case PMS_SORT_COMM: return "Command";
	case PMS_SORT_PID: return "Pid:Command";
	case PMS_SORT_TID: return "Tid:Command";
	case PMS_SORT_DSO: return "Shared Object";
	case PMS_SORT_SYM: return "Symbol";
	case PMS_SORT_SRCLINE: return "Source:Line";
	case PMS_SORT_CPU: return "CPU";
	default: return "?";
	}
}

static int key_min_width(enum pms_sort_key k, const struct pms_hist_entry *e)
{
	char buf[1024];

	switch (k) {
	case PMS_SORT_PID:
	case PMS_SORT_TID:
		return 8 + (int)strlen(comm_of(e));
	case PMS_SORT_CPU:
		return 3;
	default:
		key_text(k, e, 0, buf, sizeof(buf));
		return (int)strlen(buf);
	}
}

static bool entry_shown(const struct report_view *v, const struct pms_hist_event *ev,
			const struct pms_hist_entry *e)
{
	uint64_t p = v->children ? e->children_period : e->self_period;

	return pct(p, ev->period) >= v->percent_limit;
}

/* ------------------------------------------------------------- graphs -- */

static void frame_name(const struct pms_hist *h, uint32_t frame, char *buf, size_t sz)
{
	const struct pms_hist_frame *f = pms_hist__frame(h, frame);

	if (!f)
		snprintf(buf, sz, "[unknown]");
	else if (f->sym)
		snprintf(buf, sz, "%s", f->sym);
	else
		snprintf(buf, sz, "%#llx", (unsigned long long)f->addr);
}

/* The last node of a run perf keeps as one radix-tree node: single child, no path ending. */
static uint32_t run_end(const struct pms_cg *cg, uint32_t n)
{
	for (;;) {
		const struct pms_cg_node *x = pms_cg__node(cg, n);
		const struct pms_cg_node *c = pms_cg__node(cg, x->first_child);

		if (!c || c->next_sibling || c->period != x->period)
			return n;
		n = x->first_child;
	}
}

static uint32_t next_in_run(const struct pms_cg *cg, uint32_t n, uint32_t end)
{
	return n == end ? 0 : pms_cg__node(cg, n)->first_child;
}

static void margin(FILE *f, int left)
{
	fprintf(f, "            %*s", left, "");
}

struct graph_ctx {
	FILE *f;
	const struct pms_hist *h;
	const struct pms_cg *cg;
	uint64_t total, min_hit;
	bool mask[MAX_GRAPH_DEPTH + 1];
};

static size_t graph_level(struct graph_ctx *g, uint32_t node, int depth, int lm)
{
	size_t lines = 0;
	const struct pms_cg_node *x = pms_cg__node(g->cg, node);
	char name[1024];

	if (depth > MAX_GRAPH_DEPTH)
		return 0;
	for (uint32_t c = x->first_child; c; c = pms_cg__node(g->cg, c)->next_sibling) {
		const struct pms_cg_node *cn = pms_cg__node(g->cg, c);
		const struct pms_cg_node *nx = pms_cg__node(g->cg, cn->next_sibling);
		bool last = !nx || nx->period < g->min_hit;
		bool old = g->mask[depth - 1];
		uint32_t end;

		if (cn->period < g->min_hit)
			break; /* siblings are sorted: the rest are below too */
		/* the separator keeps the pipe of this level until the last child */
		margin(g->f, lm);
		for (int i = 0; i < depth; i++)
			fputs(g->mask[i] ? "|          " : "           ", g->f);
		fputc('\n', g->f);
		if (last)
			g->mask[depth - 1] = false;
		end = run_end(g->cg, c);
		for (uint32_t n = c; n; n = next_in_run(g->cg, n, end)) {
			margin(g->f, lm);
			for (int i = 0; i < depth; i++) {
				fputc(g->mask[i] ? '|' : ' ', g->f);
				if (n == c && i == depth - 1)
					fprintf(g->f, "--%.2f%%--", pct(cn->period, g->total));
				else
					fputs("          ", g->f);
			}
			frame_name(g->h, pms_cg__node(g->cg, n)->frame, name, sizeof(name));
			fprintf(g->f, "%s\n", name);
			lines++;
		}
		g->mask[depth] = true;
		lines += graph_level(g, end, depth + 1, lm);
		g->mask[depth - 1] = old;
	}
	return lines;
}

static void print_graph(FILE *f, const struct report_view *v, const struct pms_hist_event *ev,
			const struct pms_hist_entry *e)
{
	struct graph_ctx g;
	const struct pms_cg_node *root, *first, *second;
	uint32_t start;
	bool printed = false;
	int lm = 0;
	size_t nout = 0;
	char name[1024];

	memset(&g, 0, sizeof(g));
	g.f = f;
	g.h = v->h;
	g.cg = pms_hist__cg(v->h);
	g.total = ev->period;
	g.min_hit = (uint64_t)((double)ev->period * v->cg_min_percent / 100.0);
	root = pms_cg__node(g.cg, e->cg_root);
	if (!root)
		return;
	first = pms_cg__node(g.cg, root->first_child);
	if (!first || first->period < g.min_hit)
		return;
	second = pms_cg__node(g.cg, first->next_sibling);
	start = e->cg_root;
	if ((!second || second->period < g.min_hit) && first->period == root->period) {
		/* one root holding the whole entry: print its run without a percentage, like perf */
		uint32_t c = root->first_child, end = run_end(g.cg, c);
		int i = 0;

		for (uint32_t n = c; n; n = next_in_run(g.cg, n, end)) {
			if (!i++ && v->skip_first_frame)
				continue;
			if (!printed) {
				margin(f, 0);
				fputs("|\n", f);
				margin(f, 0);
				fputs("---", f);
				lm = 3;
				printed = true;
			} else {
				margin(f, lm);
			}
			frame_name(v->h, pms_cg__node(g.cg, n)->frame, name, sizeof(name));
			fprintf(f, "%s\n", name);
			nout++;
		}
		start = end;
	}
	g.mask[0] = true;
	nout += graph_level(&g, start, 1, lm);
	if (nout)
		fputc('\n', f);
}

/* -------------------------------------------------------------- stdio -- */

void report_print_stdio(FILE *f, const struct report_view *v, const struct pms_hist_event *ev)
{
	int w[PMS_HIST_MAX_KEYS];
	char buf[2048];

	for (size_t k = 0; k < v->nr_keys; k++) {
		w[k] = (int)strlen(key_header(v->keys[k]));
		for (size_t i = 0; i < ev->nr_entries; i++) {
			int x = key_min_width(v->keys[k], ev->entries[i]);

			if (x > w[k])
				w[k] = x;
		}
	}
	/* header and dots */
	fputs(v->children ? "# Children      Self" : "# Overhead", f);
	if (v->nr_samples)
		fputs("       Samples", f);
	for (size_t k = 0; k < v->nr_keys; k++) {
		bool right = v->keys[k] == PMS_SORT_PID || v->keys[k] == PMS_SORT_TID;

		fprintf(f, right ? "  %*s" : "  %-*s", w[k], key_header(v->keys[k]));
	}
	fputs("\n# ........", f);
	if (v->children)
		fputs("  ........", f);
	if (v->nr_samples)
		fputs("  ............", f);
	for (size_t k = 0; k < v->nr_keys; k++) {
		fputs("  ", f);
		for (int i = 0; i < w[k]; i++)
			fputc('.', f);
	}
	fputs("\n#\n", f);
	for (size_t i = 0; i < ev->nr_entries; i++) {
		const struct pms_hist_entry *e = ev->entries[i];

		if (!entry_shown(v, ev, e))
			continue;
		if (v->children)
			fprintf(f, "  %7.2f%%  %7.2f%%", pct(e->children_period, ev->period),
				pct(e->self_period, ev->period));
		else
			fprintf(f, "  %7.2f%%", pct(e->self_period, ev->period));
		if (v->nr_samples)
			fprintf(f, "  %12" PRIu64, e->self_samples);
		for (size_t k = 0; k < v->nr_keys; k++) {
			key_text(v->keys[k], e, w[k], buf, sizeof(buf));
			if ((v->keys[k] == PMS_SORT_SYM || v->keys[k] == PMS_SORT_SRCLINE) && k + 1 == v->nr_keys)
				fprintf(f, "  %s", buf);
			else
				fprintf(f, "  %-*s", w[k], buf);
		}
		fputc('\n', f);
		if (v->graph)
			print_graph(f, v, ev, e);
	}
	fputs("\n\n", f);
}

/* --------------------------------------------------------------- json -- */

static bool has_key(const struct report_view *v, enum pms_sort_key key)
{
	for (size_t k = 0; k < v->nr_keys; k++)
		if (v->keys[k] == key)
			return true;
	return false;
}

struct json_ctx {
	struct jw *w;
	const struct pms_hist *h;
	const struct pms_cg *cg;
	uint64_t total, min_hit;
	uint32_t *path;
	size_t nr, alloc;
};

static void json_frame(struct jw *w, const struct pms_hist *h, uint32_t frame)
{
	const struct pms_hist_frame *f = pms_hist__frame(h, frame);
	char buf[32];

	jw_obj(w, NULL);
	jw_str(w, "sym", f ? f->sym : NULL);
	jw_str(w, "dso", f ? f->dso : NULL);
	snprintf(buf, sizeof(buf), "0x%llx", f ? (unsigned long long)f->addr : 0ULL);
	jw_str(w, "addr", buf);
	jw_str(w, "level", pms_hist__level(f ? f->kind : PMS_FRAME_USER));
	jw_end(w);
}

static void json_paths(struct json_ctx *j, uint32_t node)
{
	const struct pms_cg_node *x = pms_cg__node(j->cg, node);
	bool any = false;

	if (j->nr == j->alloc) {
		j->alloc = j->alloc ? j->alloc * 2 : 64;
		j->path = xrealloc(j->path, j->alloc * sizeof(*j->path));
	}
	j->path[j->nr++] = node;
	for (uint32_t c = x->first_child; c; c = pms_cg__node(j->cg, c)->next_sibling) {
		if (pms_cg__node(j->cg, c)->period < j->min_hit)
			break;
		any = true;
		json_paths(j, c);
	}
	if (!any) {
		jw_obj(j->w, NULL);
		jw_num(j->w, "percent", pct(x->period, j->total), 4);
		jw_uint(j->w, "period", x->period);
		jw_uint(j->w, "samples", x->samples);
		jw_arr(j->w, "frames");
		for (size_t i = 0; i < j->nr; i++)
			json_frame(j->w, j->h, pms_cg__node(j->cg, j->path[i])->frame);
		jw_end(j->w);
		jw_end(j->w);
	}
	j->nr--;
}

void report_json_entries(struct jw *w, const struct report_view *v, const struct pms_hist_event *ev)
{
	const struct pms_cg *cg = pms_hist__cg(v->h);
	uint64_t min_hit = (uint64_t)((double)ev->period * v->cg_min_percent / 100.0);
	char buf[1024];

	jw_arr(w, "entries");
	for (size_t i = 0; i < ev->nr_entries; i++) {
		const struct pms_hist_entry *e = ev->entries[i];
		bool comm_done = false;

		if (!entry_shown(v, ev, e))
			continue;
		jw_obj(w, NULL);
		jw_num(w, "children", pct(e->children_period, ev->period), 4);
		jw_num(w, "self", pct(e->self_period, ev->period), 4);
		jw_uint(w, "children_period", e->children_period);
		jw_uint(w, "self_period", e->self_period);
		jw_uint(w, "children_samples", e->children_samples);
		jw_uint(w, "self_samples", e->self_samples);
		for (size_t k = 0; k < v->nr_keys; k++) {
			switch (v->keys[k]) {
			case PMS_SORT_COMM:
				jw_str(w, "comm", e->comm);
				break;
			case PMS_SORT_PID:
			case PMS_SORT_TID:
				jw_uint(w, v->keys[k] == PMS_SORT_PID ? "pid" : "tid",
					v->keys[k] == PMS_SORT_PID ? e->pid : e->tid);
				if (!has_key(v, PMS_SORT_COMM) && !comm_done)
					jw_str(w, "comm", e->comm);
				comm_done = true;
				break;
			case PMS_SORT_DSO:
				jw_str(w, "dso", e->dso);
				jw_str(w, "dso_short", report_dso_short(e->dso));
				break;
			case PMS_SORT_SYM:
				if (!has_key(v, PMS_SORT_DSO)) {
					jw_str(w, "dso", e->dso);
					jw_str(w, "dso_short", report_dso_short(e->dso));
				}
				jw_str(w, "sym", e->sym);
				snprintf(buf, sizeof(buf), "0x%llx", (unsigned long long)e->addr);
				if (e->sym)
					jw_null(w, "addr");
				else
					jw_str(w, "addr", buf);
				jw_str(w, "level", pms_hist__level(e->kind));
				if (!e->sym) {
					static const char *const why[] = {
						[PMS_RES_OK] = "ok", [PMS_RES_NO_SYM] = "no symbol",
						[PMS_RES_NO_FILE] = "file missing", [PMS_RES_STALE] = "binary rebuilt",
						[PMS_RES_RESTRICTED] = "kernel symbols restricted",
						[PMS_RES_NO_KERNEL] = "kernel symbols not here",
						[PMS_RES_STRIPPED] = "stripped binary",
					};

					if (e->dso && !strcmp(e->dso, "[unknown]"))
						jw_str(w, "unresolved", "no mapping");
					else
						jw_str(w, "unresolved", e->status <= PMS_RES_STRIPPED ? why[e->status] : "?");
				}
				break;
			case PMS_SORT_SRCLINE:
				jw_str(w, "srcline", e->srcline);
				break;
			case PMS_SORT_CPU:
				if (e->cpu == UINT32_MAX)
					jw_null(w, "cpu");
				else
					jw_uint(w, "cpu", e->cpu);
				break;
			default:
				break;
			}
		}
		if (v->graph) {
			const struct pms_cg_node *root = pms_cg__node(cg, e->cg_root);
			struct json_ctx j = { .w = w, .h = v->h, .cg = cg, .total = ev->period, .min_hit = min_hit };

			jw_arr(w, "callchains");
			if (root)
				for (uint32_t c = root->first_child; c; c = pms_cg__node(cg, c)->next_sibling) {
					if (pms_cg__node(cg, c)->period < min_hit)
						break;
					json_paths(&j, c);
				}
			jw_end(w);
			free(j.path);
		}
		jw_end(w);
	}
	jw_end(w);
}
