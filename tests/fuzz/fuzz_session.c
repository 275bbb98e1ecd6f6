// SPDX-License-Identifier: MIT
// libFuzzer target: arbitrary bytes replayed through the session (threads, maps, ordering, chains, dwarf), strict and recovering.
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "aggregate/session.h"
#include "symbol/resolver.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

/*
 * Nothing of the host's kernel, build-id cache or debug packages: kernel
 * symbols, module notes, JIT maps and separate debug files come from an
 * empty directory (PMS_{PROCFS,SYSFS}_ROOT, PMS_JITMAP_DIR, PMS_DEBUG_ROOT;
 * buildid_dir "" below), so a run depends neither on what is installed
 * nor on ~/.debug (with libc6-dbg installed, every session that named libc
 * read and sorted its 4 MB debug file: 15-25% of the time).
 * DEBUGINFOD_URLS is dropped so that neither the resolver's debuginfod
 * client nor libdwfl (the DWARF unwinder) asks a server about a build-id an
 * input made up. Files named by the inputs' maps are still opened as in a
 * real report.
 */
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc, (void)argv;
	setenv("PMS_PROCFS_ROOT", "/nonexistent-pms-fuzz", 1);
	setenv("PMS_SYSFS_ROOT", "/nonexistent-pms-fuzz", 1);
	setenv("PMS_JITMAP_DIR", "/nonexistent-pms-fuzz", 1);
	setenv("PMS_DEBUG_ROOT", "/nonexistent-pms-fuzz", 1);
	unsetenv("DEBUGINFOD_URLS");
	return 0;
}

/*
 * One resolver for many inputs, as one for many files in a real tool: a
 * file the inputs' maps name is opened and its symbols sorted once, not
 * three times per input. Renewed every 4096 inputs, so that paths the
 * fuzzer makes up do not grow it without bound.
 */
static struct pms_resolver *shared;

static void replay(const uint8_t *data, size_t size, bool recover, bool callchain, size_t max_stack,
		   uint64_t side_band, bool rounds)
{
	struct pms_session_opts o = { .sz = sizeof(o), .recover = recover, .callchain = callchain,
				      .max_stack = max_stack, .buildid_dir = "", .resolver = shared,
				      .side_band = side_band, .side_band_rounds = rounds };
	const struct pms_session_sample *ss;
	struct pms_data_error e;
	struct pms_session *s;
	volatile size_t sink = 0;
	int rc;

	if (pms_session__open_mem(&s, data, size, &o, &e)) {
		sink += strlen(e.msg);
		return;
	}
	while ((rc = pms_session__next(s, &ss)) == 1) {
		sink += strlen(ss->comm) + strlen(ss->event_name) + ss->period + ss->cpu;
		if (ss->record) {
			/* perf script --show-*-events: what it prints of the record must be readable */
			if (ss->record->type == PERF_RECORD_COMM)
				sink += strlen(ss->record->comm.comm);
			else if (ss->record->type == PERF_RECORD_MMAP || ss->record->type == PERF_RECORD_MMAP2)
				sink += strlen(ss->record->mmap.filename);
			sink += ss->record->type + (ss->record_comm ? strlen(ss->record_comm) : 0);
			continue;
		}
		/* every frame must be complete and its strings readable */
		if (ss->nr_frames < 1 || !ss->frames)
			abort();
		for (size_t i = 0; i < ss->nr_frames; i++) {
			const struct pms_frame *f = &ss->frames[i];

			if (!f->res.dso)
				abort();
			sink += strlen(f->res.dso) + f->map_addr + f->kind;
			if (f->res.sym)
				sink += strlen(f->res.sym) + f->res.sym_off;
		}
	}
	if (!recover && rc < 0)
		sink += strlen(pms_data_reader__error(pms_session__reader(s))->msg);
	sink += pms_session__stats(s)->samples;
	pms_session__free(s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static unsigned n;

	if (!shared || ++n % 4096 == 0) {
		pms_resolver__free(shared);
		shared = pms_resolver__new();
		if (!shared)
			abort();
	}
	replay(data, size, false, true, 0, 0, false);
	replay(data, size, true, true, 4, ~0ULL, false);
	replay(data, size, true, false, 0, ~0ULL, true);
	return 0;
}
