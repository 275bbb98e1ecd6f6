// SPDX-License-Identifier: MIT
// libFuzzer target: ELF images through pms_dso__open_mem() (build-id, segments, symbols, map_ip) and
// pms_srcline (libdw lines + inline frames), plus the same bytes as maps/kallsyms/perf-map text; bounded work.
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "symbol/demangle.h"
#include "symbol/dso.h"
#include "symbol/jitmap.h"
#include "symbol/kallsyms.h"
#include "symbol/maps.h"
#include "symbol/srcline.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

/*
 * An image without DWARF makes pms_srcline look for its debug file by the
 * build-id the input carries: under an empty PMS_DEBUG_ROOT, not the host's
 * /usr/lib/debug, and never through debuginfod (DEBUGINFOD_URLS dropped): a
 * made-up build-id per input must not become a network request.
 */
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc, (void)argv;
	setenv("PMS_DEBUG_ROOT", "/nonexistent-pms-fuzz", 1);
	unsetenv("DEBUGINFOD_URLS");
	return 0;
}

static void fuzz_text(const char *text, size_t size)
{
	struct pms_maps *maps;
	struct pms_kallsyms ks;
	struct pms_jitmap jm;

	if (!pms_maps__parse(text, size, &maps)) {
		for (size_t i = 0; i < maps->nr && i < 8; i++)
			(void)pms_maps__find(maps, maps->maps[i].start);
		pms_maps__free(maps);
	}
	if (!pms_kallsyms__parse(text, size, &ks))
		(void)pms_kallsyms__find(&ks, 0xffffffff81000000ULL);
	pms_kallsyms__release(&ks);
	if (!pms_jitmap__parse(text, size, &jm))
		for (size_t i = 0; i < jm.tab.nr && i < 8; i++)
			(void)pms_jitmap__find(&jm, jm.tab.syms[i].start + 1);
	pms_jitmap__release(&jm);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pms_dso *dso;
	struct pms_srcline *sl;
	char *copy;

	if (size > (1 << 20))
		return 0;
	copy = malloc(size + 1);
	if (!copy)
		return 0;
	memcpy(copy, data, size);
	copy[size] = '\0';
	fuzz_text(copy, size);
	if (size < 4 || memcmp(data, "\177ELF", 4)) {
		free(copy);
		return 0;
	}
	if (pms_dso__open_mem(copy, size, &dso)) {
		free(copy);
		return 0;
	}
	for (size_t i = 0; i < dso->nr_syms && i < 32; i++) {
		const struct pms_sym *s = pms_dso__find_sym(dso, dso->syms[i].start);
		uint64_t v, ip;

		if (s && pms_demangle__is_mangled(s->name))
			free(pms_demangle(s->name));
		if (!pms_dso__unmap_ip(dso, 0x400000, 0, dso->syms[i].start, &ip))
			(void)pms_dso__map_ip(dso, 0x400000, 0, ip, &v);
	}
	if (!pms_srcline__new(dso, &sl)) {
		for (size_t i = 0; i < dso->nr_syms && i < 16; i++) {
			const struct pms_srcline_frame *f;
			size_t nr;

			(void)pms_srcline__lookup(sl, dso->syms[i].start, &f, &nr);
			(void)pms_srcline__lookup(sl, dso->syms[i].start + dso->syms[i].size / 2, &f, &nr);
		}
		pms_srcline__free(sl);
	}
	pms_dso__free(dso);
	free(copy);
	return 0;
}
