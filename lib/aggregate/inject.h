/* SPDX-License-Identifier: MIT */
/*
 * perf inject -b: a perf.data file or stream copied with the build-ids of
 * the objects its samples hit, read from this machine's files, so that a
 * recording made without them (record -B, a pipe) can be symbolized
 * against the right binaries later (build-id cache, another machine).
 *
 * Invariants:
 *  - Records are copied whole and in order. Only what the copy re-creates
 *    is left out: pipe-mode HEADER_ATTR/FEATURE/TRACING_DATA (the writer
 *    writes the attrs and features again, in its own mode) and the input's
 *    HEADER_BUILD_ID records (their build-ids are kept, below).
 *  - Which objects: those a sample's IP is in (perf's dso->hit), found by
 *    the replay perf buildid-list makes (aggregate/objects.h), in its
 *    order; with opts.all every object mapped; in a file, the vDSO whenever
 *    mapped, as perf writes it. A build-id given (opts.known) comes first;
 *    then one the input already has (a table, MMAP2 with
 *    a build-id, HEADER_BUILD_ID) is kept; the others are read from the
 *    files here; the kernel's and its modules' only when the file was
 *    recorded under this kernel release (HEADER_OSRELEASE). Objects without
 *    one readable are left out and counted.
 *  - File output gets them as the HEADER_BUILD_ID feature; pipe output as
 *    HEADER_BUILD_ID records before the first copied record, so a reader
 *    of the stream knows them before any sample needs them.
 *  - Input with AUX area data (AUXTRACE records) is refused (-EOPNOTSUPP):
 *    its payloads are not records and are not copied.
 *  - Nothing prints; 0 or -errno (damage in the input: -EBADMSG, the
 *    reader's __error() says where).
 */
#ifndef PMS_AGGREGATE_INJECT_H
#define PMS_AGGREGATE_INJECT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "data/format.h"
#include "data/reader.h"
#include "data/writer.h"

/* A build-id given for a path (perf's --known-build-ids): it wins over the input's and the file's. */
struct pms_known_build_id {
	char *path;
	uint8_t id[PMS_BUILD_ID_MAX];
	uint8_t size;
};

struct pms_inject_opts {
	size_t sz;  /* sizeof(struct pms_inject_opts) */
	bool all;   /* perf's --buildid-all: every object mapped, not only those hit */
	bool pipe;  /* the writer is in pipe mode */
	bool copy_only; /* no build-ids added: perf inject without -b (a pipe stream to a file, ...) */
	const struct pms_known_build_id *known; /* borrowed; nr_known entries */
	size_t nr_known;
};

struct pms_inject_stats {
	size_t nr_build_ids;    /* written */
	size_t nr_from_input;   /* of those, already in the input */
	size_t nr_missing;      /* wanted, but no build-id could be read here */
	uint64_t nr_records;    /* copied */
};

/*
 * Parse perf's --known-build-ids value: "BUILDID PATH[,BUILDID PATH...]",
 * each build-id an even number of hex digits, at most 40. *out (free with
 * __free_known()) gets *nr entries. 0, -EINVAL (malformed: *bad, when
 * given, points at the entry in s), -ENOMEM.
 */
int pms_inject__parse_known(const char *s, struct pms_known_build_id **out, size_t *nr, const char **bad);
void pms_inject__free_known(struct pms_known_build_id *k, size_t nr);

/* Called for each object wanted: its name, build-id (size 0: none readable here). May be NULL. */
typedef void (*pms_inject_object_fn)(void *ctx, const char *name, const uint8_t *id, size_t size);

/*
 * Copy r (rewound first) to w, whose attrs must not be added yet, with the
 * build-ids as above; the caller closes w. st and fn may be NULL.
 */
int pms_inject__build_ids(struct pms_data_reader *r, struct pms_data_writer *w,
			  const struct pms_inject_opts *opts, struct pms_inject_stats *st,
			  pms_inject_object_fn fn, void *ctx);

#endif
