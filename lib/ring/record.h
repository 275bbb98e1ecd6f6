/* SPDX-License-Identifier: MIT */
/*
 * Typed decoding of every record type the kernel writes into a ring
 * (PERF_RECORD_MMAP .. PERF_RECORD_AUX_OUTPUT_HW_ID), plus the sample_id
 * trailer that attr.sample_id_all appends to non-sample records.
 *
 * Invariants (same rules as ring/sample.h):
 *  - Untrusted input: fixed parts, strings and arrays are checked against
 *    header.size minus the sample_id trailer; a string must be NUL-
 *    terminated inside its slot. Errors are -EINVAL with the offending byte
 *    offset; nothing outside the record is read.
 *  - Zero-copy: strings, build-ids, namespace links, text_poke bytes, read
 *    values point into the record and live as long as its bytes.
 *  - Record types the kernel may add later decode as "unknown" (0 with
 *    only the header filled) so callers can skip them by header.size;
 *    perf-synthesized types (>= 64) are not this decoder's business and
 *    are reported the same way.
 *  - PERF_RECORD_SAMPLE is decoded into rec->sample.
 */
#ifndef PMS_RING_RECORD_H
#define PMS_RING_RECORD_H

#include <linux/perf_event.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ring/sample.h"

#ifndef PERF_RECORD_AUX_OUTPUT_HW_ID
#define PERF_RECORD_AUX_OUTPUT_HW_ID 21
#endif

/* The identity fields sample_id_all adds; `present` holds the sample_type bits seen. */
struct pms_sample_id {
	uint64_t present;
	uint32_t pid, tid;
	uint64_t time;
	uint64_t id;               /* ID or IDENTIFIER */
	uint64_t stream_id;
	uint32_t cpu, cpu_res;
};

struct pms_record {
	uint32_t type;
	uint16_t misc;
	uint16_t size;
	bool known;                /* false: a type this decoder does not know (skip it) */
	struct pms_sample_id sid;  /* zero unless sample_id_all and not a SAMPLE */
	union {
		struct pms_sample sample;
		struct {               /* MMAP, MMAP2 */
			uint32_t pid, tid;
			uint64_t addr, len, pgoff;
			uint32_t maj, min;             /* MMAP2 without build-id */
			uint64_t ino, ino_generation;
			bool has_build_id;             /* MMAP2 with PERF_RECORD_MISC_MMAP_BUILD_ID */
			uint8_t build_id_size;         /* <= 20 */
			const uint8_t *build_id;
			uint32_t prot, flags;          /* MMAP2 */
			bool data;                     /* PERF_RECORD_MISC_MMAP_DATA */
			const char *filename;
		} mmap;
		struct {
			uint32_t pid, tid;
			bool exec;                     /* PERF_RECORD_MISC_COMM_EXEC */
			const char *comm;
		} comm;
		struct {               /* FORK, EXIT */
			uint32_t pid, ppid, tid, ptid;
			uint64_t time;
		} task;
		struct { uint64_t id, lost; } lost;
		struct { uint64_t time, id, stream_id; } throttle; /* THROTTLE, UNTHROTTLE */
		struct {
			uint32_t pid, tid;
			struct pms_read_values values;
		} read;
		struct { uint64_t aux_offset, aux_size, flags; } aux;
		struct { uint32_t pid, tid; } itrace_start;
		struct { uint64_t lost; } lost_samples;
		struct {               /* SWITCH, SWITCH_CPU_WIDE */
			bool out;                      /* PERF_RECORD_MISC_SWITCH_OUT */
			bool preempt;                  /* ..._OUT_PREEMPT */
			bool cpu_wide;
			uint32_t next_prev_pid, next_prev_tid; /* CPU_WIDE only */
		} sw;
		struct {
			uint32_t pid, tid;
			uint64_t nr;
			const struct perf_ns_link_info *links; /* nr entries */
		} namespaces;
		struct {
			uint64_t addr;
			uint32_t len;
			uint16_t ksym_type, flags;
			const char *name;
		} ksymbol;
		struct {
			uint16_t type, flags;
			uint32_t id;
			const uint8_t *tag;            /* 8 bytes (BPF_TAG_SIZE) */
		} bpf;
		struct {
			uint64_t id;
			const char *path;
		} cgroup;
		struct {
			uint64_t addr;
			uint16_t old_len, new_len;
			const uint8_t *bytes;          /* old bytes then new bytes */
		} text_poke;
		struct { uint64_t hw_id; } aux_output_hw_id;
	};
};

/*
 * Decode the record at buf (header included; len readable bytes, 8-byte
 * aligned). cfg comes from the attr of the event that wrote it (for
 * non-sample records only sample_type and sample_id_all matter, plus
 * read_format for PERF_RECORD_READ). Returns 0 or -EINVAL with *err_off.
 */
int pms_record__decode(const struct pms_decode_cfg *cfg, const void *buf, size_t len,
		       struct pms_record *out, size_t *err_off);

/*
 * Which event wrote a record, before knowing its attr, in a ring shared by
 * several events (SET_OUTPUT). Works when every event has
 * PERF_SAMPLE_IDENTIFIER in sample_type (and, for non-sample records,
 * sample_id_all), as perf sets with more than one event: SAMPLE carries the
 * id right after the header, other records as their last u64. Returns 0,
 * -ENOENT for a non-sample record without sample_id_all, -EINVAL if the
 * record is too short for it.
 */
int pms_record__peek_id(const void *rec, size_t len, bool sample_id_all, uint64_t *id);

/* "MMAP2", "SAMPLE", ... or "UNKNOWN". */
const char *pms_record__type_name(uint32_t type);

#endif
