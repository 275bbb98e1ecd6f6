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
 *  - Functions return 0 or the writer's first error (-errno); what they
 *    cannot find on this machine (a task gone, hidden kallsyms, no
 *    modules) is not an error.
 */
#ifndef PMS_AGGREGATE_RECORD_SYNTH_H
#define PMS_AGGREGATE_RECORD_SYNTH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct pms_data_writer;
struct pms_record_hits;

/* Where synthesized records go; hits may be NULL (record -B: no build-ids). */
struct pms_record_synth {
	struct pms_data_writer *w;
	struct pms_record_hits *hits;
};

/* A field ("PPid", "Tgid") of /proc/<tid>/status, or -1. */
long pms_record_synth__status_field(pid_t tid, const char *field);
/* FORK + COMM of every thread of pid (or only of only[0..nr_only)), then MMAP2 of its executable maps. */
int pms_record_synth__process(const struct pms_record_synth *r, pid_t pid, const pid_t *only, size_t nr_only);
/* pms_record_synth__process() for every process but ourselves. */
int pms_record_synth__all(const struct pms_record_synth *r);
/* MMAP [kernel.kallsyms]_text, _text to _etext. */
int pms_record_synth__kernel(const struct pms_record_synth *r);
/* One kernel MMAP per loaded module (perf's form: pid -1, the module's file or "[name]"). */
int pms_record_synth__modules(const struct pms_record_synth *r);
/*
 * HEADER_BUILD_ID entries for every object the hits table saw sampled, or
 * every object it saw mapped when all (--buildid-all); the build-ids are
 * also kept in the table (the vDSO's even unhit) for pms_record_synth__cache().
 * Finishes the table. r->hits may be NULL everywhere else (-B: no
 * build-ids).
 */
int pms_record_synth__build_ids(const struct pms_record_synth *r, bool all);

/*
 * The build-id of object name (kernel: a kernel-side object, "[kernel.kallsyms]"
 * or a module) read from this machine where perf reads it: /sys/kernel/notes,
 * the module's notes or file, the vDSO image, the ELF file. Its size, or 0
 * when it cannot be read (gone, no build-id, a build without libelf).
 */
size_t pms_record_synth__build_id_of(const char *name, bool kernel, uint8_t *id);

struct pms_record_cache_stats {
	size_t nr_present; /* objects now in the cache */
	size_t nr_added;   /* of those, saved by this call */
	size_t nr_missing; /* not saved: gone, rebuilt, restricted kallsyms, no file ("[module]") */
};

/*
 * Save what the file names in the build-id cache dir, as perf record does
 * (symbol/buildid_cache.h: kallsyms, the vDSO image, the binaries and their
 * debug files), after pms_record_synth__build_ids(); only what is new is read and
 * copied. 0, or the first error writing the cache.
 */
int pms_record_synth__cache(const struct pms_record_synth *r, const char *dir, bool all, struct pms_record_cache_stats *st);

#endif
