// SPDX-License-Identifier: MIT
// `pmuscope diff BASE NEW`: per-function share deltas of two perf.data files (ours or perf's), text, JSON or a differential flame graph.
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd.h"
#include "output.h"
#include "data_input.h"
#include "symbol_opts.h"
#include "aggregate/session.h"
#include "aggregate/stacks.h"
#include "data/reader.h"
#include "export/diff.h"
#include "export/export.h"
#include "util/json.h"
#include "util/strbuf.h"

/* rows below half a point on both sides and in delta are noise for a comparison (report's graph threshold) */
#define DEFAULT_PERCENT_LIMIT 0.5

/* Every option's value: reset_opts() sets them all back to the defaults. */
static struct diff_opts {
	const char *sort, *event, *flame;
	bool json, samples;
	int limit;
	double percent_limit;
} o;

static const struct opt opts[] = {
	OPT_STRING('s', "sort", &o.sort, "<col>", "total (default: the function anywhere on the stack) or self"),
	OPT_INT(0, "limit", &o.limit, "<n>", "print at most n rows"),
	OPT_DOUBLE(0, "percent-limit", &o.percent_limit, "<p>",
		   "hide rows below p% in both files and below p points of delta (default 0.5; 0: all)"),
	OPT_STRING('e', "event", &o.event, "<name>", "compare this event (default: each file's first)"),
	OPT_BOOL(0, "samples", &o.samples, "weigh by sample counts instead of periods"),
	OPT_BOOL(0, "json", &o.json, "JSON output (schema: man pmuscope-diff)"),
	OPT_STRING(0, "flamegraph", &o.flame, "<file.html>",
		   "also write a differential flame graph of NEW (red grew, blue shrank)"),
	OPTS_SYMBOLS,
	OPT_END(),
};

/* Forget the options of a previous run (commands run more than once in one process: tests). */
static void reset_opts(void)
{
	symbol_opts__reset();
	o = (struct diff_opts){ .percent_limit = DEFAULT_PERCENT_LIMIT };
}

struct side {
	const char *path;
	struct pms_session *s;
	struct pms_stacks *st;
	const char *event;  /* the event compared (the session's name for it) */
	bool damaged;
	char damage[400];
};

/*
 * Replay path into one stacks tree per event (attr) and keep the one
 * compared: -e's, else the first event in attr order that has samples
 * (report's first section). 0, or EXIT_RUNTIME after printing why.
 */
static int load(struct side *d)
{
	struct pms_session_opts so = { .sz = sizeof(so), .recover = true, .callchain = true };
	struct pms_stacks_opts sto = { .sz = sizeof(sto), .root = PMS_STACKS_ROOT_NONE };
	const struct pms_session_sample *smp;
	struct pms_stacks **trees = NULL;
	const char **names = NULL;
	const struct pms_data_error *dmg;
	size_t nr_trees = 0, pick;
	int err;

	if (data_input__open_session(&d->s, d->path, &so, NULL))
		return EXIT_RUNTIME;
	while ((err = pms_session__next(d->s, &smp)) > 0) {
		if (smp->attr_idx >= nr_trees) {
			size_t n = smp->attr_idx + 1;

			trees = xrealloc(trees, n * sizeof(*trees));
			names = xrealloc(names, n * sizeof(*names));
			memset(trees + nr_trees, 0, (n - nr_trees) * sizeof(*trees));
			memset(names + nr_trees, 0, (n - nr_trees) * sizeof(*names));
			nr_trees = n;
		}
		if (!trees[smp->attr_idx]) {
			if (o.event && strcmp(smp->event_name ? smp->event_name : "", o.event)) {
				names[smp->attr_idx] = ""; /* seen, not compared */
				continue;
			}
			trees[smp->attr_idx] = pms_stacks__new(&sto);
			if (!trees[smp->attr_idx])
				die("out of memory");
			names[smp->attr_idx] = smp->event_name; /* interned: lives as long as the session */
		}
		if (pms_stacks__add_sample(trees[smp->attr_idx], d->s, smp))
			die("out of memory");
	}
	dmg = pms_data_reader__error(pms_session__reader(d->s));
	if (err < 0 || (dmg && dmg->err)) {
		snprintf(d->damage, sizeof(d->damage), "%s", dmg && dmg->err ? dmg->msg : strerror(-err));
		d->damaged = true;
	}
	if (d->damaged)
		error("%s: %s (comparing the samples before the damage)", d->path, d->damage);
	for (pick = 0; pick < nr_trees && !trees[pick]; pick++)
		;
	if (pick < nr_trees) {
		d->st = trees[pick];
		d->event = names[pick];
		trees[pick] = NULL;
	}
	for (size_t i = 0; i < nr_trees; i++)
		pms_stacks__free(trees[i]);
	free(trees);
	free(names);
	if (!d->st) {
		if (o.event)
			error("%s: no samples of event '%s'", d->path, o.event);
		else
			error("%s: no samples", d->path);
		return EXIT_RUNTIME;
	}
	return 0;
}

static bool row_shown(const struct pms_diff_row *r, bool by_self)
{
	double a = by_self ? r->base.self : r->base.total, b = by_self ? r->new_.self : r->new_.total;
	double dl = by_self ? r->delta_self : r->delta_total;

	return a >= o.percent_limit || b >= o.percent_limit || fabs(dl) >= o.percent_limit;
}

static const char *level(enum pms_stack_kind k)
{
	return k == PMS_STACK_KERNEL ? "[k]" : "[.]";
}

static void pct_or_dash(FILE *f, bool present, double v)
{
	if (present)
		fprintf(f, "  %7.2f%%", v);
	else
		fprintf(f, "  %8s", "-");
}

/* "+1.25", "-0.40"; "0.00" without a sign when it rounds to zero */
static void delta(FILE *f, double v)
{
	if (fabs(v) < 0.005)
		fprintf(f, "  %8s", "0.00");
	else
		fprintf(f, "  %+8.2f", v);
}

static void print_side_line(FILE *f, const char *what, const struct side *d)
{
	const struct pms_stacks_meta *m = pms_stacks__meta(d->st);

	fprintf(f, "# %s %s: event '%s', %" PRIu64 " sample%s", what, d->path, d->event ? d->event : "?", m->samples,
		plural(m->samples));
	if (m->command && *m->command)
		fprintf(f, ", command: %s", m->command);
	fputc('\n', f);
}

static void print_text(FILE *f, const struct pms_diff *df, const struct side *b, const struct side *n)
{
	bool by_self = df->sort == PMS_DIFF_BY_SELF;
	int wdso = 13;
	size_t shown = 0, hidden = 0;

	for (size_t i = 0; i < df->nr_rows; i++)
		if ((int)strlen(df->rows[i].dso) > wdso)
			wdso = (int)strlen(df->rows[i].dso);
	print_side_line(f, "Base", b);
	print_side_line(f, "New ", n);
	fprintf(f, "# Shares are percent of each file's %s; deltas are new - base in points, sorted by |delta %s|.\n#\n",
		df->weight == PMS_WEIGHT_PERIOD ? "period" : "samples", by_self ? "self" : "total");
	fputs("#       Total (children)                    Self\n", f);
	fprintf(f, "#     Base       New     Delta      Base       New     Delta  Change  %-*s  Symbol\n", wdso,
		"Shared Object");
	fprintf(f, "# ........  ........  ........  ........  ........  ........  ......  %.*s  ......\n#\n", wdso,
		"........................................................................................");
	for (size_t i = 0; i < df->nr_rows; i++) {
		const struct pms_diff_row *r = &df->rows[i];

		if (!row_shown(r, by_self) || (o.limit > 0 && shown >= (size_t)o.limit)) {
			hidden++;
			continue;
		}
		pct_or_dash(f, r->in_base, r->base.total);
		pct_or_dash(f, r->in_new, r->new_.total);
		delta(f, r->delta_total);
		pct_or_dash(f, r->in_base, r->base.self);
		pct_or_dash(f, r->in_new, r->new_.self);
		delta(f, r->delta_self);
		fprintf(f, "  %-6s  %-*s  %s %s\n", pms_diff_row__change(df, r), wdso,
			*r->dso ? r->dso : "[unknown]", level(r->kind), r->name);
		shown++;
	}
	if (!df->nr_rows)
		fputs("# no functions\n", f);
	if (hidden)
		fprintf(f, "#\n# %zu more rows hidden by --limit or --percent-limit (%.2g%%; 0 shows all)\n", hidden,
			o.percent_limit);
}

static void json_side(struct pms_json *j, const char *key, const struct side *d, uint64_t total, bool weight_period)
{
	const struct pms_stacks_meta *m = pms_stacks__meta(d->st);

	pms_json__obj(j, key);
	pms_json__str(j, "file", d->path);
	pms_json__str(j, "event", d->event);
	pms_json__uint(j, "samples", m->samples);
	pms_json__uint(j, weight_period ? "period" : "weight", total);
	pms_json__str(j, "command", m->command);
	pms_json__str(j, "hostname", m->hostname);
	pms_json__uint(j, "lost_samples", pms_session__stats(d->s)->lost_samples);
	pms_json__uint(j, "lost_events", pms_session__stats(d->s)->lost_events);
	pms_json__bool(j, "partial", d->damaged);
	if (d->damaged)
		pms_json__str(j, "error", d->damage);
	else
		pms_json__null(j, "error");
	pms_json__end(j);
}

static void json_share(struct pms_json *j, const char *key, bool present, const struct pms_diff_side *s)
{
	if (!present) {
		pms_json__null(j, key);
		return;
	}
	pms_json__obj(j, key);
	pms_json__num(j, "total", s->total, 4);
	pms_json__num(j, "self", s->self, 4);
	pms_json__uint(j, "total_weight", s->total_w);
	pms_json__uint(j, "self_weight", s->self_w);
	pms_json__end(j);
}

static void print_json(struct strbuf *sb, const struct pms_diff *df, const struct side *b, const struct side *n)
{
	bool by_self = df->sort == PMS_DIFF_BY_SELF, wp = df->weight == PMS_WEIGHT_PERIOD;
	struct pms_json j;
	size_t shown = 0;

	pms_json__init(&j, sb, true);
	pms_json__obj(&j, NULL);
	pms_json__str(&j, "schema", "pmuscope-diff/1");
	pms_json__str(&j, "weight", wp ? "period" : "samples");
	pms_json__str(&j, "sort", by_self ? "self" : "total");
	pms_json__bool(&j, "same_event", b->event && n->event && !strcmp(b->event, n->event));
	json_side(&j, "base", b, df->base_total, wp);
	json_side(&j, "new", n, df->new_total, wp);
	pms_json__arr(&j, "rows");
	for (size_t i = 0; i < df->nr_rows; i++) {
		const struct pms_diff_row *r = &df->rows[i];

		if (!row_shown(r, by_self) || (o.limit > 0 && shown >= (size_t)o.limit))
			continue;
		pms_json__obj(&j, NULL);
		pms_json__str(&j, "name", r->name);
		pms_json__str(&j, "dso", r->dso);
		pms_json__str(&j, "level", level(r->kind));
		pms_json__str(&j, "change", pms_diff_row__change(df, r));
		pms_json__num(&j, "delta_total", r->delta_total, 4);
		pms_json__num(&j, "delta_self", r->delta_self, 4);
		json_share(&j, "base", r->in_base, &r->base);
		json_share(&j, "new", r->in_new, &r->new_);
		pms_json__end(&j);
		shown++;
	}
	pms_json__end(&j);
	pms_json__end(&j);
	pms_json__finish(&j);
}

static int flamegraph(const struct side *b, const struct side *n)
{
	struct pms_flamegraph_opts fo = {
		.sz = sizeof(fo), .title = "Differential Flame Graph", .base = b->st,
		.weight = o.samples ? PMS_WEIGHT_SAMPLES : PMS_WEIGHT_PERIOD,
	};
	struct strbuf sb = STRBUF_INIT, sub = STRBUF_INIT;
	int err, ret = 0;

	strbuf_addf(&sub, "%s (drawn) vs %s (base): red grew, blue shrank", n->path, b->path);
	fo.subtitle = strbuf_str(&sub);
	pms_stacks__sort(n->st, PMS_STACKS_BY_NAME);
	pms_stacks__sort(b->st, PMS_STACKS_BY_NAME);
	err = pms_flamegraph__html(n->st, &fo, &sb);
	if (err || sb.oom)
		ret = error("cannot build the flame graph: %s", strerror(err ? -err : ENOMEM));
	else if (!(ret = output__write(o.flame, &sb)) && strcmp(o.flame, "-"))
		note("wrote %s (HTML, %zu bytes): differential flame graph of %s against %s", o.flame, sb.len, n->path,
		     b->path);
	strbuf_release(&sb);
	strbuf_release(&sub);
	return ret;
}

static int run(int argc, char **argv)
{
	struct side b = { .path = NULL }, n = { .path = NULL };
	struct pms_diff_opts dopt = { .sz = sizeof(dopt) };
	struct pms_diff *df = NULL;
	int pos, ret = 0, err;

	pos = opt_parse(&cmd_diff, &argc, argv, 0);
	if (argc - pos == 1)
		usage_error(&cmd_diff, "want two files: the base and the new recording");
	if (argc - pos > 2)
		usage_error(&cmd_diff, "unexpected argument '%s' (want two files)", argv[pos + 2]);
	if (o.sort && strcmp(o.sort, "total") && strcmp(o.sort, "children") && strcmp(o.sort, "self"))
		usage_error(&cmd_diff, "--sort: want total or self, not '%s'", o.sort);
	if (o.limit < 0)
		usage_error(&cmd_diff, "--limit: want a positive number of rows");
	if (o.percent_limit < 0 || o.percent_limit > 100)
		usage_error(&cmd_diff, "--percent-limit: want a percentage in [0, 100]");
	if (o.flame && o.json && !strcmp(o.flame, "-"))
		usage_error(&cmd_diff, "--flamegraph - and --json both want stdout");
	/* as perf diff: no files compare perf.data.old (where perf record moves the previous perf.data) with perf.data */
	b.path = argc - pos ? argv[pos] : "perf.data.old";
	n.path = argc - pos ? argv[pos + 1] : "perf.data";
	dopt.sort = o.sort && !strcmp(o.sort, "self") ? PMS_DIFF_BY_SELF : PMS_DIFF_BY_TOTAL;
	dopt.weight = o.samples ? PMS_WEIGHT_SAMPLES : PMS_WEIGHT_PERIOD;

	if ((ret = load(&b)) || (ret = load(&n)))
		goto out;
	if (b.damaged || n.damaged)
		ret = EXIT_RUNTIME;
	if (strcmp(b.event ? b.event : "", n.event ? n.event : ""))
		note("the files have different events (base '%s', new '%s'): comparing their shares anyway",
		     b.event ? b.event : "?", n.event ? n.event : "?");
	err = pms_diff__new(&df, b.st, n.st, &dopt);
	if (err)
		die("cannot compare: %s", strerror(-err));
	if (o.json) {
		struct strbuf sb = STRBUF_INIT;

		print_json(&sb, df, &b, &n);
		if (sb.oom)
			die("out of memory");
		if (output__write("-", &sb))
			ret = EXIT_RUNTIME;
		strbuf_release(&sb);
	} else if (!o.flame || strcmp(o.flame, "-")) {
		print_text(stdout, df, &b, &n);
		if (fflush(stdout))
			ret = error("cannot write the diff: %s", strerror(errno)) ? EXIT_RUNTIME : 0;
	}
	if (o.flame && flamegraph(&b, &n))
		ret = EXIT_RUNTIME;
out:
	pms_diff__free(df);
	pms_stacks__free(b.st);
	pms_stacks__free(n.st);
	pms_session__free(b.s);
	pms_session__free(n.s);
	return ret;
}

PMS_COMMAND(diff, "diff",
	    "compare two perf.data files: per-function share deltas, differential flame graph",
	    "pmuscope diff [--sort total|self] [--limit <n>] [--percent-limit <p>] [--json] [--flamegraph <file.html>] [<base.data> <new.data>]");
