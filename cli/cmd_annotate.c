// SPDX-License-Identifier: MIT
// `pmuscope annotate`: a function's instructions with the share of its samples on each, source lines between them, its loops and hottest lines, in perf annotate's --stdio layout or as JSON.
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "data_input.h"
#include "output.h"
#include "report_print.h"
#include "symbol_opts.h"
#include "aggregate/annotate.h"
#include "aggregate/session.h"
#include "symbol/dso.h"
#include "symbol/resolver.h"
#include "util/json.h"
#include "util/strbuf.h"

static struct annotate_opts {
	const char *input, *dso, *percent_type, *disassembler_style, *event;
	struct opt_strings syms;
	double percent_limit;
	bool asm_raw, no_source, source, stdio, json, show_nr_samples;
} o;

static const struct opt opts[] = {
	OPT_STRING('i', "input", &o.input, "<file>", "input file (default perf.data)"),
	OPT_STRINGS('s', "symbol", &o.syms, "<name>", "annotate this function (repeatable; also as arguments)"),
	OPT_STRING('d', "dso", &o.dso, "<object>", "only functions of this object (path or file name)"),
	OPT_STRING(0, "event", &o.event, "<name>", "only this event (default: every event with samples)"),
	OPT_DOUBLE(0, "percent-limit", &o.percent_limit, "<pct>",
		   "without names: the functions with at least pct% of their event's samples (default 0.5)"),
	OPT_STRING(0, "percent-type", &o.percent_type, "<type>",
		   "local-period (default), global-period, local-hits or global-hits (local/global: period)"),
	OPT_STRING('M', "disassembler-style", &o.disassembler_style, "<style>", "att (default on x86, as objdump) or intel"),
	OPT_BOOL(0, "asm-raw", &o.asm_raw, "show the instructions' bytes"),
	OPT_BOOL('l', "source", &o.source, "source lines between the instructions (the default)"),
	OPT_BOOL(0, "no-source", &o.no_source, "instructions only"),
	OPT_BOOL('n', "show-nr-samples", &o.show_nr_samples, "a column of sample counts"),
	OPT_BOOL(0, "stdio", &o.stdio, "text (the default)"),
	OPT_BOOL(0, "json", &o.json, "one JSON document: every instruction, line and loop with its address"),
	OPTS_SYMBOLS,
	OPT_END(),
};

static void reset_opts(void)
{
	opt_strings__release(&o.syms);
	symbol_opts__reset();
	o = (struct annotate_opts){ .percent_limit = -1 };
}

enum pct_type { PCT_LOCAL_PERIOD, PCT_GLOBAL_PERIOD, PCT_LOCAL_HITS, PCT_GLOBAL_HITS };

static const char *const pct_names[] = { "local period", "global period", "local hits", "global hits" };

struct view {
	const struct pms_annotate_set *set;
	enum pct_type pct;
};

/* An instruction's (or line's) share as --percent-type says. */
static double share(const struct view *v, const struct pms_annotate_sym *s, uint64_t samples, uint64_t period)
{
	const struct pms_annotate_event *ev = pms_annotate_set__event(v->set, s->event);
	double num = v->pct == PCT_LOCAL_HITS || v->pct == PCT_GLOBAL_HITS ? (double)samples : (double)period;
	double den = v->pct == PCT_LOCAL_PERIOD ? (double)s->period : v->pct == PCT_LOCAL_HITS ? (double)s->samples
		     : v->pct == PCT_GLOBAL_PERIOD ? (double)ev->period : (double)ev->samples;

	return den > 0 ? 100.0 * num / den : 0.0;
}

/* objdump's way of naming a direct branch's target: "11a9 <fold>", "1218 <leaf_alpha+0x1b>". */
static void add_operands(struct strbuf *sb, const struct pms_annotate_sym *s, const struct pms_annotate_insn *in)
{
	const struct pms_sym *t = in->d.target && s->elf ? pms_dso__find_sym(s->elf, in->d.target) : NULL;

	if (!in->d.target) {
		strbuf_adds(sb, in->d.operands);
		return;
	}
	strbuf_addf(sb, "%" PRIx64, in->d.target);
	if (in->d.target >= s->start && in->d.target < s->start + s->size)
		strbuf_addf(sb, " <%s+0x%" PRIx64 ">", s->name, in->d.target - s->start);
	else if (t && t->start == in->d.target)
		strbuf_addf(sb, " <%s>", t->name);
	else if (t)
		strbuf_addf(sb, " <%s+0x%" PRIx64 ">", t->name, in->d.target - t->start);
}

static void skid_line(const struct view *v, const struct pms_annotate_sym *s, FILE *f)
{
	const struct pms_annotate_event *ev = pms_annotate_set__event(v->set, s->event);
	double exact = ev->samples ? 100.0 * (double)ev->exact_samples / (double)ev->samples : 0;

	if (ev->exact_samples && ev->exact_samples == ev->samples)
		fprintf(f, "   Samples are exact (precise_ip=%u, every sample's IP is the instruction that caused it)\n",
			ev->precise_ip);
	else
		fprintf(f, "   Samples are not exact (precise_ip=%u asked, %.0f%% with an exact IP): a sample lands on the "
			"instruction after the one that caused it, or later (skid); look just above a hot line\n",
			ev->precise_ip, exact);
}

static void print_summary(const struct view *v, struct pms_annotation *a, FILE *f)
{
	const struct pms_annotate_sym *s = a->sym;
	size_t *order = xcalloc(a->nr_lines ? a->nr_lines : 1, sizeof(*order)), shown = 0;

	for (size_t i = 0; i < a->nr_lines; i++)
		order[i] = i;
	/* hottest first: a small insertion sort (functions have tens of lines) */
	for (size_t i = 1; i < a->nr_lines; i++)
		for (size_t j = i; j > 0 && a->lines[order[j]].period > a->lines[order[j - 1]].period; j--) {
			size_t t = order[j];

			order[j] = order[j - 1];
			order[j - 1] = t;
		}
	if (a->no_source) {
		fprintf(f, "   No source lines: %s\n", a->no_source);
	} else {
		fprintf(f, "   Hottest lines:\n");
		for (size_t i = 0; i < a->nr_lines && shown < 10; i++) {
			const struct pms_annotate_line *l = &a->lines[order[i]];
			double pct = share(v, s, l->samples, l->period);
			const char *base = strrchr(l->file, '/');
			const char *text = pms_annotation__source(a, l->file, l->comp_dir, l->line);

			if (pct < 0.5)
				break;
			while (text && (*text == ' ' || *text == '\t'))
				text++;
			fprintf(f, "   %7.2f %s:%u%s%s\n", pct, base ? base + 1 : l->file, l->line, text ? "   " : "",
				text ? text : "");
			shown++;
		}
		if (!shown)
			fprintf(f, "   Nothing higher than 0.5%%\n");
	}
	if (a->nr_loops)
		fprintf(f, "   Hottest loop: %.2f%% in %" PRIx64 "..%" PRIx64 " (%zu loop%s)\n",
			share(v, s, a->loops[0].samples, a->loops[0].period), a->loops[0].start, a->loops[0].end,
			a->nr_loops, a->nr_loops == 1 ? "" : "s");
	if (a->samples_elsewhere)
		fprintf(f, "   %" PRIu64 " samples at no instruction's first byte (is the file the one recorded?)\n",
			a->samples_elsewhere);
	free(order);
}

static void print_stdio(const struct view *v, struct pms_annotation *a, FILE *f)
{
	const struct pms_annotate_sym *s = a->sym;
	const struct pms_annotate_event *ev = pms_annotate_set__event(v->set, s->event);
	const char *last_file = NULL, *last_func = NULL;
	unsigned last_line = 0;
	struct strbuf line = STRBUF_INIT;

	fprintf(f, " Percent |\tSource code & Disassembly of %s for %s (%" PRIu64 " samples, percent: %s)\n",
		report_dso_short(s->dso), ev->name ? ev->name : "?", s->samples, pct_names[v->pct]);
	fprintf(f, "--------------------------------------------------------------------------------------------------------------\n");
	skid_line(v, s, f);
	print_summary(v, a, f);
	fprintf(f, "         :\n         :\t%016" PRIx64 " <%s>:\n", s->start, s->name);
	for (size_t i = 0; i < a->nr_insns; i++) {
		const struct pms_annotate_insn *in = &a->insns[i];
		double pct = share(v, s, in->samples, in->period);

		if (in->file && (in->line != last_line || !last_file || strcmp(in->file, last_file))) {
			const char *text = pms_annotation__source(a, in->file, in->comp_dir, in->line);

			if (in->func != last_func && (!in->func || !last_func || strcmp(in->func, last_func)))
				fprintf(f, "         : %s():\n", in->func ? in->func : s->name);
			fprintf(f, "         : %-4u %s\n", in->line, text ? text : "");
			last_file = in->file;
			last_line = in->line;
			last_func = in->func;
		}
		strbuf_reset(&line);
		if (in->samples)
			strbuf_addf(&line, "%8.2f :", pct);
		else
			strbuf_addf(&line, "    0.00 :");
		if (o.show_nr_samples)
			strbuf_addf(&line, " %8" PRIu64, in->samples);
		strbuf_addf(&line, "   %" PRIx64 ":   ", in->d.addr);
		if (o.asm_raw) {
			for (unsigned b = 0; b < in->d.size && b < 10; b++)
				strbuf_addf(&line, "%02x ", in->d.bytes[b]);
			strbuf_addf(&line, "%*s", (int)(in->d.size < 10 ? (10 - in->d.size) * 3 : 0), "");
		}
		strbuf_addf(&line, "%-6s ", in->d.mnemonic);
		add_operands(&line, s, in);
		strbuf_rtrim(&line);
		if (in->back_edge)
			strbuf_addf(&line, "   # loop back to %" PRIx64, in->d.target);
		else if (in->jump_target)
			strbuf_adds(&line, "   # <- jumped to");
		fprintf(f, "%s\n", strbuf_str(&line));
	}
	fprintf(f, "\n");
	strbuf_release(&line);
}

static void json_annotation(const struct view *v, struct pms_annotation *a, struct pms_json *j)
{
	const struct pms_annotate_sym *s = a->sym;
	const struct pms_annotate_event *ev = pms_annotate_set__event(v->set, s->event);
	struct strbuf sb = STRBUF_INIT;

	pms_json__obj(j, NULL);
	pms_json__str(j, "symbol", s->name);
	pms_json__str(j, "dso", s->dso);
	pms_json__str(j, "event", ev->name);
	pms_json__uint(j, "start", s->start);
	pms_json__uint(j, "size", s->size);
	pms_json__uint(j, "samples", s->samples);
	pms_json__uint(j, "period", s->period);
	pms_json__str(j, "percent_type", pct_names[v->pct]);
	pms_json__uint(j, "precise_ip", ev->precise_ip);
	pms_json__double(j, "exact_ip_pct", ev->samples ? 100.0 * (double)ev->exact_samples / (double)ev->samples : 0);
	pms_json__uint(j, "samples_elsewhere", a->samples_elsewhere);
	pms_json__str(j, "no_source", a->no_source);
	pms_json__arr(j, "insns");
	for (size_t i = 0; i < a->nr_insns; i++) {
		const struct pms_annotate_insn *in = &a->insns[i];

		strbuf_reset(&sb);
		strbuf_addf(&sb, "%s ", in->d.mnemonic);
		add_operands(&sb, s, in);
		strbuf_rtrim(&sb);
		pms_json__obj(j, NULL);
		pms_json__uint(j, "addr", in->d.addr);
		pms_json__str(j, "asm", strbuf_str(&sb));
		pms_json__uint(j, "samples", in->samples);
		pms_json__uint(j, "period", in->period);
		pms_json__double(j, "percent", share(v, s, in->samples, in->period));
		if (in->file) {
			pms_json__str(j, "file", in->file);
			pms_json__uint(j, "line", in->line);
		}
		if (in->func)
			pms_json__str(j, "inlined", in->func);
		if (in->d.target)
			pms_json__uint(j, "target", in->d.target);
		if (in->jump_target)
			pms_json__bool(j, "jump_target", true);
		if (in->back_edge)
			pms_json__bool(j, "back_edge", true);
		pms_json__end(j);
	}
	pms_json__end(j);
	pms_json__arr(j, "lines");
	for (size_t i = 0; i < a->nr_lines; i++) {
		const struct pms_annotate_line *l = &a->lines[i];

		pms_json__obj(j, NULL);
		pms_json__str(j, "file", l->file);
		pms_json__uint(j, "line", l->line);
		pms_json__uint(j, "samples", l->samples);
		pms_json__uint(j, "period", l->period);
		pms_json__double(j, "percent", share(v, s, l->samples, l->period));
		pms_json__uint(j, "first_addr", l->first_addr);
		pms_json__end(j);
	}
	pms_json__end(j);
	pms_json__arr(j, "loops");
	for (size_t i = 0; i < a->nr_loops; i++) {
		pms_json__obj(j, NULL);
		pms_json__uint(j, "start", a->loops[i].start);
		pms_json__uint(j, "end", a->loops[i].end);
		pms_json__uint(j, "samples", a->loops[i].samples);
		pms_json__double(j, "percent", share(v, s, a->loops[i].samples, a->loops[i].period));
		pms_json__end(j);
	}
	pms_json__end(j);
	pms_json__end(j);
	strbuf_release(&sb);
}

/*
 * Does symbol sym answer to name: its demangled name, the name without its
 * parameters (C++), or without a compiler clone's suffix (.constprop.0,
 * .isra.0, .part.0, .cold)?
 */
static bool name_matches(const char *sym, const char *name)
{
	size_t n = strlen(name);

	return !strcmp(sym, name) || (!strncmp(sym, name, n) && (sym[n] == '(' || sym[n] == '.'));
}

static bool dso_matches(const char *dso, const char *want)
{
	const char *base = strrchr(dso, '/');

	return !strcmp(dso, want) || (base && !strcmp(base + 1, want));
}

static bool wanted(const struct pms_annotate_set *set, const struct pms_annotate_sym *s, const char **names,
		   size_t nr_names)
{
	const struct pms_annotate_event *ev = pms_annotate_set__event(set, s->event);

	if (o.dso && !dso_matches(s->dso, o.dso))
		return false;
	if (o.event && (!ev->name || strcmp(ev->name, o.event)))
		return false;
	if (nr_names) {
		for (size_t i = 0; i < nr_names; i++)
			if (name_matches(s->name, names[i]))
				return true;
		return false;
	}
	return ev->samples && 100.0 * (double)s->samples / (double)ev->samples >=
				      (o.percent_limit >= 0 ? o.percent_limit : 0.5);
}

static const char *why_not(int err, const struct pms_annotate_sym *s)
{
	if (err == -EOPNOTSUPP)
		return "no disassembler for this machine";
	if (s->kernel)
		return "kernel code: annotating it needs the kernel image (vmlinux or /proc/kcore), not read yet";
	if (!s->elf)
		return "no file holds its code (JIT or unmapped)";
	if (!s->size)
		return "its size is unknown";
	return "its code bytes are not in the file (a debug file without code?)";
}

/* Files whose samples could not be named: a rebuilt file is refused, never read for the wrong bytes. */
static size_t say_unnamed(struct pms_session *s)
{
	struct pms_resolver *res = pms_session__resolver(s);
	struct pms_unnamed_file u;
	size_t i;

	for (i = 0; i < 5 && !pms_resolver__unnamed(res, i, &u); i++) {
		if (u.why == PMS_RES_STALE)
			warning("%s: rebuilt since the recording (build-id on disk %s): its %zu samples are not "
				"annotated, the bytes there are not the ones that ran", u.path,
				*u.found_build_id_hex ? u.found_build_id_hex : "none", u.samples);
		else if (u.why == PMS_RES_STRIPPED)
			warning("%s: stripped, and no debug file found: its %zu samples have no function to annotate",
				u.path, u.samples);
		else
			warning("%s: not on this machine%s%s%s: its %zu samples are not annotated", u.path,
				*u.build_id_hex ? " nor in the build-id cache (build-id " : "", u.build_id_hex,
				*u.build_id_hex ? ")" : "", u.samples);
	}
	return i;
}

static int run(int argc, char **argv)
{
	struct pms_session_opts so = { .sz = sizeof(so) };
	struct pms_annotate_opts ao = { .sz = sizeof(ao) };
	struct pms_annotate_set *set = NULL;
	struct pms_session *s = NULL;
	struct view v = { .pct = PCT_LOCAL_PERIOD };
	const char **names;
	size_t nr_names, done = 0, failed = 0;
	struct strbuf out = STRBUF_INIT;
	struct pms_json j;
	const char *path;
	int pos, err, ret = 0;

	pos = opt_parse(&cmd_annotate, &argc, argv, 0);
	if (o.no_source && o.source)
		usage_error(&cmd_annotate, "--source and --no-source contradict each other");
	if (o.percent_type) {
		static const char *const spell[] = { "local-period", "global-period", "local-hits", "global-hits" };
		bool ok = false;

		for (int i = 0; i < 4; i++)
			if (!strcmp(o.percent_type, spell[i]))
				v.pct = (enum pct_type)i, ok = true;
		if (!strcmp(o.percent_type, "local"))
			v.pct = PCT_LOCAL_PERIOD, ok = true;
		if (!strcmp(o.percent_type, "global"))
			v.pct = PCT_GLOBAL_PERIOD, ok = true;
		if (!ok)
			usage_error(&cmd_annotate, "--percent-type: want local-period, global-period, local-hits or "
				    "global-hits, not '%s'", o.percent_type);
	}
	if (o.disassembler_style && strcmp(o.disassembler_style, "att") && strcmp(o.disassembler_style, "intel"))
		usage_error(&cmd_annotate, "-M: want att or intel, not '%s'", o.disassembler_style);
	if (o.json && o.stdio)
		usage_error(&cmd_annotate, "--json and --stdio: one output at a time");
	if (o.percent_limit > 100)
		usage_error(&cmd_annotate, "--percent-limit: want 0..100");
	ao.syntax = o.disassembler_style && !strcmp(o.disassembler_style, "intel") ? PMS_DISASM_INTEL : PMS_DISASM_ATT;
	ao.source = !o.no_source;
	names = xcalloc((size_t)(argc - pos) + o.syms.nr + 1, sizeof(*names));
	nr_names = 0;
	for (size_t i = 0; i < o.syms.nr; i++)
		names[nr_names++] = o.syms.v[i];
	for (int i = pos; i < argc; i++)
		names[nr_names++] = argv[i];
	path = o.input ? o.input : "perf.data";
	if (data_input__open_session(&s, path, &so, DATA_INPUT_RECORD_OR_I)) {
		ret = EXIT_RUNTIME;
		goto out;
	}
	err = pms_annotate_set__from_session(s, &set);
	if (err == -ENOMEM)
		die("out of memory");
	if (err) {
		const struct pms_data_error *d = pms_data_reader__error(pms_session__reader(s));

		error("'%s': %s", path, d && d->err ? d->msg : strerror(-err));
		ret = EXIT_RUNTIME;
		goto out;
	}
	v.set = set;
	if (o.json) {
		pms_json__init(&j, &out, true);
		pms_json__obj(&j, NULL);
		pms_json__str(&j, "file", path);
		pms_json__arr(&j, "annotations");
	}
	for (size_t i = 0; i < pms_annotate_set__nr(set); i++) {
		const struct pms_annotate_sym *sym = pms_annotate_set__sym(set, i);
		struct pms_annotation *a;

		if (!wanted(set, sym, names, nr_names))
			continue;
		err = pms_annotation__build(set, i, &ao, &a);
		if (err == -ENOMEM)
			die("out of memory");
		if (err) {
			warning("%s (%s): not annotated: %s", sym->name, report_dso_short(sym->dso), why_not(err, sym));
			failed++;
			continue;
		}
		if (o.json)
			json_annotation(&v, a, &j);
		else
			print_stdio(&v, a, stdout);
		pms_annotation__free(a);
		done++;
	}
	if (o.json) {
		pms_json__end(&j);
		pms_json__end(&j);
		pms_json__finish(&j);
		output__put(stdout, &out);
	}
	if (!done && say_unnamed(s) && nr_names) {
		ret = EXIT_RUNTIME;
	} else if (!done) {
		if (nr_names)
			error("'%s' has no samples of %s%s%s%s", path, names[0], nr_names > 1 ? " or the other names given" : "",
			      o.dso ? " in " : "", o.dso ? o.dso : "");
		else if (!failed)
			error("'%s': no function has %.1f%% of its event's samples (--percent-limit)", path,
			      o.percent_limit >= 0 ? o.percent_limit : 0.5);
		ret = EXIT_RUNTIME;
	}
out:
	free(names);
	pms_annotate_set__free(set);
	pms_session__free(s);
	return ret;
}

PMS_COMMAND(annotate, "annotate",
	    "a function's instructions and source lines with the share of its samples on each (perf annotate)",
	    "pmuscope annotate [-i <file>] [-s <symbol>]... [--dso <object>] [--no-source] [-M intel] [--asm-raw] [--json] [<symbol>...]");
