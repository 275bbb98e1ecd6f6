// SPDX-License-Identifier: MIT
// `pmuscope report`: histograms of a perf.data file (ours or perf's) by sort keys, with children, call graphs, filters, perf-style --stdio, --json or an --html page.
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cmd.h"
#include "output.h"
#include "data_input.h"
#include "symbol_opts.h"
#include "util/json.h"
#include "report_print.h"
#include "util/time_range.h"
#include "aggregate/hist.h"
#include "aggregate/session.h"
#include "aggregate/stacks.h"
#include "data/header_text.h"
#include "data/groups.h"
#ifndef PMS_NO_HOST_LIBS
#include "aggregate/annotate.h"
#include "export/annotate_text.h"
#endif
#include "data/reader.h"
#include "event/attr_print.h"
#include "export/export.h"
#include "export/report_html.h"
#include "ring/record.h"
#include "symbol/resolver.h"
#include "util/cpulist.h"
#include "util/strbuf.h"

/* Every option's value: reset_opts() frees what they own and sets them all back to the defaults. */
static struct report_opts {
	const char *input, *sort, *time, *html;
	const char *fields, *field_sep, *percentage, *symbol_filter, *pretty, *parent;
	bool exclude_other;
	bool stdio, json, header, header_only, stats, nr_samples;
	bool threads, hide_unresolved, quiet, total_period, hierarchy, cpu_util;
	int max_stack; /* -1: perf's default (127) */
	int group_sort_idx; /* -1: by the leader */
	int widths[REPORT_MAX_COLS]; /* -w, per column in order; 0: fit */
	size_t nr_widths;
	enum report_graph_mode graph_mode;
	enum report_graph_value graph_value;
	int print_limit; /* call-graph paths per entry in flat and folded; 0: all */
	/*
	 * perf's two other views, tristates as perf's: -1 decides by the file (branch mode when it
	 * was recorded with -b, HEADER_BRANCH_STACK; group view when it records event groups,
	 * HEADER_GROUP_DESC), 1 forces (-b, --group), 0 turns off (--no-branch-stack, --no-group).
	 */
	int branch, group;
	int children; /* -1: on when the file has call chains */
	enum pms_cg_order order;
	bool order_set, graph_none;
	bool graph_asked; /* -g named a graph or an order, or -G: the file must have chains */
	double cg_min, percent_limit;
	bool cg_min_set;

	/* comma lists, kept as argv slices copied */
	char **comms, **dsos, **syms;
	size_t nr_comms, nr_dsos, nr_syms;
	uint32_t *pids, *tids, *cpus;
	size_t nr_pids, nr_tids, nr_cpus;
} o;

static int set_branch(const struct opt *opt, const char *arg)
{
	(void)arg;
	o.branch = strcmp(opt->long_name, "no-branch-stack") != 0;
	return 0;
}

static int set_group(const struct opt *opt, const char *arg)
{
	(void)arg;
	o.group = strcmp(opt->long_name, "no-group") != 0;
	return 0;
}

static int set_children(const struct opt *opt, const char *arg)
{
	(void)arg;
	o.children = !strcmp(opt->long_name, "children");
	return 0;
}

/*
 * perf's -g grammar: print_type (graph|flat|fractal|folded|none), threshold,
 * print_limit, order (caller|callee), sort_key (function|address), branch,
 * value (percent|period|count), in any order as perf's parse_callchain_report_opt().
 */
static int set_call_graph(const struct opt *opt, const char *arg)
{
	char *copy = xstrdup(arg), *save = NULL;
	int ret = 0, numbers = 0;

	(void)opt;
	o.graph_asked = true;
	for (char *w = strtok_r(copy, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
		char *end;
		double d;

		if (!strcmp(w, "none")) {
			o.graph_none = true;
		} else if (!strcmp(w, "graph") || !strcmp(w, "flat") || !strcmp(w, "fractal") || !strcmp(w, "folded")) {
			o.graph_none = false;
			o.graph_mode = !strcmp(w, "graph") ? REPORT_GRAPH : !strcmp(w, "flat") ? REPORT_FLAT :
				       !strcmp(w, "fractal") ? REPORT_FRACTAL : REPORT_FOLDED;
		} else if (!strcmp(w, "function")) {
			/* perf's default sort_key: nodes per function, as ours always are */
		} else if (!strcmp(w, "address")) {
			error("-g address: call graph nodes are per function in pmuscope; per-address nodes are not "
			      "supported (`pmuscope script` shows every sample's addresses)");
			ret = -1;
			break;
		} else if (!strcmp(w, "branch")) {
			error("-g branch: adding the last branch records to call graphs is not supported (and needs a "
			      "file recorded with -b or --call-graph lbr)");
			ret = -1;
			break;
		} else if (!strcmp(w, "percent") || !strcmp(w, "period") || !strcmp(w, "count")) {
			o.graph_value = !strcmp(w, "percent") ? REPORT_VALUE_PERCENT :
					!strcmp(w, "period") ? REPORT_VALUE_PERIOD : REPORT_VALUE_COUNT;
		} else if (!strcmp(w, "caller") || !strcmp(w, "callee")) {
			o.order = !strcmp(w, "caller") ? PMS_CG_CALLER : PMS_CG_CALLEE;
			o.order_set = true;
			o.graph_none = false;
		} else {
			errno = 0;
			d = strtod(w, &end);
			/* the first number is the threshold, the second the print limit (perf's order) */
			if (numbers == 0 && !errno && !*end && end != w && d >= 0 && d <= 100) {
				o.cg_min = d;
				o.cg_min_set = true;
			} else if (numbers == 1 && !errno && !*end && end != w && d >= 0 && d <= INT32_MAX &&
				   d == (double)(int)d) {
				o.print_limit = (int)d;
			} else {
				error("-g: unknown word '%s' (want graph, flat, fractal, folded, none, caller, callee, "
				      "function, percent, period, count, a threshold in %% and a print limit)", w);
				ret = -1;
				break;
			}
			numbers++;
		}
	}
	free(copy);
	return ret;
}

static int set_inverted(const struct opt *opt, const char *arg)
{
	(void)opt;
	(void)arg;
	o.order = PMS_CG_CALLER;
	o.order_set = true;
	o.graph_asked = true;
	return 0;
}

/* perf's --tui: there is no report browser here; the text is what --tui would browse. */
static int set_tui(const struct opt *opt, const char *arg)
{
	(void)arg;
	note("--%s: pmuscope report has no interactive browser; printing the --stdio report (for a live "
	     "terminal view use `pmuscope top`)", opt->long_name);
	return 0;
}

static int set_widths(const struct opt *opt, const char *arg)
{
	const char *p = arg;

	(void)opt;
	o.nr_widths = 0;
	while (*p) {
		char *end;
		long v;

		errno = 0;
		v = strtol(p, &end, 10);
		if (errno || end == p || v < 0 || v > 4096 || (*end && *end != ',') || o.nr_widths >= REPORT_MAX_COLS) {
			error("-w: want widths separated by commas (0: fit the entries), not '%s'", arg);
			return -1;
		}
		o.widths[o.nr_widths++] = (int)v;
		p = *end ? end + 1 : end;
	}
	return 0;
}

static int set_percentage(const struct opt *opt, const char *arg)
{
	(void)opt;
	if (strcmp(arg, "relative") && strcmp(arg, "absolute")) {
		error("--percentage: want relative or absolute, not '%s'", arg);
		return -1;
	}
	o.percentage = arg;
	return 0;
}

static int set_pretty(const struct opt *opt, const char *arg)
{
	(void)opt;
	if (!strcmp(arg, "raw")) {
		error("--pretty raw: not supported; -T prints perf's normal (aligned) table");
		return -1;
	}
	if (strcmp(arg, "normal")) {
		error("--pretty: want normal, not '%s'", arg);
		return -1;
	}
	o.pretty = arg;
	return 0;
}

/* Options perf takes that change nothing in pmuscope's report (the row in docs/perf-compat.md says why). */
static int accept_noop(const struct opt *opt, const char *arg)
{
	(void)opt;
	(void)arg;
	return 0;
}

static int set_show_info(const struct opt *opt, const char *arg)
{
	(void)opt;
	(void)arg;
	o.header = true;
	return 0;
}

static int add_strs(const char *arg, char ***list, size_t *nr)
{
	char *copy = xstrdup(arg), *save = NULL;

	for (char *w = strtok_r(copy, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
		*list = xrealloc(*list, (*nr + 1) * sizeof(**list));
		(*list)[(*nr)++] = xstrdup(w);
	}
	free(copy);
	return 0;
}

/* Repeated --pid/--tid/--cpu options add up, as perf's do. */
static void append_u32s(uint32_t **list, size_t *nr, const int *v, size_t n)
{
	*list = xrealloc(*list, (*nr + n) * sizeof(**list));
	for (size_t i = 0; i < n; i++)
		(*list)[(*nr)++] = (uint32_t)v[i];
}

static int add_ids(const char *opt_name, const char *arg, uint32_t **list, size_t *nr)
{
	pid_t *ids;
	size_t n;

	opt_parse_id_list(&cmd_report, opt_name, arg, 0, &ids, &n);
	append_u32s(list, nr, ids, n);
	free(ids);
	return 0;
}

static int add_cpus(const char *arg)
{
	struct pms_cpulist cpus;

	if (pms_cpulist__parse(arg, &cpus, NULL))
		usage_error(&cmd_report, "--cpu: '%s' is not a CPU list (e.g. 0-3,8)", arg);
	append_u32s(&o.cpus, &o.nr_cpus, cpus.cpus, cpus.nr);
	pms_cpulist__release(&cpus);
	return 0;
}

static int cb_comm(const struct opt *opt, const char *a) { (void)opt; return add_strs(a, &o.comms, &o.nr_comms); }
static int cb_dso(const struct opt *opt, const char *a) { (void)opt; return add_strs(a, &o.dsos, &o.nr_dsos); }
static int cb_sym(const struct opt *opt, const char *a) { (void)opt; return add_strs(a, &o.syms, &o.nr_syms); }
static int cb_pid(const struct opt *opt, const char *a) { (void)opt; return add_ids("--pid", a, &o.pids, &o.nr_pids); }
static int cb_tid(const struct opt *opt, const char *a) { (void)opt; return add_ids("--tid", a, &o.tids, &o.nr_tids); }
static int cb_cpu(const struct opt *opt, const char *a) { (void)opt; return add_cpus(a); }

static const struct opt opts[] = {
	OPT_STRING('i', "input", &o.input, "<file>", "input file (default perf.data, - for stdin)"),
	OPT_BOOL(0, "stdio", &o.stdio, "perf-style text output (the default)"),
	OPT_BOOL(0, "json", &o.json, "JSON output (schema in the man page: man pmuscope-report)"),
	OPT_STRING(0, "html", &o.html, "<file>", "write one HTML page: summary, top functions, processes, threads, flame graph (- for stdout)"),
	OPT_CALLBACK_NOARG(0, "tui", "no interactive browser here: prints the --stdio report with a note", set_tui),
	OPT_CALLBACK_NOARG(0, "gtk", "no GTK browser here: prints the --stdio report with a note", set_tui),
	OPT_CALLBACK(0, "stdio-color", "<mode>", "accepted; the text has no colors", accept_noop),
	OPT_STRING('s', "sort", &o.sort, "<keys>", "comm,pid,tid,dso,sym,srcline,cpu,parent (default comm,dso,sym); branch mode also "
		   "dso_from,dso_to,symbol_from,symbol_to,cycles,mispredict (default comm,dso_from,symbol_from,symbol_to,cycles)"),
	OPT_STRING('F', "fields", &o.fields, "<fields>", "columns in this order: overhead, overhead_sys, overhead_us, "
		   "overhead_children, sample, period and sort keys"),
	OPT_BOOL(0, "hierarchy", &o.hierarchy, "entries as a tree, one sort key per level (implies --no-children)"),
	OPT_CALLBACK_NOARG(0, "children", "inclusive Children column (default with call chains)", set_children),
	OPT_CALLBACK_NOARG(0, "no-children", "self weights only", set_children),
	OPT_CALLBACK('g', "call-graph", "<how>", "graph|flat|fractal|folded|none, caller|callee, percent|period|count, "
		     "function, a threshold % and a print limit, comma separated (default graph,0.5,caller with "
		     "children, else callee)", set_call_graph),
	OPT_CALLBACK_NOARG('G', "inverted", "call graphs in caller order (same as -g caller)", set_inverted),
	OPT_INT(0, "max-stack", &o.max_stack, "<n>", "use at most n frames of each call chain (default 127)"),
	OPT_CALLBACK_NOARG('b', "branch-stack", "one entry per branch of the samples' branch stacks (default when "
			   "the file was recorded with -b)", set_branch),
	OPT_CALLBACK_NOARG(0, "no-branch-stack", "report samples, not the branches of their branch stacks", set_branch),
	OPT_CALLBACK_NOARG(0, "group", "event groups side by side, one column per member (default for the file's "
			   "groups; with none recorded, all events as one group)", set_group),
	OPT_CALLBACK_NOARG(0, "no-group", "one section per event, not one view per event group", set_group),
	OPT_INT(0, "group-sort-idx", &o.group_sort_idx, "<n>", "sort a group view by member n's weight (0 the leader)"),
	OPT_BOOL('n', "show-nr-samples", &o.nr_samples, "a Samples column beside the percentages"),
	OPT_BOOL(0, "show-total-period", &o.total_period, "a Period column beside the percentages"),
	OPT_BOOL(0, "show-cpu-utilization", &o.cpu_util, "sys and usr columns: the shares of kernel and user samples"),
	OPT_BOOL('T', "threads", &o.threads, "per-thread counts from the file's PERF_RECORD_READ records (record -s)"),
	OPT_DOUBLE(0, "percent-limit", &o.percent_limit, "<p>", "hide entries below p percent"),
	OPT_CALLBACK(0, "percentage", "<relative|absolute>", "percentages of what the filters keep (relative) or of "
		     "the whole event (absolute, the default)", set_percentage),
	OPT_CALLBACK('w', "column-widths", "<w,w,...>", "fixed widths of the columns in order (0: fit the entries); "
		     "longer texts are cut", set_widths),
	OPT_STRING('t', "field-separator", &o.field_sep, "<sep>", "separate columns with sep, without padding"),
	OPT_STRING('p', "parent", &o.parent, "<regex>", "the parent key's pattern (extended regex; default "
		   "^sys_|^do_page_fault); adds the key"),
	OPT_BOOL('x', "exclude-other", &o.exclude_other, "only samples with a parent match"),
	OPT_BOOL('U', "hide-unresolved", &o.hide_unresolved, "only entries whose symbol is known"),
	OPT_CALLBACK(0, "comm", "<names>", "only these commands (comma list)", cb_comm),
	OPT_CALLBACK('c', "comms", "<names>", "same as --comm", cb_comm),
	OPT_CALLBACK(0, "pid", "<pids>", "only these processes", cb_pid),
	OPT_CALLBACK(0, "tid", "<tids>", "only these threads", cb_tid),
	OPT_CALLBACK(0, "dso", "<names>", "only samples in these objects (path or base name)", cb_dso),
	OPT_CALLBACK('d', "dsos", "<names>", "same as --dso", cb_dso),
	OPT_CALLBACK(0, "sym", "<names>", "only samples in these symbols", cb_sym),
	OPT_CALLBACK('S', "symbols", "<names>", "same as --sym", cb_sym),
	OPT_STRING(0, "symbol-filter", &o.symbol_filter, "<text>", "only entries whose symbol contains text"),
	OPT_CALLBACK('C', "cpu", "<cpus>", "only samples on these CPUs (0,2-3)", cb_cpu),
	OPT_STRING(0, "time", &o.time, "<start,end>", "only samples in [start,end], end included (seconds of the "
		   "recording's clock, as perf script prints them; either may be empty)"),
	OPT_BOOL(0, "header", &o.header, "print the file's metadata before the report"),
	OPT_BOOL(0, "header-only", &o.header_only, "print only the file's metadata"),
	OPT_CALLBACK_NOARG('I', "show-info", "same as --header (the header always has perf's extended information)",
			   set_show_info),
	OPT_BOOL(0, "stats", &o.stats, "print record counts by type instead of the report"),
	OPT_BOOL('q', "quiet", &o.quiet, "no warnings"),
	OPT_CALLBACK_NOARG('f', "force", "accepted: files of other users are read without complaint anyway", accept_noop),
	OPT_CALLBACK_NOARG(0, "skip-empty", "accepted: events without samples are never shown", accept_noop),
	OPT_CALLBACK_NOARG(0, "ignore-vmlinux", "accepted: kernel symbols come from kallsyms, never vmlinux", accept_noop),
	OPT_CALLBACK_NOARG(0, "demangle", "accepted: C++ and Rust names are always demangled", accept_noop),
	OPT_CALLBACK_NOARG(0, "demangle-kernel", "accepted: kernel names are shown as kallsyms has them", accept_noop),
	OPT_CALLBACK_NOARG(0, "disable-order", "accepted: samples are always read in time order", accept_noop),
	OPT_CALLBACK(0, "pretty", "<normal>", "-T's table style: normal, the aligned one (raw is not supported)", set_pretty),
	OPTS_SYMBOLS,
	OPT_REFUSED('k', "vmlinux", "<file>", "kernel symbols come from kallsyms (--kallsyms, the build-id cache), not "
		    "from a vmlinux image"),
	OPT_REFUSED('m', "modules", NULL, "module symbols come from kallsyms and the recorded module files"),
	OPT_REFUSED('v', "verbose", NULL, "report has no verbose mode; use the global `pmuscope -v report`"),
	OPT_REFUSED('D', "dump-raw-trace", NULL, "report does not dump raw records (`pmuscope report --stats` counts them by type)"),
	OPT_REFUSED('M', "disassembler-style", "<style>", "report prints no disassembly; `pmuscope annotate` "
		    "disassembles with capstone (its -M att|intel)"),
	OPT_REFUSED(0, "asm-raw", NULL, "report prints no disassembly; see `pmuscope annotate`"),
	OPT_REFUSED(0, "objdump", "<path>", "pmuscope disassembles with capstone, not objdump; see `pmuscope annotate`"),
	OPT_REFUSED(0, "source", NULL, "report prints no disassembly; `pmuscope annotate` interleaves source lines"),
	OPT_REFUSED(0, "prefix", "<prefix>", "for annotation in perf's browser; see `pmuscope annotate`"),
	OPT_REFUSED(0, "prefix-strip", "<n>", "for annotation in perf's browser; see `pmuscope annotate`"),
	OPT_REFUSED(0, "percent-type", "<type>", "for annotation in perf's browser; see `pmuscope annotate`"),
	OPT_REFUSED(0, "samples", "<n>", "samples kept for perf's browser; report has no browser"),
	OPT_REFUSED(0, "itrace", "<opts>", "instruction trace decoding (Intel PT, CoreSight, ARM SPE AUX data) is not "
		    "supported"),
	OPT_REFUSED(0, "branch-history", NULL, "adding branch stacks to call graphs is not supported (-b shows the "
		    "branches themselves)"),
	OPT_REFUSED(0, "stitch-lbr", NULL, "LBR call stack stitching is not supported"),
	OPT_REFUSED(0, "total-cycles", NULL, "the basic-block cycles view of LBR data is not supported"),
	OPT_REFUSED(0, "mem-mode", NULL, "the memory access view (data_src, weight) is not supported"),
	OPT_REFUSED(0, "inline", NULL, "inlined functions are not shown as frames"),
	OPT_REFUSED(0, "full-source-path", NULL, "srcline shows the path DWARF records"),
	OPT_REFUSED(0, "ignore-callees", "<regex>", "not supported"),
	OPT_REFUSED(0, "show-ref-call-graph", NULL, "reference call graphs (perf record's :S leader sampling) are not "
		    "supported"),
	OPT_REFUSED(0, "raw-trace", NULL, "there is no trace sort key; `pmuscope script` prints tracepoint fields"),
	OPT_REFUSED(0, "socket-filter", "<n>", "there is no socket sort key"),
	OPT_REFUSED(0, "switch-on", "<event>", "not supported"),
	OPT_REFUSED(0, "switch-off", "<event>", "not supported"),
	OPT_REFUSED(0, "show-on-off-events", NULL, "not supported (no --switch-on/--switch-off)"),
	OPT_REFUSED(0, "time-quantum", "<time>", "there is no time sort key"),
	OPT_REFUSED(0, "ns", NULL, "there is no time sort key"),
	OPT_REFUSED(0, "mmaps", NULL, "report does not list the recorded memory maps"),
	OPT_REFUSED(0, "tasks", NULL, "report does not list the recorded tasks"),
	OPT_END(),
};

/* Forget the options of a previous run (commands run more than once in one process: tests). */
static void reset_opts(void)
{
	for (size_t i = 0; i < o.nr_comms; i++)
		free(o.comms[i]);
	for (size_t i = 0; i < o.nr_dsos; i++)
		free(o.dsos[i]);
	for (size_t i = 0; i < o.nr_syms; i++)
		free(o.syms[i]);
	free(o.comms);
	free(o.dsos);
	free(o.syms);
	free(o.pids);
	free(o.tids);
	free(o.cpus);
	symbol_opts__reset();
	o = (struct report_opts){ .branch = -1, .group = -1, .children = -1, .cg_min = 0.5, .max_stack = -1, .group_sort_idx = -1 };
}

/*
 * perf's -F: the columns in order, weights or sort keys; the -s keys it does
 * not name follow (perf appends them). keys[0..*nr) holds the -s keys on
 * entry and the hist's keys on return: the -F keys first. 0, or -EINVAL
 * with *bad at the word.
 */
static int parse_fields(const char *text, enum pms_sort_key *keys, size_t *nr, struct report_column *cols,
			size_t *nr_cols, const char **bad)
{
	static const struct { const char *name; enum report_col_type type; } weights[] = {
		{ "overhead", REPORT_COL_SELF }, { "overhead_children", REPORT_COL_CHILDREN },
		{ "overhead_sys", REPORT_COL_SYS }, { "overhead_us", REPORT_COL_US },
		{ "sample", REPORT_COL_SAMPLES }, { "period", REPORT_COL_PERIOD },
	};
	enum pms_sort_key fk[PMS_HIST_MAX_KEYS];
	size_t nfk = 0, nc = 0;
	const char *p = text;

	while (*p) {
		size_t len = strcspn(p, ",");
		char word[64];
		size_t i, one, off;
		bool done = false;

		*bad = p;
		if (!len || len >= sizeof(word) || nc >= REPORT_MAX_COLS - PMS_HIST_MAX_KEYS)
			return -EINVAL;
		memcpy(word, p, len);
		word[len] = 0;
		for (i = 0; i < sizeof(weights) / sizeof(weights[0]); i++)
			if (!strcmp(word, weights[i].name)) {
				cols[nc++] = (struct report_column){ .type = weights[i].type };
				done = true;
			}
		if (!done) {
			if (pms_sort_keys__parse(word, &fk[nfk], 1, &one, &off) || !one || nfk >= PMS_HIST_MAX_KEYS)
				return -EINVAL;
			cols[nc++] = (struct report_column){ .type = REPORT_COL_KEY, .key = fk[nfk++] };
		}
		p += len;
		if (*p == ',')
			p++;
	}
	for (size_t k = 0; k < *nr; k++) {
		bool named = false;

		for (size_t j = 0; j < nfk; j++)
			named |= fk[j] == keys[k];
		if (!named && nfk < PMS_HIST_MAX_KEYS) {
			fk[nfk++] = keys[k];
			cols[nc++] = (struct report_column){ .type = REPORT_COL_KEY, .key = keys[k] };
		}
	}
	memcpy(keys, fk, nfk * sizeof(*keys));
	*nr = nfk;
	*nr_cols = nc;
	return 0;
}

/* ------------------------------------------------------------- header -- */

static const char *user_type_name(uint32_t type)
{
	static const char *const names[] = {
		"HEADER_ATTR", "HEADER_EVENT_TYPE", "HEADER_TRACING_DATA", "HEADER_BUILD_ID",
		"FINISHED_ROUND", "ID_INDEX", "AUXTRACE_INFO", "AUXTRACE", "AUXTRACE_ERROR",
		"THREAD_MAP", "CPU_MAP", "STAT_CONFIG", "STAT", "STAT_ROUND", "EVENT_UPDATE",
		"TIME_CONV", "HEADER_FEATURE", "COMPRESSED", "FINISHED_INIT", "COMPRESSED2",
	};

	if (type >= 64 && type - 64 < sizeof(names) / sizeof(names[0]))
		return names[type - 64];
	return pms_record__type_name(type);
}

static void print_stats(FILE *f, const struct pms_session_stats *st, const struct pms_hist *h)
{
	uint64_t total = 0;

	for (size_t t = 0; t < 128; t++)
		total += st->records_by_type[t];
	fprintf(f, "\nAggregated stats:\n%16s events: %10" PRIu64 "\n", "TOTAL", total);
	for (size_t t = 0; t < 128; t++)
		if (st->records_by_type[t])
			fprintf(f, "%16s events: %10" PRIu64 "  (%4.1f%%)\n", user_type_name((uint32_t)t),
				st->records_by_type[t], 100.0 * (double)st->records_by_type[t] / (double)total);
	if (st->lost_samples || st->lost_events)
		fprintf(f, "%16s        : %10" PRIu64 "\n%16s        : %10" PRIu64 "\n", "lost events",
			st->lost_events, "lost samples", st->lost_samples);
	for (size_t i = 0; h && i < pms_hist__nr_events(h); i++) {
		const struct pms_hist_event *ev = pms_hist__event(h, i);

		fprintf(f, "%s stats:\n%16s events: %10" PRIu64 "\n", ev->name, "SAMPLE", ev->samples);
	}
}

/* ------------------------------------------------------------ threads -- */

static int digits_u64(uint64_t v)
{
	char b[24];

	return snprintf(b, sizeof(b), "%" PRIu64, v);
}

/*
 * perf's -T table (perf_read_values__display_pretty()): a row per thread and
 * a column per event, both in the order the READ records first name them,
 * each as wide as its widest value or title (PID and TID at least 3).
 */
static void print_threads(FILE *f, struct pms_session *s)
{
	size_t n = pms_session__nr_reads(s), nt = 0, ne = 0;
	size_t *threads = xmalloc((n ? n : 1) * sizeof(*threads)), *events = xmalloc((n ? n : 1) * sizeof(*events));
	int pw = 3, tw = 3, *ew = xmalloc((n ? n : 1) * sizeof(*ew));

	for (size_t i = 0; i < n; i++) {
		const struct pms_session_read *r = pms_session__read(s, i);
		size_t t, e;

		for (t = 0; t < nt; t++) {
			const struct pms_session_read *x = pms_session__read(s, threads[t]);

			if (x->pid == r->pid && x->tid == r->tid)
				break;
		}
		if (t == nt)
			threads[nt++] = i;
		for (e = 0; e < ne && pms_session__read(s, events[e])->attr_idx != r->attr_idx; e++)
			;
		if (e == ne) {
			const char *name = pms_session__event_name(s, r->attr_idx);

			ew[ne] = (int)strlen(name ? name : "?");
			events[ne++] = i;
		}
		if (snprintf(NULL, 0, "%d", (int)r->pid) > pw)
			pw = snprintf(NULL, 0, "%d", (int)r->pid);
		if (snprintf(NULL, 0, "%d", (int)r->tid) > tw)
			tw = snprintf(NULL, 0, "%d", (int)r->tid);
		if (digits_u64(r->value) > ew[e])
			ew[e] = digits_u64(r->value);
	}
	fprintf(f, "#\n# %*s  %*s", pw, "PID", tw, "TID");
	for (size_t e = 0; e < ne; e++) {
		const char *name = pms_session__event_name(s, pms_session__read(s, events[e])->attr_idx);

		fprintf(f, "  %*s", ew[e], name ? name : "?");
	}
	fputc('\n', f);
	for (size_t t = 0; t < nt; t++) {
		const struct pms_session_read *x = pms_session__read(s, threads[t]);

		fprintf(f, "  %*d  %*d", pw, (int)x->pid, tw, (int)x->tid);
		for (size_t e = 0; e < ne; e++) {
			uint64_t v = 0;

			for (size_t i = 0; i < n; i++) {
				const struct pms_session_read *r = pms_session__read(s, i);

				if (r->pid == x->pid && r->tid == x->tid &&
				    r->attr_idx == pms_session__read(s, events[e])->attr_idx)
					v = r->value;
			}
			fprintf(f, "  %*" PRIu64, ew[e], v);
		}
		fputc('\n', f);
	}
	if (!n)
		fputs("# (no PERF_RECORD_READ records: record with -s/--stat for per-thread counts)\n", f);
	fputs("#\n", f);
	free(threads);
	free(events);
	free(ew);
}

/* ------------------------------------------------------------ summary -- */

static const char *recorded_build_id(struct pms_data_reader *rd, const char *path, char *buf, size_t sz)
{
	const struct pms_data_features *ft = pms_data_reader__features(rd);

	for (size_t i = 0; i < ft->nr_build_ids; i++) {
		const struct pms_data_build_id *b = &ft->build_ids[i];

		if (b->filename && !strcmp(b->filename, path)) {
			size_t n = 0;

			for (size_t k = 0; k < b->size && n + 3 < sz; k++)
				n += (size_t)snprintf(buf + n, sz - n, "%02x", b->id[k]);
			return buf;
		}
	}
	return NULL;
}

static uint64_t unresolved_total(const struct pms_session_stats *st)
{
	uint64_t n = 0;

	for (int r = 0; r < PMS_UNRES__NR; r++)
		n += st->unresolved[r];
	return n;
}

static void print_summary(FILE *f, struct pms_session *s, const struct pms_hist *h)
{
	const struct pms_session_stats *st = pms_session__stats(s);
	struct pms_resolver *res = pms_session__resolver(s);
	uint64_t unres = unresolved_total(st);
	char idbuf[64];

	fprintf(f, "# pmuscope summary:\n#   samples: %" PRIu64 ", lost samples: %" PRIu64
		", lost events: %" PRIu64, st->samples, st->lost_samples, st->lost_events);
	if (pms_hist__filtered(h))
		fprintf(f, ", filtered out: %" PRIu64, pms_hist__filtered(h));
	if (st->bad_samples)
		fprintf(f, ", undecodable: %" PRIu64, st->bad_samples);
	fputc('\n', f);
	if (unres) {
		const char *sep = " (";

		fprintf(f, "#   unsymbolized: %" PRIu64 " samples", unres);
		for (int r = 0; r < PMS_UNRES__NR; r++)
			if (st->unresolved[r]) {
				fprintf(f, "%s%s: %" PRIu64, sep, pms_unres_reason__describe((enum pms_unres_reason)r),
					st->unresolved[r]);
				sep = ", ";
			}
		fputs(")\n", f);
	} else {
		fputs("#   unsymbolized: 0 samples\n", f);
	}
	if (st->unresolved[PMS_UNRES_NO_KERNEL] || st->unresolved[PMS_UNRES_RESTRICTED]) {
		struct pms_kernel_info ki;

		pms_resolver__kernel_info(res, &ki);
		if (ki.source == PMS_KSRC_NONE && *ki.why)
			fprintf(f, "#   kernel: %s: %" PRIu64 " samples left as addresses%s\n", ki.why,
				st->unresolved[PMS_UNRES_NO_KERNEL] + st->unresolved[PMS_UNRES_RESTRICTED],
				ki.restricted ? "" :
				" (to name them: unpack `pmuscope archive` of the recording into the build-id cache, "
				"or give its kallsyms with --kallsyms)");
		else if (st->unresolved[PMS_UNRES_NO_KERNEL])
			fprintf(f, "#   kernel modules: %" PRIu64 " samples in modules that are not where the recording "
				"had them; their symbols are not here\n", st->unresolved[PMS_UNRES_NO_KERNEL]);
	}
	{
		struct pms_unnamed_file u;
		const char *urls = getenv("DEBUGINFOD_URLS");
		/* the last resort names what was tried when it was */
		const char *di = urls && *urls ? "the debuginfod servers in DEBUGINFOD_URLS do not have it either" :
						 "or set DEBUGINFOD_URLS";
		size_t i;

		for (i = 0; i < 10 && !pms_resolver__unnamed(res, i, &u); i++) {
			switch (u.why) {
			case PMS_RES_STALE: {
				const char *rec = recorded_build_id(pms_session__reader(s), u.path, idbuf, sizeof(idbuf));

				fprintf(f, "#   binary rebuilt: %s — build-id recorded %s, on disk %s (%zu samples left "
					"unsymbolized)\n", u.path, rec ? rec : *u.build_id_hex ? u.build_id_hex :
					"(from the MMAP2 record)", *u.found_build_id_hex ? u.found_build_id_hex : "none",
					u.samples);
				break;
			}
			case PMS_RES_STRIPPED:
				fprintf(f, "#   stripped binary: %s (%zu samples): no .symtab and no debug file; install "
					"its debug symbols (a -dbgsym package)%s%s\n", u.path, u.samples,
					urls && *urls ? "; " : " ", di);
				break;
			default:
				if (*u.build_id_hex)
					fprintf(f, "#   binary missing: %s (%zu samples): build-id %s is neither on disk nor "
						"in the build-id cache (copy it there with `pmuscope archive`, use --symfs, "
						"%s)\n", u.path, u.samples, u.build_id_hex, di);
				else
					fprintf(f, "#   binary missing: %s (%zu samples): not on this machine, and no "
						"build-id was recorded to find it by\n", u.path, u.samples);
				break;
			}
		}
		if (!pms_resolver__unnamed(res, i, &u)) {
			size_t more = 0;

			while (!pms_resolver__unnamed(res, i + more, &u))
				more++;
			fprintf(f, "#   ... and %zu more files with unsymbolized samples (report --json lists them all)\n",
				more);
		}
	}
	{
		struct pms_chaincheck_result cc;

		pms_session__chain_check(s, &cc);
		report_print_chain_check(f, "#   ", &cc);
	}
	if (st->dwarf_samples)
		fprintf(f, "#   dwarf unwinding: %" PRIu64 " samples with user stacks, %" PRIu64
			" unwound only to the sampled IP\n", st->dwarf_samples, st->dwarf_failed);
}

static void json_summary(struct pms_json *w, struct pms_session *s, const struct pms_hist *h)
{
	const struct pms_session_stats *st = pms_session__stats(s);
	struct pms_resolver *res = pms_session__resolver(s);
	static const char *const keys[PMS_UNRES__NR] = {
		[PMS_UNRES_NO_MAP] = "no_map", [PMS_UNRES_NO_FILE] = "no_file", [PMS_UNRES_NO_SYM] = "no_sym",
		[PMS_UNRES_STALE] = "stale", [PMS_UNRES_RESTRICTED] = "restricted",
		[PMS_UNRES_NO_KERNEL] = "no_kernel", [PMS_UNRES_STRIPPED] = "stripped",
	};
	const char *path, *found;
	size_t n;
	char idbuf[64];

	pms_json__obj(w, "summary");
	pms_json__uint(w, "samples", st->samples);
	pms_json__uint(w, "lost_samples", st->lost_samples);
	pms_json__uint(w, "lost_events", st->lost_events);
	pms_json__uint(w, "bad_samples", st->bad_samples);
	pms_json__uint(w, "filtered", pms_hist__filtered(h));
	pms_json__obj(w, "unresolved");
	pms_json__uint(w, "total", unresolved_total(st));
	for (int r = 0; r < PMS_UNRES__NR; r++)
		pms_json__uint(w, keys[r], st->unresolved[r]);
	pms_json__end(w);
	pms_json__arr(w, "stale");
	for (size_t i = 0; !pms_resolver__stale(res, i, &path, &n, &found); i++) {
		pms_json__obj(w, NULL);
		pms_json__str(w, "path", path);
		pms_json__uint(w, "samples", n);
		pms_json__str(w, "build_id_recorded", recorded_build_id(pms_session__reader(s), path, idbuf, sizeof(idbuf)));
		pms_json__str(w, "build_id_on_disk", found && *found ? found : NULL);
		pms_json__end(w);
	}
	pms_json__end(w);
	{
		static const char *const whys[] = { [PMS_RES_NO_FILE] = "missing", [PMS_RES_STALE] = "rebuilt",
						    [PMS_RES_STRIPPED] = "stripped" };
		static const char *const srcs[] = { [PMS_KSRC_NONE] = NULL, [PMS_KSRC_RUNNING] = "running",
						    [PMS_KSRC_CACHE] = "build-id cache", [PMS_KSRC_FILE] = "kallsyms file" };
		struct pms_unnamed_file u;
		struct pms_kernel_info ki;

		pms_json__arr(w, "unnamed_files");
		for (size_t i = 0; !pms_resolver__unnamed(res, i, &u); i++) {
			pms_json__obj(w, NULL);
			pms_json__str(w, "path", u.path);
			pms_json__str(w, "why", u.why <= PMS_RES_STRIPPED && whys[u.why] ? whys[u.why] : "?");
			pms_json__uint(w, "samples", u.samples);
			pms_json__str(w, "build_id", *u.build_id_hex ? u.build_id_hex : NULL);
			pms_json__end(w);
		}
		pms_json__end(w);
		pms_json__obj(w, "kernel");
		if (st->unresolved[PMS_UNRES_NO_KERNEL] || st->unresolved[PMS_UNRES_RESTRICTED] ||
		    pms_resolver__kernel_touched(res)) {
			pms_resolver__kernel_info(res, &ki);
			pms_json__str(w, "symbols", srcs[ki.source]);
			pms_json__str(w, "path", ki.path);
			pms_json__str(w, "build_id", *ki.build_id_hex ? ki.build_id_hex : NULL);
			pms_json__int(w, "kaslr_offset", ki.delta);
			pms_json__str(w, "why_not", *ki.why ? ki.why : NULL);
		}
		pms_json__end(w);
	}
	{
		struct pms_chaincheck_result cc;

		pms_session__chain_check(s, &cc);
		pms_json__obj(w, "call_chains");
		pms_json__uint(w, "user_chains", cc.chains);
		pms_json__uint(w, "complete", cc.complete);
		pms_json__uint(w, "cut", cc.cut);
		pms_json__uint(w, "cut_without_frame_pointers", cc.cut_no_fp);
		pms_json__arr(w, "objects");
		for (size_t i = 0; i < cc.nr_objects; i++) {
			pms_json__obj(w, NULL);
			pms_json__str(w, "dso", cc.objects[i].dso);
			pms_json__uint(w, "cut", cc.objects[i].cut);
			if (cc.objects[i].frame_pointers < 0)
				pms_json__null(w, "frame_pointers");
			else
				pms_json__bool(w, "frame_pointers", cc.objects[i].frame_pointers == 1);
			pms_json__end(w);
		}
		pms_json__end(w);
		pms_json__end(w);
	}
	pms_json__obj(w, "dwarf");
	pms_json__uint(w, "samples", st->dwarf_samples);
	pms_json__uint(w, "failed", st->dwarf_failed);
	pms_json__end(w);
	pms_json__end(w);
}

/* ---------------------------------------------------------------- run -- */

static bool file_has_callchains(struct pms_data_reader *rd)
{
	for (size_t i = 0; i < pms_data_reader__nr_attrs(rd); i++) {
		const struct perf_event_attr *a = pms_data_reader__attr(rd, i);

		if (a && (a->sample_type & PERF_SAMPLE_CALLCHAIN))
			return true;
	}
	return false;
}

static uint64_t combined_sample_type(struct pms_data_reader *rd)
{
	uint64_t st = 0;

	for (size_t i = 0; i < pms_data_reader__nr_attrs(rd); i++) {
		const struct perf_event_attr *a = pms_data_reader__attr(rd, i);

		if (a)
			st |= a->sample_type;
	}
	return st;
}

/* -------------------------------------------------------- branch mode -- */

/*
 * One entry per branch of the sample's stack, both ends resolved in the
 * sample's process and the kernel (perf's sample__resolve_bstack()). A
 * sample without a stack adds nothing, as perf skips it in branch mode.
 * The branches' count (or 0) or -ENOMEM.
 */
static int add_branches(struct pms_hist *h, struct pms_session *s, const struct pms_session_sample *smp,
			struct pms_hist_branch **buf, size_t *alloc)
{
	const struct pms_sample *d = smp->sample;
	size_t n;

	if (!d || !(d->present & PERF_SAMPLE_BRANCH_STACK) || !d->branch_nr || !d->branches)
		return 0;
	n = (size_t)d->branch_nr; /* the decoder checked it against the record's size */
	if (n > *alloc) {
		*buf = xrealloc(*buf, n * sizeof(**buf));
		*alloc = n;
	}
	for (size_t i = 0; i < n; i++) {
		const struct perf_branch_entry *b = &d->branches[i];
		struct pms_hist_branch *x = &(*buf)[i];

		if (pms_session__resolve_addr(s, b->from, &x->from) || pms_session__resolve_addr(s, b->to, &x->to))
			return 0;
		x->cycles = (uint16_t)b->cycles;
		x->mispred = b->mispred;
		x->predicted = b->predicted;
	}
	return pms_hist__add_branches(h, smp, *buf, n);
}

/* ------------------------------------------------------------- groups -- */

/*
 * One "# Samples: ..." section: an event, or in a group view one event
 * group (perf shows a group only when its leader has samples, and its
 * members never on their own).
 */
struct section {
	const struct pms_hist_event *ev;  /* an event's own section */
	struct pms_hist_group *g;         /* or a group's */
	size_t attr_idx;                  /* the event, or the group's leader */
	char *name;                       /* as the header names it */
	bool plural;                      /* "of events" */
	uint64_t samples, period;         /* the header's sums over the members */
};

static struct section *sections_build(struct pms_session *s, const struct pms_hist *h, const struct pms_data_groups *gr,
				      size_t *nr)
{
	struct pms_data_reader *rd = pms_session__reader(s);
	size_t nr_attrs = pms_data_reader__nr_attrs(rd);
	struct section *out = xmalloc((nr_attrs ? nr_attrs : 1) * sizeof(*out));

	*nr = 0;
	for (size_t a = 0; a < nr_attrs; a++) {
		const struct pms_hist_event *ev = pms_hist__event_of(h, a);
		struct section *x = &out[*nr];
		size_t n = gr && gr->size ? gr->size[a] : 1;

		if (!n || !ev)
			continue; /* a group's member, or no samples (a group: its leader has none) */
		memset(x, 0, sizeof(*x));
		x->attr_idx = a;
		if (n > 1) {
			size_t *members = xmalloc(n * sizeof(*members));
			struct strbuf sb = STRBUF_INIT;

			for (size_t m = 0; m < n; m++) {
				const struct pms_hist_event *me = pms_hist__event_of(h, a + m);
				const char *name = pms_session__event_name(s, a + m);

				members[m] = a + m;
				if (me) {
					x->samples += me->samples;
					x->period += me->period;
				}
				/* perf's evsel__group_desc(): a forced group is just the list */
				if (!m && !gr->forced)
					strbuf_addf(&sb, "%s { ", gr->name[a] ? gr->name[a] : "anon group");
				strbuf_addf(&sb, "%s%s", m ? ", " : "", name ? name : "?");
			}
			if (!gr->forced)
				strbuf_adds(&sb, " }");
			if (pms_hist__group(h, members, n, &x->g))
				die("out of memory");
			free(members);
			x->name = xstrdup(sb.buf ? sb.buf : "");
			strbuf_release(&sb);
			x->plural = true;
		} else {
			x->ev = ev;
			x->name = xstrdup(ev->name ? ev->name : "?");
			x->samples = ev->samples;
			x->period = ev->period;
		}
		(*nr)++;
	}
	return out;
}

static void sections_free(struct section *x, size_t nr)
{
	for (size_t i = 0; x && i < nr; i++) {
		pms_hist_group__free(x[i].g);
		free(x[i].name);
	}
	free(x);
}

/* ---------------------------------------------------------------- html -- */

/*
 * What --html needs beside the report's own hist: processes and threads
 * (two more hists over the same samples and filters) and one stacks tree
 * per event for the flame graph, fed only the samples the filters keep.
 */
struct html_ctx {
	struct pms_hist *procs, *threads;
	struct pms_stacks **trees; /* by attr index, created on first sample */
	size_t nr_trees;
#ifndef PMS_NO_HOST_LIBS
	struct pms_annotate_set *ann; /* the counted samples per function and address: rows open their annotation */
#endif
};

static struct pms_hist *html_hist(const struct pms_hist_opts *base, enum pms_sort_key k1, int k2)
{
	struct pms_hist_opts ho = *base;
	struct pms_hist *h;

	ho.children = false;
	ho.order = PMS_CG_NONE;
	ho.keys[0] = k1;
	ho.nr_keys = 1;
	if (k2 >= 0)
		ho.keys[ho.nr_keys++] = (enum pms_sort_key)k2;
	if (pms_hist__new(&h, &ho))
		die("out of memory");
	return h;
}

static void html_add(struct html_ctx *c, struct pms_session *s, const struct pms_session_sample *smp, int counted)
{
	if (pms_hist__add(c->procs, smp) < 0 || pms_hist__add(c->threads, smp) < 0)
		die("out of memory");
	if (counted <= 0)
		return; /* the flame graph draws the samples the report's rows count */
	if (smp->attr_idx >= c->nr_trees) {
		size_t n = smp->attr_idx + 1;

		c->trees = xrealloc(c->trees, n * sizeof(*c->trees));
		memset(c->trees + c->nr_trees, 0, (n - c->nr_trees) * sizeof(*c->trees));
		c->nr_trees = n;
	}
	if (!c->trees[smp->attr_idx]) {
		struct pms_stacks_opts so = { .sz = sizeof(so), .root = PMS_STACKS_ROOT_NONE };

		c->trees[smp->attr_idx] = pms_stacks__new(&so);
		if (!c->trees[smp->attr_idx])
			die("out of memory");
	}
	if (pms_stacks__add_sample(c->trees[smp->attr_idx], s, smp))
		die("out of memory");
#ifndef PMS_NO_HOST_LIBS
	if (c->ann && pms_annotate_set__add(c->ann, s, smp) == -ENOMEM)
		die("out of memory");
#endif
}

#ifndef PMS_NO_HOST_LIBS
/* How many of each table's hottest rows open their annotation: the page stays small and quick to write. */
#define HTML_ANNOTATED_ROWS 20

/* Annotations of the top rows of each event's table (those naming a function with code here). */
static size_t html_annotations(struct html_ctx *c, const struct pms_hist *h, struct pms_report_html_annotation **out)
{
	struct pms_annotate_opts ao = { .sz = sizeof(ao), .syntax = PMS_DISASM_ATT, .source = true };
	struct pms_report_html_annotation *v = NULL;
	size_t n = 0;

	*out = NULL;
	if (!c->ann || pms_annotate_set__finish(c->ann))
		return 0;
	for (size_t e = 0; e < pms_hist__nr_events(h); e++) {
		const struct pms_hist_event *ev = pms_hist__event(h, e);

		for (size_t r = 0; r < ev->nr_entries && r < HTML_ANNOTATED_ROWS; r++) {
			const struct pms_hist_entry *he = ev->entries[r];
			struct pms_annotate_view view = { .ev = pms_annotate_set__event(c->ann, ev->attr_idx) };
			struct pms_annotation *a = NULL;
			struct strbuf sb = STRBUF_INIT;

			if (!he->sym || !he->dso)
				continue;
			for (size_t i = 0; i < pms_annotate_set__nr(c->ann) && !a; i++) {
				const struct pms_annotate_sym *as = pms_annotate_set__sym(c->ann, i);

				if (as->event == ev->attr_idx && !strcmp(as->name, he->sym) && !strcmp(as->dso, he->dso) &&
				    pms_annotation__build(c->ann, i, &ao, &a) == -ENOMEM)
					die("out of memory");
			}
			if (!a)
				continue;
			pms_annotate_text__stdio(&view, a, &sb);
			pms_annotation__free(a);
			if (sb.oom)
				die("out of memory");
			v = xrealloc(v, (n + 1) * sizeof(*v));
			v[n++] = (struct pms_report_html_annotation){ .attr_idx = ev->attr_idx, .sym = he->sym, .dso = he->dso,
								      .text = strbuf_detach(&sb) };
		}
	}
	*out = v;
	return n;
}
#endif

static void html_free(struct html_ctx *c)
{
	pms_hist__free(c->procs);
	pms_hist__free(c->threads);
	for (size_t i = 0; i < c->nr_trees; i++)
		pms_stacks__free(c->trees[i]);
	free(c->trees);
#ifndef PMS_NO_HOST_LIBS
	pms_annotate_set__free(c->ann);
#endif
	memset(c, 0, sizeof(*c));
}

/* The page: the report's sections as the flame graph page's preamble. 0 or EXIT_RUNTIME. */
static int report_html(const char *out, const char *path, struct pms_session *s, const struct pms_hist *h, struct html_ctx *c,
		       const struct report_view *v, const char *damage)
{
	const struct pms_session_stats *st = pms_session__stats(s);
	const struct pms_data_features *ft = pms_data_reader__features(pms_session__reader(s));
	struct pms_report_html_summary sum = { .file = path };
	struct pms_report_html_opts ro = { .sz = sizeof(ro), .summary = &sum };
	struct pms_flamegraph_opts fo = { .sz = sizeof(fo), .weight = PMS_WEIGHT_PERIOD };
	struct strbuf cmdline = STRBUF_INIT, events = STRBUF_INIT, note_sb = STRBUF_INIT, pre = STRBUF_INIT;
	struct strbuf page = STRBUF_INIT, title = STRBUF_INIT;
	struct pms_stacks *tree = NULL, *empty = NULL;
	const struct pms_hist_event *ev0 = pms_hist__nr_events(h) ? pms_hist__event(h, 0) : NULL;
	int err, ret = 0;

	if (pms_data_features__has(ft, PMS_FEAT_CMDLINE))
		for (uint32_t i = 0; i < ft->nr_cmdline; i++)
			strbuf_addf(&cmdline, "%s%s", i ? " " : "", ft->cmdline[i]);
	for (size_t i = 0; i < pms_hist__nr_events(h); i++)
		strbuf_addf(&events, "%s%s", i ? ", " : "", pms_hist__event(h, i)->name);
	sum.command = cmdline.len ? cmdline.buf : NULL;
	sum.hostname = pms_data_features__has(ft, PMS_FEAT_HOSTNAME) ? ft->hostname : NULL;
	sum.os_release = pms_data_features__has(ft, PMS_FEAT_OSRELEASE) ? ft->osrelease : NULL;
	sum.perf_version = pms_data_features__has(ft, PMS_FEAT_VERSION) ? ft->version : NULL;
	sum.events = events.len ? events.buf : NULL;
	sum.samples = st->samples;
	sum.lost_samples = st->lost_samples;
	sum.lost_events = st->lost_events;
	sum.unresolved = unresolved_total(st);
	sum.filtered = pms_hist__filtered(h);
	sum.time_first_ns = st->time_first_ns;
	sum.time_last_ns = st->time_last_ns;
	sum.damage = damage;
	ro.funcs = h;
	ro.keys = v->keys;
	ro.nr_keys = v->nr_keys;
	ro.children = v->children;
	ro.procs = c->procs;
	ro.threads = c->threads;
	ro.percent_limit = v->percent_limit;
	if (ev0 && ev0->attr_idx < c->nr_trees)
		tree = c->trees[ev0->attr_idx];
	if (ev0)
		strbuf_addf(&note_sb, "The flame graph below draws event '%s'%s, weighted by period%s.", ev0->name,
			    pms_hist__nr_events(h) > 1 ? " (the first of the file's events)" : "",
			    sum.filtered ? ", with only the samples the filters keep" : "");
	ro.flame_note = note_sb.len ? note_sb.buf : NULL;
	if (!tree) {
		empty = pms_stacks__new(NULL);
		if (!empty)
			die("out of memory");
		tree = empty;
	}
	pms_stacks__sort(tree, PMS_STACKS_BY_NAME);
#ifndef PMS_NO_HOST_LIBS
	ro.nr_annotations = html_annotations(c, h, (struct pms_report_html_annotation **)&ro.annotations);
#endif
	err = pms_report_html__preamble(&ro, &pre);
	if (err)
		die("cannot build the page: %s", strerror(-err));
	strbuf_addf(&title, "pmuscope report: %s", path);
	fo.title = title.buf;
	fo.preamble_html = pre.buf;
	err = pms_flamegraph__html(tree, &fo, &page);
	if (err || page.oom)
		ret = error("cannot build the flame graph: %s", strerror(err ? -err : ENOMEM)) ? EXIT_RUNTIME : 0;
	else if (output__write(out, &page))
		ret = EXIT_RUNTIME;
	else if (strcmp(out, "-"))
		note("wrote %s (HTML, %zu bytes): %" PRIu64 " samples", out, page.len, st->samples);
	pms_stacks__free(empty);
	for (size_t i = 0; i < ro.nr_annotations; i++)
		free((char *)ro.annotations[i].text);
	free((void *)ro.annotations);
	strbuf_release(&cmdline);
	strbuf_release(&events);
	strbuf_release(&note_sb);
	strbuf_release(&pre);
	strbuf_release(&page);
	strbuf_release(&title);
	return ret;
}

static int run(int argc, char **argv)
{
	enum pms_sort_key keys[PMS_HIST_MAX_KEYS], shown[PMS_HIST_MAX_KEYS];
	struct report_column cols[REPORT_MAX_COLS];
	size_t nr_keys = 0, bad = 0, nr_shown = 0, nr_cols = 0;
	const char *bad_field = NULL;
	struct pms_hist_filter filter;
	struct pms_session_opts so = { .sz = sizeof(so), .recover = true };
	struct pms_hist_opts ho = { .sz = sizeof(ho) };
	const struct pms_data_error *damage;
	struct pms_session *s = NULL;
	struct pms_data_reader *rd;
	struct pms_hist *h = NULL;
	const struct pms_session_sample *smp;
	struct report_view view;
	struct html_ctx html = { .procs = NULL };
	struct pms_data_groups groups = { .size = NULL };
	struct section *sections = NULL;
	struct pms_hist_branch *brs = NULL;
	size_t nr_sections = 0, brs_alloc = 0;
	const char *path;
	bool chains, branch = false, group_view = false, parent_key = false;
	int pos, err, ret = 0;
	FILE *out = stdout;

	pos = opt_parse(&cmd_report, &argc, argv, 0);
	if (pos < argc)
		usage_error(&cmd_report, "unexpected argument '%s' (the input file goes after -i)", argv[pos]);
	if (o.json && o.stdio)
		usage_error(&cmd_report, "--json and --stdio exclude each other");
	if (o.html && (o.json || o.stdio || o.stats || o.header || o.header_only))
		usage_error(&cmd_report, "--html writes a page: it excludes --json, --stdio, --stats and --header(-only)");
	if (o.html && !*o.html)
		usage_error(&cmd_report, "--html: want a file name (- for stdout)");
	if (o.html && (o.branch == 1 || o.group == 1))
		usage_error(&cmd_report, "--html shows each event's samples: it excludes -b/--branch-stack and --group");
	if (o.percent_limit < 0 || o.percent_limit > 100)
		usage_error(&cmd_report, "--percent-limit: want a percentage in [0, 100]");
	if (o.max_stack < -1)
		usage_error(&cmd_report, "--max-stack: want a number of frames (0 or more)");
	if (o.field_sep && (!*o.field_sep || !strcmp(o.field_sep, ".")))
		usage_error(&cmd_report, "-t: want a separator ('.' is reserved, as in perf)");
	if (o.hierarchy && (o.nr_samples || o.total_period || o.cpu_util || o.children == 1 || o.fields || o.field_sep || o.branch == 1 || o.group == 1 || o.html))
		usage_error(&cmd_report, "--hierarchy excludes --children, -n, --show-total-period, --show-cpu-utilization, "
			    "-F, -t, -b, --group and --html");
	if (o.hierarchy)
		o.group = 0;
	if (o.sort && pms_sort_keys__parse(o.sort, keys, PMS_HIST_MAX_KEYS, &nr_keys, &bad))
		usage_error(&cmd_report, "--sort: unknown key at '%s' (keys: comm, pid, tid, dso, sym, srcline, cpu, parent; in branch "
			    "mode also dso_from, dso_to, symbol_from, symbol_to, cycles, mispredict)", o.sort + bad);
	if (o.fields && parse_fields(o.fields, keys, &nr_keys, cols, &nr_cols, &bad_field))
		usage_error(&cmd_report, "-F: unknown field at '%s' (fields: overhead, overhead_sys, overhead_us, "
			    "overhead_children, sample, period, and the --sort keys)", bad_field);
	memset(&filter, 0, sizeof(filter));
	if (o.time && pms_time_range__parse(o.time, &filter.time_start_ns, &filter.time_end_ns))
		usage_error(&cmd_report, "--time: want <start>,<end> in seconds (e.g. 1234.5,1236), either may be empty");
	filter.comms = (const char *const *)o.comms;
	filter.nr_comms = o.nr_comms;
	filter.dsos = (const char *const *)o.dsos;
	filter.nr_dsos = o.nr_dsos;
	filter.syms = (const char *const *)o.syms;
	filter.nr_syms = o.nr_syms;
	filter.pids = o.pids;
	filter.nr_pids = o.nr_pids;
	filter.tids = o.tids;
	filter.nr_tids = o.nr_tids;
	filter.cpus = o.cpus;
	filter.nr_cpus = o.nr_cpus;
	filter.hide_unresolved = o.hide_unresolved;
	filter.sym_substr = o.symbol_filter;
	filter.parent_only = o.exclude_other;
	/* perf's --percent-limit is the call-graph threshold too, unless -g named one */
	if (o.percent_limit > 0 && !o.cg_min_set)
		o.cg_min = o.percent_limit;
	path = o.input ? o.input : "perf.data";

	/* perf's -p adds the parent key (last) unless --sort has it */
	if (o.parent) {
		bool have = false;

		for (size_t k = 0; k < nr_keys; k++)
			have |= keys[k] == PMS_SORT_PARENT;
		if (!have && !nr_keys) {
			keys[nr_keys++] = PMS_SORT_COMM;
			keys[nr_keys++] = PMS_SORT_DSO;
			keys[nr_keys++] = PMS_SORT_SYM;
		}
		if (!have && nr_keys < PMS_HIST_MAX_KEYS)
			keys[nr_keys++] = PMS_SORT_PARENT;
	}
	for (size_t k = 0; k < nr_keys; k++)
		parent_key |= keys[k] == PMS_SORT_PARENT;
	/* whole chains cost a lookup per frame: skip them when nothing would show them */
	so.callchain = !(o.children == 0 && o.graph_none) || o.html || parent_key || o.exclude_other;
	/* perf walks chains from the root in children mode unless told callee, and with -g caller */
	so.max_stack_from_root = o.order_set ? o.order == PMS_CG_CALLER : o.children != 0;
	/* --max-stack 0 keeps no caller at all: the report of a file without chains */
	if (o.max_stack == 0)
		so.callchain = false;
	else if (o.max_stack > 0)
		/* a record holds at most 64 KiB: no chain is longer than 8192 entries */
		so.max_stack = (size_t)(o.max_stack < 8192 ? o.max_stack : 8192);
	/* perf turns children off for --hierarchy, after choosing the callers-first order it implies */
	if (o.hierarchy && !o.order_set && o.children != 0) {
		o.order = PMS_CG_CALLER;
		o.order_set = true;
	}
	if (o.hierarchy)
		o.children = 0;
	err = data_input__open_session(&s, path, &so, DATA_INPUT_RECORD_OR_I);
	if (err) {
		ret = EXIT_RUNTIME;
		goto out;
	}
	rd = pms_session__reader(s);
	if (o.header || o.header_only) {
		struct strbuf hb = STRBUF_INIT;

		pms_data_header__text(rd, path, &hb);
		output__put(out, &hb);
	}
	if (o.header_only)
		goto out;
	if (o.nr_cpus && !(combined_sample_type(rd) & PERF_SAMPLE_CPU)) {
		/* perf 6.1 says "File does not contain CPU events. Remove -C option to proceed." and exits 0 */
		error("--cpu: %s has no CPU numbers in its samples (sample_type lacks PERF_SAMPLE_CPU); record with "
		      "--sample-cpu, or system-wide (-a), to filter by CPU", path);
		ret = EXIT_RUNTIME;
		goto out;
	}

	/*
	 * perf's branch mode: on by default when the file says it was recorded with -b
	 * (HEADER_BRANCH_STACK) and has no user stacks; --stats and the page show samples.
	 */
	if (!o.stats && !o.html && o.branch) {
		uint64_t st = combined_sample_type(rd);

		if (o.branch == 1 && !(st & PERF_SAMPLE_BRANCH_STACK)) {
			error("-b: '%s' has no branch stacks (record them with `perf record -b` or -j; a PMU without "
			      "LBR or BRBE cannot)", path);
			ret = EXIT_RUNTIME;
			goto out;
		}
		branch = o.branch == 1 ||
			 (pms_data_features__has(pms_data_reader__features(rd), PMS_FEAT_BRANCH_STACK) &&
			  !(st & PERF_SAMPLE_STACK_USER));
	}
	for (size_t k = 0; k < nr_keys; k++) {
		if (!branch && pms_sort_key__is_branch(keys[k]))
			usage_error(&cmd_report, "--sort %s: a branch-mode key, and this report is not in branch mode (it "
				    "needs a file recorded with -b, and not --no-branch-stack)", pms_sort_key__name(keys[k]));
		if (branch && keys[k] == PMS_SORT_SRCLINE)
			usage_error(&cmd_report, "--sort srcline: not supported in branch mode yet (add --no-branch-stack)");
	}
	/* perf's group view: on by default (report.group), for the groups the file records */
	if (!o.stats && !o.html && o.group) {
		err = pms_data_groups__build(&groups, rd, o.group == 1);
		if (err == -ENOMEM)
			die("out of memory");
		/* perf gives up on such a description too ("invalid group desc") */
		if (err && !o.quiet)
			warning("%s: the file's event group description does not fit its %zu events; showing them "
				"one by one", path, groups.nr);
		group_view = groups.any;
	}

	chains = file_has_callchains(rd) && o.max_stack != 0;
	if (o.graph_asked && !o.graph_none && !file_has_callchains(rd) && !o.stats && !o.html) {
		/* perf 6.1 says the same ("Selected -g ... But no callchain data") and exits 0 */
		error("-g: %s has no call chains (sample_type lacks PERF_SAMPLE_CALLCHAIN); record with -g or "
		      "--call-graph dwarf", path);
		ret = EXIT_RUNTIME;
		goto out;
	}
	ho.children = o.children == -1 ? chains : o.children == 1;
	if (!chains)
		ho.children = false;
	ho.order = PMS_CG_NONE;
	if (chains && !o.graph_none)
		ho.order = o.order_set ? o.order : ho.children ? PMS_CG_CALLER : PMS_CG_CALLEE;
	if (branch) {
		/* perf turns children off in branch mode, and its branch entries carry no chains */
		ho.children = false;
		ho.order = PMS_CG_NONE;
		ho.branch = true;
	}
	memcpy(ho.keys, keys, sizeof(keys));
	ho.nr_keys = nr_keys;
	ho.filter = &filter;
	ho.parent_regex = o.parent;
	/* fractal's threshold is of each parent: light entries have graphs too */
	ho.cg_min_percent = o.graph_mode == REPORT_FRACTAL ? 0 : o.cg_min;
	err = pms_hist__new(&h, &ho);
	if (err == -EINVAL && (parent_key || o.exclude_other)) {
		error("-p: '%s' is not an extended regular expression", o.parent ? o.parent : "");
		ret = EXIT_USAGE;
		goto out;
	}
	if (err)
		die("out of memory");
	if (o.html) {
		html.procs = html_hist(&ho, PMS_SORT_PID, -1);
		html.threads = html_hist(&ho, PMS_SORT_PID, PMS_SORT_TID);
#ifndef PMS_NO_HOST_LIBS
		html.ann = pms_annotate_set__new();
		if (!html.ann)
			die("out of memory");
#endif
	}

	while ((err = pms_session__next(s, &smp)) > 0) {
		int counted = branch ? add_branches(h, s, smp, &brs, &brs_alloc) : pms_hist__add(h, smp);

		if (counted < 0)
			die("out of memory");
		if (o.html)
			html_add(&html, s, smp, counted);
	}
	damage = pms_data_reader__error(rd);
	if (err < 0 || (damage && damage->err)) {
		if (damage && damage->err)
			error("%s: %s", path, damage->msg);
		else
			error("%s: %s", path, strerror(-err));
		ret = EXIT_RUNTIME;
	}
	if (pms_hist__finish(h, pms_session__resolver(s)))
		die("out of memory");
	if (o.html && (pms_hist__finish(html.procs, NULL) || pms_hist__finish(html.threads, NULL)))
		die("out of memory");
	if (o.stats) {
		print_stats(out, pms_session__stats(s), h);
		goto out;
	}

	if (!nr_keys && branch) {
		/* perf's default_branch_sort_order, as the hist uses it */
		keys[0] = PMS_SORT_COMM;
		keys[1] = PMS_SORT_DSO_FROM;
		keys[2] = PMS_SORT_SYM_FROM;
		keys[3] = PMS_SORT_SYM_TO;
		keys[4] = PMS_SORT_CYCLES;
		nr_keys = 5;
	} else if (!nr_keys) {
		keys[0] = PMS_SORT_COMM;
		keys[1] = PMS_SORT_DSO;
		keys[2] = PMS_SORT_SYM;
		nr_keys = 3;
	}
	if (!o.html)
		sections = sections_build(s, h, group_view ? &groups : NULL, &nr_sections);
	for (size_t i = 0; o.group_sort_idx > 0 && i < nr_sections; i++)
		if (sections[i].g && pms_hist_group__sort_by_member(sections[i].g, (size_t)o.group_sort_idx, ho.children))
			die("out of memory");
	memset(&view, 0, sizeof(view));
	view.h = h;
	view.keys = keys;
	view.nr_keys = nr_keys;
	/* like perf, --stdio drops a column that a one-name --comm/--dso filter makes constant */
	for (size_t k = 0; k < nr_keys; k++)
		if (!((keys[k] == PMS_SORT_COMM && o.nr_comms == 1) || (keys[k] == PMS_SORT_DSO && o.nr_dsos == 1)))
			shown[nr_shown++] = keys[k];
	if (!o.json && nr_shown) {
		view.keys = shown;
		view.nr_keys = nr_shown;
	}
	view.children = ho.children;
	view.graph = ho.order != PMS_CG_NONE;
	view.skip_first_frame = o.sort && keys[0] == PMS_SORT_SYM;
	view.percent_limit = o.percent_limit;
	view.nr_samples = o.nr_samples;
	view.cg_min_percent = o.cg_min;
	view.total_period = o.total_period;
	view.cpu_util = o.cpu_util;
	view.field_sep = o.field_sep;
	view.relative = o.percentage && !strcmp(o.percentage, "relative");
	view.hierarchy = o.hierarchy;
	view.hide_unresolved = o.hide_unresolved;
	view.widths = o.widths;
	view.nr_widths = o.nr_widths;
	view.branch = branch;
	view.graph_mode = o.graph_mode;
	view.graph_value = o.graph_value;
	view.print_limit = o.print_limit;
	if (o.fields) {
		bool any_key = false;

		for (size_t c = 0; c < nr_cols; c++)
			any_key |= cols[c].type == REPORT_COL_KEY;
		/* no key named anywhere: the default ones, as their columns */
		for (size_t k = 0; !any_key && k < nr_keys && nr_cols < REPORT_MAX_COLS; k++)
			cols[nr_cols++] = (struct report_column){ .type = REPORT_COL_KEY, .key = keys[k] };
		view.cols = cols;
		view.nr_cols = nr_cols;
		/* perf sorts by the -F fields when no -s is given */
		view.fields_order = !o.sort;
	}

	if (o.html) {
		char dmsg[400];

		dmsg[0] = 0;
		if (ret)
			snprintf(dmsg, sizeof(dmsg), "%s; samples after offset %#" PRIx64 " are missing",
				 damage && damage->err ? damage->msg : "read error", damage ? damage->offset : 0);
		view.keys = keys; /* every key: the page has no constant-column rule */
		view.nr_keys = nr_keys;
		if (report_html(o.html, path, s, h, &html, &view, ret ? dmsg : NULL))
			ret = EXIT_RUNTIME;
	} else if (o.json) {
		struct pms_json w;
		struct strbuf jb = STRBUF_INIT;

		pms_json__init(&w, &jb, true);
		pms_json__obj(&w, NULL);
		pms_json__str(&w, "schema", "pmuscope-report/1");
		pms_json__str(&w, "file", path);
		pms_json__bool(&w, "partial", ret != 0);
		if (ret) {
			pms_json__obj(&w, "error");
			pms_json__uint(&w, "offset", damage ? damage->offset : 0);
			pms_json__str(&w, "message", damage && damage->err ? damage->msg : "read error");
			pms_json__end(&w);
		} else {
			pms_json__null(&w, "error");
		}
		pms_json__arr(&w, "sort");
		for (size_t k = 0; k < nr_keys; k++)
			pms_json__str(&w, NULL, pms_sort_key__name(keys[k]));
		pms_json__end(&w);
		pms_json__bool(&w, "children", ho.children);
		pms_json__str(&w, "call_graph", ho.order == PMS_CG_CALLER ? "caller" : ho.order == PMS_CG_CALLEE ? "callee" : "none");
		pms_json__bool(&w, "branch_mode", branch);
		pms_json__bool(&w, "group_view", group_view);
		pms_json__arr(&w, "events");
		for (size_t i = 0; i < nr_sections; i++) {
			const struct section *x = &sections[i];

			pms_json__obj(&w, NULL);
			pms_json__str(&w, "name", x->name);
			pms_json__uint(&w, "attr_index", x->attr_idx);
			pms_json__uint(&w, "samples", x->samples);
			pms_json__uint(&w, "period", x->period);
			if (x->g) {
				pms_json__arr(&w, "group");
				for (size_t m = 0; m < x->g->nr_members; m++) {
					const struct pms_hist_event *me = x->g->events[m];
					const char *name = pms_session__event_name(s, x->attr_idx + m);

					pms_json__obj(&w, NULL);
					pms_json__str(&w, "name", name);
					pms_json__uint(&w, "attr_index", x->attr_idx + m);
					pms_json__uint(&w, "samples", me ? me->samples : 0);
					pms_json__uint(&w, "period", me ? me->period : 0);
					pms_json__end(&w);
				}
				pms_json__end(&w);
				report_json_group_entries(&w, &view, x->g);
			} else {
				report_json_entries(&w, &view, x->ev);
			}
			pms_json__end(&w);
		}
		pms_json__end(&w);
		if (o.threads) {
			pms_json__arr(&w, "threads");
			for (size_t i = 0; i < pms_session__nr_reads(s); i++) {
				const struct pms_session_read *r = pms_session__read(s, i);

				pms_json__obj(&w, NULL);
				pms_json__uint(&w, "pid", r->pid);
				pms_json__uint(&w, "tid", r->tid);
				pms_json__str(&w, "event", pms_session__event_name(s, r->attr_idx));
				pms_json__uint(&w, "value", r->value);
				pms_json__end(&w);
			}
			pms_json__end(&w);
		}
		json_summary(&w, s, h);
		pms_json__end(&w);
		pms_json__finish(&w);
		output__put(out, &jb);
	} else {
		const struct pms_session_stats *st = pms_session__stats(s);

		if (!o.header)
			fputs("# To display the perf.data header info, please use --header/--header-only options.\n#\n", out);
		if (o.nr_comms == 1)
			fprintf(out, "# comm: %s\n", o.comms[0]);
		if (o.nr_dsos == 1)
			fprintf(out, "# dso: %s\n", o.dsos[0]);
		if (!o.header)
			fputs("#\n", out);
		fprintf(out, "# Total Lost Samples: %" PRIu64 "\n#\n", st->lost_samples);
		for (size_t i = 0; i < nr_sections; i++) {
			const struct section *x = &sections[i];
			char unit;
			/* perf's header counts what the filters kept in relative mode */
			uint64_t kept_samples = x->samples, kept_period = x->period;
			unsigned long n;

			if (view.relative && x->ev) {
				kept_samples -= x->ev->hidden_samples;
				kept_period -= x->ev->hidden_period;
			}
			n = report_convert_unit((unsigned long)kept_samples, &unit);
			fprintf(out, "# Samples: %lu%c of event%s '%s'\n# Event count (approx.): %" PRIu64 "\n#\n",
				n, unit, x->plural ? "s" : "", x->name, kept_period);
			if (x->g)
				report_print_group_stdio(out, &view, x->g);
			else if (o.hierarchy)
				report_print_hierarchy(out, &view, x->ev);
			else
				report_print_stdio(out, &view, x->ev);
		}
		if (!nr_sections)
			fputs("# no samples\n#\n", out);
		if (o.threads)
			print_threads(out, s);
		print_summary(out, s, h);
		if (ret)
			fprintf(out, "# partial report: %s is damaged at offset %#" PRIx64 "; samples after it are missing\n",
				path, damage ? damage->offset : 0);
	}
	{
		const char *p, *found;
		size_t n;

		for (size_t i = 0; !o.quiet && !pms_resolver__stale(pms_session__resolver(s), i, &p, &n, &found); i++)
			warning("%s was rebuilt since recording (build-id differs): %zu samples left unsymbolized", p, n);
	}
out:
	sections_free(sections, nr_sections);
	pms_data_groups__release(&groups);
	free(brs);
	html_free(&html);
	pms_hist__free(h);
	pms_session__free(s);
	if (fflush(out) && !ret)
		ret = error("cannot write the report: %s", strerror(errno)) ? EXIT_RUNTIME : 0;
	return ret;
}

PMS_COMMAND(report, "report",
	    "show where samples of a perf.data file went (perf report compatible)",
	    "pmuscope report [-i <file>] [--stdio | --json | --html <file>] [--sort <keys>] [-F <fields>] [-g <how>] [<filters>]");
