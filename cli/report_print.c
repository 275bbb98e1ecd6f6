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
	case PMS_SORT_PARENT:
		snprintf(buf, sz, "%s", e->parent ? e->parent : "[other]");
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
	case PMS_SORT_PARENT: return "Parent symbol";
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

static bool has_key(const struct report_view *v, enum pms_sort_key key);

/* The member columns of one table: one member for an event, the group's for a group view. */
struct rows {
	size_t nr_members;
	const struct pms_hist_event *const *events; /* per member; NULL: no samples */
	const struct pms_hist_group_row *rows;
	size_t nr_rows;
};

uint64_t report_total(const struct report_view *v, const struct pms_hist_event *ev)
{
	if (!ev)
		return 0;
	return v->relative ? ev->period - ev->hidden_period : ev->period;
}

/* As perf: the leader's share (children in children mode) against the limit. */
static bool row_shown(const struct report_view *v, const struct rows *t, const struct pms_hist_group_row *r)
{
	const struct pms_hist_entry *e = r->members[0];
	uint64_t p = !e ? 0 : v->children ? e->children_period : e->self_period;

	/* -U: perf drops unresolved frames from chains too, so no caller-only row of one shows */
	if (v->hide_unresolved && r->key && !r->key->sym && has_key(v, PMS_SORT_SYM))
		return false;
	return pct(p, report_total(v, t->events[0])) >= v->percent_limit;
}

struct field_row {
	struct pms_hist_group_row row;
	size_t pos;
};

static const struct report_view *field_view; /* qsort's context */

static uint64_t col_weight(const struct report_column *c, const struct pms_hist_entry *e)
{
	switch (c->type) {
	case REPORT_COL_CHILDREN: return e->children_period;
	case REPORT_COL_SYS: return e->self_period_sys;
	case REPORT_COL_US: return e->self_period_us;
	case REPORT_COL_SAMPLES: return e->self_samples;
	default: return e->self_period;
	}
}

static int cmp_str_null_last(const char *a, const char *b)
{
	if (!a || !b)
		return a ? -1 : b ? 1 : 0;
	return strcmp(a, b);
}

/* perf's sort of a key field: names ascending, what has none after (sort__dso_cmp, sort__sym_sort). */
static int cmp_key(enum pms_sort_key k, const struct pms_hist_entry *x, const struct pms_hist_entry *y)
{
	char a[1024], b[1024];

	switch (k) {
	case PMS_SORT_COMM:
		return cmp_str_null_last(x->comm, y->comm);
	case PMS_SORT_PID:
		return x->pid < y->pid ? -1 : x->pid > y->pid;
	case PMS_SORT_TID:
		return x->tid < y->tid ? -1 : x->tid > y->tid;
	case PMS_SORT_CPU:
		return x->cpu < y->cpu ? -1 : x->cpu > y->cpu;
	case PMS_SORT_DSO: {
		const char *p = x->dso && strcmp(x->dso, "[unknown]") ? x->dso : NULL;
		const char *q = y->dso && strcmp(y->dso, "[unknown]") ? y->dso : NULL;

		if (!p || !q)
			return cmp_str_null_last(p, q);
		snprintf(a, sizeof(a), "%s", report_dso_short(p));
		return strcmp(a, report_dso_short(q));
	}
	case PMS_SORT_SYM:
		if (x->sym || y->sym)
			return cmp_str_null_last(x->sym, y->sym);
		return x->addr < y->addr ? -1 : x->addr > y->addr;
	default:
		key_text(k, x, 0, a, sizeof(a));
		key_text(k, y, 0, b, sizeof(b));
		return strcmp(a, b);
	}
}

/* perf's order when -F gives the fields without -s: each field in turn, weights heaviest first. */
static int cmp_field_rows(const void *pa, const void *pb)
{
	const struct field_row *x = pa, *y = pb;

	for (size_t c = 0; c < field_view->nr_cols; c++) {
		const struct report_column *col = &field_view->cols[c];
		int r;

		if (col->type == REPORT_COL_KEY) {
			r = cmp_key(col->key, x->row.key, y->row.key);
		} else {
			uint64_t wx = col_weight(col, x->row.key), wy = col_weight(col, y->row.key);

			r = wx == wy ? 0 : wx > wy ? -1 : 1;
		}
		if (r)
			return r;
	}
	return x->pos < y->pos ? -1 : x->pos > y->pos;
}

/*
 * One event's entries as rows of one member (borrowed pointers; free the
 * array); in the -F fields' order when the view asks.
 */
static struct pms_hist_group_row *event_rows(const struct report_view *v, const struct pms_hist_event *ev)
{
	struct pms_hist_group_row *r = xmalloc((ev->nr_entries ? ev->nr_entries : 1) * sizeof(*r));

	for (size_t i = 0; i < ev->nr_entries; i++) {
		r[i].members = (const struct pms_hist_entry **)&ev->entries[i];
		r[i].key = ev->entries[i];
	}
	if (v->fields_order && v->cols && ev->nr_entries > 1) {
		struct field_row *t = xmalloc(ev->nr_entries * sizeof(*t));

		for (size_t i = 0; i < ev->nr_entries; i++)
			t[i] = (struct field_row){ .row = r[i], .pos = i };
		field_view = v;
		qsort(t, ev->nr_entries, sizeof(*t), cmp_field_rows);
		for (size_t i = 0; i < ev->nr_entries; i++)
			r[i] = t[i].row;
		free(t);
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
	const struct report_view *v;
	const struct pms_hist *h;
	const struct pms_cg *cg;
	uint64_t total, min_hit;
	bool mask[MAX_GRAPH_DEPTH + 1];
};

/* perf's callchain value of a node: its share of total, its period or its sample count (-g percent|period|count). */
static void graph_value(const struct report_view *v, uint64_t period, uint64_t samples, uint64_t total, char *buf,
			size_t sz)
{
	if (v->graph_value == REPORT_VALUE_PERIOD)
		snprintf(buf, sz, "%" PRIu64, period);
	else if (v->graph_value == REPORT_VALUE_COUNT)
		snprintf(buf, sz, "%" PRIu64, samples);
	else
		snprintf(buf, sz, "%.2f%%", pct(period, total));
}

/* The children's sum of a node: perf's children_hit, the base of -g fractal's percentages. */
static uint64_t children_period(const struct pms_cg *cg, const struct pms_cg_node *x)
{
	uint64_t sum = 0;

	for (uint32_t c = x->first_child; c; c = pms_cg__node(cg, c)->next_sibling)
		sum += pms_cg__node(cg, c)->period;
	return sum;
}

/*
 * The children of node at depth. total is the percentages' base: the event's
 * total, or with -g fractal the parent's (perf's CHAIN_GRAPH_REL, whose
 * threshold is of the parent too).
 */
static size_t graph_level(struct graph_ctx *g, uint32_t node, int depth, int lm, uint64_t total)
{
	size_t lines = 0;
	const struct pms_cg_node *x = pms_cg__node(g->cg, node);
	bool fractal = g->v->graph_mode == REPORT_FRACTAL;
	uint64_t min_hit = g->min_hit, shown = 0, rest = 0;
	int printed = 0, nr_shown = 0;
	char name[1024], val[64];

	if (depth > MAX_GRAPH_DEPTH)
		return 0;
	if (fractal) {
		/* perf's threshold is of the children's sum (children_hit, rounded up), even where the
		 * percentages are of the entry's weight (the first level) */
		double m = (double)children_period(g->cg, x) * g->v->cg_min_percent / 100.0;

		min_hit = (uint64_t)m;
		if ((double)min_hit < m)
			min_hit++;
	}
	/* the children that print, and (fractal) what the others weigh: perf's "[...]" line */
	for (uint32_t c = x->first_child; c; c = pms_cg__node(g->cg, c)->next_sibling) {
		const struct pms_cg_node *cn = pms_cg__node(g->cg, c);

		if (cn->period < min_hit || (g->v->print_limit && nr_shown >= g->v->print_limit))
			break;
		nr_shown++;
		shown += cn->period;
	}
	if (fractal && nr_shown && total > shown)
		rest = total - shown;
	for (uint32_t c = x->first_child; c && printed < nr_shown; c = pms_cg__node(g->cg, c)->next_sibling) {
		const struct pms_cg_node *cn = pms_cg__node(g->cg, c);
		bool last = printed + 1 == nr_shown && !rest;
		bool old = g->mask[depth - 1];
		uint32_t end;

		printed++;
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
				if (n == c && i == depth - 1) {
					graph_value(g->v, cn->period, cn->samples, total, val, sizeof(val));
					fprintf(g->f, "--%s--", val);
				} else
					fputs("          ", g->f);
			}
			frame_name(g->h, pms_cg__node(g->cg, n)->frame, name, sizeof(name));
			fprintf(g->f, "%s\n", name);
			lines++;
		}
		g->mask[depth] = true;
		lines += graph_level(g, end, depth + 1, lm,
				     fractal ? children_period(g->cg, pms_cg__node(g->cg, end)) : total);
		g->mask[depth - 1] = old;
	}
	if (rest) {
		bool old = g->mask[depth - 1];

		/* perf prints it straight after the last child, without a separator line */
		g->mask[depth - 1] = false;
		margin(g->f, lm);
		for (int i = 0; i < depth; i++) {
			fputc(g->mask[i] ? '|' : ' ', g->f);
			if (i == depth - 1) {
				graph_value(g->v, rest, 0, total, val, sizeof(val));
				fprintf(g->f, "--%s--", val);
			} else {
				fputs("          ", g->f);
			}
		}
		fputs("[...]\n", g->f);
		lines++;
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
	g.v = v;
	g.h = v->h;
	g.cg = pms_hist__cg(v->h);
	g.total = report_total(v, ev);
	g.min_hit = (uint64_t)((double)g.total * v->cg_min_percent / 100.0);
	root = pms_cg__node(g.cg, e->cg_root);
	if (!root)
		return;
	if (v->graph_mode == REPORT_FRACTAL)
		g.min_hit = (uint64_t)((double)root->period * v->cg_min_percent / 100.0);
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
	/* fractal: the first level is of the entry's weight, as perf's parent_samples */
	nout += graph_level(&g, start, 1, lm, v->graph_mode == REPORT_FRACTAL ? root->period : g.total);
	if (nout)
		fputc('\n', f);
}

/* A path of flat or folded mode: the node it ends at. */
struct path_end {
	uint32_t node;
	uint64_t weight; /* what sorts it: the samples that end there (perf's node->hit) */
};

static void collect_ends(const struct pms_cg *cg, uint32_t node, uint64_t min_hit, struct path_end **v, size_t *nr,
			 size_t *alloc, int depth)
{
	const struct pms_cg_node *x = pms_cg__node(cg, node);
	uint64_t self = x->period - children_period(cg, x);

	if (depth > MAX_GRAPH_DEPTH)
		return;
	if (x->frame != UINT32_MAX && self && self >= min_hit) {
		if (pms_array__reserve(v, alloc, *nr + 1, sizeof(**v)))
			die("out of memory");
		(*v)[(*nr)++] = (struct path_end){ .node = node, .weight = self };
	}
	for (uint32_t c = x->first_child; c; c = pms_cg__node(cg, c)->next_sibling)
		collect_ends(cg, c, min_hit, v, nr, alloc, depth + 1);
}

static int path_end_cmp(const void *a, const void *b)
{
	const struct path_end *x = a, *y = b;

	if (x->weight != y->weight)
		return x->weight > y->weight ? -1 : 1;
	return x->node < y->node ? -1 : x->node > y->node;
}

/* The frames from the tree's top down to node, separated by sep. */
static void print_path(FILE *f, const struct pms_hist *h, const struct pms_cg *cg, uint32_t node, const char *before,
		       const char *sep)
{
	const struct pms_cg_node *x = pms_cg__node(cg, node);
	char name[1024];

	if (x->parent && pms_cg__node(cg, x->parent)->frame != UINT32_MAX) {
		print_path(f, h, cg, x->parent, before, sep);
		fputs(sep, f);
	}
	frame_name(h, x->frame, name, sizeof(name));
	fprintf(f, "%s%s", before, name);
}

/*
 * perf's flat and folded call graphs: every path that samples end at and
 * whose ending samples reach the threshold (of the event's total), heaviest
 * first. flat shows the node's whole weight, one frame a line; folded the
 * ending samples' on one "a;b;c" line (perf's callchain__fprintf_flat/folded).
 */
static void print_paths(FILE *f, const struct report_view *v, const struct pms_hist_event *ev,
			const struct pms_hist_entry *e)
{
	const struct pms_cg *cg = pms_hist__cg(v->h);
	const struct pms_cg_node *root = pms_cg__node(cg, e->cg_root);
	uint64_t total = report_total(v, ev);
	uint64_t min_hit = (uint64_t)((double)total * v->cg_min_percent / 100.0);
	struct path_end *ends = NULL;
	size_t nr = 0, alloc = 0;
	char val[64];

	if (!root)
		return;
	collect_ends(cg, e->cg_root, min_hit, &ends, &nr, &alloc, 0);
	qsort(ends, nr, sizeof(*ends), path_end_cmp);
	for (size_t i = 0; i < nr && (!v->print_limit || i < (size_t)v->print_limit); i++) {
		const struct pms_cg_node *x = pms_cg__node(cg, ends[i].node);

		if (v->graph_mode == REPORT_FOLDED) {
			/* the ending samples: perf's node->hit and node->count */
			uint64_t self_samples = x->samples;

			for (uint32_t c = x->first_child; c; c = pms_cg__node(cg, c)->next_sibling)
				self_samples -= pms_cg__node(cg, c)->samples;
			graph_value(v, ends[i].weight, self_samples, total, val, sizeof(val));
			fprintf(f, "%s ", val);
			print_path(f, v->h, cg, ends[i].node, "", ";");
			fputc('\n', f);
		} else {
			graph_value(v, x->period, x->samples, total, val, sizeof(val));
			fprintf(f, "           %s\n", val);
			print_path(f, v->h, cg, ends[i].node, "                ", "\n");
			fputs("\n\n", f);
		}
	}
	free(ends);
}

/* -------------------------------------------------------------- stdio -- */

/* perf's default columns: Children, Self (or Overhead), sys, usr, Samples, Period, then the keys. */
static size_t default_columns(const struct report_view *v, struct report_column *c)
{
	size_t n = 0;

	if (v->children)
		c[n++].type = REPORT_COL_CHILDREN;
	c[n++].type = REPORT_COL_SELF;
	if (v->cpu_util) {
		c[n++].type = REPORT_COL_SYS;
		c[n++].type = REPORT_COL_US;
	}
	if (v->nr_samples)
		c[n++].type = REPORT_COL_SAMPLES;
	if (v->total_period)
		c[n++].type = REPORT_COL_PERIOD;
	for (size_t k = 0; k < v->nr_keys && n < REPORT_MAX_COLS; k++) {
		c[n].type = REPORT_COL_KEY;
		c[n++].key = v->keys[k];
	}
	return n;
}

static const char *col_title(const struct report_view *v, const struct report_column *c)
{
	switch (c->type) {
	case REPORT_COL_CHILDREN: return "Children";
	case REPORT_COL_SELF: return v->children && !v->cols ? "Self" : "Overhead";
	case REPORT_COL_SYS: return "sys";
	case REPORT_COL_US: return "usr";
	case REPORT_COL_SAMPLES: return "Samples";
	case REPORT_COL_PERIOD: return "Period";
	default: return key_header(c->key);
	}
}

/* perf's widths: 8 for a percentage, 12 for a count (per group member). */
static int col_value_width(const struct report_column *c)
{
	return c->type == REPORT_COL_SAMPLES || c->type == REPORT_COL_PERIOD ? 12 : 8;
}

/* One member's value of a weight column. */
static void col_value(const struct report_view *v, const struct report_column *c, const struct pms_hist_entry *e,
		      const struct pms_hist_event *ev, char *buf, size_t sz)
{
	uint64_t total = report_total(v, ev), p = 0;

	switch (c->type) {
	case REPORT_COL_SAMPLES:
		snprintf(buf, sz, "%" PRIu64, e ? e->self_samples : 0);
		return;
	case REPORT_COL_PERIOD:
		snprintf(buf, sz, "%" PRIu64, e ? e->self_period : 0);
		return;
	case REPORT_COL_CHILDREN: p = e ? e->children_period : 0; break;
	case REPORT_COL_SELF: p = e ? e->self_period : 0; break;
	case REPORT_COL_SYS: p = e ? e->self_period_sys : 0; break;
	case REPORT_COL_US: p = e ? e->self_period_us : 0; break;
	default: break;
	}
	snprintf(buf, sz, "%.2f%%", pct(p, total));
}

/* Does the column print its text unpadded (perf's symbol and srcline columns when last)? */
static bool col_unpadded(const struct report_column *c, bool last)
{
	return last && c->type == REPORT_COL_KEY &&
	       (c->key == PMS_SORT_SYM || c->key == PMS_SORT_SRCLINE || c->key == PMS_SORT_SYM_FROM ||
		c->key == PMS_SORT_SYM_TO);
}

static void print_entry_graph(FILE *f, const struct report_view *v, const struct pms_hist_event *ev,
			      const struct pms_hist_entry *e)
{
	if (v->graph_mode == REPORT_FLAT || v->graph_mode == REPORT_FOLDED)
		print_paths(f, v, ev, e);
	else
		print_graph(f, v, ev, e);
}

static void print_rows(FILE *f, const struct report_view *v, const struct rows *t)
{
	struct report_column defcols[REPORT_MAX_COLS];
	const struct report_column *cols = v->cols;
	size_t nc = v->nr_cols;
	int w[REPORT_MAX_COLS];
	size_t n = t->nr_members;
	const char *sep = v->field_sep;
	char buf[2048];

	if (!cols) {
		nc = default_columns(v, defcols);
		cols = defcols;
	}
	for (size_t c = 0; c < nc; c++) {
		if (cols[c].type != REPORT_COL_KEY) {
			w[c] = (int)n * col_value_width(&cols[c]);
			continue;
		}
		if (c < v->nr_widths && v->widths[c] > 0) {
			w[c] = v->widths[c]; /* -w: perf cuts titles and texts to it */
			continue;
		}
		w[c] = (int)strlen(key_header(cols[c].key));
		for (size_t i = 0; i < t->nr_rows; i++) {
			int x = key_min_width(cols[c].key, t->rows[i].key);

			if (x > w[c])
				w[c] = x;
		}
	}
	/* header and dots: a group's columns are n times as wide, titles right-aligned, as perf's */
	fputs("# ", f);
	for (size_t c = 0; c < nc; c++) {
		bool right = cols[c].type != REPORT_COL_KEY || cols[c].key == PMS_SORT_PID || cols[c].key == PMS_SORT_TID;

		if (sep)
			fprintf(f, "%s%s", c ? sep : "", col_title(v, &cols[c]));
		else
			fprintf(f, right ? "%s%*.*s" : "%s%-*.*s", c ? "  " : "", w[c], w[c], col_title(v, &cols[c]));
	}
	if (!sep) {
		fputs("\n# ", f);
		for (size_t c = 0; c < nc; c++) {
			fputs(c ? "  " : "", f);
			for (int i = 0; i < w[c]; i++)
				fputc('.', f);
		}
		fputs("\n#", f);
	}
	fputc('\n', f);
	for (size_t i = 0; i < t->nr_rows; i++) {
		const struct pms_hist_group_row *r = &t->rows[i];

		if (!row_shown(v, t, r))
			continue;
		if (!sep)
			fputs("  ", f);
		for (size_t c = 0; c < nc; c++) {
			const struct report_column *col = &cols[c];

			if (col->type != REPORT_COL_KEY) {
				/* each member's share of its own event's total; 0.00% where it has no such entry */
				for (size_t m = 0; m < n; m++) {
					col_value(v, col, r->members[m], t->events[m], buf, sizeof(buf));
					if (sep)
						fprintf(f, "%s%s", c || m ? sep : "", buf);
					else
						fprintf(f, "%s%*s", c && !m ? "  " : "", col_value_width(col), buf);
				}
				continue;
			}
			key_text(col->key, r->key, sep ? 0 : w[c], buf, sizeof(buf));
			if (sep)
				fprintf(f, "%s%s", c ? sep : "", buf);
			else if (c < v->nr_widths && v->widths[c] > 0)
				fprintf(f, "%s%-*.*s", c ? "  " : "", col_unpadded(col, c + 1 == nc) ? 0 : w[c], w[c], buf);
			else if (col_unpadded(col, c + 1 == nc))
				fprintf(f, "%s%s", c ? "  " : "", buf);
			else
				fprintf(f, "%s%-*s", c ? "  " : "", w[c], buf);
		}
		fputc('\n', f);
		/* a group shows its leader's graph (perf's linked entries of the members have none) */
		if (v->graph && r->members[0] && t->events[0])
			print_entry_graph(f, v, t->events[0], r->members[0]);
	}
	fputs("\n\n", f);
}

void report_print_stdio(FILE *f, const struct report_view *v, const struct pms_hist_event *ev)
{
	const struct pms_hist_event *evs[1] = { ev };
	struct pms_hist_group_row *r = event_rows(v, ev);
	struct rows t = { .nr_members = 1, .events = evs, .rows = r, .nr_rows = ev->nr_entries };

	print_rows(f, v, &t);
	free(r);
}

void report_print_group_stdio(FILE *f, const struct report_view *v, const struct pms_hist_group *g)
{
	struct rows t = { .nr_members = g->nr_members, .events = g->events, .rows = g->rows, .nr_rows = g->nr_rows };

	print_rows(f, v, &t);
}

/* ---------------------------------------------------------- hierarchy -- */

/* perf's HIERARCHY_INDENT: each level is that much further right. */
#define HIERARCHY_INDENT 3

struct hier_item {
	const struct pms_hist_entry *e;
	char **labels; /* one per key, unpadded */
};

struct hier_node {
	size_t item;          /* the first item of its run */
	size_t depth;
	uint64_t period;
	size_t *children;
	size_t nr_children;
};

static size_t hier_nr_keys; /* qsort's context */

static int hier_item_cmp(const void *a, const void *b)
{
	const struct hier_item *x = a, *y = b;

	for (size_t k = 0; k < hier_nr_keys; k++) {
		int c = strcmp(x->labels[k], y->labels[k]);

		if (c)
			return c;
	}
	return 0;
}

static const struct hier_node *hier_nodes; /* qsort's context */

static int hier_child_cmp(const void *a, const void *b)
{
	const struct hier_node *x = &hier_nodes[*(const size_t *)a], *y = &hier_nodes[*(const size_t *)b];

	if (x->period != y->period)
		return x->period > y->period ? -1 : 1;
	return x->item < y->item ? -1 : x->item > y->item;
}

/* Nodes of items[from, to) at depth under parent (appended to *nodes). */
static void hier_build(struct hier_item *items, size_t from, size_t to, size_t depth, size_t nr_keys,
		       struct hier_node **nodes, size_t *nr, size_t *alloc, size_t parent)
{
	size_t i = from;

	while (i < to) {
		size_t j = i + 1, id;

		while (j < to && !strcmp(items[j].labels[depth], items[i].labels[depth]))
			j++;
		if (pms_array__reserve(nodes, alloc, *nr + 1, sizeof(**nodes)))
			die("out of memory");
		id = (*nr)++;
		(*nodes)[id] = (struct hier_node){ .item = i, .depth = depth };
		for (size_t k = i; k < j; k++)
			(*nodes)[id].period += items[k].e->self_period;
		if (parent != SIZE_MAX) {
			struct hier_node *pn = &(*nodes)[parent];

			pn->children = xrealloc(pn->children, (pn->nr_children + 1) * sizeof(*pn->children));
			pn->children[pn->nr_children++] = id;
		}
		if (depth + 1 < nr_keys)
			hier_build(items, i, j, depth + 1, nr_keys, nodes, nr, alloc, id);
		i = j;
	}
}

static void hier_print(FILE *f, const struct report_view *v, const struct pms_hist_event *ev,
		       struct hier_item *items, struct hier_node *nodes, size_t id, const int *w)
{
	struct hier_node *x = &nodes[id];
	const struct hier_item *it = &items[x->item];
	enum pms_sort_key k = v->keys[x->depth];
	bool last = x->depth + 1 == v->nr_keys;
	char buf[2048], val[32];

	if (pct(x->period, report_total(v, ev)) < v->percent_limit)
		return;
	snprintf(val, sizeof(val), "%.2f%%", pct(x->period, report_total(v, ev)));
	key_text(k, it->e, w[x->depth], buf, sizeof(buf));
	fprintf(f, "%*s  %8s%*s  ", (int)(x->depth * HIERARCHY_INDENT), "", val,
		(int)((v->nr_keys - 1) * HIERARCHY_INDENT), "");
	if (last && (k == PMS_SORT_SYM || k == PMS_SORT_SRCLINE))
		fprintf(f, "%s\n", buf);
	else
		fprintf(f, "%-*s\n", w[x->depth], buf);
	if (last) {
		if (v->graph)
			print_entry_graph(f, v, ev, it->e);
		return;
	}
	hier_nodes = nodes;
	qsort(x->children, x->nr_children, sizeof(*x->children), hier_child_cmp);
	for (size_t c = 0; c < x->nr_children; c++)
		hier_print(f, v, ev, items, nodes, x->children[c], w);
}

/* perf's --hierarchy: one level per sort key, each the sum of the entries under it, heaviest first. */
void report_print_hierarchy(FILE *f, const struct report_view *v, const struct pms_hist_event *ev)
{
	size_t nk = v->nr_keys, nr = 0, alloc = 0, *tops = NULL, nr_tops = 0;
	struct hier_item *items = xcalloc(ev->nr_entries ? ev->nr_entries : 1, sizeof(*items));
	struct hier_node *nodes = NULL;
	int w[PMS_HIST_MAX_KEYS], dots = 0;
	char buf[2048];

	for (size_t k = 0; k < nk; k++) {
		int d;

		w[k] = (int)strlen(key_header(v->keys[k]));
		for (size_t i = 0; i < ev->nr_entries; i++) {
			int x = key_min_width(v->keys[k], ev->entries[i]);

			if (x > w[k])
				w[k] = x;
		}
		d = (int)k * HIERARCHY_INDENT + w[k];
		if (d > dots)
			dots = d;
	}
	for (size_t i = 0; i < ev->nr_entries; i++) {
		items[i].e = ev->entries[i];
		items[i].labels = xcalloc(nk, sizeof(char *));
		for (size_t k = 0; k < nk; k++) {
			key_text(v->keys[k], ev->entries[i], 0, buf, sizeof(buf));
			items[i].labels[k] = xstrdup(buf);
		}
	}
	hier_nr_keys = nk;
	qsort(items, ev->nr_entries, sizeof(*items), hier_item_cmp);
	hier_build(items, 0, ev->nr_entries, 0, nk, &nodes, &nr, &alloc, SIZE_MAX);
	for (size_t i = 0; i < nr; i++)
		if (!nodes[i].depth) {
			tops = xrealloc(tops, (nr_tops + 1) * sizeof(*tops));
			tops[nr_tops++] = i;
		}
	fprintf(f, "# %*s  ", 8 + (int)((nk - 1) * HIERARCHY_INDENT), "Overhead");
	for (size_t k = 0; k < nk; k++)
		fprintf(f, "%s%s", k ? " / " : "", key_header(v->keys[k]));
	fprintf(f, "\n# ");
	for (int i = 0; i < 8 + (int)((nk - 1) * HIERARCHY_INDENT); i++)
		fputc('.', f);
	fputs("  ", f);
	for (int i = 0; i < dots; i++)
		fputc('.', f);
	fputs("\n#\n", f);
	hier_nodes = nodes;
	qsort(tops, nr_tops, sizeof(*tops), hier_child_cmp);
	for (size_t t = 0; t < nr_tops; t++)
		hier_print(f, v, ev, items, nodes, tops[t], w);
	fputs("\n\n", f);
	for (size_t i = 0; i < nr; i++)
		free(nodes[i].children);
	free(nodes);
	free(tops);
	for (size_t i = 0; i < ev->nr_entries; i++) {
		for (size_t k = 0; k < nk; k++)
			free(items[i].labels[k]);
		free(items[i].labels);
	}
	free(items);
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
static void json_weights(struct pms_json *w, const struct report_view *v, const struct pms_hist_entry *e,
			 uint64_t total)
{
	pms_json__num(w, "children", pct(e ? e->children_period : 0, total), 4);
	pms_json__num(w, "self", pct(e ? e->self_period : 0, total), 4);
	/* a branch has no privilege level of its own */
	if (!v->branch) {
		pms_json__num(w, "sys", pct(e ? e->self_period_sys : 0, total), 4);
		pms_json__num(w, "usr", pct(e ? e->self_period_us : 0, total), 4);
	}
	pms_json__uint(w, "children_period", e ? e->children_period : 0);
	pms_json__uint(w, "self_period", e ? e->self_period : 0);
	pms_json__uint(w, "children_samples", e ? e->children_samples : 0);
	pms_json__uint(w, "self_samples", e ? e->self_samples : 0);
}

static void json_rows(struct pms_json *w, const struct report_view *v, const struct rows *t)
{
	const struct pms_cg *cg = pms_hist__cg(v->h);
	const struct pms_hist_event *lead = t->events[0];
	uint64_t lead_period = report_total(v, lead);
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
		json_weights(w, v, le, lead_period);
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
			case PMS_SORT_PARENT:
				pms_json__str(w, "parent", e->parent);
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
				json_weights(w, v, r->members[m], report_total(v, t->events[m]));
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
	struct pms_hist_group_row *r = event_rows(v, ev);
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
