// SPDX-License-Identifier: MIT
// `pmuscope export`: a perf.data file's call stacks in any registered export format (lib/export/exporters.c).
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd.h"
#include "output.h"
#include "data_input.h"
#include "symbol_opts.h"
#include "util/time_range.h"
#include "aggregate/session.h"
#include "aggregate/stacks.h"
#include "data/reader.h"
#include "export/export.h"
#include "util/strbuf.h"

/* Every option's value: reset_opts() sets them all back to the defaults. */
static struct export_opts {
	const char *input, *output, *format, *weight, *event, *root, *time;
	bool inline_frames, srcline, recover;
	int max_stack;
} o;

static const struct opt opts[] = {
	OPT_STRING('i', "input", &o.input, "<file>", "input file (default perf.data, - for stdin)"),
	OPT_STRING('o', "output", &o.output, "<file>", "output file (default stdout; - forces stdout for pprof)"),
	OPT_STRING_HELP_FN('f', "format", &o.format, "<fmt>", output__format_help),
	OPT_STRING(0, "weight", &o.weight, "<w>", "samples (default: each sample counts 1) or period (summed sample periods, ns for cpu-clock)"),
	OPT_STRING(0, "event", &o.event, "<name>", "only samples of this event (default: all)"),
	OPT_STRING(0, "root", &o.root, "<r>", "pseudo frames at the root: none, comm, pid or tid (default per format)"),
	OPT_BOOL(0, "inline", &o.inline_frames, "expand inlined functions from DWARF as frames of their own"),
	OPT_BOOL(0, "srcline", &o.srcline, "file and line of each frame from DWARF"),
	OPT_STRING(0, "time", &o.time, "<start,end>", "only samples in [start,end] (seconds, perf's clock; either may be empty)"),
	OPT_INT(0, "max-stack", &o.max_stack, "<n>", "frames kept per call chain (default 127)"),
	OPT_BOOL(0, "recover", &o.recover, "export the samples before damage in a truncated or corrupt file"),
	OPTS_SYMBOLS,
	OPT_END(),
};

static void reset_opts(void)
{
	symbol_opts__reset();
	o = (struct export_opts){ 0 };
}

static int run(int argc, char **argv)
{
	struct pms_session_opts so = { .sz = sizeof(so), .callchain = true };
	struct pms_stacks_opts sto = { .sz = sizeof(sto) };
	struct pms_export_opts eo = { .sz = sizeof(eo), .weight = PMS_WEIGHT_SAMPLES };
	const struct pms_exporter *fmt;
	struct pms_session *s = NULL;
	struct pms_stacks *st = NULL;
	struct strbuf out = STRBUF_INIT;
	const struct pms_data_error *damage;
	const char *path;
	int pos, err, ret = 0;

	pos = opt_parse(&cmd_export, &argc, argv, 0);
	if (pos < argc)
		usage_error(&cmd_export, "unexpected argument '%s' (the input file goes after -i)", argv[pos]);
	fmt = output__format(&cmd_export, o.format);
	if (o.weight && pms_export_weight__parse(o.weight, &eo.weight))
		usage_error(&cmd_export, "--weight: want samples or period, not '%s'", o.weight);
	sto.root = fmt->root;
	if (o.root && pms_stacks_root__parse(o.root, &sto.root))
		usage_error(&cmd_export, "--root: want none, comm, pid or tid, not '%s'", o.root);
	if (o.time && pms_time_range__parse(o.time, &sto.time_start_ns, &sto.time_end_ns))
		usage_error(&cmd_export, "--time: want <start>,<end> in seconds (e.g. 1234.5,1236), either may be empty");
	if (o.max_stack < 0)
		usage_error(&cmd_export, "--max-stack must be >= 1, not %d", o.max_stack);
	/* a terminal mangles binary output and the user gets nothing back */
	if (fmt->binary && !o.output && isatty(STDOUT_FILENO))
		usage_error(&cmd_export, "--format=%s is binary (gzip): name a file with -o, or force stdout with -o -",
			    fmt->name);
	sto.event = o.event;
	sto.inline_frames = o.inline_frames;
	sto.srcline = o.srcline;
	so.recover = o.recover;
	so.max_stack = o.max_stack > 0 ? (size_t)o.max_stack : 0;
	path = o.input ? o.input : "perf.data";

	err = data_input__open_session(&s, path, &so, DATA_INPUT_RECORD_OR_I);
	if (err) {
		if (err == -EBADMSG && !o.recover)
			note("--recover exports the samples before the damage");
		ret = EXIT_RUNTIME;
		goto out;
	}
	err = pms_stacks__from_session(s, &sto, &st, &damage);
	if (err == -ENOMEM)
		die("out of memory");
	if (err < 0) {
		error("'%s': %s", path, damage ? damage->msg : strerror(-err));
		note("--recover exports the samples before the damage");
		ret = EXIT_RUNTIME;
		goto out;
	}
	if (damage)
		warning("'%s': %s; samples after it are left out", path, damage->msg);
	if (o.event && !pms_stacks__meta(st)->samples && pms_stacks__meta(st)->samples_filtered) {
		struct pms_data_reader *rd = pms_session__reader(s);
		struct strbuf names = STRBUF_INIT;

		for (size_t i = 0; i < pms_data_reader__nr_attrs(rd); i++) {
			const char *nm = pms_data_reader__attr_name(rd, i);

			strbuf_addf(&names, "%s%s", i ? ", " : "", nm ? nm : "?");
		}
		warning("no samples of event '%s' in '%s' (its events: %s)", o.event, path, strbuf_str(&names));
		strbuf_release(&names);
	}
	if (!strcmp(fmt->name, "pprof") && strcmp(path, "-")) {
		const struct pms_stacks_meta *m = pms_stacks__meta(st);
		struct stat sb;

		/* perf timestamps are not wall clock: the file's mtime (the recording's end) anchors time_nanos */
		if (!stat(path, &sb) && m->time_last_ns >= m->time_first_ns) {
			struct pms_stacks_meta nm = *m;
			uint64_t end = (uint64_t)sb.st_mtim.tv_sec * 1000000000ULL + (uint64_t)sb.st_mtim.tv_nsec;
			uint64_t span = m->time_last_ns - m->time_first_ns;

			nm.start_wall_ns = end > span ? end - span : 0;
			if (pms_stacks__set_meta(st, &nm))
				die("out of memory");
		}
	}
	err = fmt->write(st, &eo, &out);
	if (err == -ENOMEM)
		die("out of memory");
	if (err) {
		error("%s export failed: %s", fmt->name, strerror(-err));
		ret = EXIT_RUNTIME;
		goto out;
	}
	if (output__write(o.output, &out))
		ret = EXIT_RUNTIME;
out:
	strbuf_release(&out);
	pms_stacks__free(st);
	pms_session__free(s);
	return ret;
}

PMS_COMMAND(export, "export",
	    "write a perf.data file's call stacks for other tools: pprof, folded, speedscope, Chrome trace, ...",
	    "pmuscope export [-i <file>] [-o <file>] [--format <fmt>] [--weight samples|period]");
