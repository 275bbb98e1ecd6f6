// SPDX-License-Identifier: MIT
// `pmuscope flamegraph`: a perf.data file (ours or perf's) as one self-contained interactive HTML flame graph, or a static SVG.
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "output.h"
#include "data_input.h"
#include "symbol_opts.h"
#include "aggregate/session.h"
#include "aggregate/stacks.h"
#include "data/reader.h"
#include "export/export.h"
#include "util/strbuf.h"

/* Every option's value: reset_opts() sets them all back to the defaults. */
static struct flamegraph_opts {
	const char *input, *output, *title, *event, *weight, *root, *base;
	bool svg, icicle, inline_frames;
	double min_width; /* -1: not given */
} o;

static const struct opt opts[] = {
	OPT_STRING('i', "input", &o.input, "<file>", "input file (default perf.data, - for stdin)"),
	OPT_STRING('o', "output", &o.output, "<file>", "output file (default flame.html, flame.svg with --svg; - for stdout)"),
	OPT_BOOL(0, "svg", &o.svg, "write a static SVG instead of the interactive HTML page"),
	OPT_STRING(0, "title", &o.title, "<text>", "title (default \"Flame Graph\")"),
	OPT_BOOL(0, "icicle", &o.icicle, "root at the top (the page can switch)"),
	OPT_STRING(0, "weight", &o.weight, "<w>", "frame widths by samples (default) or period"),
	OPT_STRING(0, "event", &o.event, "<name>", "only samples of this event (default: all)"),
	OPT_STRING(0, "root", &o.root, "<how>", "bottom frames: comm (default, as stackcollapse-perf), pid, tid or none"),
	OPT_BOOL(0, "inline", &o.inline_frames, "expand inlined functions (DWARF) as frames of their own"),
	OPT_STRING(0, "base", &o.base, "<file>", "differential: colour frames by their share change since this older perf.data (red grew, blue shrank)"),
	OPT_DOUBLE(0, "min-width", &o.min_width, "<pct>", "merge frames narrower than pct% of the total (default 0.005)"),
	OPTS_SYMBOLS,
	OPT_END(),
};

static void reset_opts(void)
{
	symbol_opts__reset();
	o = (struct flamegraph_opts){ .min_width = -1 };
}

/*
 * The file's samples as a stacks tree in *out (NULL when the file cannot be
 * read at all). Damage after some samples is reported and keeps the tree,
 * as report does: returns EXIT_RUNTIME then, else 0.
 */
static int load(const char *path, const struct pms_stacks_opts *sto, struct pms_stacks **out)
{
	struct pms_session_opts so = { .sz = sizeof(so), .recover = true, .callchain = true };
	const struct pms_data_error *damage;
	struct pms_session *s = NULL;
	struct pms_stacks *st;
	int err, ret = 0;

	*out = NULL;
	if (data_input__open_session(&s, path, &so, "record one with `pmuscope record -g`, or name it with -i"))
		return EXIT_RUNTIME;
	err = pms_stacks__from_session(s, sto, &st, &damage);
	if (err == -ENOMEM)
		die("out of memory");
	if (err < 0 || damage) {
		/* like report: what came before the damage is still drawn, and the exit status says it is partial */
		error("%s: %s", path, damage ? damage->msg : strerror(-err));
		ret = EXIT_RUNTIME;
	}
	pms_session__free(s);
	*out = st;
	return ret;
}

static int run(int argc, char **argv)
{
	struct pms_stacks_opts sto = { .sz = sizeof(sto), .root = PMS_STACKS_ROOT_COMM };
	struct pms_flamegraph_opts fo = { .sz = sizeof(fo) };
	struct pms_stacks *st = NULL, *base = NULL;
	struct strbuf out = STRBUF_INIT;
	const struct pms_stack_node *nodes;
	const char *path, *dest;
	size_t nr_nodes = 0;
	int pos, err, ret;

	pos = opt_parse(&cmd_flamegraph, &argc, argv, 0);
	if (pos < argc)
		usage_error(&cmd_flamegraph, "unexpected argument '%s' (the input file goes after -i)", argv[pos]);
	fo.weight = PMS_WEIGHT_SAMPLES;
	if (o.weight && pms_export_weight__parse(o.weight, &fo.weight))
		usage_error(&cmd_flamegraph, "--weight: want samples or period, not '%s'", o.weight);
	if (o.root && pms_stacks_root__parse(o.root, &sto.root))
		usage_error(&cmd_flamegraph, "--root: want none, comm, pid or tid, not '%s'", o.root);
	if (o.min_width != -1 && !(o.min_width >= 0 && o.min_width < 100))
		usage_error(&cmd_flamegraph, "--min-width: want a percentage in [0, 100)");
	sto.inline_frames = o.inline_frames;
	sto.event = o.event;
	fo.title = o.title;
	fo.icicle = o.icicle;
	/* 0 asks the library for its default; an explicit 0 means "merge nothing" (one part in 10^12) */
	fo.min_width_fraction = o.min_width < 0 ? 0 : o.min_width == 0 ? 1e-12 : o.min_width / 100;
	path = o.input ? o.input : "perf.data";
	dest = o.output ? o.output : o.svg ? "flame.svg" : "flame.html";

	ret = load(path, &sto, &st);
	if (!st)
		goto out;
	if (o.base) {
		int r = load(o.base, &sto, &base);

		if (!base) {
			ret = r;
			goto out;
		}
		ret = ret ? ret : r;
		pms_stacks__sort(base, PMS_STACKS_BY_NAME);
		fo.base = base;
	}
	pms_stacks__sort(st, PMS_STACKS_BY_NAME);
	nodes = pms_stacks__nodes(st, &nr_nodes);
	if (!nr_nodes || !nodes[0].total_samples) {
		if (o.event)
			error("%s: no samples of event '%s'", path, o.event);
		else
			error("%s: no samples to draw", path);
		ret = EXIT_RUNTIME;
		goto out;
	}
	err = o.svg ? pms_flamegraph__svg(st, &fo, &out) : pms_flamegraph__html(st, &fo, &out);
	if (err == -ENOMEM)
		die("out of memory");
	if (err) {
		error("cannot draw the flame graph: %s", strerror(-err));
		ret = EXIT_RUNTIME;
		goto out;
	}
	if (output__write(dest, &out)) {
		ret = EXIT_RUNTIME;
		goto out;
	}
	{
		const struct pms_stacks_meta *m = pms_stacks__meta(st);

		note("wrote %s (%s, %zu bytes): %" PRIu64 " sample%s, %zu stack node%s%s",
		     strcmp(dest, "-") ? dest : "stdout", o.svg ? "SVG" : "HTML", out.len, nodes[0].total_samples,
		     nodes[0].total_samples == 1 ? "" : "s", nr_nodes - 1, nr_nodes == 2 ? "" : "s",
		     m && m->lost ? ", some samples were lost while recording" : "");
	}
out:
	strbuf_release(&out);
	pms_stacks__free(st);
	pms_stacks__free(base);
	return ret;
}

PMS_COMMAND(flamegraph, "flamegraph",
	    "draw a perf.data file as an interactive flame graph (HTML) or a static SVG",
	    "pmuscope flamegraph [-i <file>] [-o <file>] [--svg] [--icicle] [--weight samples|period] [--root comm|pid|tid|none]");
