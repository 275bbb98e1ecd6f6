// SPDX-License-Identifier: MIT
// report's tables: perf-style columns and call graphs (--stdio) and the JSON entries of one event.
#include <inttypes.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "report_print.h"
#include "util/array.h"
#include "util/strbuf.h"
#include "symbol/jitmap.h"

#define MAX_GRAPH_DEPTH 256

const char *report_dso_short(const char *dso)
{
	/* a few at once: one printf may show a branch's source and target */
	static char bufs[4][64];
	static unsigned next;

	if (!dso)
		return "[unknown]";
	return pms_jitmap__dso_short_name(dso, bufs[next++ % 4], sizeof(bufs[0]));
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

/* perf's "[k] name", or "[k] 0x..." (16 digits) for an address without a symbol. */
static void sym_text(const char *level, const char *sym, uint64_t addr, char *buf, size_t sz)
{
	if (sym)
		snprintf(buf, sz, "%s %s", level, sym);
	else
		snprintf(buf, sz, addr ? "%s %#018llx" : "%s %016llx", level, (unsigned long long)addr);
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
		sym_text(pms_hist__level(e->kind), e->sym, e->addr, buf, sz);
		break;
	case PMS_SORT_DSO_FROM:
	case PMS_SORT_DSO_TO:
		/* perf's "%-*.*s": cut to the column (see key_min_width()) */
		snprintf(buf, sz, "%.*s", width > 0 ? width : (int)sz,
			 report_dso_short(k == PMS_SORT_DSO_FROM ? e->from.dso : e->to.dso));
		break;
	case PMS_SORT_SYM_FROM:
		sym_text(pms_hist__branch_level(&e->from), e->from.sym, e->from.addr, buf, sz);
		break;
	case PMS_SORT_SYM_TO:
		sym_text(pms_hist__branch_level(&e->to), e->to.sym, e->to.addr, buf, sz);
		break;
	case PMS_SORT_CYCLES:
		/* perf prints the 16-bit count with %hd: 42141 shows as -23395 there, and so here (--json has the count) */
		if (e->cycles)
			snprintf(buf, sz, "%d", (int)(int16_t)e->cycles);
		else
			snprintf(buf, sz, "-");
		break;
	case PMS_SORT_MISPREDICT:
		/* perf's order of the tests: a predicted branch is "N" even if mispred is set too */
		snprintf(buf, sz, "%s", e->predicted ? "N" : e->mispred ? "Y" : "N/A");
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
	case PMS_SORT_DSO_FROM: return "Source Shared Object";
	case PMS_SORT_DSO_TO: return "Target Shared Object";
	case PMS_SORT_SYM_FROM: return "Source Symbol";
	case PMS_SORT_SYM_TO: return "Target Symbol";
	case PMS_SORT_CYCLES: return "Basic Block Cycles";
	case PMS_SORT_MISPREDICT: return "Branch Mispredicted";
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
	case PMS_SORT_DSO_FROM:
	case PMS_SORT_DSO_TO: {
		const struct pms_hist_frame_ref *r = k == PMS_SORT_DSO_FROM ? &e->from : &e->to;

		/*
		 * perf widens a branch's object column only for an end with a symbol
		 * (hists__calc_col_len()), else to 16: longer names of unresolved ends
		 * are cut to the title's width, and so are ours
		 */
		return r->sym ? (int)strlen(report_dso_short(r->dso)) : 16;
	}
	case PMS_SORT_SYM_FROM:
	case PMS_SORT_SYM_TO: {
		const struct pms_hist_frame_ref *r = k == PMS_SORT_SYM_FROM ? &e->from : &e->to;

		/* perf sizes an unresolved one as "[x] 0x" and 16 digits even when it prints fewer */
		if (!r->sym)
			return 4 + 2 + 16;
		return 4 + (int)strlen(r->sym);
	}
	default:
		key_text(k, e, 0, buf, sizeof(buf));
		return (int)strlen(buf);
	}
}

/* The member columns of one table: one member for an event, the group's for a group view. */
struct rows {
	size_t nr_members;
	const struct pms_hist_event *const *events; /* per member; NULL: no samples */
	const struct pms_hist_group_row *rows;
	size_t nr_rows;
};

/* As perf: the leader's share (children in children mode) against the limit. */
static bool row_shown(const struct report_view *v, const struct rows *t, const struct pms_hist_group_row *r)
{
	const struct pms_hist_entry *e = r->members[0];
	uint64_t p = !e ? 0 : v->children ? e->children_period : e->self_period;

	return pct(p, t->events[0] ? t->events[0]->period : 0) >= v->percent_limit;
}

/* One event's entries as rows of one member (borrowed pointers; free the array). */
static struct pms_hist_group_row *event_rows(const struct pms_hist_event *ev)
{
	struct pms_hist_group_row *r = xmalloc((ev->nr_entries ? ev->nr_entries : 1) * sizeof(*r));

	for (size_t i = 0; i < ev->nr_entries; i++) {
		r[i].members = (const struct pms_hist_entry **)&ev->entries[i];
		r[i].key = ev->entries[i];
	}
	return r;
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

/* n columns of perf's width w (8 for a percentage, 12 for samples) under one right-aligned title. */
static void column_title(FILE *f, const char *title, size_t n, int w)
{
	fprintf(f, "%*s", (int)n * w, title);
}

static void column_dots(FILE *f, size_t n, int w)
{
	for (int i = 0; i < (int)n * w; i++)
		fputc('.', f);
}

static void print_rows(FILE *f, const struct report_view *v, const struct rows *t)
{
	int w[PMS_HIST_MAX_KEYS];
	size_t n = t->nr_members;
	char buf[2048];

	for (size_t k = 0; k < v->nr_keys; k++) {
		w[k] = (int)strlen(key_header(v->keys[k]));
		for (size_t i = 0; i < t->nr_rows; i++) {
			int x = key_min_width(v->keys[k], t->rows[i].key);

			if (x > w[k])
				w[k] = x;
		}
	}
	/* header and dots: a group's columns are n times as wide, titles right-aligned, as perf's */
	fputs("# ", f);
	if (v->children) {
		column_title(f, "Children", n, 8);
		fputs("  ", f);
		column_title(f, "Self", n, 8);
	} else {
		column_title(f, "Overhead", n, 8);
	}
	if (v->nr_samples) {
		fputs("  ", f);
		column_title(f, "Samples", n, 12);
	}
	for (size_t k = 0; k < v->nr_keys; k++) {
		bool right = v->keys[k] == PMS_SORT_PID || v->keys[k] == PMS_SORT_TID;

		fprintf(f, right ? "  %*s" : "  %-*s", w[k], key_header(v->keys[k]));
	}
	fputs("\n# ", f);
	column_dots(f, n, 8);
	if (v->children) {
		fputs("  ", f);
		column_dots(f, n, 8);
	}
	if (v->nr_samples) {
		fputs("  ", f);
		column_dots(f, n, 12);
	}
	for (size_t k = 0; k < v->nr_keys; k++) {
		fputs("  ", f);
		for (int i = 0; i < w[k]; i++)
			fputc('.', f);
	}
	fputs("\n#\n", f);
	for (size_t i = 0; i < t->nr_rows; i++) {
		const struct pms_hist_group_row *r = &t->rows[i];

		if (!row_shown(v, t, r))
			continue;
		/* each member's share of its own event's total; 0.00% where it has no such entry */
		for (int pass = v->children ? 0 : 1; pass < 2; pass++) {
			fputs("  ", f);
			for (size_t m = 0; m < n; m++) {
				const struct pms_hist_entry *e = r->members[m];
				uint64_t p = !e ? 0 : pass == 0 ? e->children_period : e->self_period;

				fprintf(f, " %6.2f%%", pct(p, t->events[m] ? t->events[m]->period : 0));
			}
		}
		if (v->nr_samples) {
			fputs("  ", f);
			for (size_t m = 0; m < n; m++)
				fprintf(f, " %11" PRIu64, r->members[m] ? r->members[m]->self_samples : 0);
		}
		for (size_t k = 0; k < v->nr_keys; k++) {
			enum pms_sort_key key = v->keys[k];

			key_text(key, r->key, w[k], buf, sizeof(buf));
			if ((key == PMS_SORT_SYM || key == PMS_SORT_SRCLINE || key == PMS_SORT_SYM_FROM ||
			     key == PMS_SORT_SYM_TO) && k + 1 == v->nr_keys)
				fprintf(f, "  %s", buf);
			else
				fprintf(f, "  %-*s", w[k], buf);
		}
		fputc('\n', f);
		/* a group shows its leader's graph (perf's linked entries of the members have none) */
		if (v->graph && r->members[0] && t->events[0])
			print_graph(f, v, t->events[0], r->members[0]);
	}
	fputs("\n\n", f);
}

void report_print_stdio(FILE *f, const struct report_view *v, const struct pms_hist_event *ev)
{
	const struct pms_hist_event *evs[1] = { ev };
	struct pms_hist_group_row *r = event_rows(ev);
	struct rows t = { .nr_members = 1, .events = evs, .rows = r, .nr_rows = ev->nr_entries };

	print_rows(f, v, &t);
	free(r);
}

void report_print_group_stdio(FILE *f, const struct report_view *v, const struct pms_hist_group *g)
{
	struct rows t = { .nr_members = g->nr_members, .events = g->events, .rows = g->rows, .nr_rows = g->nr_rows };

	print_rows(f, v, &t);
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
	struct pms_json *w;
	const struct pms_hist *h;
	const struct pms_cg *cg;
	uint64_t total, min_hit;
	uint32_t *path;
	size_t nr, alloc;
};

static void json_frame(struct pms_json *w, const struct pms_hist *h, uint32_t frame)
{
	const struct pms_hist_frame *f = pms_hist__frame(h, frame);
	char buf[32];

	pms_json__obj(w, NULL);
	pms_json__str(w, "sym", f ? f->sym : NULL);
	pms_json__str(w, "dso", f ? f->dso : NULL);
	snprintf(buf, sizeof(buf), "0x%llx", f ? (unsigned long long)f->addr : 0ULL);
	pms_json__str(w, "addr", buf);
	pms_json__str(w, "level", pms_hist__level(f ? f->kind : PMS_FRAME_USER));
	pms_json__end(w);
}

static void json_paths(struct json_ctx *j, uint32_t node)
{
	const struct pms_cg_node *x = pms_cg__node(j->cg, node);
	bool any = false;

	if (pms_array__reserve(&j->path, &j->alloc, j->nr + 1, sizeof(*j->path)))
		die("out of memory");
	j->path[j->nr++] = node;
	for (uint32_t c = x->first_child; c; c = pms_cg__node(j->cg, c)->next_sibling) {
		if (pms_cg__node(j->cg, c)->period < j->min_hit)
			break;
		any = true;
		json_paths(j, c);
	}
	if (!any) {
		pms_json__obj(j->w, NULL);
		pms_json__num(j->w, "percent", pct(x->period, j->total), 4);
		pms_json__uint(j->w, "period", x->period);
		pms_json__uint(j->w, "samples", x->samples);
		pms_json__arr(j->w, "frames");
		for (size_t i = 0; i < j->nr; i++)
			json_frame(j->w, j->h, pms_cg__node(j->cg, j->path[i])->frame);
		pms_json__end(j->w);
		pms_json__end(j->w);
	}
	j->nr--;
}

/* "from"/"to" of a branch entry: what its keys look at. */
static void json_branch_end(struct pms_json *w, const char *key, const struct pms_hist_frame_ref *r, bool with_sym)
{
	char buf[32];

	pms_json__obj(w, key);
	pms_json__str(w, "dso", r->dso);
	pms_json__str(w, "dso_short", report_dso_short(r->dso));
	if (with_sym) {
		pms_json__str(w, "sym", r->sym);
		snprintf(buf, sizeof(buf), "0x%llx", (unsigned long long)r->addr);
		if (r->sym)
			pms_json__null(w, "addr");
		else
			pms_json__str(w, "addr", buf);
		pms_json__str(w, "level", pms_hist__branch_level(r));
	}
	pms_json__end(w);
}

/* The weights of entry e (NULL: none) against total. */
static void json_weights(struct pms_json *w, const struct pms_hist_entry *e, uint64_t total)
{
	pms_json__num(w, "children", pct(e ? e->children_period : 0, total), 4);
	pms_json__num(w, "self", pct(e ? e->self_period : 0, total), 4);
	pms_json__uint(w, "children_period", e ? e->children_period : 0);
	pms_json__uint(w, "self_period", e ? e->self_period : 0);
	pms_json__uint(w, "children_samples", e ? e->children_samples : 0);
	pms_json__uint(w, "self_samples", e ? e->self_samples : 0);
}

static void json_rows(struct pms_json *w, const struct report_view *v, const struct rows *t)
{
	const struct pms_cg *cg = pms_hist__cg(v->h);
	const struct pms_hist_event *lead = t->events[0];
	uint64_t lead_period = lead ? lead->period : 0;
	uint64_t min_hit = (uint64_t)((double)lead_period * v->cg_min_percent / 100.0);
	char buf[1024];

	pms_json__arr(w, "entries");
	for (size_t i = 0; i < t->nr_rows; i++) {
		const struct pms_hist_group_row *r = &t->rows[i];
		const struct pms_hist_entry *e = r->key, *le = r->members[0];
		bool comm_done = false, from_done = false, to_done = false;

		if (!row_shown(v, t, r))
			continue;
		pms_json__obj(w, NULL);
		/* the leader's weights (a group's first member), as for a single event */
		json_weights(w, le, lead_period);
		for (size_t k = 0; k < v->nr_keys; k++) {
			switch (v->keys[k]) {
			case PMS_SORT_COMM:
				pms_json__str(w, "comm", e->comm);
				break;
			case PMS_SORT_PID:
			case PMS_SORT_TID:
				pms_json__uint(w, v->keys[k] == PMS_SORT_PID ? "pid" : "tid",
					v->keys[k] == PMS_SORT_PID ? e->pid : e->tid);
				if (!has_key(v, PMS_SORT_COMM) && !comm_done)
					pms_json__str(w, "comm", e->comm);
				comm_done = true;
				break;
			case PMS_SORT_DSO:
				pms_json__str(w, "dso", e->dso);
				pms_json__str(w, "dso_short", report_dso_short(e->dso));
				break;
			case PMS_SORT_SYM:
				if (!has_key(v, PMS_SORT_DSO)) {
					pms_json__str(w, "dso", e->dso);
					pms_json__str(w, "dso_short", report_dso_short(e->dso));
				}
				pms_json__str(w, "sym", e->sym);
				snprintf(buf, sizeof(buf), "0x%llx", (unsigned long long)e->addr);
				if (e->sym)
					pms_json__null(w, "addr");
				else
					pms_json__str(w, "addr", buf);
				pms_json__str(w, "level", pms_hist__level(e->kind));
				if (!e->sym) {
					static const char *const why[] = {
						[PMS_RES_OK] = "ok", [PMS_RES_NO_SYM] = "no symbol",
						[PMS_RES_NO_FILE] = "file missing", [PMS_RES_STALE] = "binary rebuilt",
						[PMS_RES_RESTRICTED] = "kernel symbols restricted",
						[PMS_RES_NO_KERNEL] = "kernel symbols not here",
						[PMS_RES_STRIPPED] = "stripped binary",
					};

					if (e->dso && !strcmp(e->dso, "[unknown]"))
						pms_json__str(w, "unresolved", "no mapping");
					else
						pms_json__str(w, "unresolved", e->status <= PMS_RES_STRIPPED ? why[e->status] : "?");
				}
				break;
			case PMS_SORT_SRCLINE:
				pms_json__str(w, "srcline", e->srcline);
				break;
			case PMS_SORT_CPU:
				if (e->cpu == UINT32_MAX)
					pms_json__null(w, "cpu");
				else
					pms_json__uint(w, "cpu", e->cpu);
				break;
			case PMS_SORT_DSO_FROM:
			case PMS_SORT_SYM_FROM:
				if (!from_done)
					json_branch_end(w, "from", &e->from, has_key(v, PMS_SORT_SYM_FROM));
				from_done = true;
				break;
			case PMS_SORT_DSO_TO:
			case PMS_SORT_SYM_TO:
				if (!to_done)
					json_branch_end(w, "to", &e->to, has_key(v, PMS_SORT_SYM_TO));
				to_done = true;
				break;
			case PMS_SORT_CYCLES:
				if (e->cycles)
					pms_json__uint(w, "cycles", e->cycles);
				else
					pms_json__null(w, "cycles");
				break;
			case PMS_SORT_MISPREDICT:
				pms_json__str(w, "mispredict", e->predicted ? "N" : e->mispred ? "Y" : NULL);
				break;
			default:
				break;
			}
		}
		if (t->nr_members > 1) {
			pms_json__arr(w, "group");
			for (size_t m = 0; m < t->nr_members; m++) {
				pms_json__obj(w, NULL);
				json_weights(w, r->members[m], t->events[m] ? t->events[m]->period : 0);
				pms_json__end(w);
			}
			pms_json__end(w);
		}
		if (v->graph) {
			const struct pms_cg_node *root = le ? pms_cg__node(cg, le->cg_root) : NULL;
			struct json_ctx j = { .w = w, .h = v->h, .cg = cg, .total = lead_period, .min_hit = min_hit };

			pms_json__arr(w, "callchains");
			if (root)
				for (uint32_t c = root->first_child; c; c = pms_cg__node(cg, c)->next_sibling) {
					if (pms_cg__node(cg, c)->period < min_hit)
						break;
					json_paths(&j, c);
				}
			pms_json__end(w);
			free(j.path);
		}
		pms_json__end(w);
	}
	pms_json__end(w);
}

void report_json_entries(struct pms_json *w, const struct report_view *v, const struct pms_hist_event *ev)
{
	const struct pms_hist_event *evs[1] = { ev };
	struct pms_hist_group_row *r = event_rows(ev);
	struct rows t = { .nr_members = 1, .events = evs, .rows = r, .nr_rows = ev->nr_entries };

	json_rows(w, v, &t);
	free(r);
}

void report_json_group_entries(struct pms_json *w, const struct report_view *v, const struct pms_hist_group *g)
{
	struct rows t = { .nr_members = g->nr_members, .events = g->events, .rows = g->rows, .nr_rows = g->nr_rows };

	json_rows(w, v, &t);
}

void report_print_chain_check(FILE *f, const char *prefix, const struct pms_chaincheck_result *cc)
{
	struct strbuf sb = STRBUF_INIT;

	if (pms_chaincheck__describe(cc, &sb))
		fprintf(f, "%scall chains: %s\n", prefix, strbuf_str(&sb));
	strbuf_release(&sb);
}
