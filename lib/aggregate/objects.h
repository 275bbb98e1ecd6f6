/* SPDX-License-Identifier: MIT */
/*
 * The objects (perf's DSOs) a recording references, and which of them its
 * samples hit: what HEADER_BUILD_ID lists, what `perf buildid-list` prints,
 * what `perf archive` packs.
 *
 * Two users, one table:
 *  - record, live: it tells the table every MMAP/MMAP2/FORK/COMM it copies
 *    and every sample (call-chain entries included), and writes build-ids
 *    for the objects hit;
 *  - pms_objects__from_file(): a perf.data file replayed the way
 *    perf buildid-list replays it (below).
 *
 * Invariants:
 *  - Objects are unique by (machine, name) and listed in creation order
 *    (perf's dsos list order); a process's later maps shadow earlier ones
 *    at the same address (lookups scan newest first).
 *  - Kernel-side objects are found by address in the kernel's maps (the
 *    smallest containing range wins, so a module beats the kernel's map);
 *    user objects in the sampled process's maps.
 *  - Cheap per sample: a per-process last-hit cache makes consecutive IPs
 *    in one object cost one range check; nothing is read from disk.
 *  - With retry_unmapped (record: per-CPU rings are not in time order), an
 *    address no map covers yet is remembered (deduplicated, bounded) and
 *    looked up again after the pass over all rings that brought it
 *    (__pass_done), then at the end (__finish).
 *  - Nothing prints; allocation failures return -ENOMEM and leave the
 *    table usable (the event is dropped).
 */
#ifndef PMS_AGGREGATE_OBJECTS_H
#define PMS_AGGREGATE_OBJECTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "data/format.h"
#include "data/reader.h"

#define PMS_MACHINE_HOST (-1) /* perf's HOST_KERNEL_ID: pid -1 in build-id entries */

struct pms_object {
	char *name;             /* long name: a path, "[kernel.kallsyms]", "[vdso]", "/tmp/perf-PID.map" */
	int32_t machine;        /* PMS_MACHINE_HOST, or a guest's pid */
	bool kernel;            /* kernel side: the kernel or a module */
	bool hit;               /* a sample's IP (or, if asked, a call-chain entry) was in it */
	uint8_t build_id[PMS_BUILD_ID_MAX];
	uint8_t build_id_size;  /* 0: not known */
};

struct pms_objects_opts {
	size_t sz;              /* sizeof(struct pms_objects_opts) */
	bool callchains;        /* mark call-chain entries too, not only sample IPs */
	bool retry_unmapped;    /* remember unmapped user addresses for __pass_done/__finish */
	bool exec_clears;       /* COMM exec drops the process's maps (the kernel does; perf's replay does not) */
};

struct pms_objects;

int pms_objects__new(struct pms_objects **out, const struct pms_objects_opts *opts);
/* Accepts NULL. */
void pms_objects__free(struct pms_objects *o);

/* The object called name on machine (created last when new; a kernel reference makes it kernel-side): its index, or -ENOMEM. */
int pms_objects__findnew(struct pms_objects *o, int32_t machine, const char *name, bool kernel);
/* Index of an existing object, or -ENOENT. */
int pms_objects__find(const struct pms_objects *o, int32_t machine, const char *name);
void pms_objects__set_build_id(struct pms_objects *o, size_t idx, const uint8_t *id, size_t size);
/* Mark an object hit (perf's --buildid-all, the vDSO perf always writes). */
void pms_objects__mark(struct pms_objects *o, size_t idx);

/* A kernel-side map: [start, start + len) belongs to object idx (the kernel's text, a module). */
int pms_objects__kernel_map(struct pms_objects *o, size_t idx, uint64_t start, uint64_t len);
/* An executable user mapping of process pid. */
int pms_objects__mmap(struct pms_objects *o, uint32_t pid, uint64_t start, uint64_t len, size_t idx);
/* FORK: a new process pid gets a copy of ppid's maps (clone false: empty, as for perf's synthesized forks). */
int pms_objects__fork(struct pms_objects *o, uint32_t pid, uint32_t ppid, bool clone);
/* COMM exec (only with opts.exec_clears) and the exit of a process: its maps are gone. */
void pms_objects__exec(struct pms_objects *o, uint32_t pid);
void pms_objects__exit(struct pms_objects *o, uint32_t pid);
/*
 * One sample of process pid: its cpumode (PERF_RECORD_MISC_*), ip, and
 * call chain (nr entries with context markers; may be NULL).
 */
int pms_objects__sample(struct pms_objects *o, uint32_t pid, uint16_t cpumode, uint64_t ip, const uint64_t *chain,
			uint64_t nr);
/* retry_unmapped: look waiting addresses up again after a pass over all rings, and at the end. */
void pms_objects__pass_done(struct pms_objects *o);
void pms_objects__finish(struct pms_objects *o);

size_t pms_objects__nr(const struct pms_objects *o);
/* Borrowed, in listing order (creation order; after __from_file(), the host's first, then guests by pid). */
const struct pms_object *pms_objects__at(const struct pms_objects *o, size_t i);

/*
 * The objects of a perf.data file as `perf buildid-list [-H]` lists them:
 *  - file mode with a build-id table and without with_hits: the table, one
 *    entry per name (the last build-id of a name wins), in table order;
 *  - otherwise (with_hits; a pipe stream, whose features are not known when
 *    perf decides; a file without a table) the table followed by a replay
 *    of the records in perf's order (data/ordered.h): objects from the
 *    maps as perf names them (anonymous memory "/tmp/perf-PID.map", kernel
 *    modules found by module name), build-ids from MMAP2 and
 *    HEADER_BUILD_ID records, and hits from each sample's IP only;
 *    *with_hits_out then says that only hit objects are to be listed.
 * A file with AUXTRACE data lists all build-ids: perf does not decode the
 * trace to find hits. Damage in the records ends the replay where it is
 * (-EBADMSG, with what was found so far in *out).
 */
int pms_objects__from_file(struct pms_data_reader *r, bool with_hits, struct pms_objects **out,
			   bool *with_hits_out);

#endif
