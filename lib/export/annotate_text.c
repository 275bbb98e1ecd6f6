// SPDX-License-Identifier: MIT
// An annotation as perf annotate's --stdio layout or as JSON: what `annotate` prints, `top`'s a key and `report --html` show.
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export/annotate_text.h"
#include "symbol/dso.h"
#include "symbol/jitmap.h"

static const char *const pct_names[] = { "local period", "global period", "local hits", "global hits" };

/* An instruction's (or line's) share as --percent-type says. */
static double share(const struct pms_annotate_view *v, const struct pms_annotate_sym *s, uint64_t samples,
		    uint64_t period)
{
	const struct pms_annotate_event *ev = v->ev;
	double num = v->pct == PMS_PCT_LOCAL_HITS || v->pct == PMS_PCT_GLOBAL_HITS ? (double)samples : (double)period;
	double den = v->pct == PMS_PCT_LOCAL_PERIOD ? (double)s->period : v->pct == PMS_PCT_LOCAL_HITS ? (double)s->samples
		     : !ev ? (v->pct == PMS_PCT_GLOBAL_PERIOD ? (double)s->period : (double)s->samples)
		     : v->pct == PMS_PCT_GLOBAL_PERIOD ? (double)ev->period : (double)ev->samples;

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

/* A group member's instruction for the leader's i-th (the same code): at the same index, or
   found by address; NULL when the member has no annotation or not that address. */
static const struct pms_annotate_insn *member_insn(const struct pms_annotation *ma, size_t i, uint64_t addr)
{
	if (!ma)
		return NULL;
	if (i < ma->nr_insns && ma->insns[i].d.addr == addr)
		return &ma->insns[i];
	for (size_t k = 0; k < ma->nr_insns; k++)
		if (ma->insns[k].d.addr == addr)
			return &ma->insns[k];
	return NULL;
}

/* A group member's source line, by file and number. */
static const struct pms_annotate_line *member_line(const struct pms_annotation *ma, const struct pms_annotate_line *l)
{
	for (size_t k = 0; ma && k < ma->nr_lines; k++)
		if (ma->lines[k].line == l->line && ma->lines[k].file && l->file && !strcmp(ma->lines[k].file, l->file))
			return &ma->lines[k];
	return NULL;
}

/* --group in JSON: one member's samples, period and share beside the leader's. */
static void json_member(const struct pms_annotate_view *v, struct pms_json *j, size_t m, uint64_t samples,
			uint64_t period)
{
	struct pms_annotate_view mv = { .ev = v->member_evs[m], .pct = v->pct };
	const struct pms_annotation *ma = v->members[m];

	pms_json__obj(j, NULL);
	pms_json__str(j, "event", mv.ev && mv.ev->name ? mv.ev->name : NULL);
	pms_json__uint(j, "samples", samples);
	pms_json__uint(j, "period", period);
	pms_json__double(j, "percent", ma && samples ? share(&mv, ma->sym, samples, period) : 0.0);
	pms_json__end(j);
}

static void skid_line(const struct pms_annotate_view *v, struct strbuf *f)
{
	const struct pms_annotate_event *ev = v->ev;
	double exact = ev && ev->samples ? 100.0 * (double)ev->exact_samples / (double)ev->samples : 0;

	if (!ev) {
		strbuf_addf(f, "   Samples are not exact (timer or counter interrupts taken as the code ran): a sample lands "
			"on the instruction after the one that caused it, or later (skid); look just above a hot line\n");
		return;
	}

	if (ev->exact_samples && ev->exact_samples == ev->samples)
		strbuf_addf(f, "   Samples are exact (precise_ip=%u, every sample's IP is the instruction that caused it)\n",
			ev->precise_ip);
	else
		strbuf_addf(f, "   Samples are not exact (precise_ip=%u asked, %.0f%% with an exact IP): a sample lands on the "
			"instruction after the one that caused it, or later (skid); look just above a hot line\n",
			ev->precise_ip, exact);
}

static void print_summary(const struct pms_annotate_view *v, struct pms_annotation *a, struct strbuf *f)
{
	const struct pms_annotate_sym *s = a->sym;
	size_t *order = calloc(a->nr_lines ? a->nr_lines : 1, sizeof(*order)), shown = 0;

	if (!order) {
		f->oom = true; /* the strbuf's sticky flag: the caller sees it once */
		return;
	}
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
		strbuf_addf(f, "   No source lines: %s\n", a->no_source);
	} else {
		strbuf_addf(f, "   Hottest lines:\n");
		for (size_t i = 0; i < a->nr_lines && shown < 10; i++) {
			const struct pms_annotate_line *l = &a->lines[order[i]];
			double pct = share(v, s, l->samples, l->period);
			const char *base = strrchr(l->file, '/');
			const char *text = pms_annotation__source(a, l->file, l->comp_dir, l->line);

			if (pct < 0.5)
				break;
			while (text && (*text == ' ' || *text == '\t'))
				text++;
			strbuf_addf(f, "   %7.2f %s:%u%s%s\n", pct, base ? base + 1 : l->file, l->line, text ? "   " : "",
				text ? text : "");
			shown++;
		}
		if (!shown)
			strbuf_addf(f, "   Nothing higher than 0.5%%\n");
	}
	if (a->nr_loops)
		strbuf_addf(f, "   Hottest loop: %.2f%% in %" PRIx64 "..%" PRIx64 " (%zu loop%s)\n",
			share(v, s, a->loops[0].samples, a->loops[0].period), a->loops[0].start, a->loops[0].end,
			a->nr_loops, a->nr_loops == 1 ? "" : "s");
	if (a->samples_elsewhere)
		strbuf_addf(f, "   %" PRIu64 " samples at no instruction's first byte (is the file the one recorded?)\n",
			a->samples_elsewhere);
	free(order);
}

void pms_annotate_text__stdio(const struct pms_annotate_view *v, struct pms_annotation *a, struct strbuf *f)
{
	const struct pms_annotate_sym *s = a->sym;
	const char *last_file = NULL, *last_func = NULL;
	char name_buf[64];
	/* perf's Shared Object column: the base name, "[JIT] tid N" for a JIT map */
	const char *dso = s->dso ? pms_jitmap__dso_short_name(s->dso, name_buf, sizeof(name_buf)) : "[unknown]";
	unsigned last_line = 0;
	struct strbuf line = STRBUF_INIT;

	if (v->nr_members) {
		strbuf_addf(f, " Percent");
		for (size_t m = 0; m < v->nr_members; m++)
			strbuf_addf(f, "         ");
		strbuf_addf(f, " |\tSource code & Disassembly of %s for %s", dso,
			v->ev && v->ev->name ? v->ev->name : "?");
		for (size_t m = 0; m < v->nr_members; m++)
			strbuf_addf(f, ", %s", v->member_evs[m] && v->member_evs[m]->name ? v->member_evs[m]->name : "?");
		strbuf_addf(f, " (%" PRIu64 " samples of the first, percent: %s)\n", s->samples, pct_names[v->pct]);
	} else {
		strbuf_addf(f, " Percent |\tSource code & Disassembly of %s for %s (%" PRIu64 " samples, percent: %s)\n",
			dso, v->ev && v->ev->name ? v->ev->name : v->event_name ? v->event_name : "?",
			s->samples, pct_names[v->pct]);
	}
	strbuf_addf(f, "--------------------------------------------------------------------------------------------------------------\n");
	skid_line(v, f);
	print_summary(v, a, f);
	strbuf_addf(f, "         :\n         :\t%016" PRIx64 " <%s>:\n", s->start, s->name);
	for (size_t i = 0; i < a->nr_insns; i++) {
		const struct pms_annotate_insn *in = &a->insns[i];
		double pct = share(v, s, in->samples, in->period);

		if (in->file && (in->line != last_line || !last_file || strcmp(in->file, last_file))) {
			const char *text = pms_annotation__source(a, in->file, in->comp_dir, in->line);

			if (in->func != last_func && (!in->func || !last_func || strcmp(in->func, last_func)))
				strbuf_addf(f, "         : %s():\n", in->func ? in->func : s->name);
			strbuf_addf(f, "         : %-4u %s\n", in->line, text ? text : "");
			last_file = in->file;
			last_line = in->line;
			last_func = in->func;
		}
		strbuf_reset(&line);
		if (in->samples)
			strbuf_addf(&line, "%8.2f", pct);
		else
			strbuf_addf(&line, "    0.00");
		for (size_t m = 0; m < v->nr_members; m++) {
			const struct pms_annotation *ma = v->members[m];
			const struct pms_annotate_insn *mi = member_insn(ma, i, in->d.addr);
			struct pms_annotate_view mv = { .ev = v->member_evs[m], .pct = v->pct };

			strbuf_addf(&line, " %8.2f", mi && mi->samples ? share(&mv, ma->sym, mi->samples, mi->period) : 0.0);
		}
		strbuf_adds(&line, " :");
		if (v->show_nr_samples)
			strbuf_addf(&line, " %8" PRIu64, in->samples);
		strbuf_addf(&line, "   %" PRIx64 ":   ", in->d.addr);
		if (v->asm_raw) {
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
		strbuf_addf(f, "%s\n", strbuf_str(&line));
	}
	strbuf_addf(f, "\n");
	strbuf_release(&line);
}

void pms_annotate_text__json(const struct pms_annotate_view *v, struct pms_annotation *a, struct pms_json *j)
{
	const struct pms_annotate_sym *s = a->sym;
	const struct pms_annotate_event *ev = v->ev;
	struct strbuf sb = STRBUF_INIT;

	pms_json__obj(j, NULL);
	pms_json__str(j, "symbol", s->name);
	pms_json__str(j, "dso", s->dso);
	pms_json__str(j, "event", ev ? ev->name : v->event_name);
	pms_json__uint(j, "start", s->start);
	pms_json__uint(j, "size", s->size);
	pms_json__uint(j, "samples", s->samples);
	pms_json__uint(j, "period", s->period);
	pms_json__str(j, "percent_type", pct_names[v->pct]);
	if (ev) {
		pms_json__uint(j, "precise_ip", ev->precise_ip);
		pms_json__double(j, "exact_ip_pct",
				 ev->samples ? 100.0 * (double)ev->exact_samples / (double)ev->samples : 0);
	}
	pms_json__uint(j, "samples_elsewhere", a->samples_elsewhere);
	pms_json__str(j, "no_source", a->no_source);
	if (v->nr_members) {
		pms_json__arr(j, "group");
		pms_json__str(j, NULL, ev ? ev->name : v->event_name);
		for (size_t m = 0; m < v->nr_members; m++)
			pms_json__str(j, NULL, v->member_evs[m] ? v->member_evs[m]->name : NULL);
		pms_json__end(j);
	}
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
		strbuf_reset(&sb);
		for (unsigned b = 0; b < in->d.size && b < sizeof(in->d.bytes); b++)
			strbuf_addf(&sb, "%s%02x", b ? " " : "", in->d.bytes[b]);
		pms_json__str(j, "bytes", strbuf_str(&sb));
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
		if (v->nr_members) {
			pms_json__arr(j, "members");
			for (size_t m = 0; m < v->nr_members; m++) {
				const struct pms_annotate_insn *mi = member_insn(v->members[m], i, in->d.addr);

				json_member(v, j, m, mi ? mi->samples : 0, mi ? mi->period : 0);
			}
			pms_json__end(j);
		}
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
		if (v->nr_members) {
			pms_json__arr(j, "members");
			for (size_t m = 0; m < v->nr_members; m++) {
				const struct pms_annotate_line *ml = member_line(v->members[m], l);

				json_member(v, j, m, ml ? ml->samples : 0, ml ? ml->period : 0);
			}
			pms_json__end(j);
		}
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

