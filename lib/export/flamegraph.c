// SPDX-License-Identifier: MIT
// Flame graphs from a stacks tree: a self-contained HTML page (data as compact JSON, laid out and drawn by the embedded script) and a static SVG laid out here.
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export/export.h"
#include "export/flamegraph_assets.h"
#include "util/array.h"
#include "util/json.h"

/*
 * The tree actually drawn: the source nodes kept in preorder (root first,
 * children in the tree's order), with the children of each node that are
 * narrower than the threshold folded into one "(merged)" node after its
 * kept siblings. Preorder plus a parent index is all the page needs to lay
 * it out, and keeps the embedded JSON small.
 */
#define FG_NONE UINT32_MAX

enum fg_kind { /* the page's kind numbers: stacks kinds, then two of its own */
	FG_KIND_ROOT = PMS_STACK_THREAD + 1,
	FG_KIND_MERGED,
};

static const char *const kind_names[] = {
	"user", "kernel", "jit", "inlined", "unknown", "process", "thread", "root", "merged",
};

struct fg_node {
	uint32_t src;      /* source node, FG_NONE for a merged node */
	uint32_t parent;   /* kept index; the root's is 0 */
	uint32_t frame;    /* output frame index */
	uint32_t depth;
	uint64_t samples, period;
	uint64_t x;        /* offset from the graph's left edge, in weight units */
	uint64_t base_samples, base_period; /* diff: the same path in opts.base */
	uint32_t nr_merged; /* source nodes folded in (merged nodes) */
};

struct fg_frame {
	const char *name, *dso;
	uint32_t kind;
	bool owned; /* name allocated here ("comm [pid]") */
};

struct fg {
	struct fg_node *nodes;
	size_t nr, cap;
	struct fg_frame *frames;
	size_t nr_frames;
	uint32_t *frame_map;   /* source frame id -> output frame, FG_NONE unseen */
	uint64_t nr_merged_src; /* source nodes hidden in merged nodes */
	bool weight_period;
};

static uint64_t node_weight(const struct pms_stack_node *n, bool period)
{
	return period ? n->total_period : n->total_samples;
}

static uint64_t fg_weight(const struct fg_node *n, bool period)
{
	return period ? n->period : n->samples;
}

static void fg_free(struct fg *g)
{
	for (size_t i = 0; i < g->nr_frames; i++)
		if (g->frames[i].owned)
			free((char *)g->frames[i].name);
	free(g->nodes);
	free(g->frames);
	free(g->frame_map);
	memset(g, 0, sizeof(*g));
}

static struct fg_node *fg_push(struct fg *g)
{
	if (pms_array__reserve(&g->nodes, &g->cap, g->nr + 1, sizeof(*g->nodes)))
		return NULL;
	memset(&g->nodes[g->nr], 0, sizeof(g->nodes[0]));
	return &g->nodes[g->nr++];
}

/* Output frames 0 and 1 are the root ("all") and "(merged)"; source frames follow as first used. */
static uint32_t fg_frame(struct fg *g, const struct pms_stack_frame *frames, uint32_t id)
{
	if (g->frame_map[id] == FG_NONE) {
		struct fg_frame *f = &g->frames[g->nr_frames];

		f->name = frames[id].name ? frames[id].name : "[unknown]";
		f->dso = frames[id].dso;
		/* --root pid/tid: one comm can be several processes; say which (as "comm [pid]") */
		if ((frames[id].kind == PMS_STACK_PROCESS && frames[id].pid) ||
		    (frames[id].kind == PMS_STACK_THREAD && frames[id].tid)) {
			size_t len = strlen(f->name) + 16;
			char *name = malloc(len);

			if (!name)
				return FG_NONE;
			snprintf(name, len, "%s [%u]", f->name,
				 frames[id].kind == PMS_STACK_PROCESS ? frames[id].pid : frames[id].tid);
			f->name = name;
			f->owned = true;
		}
		f->kind = (uint32_t)frames[id].kind;
		if (f->kind > PMS_STACK_THREAD)
			f->kind = PMS_STACK_UNKNOWN;
		g->frame_map[id] = (uint32_t)g->nr_frames++;
	}
	return g->frame_map[id];
}

struct fg_todo {
	uint32_t src;      /* FG_NONE: a merged node with the sums below */
	uint32_t parent;
	uint32_t nr_merged;
	uint64_t samples, period;
};

/*
 * Walk the source tree depth first; a child narrower than the threshold
 * goes into its parent's merged node, which is kept only if it reaches the
 * threshold itself (else its width stays the parent's own, like self time).
 */
static int fg_build(struct fg *g, const struct pms_stacks *st, const struct pms_flamegraph_opts *o)
{
	size_t nr_nodes = 0, nr_frames = 0, nr_todo = 0, cap_todo = 64;
	const struct pms_stack_node *nodes = pms_stacks__nodes(st, &nr_nodes);
	const struct pms_stack_frame *frames = pms_stacks__frames(st, &nr_frames);
	struct fg_todo *todo = NULL;
	uint64_t total, thr;
	double frac = o->min_width_fraction > 0 ? o->min_width_fraction : 1.0 / 20000;
	int err = -ENOMEM;

	memset(g, 0, sizeof(*g));
	g->weight_period = o->weight == PMS_WEIGHT_PERIOD;
	g->frames = calloc(nr_frames + 2, sizeof(*g->frames));
	g->frame_map = malloc((nr_frames + 1) * sizeof(*g->frame_map));
	todo = malloc(cap_todo * sizeof(*todo));
	if (!g->frames || !g->frame_map || !todo)
		goto out;
	memset(g->frame_map, 0xff, (nr_frames + 1) * sizeof(*g->frame_map));
	g->frames[0] = (struct fg_frame){ .name = "all", .kind = FG_KIND_ROOT };
	g->frames[1] = (struct fg_frame){ .name = "(merged)", .kind = FG_KIND_MERGED };
	g->nr_frames = 2;
	if (!nodes || !nr_nodes) {
		struct fg_node *r = fg_push(g);

		if (!r)
			goto out;
		r->src = FG_NONE;
		err = 0;
		goto out;
	}
	total = node_weight(&nodes[0], g->weight_period);
	thr = (uint64_t)((double)total * frac);
	todo[nr_todo++] = (struct fg_todo){ .src = 0 };
	while (nr_todo) {
		struct fg_todo t = todo[--nr_todo];
		struct fg_node *n = fg_push(g);
		uint32_t self;
		size_t first, nr_kids = 0;
		struct fg_todo merged = { .src = FG_NONE };

		if (!n)
			goto out;
		self = (uint32_t)(g->nr - 1);
		n->parent = t.parent;
		n->depth = self ? g->nodes[t.parent].depth + 1 : 0;
		n->src = t.src;
		if (t.src == FG_NONE) {
			n->frame = 1;
			n->samples = t.samples;
			n->period = t.period;
			n->nr_merged = t.nr_merged;
			continue;
		}
		n->samples = nodes[t.src].total_samples;
		n->period = nodes[t.src].total_period;
		n->frame = t.src == 0 || nodes[t.src].frame >= nr_frames ? 0 : fg_frame(g, frames, nodes[t.src].frame);
		if (n->frame == FG_NONE)
			goto out;
		/* children go on the stack last-first so they come out in tree order, merged last */
		merged.parent = self;
		first = nr_todo;
		for (uint32_t c = nodes[t.src].first_child; c && c < nr_nodes; c = nodes[c].next_sibling) {
			if (node_weight(&nodes[c], g->weight_period) < thr || node_weight(&nodes[c], g->weight_period) == 0) {
				merged.samples += nodes[c].total_samples;
				merged.period += nodes[c].total_period;
				merged.nr_merged++;
				continue;
			}
			if (nr_todo + 2 > cap_todo) {
				struct fg_todo *nt = realloc(todo, cap_todo * 2 * sizeof(*todo));

				if (!nt)
					goto out;
				todo = nt;
				cap_todo *= 2;
			}
			todo[nr_todo++] = (struct fg_todo){ .src = c, .parent = self };
			nr_kids++;
		}
		g->nr_merged_src += merged.nr_merged;
		if (merged.nr_merged && (g->weight_period ? merged.period : merged.samples) >= thr &&
		    (merged.samples || merged.period)) {
			g->nr_merged_src -= merged.nr_merged;
			if (nr_todo + 1 > cap_todo) {
				struct fg_todo *nt = realloc(todo, cap_todo * 2 * sizeof(*todo));

				if (!nt)
					goto out;
				todo = nt;
				cap_todo *= 2;
			}
			/* below the kept children on the stack: popped after all of them */
			memmove(&todo[first + 1], &todo[first], nr_kids * sizeof(*todo));
			todo[first] = merged;
			nr_todo++;
		}
		/* reverse the kids so the first child is popped first */
		for (size_t a = nr_todo - nr_kids, b = nr_todo; nr_kids && a < --b; a++) {
			struct fg_todo tmp = todo[a];

			todo[a] = todo[b];
			todo[b] = tmp;
		}
	}
	/* x offsets: each child starts where its previous sibling ended */
	{
		uint64_t *cursor = malloc(g->nr * sizeof(*cursor));

		if (!cursor)
			goto out;
		for (size_t i = 0; i < g->nr; i++) {
			struct fg_node *n = &g->nodes[i];

			if (i) {
				n->x = cursor[n->parent];
				cursor[n->parent] += fg_weight(n, g->weight_period);
			}
			cursor[i] = n->x;
		}
		free(cursor);
	}
	err = 0;
out:
	free(todo);
	if (err)
		fg_free(g);
	return err;
}

/* ------------------------------------------------------------- diff -- */

struct base_map {
	uint32_t *slots; /* base node ids, FG_NONE empty */
	size_t mask;
	const struct pms_stack_node *nodes;
	const struct pms_stack_frame *frames;
	size_t nr_frames;
};

static uint64_t name_hash(uint32_t parent, const char *s)
{
	uint64_t h = 1469598103934665603ULL ^ ((uint64_t)parent * 0x9e3779b97f4a7c15ULL);

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return h ^ (h >> 29);
}

static const char *base_name(const struct base_map *m, uint32_t id)
{
	uint32_t f = m->nodes[id].frame;

	return f < m->nr_frames && m->frames[f].name ? m->frames[f].name : "[unknown]";
}

static int base_map_init(struct base_map *m, const struct pms_stacks *base)
{
	size_t nr = 0, size = 16;

	memset(m, 0, sizeof(*m));
	m->nodes = pms_stacks__nodes(base, &nr);
	m->frames = pms_stacks__frames(base, &m->nr_frames);
	while (size < nr * 2)
		size *= 2;
	m->slots = malloc(size * sizeof(*m->slots));
	if (!m->slots)
		return -ENOMEM;
	memset(m->slots, 0xff, size * sizeof(*m->slots));
	m->mask = size - 1;
	for (uint32_t i = 1; i < nr; i++) {
		size_t h = (size_t)name_hash(m->nodes[i].parent, base_name(m, i)) & m->mask;
		bool dup = false;

		while (m->slots[h] != FG_NONE) {
			uint32_t o = m->slots[h];

			/* siblings with one name (several dsos): the first stands for the path */
			if (m->nodes[o].parent == m->nodes[i].parent && !strcmp(base_name(m, o), base_name(m, i))) {
				dup = true;
				break;
			}
			h = (h + 1) & m->mask;
		}
		if (!dup)
			m->slots[h] = i;
	}
	return 0;
}

static uint32_t base_map_find(const struct base_map *m, uint32_t parent, const char *name)
{
	size_t h = (size_t)name_hash(parent, name) & m->mask;

	while (m->slots[h] != FG_NONE) {
		uint32_t o = m->slots[h];

		if (m->nodes[o].parent == parent && !strcmp(base_name(m, o), name))
			return o;
		h = (h + 1) & m->mask;
	}
	return FG_NONE;
}

/* Each kept node's path, by frame names, looked up in base: its totals there (0 when absent). */
static int fg_diff(struct fg *g, const struct pms_stacks *base)
{
	struct base_map m;
	uint32_t *match;
	size_t nr = 0;

	pms_stacks__nodes(base, &nr);
	if (!nr)
		return 0;
	if (base_map_init(&m, base))
		return -ENOMEM;
	match = malloc(g->nr * sizeof(*match));
	if (!match) {
		free(m.slots);
		return -ENOMEM;
	}
	for (size_t i = 0; i < g->nr; i++) {
		struct fg_node *n = &g->nodes[i];
		uint32_t b = FG_NONE;

		if (i == 0)
			b = 0;
		else if (n->src != FG_NONE && match[n->parent] != FG_NONE)
			b = base_map_find(&m, match[n->parent], g->frames[n->frame].name);
		match[i] = b;
		if (b != FG_NONE) {
			n->base_samples = m.nodes[b].total_samples;
			n->base_period = m.nodes[b].total_period;
		}
	}
	free(match);
	free(m.slots);
	return 0;
}

/* ------------------------------------------------------------- text -- */

static void add_html(struct strbuf *out, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '<': strbuf_adds(out, "&lt;"); break;
		case '>': strbuf_adds(out, "&gt;"); break;
		case '&': strbuf_adds(out, "&amp;"); break;
		case '"': strbuf_adds(out, "&quot;"); break;
		case '\'': strbuf_adds(out, "&#39;"); break;
		default:
			/* XML 1.0 forbids most control characters even as references */
			if ((unsigned char)*s < 0x20 && *s != '\t' && *s != '\n')
				strbuf_addch(out, '?');
			else
				strbuf_addch(out, *s);
		}
	}
}

static const char *fg_title(const struct pms_flamegraph_opts *o)
{
	return o->title ? o->title : o->base ? "Differential Flame Graph" : "Flame Graph";
}

/* "cpu-clock: 1234 samples, 3 lost, 1 looping call chain collapsed", then the command (from the meta). */
static void fg_subtitle(const struct pms_stacks *st, const struct pms_flamegraph_opts *o, struct strbuf *out)
{
	const struct pms_stacks_meta *m = pms_stacks__meta(st);
	size_t nr = 0;
	const struct pms_stack_node *nodes = pms_stacks__nodes(st, &nr);
	uint64_t samples = nr ? nodes[0].total_samples : 0;

	if (o->subtitle) {
		strbuf_adds(out, o->subtitle);
		return;
	}
	if (m && m->event)
		strbuf_addf(out, "%s: ", m->event);
	strbuf_addf(out, "%" PRIu64 " %s", samples, m && m->sample_noun ? m->sample_noun : "samples");
	if (m && m->lost)
		strbuf_addf(out, ", %" PRIu64 " lost", m->lost);
	if (m && m->looped_chains)
		strbuf_addf(out, ", %" PRIu64 " looping call chain%s collapsed", m->looped_chains,
			    m->looped_chains == 1 ? "" : "s");
	if (m && m->command)
		strbuf_addf(out, " \xe2\x80\x94 %s", m->command);
}

/* ------------------------------------------------------------- html -- */

static void fg_json(const struct fg *g, const struct pms_stacks *st, const struct pms_flamegraph_opts *o,
		    const char *subtitle, struct strbuf *out)
{
	const struct pms_stacks_meta *m = pms_stacks__meta(st);
	struct pms_json j;

	pms_json__init(&j, out, false);
	pms_json__obj(&j, NULL);
	pms_json__int(&j, "version", 1);
	pms_json__str(&j, "title", fg_title(o));
	pms_json__str(&j, "subtitle", subtitle);
	pms_json__str(&j, "weight", g->weight_period ? "period" : "samples");
	pms_json__str(&j, "periodUnit", m && m->period_unit ? m->period_unit : "events");
	pms_json__str(&j, "sampleNoun", m && m->sample_noun ? m->sample_noun : "samples");
	pms_json__str(&j, "periodNoun", m && m->period_noun ? m->period_noun : "period");
	pms_json__bool(&j, "icicle", o->icicle);
	pms_json__uint(&j, "mergedSourceNodes", g->nr_merged_src);
	pms_json__uint(&j, "loopedChains", m ? m->looped_chains : 0);
	pms_json__arr(&j, "kinds");
	for (size_t i = 0; i < sizeof(kind_names) / sizeof(kind_names[0]); i++)
		pms_json__str(&j, NULL, kind_names[i]);
	pms_json__end(&j);
	pms_json__obj(&j, "frames");
	pms_json__arr(&j, "name");
	for (size_t i = 0; i < g->nr_frames; i++)
		pms_json__str(&j, NULL, g->frames[i].name);
	pms_json__end(&j);
	/* a dso path repeats for every frame in it: a table of them, one index per frame (-1: none) */
	{
		int64_t *idx = calloc(g->nr_frames ? g->nr_frames : 1, sizeof(*idx));
		size_t size = 64, nr_dsos = 0;
		const char **slots;

		while (size < g->nr_frames * 2)
			size *= 2;
		slots = calloc(size, sizeof(*slots) + sizeof(uint32_t));
		if (!idx || !slots) {
			out->oom = true;
			free(idx);
			free(slots);
			return;
		}
		{
			uint32_t *num = (uint32_t *)(slots + size);

			pms_json__arr(&j, "dsos");
			for (size_t i = 0; i < g->nr_frames; i++) {
				const char *d = g->frames[i].dso;
				size_t h;

				idx[i] = -1;
				if (!d)
					continue;
				for (h = (size_t)name_hash(0, d) & (size - 1); slots[h] && strcmp(slots[h], d); h = (h + 1) & (size - 1))
					;
				if (!slots[h]) {
					slots[h] = d;
					num[h] = (uint32_t)nr_dsos++;
					pms_json__str(&j, NULL, d);
				}
				idx[i] = num[h];
			}
			pms_json__end(&j);
		}
		pms_json__arr(&j, "dso");
		for (size_t i = 0; i < g->nr_frames; i++)
			pms_json__int(&j, NULL, idx[i]);
		pms_json__end(&j);
		free(idx);
		free(slots);
	}
	pms_json__arr(&j, "kind");
	for (size_t i = 0; i < g->nr_frames; i++)
		pms_json__uint(&j, NULL, g->frames[i].kind);
	pms_json__end(&j);
	pms_json__end(&j);
	/* nodes as columns in preorder; parent as a backward distance (small numbers, short JSON) */
	pms_json__obj(&j, "nodes");
	pms_json__arr(&j, "f");
	for (size_t i = 0; i < g->nr; i++)
		pms_json__uint(&j, NULL, g->nodes[i].frame);
	pms_json__end(&j);
	pms_json__arr(&j, "p");
	for (size_t i = 0; i < g->nr; i++)
		pms_json__uint(&j, NULL, i - g->nodes[i].parent);
	pms_json__end(&j);
	pms_json__arr(&j, "s");
	for (size_t i = 0; i < g->nr; i++)
		pms_json__uint(&j, NULL, g->nodes[i].samples);
	pms_json__end(&j);
	pms_json__arr(&j, "P");
	for (size_t i = 0; i < g->nr; i++)
		pms_json__uint(&j, NULL, g->nodes[i].period);
	pms_json__end(&j);
	pms_json__end(&j);
	if (o->base) {
		size_t nr = 0;
		const struct pms_stack_node *bn = pms_stacks__nodes(o->base, &nr);

		pms_json__obj(&j, "base");
		pms_json__uint(&j, "samples", nr ? bn[0].total_samples : 0);
		pms_json__uint(&j, "period", nr ? bn[0].total_period : 0);
		pms_json__arr(&j, "s");
		for (size_t i = 0; i < g->nr; i++)
			pms_json__uint(&j, NULL, g->nodes[i].base_samples);
		pms_json__end(&j);
		pms_json__arr(&j, "P");
		for (size_t i = 0; i < g->nr; i++)
			pms_json__uint(&j, NULL, g->nodes[i].base_period);
		pms_json__end(&j);
		pms_json__end(&j);
	} else {
		pms_json__null(&j, "base");
	}
	pms_json__end(&j);
}

static int check_opts(const struct pms_stacks *st, const struct pms_flamegraph_opts *o)
{
	if (!st || !o || o->sz < sizeof(*o) || o->min_width_fraction < 0 || o->min_width_fraction >= 1 ||
	    (o->weight != PMS_WEIGHT_SAMPLES && o->weight != PMS_WEIGHT_PERIOD))
		return -EINVAL;
	return 0;
}

int pms_flamegraph__html(const struct pms_stacks *st, const struct pms_flamegraph_opts *opts,
			 struct strbuf *out)
{
	struct pms_flamegraph_opts def = { .sz = sizeof(def) };
	const struct pms_flamegraph_opts *o = opts ? opts : &def;
	struct strbuf sub = STRBUF_INIT;
	struct fg g;
	int err;

	if (!out || check_opts(st, o))
		return -EINVAL;
	err = fg_build(&g, st, o);
	if (!err && o->base)
		err = fg_diff(&g, o->base);
	if (err) {
		fg_free(&g);
		return err;
	}
	fg_subtitle(st, o, &sub);
	strbuf_adds(out, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
		    "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
		    "<meta name=\"generator\" content=\"pmuscope\">\n<title>");
	add_html(out, fg_title(o));
	strbuf_adds(out, "</title>\n<style>\n");
	strbuf_add(out, (const char *)pms_flamegraph_css, pms_flamegraph_css_len);
	strbuf_adds(out, "</style>\n</head>\n<body>\n");
	if (o->preamble_html) {
		strbuf_adds(out, "<div id=\"pms-preamble\">\n");
		strbuf_adds(out, o->preamble_html);
		strbuf_adds(out, "\n</div>\n");
	}
	strbuf_adds(out, "<div id=\"pms-flame\" data-state=\"loading\">\n<header>\n<h1 id=\"pms-title\">");
	add_html(out, fg_title(o));
	strbuf_adds(out, "</h1>\n<div id=\"pms-subtitle\">");
	add_html(out, strbuf_str(&sub));
	strbuf_adds(out,
		    "</div>\n<div id=\"pms-controls\">"
		    "<button id=\"pms-reset\" type=\"button\" title=\"Reset zoom (Escape)\">Reset zoom</button> "
		    "<button id=\"pms-flip\" type=\"button\" title=\"Flame (root at the bottom) or icicle (root at the top)\">Icicle</button> "
		    "<input id=\"pms-search\" type=\"search\" placeholder=\"Search (regex, Ctrl-F)\" spellcheck=\"false\"> "
		    "<label><input id=\"pms-case\" type=\"checkbox\"> case</label> "
		    "<span id=\"pms-matched\"></span></div>\n"
		    "<div id=\"pms-crumbs\"></div>\n<div id=\"pms-legend\"></div>\n</header>\n"
		    "<div id=\"pms-graph\"><canvas id=\"pms-canvas\"></canvas></div>\n"
		    "<div id=\"pms-details\">&nbsp;</div>\n<div id=\"pms-tip\" hidden></div>\n"
		    "<noscript>This flame graph needs JavaScript; <code>pmuscope flamegraph --svg</code> "
		    "writes a static one.</noscript>\n</div>\n"
		    "<script id=\"pms-data\" type=\"application/json\">");
	fg_json(&g, st, o, strbuf_str(&sub), out);
	strbuf_adds(out, "</script>\n<script>\n");
	strbuf_add(out, (const char *)pms_flamegraph_js, pms_flamegraph_js_len);
	strbuf_adds(out, "</script>\n</body>\n</html>\n");
	strbuf_release(&sub);
	fg_free(&g);
	return out->oom ? -ENOMEM : 0;
}

/* -------------------------------------------------------------- svg -- */

/* FNV-1a over the name: the same hash the page's script uses, so colours match. */
static uint32_t hash32(const char *s)
{
	uint32_t h = 2166136261u;

	for (; s && *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h;
}

static void kind_colour(uint32_t kind, const char *name, char *buf, size_t len)
{
	uint32_t h = hash32(name);
	double a = (double)(h & 0xffff) / 65535.0, b = (double)(h >> 16) / 65535.0;
	int r, g, bl;

	switch (kind) {
	case PMS_STACK_KERNEL: r = 90 + (int)(50 * a); g = 150 + (int)(50 * b); bl = 225; break;
	case PMS_STACK_JIT: r = 60 + (int)(50 * a); g = 185 + (int)(50 * b); bl = 70; break;
	case PMS_STACK_INLINED: r = 60 + (int)(40 * a); g = 200 + (int)(40 * b); bl = 200 + (int)(30 * b); break;
	case PMS_STACK_UNKNOWN: r = g = bl = 165 + (int)(30 * a); break;
	case PMS_STACK_PROCESS:
	case PMS_STACK_THREAD: r = 175 + (int)(30 * a); g = 145 + (int)(30 * a); bl = 215; break;
	case FG_KIND_ROOT: r = g = bl = 200; break;
	case FG_KIND_MERGED: r = g = bl = 220; break;
	default: r = 205 + (int)(50 * a); g = (int)(230 * b); bl = (int)(55 * a); break; /* user: hot */
	}
	snprintf(buf, len, "rgb(%d,%d,%d)", r, g, bl);
}

static void diff_colour(const struct fg *g, const struct fg_node *n, uint64_t base_total, uint64_t total,
			double max_delta, char *buf, size_t len)
{
	double now = total ? (double)fg_weight(n, g->weight_period) / (double)total : 0;
	double was = base_total ? (double)(g->weight_period ? n->base_period : n->base_samples) / (double)base_total : 0;
	double d = now - was, t = max_delta > 0 ? (d < 0 ? -d : d) / max_delta : 0;
	int c = 255 - (int)(t * 200 + 0.5);

	if (t > 1)
		c = 55;
	if (d > 0)
		snprintf(buf, len, "rgb(255,%d,%d)", c, c);
	else if (d < 0)
		snprintf(buf, len, "rgb(%d,%d,255)", c, c);
	else
		snprintf(buf, len, "rgb(250,250,250)");
}

#define SVG_WIDTH 1200
#define SVG_PAD 10
#define SVG_ROW 16
#define SVG_TOP 60
#define SVG_FONT 12
#define SVG_CHAR_PX 7 /* average glyph width at 12px: how many characters fit */
#define SVG_MIN_PX 1.0 /* narrower frames are not drawn (as on the page) */

int pms_flamegraph__svg(const struct pms_stacks *st, const struct pms_flamegraph_opts *opts,
			struct strbuf *out)
{
	struct pms_flamegraph_opts def = { .sz = sizeof(def) };
	const struct pms_flamegraph_opts *o = opts ? opts : &def;
	const struct pms_stacks_meta *m = st ? pms_stacks__meta(st) : NULL;
	const char *sample_noun = m && m->sample_noun ? m->sample_noun : "samples";
	const char *period_noun = m && m->period_noun ? m->period_noun : "period";
	bool period_ns = m && m->period_unit && !strcmp(m->period_unit, "nanoseconds");
	struct strbuf sub = STRBUF_INIT;
	struct fg g;
	uint64_t total, base_total = 0;
	double scale, max_delta = 0;
	int err, height;
	bool *shown;
	size_t nr_shown = 0;
	uint32_t depth = 0;
	const double gw = SVG_WIDTH - 2 * SVG_PAD;

	if (!out || check_opts(st, o))
		return -EINVAL;
	err = fg_build(&g, st, o);
	if (!err && o->base)
		err = fg_diff(&g, o->base);
	if (err) {
		fg_free(&g);
		return err;
	}
	total = fg_weight(&g.nodes[0], g.weight_period);
	scale = total ? gw / (double)total : 0;
	if (o->base) {
		size_t nr = 0;
		const struct pms_stack_node *bn = pms_stacks__nodes(o->base, &nr);

		base_total = nr ? node_weight(&bn[0], g.weight_period) : 0;
		for (size_t i = 1; i < g.nr; i++) {
			double now = total ? (double)fg_weight(&g.nodes[i], g.weight_period) / (double)total : 0;
			double was = base_total ? (double)(g.weight_period ? g.nodes[i].base_period : g.nodes[i].base_samples) /
							  (double)base_total : 0;
			double d = now > was ? now - was : was - now;

			if (g.nodes[i].src != FG_NONE && d > max_delta)
				max_delta = d;
		}
	}
	/*
	 * A frame narrower than a pixel is not drawn, nor is anything above it,
	 * and only drawn frames set the height: one sample's deep chain must not
	 * make the image taller than the profile it belongs to.
	 */
	shown = malloc((g.nr ? g.nr : 1) * sizeof(*shown));
	if (!shown) {
		fg_free(&g);
		return -ENOMEM;
	}
	for (size_t i = 0; i < g.nr; i++) {
		shown[i] = i == 0 || (shown[g.nodes[i].parent] &&
				      (double)fg_weight(&g.nodes[i], g.weight_period) * scale >= SVG_MIN_PX);
		if (shown[i]) {
			nr_shown++;
			if (g.nodes[i].depth > depth)
				depth = g.nodes[i].depth;
		}
	}
	height = SVG_TOP + (int)(depth + 1) * SVG_ROW + 30;
	fg_subtitle(st, o, &sub);
	strbuf_addf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n"
		    "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"%d\" height=\"%d\" "
		    "viewBox=\"0 0 %d %d\" font-family=\"Verdana, sans-serif\" font-size=\"%d\">\n",
		    SVG_WIDTH, height, SVG_WIDTH, height, SVG_FONT);
	strbuf_addf(out, "<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"#f8f8f4\"/>\n", SVG_WIDTH, height);
	strbuf_addf(out, "<text x=\"%d\" y=\"24\" text-anchor=\"middle\" font-size=\"17\">", SVG_WIDTH / 2);
	add_html(out, fg_title(o));
	strbuf_addf(out, "</text>\n<text x=\"%d\" y=\"44\" text-anchor=\"middle\" fill=\"#555\">", SVG_WIDTH / 2);
	add_html(out, strbuf_str(&sub));
	strbuf_adds(out, "</text>\n");
	for (size_t i = 0; i < g.nr; i++) {
		const struct fg_node *n = &g.nodes[i];
		const struct fg_frame *f = &g.frames[n->frame];
		uint64_t wgt = fg_weight(n, g.weight_period);
		double x = SVG_PAD + (double)n->x * scale, w = (double)wgt * scale;
		int row = o->icicle ? (int)n->depth : (int)(depth - n->depth);
		double y = SVG_TOP + row * SVG_ROW;
		char fill[48];
		size_t fit;

		if (!shown[i])
			continue;
		if (o->base && n->src != FG_NONE && i)
			diff_colour(&g, n, base_total, total, max_delta, fill, sizeof(fill));
		else
			kind_colour(f->kind, f->name, fill, sizeof(fill));
		strbuf_addf(out, "<g class=\"frame\" data-kind=\"%s\"><title>", kind_names[f->kind]);
		add_html(out, f->name);
		if (f->dso) {
			strbuf_adds(out, " [");
			add_html(out, f->dso);
			strbuf_addch(out, ']');
		}
		if (n->nr_merged)
			strbuf_addf(out, " (%u frames)", n->nr_merged);
		strbuf_addf(out, " (%" PRIu64 " %s, %.2f%%", n->samples, sample_noun,
			    total ? 100.0 * (double)wgt / (double)total : 0.0);
		if (g.weight_period && period_ns) {
			strbuf_addf(out, ", %s ", period_noun);
			strbuf_add_duration_ns(out, n->period);
		} else if (g.weight_period) {
			strbuf_addf(out, ", %s %" PRIu64, period_noun, n->period);
		}
		if (o->base) {
			double was = base_total ? 100.0 * (double)(g.weight_period ? n->base_period : n->base_samples) /
							  (double)base_total : 0;
			double now = total ? 100.0 * (double)wgt / (double)total : 0;

			strbuf_addf(out, "; base %.2f%%, %+.2f points", was, now - was);
		}
		strbuf_addf(out, ")</title><rect x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%d\" fill=\"%s\" "
			    "rx=\"2\"/>", x, y, w, SVG_ROW - 1, fill);
		fit = w > 3 * SVG_CHAR_PX ? (size_t)((w - 6) / SVG_CHAR_PX) : 0;
		if (fit >= 3) {
			size_t len = strlen(f->name);
			struct strbuf t = STRBUF_INIT;

			if (len > fit) {
				/* cut on a UTF-8 boundary, then mark the cut */
				size_t cut = fit - 2;

				while (cut && ((unsigned char)f->name[cut] & 0xc0) == 0x80)
					cut--;
				strbuf_add(&t, f->name, cut);
				strbuf_adds(&t, "..");
			} else {
				strbuf_adds(&t, f->name);
			}
			strbuf_addf(out, "<text x=\"%.2f\" y=\"%.1f\">", x + 3, y + SVG_ROW - 4);
			add_html(out, strbuf_str(&t));
			strbuf_adds(out, "</text>");
			strbuf_release(&t);
		}
		strbuf_adds(out, "</g>\n");
	}
	strbuf_addf(out, "<text x=\"%d\" y=\"%d\" fill=\"#555\">%zu frames drawn", SVG_PAD, height - 10, nr_shown);
	if (g.nr_merged_src)
		strbuf_addf(out, ", %" PRIu64 " narrower than the minimum width left out", g.nr_merged_src);
	if (nr_shown < g.nr)
		strbuf_addf(out, ", %zu narrower than a pixel not drawn", g.nr - nr_shown);
	strbuf_adds(out, "</text>\n</svg>\n");
	strbuf_release(&sub);
	free(shown);
	fg_free(&g);
	return out->oom ? -ENOMEM : 0;
}
