// SPDX-License-Identifier: MIT
// `pmuscope evlist`: the events of a perf.data file, one a line, as perf evlist prints them.
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <linux/perf_event.h>

#include "cmd.h"
#include "data_input.h"
#include "aggregate/session.h"
#include "data/groups.h"
#include "data/reader.h"
#include "data/tracing_data.h"
#include "event/attr_print.h"
#include "util/strbuf.h"

/* Every option's value: reset_opts() sets them all back to the defaults. */
static struct evlist_opts {
	const char *input;
	bool force, freq, group, verbose, trace_fields;
} o;

static const struct opt opts[] = {
	OPT_BOOL('f', "force", &o.force, "read a file another user owns"),
	OPT_BOOL('F', "freq", &o.freq, "show the sample frequency (or period)"),
	OPT_BOOL('g', "group", &o.group, "show event groups as {leader,member,...}"),
	OPT_STRING('i', "input", &o.input, "<file>", "input file (default perf.data, - for stdin)"),
	OPT_BOOL('v', "verbose", &o.verbose, "show every non-zero perf_event_attr field"),
	OPT_BOOL(0, "trace-fields", &o.trace_fields, "show the fields of tracepoint events"),
	OPT_END(),
};

static void reset_opts(void)
{
	o = (struct evlist_opts){ 0 };
}

/* perf's comma_fprintf(): ":" before an event's first detail, "," before the others. */
static void detail(struct strbuf *sb, bool *first)
{
	strbuf_adds(sb, *first ? ":" : ",");
	*first = false;
}

static void trace_fields(struct strbuf *sb, const struct perf_event_attr *a, struct pms_tracing_data *td,
			 bool *first)
{
	const char *field;

	detail(sb, first);
	if (a->type != PERF_TYPE_TRACEPOINT) {
		strbuf_adds(sb, " (not a tracepoint)");
		return;
	}
	if (!td || pms_tracing_data__field_at(td, a->config, 0, &field)) {
		strbuf_adds(sb, " (no trace field)");
		return;
	}
	strbuf_addf(sb, " trace_fields: %s", field);
	for (size_t i = 1; !pms_tracing_data__field_at(td, a->config, i, &field); i++)
		strbuf_addf(sb, ",%s", field);
}

/* One line for event i, as perf's evsel__fprintf(); group mode prints a leader's whole group, members nothing. */
static void print_event(struct pms_session *s, const struct pms_data_groups *g, size_t i,
			struct pms_tracing_data *td, struct strbuf *sb)
{
	struct pms_data_reader *r = pms_session__reader(s);
	const struct perf_event_attr *a = pms_data_reader__attr(r, i);
	bool first = true;

	strbuf_reset(sb);
	if (o.group) {
		if (!g->size[i])
			return;
		if (g->size[i] > 1)
			strbuf_addf(sb, "%s{", g->name[i] ? g->name[i] : "");
		strbuf_adds(sb, pms_session__event_name(s, i));
		for (size_t m = 1; m < g->size[i] && i + m < g->nr; m++)
			strbuf_addf(sb, ",%s", pms_session__event_name(s, i + m));
		if (g->size[i] > 1)
			strbuf_adds(sb, "}");
	} else {
		strbuf_adds(sb, pms_session__event_name(s, i));
		if (o.verbose) {
			pms_attr__format_inline(a, sb);
			first = false;
		} else if (o.freq) {
			detail(sb, &first);
			strbuf_addf(sb, " %s=%llu", a->freq ? "sample_freq" : "sample_period",
				    (unsigned long long)a->sample_freq);
		}
		if (o.trace_fields)
			trace_fields(sb, a, td, &first);
	}
	printf("%s\n", strbuf_str(sb));
}

static int run(int argc, char **argv)
{
	struct pms_session_opts so = { .sz = sizeof(so), .recover = true, .buildid_dir = "", .skip_kernel = true };
	struct pms_data_groups groups = { 0 };
	struct pms_tracing_data *td = NULL;
	struct pms_session *s = NULL;
	struct pms_data_reader *r;
	struct pms_data_error derr;
	struct strbuf sb = STRBUF_INIT;
	const char *path;
	bool has_tracepoint = false;
	int err, pos;

	pos = opt_parse(&cmd_evlist, &argc, argv, 0);
	if (pos < argc)
		usage_error(&cmd_evlist, "unexpected argument '%s' (name the file with -i)", argv[pos]);
	if (o.group && (o.verbose || o.freq))
		usage_error(&cmd_evlist, "--group cannot be combined with --verbose or --freq (as in perf)");
	path = o.input ? o.input : "perf.data";
	if (data_input__check_owner(path, o.force))
		return EXIT_RUNTIME;
	memset(&derr, 0, sizeof(derr));
	err = pms_session__open(&s, path, &so, &derr);
	if (err) {
		data_input__open_error(path, err, &derr, DATA_INPUT_RECORD_OR_I);
		return EXIT_RUNTIME;
	}
	r = pms_session__reader(s);
	err = pms_data_groups__build(&groups, r, false);
	if (err == -ENOMEM)
		die("out of memory");
	if (o.trace_fields) {
		const void *blob;
		size_t size;
		char msg[160];

		if (!pms_data_reader__feature_raw(r, PMS_FEAT_TRACING_DATA, &blob, &size) &&
		    pms_tracing_data__open(&td, blob, size, msg, sizeof(msg)) == -EOPNOTSUPP)
			warning("this build reads no tracing data (no libtraceevent): tracepoint fields are not shown");
	}
	for (size_t i = 0; i < pms_data_reader__nr_attrs(r); i++) {
		print_event(s, &groups, i, td, &sb);
		if (pms_data_reader__attr(r, i)->type == PERF_TYPE_TRACEPOINT)
			has_tracepoint = true;
	}
	if (has_tracepoint && !o.trace_fields)
		printf("# Tip: use 'pmuscope evlist --trace-fields' to show fields for tracepoint events\n");
	strbuf_release(&sb);
	pms_tracing_data__free(td);
	pms_data_groups__release(&groups);
	pms_session__free(s);
	return 0;
}

PMS_COMMAND(evlist, "evlist",
	    "list the events of a perf.data file (perf evlist)",
	    "pmuscope evlist [-i <file>] [-v | -F | -g] [--trace-fields]");
