/* SPDX-License-Identifier: MIT */
/*
 * record's own records: what perf synthesizes for tasks and maps that
 * existed before recording, and the build-ids of the objects with samples.
 *
 * Invariants:
 *  - Output goes to the writer in perf's order and form (FORK before COMM,
 *    the leader's MMAP2s after its threads; the kernel MMAP as perf writes
 *    it), and every synthesized executable map is also told to the hits
 *    table, so build-ids cover objects mapped before recording.
 *  - All /proc and /sys access goes through the pms_procfs/sysfs helpers
 *    (fixtures can stand in); a task that vanishes meanwhile is skipped.
 */
#ifndef PMS_CLI_RECORD_SYNTH_H
#define PMS_CLI_RECORD_SYNTH_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct pms_data_writer;
struct rec_hits;

struct rec_out {
	struct pms_data_writer *w;
	struct rec_hits *hits;
};

/* A field ("PPid", "Tgid") of /proc/<tid>/status, or -1. */
long rec_synth__status_field(pid_t tid, const char *field);
/* FORK + COMM of every thread of pid (or only of only[0..nr_only)), then MMAP2 of its executable maps. */
void rec_synth__process(const struct rec_out *r, pid_t pid, const pid_t *only, size_t nr_only);
/* rec_synth__process() for every process but ourselves. */
void rec_synth__all(const struct rec_out *r);
/* MMAP [kernel.kallsyms]_text, _text to _etext. */
void rec_synth__kernel(const struct rec_out *r);
/* One kernel MMAP per loaded module (perf's form: pid -1, the module's file or "[name]"). */
void rec_synth__modules(const struct rec_out *r);
/*
 * HEADER_BUILD_ID entries for every object the hits table saw sampled, or
 * every object it saw mapped when all (--buildid-all); the build-ids are
 * also kept in the table (the vDSO's even unhit) for rec_synth__cache().
 * Finishes the table. r->hits may be NULL everywhere else (-B: no
 * build-ids).
 */
void rec_synth__build_ids(const struct rec_out *r, bool all);

struct rec_cache_stats {
	size_t nr_present; /* objects now in the cache */
	size_t nr_added;   /* of those, saved by this call */
	size_t nr_missing; /* not saved: gone, rebuilt, restricted kallsyms, no file ("[module]") */
};

/*
 * Save what the file names in the build-id cache dir, as perf record does
 * (symbol/buildid_cache.h: kallsyms, the vDSO image, the binaries and their
 * debug files), after rec_synth__build_ids(); only what is new is read and
 * copied. 0, or the first error writing the cache.
 */
int rec_synth__cache(const struct rec_out *r, const char *dir, bool all, struct rec_cache_stats *st);

#endif
