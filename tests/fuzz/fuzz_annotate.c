// SPDX-License-Identifier: MIT
// libFuzzer target: annotate's entry point on ELF images (corrupt code, symbols, DWARF lines): each of the first functions disassembled in both syntaxes with made-up samples, source lines interleaved, loops found; bounded work.
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "aggregate/annotate.h"
#include "symbol/dso.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

/* Never the host's debug files or a debuginfod server for a made-up build-id (see fuzz_elf.c). */
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc, (void)argv;
	setenv("PMS_DEBUG_ROOT", "/nonexistent-pms-fuzz", 1);
	unsetenv("DEBUGINFOD_URLS");
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pms_dso *dso;
	uint8_t *copy;

	if (size < 4 || size > (1 << 20) || memcmp(data, "\177ELF", 4))
		return 0;
	copy = malloc(size);
	if (!copy)
		return 0;
	memcpy(copy, data, size);
	if (pms_dso__open_mem(copy, size, &dso)) {
		free(copy);
		return 0;
	}
	for (size_t i = 0; i < dso->nr_syms && i < 8; i++) {
		const struct pms_sym *s = &dso->syms[i];
		/* functions bigger than this are cut: the work per input stays bounded */
		struct pms_annotate_sym sym = { .name = s->name, .dso = "fuzz", .elf = dso, .start = s->start,
						.size = s->size > 4096 ? 4096 : s->size };
		struct pms_annotate_point pts[3] = {
			{ .addr = s->start, .samples = 1, .period = 1 },
			{ .addr = s->start + sym.size / 2, .samples = 2, .period = 2 },
			{ .addr = s->start + sym.size + 7, .samples = 1, .period = 1 },
		};
		for (int syntax = 0; syntax < 2; syntax++) {
			struct pms_annotate_opts o = { .sz = sizeof(o), .syntax = (enum pms_disasm_syntax)syntax,
						       .source = syntax == 0 };
			struct pms_annotation *a;

			if (pms_annotation__build_sym(&sym, pts, 3, &o, &a))
				continue;
			for (size_t k = 0; k < a->nr_lines && k < 4; k++)
				(void)pms_annotation__source(a, a->lines[k].file, a->lines[k].comp_dir, a->lines[k].line);
			pms_annotation__free(a);
		}
	}
	pms_dso__free(dso);
	free(copy);
	return 0;
}
