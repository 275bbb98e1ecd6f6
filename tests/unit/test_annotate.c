// SPDX-License-Identifier: MIT
// annotate's engine and renderers on a function compiled here with a known loop: every instruction's samples, the loop and its back edge, per-line totals equal to their instructions', samples at no instruction's start kept apart, --no-source, and the --stdio / JSON text (group members included).
#include <criterion/criterion.h>
#include <elf.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "aggregate/annotate.h"
#include "export/annotate_text.h"
#include "symbol/dso.h"
#include "util/json.h"
#include "test_symbol_fixture.h"

/* The loop's body is on its own line (BODY), the loop control on another (LOOP). */
static const char spin_src[] =
	"#include <stdint.h>\n"
	"__attribute__((noinline)) uint64_t spin(uint64_t n)\n"
	"{\n"
	"\tuint64_t x = 1;\n"
	"\tfor (uint64_t i = 0; i < n; i++) /* LOOP */\n"
	"\t\tx = x * 6364136223846793005ULL + 1442695040888963407ULL; /* BODY */\n"
	"\treturn x;\n"
	"}\n"
	"int main(int argc, char **argv) { (void)argv; return (int)spin((uint64_t)argc * 1000); }\n";
#define BODY_LINE 6

#if defined(__x86_64__)
#define HERE_MACHINE EM_X86_64
#elif defined(__aarch64__)
#define HERE_MACHINE EM_AARCH64
#else
#define HERE_MACHINE EM_NONE
#endif

struct spin_fixture {
	char dir[64];
	struct pms_dso *dso;
	struct pms_annotate_sym sym;
};

static void spin_build(struct spin_fixture *fx)
{
	char path[128];
	FILE *f;

	fx_tmpdir(fx->dir, sizeof(fx->dir));
	snprintf(path, sizeof(path), "%s/spin.c", fx->dir);
	f = fopen(path, "w");
	cr_assert_not_null(f);
	fputs(spin_src, f);
	fclose(f);
	fx_sh("cd '%s' && cc -O1 -g -o spin spin.c", fx->dir);
	snprintf(path, sizeof(path), "%s/spin", fx->dir);
	cr_assert_eq(pms_dso__open(path, &fx->dso), 0);
	memset(&fx->sym, 0, sizeof(fx->sym));
	for (size_t i = 0; i < fx->dso->nr_syms; i++)
		if (!strcmp(fx->dso->syms[i].name, "spin")) {
			fx->sym.start = fx->dso->syms[i].start;
			fx->sym.size = fx->dso->syms[i].size;
		}
	cr_assert_gt(fx->sym.size, 0, "spin not in the symbol table");
	fx->sym.name = "spin";
	fx->sym.dso = path;
	fx->sym.elf = fx->dso;
}

static void spin_free(struct spin_fixture *fx)
{
	pms_dso__free(fx->dso);
	fx_rmdir(fx->dir);
}

/* One sample (period 10) at every instruction's first byte, from a first pass without samples. */
static struct pms_annotation *annotate_every_insn(struct spin_fixture *fx, bool source, struct pms_annotate_point **pts_out,
						  size_t *nr_out)
{
	struct pms_annotate_opts o = { .sz = sizeof(o), .syntax = PMS_DISASM_ATT, .source = source };
	struct pms_annotation *a;
	struct pms_annotate_point *pts;

	cr_assert_eq(pms_annotation__build_sym(&fx->sym, NULL, 0, &o, &a), 0);
	cr_assert_gt(a->nr_insns, 3);
	/* one more point: inside the first instruction longer than a byte */
	pts = calloc(a->nr_insns + 1, sizeof(*pts));
	cr_assert_not_null(pts);
	*nr_out = 0;
	for (size_t i = 0; i < a->nr_insns; i++)
		pts[(*nr_out)++] = (struct pms_annotate_point){ .addr = a->insns[i].d.addr, .samples = 1, .period = 10 };
	for (size_t i = 0; i < a->nr_insns; i++)
		if (a->insns[i].d.size > 1) {
			pts[(*nr_out)++] = (struct pms_annotate_point){ .addr = a->insns[i].d.addr + 1, .samples = 3, .period = 30 };
			break;
		}
	pms_annotation__free(a);
	fx->sym.samples = fx->sym.period = 0;
	for (size_t i = 0; i < *nr_out; i++) {
		fx->sym.samples += pts[i].samples;
		fx->sym.period += pts[i].period;
	}
	cr_assert_eq(pms_annotation__build_sym(&fx->sym, pts, *nr_out, &o, &a), 0);
	*pts_out = pts;
	return a;
}

Test(annotate, insns_loop_lines_and_stray_samples)
{
	struct spin_fixture fx;
	struct pms_annotate_point *pts;
	struct pms_annotation *a;
	uint64_t insn_samples = 0, line_samples = 0, body = 0, in_loop = 0;
	size_t nr, back = 0, targets = 0;

	if (!pms_disasm__supports(HERE_MACHINE))
		cr_skip_test("built without a disassembler for this machine");
	spin_build(&fx);
	a = annotate_every_insn(&fx, true, &pts, &nr);
	for (size_t i = 0; i < a->nr_insns; i++) {
		const struct pms_annotate_insn *in = &a->insns[i];

		cr_assert_eq(in->samples, 1, "insn %zu at %#lx", i, (unsigned long)in->d.addr);
		cr_assert_eq(in->period, 10);
		insn_samples += in->samples;
		if (in->back_edge) {
			back++;
			cr_assert_lt(in->d.target, in->d.addr, "a back edge branches backwards");
		}
		targets += in->jump_target;
		if (in->line == BODY_LINE)
			body++;
	}
	cr_assert_eq(a->samples_elsewhere, 3, "the sample inside an instruction is counted apart");
	cr_assert_eq(insn_samples, a->nr_insns);
	cr_assert_eq(back, 1, "one loop, one back edge");
	cr_assert_geq(targets, 1);
	cr_assert_gt(body, 0, "the body's line has instructions");

	cr_assert_eq(a->nr_loops, 1);
	for (size_t i = 0; i < a->nr_insns; i++)
		if (a->insns[i].d.addr >= a->loops[0].start && a->insns[i].d.addr < a->loops[0].end) {
			in_loop++;
			if (a->insns[i].d.addr == a->loops[0].start)
				cr_assert(a->insns[i].jump_target, "the loop starts at its back edge's target");
		}
	cr_assert_eq(a->loops[0].samples, in_loop, "a loop holds its instructions' samples");
	cr_assert_eq(a->loops[0].period, 10 * in_loop);

	cr_assert_null(a->no_source);
	for (size_t l = 0; l < a->nr_lines; l++) {
		uint64_t sum = 0;

		for (size_t i = 0; i < a->nr_insns; i++)
			if (a->insns[i].line_idx == l)
				sum += a->insns[i].samples;
		cr_assert_eq(a->lines[l].samples, sum, "line %u: its instructions' samples", a->lines[l].line);
		line_samples += a->lines[l].samples;
		if (a->lines[l].line == BODY_LINE)
			cr_assert_eq(a->lines[l].samples, body);
	}
	cr_assert_leq(line_samples, insn_samples);
	{
		const char *text = pms_annotation__source(a, a->lines[0].file, a->lines[0].comp_dir, BODY_LINE);

		cr_assert_not_null(text, "the source file is read");
		cr_assert_not_null(strstr(text, "/* BODY */"), "line %d is '%s'", BODY_LINE, text);
	}
	pms_annotation__free(a);
	free(pts);
	spin_free(&fx);
}

Test(annotate, no_source)
{
	struct spin_fixture fx;
	struct pms_annotate_point *pts;
	struct pms_annotation *a;
	size_t nr;

	if (!pms_disasm__supports(HERE_MACHINE))
		cr_skip_test("built without a disassembler for this machine");
	spin_build(&fx);
	a = annotate_every_insn(&fx, false, &pts, &nr);
	cr_assert_eq(a->nr_lines, 0);
	cr_assert_not_null(a->no_source, "says why there are no lines");
	for (size_t i = 0; i < a->nr_insns; i++)
		cr_assert_null(a->insns[i].file);
	cr_assert_eq(a->nr_loops, 1, "loops do not need source lines");
	pms_annotation__free(a);
	free(pts);
	spin_free(&fx);
}

Test(annotate, stdio_and_json_with_a_group_member)
{
	struct spin_fixture fx;
	struct pms_annotate_point *pts;
	struct pms_annotation *a, *m;
	struct pms_annotate_sym msym;
	struct pms_annotate_opts o = { .sz = sizeof(o), .syntax = PMS_DISASM_ATT, .source = true };
	struct pms_annotate_event lead = { .name = "cycles", .samples = 100, .period = 1000 };
	struct pms_annotate_event mem = { .name = "instructions", .samples = 50, .period = 500 };
	const struct pms_annotate_event *mevs[1] = { &mem };
	struct strbuf sb = STRBUF_INIT;
	struct pms_json j;
	size_t nr;
	char want[64];

	if (!pms_disasm__supports(HERE_MACHINE))
		cr_skip_test("built without a disassembler for this machine");
	spin_build(&fx);
	a = annotate_every_insn(&fx, true, &pts, &nr);
	/* the member: samples only on the loop's back edge */
	for (size_t i = 0; i < a->nr_insns; i++)
		if (a->insns[i].back_edge)
			pts[0] = (struct pms_annotate_point){ .addr = a->insns[i].d.addr, .samples = 5, .period = 50 };
	msym = fx.sym;
	msym.samples = 5;
	msym.period = 50;
	cr_assert_eq(pms_annotation__build_sym(&msym, pts, 1, &o, &m), 0);
	{
		struct pms_annotate_view v = { .ev = &lead, .pct = PMS_PCT_LOCAL_HITS, .members = &m, .member_evs = mevs,
					       .nr_members = 1 };

		pms_annotate_text__stdio(&v, a, &sb);
		cr_assert_not_null(strstr(strbuf_str(&sb), "for cycles, instructions"), "%s", strbuf_str(&sb));
		cr_assert_not_null(strstr(strbuf_str(&sb), "Hottest loop: "));
		snprintf(want, sizeof(want), "   # loop back to %" PRIx64, a->loops[0].start);
		cr_assert_not_null(strstr(strbuf_str(&sb), want), "%s", strbuf_str(&sb));
		cr_assert_not_null(strstr(strbuf_str(&sb), "<spin+0x"), "branches name their target in the function");
		cr_assert_not_null(strstr(strbuf_str(&sb), "/* BODY */"), "source lines interleaved");

		strbuf_reset(&sb);
		pms_json__init(&j, &sb, false);
		pms_annotate_text__json(&v, a, &j);
		pms_json__finish(&j);
		cr_assert_not_null(strstr(strbuf_str(&sb), "\"group\":[\"cycles\",\"instructions\"]"), "%s", strbuf_str(&sb));
		/* the member's samples beside the leader's on the back edge (local hits: 5 of 5 = 100%) */
		cr_assert_not_null(strstr(strbuf_str(&sb),
					  "\"back_edge\":true,\"members\":[{\"event\":\"instructions\",\"samples\":5,\"period\":50,\"percent\":100}]"),
				   "%s", strbuf_str(&sb));
		cr_assert_not_null(strstr(strbuf_str(&sb), "\"bytes\":\""));
	}
	strbuf_release(&sb);
	pms_annotation__free(m);
	pms_annotation__free(a);
	free(pts);
	spin_free(&fx);
}
