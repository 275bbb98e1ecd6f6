/* SPDX-License-Identifier: MIT */
/*
 * Replays a perf.data file (ours or perf's) into symbolized samples: the
 * shared front end of report, script and the exporters.
 *
 * It keeps the machine state perf keeps: threads (COMM, FORK, EXIT; a
 * forked thread inherits its parent's comm and address space), per-process
 * address spaces from MMAP/MMAP2 records (build-ids from MMAP2 or
 * HEADER_BUILD_ID), the kernel and its modules; and it turns each SAMPLE
 * into a chain of resolved frames: frame-pointer callchains as recorded,
 * --call-graph dwarf samples (REGS_USER + STACK_USER) unwound through
 * symbol/unwind.h with the kernel part taken from the callchain.
 *
 * Invariants:
 *  - Input is untrusted: damage is reported with its file offset (see
 *    data/reader.h), never read past; with opts.recover the samples before
 *    the damage still come out.
 *  - Samples come out in time order when the file has PERF_SAMPLE_TIME
 *    (perf's ordered events, flushed at FINISHED_ROUND or kept whole),
 *    each seen with the COMM/MMAP state that held at its time.
 *  - frames[0] is the sampled IP (leaf); each next frame is its caller.
 *    PERF_CONTEXT_* markers are consumed (they set frame kind), never
 *    returned as frames. Return addresses are symbolized at ip - 1, as perf
 *    does, so a call at the end of a function is not given to the next one.
 *  - A frame is never silently misattributed: a mapping whose file was
 *    rebuilt (build-id mismatch) gives status PMS_RES_STALE, a missing
 *    mapping gives dso "[unknown]", and every such leaf is counted in the
 *    stats by reason.
 *  - Everything a sample points to (strings, frames, the decoded sample)
 *    stays valid until the next __next() call; strings for dso/sym/comm
 *    stay valid until __free() (they are interned).
 */
#ifndef PMS_AGGREGATE_SESSION_H
#define PMS_AGGREGATE_SESSION_H

#include <linux/perf_event.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "aggregate/chaincheck.h"
#include "data/reader.h"
#include "ring/record.h"
#include "ring/sample.h"
#include "symbol/resolver.h"

enum pms_frame_kind {
	PMS_FRAME_USER,
	PMS_FRAME_KERNEL,
	PMS_FRAME_JIT,    /* resolved through /tmp/perf-PID.map */
	PMS_FRAME_GUEST,  /* PERF_CONTEXT_GUEST*: not resolved */
};

struct pms_frame {
	uint64_t ip;               /* runtime address as sampled or returned */
	enum pms_frame_kind kind;
	struct pms_resolved res;   /* res.dso is never NULL ("[unknown]"); res.sym NULL unless OK */
	uint64_t map_addr;         /* ip - map start + pgoff for file mappings (what perf script
				      prints in callchains); ip for kernel, JIT and unmapped frames */
	bool caller;               /* a return address (looked up at ip - 1) */
	const char *dso_path;      /* the object as perf script names it: res.dso, except a kernel
				      module's recorded path ("/lib/modules/…/ext4.ko") where res.dso
				      is the short "[ext4]" */
};

struct pms_session_sample {
	const struct pms_sample *sample;  /* the decoded record (fields per sample_type) */
	size_t attr_idx;                  /* which event */
	const char *event_name;           /* "cpu-clock", "sched:sched_switch", ... */
	const char *comm;                 /* thread name at sample time; as perf: ":TID" if never seen, "swapper" for tid 0 */
	uint32_t pid, tid, cpu;           /* cpu is (uint32_t)-1 without PERF_SAMPLE_CPU */
	uint64_t time_ns;                 /* 0 without PERF_SAMPLE_TIME */
	uint64_t period;                  /* without PERF_SAMPLE_PERIOD: attr.sample_period (-c N; as perf,
					     the union whatever freq says), or 1 when that is 0 */
	uint16_t cpumode;                 /* header.misc & PERF_RECORD_MISC_CPUMODE_MASK */
	const struct pms_frame *frames;   /* nr_frames >= 1: frames[0] = sampled IP */
	size_t nr_frames;
	bool has_callchain;               /* a chain was recorded (fp or dwarf), not just the IP */
	bool dwarf_unwound;               /* the user part came from DWARF unwinding */
	bool leaf_cut;                    /* max_stack_from_root cut the chain's own copy of the sampled
					     IP (and what followed it): frames[1..] start further out */
	bool bad_callchain;               /* the chain held an invalid PERF_CONTEXT value and was cut
					     there (perf script prints no frames for such samples) */
	uint64_t file_offset;             /* of the SAMPLE record (for diagnostics) */
	/*
	 * A side-band record (opts.side_band), not a sample: sample is NULL, the
	 * record already applied to the machine state; pid/tid/cpu/time_ns come
	 * from its sample_id trailer (0 without one: perf's synthesized records),
	 * comm is the name of the thread the record is about (the COMM's, the
	 * MMAP's, the FORK's child) as perf script prints it (comm the same, or
	 * ":-1" without one); nr_frames is 0. NULL for samples.
	 */
	const struct pms_record *record;
	const char *record_comm;          /* NULL: the record names no thread (pid/tid -1) */
};

struct pms_session_opts {
	size_t sz;             /* sizeof(struct pms_session_opts) */
	bool recover;          /* stop quietly at damage, keeping what came before */
	bool callchain;        /* resolve whole chains (false: frames[0] only; faster) */
	size_t max_stack;      /* frames kept per sample; 0 = 127 (perf's default) */
	bool max_stack_from_root; /* a chain longer than max_stack keeps its outermost entries, as
				     perf's cursor does when it walks chains from the root (report in
				     children mode or -g caller): frames[0] stays the sampled IP, then
				     come the outermost max_stack entries (see leaf_cut) */
	const char *symfs;     /* perf's --symfs: look files up under this root first (and use it
				  as a build-id cache when it has a .build-id directory); NULL */
	const char *kallsyms;  /* perf's --kallsyms: name kernel addresses with this file; NULL */
	const char *buildid_dir; /* the build-id cache; NULL = pms_buildid_cache__dir(), "" = none */
	bool skip_kernel;      /* leave kernel addresses unnamed (unknown frames): a caller that looks only
				  at user objects (annotate --dso) spares loading the kernel's symbols */
	struct pms_resolver *resolver; /* borrowed, shared by sessions so files are opened once (a
					  fuzzer's inputs, several files of one machine); NULL: the session
					  makes its own. Its stale-file and unnamed counts then add up. */
	uint64_t side_band;    /* record types (1 << PERF_RECORD_*) that __next() returns too, in time
				  order with the samples, after applying them: perf script's
				  --show-*-events. Kernel types only (< 64). */
	bool side_band_rounds; /* FINISHED_ROUND records too; then everything comes in file order, not
				  time order, as perf script --show-round-events prints it */
};

/* Why a sample's leaf frame has no symbol (counts in struct pms_session_stats). */
enum pms_unres_reason {
	PMS_UNRES_NO_MAP,      /* no mapping covered the address (JIT without a map, lost MMAP) */
	PMS_UNRES_NO_FILE,     /* the mapped file is missing or unreadable */
	PMS_UNRES_NO_SYM,      /* file read, no symbol covers the address (stripped?) */
	PMS_UNRES_STALE,       /* build-id mismatch: the binary was rebuilt */
	PMS_UNRES_RESTRICTED,  /* kernel address, kallsyms hidden (kptr_restrict) */
	PMS_UNRES_NO_KERNEL,   /* kernel address of a recording whose kernel symbols are not here */
	PMS_UNRES_STRIPPED,    /* file read, stripped: no .symtab and no debug file found */
	PMS_UNRES__NR,
};

struct pms_session_stats {
	uint64_t records_by_type[128];    /* every record read, by header.type (< 128) */
	uint64_t samples;                 /* SAMPLE records returned */
	uint64_t bad_samples;             /* SAMPLE records that failed to decode (skipped) */
	uint64_t lost_events;             /* sum of PERF_RECORD_LOST.lost */
	uint64_t lost_samples;            /* sum of PERF_RECORD_LOST_SAMPLES.lost */
	uint64_t throttles, unthrottles;
	uint64_t unresolved[PMS_UNRES__NR]; /* samples whose leaf frame has no symbol, by reason */
	uint64_t dwarf_samples;           /* samples with a user stack copy */
	uint64_t dwarf_failed;            /* of those, unwinding gave only the IP */
	uint64_t bad_callchains;          /* samples whose chain was cut at an invalid marker */
	uint64_t time_first_ns, time_last_ns;
};

struct pms_session;

/*
 * Open and index path ("-" = stdin, pipe mode). On failure *out is NULL and
 * err explains (file offset included). -errno as pms_data_reader__open().
 */
int pms_session__open(struct pms_session **out, const char *path,
		      const struct pms_session_opts *opts, struct pms_data_error *err);
/* Same on buf[0..len) (borrowed; must outlive the session): fuzzers, unit tests. */
int pms_session__open_mem(struct pms_session **out, const void *buf, size_t len,
			  const struct pms_session_opts *opts, struct pms_data_error *err);
void pms_session__free(struct pms_session *s);

/*
 * Next sample: 1 and *out set (borrowed until the next call), 0 at the end,
 * -errno on damage without opts.recover (details in
 * pms_data_reader__error(pms_session__reader(s))).
 */
int pms_session__next(struct pms_session *s, const struct pms_session_sample **out);

/*
 * Resolve addr (a branch stack's from/to, a sample's ADDR) in the context of
 * the sample last returned by __next(): its process's maps, then the
 * kernel's, as perf's thread__find_cpumode_addr_location() does.
 * *out is valid until the next __next(). 0, or -EINVAL without a sample.
 */
int pms_session__resolve_addr(struct pms_session *s, uint64_t addr, struct pms_frame *out);

/*
 * The same for process pid as the replay has it now (its maps as of the
 * sample last returned; before any, as of the file's start). 0.
 */
int pms_session__resolve_pid_addr(struct pms_session *s, uint32_t pid, uint64_t addr, struct pms_frame *out);

/*
 * The start of the recorded kernel mapping (the kernel, a module, a BPF
 * program's KSYMBOL range) holding addr: perf script's brstackoff prints
 * kernel addresses as offsets from it. -ENOENT outside them.
 */
int pms_session__kernel_map_start(struct pms_session *s, uint64_t addr, uint64_t *start);

/* The name of event attr_idx: the file's, else perf's name for its attr ("cycles:ppH"); NULL past the end. */
const char *pms_session__event_name(const struct pms_session *s, size_t attr_idx);

/*
 * Frame-pointer user chains that stop before a process or thread entry, and
 * the objects they stop in (see aggregate/chaincheck.h); with opts.callchain
 * only. Borrowed until the next __next().
 */
void pms_session__chain_check(struct pms_session *s, struct pms_chaincheck_result *out);

/*
 * The counts of the file's PERF_RECORD_READ records (perf record -s writes
 * each thread's count of each event when the thread exits), summed per
 * thread and event, in the order first met: perf report -T's table.
 * Complete after __next() returned 0.
 */
struct pms_session_read {
	uint32_t pid, tid;
	size_t attr_idx;
	uint64_t value;
};
size_t pms_session__nr_reads(const struct pms_session *s);
/* Entry i, NULL past the end. */
const struct pms_session_read *pms_session__read(const struct pms_session *s, size_t i);

/* Counts so far (complete after __next() returned 0). */
const struct pms_session_stats *pms_session__stats(const struct pms_session *s);
/* The underlying reader: attrs, event names, features, damage. */
struct pms_data_reader *pms_session__reader(struct pms_session *s);
/* Its resolver (stale build-id list, source lines). */
struct pms_resolver *pms_session__resolver(struct pms_session *s);

/* "NO_MAP" style names for the summary: "no mapping", "binary rebuilt", ... */
const char *pms_unres_reason__describe(enum pms_unres_reason reason);

#endif
