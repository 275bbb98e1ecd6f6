// SPDX-License-Identifier: MIT
// Unit tests of lib/export/flamegraph.c: the page's embedded data, hostile names inside <script>, merging of narrow frames, SVG geometry and height, diff colours, looping-chain counts.
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "aggregate/stacks.h"
#include "export/export.h"

static uint32_t fid(struct pms_stacks *st, const char *name, enum pms_stack_kind kind)
{
	struct pms_stack_frame f = { .name = name, .dso = "/bin/x", .kind = kind };
	int64_t id = pms_stacks__intern(st, &f);

	cr_assert_geq(id, 0);
	return (uint32_t)id;
}

/* Add the ';'-separated path (root first) with n samples of period 10 each. */
static void add(struct pms_stacks *st, const char *path, uint64_t n)
{
	uint32_t ids[16];
	size_t nr = 0;
	char buf[256], *save = NULL;

	snprintf(buf, sizeof(buf), "%s", path);
	for (char *w = strtok_r(buf, ";", &save); w; w = strtok_r(NULL, ";", &save))
		ids[nr++] = fid(st, w, PMS_STACK_USER);
	cr_assert_eq(pms_stacks__add_path(st, ids, nr, n, 10 * n), 0);
}

static size_t count(const char *hay, const char *needle)
{
	size_t n = 0, len = strlen(needle);

	for (const char *p = hay; (p = strcasestr(p, needle)); p += len)
		n++;
	return n;
}

static char *html(const struct pms_stacks *st, const struct pms_flamegraph_opts *o)
{
	struct strbuf sb = STRBUF_INIT;

	cr_assert_eq(pms_flamegraph__html(st, o, &sb), 0);
	return strbuf_detach(&sb);
}

static char *svg(const struct pms_stacks *st, const struct pms_flamegraph_opts *o)
{
	struct strbuf sb = STRBUF_INIT;

	cr_assert_eq(pms_flamegraph__svg(st, o, &sb), 0);
	return strbuf_detach(&sb);
}

Test(flamegraph, html_embeds_tree_and_assets)
{
	struct pms_stacks *st = pms_stacks__new(NULL);
	struct pms_flamegraph_opts o = { .sz = sizeof(o), .title = "T1", .preamble_html = "<p id=\"pre\">hi</p>" };
	char *h;

	add(st, "main;work", 3);
	add(st, "main;idle", 1);
	h = html(st, &o);
	cr_assert(strstr(h, "<!DOCTYPE html>") == h);
	cr_assert_not_null(strstr(h, "<title>T1</title>"));
	cr_assert_not_null(strstr(h, "\"name\":[\"all\",\"(merged)\",\"main\",\"work\",\"idle\"]"), "%s", strstr(h, "\"frames\""));
	/* preorder columns: all, main, work, idle; parents as backward distances; totals */
	cr_assert_not_null(strstr(h, "\"f\":[0,2,3,4]"));
	cr_assert_not_null(strstr(h, "\"p\":[0,1,1,2]"));
	cr_assert_not_null(strstr(h, "\"s\":[4,4,3,1]"));
	cr_assert_not_null(strstr(h, "\"P\":[40,40,30,10]"));
	cr_assert_not_null(strstr(h, "\"base\":null"));
	cr_assert_not_null(strstr(h, "window.pmsFlame"));
	cr_assert_not_null(strstr(h, "<p id=\"pre\">hi</p>"));
	/* self-contained: no external script, style or image */
	cr_assert_null(strstr(h, "src=\"http"));
	cr_assert_null(strstr(h, "href=\"http"));
	cr_assert_null(strstr(h, "<link"));
	cr_assert_eq(count(h, "<script"), 2);
	free(h);
	pms_stacks__free(st);
}

Test(flamegraph, hostile_names_stay_inside_script)
{
	struct pms_stacks *st = pms_stacks__new(NULL);
	struct pms_flamegraph_opts o = { .sz = sizeof(o), .title = "<b>x</b>", .subtitle = "</script><img src=y>" };
	char *h, *s;

	add(st, "main;</script><img src=x onerror=alert(1)>", 2);
	add(st, "main;<!--;-->", 1);
	add(st, "main;</SCRIPT >", 1);
	h = html(st, &o);
	cr_assert_not_null(strstr(h, "\\u003c/script><img src=x onerror=alert(1)>"));
	/* exactly our own two closing tags: the data's and the script's */
	cr_assert_eq(count(h, "</script"), 2, "%zu", count(h, "</script"));
	cr_assert_eq(count(h, "<!--"), 0);
	/* in the data, "<img" is raw text of the script element: harmless; nowhere else */
	{
		char *d = strstr(h, "<script id=\"pms-data\""), *e = d ? strstr(d, "</script>") : NULL;

		cr_assert(d && e);
		memset(d, ' ', (size_t)(e - d));
		cr_assert_eq(count(h, "<img"), 0);
	}
	cr_assert_not_null(strstr(h, "<title>&lt;b&gt;x&lt;/b&gt;</title>"));
	s = svg(st, &o);
	cr_assert_eq(count(s, "<img"), 0);
	cr_assert_eq(count(s, "<script"), 0);
	cr_assert_not_null(strstr(s, "&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;"));
	free(h);
	free(s);
	pms_stacks__free(st);
}

Test(flamegraph, narrow_frames_merge)
{
	struct pms_stacks *st = pms_stacks__new(NULL);
	struct pms_flamegraph_opts o = { .sz = sizeof(o), .min_width_fraction = 0.01 };
	char name[64], *h;

	add(st, "main;big", 10000);
	for (int i = 0; i < 200; i++) {
		snprintf(name, sizeof(name), "main;tiny%d;deeper", i);
		add(st, name, 1);
	}
	/* 10200 in all: threshold 102; the 200 tiny ones make one (merged) node of 200 */
	h = html(st, &o);
	cr_assert_null(strstr(h, "tiny"));
	cr_assert_null(strstr(h, "deeper"));
	cr_assert_not_null(strstr(h, "\"f\":[0,2,3,1]"), "%s", strstr(h, "\"nodes\""));
	cr_assert_not_null(strstr(h, "\"s\":[10200,10200,10000,200]"));
	cr_assert_not_null(strstr(h, "\"mergedSourceNodes\":0"));
	free(h);
	/* at 3% the merged node (200 < 306) is too narrow itself: left out, its width stays main's */
	o.min_width_fraction = 0.03;
	h = html(st, &o);
	cr_assert_not_null(strstr(h, "\"f\":[0,2,3]"), "%s", strstr(h, "\"nodes\""));
	cr_assert_not_null(strstr(h, "\"mergedSourceNodes\":200"));
	free(h);
	pms_stacks__free(st);
}

/* rect x and width of each frame group, in document (preorder) order. */
static size_t rects(const char *s, double *x, double *w, double *y, size_t max)
{
	size_t n = 0;

	for (const char *p = s; n < max && (p = strstr(p, "<g class=\"frame\"")); p++) {
		const char *r = strstr(p, "<rect x=\"");

		cr_assert_not_null(r);
		cr_assert_eq(sscanf(r, "<rect x=\"%lf\" y=\"%lf\" width=\"%lf\"", &x[n], &y[n], &w[n]), 3);
		n++;
	}
	return n;
}

Test(flamegraph, svg_geometry_sums)
{
	struct pms_stacks *st = pms_stacks__new(NULL);
	struct pms_flamegraph_opts o = { .sz = sizeof(o) };
	double x[8], w[8], y[8], y2[8], x2[8], w2[8];
	char *s;

	add(st, "a;c", 2);
	add(st, "a", 4);
	add(st, "b", 4);
	s = svg(st, &o);
	cr_assert_eq(rects(s, x, w, y, 8), 4); /* all, a, c, b */
	cr_assert_float_eq(w[0], 1180, 0.01);
	cr_assert_float_eq(w[1], 708, 0.01);
	cr_assert_float_eq(w[2], 236, 0.01);
	cr_assert_float_eq(w[3], 472, 0.01);
	cr_assert_float_eq(w[1] + w[3], w[0], 0.02);
	cr_assert_float_eq(x[0], 10, 0.01);
	cr_assert_float_eq(x[1], 10, 0.01);
	cr_assert_float_eq(x[2], 10, 0.01);
	cr_assert_float_eq(x[3], 718, 0.01);
	cr_assert_gt(y[0], y[1]); /* flame: the root at the bottom */
	cr_assert_float_eq(y[1], y[3], 0.01);
	cr_assert_not_null(strstr(s, "<title>a [/bin/x] (6 samples, 60.00%)</title>"));
	free(s);
	o.icicle = true;
	o.weight = PMS_WEIGHT_PERIOD;
	s = svg(st, &o);
	cr_assert_eq(rects(s, x2, w2, y2, 8), 4);
	cr_assert_lt(y2[0], y2[1]); /* icicle: the root on top */
	cr_assert_float_eq(w2[1], 708, 0.01);
	cr_assert_not_null(strstr(s, "period 60)"));
	free(s);
	pms_stacks__free(st);
}

/*
 * One sample's deep chain narrower than a pixel neither draws nor makes the SVG taller; the page
 * gets the data and decides by its own width.
 */
Test(flamegraph, svg_height_follows_frames_wide_enough_to_draw)
{
	struct pms_stacks *st = pms_stacks__new(NULL);
	struct pms_flamegraph_opts o = { .sz = sizeof(o) };
	const char *deep = "main;d1;d2;d3;d4;d5;d6;d7;d8;d9;d10;d11;d12";
	double x[32], w[32], y[32];
	char *s;
	int height;

	add(st, "main;work", 5000);
	add(st, deep, 1);
	/* 1 of 5001 samples on 1180 px: 0.24 px */
	s = svg(st, &o);
	cr_assert_eq(sscanf(strstr(s, "height=\""), "height=\"%d\"", &height), 1);
	cr_assert_eq(height, 60 + 3 * 16 + 30, "three rows (all, main, work), not 14: %d", height);
	cr_assert_eq(rects(s, x, w, y, 32), 3);
	cr_assert_float_eq(y[0], 60 + 2 * 16, 0.01); /* the root on the bottom row */
	cr_assert_not_null(strstr(s, ">3 frames drawn, 12 narrower than a pixel not drawn</text>"));
	cr_assert_null(strstr(s, "<title>d1 "));
	free(s);
	s = html(st, &o);
	cr_assert_not_null(strstr(s, "\"d12\""), "the page has every frame: it draws by its own width");
	free(s);
	/* 5 of 5005 samples: 1.18 px, drawn, and the image grows to hold it */
	add(st, deep, 4);
	s = svg(st, &o);
	cr_assert_eq(sscanf(strstr(s, "height=\""), "height=\"%d\"", &height), 1);
	cr_assert_eq(height, 60 + 14 * 16 + 30);
	cr_assert_eq(rects(s, x, w, y, 32), 15);
	cr_assert_not_null(strstr(s, ">15 frames drawn</text>"));
	free(s);
	pms_stacks__free(st);
}

/* The looping chains the tree collapsed are counted where lost samples are: subtitles and the page's data. */
Test(flamegraph, subtitle_counts_looping_chains)
{
	struct pms_stacks *st = pms_stacks__new(NULL);
	struct pms_flamegraph_opts o = { .sz = sizeof(o) };
	struct pms_stacks_meta m = { .event = "cpu-clock", .lost = 2, .looped_chains = 1 };
	char *s;

	add(st, "main;work", 7);
	s = html(st, &o);
	cr_assert_null(strstr(s, "looping"));
	cr_assert_not_null(strstr(s, "\"loopedChains\":0"));
	free(s);
	cr_assert_eq(pms_stacks__set_meta(st, &m), 0);
	s = html(st, &o);
	cr_assert_not_null(strstr(s, ">cpu-clock: 7 samples, 2 lost, 1 looping call chain collapsed</div>"));
	cr_assert_not_null(strstr(s, "\"loopedChains\":1"));
	free(s);
	m.looped_chains = 3;
	cr_assert_eq(pms_stacks__set_meta(st, &m), 0);
	s = svg(st, &o);
	cr_assert_not_null(strstr(s, ">cpu-clock: 7 samples, 2 lost, 3 looping call chains collapsed</text>"));
	free(s);
	pms_stacks__free(st);
}

/* Off-CPU trees: a sample is a block and the period is time; both pages say so in those words. */
Test(flamegraph, off_cpu_nouns_and_times)
{
	struct pms_stacks *st = pms_stacks__new(NULL);
	struct pms_flamegraph_opts o = { .sz = sizeof(o), .weight = PMS_WEIGHT_PERIOD };
	struct pms_stacks_meta m;
	uint32_t ids[2];
	char *s;

	ids[0] = fid(st, "main", PMS_STACK_USER);
	ids[1] = fid(st, "nap", PMS_STACK_USER);
	cr_assert_eq(pms_stacks__add_path(st, ids, 2, 3, 1500000000ULL), 0);
	cr_assert_eq(pms_stacks__add_path(st, ids, 1, 1, 2500000ULL), 0);
	m = *pms_stacks__meta(st);
	m.event = "off-cpu";
	m.period_unit = "nanoseconds";
	m.sample_noun = "blocks";
	m.period_noun = "off-CPU time";
	cr_assert_eq(pms_stacks__set_meta(st, &m), 0);
	s = svg(st, &o);
	cr_assert_not_null(strstr(s, "<title>nap [/bin/x] (3 blocks, 99.83%, off-CPU time 1.500 s)</title>"), "%s", s);
	cr_assert_not_null(strstr(s, "(4 blocks, 100.00%, off-CPU time 1.502 s)</title>"));
	cr_assert_null(strstr(s, "samples"));
	free(s);
	s = html(st, &o);
	cr_assert_not_null(strstr(s, "\"sampleNoun\":\"blocks\""));
	cr_assert_not_null(strstr(s, "\"periodNoun\":\"off-CPU time\""));
	cr_assert_not_null(strstr(s, "off-cpu: 4 blocks"));
	free(s);
	pms_stacks__free(st);
}

Test(flamegraph, diff_colours_by_share_change)
{
	struct pms_stacks *st = pms_stacks__new(NULL), *base = pms_stacks__new(NULL);
	struct pms_flamegraph_opts o = { .sz = sizeof(o), .base = base };
	char *h, *s, *ga, *gb;

	add(base, "main;a", 8);
	add(base, "main;b", 2);
	add(st, "main;a", 2);
	add(st, "main;b", 8);
	add(st, "main;new", 10);
	h = html(st, &o);
	/* base totals per node, matched by path: all, main, a, b, new (absent: 0) */
	cr_assert_not_null(strstr(h, "\"base\":{\"samples\":10,\"period\":100,\"s\":[10,10,8,2,0]"), "%s", strstr(h, "\"base\""));
	free(h);
	s = svg(st, &o);
	ga = strstr(s, "<title>a ");
	gb = strstr(s, "<title>b ");
	cr_assert(ga && gb);
	/* a: 80% -> 10% shrank the most (full blue); b: 20% -> 40% grew */
	cr_assert_not_null(strstr(ga, "base 80.00%, -70.00 points"));
	cr_assert(strstr(ga, "fill=\"rgb(55,55,255)\"") && strstr(ga, "fill=\"rgb(55,55,255)\"") < gb);
	cr_assert_not_null(strstr(gb, "fill=\"rgb(255,"));
	free(s);
	pms_stacks__free(st);
	pms_stacks__free(base);
}

Test(flamegraph, bad_options_and_empty_tree)
{
	struct pms_stacks *st = pms_stacks__new(NULL);
	struct pms_flamegraph_opts o = { .sz = 4 };
	struct strbuf sb = STRBUF_INIT;
	char *h;

	cr_assert_eq(pms_flamegraph__html(st, &o, &sb), -EINVAL);
	o.sz = sizeof(o);
	o.min_width_fraction = 1.5;
	cr_assert_eq(pms_flamegraph__svg(st, &o, &sb), -EINVAL);
	cr_assert_eq(pms_flamegraph__html(NULL, NULL, &sb), -EINVAL);
	/* an empty tree still gives a page (the root alone) */
	h = html(st, NULL);
	cr_assert_not_null(strstr(h, "\"s\":[0]"));
	free(h);
	strbuf_release(&sb);
	pms_stacks__free(st);
}
