/* SPDX-License-Identifier: MIT */
/*
 * Decoding PERF_RECORD_SAMPLE bodies as attr.sample_type lays them out.
 *
 * Invariants:
 *  - Input is untrusted (rings, and perf.data files written by anyone).
 *    Every length is checked against the record before it is used; a
 *    record that is short, whose counts overflow it, or that leaves bytes
 *    over at the end gives -EINVAL with the offending byte offset (from the
 *    start of the record, header included) in *err_off. Nothing is ever
 *    read outside [rec, rec + header.size) and header.size <= len.
 *  - Zero-copy: arrays and blobs in struct pms_sample (callchain, raw,
 *    branches, regs, stack data, aux, read values) point INTO the record.
 *    They live exactly as long as the record bytes: for a ring record, until
 *    the next pms_ring__next()/pms_ring__done(); for a file record, as long
 *    as the reader's buffer. Copy what you keep.
 *  - The record must be 8-byte aligned (rings and our perf.data reader
 *    guarantee it). u64 arrays must stay 8-byte aligned inside it: a RAW
 *    blob whose size breaks the alignment the kernel keeps is rejected
 *    when an array follows it (scalars are read with memcpy and may sit
 *    anywhere).
 *  - Fields whose sample_type bit is clear are zero; `present` says which
 *    were decoded.
 */
#ifndef PMS_RING_SAMPLE_H
#define PMS_RING_SAMPLE_H

#include <linux/perf_event.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifndef PERF_SAMPLE_BRANCH_COUNTERS
/* Linux 6.8: per-branch event counters after the LBR entries. */
#define PERF_SAMPLE_BRANCH_COUNTERS (1U << 19)
#endif

/* What decoding needs from the attr of the event that wrote the record. */
struct pms_decode_cfg {
	uint64_t sample_type;
	uint64_t read_format;
	uint64_t branch_sample_type;
	uint64_t sample_regs_user;
	uint64_t sample_regs_intr;
	bool sample_id_all;
};

void pms_decode_cfg__from_attr(struct pms_decode_cfg *cfg, const struct perf_event_attr *attr);

struct pms_read_value {
	uint64_t value;
	uint64_t id;    /* 0 unless PERF_FORMAT_ID */
	uint64_t lost;  /* 0 unless PERF_FORMAT_LOST */
};

/*
 * struct read_format, group or not. A non-group read is copied into
 * `single` (its fields are not contiguous: the times sit between value and
 * id); group entries point into the record.
 */
struct pms_read_values {
	uint64_t read_format;
	uint64_t nr;               /* 1 for a non-group read */
	uint64_t time_enabled;     /* 0 unless PERF_FORMAT_TOTAL_TIME_ENABLED */
	uint64_t time_running;
	struct pms_read_value single;
	const uint64_t *entries;   /* group: nr entries of `stride` u64: value[, id][, lost] */
	unsigned stride;
};

/* Entry i (< nr) of a decoded read_format; -EINVAL if out of range. */
int pms_read_values__get(const struct pms_read_values *rv, uint64_t i, struct pms_read_value *out);

/*
 * Decode a read_format at buf[0..len) (also used by PERF_RECORD_READ);
 * *used is set to the bytes consumed. buf must be 8-byte aligned.
 */
int pms_read_values__decode(struct pms_read_values *rv, uint64_t read_format, const void *buf,
			    size_t len, size_t *used);

struct pms_regs {
	uint64_t abi;              /* enum perf_sample_regs_abi; NONE: no regs follow */
	uint64_t mask;             /* attr.sample_regs_user / _intr */
	uint64_t nr;               /* popcount(mask) when abi != NONE, else 0 */
	const uint64_t *regs;      /* nr values, lowest mask bit first */
};

struct pms_sample {
	uint64_t present;          /* the sample_type bits decoded */
	uint16_t misc;             /* header.misc: cpumode, EXACT_IP */
	uint64_t id;               /* IDENTIFIER or ID */
	uint64_t ip;
	uint32_t pid, tid;
	uint64_t time;
	uint64_t addr;
	uint64_t stream_id;
	uint32_t cpu, cpu_res;
	uint64_t period;
	struct pms_read_values read;
	uint64_t callchain_nr;
	const uint64_t *callchain; /* incl. PERF_CONTEXT_* markers (>= PERF_CONTEXT_MAX) */
	uint32_t raw_size;
	const void *raw;
	uint64_t branch_nr;
	bool branch_has_hw_idx;
	uint64_t branch_hw_idx;
	const struct perf_branch_entry *branches;
	const uint64_t *branch_counters; /* branch_nr values with PERF_SAMPLE_BRANCH_COUNTERS */
	struct pms_regs regs_user;
	uint64_t stack_user_size;  /* bytes copied (size field) */
	const void *stack_user;
	uint64_t stack_user_dyn_size; /* valid bytes of stack_user; only when size != 0 */
	uint64_t weight;           /* WEIGHT: the full u64; WEIGHT_STRUCT: var1_dw */
	uint32_t weight_var1_dw;
	uint16_t weight_var2_w, weight_var3_w;
	uint64_t data_src;
	uint64_t transaction;
	struct pms_regs regs_intr;
	uint64_t phys_addr;
	uint64_t cgroup;
	uint64_t data_page_size;
	uint64_t code_page_size;
	uint64_t aux_size;
	const void *aux;
};

/*
 * Decode the PERF_RECORD_SAMPLE at rec (header included; at most len bytes
 * are readable). Returns 0, or -EINVAL with *err_off (may be NULL) set.
 */
int pms_sample__decode(const struct pms_decode_cfg *cfg, const void *rec, size_t len,
		       struct pms_sample *out, size_t *err_off);

/* Is this callchain entry a PERF_CONTEXT_* marker rather than an address? */
static inline bool pms_callchain__is_context(uint64_t ip)
{
	return ip >= (uint64_t)PERF_CONTEXT_MAX;
}

/*
 * Size in bytes of the sample_id trailer that sample_id_all appends to
 * non-sample records for this sample_type.
 */
size_t pms_sample_id__size(uint64_t sample_type);

/*
 * The timestamp perf orders a record by: a SAMPLE's TIME field, else the
 * sample_id trailer's (sample_id_all). Reads only those 8 bytes, for the
 * ordering queue that runs before any decoding. False when the record has
 * no time or is too short to hold it (user record types never have one).
 */
bool pms_record__time(const struct pms_decode_cfg *cfg, const struct perf_event_header *ev,
		      uint64_t *time);

#endif
