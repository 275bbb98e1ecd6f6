/* SPDX-License-Identifier: MIT */
/*
 * perf.data (PERFILE2) writer: attrs, a buffered data section, feature
 * sections at close; optionally zstd-compressed records or a pipe stream.
 *
 * Invariants:
 * - Attrs are added before the first record; the first write (or close)
 *   commits them: ids go right after the 104-byte header, then the attrs
 *   section, then (when TRACING_DATA was given as bytes) the tracing data,
 *   then the data section, which grows to the end of the file.
 * - Crash safety: every flush first writes the buffered records, then
 *   pwrite()s data.size in the header. The header on disk therefore never
 *   claims bytes that were not written, and a recorder killed at any point
 *   leaves a file that perf and our reader accept up to its last flush
 *   (feature sections come only from pms_data_writer__close(), except that a
 *   compressed or tracepoint file keeps a feature table of COMPRESSED and/or
 *   TRACING_DATA after its data between flushes, which perf needs to read
 *   it; docs/perf-data.md).
 * - Records go to the file whole and in call order; the writer does not
 *   look inside them except to note SAMPLE times for HEADER_SAMPLE_TIME.
 * - The writer never prints; every function returns 0 or -errno.
 */
#ifndef PMS_DATA_WRITER_H
#define PMS_DATA_WRITER_H

#include <linux/perf_event.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "data/features.h"

struct pms_data_writer;

struct pms_data_writer_opts {
	size_t sz;             /* sizeof(struct pms_data_writer_opts), so the struct can grow */
	size_t buffer_bytes;   /* records buffered between flushes; 0: 256 KiB (min 64 KiB) */
	int compress_level;    /* 0: plain records; 1..22: zstd level (-EOPNOTSUPP without zstd) */
	bool pipe;             /* pipe mode: 16-byte header, HEADER_ATTR/HEADER_FEATURE records */
};

/*
 * Create (truncate) path, or write to stdout in pipe mode when path is "-".
 * opts may be NULL. The writer owns the fd it opened.
 */
int pms_data_writer__open(struct pms_data_writer **out, const char *path,
			  const struct pms_data_writer_opts *opts);
/* Write to fd (not owned, not closed). A non-seekable fd needs opts->pipe. */
int pms_data_writer__open_fd(struct pms_data_writer **out, int fd,
			     const struct pms_data_writer_opts *opts);

/*
 * Add one event: its attr (copied), display name (for HEADER_EVENT_DESC) and
 * sample ids (copied; may be empty when there is a single attr). -EBUSY once
 * records were written.
 */
int pms_data_writer__add_attr(struct pms_data_writer *w, const struct perf_event_attr *attr,
			      const char *name, const uint64_t *ids, size_t nr_ids);

/*
 * The metadata written at close (pipe mode: at the first record, except
 * build-ids, which go out at close). Borrowed; fill it with
 * pms_data_features__from_host(), __add_build_id(), ... EVENT_DESC comes
 * from the attrs, SAMPLE_TIME from the samples seen unless already set.
 * Payloads given as bytes (pms_data_features__set_raw()) are written as
 * they are; in pipe mode TRACING_DATA becomes perf's
 * PERF_RECORD_HEADER_TRACING_DATA record (after the HEADER_FEATURE ones),
 * so set it before the first record.
 */
struct pms_data_features *pms_data_writer__features(struct pms_data_writer *w);

/* Append one record; size must equal ((struct perf_event_header *)rec)->size. */
int pms_data_writer__write(struct pms_data_writer *w, const void *rec, size_t size);
/*
 * One PERF_RECORD_HEADER_BUILD_ID record in the data stream (perf inject's
 * form: what a pipe reader needs before the samples that use the object).
 */
int pms_data_writer__build_id_record(struct pms_data_writer *w, const struct pms_data_build_id *bid);
/* Write out buffered records, then update data.size in the header. */
int pms_data_writer__flush(struct pms_data_writer *w);
/*
 * Flush, write the feature sections and the final header. The writer stays
 * allocated (free it); later writes return -EBADF.
 */
int pms_data_writer__close(struct pms_data_writer *w);
/* Release memory and the owned fd. Does NOT finalize: an unclosed file keeps
 * what was flushed, as after a crash. Accepts NULL. */
void pms_data_writer__free(struct pms_data_writer *w);

/* Bytes of the data section written so far (after compression). */
uint64_t pms_data_writer__data_bytes(const struct pms_data_writer *w);
/* Records accepted by __write (before compression). */
uint64_t pms_data_writer__nr_records(const struct pms_data_writer *w);

/*
 * Synthesized records, for processes that existed before recording. When the
 * first attr has sample_id_all, each gets the sample_id trailer its
 * sample_type asks for, filled from sid (NULL: pid/tid of the record, rest 0).
 */
struct pms_data_sample_id {
	uint32_t pid, tid;
	uint64_t time;
	uint64_t id;
	uint64_t stream_id;
	uint32_t cpu;
};

struct pms_data_mmap2 {
	uint32_t pid, tid;
	uint64_t addr, len, pgoff;
	uint32_t maj, min;
	uint64_t ino, ino_generation;
	uint32_t prot, flags;
	uint16_t cpumode;           /* PERF_RECORD_MISC_USER or _KERNEL */
	const uint8_t *build_id;    /* non-NULL: PERF_RECORD_MISC_MMAP_BUILD_ID form, replaces maj..ino_generation */
	uint8_t build_id_size;
	const char *filename;
};

int pms_data_writer__comm(struct pms_data_writer *w, uint32_t pid, uint32_t tid, const char *comm,
			  bool exec, const struct pms_data_sample_id *sid);
int pms_data_writer__mmap2(struct pms_data_writer *w, const struct pms_data_mmap2 *m,
			   const struct pms_data_sample_id *sid);
/*
 * A plain PERF_RECORD_MMAP, as perf synthesizes the kernel map: pid -1,
 * cpumode PERF_RECORD_MISC_KERNEL, filename "[kernel.kallsyms]_text".
 */
int pms_data_writer__mmap(struct pms_data_writer *w, uint32_t pid, uint32_t tid, uint64_t addr,
			  uint64_t len, uint64_t pgoff, uint16_t cpumode, const char *filename,
			  const struct pms_data_sample_id *sid);
int pms_data_writer__fork(struct pms_data_writer *w, uint32_t pid, uint32_t ppid, uint32_t tid,
			  uint32_t ptid, uint64_t time_ns, const struct pms_data_sample_id *sid);
int pms_data_writer__exit(struct pms_data_writer *w, uint32_t pid, uint32_t ppid, uint32_t tid,
			  uint32_t ptid, uint64_t time_ns, const struct pms_data_sample_id *sid);
/* PERF_RECORD_FINISHED_ROUND: nothing before it needs reordering with what follows. */
int pms_data_writer__finished_round(struct pms_data_writer *w);

#endif
