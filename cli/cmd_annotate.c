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
#include "data/groups.h"
#include "export/annotate_text.h"
#include "symbol/dso.h"
#include "symbol/resolver.h"
#include "util/json.h"
#include "util/strbuf.h"

static struct annotate_opts {
	const char *input, *dso, *percent_type, *disassembler_style, *event;
	struct opt_strings syms;
	double percent_limit;
	bool asm_raw, no_source, source, stdio, json, show_nr_samples, group;
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
	OPT_BOOL(0, "group", &o.group, "the events of a recorded group side by side, one percent column each"),
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

#ifdef PMS_NO_HOST_LIBS
static int run(int argc, char **argv)
{
	opt_parse(&cmd_annotate, &argc, argv, 0);
	return error("annotate is not available in this build (it needs capstone and libdw; built with HOST_LIBS=0)"),
	       EXIT_RUNTIME;
}
#else
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
	if (s->kernel && err == -ENODEV)
		return "kernel code is read from /proc/kcore, and this kernel has none (CONFIG_PROC_KCORE is off)";
	if (s->kernel && (err == -EACCES || err == -EPERM))
		return "kernel code is read from /proc/kcore, which needs root (CAP_SYS_RAWIO)";
	if (s->kernel && !s->kernel_here)
		return "kernel code: the running kernel is not the recorded one (or its symbols are hidden), so "
		       "/proc/kcore does not hold that code";
	if (s->kernel)
		return "kernel code: /proc/kcore does not map it";
	if (!s->elf)
		return "no file holds its code (JIT or unmapped)";
	if (!s->size)
		return "its size is unknown";
	return "its code bytes are not in the file (a debug file without code?)";
}

/* Symbol s's entry for event e (the same function of the same file), or -1. */
static ssize_t same_function(const struct pms_annotate_set *set, const struct pms_annotate_sym *s, size_t e)
{
	for (size_t i = 0; i < pms_annotate_set__nr(set); i++) {
		const struct pms_annotate_sym *x = pms_annotate_set__sym(set, i);

		if (x->event == e && x->elf == s->elf && x->start == s->start && !strcmp(x->name, s->name))
			return (ssize_t)i;
	}
	return -1;
}

/* Files whose samples could not be named: a rebuilt file is refused, never read for the wrong bytes. */
static size_t say_unnamed(struct pms_session *s)
{
	struct pms_resolver *res = pms_session__resolver(s);
	struct pms_unnamed_file u;
	size_t i;

	for (i = 0; i < 5 && !pms_resolver__unnamed(res, i, &u); i++) {
		if (u.why == PMS_RES_STALE)
			warning("%s: rebuilt since the recording (build-id on disk %s): its %zu sample%s not "
				"annotated, the bytes there are not the ones that ran", u.path,
				*u.found_build_id_hex ? u.found_build_id_hex : "none", u.samples, u.samples == 1 ? " is" : "s are");
		else if (u.why == PMS_RES_STRIPPED)
			warning("%s: stripped, and no debug file found: its %zu sample%s no function to annotate",
				u.path, u.samples, u.samples == 1 ? " has" : "s have");
		else
			warning("%s: not on this machine%s%s%s: its %zu sample%s not annotated", u.path,
				*u.build_id_hex ? " nor in the build-id cache (build-id " : "", u.build_id_hex,
				*u.build_id_hex ? ")" : "", u.samples, u.samples == 1 ? " is" : "s are");
	}
	return i;
}

/* No sample fell in a named function: say where they are and why nothing names them. */
static void say_nothing_named(struct pms_session *s, const struct pms_annotate_set *set, const char *path)
{
	uint64_t user, kernel;

	pms_annotate_set__unnamed(set, &user, &kernel);
	if (!user && !kernel) {
		error("'%s' has no samples", path);
		return;
	}
	say_unnamed(s);
	if (kernel) {
		struct pms_kernel_info ki;

		pms_resolver__kernel_info(pms_session__resolver(s), &ki);
		if (ki.source == PMS_KSRC_NONE && *ki.why)
			warning("kernel: %s: its %" PRIu64 " sample%s not annotated%s", ki.why, kernel,
				kernel == 1 ? " is" : "s are", ki.restricted ? "" :
				" (unpack `pmuscope archive` of the recording into the build-id cache, or give its kallsyms with --kallsyms)");
	}
	error("'%s': none of its %" PRIu64 " sample%s is in a function named here (%" PRIu64 " user, %" PRIu64
	      " kernel); `pmuscope report` says which objects they are in", path, user + kernel,
	      user + kernel == 1 ? "" : "s", user, kernel);
}

static int run(int argc, char **argv)
{
	struct pms_session_opts so = { .sz = sizeof(so) };
	struct pms_annotate_opts ao = { .sz = sizeof(ao) };
	struct pms_annotate_set *set = NULL;
	struct pms_session *s = NULL;
	struct pms_annotate_view v = { .pct = PMS_PCT_LOCAL_PERIOD };
	const char **names;
	size_t nr_names, done = 0, failed = 0, nr_kernel_failed = 0;
	struct strbuf kernel_names = STRBUF_INIT, text = STRBUF_INIT;
	const char *kernel_why = "";
	struct pms_data_groups groups = { 0 };
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
				v.pct = (enum pms_annotate_pct)i, ok = true;
		if (!strcmp(o.percent_type, "local"))
			v.pct = PMS_PCT_LOCAL_PERIOD, ok = true;
		if (!strcmp(o.percent_type, "global"))
			v.pct = PMS_PCT_GLOBAL_PERIOD, ok = true;
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
	/* a user object asked for: the kernel's symbols are not needed, and not loaded */
	so.skip_kernel = o.dso && o.dso[0] != '[';
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
	v.show_nr_samples = o.show_nr_samples;
	v.asm_raw = o.asm_raw;
	if (o.group) {
		err = pms_data_groups__build(&groups, pms_session__reader(s), true);
		if (err == -ENOMEM)
			die("out of memory");
		if (err)
			warning("%s: the file's event group description does not fit its events: no group columns", path);
	}
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
		/* a group's members are shown in their leader's columns */
		if (o.group && groups.nr > sym->event && !groups.size[sym->event])
			continue;
		err = pms_annotation__build(set, i, &ao, &a);
		if (err == -ENOMEM)
			die("out of memory");
		if (err && sym->kernel) {
			/* one line for the kernel's functions: they share the reason */
			if (nr_kernel_failed < 3)
				strbuf_addf(&kernel_names, "%s%s", nr_kernel_failed ? ", " : "", sym->name);
			kernel_why = why_not(err, sym);
			nr_kernel_failed++;
			failed++;
			continue;
		}
		if (err) {
			warning("%s (%s): not annotated: %s", sym->name, report_dso_short(sym->dso), why_not(err, sym));
			failed++;
			continue;
		}
		v.ev = pms_annotate_set__event(set, sym->event);
		v.nr_members = 0;
		if (o.group && groups.nr > sym->event && groups.size[sym->event] > 1) {
			size_t n = groups.size[sym->event] - 1;

			v.members = xcalloc(n, sizeof(*v.members));
			v.member_evs = xcalloc(n, sizeof(*v.member_evs));
			for (size_t m = 0; m < n; m++) {
				ssize_t k = same_function(set, sym, sym->event + 1 + m);

				v.member_evs[m] = pms_annotate_set__event(set, sym->event + 1 + m);
				if (k >= 0 && pms_annotation__build(set, (size_t)k, &ao, &v.members[m]) == -ENOMEM)
					die("out of memory");
			}
			v.nr_members = n;
		}
		if (o.json) {
			pms_annotate_text__json(&v, a, &j);
		} else {
			strbuf_reset(&text);
			pms_annotate_text__stdio(&v, a, &text);
			if (text.oom)
				die("out of memory");
			fputs(strbuf_str(&text), stdout);
		}
		for (size_t m = 0; m < v.nr_members; m++)
			pms_annotation__free(v.members[m]);
		free(v.members);
		free(v.member_evs);
		v.members = NULL;
		v.member_evs = NULL;
		v.nr_members = 0;
		pms_annotation__free(a);
		done++;
	}
	if (nr_kernel_failed)
		warning("%zu kernel function%s (%s%s) not annotated: %s", nr_kernel_failed, nr_kernel_failed == 1 ? "" : "s",
			strbuf_str(&kernel_names), nr_kernel_failed > 3 ? ", ..." : "", kernel_why);
	if (o.json) {
		pms_json__end(&j);
		pms_json__end(&j);
		pms_json__finish(&j);
		output__put(stdout, &out);
	}
	if (!done) {
		/* failures were said one by one; a name that matched nothing may be in a file not here */
		if (!failed && nr_names && !say_unnamed(s))
			error("'%s' has no samples of %s%s%s%s", path, names[0], nr_names > 1 ? " or the other names given" : "",
			      o.dso ? " in " : "", o.dso ? o.dso : "");
		else if (!failed && !nr_names && !pms_annotate_set__nr(set))
			say_nothing_named(s, set, path);
		else if (!failed && !nr_names)
			error("'%s': no function has %.1f%% of its event's samples (--percent-limit)", path,
			      o.percent_limit >= 0 ? o.percent_limit : 0.5);
		ret = EXIT_RUNTIME;
	}
out:
	pms_data_groups__release(&groups);
	strbuf_release(&kernel_names);
	strbuf_release(&text);
	free(names);
	pms_annotate_set__free(set);
	pms_session__free(s);
	return ret;
}

#endif

PMS_COMMAND(annotate, "annotate",
	    "a function's instructions and source lines with the share of its samples on each (perf annotate)",
	    "pmuscope annotate [-i <file>] [-s <symbol>]... [--dso <object>] [--no-source] [-M intel] [--asm-raw] [--json] [<symbol>...]");
