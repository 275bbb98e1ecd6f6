// SPDX-License-Identifier: MIT
// Unit tests of lib/export/report_html: HTML escaping of hostile names, sections and numbers present.
#include <criterion/criterion.h>
#include <errno.h>
#include <string.h>

#include "export/report_html.h"

/* Interned strings, as the session hands them out. */
static const char *const COMM = "evil<b>&\"'", *const COMM2 = "worker";
static const char *const DSO = "/opt/x/<img src=x onerror=alert(1)>.so";
static const char *const SYM_BAD = "<script>alert(1)</script>", *const SYM_MAIN = "main";

static struct pms_frame fbuf[4];

static struct pms_session_sample mk(const char *comm, uint32_t pid, uint32_t tid, const char *leaf)
{
	struct pms_session_sample s;

	memset(&s, 0, sizeof(s));
	memset(fbuf, 0, sizeof(fbuf));
	fbuf[0].ip = 0x1000;
	fbuf[0].res.dso = DSO;
	fbuf[0].res.sym = leaf;
	fbuf[0].res.status = PMS_RES_OK;
	fbuf[1].ip = 0x2000;
	fbuf[1].res.dso = DSO;
	fbuf[1].res.sym = SYM_MAIN;
	fbuf[1].res.status = PMS_RES_OK;
	fbuf[1].caller = true;
	s.event_name = "cpu-clock";
	s.comm = comm;
	s.pid = pid;
	s.tid = tid;
	s.period = 1000;
	s.frames = fbuf;
	s.nr_frames = 2;
	s.has_callchain = true;
	return s;
}

static struct pms_hist *hist(const char *keys, bool children)
{
	struct pms_hist_opts o = { .sz = sizeof(o), .children = children };
	struct pms_hist *h;
	struct pms_session_sample s;

	cr_assert_eq(pms_sort_keys__parse(keys, o.keys, PMS_HIST_MAX_KEYS, &o.nr_keys, NULL), 0);
	cr_assert_eq(pms_hist__new(&h, &o), 0);
	for (int i = 0; i < 3; i++) {
		s = mk(COMM, 10, 10, SYM_BAD);
		cr_assert_eq(pms_hist__add(h, &s), 1);
	}
	s = mk(COMM2, 20, 21, SYM_MAIN);
	cr_assert_eq(pms_hist__add(h, &s), 1);
	cr_assert_eq(pms_hist__finish(h, NULL), 0);
	return h;
}

static char *build(struct pms_hist **hs, const struct pms_report_html_summary *sum, int *err)
{
	enum pms_sort_key keys[3] = { PMS_SORT_COMM, PMS_SORT_DSO, PMS_SORT_SYM };
	struct pms_report_html_opts o = {
		.sz = sizeof(o), .summary = sum, .keys = keys, .nr_keys = 3, .children = true,
		.flame_note = "weights <period>",
	};
	struct strbuf sb = STRBUF_INIT;

	hs[0] = hist("comm,dso,sym", true);
	hs[1] = hist("pid", false);
	hs[2] = hist("pid,tid", false);
	o.funcs = hs[0];
	o.procs = hs[1];
	o.threads = hs[2];
	*err = pms_report_html__preamble(&o, &sb);
	return strbuf_detach(&sb);
}

static void free_all(struct pms_hist **hs, char *html)
{
	for (int i = 0; i < 3; i++)
		pms_hist__free(hs[i]);
	free(html);
}

Test(report_html, escape)
{
	struct strbuf sb = STRBUF_INIT;

	pms_html__escape(&sb, "a<b>&\"c'd");
	cr_assert_str_eq(strbuf_str(&sb), "a&lt;b&gt;&amp;&quot;c&#39;d");
	strbuf_reset(&sb);
	pms_html__escape(&sb, NULL);
	pms_html__escape(&sb, "");
	pms_html__escape(&sb, "plain");
	cr_assert_str_eq(strbuf_str(&sb), "plain");
	strbuf_release(&sb);
}

Test(report_html, hostile_names_escaped)
{
	struct pms_report_html_summary sum = {
		.file = "x.data", .command = "./run --x='</td><script>'", .hostname = "h<st",
		.events = "cpu-clock", .samples = 4,
	};
	struct pms_hist *hs[3];
	int err;
	char *html = build(hs, &sum, &err);

	cr_assert_eq(err, 0);
	cr_assert_not_null(html);
	/* no raw tag made from a name survives: the one <script> is the table sorter, after every name */
	cr_assert_not_null(strstr(html, "<script>"));
	cr_assert_null(strstr(strstr(html, "<script>") + 1, "<script"));
	cr_assert_null(strstr(html, "<script>alert"));
	cr_assert_null(strstr(html, "<img"));
	cr_assert_null(strstr(html, "<b>"));
	cr_assert_not_null(strstr(html, "&lt;script&gt;alert(1)&lt;/script&gt;"));
	cr_assert_not_null(strstr(html, "evil&lt;b&gt;&amp;&quot;&#39;"));
	cr_assert_not_null(strstr(html, "&lt;img src=x onerror=alert(1)&gt;.so"));
	cr_assert_not_null(strstr(html, "./run --x=&#39;&lt;/td&gt;&lt;script&gt;&#39;"));
	cr_assert_not_null(strstr(html, "h&lt;st"));
	cr_assert_not_null(strstr(html, "weights &lt;period&gt;"));
	free_all(hs, html);
}

Test(report_html, sections_and_numbers)
{
	struct pms_report_html_summary sum = {
		.file = "perf.data", .command = "pms-shares --rounds 1", .events = "cpu-clock",
		.samples = 4, .lost_samples = 2, .lost_events = 1,
		.time_first_ns = 1000000000, .time_last_ns = 3500000000,
	};
	struct pms_hist *hs[3];
	int err;
	char *html = build(hs, &sum, &err);
	const char *top, *procs, *threads;

	cr_assert_eq(err, 0);
	cr_assert_not_null(strstr(html, "id=\"pms-summary\""));
	cr_assert_not_null(strstr(html, "data-key=\"samples\" data-value=\"4\""));
	cr_assert_not_null(strstr(html, "data-key=\"lost_samples\" data-value=\"2\""));
	cr_assert_not_null(strstr(html, "data-key=\"lost_events\" data-value=\"1\""));
	cr_assert_not_null(strstr(html, "data-key=\"duration\" data-value=\"2500000000\">2.500 s"));
	cr_assert_not_null(strstr(html, "data-key=\"hostname\"><span class=\"pms-na\">unknown"));
	top = strstr(html, "<h3>Top functions</h3>");
	procs = strstr(html, "id=\"pms-procs-0\"");
	threads = strstr(html, "id=\"pms-threads-0\"");
	cr_assert(top && procs && threads && top < procs && procs < threads);
	/* rows per comm: the hostile leaf has 75% self, main 75% children and no self, worker's main 25% */
	cr_assert_not_null(strstr(top, "<th>Children</th><th>Self</th><th>Samples</th><th>Command</th><th>Shared Object</th><th>Symbol</th>"));
	cr_assert_not_null(strstr(top, "data-value=\"75.0000\""));
	cr_assert_not_null(strstr(top, "pms-self\" data-value=\"0.0000\""));
	cr_assert_not_null(strstr(top, "25.00%</td><td class=\"pms-samples\">1</td><td class=\"pms-comm\">worker"));
	/* processes: pid 10 with 75%, pid 20 with 25%; threads carry the tid */
	cr_assert_not_null(strstr(procs, "75.00%</td><td class=\"pms-samples\">3</td><td class=\"pms-pid\">10</td><td class=\"pms-comm\">"));
	cr_assert_not_null(strstr(threads, "<td class=\"pms-pid\">20</td><td class=\"pms-tid\">21</td><td class=\"pms-comm\">worker"));
	cr_assert_not_null(strstr(html, "id=\"pms-flame-note\""));
	free_all(hs, html);
}

Test(report_html, limits_and_errors)
{
	enum pms_sort_key keys[1] = { PMS_SORT_SYM };
	struct pms_report_html_summary sum = { .samples = 4 };
	struct pms_report_html_opts o = { .sz = sizeof(o), .summary = &sum, .keys = keys, .nr_keys = 1, .limit = 1 };
	struct strbuf sb = STRBUF_INIT;
	struct pms_hist *h = hist("sym", false);

	o.funcs = h;
	cr_assert_eq(pms_report_html__preamble(&o, &sb), 0);
	cr_assert_not_null(strstr(strbuf_str(&sb), "1 of 2 rows shown"));
	cr_assert_null(strstr(strbuf_str(&sb), "pms-procs"));
	cr_assert_not_null(strstr(strbuf_str(&sb), "data-key=\"duration\"><span class=\"pms-na\">"));
	o.sz = 4;
	cr_assert_eq(pms_report_html__preamble(&o, &sb), -EINVAL);
	o.sz = sizeof(o);
	o.funcs = NULL;
	cr_assert_eq(pms_report_html__preamble(&o, &sb), -EINVAL);
	strbuf_release(&sb);
	pms_hist__free(h);
}
