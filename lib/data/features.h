/* SPDX-License-Identifier: MIT */
/*
 * perf.data feature sections (HEADER_* metadata) as one struct, shared by
 * the writer (what to write) and the reader (what was found).
 * Invariants: every pointer is owned by the struct and freed by
 * pms_data_features__release(); `present` has the bit of every feature that
 * was set by the caller (writer) or parsed without error (reader); strings
 * are NUL-terminated and never NULL when their bit is present.
 */
#ifndef PMS_DATA_FEATURES_H
#define PMS_DATA_FEATURES_H

#include <linux/perf_event.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "data/format.h"

struct pms_data_build_id {
	char *filename;
	uint8_t id[PMS_BUILD_ID_MAX];
	uint8_t size;  /* bytes of id used (20 for SHA-1, 16 for md5-style ids) */
	int32_t pid;   /* -1 for host DSOs */
	uint16_t cpumode; /* PERF_RECORD_MISC_USER or _KERNEL */
};

struct pms_data_event_desc {
	struct perf_event_attr attr;
	char *name;
	uint64_t *ids;
	uint32_t nr_ids;
};

struct pms_data_pmu_mapping {
	uint32_t type;  /* perf_event_attr.type */
	char *name;     /* sysfs PMU name */
};

struct pms_data_cpu_topo {
	int32_t core_id;   /* -1: offline or unknown */
	int32_t socket_id;
	int32_t die_id;
};

/*
 * One HEADER_GROUP_DESC entry: the event group led by attr leader_idx, whose
 * nr_members events (leader included) are the attrs that follow it in file
 * order. name is as recorded: perf writes "{anon_group}" for a group given
 * without a name.
 */
struct pms_data_group_desc {
	char *name;
	uint32_t leader_idx;
	uint32_t nr_members;
};

/*
 * A feature whose payload the caller built (HEADER_TRACING_DATA: perf's
 * tracing-data container, data/tracing_data.h): the writer writes these
 * bytes as they are, in place of any encoding of its own.
 */
struct pms_data_raw_feature {
	unsigned bit;
	uint8_t *bytes;
	size_t size;
};

/* A string list (HEADER_CPU_TOPOLOGY siblings, ...). */
struct pms_data_strlist {
	char **s;
	uint32_t nr;
};

struct pms_data_features {
	uint64_t present[4];
	char *hostname;
	char *osrelease;
	char *version;
	char *arch;
	char *cpudesc;
	char *cpuid;              /* "AuthenticAMD,25,1,1" (x86) or "0x00000000410fd0c0" (arm64 MIDR) */
	uint32_t nr_cpus_avail;
	uint32_t nr_cpus_online;
	uint64_t total_mem_kb;
	char **cmdline;
	uint32_t nr_cmdline;
	struct pms_data_event_desc *event_descs; /* reader only: the writer derives it from its attrs */
	uint32_t nr_event_descs;
	struct pms_data_build_id *build_ids;
	size_t nr_build_ids;
	uint64_t sample_time_first_ns;
	uint64_t sample_time_last_ns;
	uint64_t clockid_res_ns;
	uint32_t comp_version, comp_type, comp_level, comp_ratio, comp_mmap_len;
	struct pms_data_pmu_mapping *pmu_mappings;
	uint32_t nr_pmu_mappings;
	/* CPU_TOPOLOGY: unique sibling lists ("0-1"); cpus has nr_cpus_avail entries when present. */
	struct pms_data_strlist core_siblings, thread_siblings, die_siblings;
	struct pms_data_cpu_topo *cpus;
	uint32_t nr_cpus;
	/* GROUP_DESC, as recorded (not validated against the attrs: see report's use of it) */
	struct pms_data_group_desc *group_descs;
	uint32_t nr_group_descs;
	/* BRANCH_STACK has no payload: its bit alone says perf record was given -b or -j */
	/* writer only: payloads given as bytes (the reader offers pms_data_reader__feature_raw()) */
	struct pms_data_raw_feature *raw;
	uint32_t nr_raw;
};

static inline bool pms_data_features__has(const struct pms_data_features *f, unsigned bit)
{
	return bit < 256 && (f->present[bit / 64] >> (bit % 64)) & 1;
}

static inline void pms_data_features__set_bit(struct pms_data_features *f, unsigned bit)
{
	if (bit < 256)
		f->present[bit / 64] |= 1ULL << (bit % 64);
}

/*
 * Fill hostname, osrelease, version, arch, nrcpus, cpudesc, cpuid, total_mem,
 * pmu_mappings, cpu topology and cmdline (a copy of argv) from this machine (uname,
 * sysconf, procfs and sysfs through util/sysfs.h). A value that cannot be
 * read is left out.
 * 0 or -ENOMEM.
 */
int pms_data_features__from_host(struct pms_data_features *f, int argc, char *const *argv);

/* Set one string field (copied) and its bit. 0 or -ENOMEM / -EINVAL. */
int pms_data_features__set_str(struct pms_data_features *f, unsigned bit, const char *s);
/* Copy argv into cmdline and set its bit. */
int pms_data_features__set_cmdline(struct pms_data_features *f, int argc, char *const *argv);
/* Append one build-id entry (filename copied; size <= 20). Sets the BUILD_ID bit. */
int pms_data_features__add_build_id(struct pms_data_features *f, const char *filename,
				    const uint8_t *id, size_t size, int32_t pid, uint16_t cpumode);

/* Append one PMU (name copied) to pmu_mappings and set the PMU_MAPPINGS bit. */
int pms_data_features__add_pmu(struct pms_data_features *f, uint32_t type, const char *name);

/* Append one event group (name copied) and set the GROUP_DESC bit. 0, -EINVAL or -ENOMEM. */
int pms_data_features__add_group(struct pms_data_features *f, const char *name, uint32_t leader_idx,
				 uint32_t nr_members);

/*
 * Give feature `bit` the payload bytes[0..size) (copied; replaces an earlier
 * one) and set its bit: the writer writes them as they are, and in pipe mode
 * TRACING_DATA goes out as perf's PERF_RECORD_HEADER_TRACING_DATA record.
 * 0, -EINVAL (bit out of range, or a TRACING_DATA of 4 GiB or more: its pipe
 * record has a u32 size), -ENOMEM.
 */
int pms_data_features__set_raw(struct pms_data_features *f, unsigned bit, const void *bytes, size_t size);
/* The payload given for `bit` with __set_raw(), or NULL. */
const struct pms_data_raw_feature *pms_data_features__raw(const struct pms_data_features *f, unsigned bit);

/* Free everything and zero the struct. Accepts a zeroed or half-built struct. */
void pms_data_features__release(struct pms_data_features *f);

/* The name perf gives a feature bit ("HOSTNAME"), or NULL. */
const char *pms_data_feature__name(unsigned bit);

#endif
