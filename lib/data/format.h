/* SPDX-License-Identifier: MIT */
/*
 * On-disk layout of perf.data (PERFILE2), as perf 6.x writes and reads it.
 * Invariants: every integer is in the writer's native byte order (we only
 * read native files); the file header is exactly 104 bytes, the pipe header
 * 16; an attrs-section entry is a perf_event_attr followed by one
 * pms_file_section pointing at its u64 ids, and header.attr_size is the size
 * of that whole entry; the feature table follows the data section, one
 * section per set bit in ascending bit order. docs/perf-data.md explains it.
 */
#ifndef PMS_DATA_FORMAT_H
#define PMS_DATA_FORMAT_H

#include <linux/perf_event.h>
#include <stdint.h>

#define PMS_PERF_MAGIC         "PERFILE2"
#define PMS_PERF_MAGIC_U64     0x32454c4946524550ULL /* "PERFILE2" read as a little-endian u64 */
#define PMS_PERF_MAGIC_SWAPPED 0x50455246494c4532ULL /* the same written by the other endianness */

struct pms_file_section {
	uint64_t offset;
	uint64_t size;
};

struct pms_file_header {
	char magic[8];
	uint64_t size;      /* sizeof(struct pms_file_header) */
	uint64_t attr_size; /* sizeof one attrs entry: attr + ids section */
	struct pms_file_section attrs;
	struct pms_file_section data;
	struct pms_file_section event_types; /* deprecated, {0, 0} */
	uint64_t adds_features[4];
};
_Static_assert(sizeof(struct pms_file_header) == 104, "perf file header is 104 bytes");

struct pms_pipe_header {
	char magic[8];
	uint64_t size; /* 16 */
};

/* Records perf synthesizes in user space (never produced by the kernel). */
enum pms_user_record_type {
	PMS_RECORD_HEADER_ATTR = 64,
	PMS_RECORD_HEADER_EVENT_TYPE = 65,
	PMS_RECORD_HEADER_TRACING_DATA = 66,
	PMS_RECORD_HEADER_BUILD_ID = 67,
	PMS_RECORD_FINISHED_ROUND = 68,
	PMS_RECORD_ID_INDEX = 69,
	PMS_RECORD_AUXTRACE_INFO = 70,
	PMS_RECORD_AUXTRACE = 71,
	PMS_RECORD_AUXTRACE_ERROR = 72,
	PMS_RECORD_THREAD_MAP = 73,
	PMS_RECORD_CPU_MAP = 74,
	PMS_RECORD_TIME_CONV = 79,
	PMS_RECORD_HEADER_FEATURE = 80,
	PMS_RECORD_COMPRESSED = 81,
	PMS_RECORD_FINISHED_INIT = 82,
	PMS_RECORD_COMPRESSED2 = 83,
};

/* Feature bits of pms_file_header.adds_features (perf's HEADER_*). */
enum pms_feature {
	PMS_FEAT_TRACING_DATA = 1,
	PMS_FEAT_BUILD_ID = 2,
	PMS_FEAT_HOSTNAME = 3,
	PMS_FEAT_OSRELEASE = 4,
	PMS_FEAT_VERSION = 5,
	PMS_FEAT_ARCH = 6,
	PMS_FEAT_NRCPUS = 7,
	PMS_FEAT_CPUDESC = 8,
	PMS_FEAT_CPUID = 9,
	PMS_FEAT_TOTAL_MEM = 10,
	PMS_FEAT_CMDLINE = 11,
	PMS_FEAT_EVENT_DESC = 12,
	PMS_FEAT_CPU_TOPOLOGY = 13,
	PMS_FEAT_NUMA_TOPOLOGY = 14,
	PMS_FEAT_BRANCH_STACK = 15,
	PMS_FEAT_PMU_MAPPINGS = 16,
	PMS_FEAT_GROUP_DESC = 17,
	PMS_FEAT_AUXTRACE = 18,
	PMS_FEAT_STAT = 19,
	PMS_FEAT_CACHE = 20,
	PMS_FEAT_SAMPLE_TIME = 21,
	PMS_FEAT_MEM_TOPOLOGY = 22,
	PMS_FEAT_CLOCKID = 23,
	PMS_FEAT_DIR_FORMAT = 24,
	PMS_FEAT_BPF_PROG_INFO = 25,
	PMS_FEAT_BPF_BTF = 26,
	PMS_FEAT_COMPRESSED = 27,
	PMS_FEAT_CPU_PMU_CAPS = 28,
	PMS_FEAT_CLOCK_DATA = 29,
	PMS_FEAT_HYBRID_TOPOLOGY = 30,
	PMS_FEAT_PMU_CAPS = 31,
	PMS_FEAT_LAST = 256,
};

/* header.misc bit of a build_id_event: build_id[20] holds the id's size. */
#define PMS_BUILD_ID_MISC_SIZE (1u << 15)
#define PMS_BUILD_ID_MAX 20
/* perf pads build-id event file names to this multiple. */
#define PMS_BUILD_ID_NAME_ALIGN 64

/* HEADER_COMPRESSED payload: five u32. type 1 is zstd. */
#define PMS_COMP_ZSTD 1

/* The largest record: header.size is a u16. */
#define PMS_RECORD_MAX_BYTES 65535u

#endif
