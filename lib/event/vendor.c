// SPDX-License-Identifier: MIT
// The kernel's generic-event and hw-cache maps per vendor, and raw-config decoders.
#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "event/vendor.h"
#include "util/cpuid.h"
#include "util/fileio.h"
#include "util/sysfs.h"

#define NR_HW 10 /* PERF_COUNT_HW_MAX as of 6.x */
#define NR_CACHE 7
#define NR_OP 3
#define NR_RES 2

/* code: >0 raw config, 0 not supported (ENOENT), -1 invalid (EINVAL) */
struct map_entry {
	int64_t code;
	const char *hw_name;
	const char *meaning;
};

#define UNSUP { 0, NULL, NULL }
#define INVAL { -1, NULL, NULL }

/* intel_perfmon_event_map: the architectural events of CPUID.0AH */
static const struct map_entry intel_hw[NR_HW] = {
	{ 0x003c, "CPU_CLK_UNHALTED.THREAD_P", "core cycles while this logical CPU is not halted (architectural event 0; fixed counter 1)" },
	{ 0x00c0, "INST_RETIRED.ANY_P", "instructions retired (architectural event 1; fixed counter 0)" },
	{ 0x4f2e, "LONGEST_LAT_CACHE.REFERENCE", "requests that reach the last-level cache (L3) (architectural event 3)" },
	{ 0x412e, "LONGEST_LAT_CACHE.MISS", "last-level cache (L3) misses (architectural event 4)" },
	{ 0x00c4, "BR_INST_RETIRED.ALL_BRANCHES", "branch instructions retired (architectural event 5)" },
	{ 0x00c5, "BR_MISP_RETIRED.ALL_BRANCHES", "mispredicted branch instructions retired (architectural event 6)" },
	{ 0x013c, "CPU_CLK_UNHALTED.REF_XCLK", "unhalted reference cycles at the bus clock (architectural event 2)" },
	UNSUP, /* stalled-cycles-*: no architectural encoding (only some pre-Skylake models map them) */
	UNSUP,
	{ 0x0300, "CPU_CLK_UNHALTED.REF_TSC", "unhalted cycles at the TSC rate on fixed counter 2 (pseudo-encoding: fixed counters have no event code)" },
};

/* amd_perfmon_event_map: K7 .. family 16h */
static const struct map_entry amd_legacy_hw[NR_HW] = {
	{ 0x0076, "CPU_CLK_UNHALTED", "CPU clocks not halted" },
	{ 0x00c0, "RETIRED_INSTRUCTIONS", "instructions retired" },
	{ 0x077d, "REQUESTS_TO_L2", "L2 cache requests (instruction cache, data cache and TLB fills)" },
	{ 0x077e, "L2_CACHE_MISS", "L2 cache misses (instruction cache, data cache and TLB fills)" },
	{ 0x00c2, "RETIRED_BRANCH_INSTRUCTIONS", "branch instructions retired" },
	{ 0x00c3, "RETIRED_MISPREDICTED_BRANCH_INSTRUCTIONS", "mispredicted branches retired" },
	UNSUP,
	{ 0x00d0, "DECODER_EMPTY", "cycles the decoder is empty" },
	{ 0x00d1, "DISPATCH_STALLS", "cycles dispatch is stalled" },
	UNSUP,
};

static const struct map_entry zen1_hw[NR_HW] = {
	{ 0x0076, "LS_NOT_HALTED_CYC", "core cycles not in halt" },
	{ 0x00c0, "EX_RET_INSTR", "instructions retired" },
	{ 0xff60, "L2_REQUEST_G1.ALL", "all L2 cache requests (L2 accesses, NOT the L3/LLC)" },
	{ 0x0964, "L2_CACHE_REQ_STAT.IC_DC_MISS_IN_L2", "L2 cache misses from instruction- and data-cache misses (NOT L3/LLC misses)" },
	{ 0x00c2, "EX_RET_BRN", "branch instructions retired" },
	{ 0x00c3, "EX_RET_BRN_MISP", "mispredicted branches retired" },
	UNSUP,
	{ 0x0287, "IC_FETCH_STALL.IC_STALL_DQ_EMPTY", "fetch stalled because the decode queue is empty" },
	{ 0x0187, "IC_FETCH_STALL.IC_STALL_BACK_PRESSURE", "fetch stalled by back-pressure from the back end" },
	UNSUP,
};

static const struct map_entry zen2_hw[NR_HW] = {
	{ 0x0076, "LS_NOT_HALTED_CYC", "core cycles not in halt" },
	{ 0x00c0, "EX_RET_INSTR", "instructions retired" },
	{ 0xff60, "L2_REQUEST_G1.ALL", "all L2 cache requests (L2 accesses, NOT the L3/LLC)" },
	{ 0x0964, "L2_CACHE_REQ_STAT.IC_DC_MISS_IN_L2", "L2 cache misses from instruction- and data-cache misses (NOT L3/LLC misses)" },
	{ 0x00c2, "EX_RET_BRN", "branch instructions retired" },
	{ 0x00c3, "EX_RET_BRN_MISP", "mispredicted branches retired" },
	UNSUP,
	{ 0x00a9, "DE_DIS_UOP_QUEUE_EMPTY_DI0", "cycles the micro-op queue is empty (front end starves dispatch)" },
	UNSUP,
	UNSUP,
};

static const struct map_entry zen4_hw[NR_HW] = {
	{ 0x0076, "LS_NOT_HALTED_CYC", "core cycles not in halt" },
	{ 0x00c0, "EX_RET_INSTR", "instructions retired" },
	{ 0xff60, "L2_REQUEST_G1.ALL", "all L2 cache requests (L2 accesses, NOT the L3/LLC)" },
	{ 0x0964, "L2_CACHE_REQ_STAT.IC_DC_MISS_IN_L2", "L2 cache misses from instruction- and data-cache misses (NOT L3/LLC misses)" },
	{ 0x00c2, "EX_RET_BRN", "branch instructions retired" },
	{ 0x00c3, "EX_RET_BRN_MISP", "mispredicted branches retired" },
	UNSUP,
	{ 0x00a9, "DE_DIS_UOP_QUEUE_EMPTY_DI0", "cycles the micro-op queue is empty (front end starves dispatch)" },
	UNSUP,
	{ 0x100000120ULL, "LS_NOT_HALTED_P0_CYC", "cycles not in halt, counted at the P0 (reference) frequency (event 0x120)" },
};

/* armv8_pmuv3_perf_map (branch-instructions: 0x21 BR_RETIRED if PMCEID says so, else 0x0C) */
static const struct map_entry armv8_hw[NR_HW] = {
	{ 0x11, "CPU_CYCLES", "processor cycles" },
	{ 0x08, "INST_RETIRED", "instructions architecturally executed" },
	{ 0x04, "L1D_CACHE", "level 1 data cache accesses (NOT the last-level cache)" },
	{ 0x03, "L1D_CACHE_REFILL", "level 1 data cache refills, i.e. L1D misses (NOT last-level cache misses)" },
	{ 0x21, "BR_RETIRED", "branches retired (the kernel falls back to 0x0C PC_WRITE_RETIRED when BR_RETIRED is not implemented)" },
	{ 0x10, "BR_MIS_PRED", "mispredicted or not predicted branches speculatively executed" },
	{ 0x1d, "BUS_CYCLES", "bus cycles" },
	{ 0x23, "STALL_FRONTEND", "cycles with no operation issued because of the front end" },
	{ 0x24, "STALL_BACKEND", "cycles with no operation issued because of the back end" },
	UNSUP,
};

/* hw-cache tables: [cache][op][result] */
typedef struct map_entry cache_map[NR_CACHE][NR_OP][NR_RES];

static const cache_map skl_cache = {
	[PERF_COUNT_HW_CACHE_L1D] = {
		{ { 0x81d0, "MEM_INST_RETIRED.ALL_LOADS", "retired load instructions" },
		  { 0x151, "L1D.REPLACEMENT", "L1D lines replaced (L1D misses)" } },
		{ { 0x82d0, "MEM_INST_RETIRED.ALL_STORES", "retired store instructions" }, UNSUP },
		{ UNSUP, UNSUP },
	},
	[PERF_COUNT_HW_CACHE_L1I] = {
		{ UNSUP, { 0x283, "ICACHE_64B.IFTAG_MISS", "instruction fetch tag lookups that miss the L1I" } },
		{ INVAL, INVAL },
		{ UNSUP, UNSUP },
	},
	[PERF_COUNT_HW_CACHE_LL] = {
		{ { 0x1b7, "OFFCORE_RESPONSE", "demand data reads reaching L3 (response type in config1)" },
		  { 0x1b7, "OFFCORE_RESPONSE", "demand data reads missing L3 (response type in config1)" } },
		{ { 0x1b7, "OFFCORE_RESPONSE", "RFOs (stores) reaching L3 (response type in config1)" },
		  { 0x1b7, "OFFCORE_RESPONSE", "RFOs (stores) missing L3 (response type in config1)" } },
		{ UNSUP, UNSUP },
	},
	[PERF_COUNT_HW_CACHE_DTLB] = {
		{ { 0x81d0, "MEM_INST_RETIRED.ALL_LOADS", "retired loads (each does a DTLB lookup)" },
		  { 0xe08, "DTLB_LOAD_MISSES.WALK_COMPLETED", "load DTLB misses that completed a page walk" } },
		{ { 0x82d0, "MEM_INST_RETIRED.ALL_STORES", "retired stores (each does a DTLB lookup)" },
		  { 0xe49, "DTLB_STORE_MISSES.WALK_COMPLETED", "store DTLB misses that completed a page walk" } },
		{ UNSUP, UNSUP },
	},
	[PERF_COUNT_HW_CACHE_ITLB] = {
		{ { 0x2085, "ITLB_MISSES.STLB_HIT", "ITLB misses that hit the second-level TLB" },
		  { 0xe85, "ITLB_MISSES.WALK_COMPLETED", "ITLB misses that completed a page walk" } },
		{ INVAL, INVAL },
		{ INVAL, INVAL },
	},
	[PERF_COUNT_HW_CACHE_BPU] = {
		{ { 0xc4, "BR_INST_RETIRED.ALL_BRANCHES", "branch instructions retired" },
		  { 0xc5, "BR_MISP_RETIRED.ALL_BRANCHES", "mispredicted branches retired" } },
		{ INVAL, INVAL },
		{ INVAL, INVAL },
	},
	[PERF_COUNT_HW_CACHE_NODE] = {
		{ { 0x1b7, "OFFCORE_RESPONSE", "demand data reads served by local or remote DRAM (config1)" },
		  { 0x1b7, "OFFCORE_RESPONSE", "demand data reads served by remote DRAM (config1)" } },
		{ { 0x1b7, "OFFCORE_RESPONSE", "RFOs served by local or remote DRAM (config1)" },
		  { 0x1b7, "OFFCORE_RESPONSE", "RFOs served by remote DRAM (config1)" } },
		{ UNSUP, UNSUP },
	},
};

/* amd_hw_cache_event_ids: K7 .. family 16h */
static const cache_map amd_legacy_cache = {
	[PERF_COUNT_HW_CACHE_L1D] = {
		{ { 0x0040, "DATA_CACHE_ACCESSES", "data cache accesses" },
		  { 0x0141, "DATA_CACHE_MISSES", "data cache misses" } },
		{ UNSUP, UNSUP },
		{ { 0x0267, "DATA_PREFETCHES.ATTEMPTED", "data prefetcher attempts" },
		  { 0x0167, "DATA_PREFETCHES.CANCELLED", "data prefetches cancelled" } },
	},
	[PERF_COUNT_HW_CACHE_L1I] = {
		{ { 0x0080, "INSTRUCTION_CACHE_FETCHES", "instruction cache fetches" },
		  { 0x0081, "INSTRUCTION_CACHE_MISSES", "instruction cache misses" } },
		{ INVAL, INVAL },
		{ { 0x014b, "PREFETCH_INSTRUCTIONS_DISPATCHED.LOAD", "prefetch instructions (load)" }, UNSUP },
	},
	[PERF_COUNT_HW_CACHE_LL] = {
		{ { 0x037d, "REQUESTS_TO_L2.IC_DC", "L2 requests from IC and DC (the L2 is 'LL' here)" },
		  { 0x037e, "L2_CACHE_MISS.IC_DC", "L2 misses from IC and DC" } },
		{ { 0x017f, "L2_FILL_WRITEBACK", "L2 fills/writebacks" }, UNSUP },
		{ UNSUP, UNSUP },
	},
	[PERF_COUNT_HW_CACHE_DTLB] = {
		{ { 0x0040, "DATA_CACHE_ACCESSES", "data cache accesses (each does a DTLB lookup)" },
		  { 0x0746, "L1_DTLB_AND_L2_DTLB_MISS.ALL", "misses in both DTLB levels" } },
		{ UNSUP, UNSUP },
		{ UNSUP, UNSUP },
	},
	[PERF_COUNT_HW_CACHE_ITLB] = {
		{ { 0x0080, "INSTRUCTION_CACHE_FETCHES", "instruction fetches" },
		  { 0x0385, "L1_ITLB_AND_L2_ITLB_MISS.ALL", "misses in both ITLB levels" } },
		{ INVAL, INVAL },
		{ INVAL, INVAL },
	},
	[PERF_COUNT_HW_CACHE_BPU] = {
		{ { 0x00c2, "RETIRED_BRANCH_INSTRUCTIONS", "branch instructions retired" },
		  { 0x00c3, "RETIRED_MISPREDICTED_BRANCH_INSTRUCTIONS", "mispredicted branches retired" } },
		{ INVAL, INVAL },
		{ INVAL, INVAL },
	},
	[PERF_COUNT_HW_CACHE_NODE] = {
		{ { 0xb8e9, "CPU_REQUESTS_TO_MEMORY.LOCAL_REMOTE", "CPU requests to local and remote memory" },
		  { 0x98e9, "CPU_REQUESTS_TO_MEMORY.REMOTE", "CPU requests to remote memory" } },
		{ INVAL, INVAL },
		{ INVAL, INVAL },
	},
};

/* amd_hw_cache_event_ids_f17h: family 17h and later (all Zen) */
static const cache_map zen_cache = {
	[PERF_COUNT_HW_CACHE_L1D] = {
		{ { 0x0040, "LS_DC_ACCESSES", "data cache accesses (loads and stores)" },
		  { 0xc860, "L2_REQUEST_G1.LS_RD_BLK_C", "L2 requests caused by data cache misses" } },
		{ UNSUP, UNSUP },
		{ { 0xff5a, "LS_MAB_ALLOC_PIPE / h/w prefetch DC fills", "data cache fills by the hardware prefetcher" }, UNSUP },
	},
	[PERF_COUNT_HW_CACHE_L1I] = {
		{ { 0x0080, "IC_FW32", "instruction cache fetches (32-byte)" },
		  { 0x0081, "IC_FW32_MISS", "instruction cache misses" } },
		{ INVAL, INVAL },
		{ UNSUP, UNSUP },
	},
	[PERF_COUNT_HW_CACHE_LL] = {
		{ UNSUP, UNSUP }, { UNSUP, UNSUP }, { UNSUP, UNSUP }, /* L3 is an uncore PMU (amd_l3) */
	},
	[PERF_COUNT_HW_CACHE_DTLB] = {
		{ { 0xff45, "LS_L1_D_TLB_MISS.ALL", "L1 DTLB misses (all L2 DTLB accesses)" },
		  { 0xf045, "LS_L1_D_TLB_MISS.ALL_L2_MISS", "L2 DTLB misses (page table walks)" } },
		{ UNSUP, UNSUP },
		{ UNSUP, UNSUP },
	},
	[PERF_COUNT_HW_CACHE_ITLB] = {
		{ { 0x0084, "BP_L1_TLB_MISS_L2_TLB_HIT", "L1 ITLB misses that hit the L2 ITLB" },
		  { 0xff85, "BP_L1_TLB_MISS_L2_TLB_MISS", "ITLB misses in both levels" } },
		{ INVAL, INVAL },
		{ INVAL, INVAL },
	},
	[PERF_COUNT_HW_CACHE_BPU] = {
		{ { 0x00c2, "EX_RET_BRN", "branch instructions retired" },
		  { 0x00c3, "EX_RET_BRN_MISP", "mispredicted branches retired" } },
		{ INVAL, INVAL },
		{ INVAL, INVAL },
	},
	[PERF_COUNT_HW_CACHE_NODE] = {
		{ UNSUP, UNSUP },
		{ INVAL, INVAL },
		{ INVAL, INVAL },
	},
};

/* armv8_pmuv3_perf_cache_map: reads only; everything else is unsupported */
static const cache_map armv8_cache = {
	[PERF_COUNT_HW_CACHE_L1D] = {
		{ { 0x04, "L1D_CACHE", "level 1 data cache accesses" },
		  { 0x03, "L1D_CACHE_REFILL", "level 1 data cache refills (misses)" } },
	},
	[PERF_COUNT_HW_CACHE_L1I] = {
		{ { 0x14, "L1I_CACHE", "level 1 instruction cache accesses" },
		  { 0x01, "L1I_CACHE_REFILL", "level 1 instruction cache refills (misses)" } },
	},
	[PERF_COUNT_HW_CACHE_LL] = {
		{ { 0x36, "LL_CACHE_RD", "last-level cache read accesses" },
		  { 0x37, "LL_CACHE_MISS_RD", "last-level cache read misses" } },
	},
	[PERF_COUNT_HW_CACHE_DTLB] = {
		{ { 0x25, "L1D_TLB", "level 1 data TLB accesses" },
		  { 0x05, "L1D_TLB_REFILL", "level 1 data TLB refills" } },
	},
	[PERF_COUNT_HW_CACHE_ITLB] = {
		{ { 0x26, "L1I_TLB", "level 1 instruction TLB accesses" },
		  { 0x02, "L1I_TLB_REFILL", "level 1 instruction TLB refills" } },
	},
	[PERF_COUNT_HW_CACHE_BPU] = {
		{ { 0x12, "BR_PRED", "predictable branches speculatively executed" },
		  { 0x10, "BR_MIS_PRED", "mispredicted branches speculatively executed" } },
	},
};

enum pms_vendor pms_uarch__vendor(enum pms_uarch u)
{
	switch (u) {
	case PMS_UARCH_INTEL:
		return PMS_VENDOR_INTEL;
	case PMS_UARCH_AMD_LEGACY:
	case PMS_UARCH_ZEN1:
	case PMS_UARCH_ZEN2:
	case PMS_UARCH_ZEN4:
		return PMS_VENDOR_AMD;
	case PMS_UARCH_ARMV8:
		return PMS_VENDOR_ARM64;
	default:
		return PMS_VENDOR_UNKNOWN;
	}
}

const char *pms_uarch__name(enum pms_uarch u)
{
	switch (u) {
	case PMS_UARCH_INTEL:
		return "Intel (architectural perfmon; Skylake hw-cache table)";
	case PMS_UARCH_AMD_LEGACY:
		return "AMD K7 .. family 16h";
	case PMS_UARCH_ZEN1:
		return "AMD Zen1";
	case PMS_UARCH_ZEN2:
		return "AMD Zen2/Zen3";
	case PMS_UARCH_ZEN4:
		return "AMD Zen4 and later";
	case PMS_UARCH_ARMV8:
		return "ARMv8 PMUv3";
	default:
		return "unknown";
	}
}

/* Spellings of --vendor; the aliases at the end are accepted but not offered. */
static const struct {
	const char *name;
	enum pms_uarch u;
	bool alias;
} uarch_names[] = {
	{ "intel", PMS_UARCH_INTEL, false }, { "amd", PMS_UARCH_ZEN2, false },
	{ "amd-legacy", PMS_UARCH_AMD_LEGACY, false }, { "zen1", PMS_UARCH_ZEN1, false },
	{ "zen2", PMS_UARCH_ZEN2, false }, { "zen3", PMS_UARCH_ZEN2, false },
	{ "zen4", PMS_UARCH_ZEN4, false }, { "zen5", PMS_UARCH_ZEN4, false },
	{ "arm64", PMS_UARCH_ARMV8, false }, { "arm", PMS_UARCH_ARMV8, true },
	{ "armv8", PMS_UARCH_ARMV8, true }, { "aarch64", PMS_UARCH_ARMV8, true },
};

int pms_uarch__parse(const char *s, enum pms_uarch *out)
{
	for (size_t i = 0; i < sizeof(uarch_names) / sizeof(uarch_names[0]); i++) {
		if (!strcasecmp(s, uarch_names[i].name)) {
			*out = uarch_names[i].u;
			return 0;
		}
	}
	return -EINVAL;
}

const char *pms_uarch__names(const char *sep)
{
	static __thread char buf[256];
	size_t len = 0;

	buf[0] = 0;
	for (size_t i = 0; i < sizeof(uarch_names) / sizeof(uarch_names[0]); i++) {
		int n;

		if (uarch_names[i].alias)
			continue;
		n = snprintf(buf + len, sizeof(buf) - len, "%s%s", len ? sep : "", uarch_names[i].name);
		if (n < 0 || (size_t)n >= sizeof(buf) - len)
			break;
		len += (size_t)n;
	}
	return buf;
}

static bool is_zen4(unsigned family, unsigned model)
{
	/* family 19h Zen4 parts: Genoa/Raphael/Phoenix/Bergamo model ranges */
	return family == 0x19 && ((model >= 0x10 && model <= 0x1f) || (model >= 0x60 && model <= 0x7f) ||
				  (model >= 0xa0 && model <= 0xaf));
}

enum pms_uarch pms_uarch__for_cpu(enum pms_vendor v, unsigned family, unsigned model)
{
	switch (v) {
	case PMS_VENDOR_INTEL:
		return PMS_UARCH_INTEL;
	case PMS_VENDOR_ARM64:
		return PMS_UARCH_ARMV8;
	case PMS_VENDOR_AMD:
		if (family >= 0x1a || is_zen4(family, model))
			return PMS_UARCH_ZEN4;
		if (family >= 0x19 || (family == 0x17 && model >= 0x30))
			return PMS_UARCH_ZEN2;
		if (family == 0x17 || family == 0x18) /* 0x18: Hygon Dhyana is Zen1 */
			return PMS_UARCH_ZEN1;
		return PMS_UARCH_AMD_LEGACY;
	default:
		return PMS_UARCH_NONE;
	}
}

static int detect_arm(void)
{
	char path[4096], *buf = NULL;
	int found = 0;

	if (pms_procfs__path(path, sizeof(path), "cpuinfo") == 0 &&
	    pms_file__read_all(path, &buf, NULL) == 0) {
		found = strstr(buf, "CPU implementer") != NULL;
		free(buf);
	}
	if (!found && pms_sysfs__path(path, sizeof(path),
				      "devices/system/cpu/cpu0/regs/identification/midr_el1") == 0) {
		uint64_t midr;

		found = pms_file__read_u64(path, &midr) == 0;
	}
	return found;
}

int pms_uarch__detect(enum pms_uarch *out)
{
	struct pms_cpuid_info info;

	if (pms_cpuid__available() && pms_cpuid__read_info(&info) == 0) {
		enum pms_vendor v = PMS_VENDOR_UNKNOWN;

		if (!strcmp(info.vendor, "GenuineIntel"))
			v = PMS_VENDOR_INTEL;
		else if (info.is_amd)
			v = PMS_VENDOR_AMD;
		*out = pms_uarch__for_cpu(v, info.family, info.model);
		return *out == PMS_UARCH_NONE ? -ENODEV : 0;
	}
	if (detect_arm()) {
		*out = PMS_UARCH_ARMV8;
		return 0;
	}
	*out = PMS_UARCH_NONE;
	return -ENODEV;
}

static const struct map_entry *generic_map(enum pms_uarch u)
{
	switch (u) {
	case PMS_UARCH_INTEL:
		return intel_hw;
	case PMS_UARCH_AMD_LEGACY:
		return amd_legacy_hw;
	case PMS_UARCH_ZEN1:
		return zen1_hw;
	case PMS_UARCH_ZEN2:
		return zen2_hw;
	case PMS_UARCH_ZEN4:
		return zen4_hw;
	case PMS_UARCH_ARMV8:
		return armv8_hw;
	default:
		return NULL;
	}
}

static const cache_map *cache_table(enum pms_uarch u)
{
	switch (u) {
	case PMS_UARCH_INTEL:
		return &skl_cache;
	case PMS_UARCH_AMD_LEGACY:
		return &amd_legacy_cache;
	case PMS_UARCH_ZEN1:
	case PMS_UARCH_ZEN2:
	case PMS_UARCH_ZEN4:
		return &zen_cache;
	case PMS_UARCH_ARMV8:
		return &armv8_cache;
	default:
		return NULL;
	}
}

static void fill(const struct map_entry *e, struct pms_vendor_event *out)
{
	memset(out, 0, sizeof(*out));
	if (!e || e->code == 0) {
		out->status = -ENOENT;
	} else if (e->code < 0) {
		out->status = -EINVAL;
	} else {
		out->config = (uint64_t)e->code;
		out->hw_name = e->hw_name;
		out->meaning = e->meaning;
	}
}

int pms_vendor__generic(enum pms_uarch u, unsigned hw_id, struct pms_vendor_event *out)
{
	const struct map_entry *m = generic_map(u);

	if (hw_id >= NR_HW)
		return -EINVAL;
	fill(m ? &m[hw_id] : NULL, out);
	return 0;
}

int pms_vendor__cache(enum pms_uarch u, unsigned cache, unsigned op, unsigned result,
		      struct pms_vendor_event *out)
{
	const cache_map *m = cache_table(u);

	if (cache >= NR_CACHE || op >= NR_OP || result >= NR_RES)
		return -EINVAL;
	fill(m ? &(*m)[cache][op][result] : NULL, out);
	return 0;
}

const char *pms_vendor__trap_note(enum pms_uarch u, unsigned hw_id)
{
	if (hw_id != PERF_COUNT_HW_CACHE_REFERENCES && hw_id != PERF_COUNT_HW_CACHE_MISSES)
		return NULL;
	switch (pms_uarch__vendor(u)) {
	case PMS_VENDOR_INTEL:
		return "cache-references/cache-misses mean the LAST-LEVEL cache (L3) on Intel, "
		       "but L2 on AMD Zen and L1D on ARM: compare across vendors with care";
	case PMS_VENDOR_AMD:
		if (u == PMS_UARCH_AMD_LEGACY)
			return "cache-references/cache-misses mean the L2 cache on this AMD family "
			       "(the LLC on Intel, L1D on ARM)";
		return "cache-references/cache-misses mean the L2 cache on AMD Zen, NOT the L3: "
		       "Intel counts the last-level cache and ARM the L1D for the same names";
	case PMS_VENDOR_ARM64:
		return "cache-references/cache-misses mean the L1 DATA cache on ARM, NOT the last level: "
		       "Intel counts the LLC and AMD Zen the L2 for the same names";
	default:
		return NULL;
	}
}

const char *pms_hw_id__name(unsigned hw_id)
{
	static const char *const names[NR_HW] = {
		"PERF_COUNT_HW_CPU_CYCLES", "PERF_COUNT_HW_INSTRUCTIONS",
		"PERF_COUNT_HW_CACHE_REFERENCES", "PERF_COUNT_HW_CACHE_MISSES",
		"PERF_COUNT_HW_BRANCH_INSTRUCTIONS", "PERF_COUNT_HW_BRANCH_MISSES",
		"PERF_COUNT_HW_BUS_CYCLES", "PERF_COUNT_HW_STALLED_CYCLES_FRONTEND",
		"PERF_COUNT_HW_STALLED_CYCLES_BACKEND", "PERF_COUNT_HW_REF_CPU_CYCLES",
	};

	return hw_id < NR_HW ? names[hw_id] : NULL;
}

const char *pms_hw_cache__name(unsigned cache)
{
	static const char *const n[NR_CACHE] = { "L1D", "L1I", "LL", "DTLB", "ITLB", "BPU", "NODE" };

	return cache < NR_CACHE ? n[cache] : NULL;
}

const char *pms_hw_cache_op__name(unsigned op)
{
	static const char *const n[NR_OP] = { "read", "write", "prefetch" };

	return op < NR_OP ? n[op] : NULL;
}

const char *pms_hw_cache_result__name(unsigned result)
{
	static const char *const n[NR_RES] = { "access", "miss" };

	return result < NR_RES ? n[result] : NULL;
}

unsigned pms_amd__event_code(uint64_t config)
{
	return (unsigned)(((config >> 24) & 0xf00) | (config & 0xff));
}

static void add_field(struct pms_reg_field *out, size_t max, int *n, const char *name, int lo, int hi,
		      uint64_t config, const char *desc, bool from_attr, bool ignored)
{
	struct pms_reg_field *f;

	if ((size_t)*n >= max)
		return;
	f = &out[(*n)++];
	memset(f, 0, sizeof(*f));
	f->name = name;
	f->lo = lo;
	f->hi = hi;
	f->lo2 = f->hi2 = -1;
	f->value = (config >> lo) & ((hi - lo == 63) ? ~0ULL : ((1ULL << (hi - lo + 1)) - 1));
	f->desc = desc;
	f->from_attr = from_attr;
	f->ignored = ignored;
}

int pms_vendor__decode_config(enum pms_uarch u, uint64_t config, struct pms_reg_field *out, size_t max)
{
	int n = 0;
	enum pms_vendor v = pms_uarch__vendor(u);

	if (v == PMS_VENDOR_INTEL) {
		add_field(out, max, &n, "event", 0, 7, config, "EventSelect", false, false);
		add_field(out, max, &n, "umask", 8, 15, config, "UMask: sub-event", false, false);
		add_field(out, max, &n, "usr", 16, 16, config, "count in ring 3: set from exclude_user, not from config", true, true);
		add_field(out, max, &n, "os", 17, 17, config, "count in ring 0: set from exclude_kernel, not from config", true, true);
		add_field(out, max, &n, "edge", 18, 18, config, "count 0->1 transitions of the condition", false, false);
		add_field(out, max, &n, "pc", 19, 19, config, "pin control: masked out of raw configs", false, true);
		add_field(out, max, &n, "int", 20, 20, config, "APIC interrupt on overflow: set by the kernel when sampling", true, true);
		add_field(out, max, &n, "any", 21, 21, config, "AnyThread (v3, deprecated): count both SMT threads; needs CPU-wide privileges", false, false);
		add_field(out, max, &n, "en", 22, 22, config, "enable: set by the kernel when it schedules the event", true, true);
		add_field(out, max, &n, "inv", 23, 23, config, "invert the cmask comparison", false, false);
		add_field(out, max, &n, "cmask", 24, 31, config, "counter mask: count cycles with >= cmask occurrences (0: count occurrences)", false, false);
		add_field(out, max, &n, "in_tx", 32, 32, config, "count only inside TSX transactions (HSW+)", false, false);
		add_field(out, max, &n, "in_txcp", 33, 33, config, "TSX checkpointed: exclude aborted transactions (HSW+)", false, false);
		return n;
	}
	if (v == PMS_VENDOR_AMD) {
		struct pms_reg_field *f;

		add_field(out, max, &n, "event", 0, 7, config, "EventSelect[11:0] = bits 35:32 and 7:0", false, false);
		if (n > 0) {
			f = &out[n - 1];
			f->lo2 = 32;
			f->hi2 = 35;
			f->value = pms_amd__event_code(config);
		}
		add_field(out, max, &n, "umask", 8, 15, config, "UnitMask: sub-event", false, false);
		add_field(out, max, &n, "usr", 16, 16, config, "count in user mode: set from exclude_user, not from config", true, true);
		add_field(out, max, &n, "os", 17, 17, config, "count in kernel mode: set from exclude_kernel, not from config", true, true);
		add_field(out, max, &n, "edge", 18, 18, config, "count 0->1 transitions", false, false);
		add_field(out, max, &n, "int", 20, 20, config, "interrupt on overflow: set by the kernel when sampling", true, true);
		add_field(out, max, &n, "en", 22, 22, config, "enable: set by the kernel when it schedules the event", true, true);
		add_field(out, max, &n, "inv", 23, 23, config, "invert the cntmask comparison", false, false);
		add_field(out, max, &n, "cmask", 24, 31, config, "CntMask: count cycles with >= cmask occurrences", false, false);
		add_field(out, max, &n, "guestonly", 40, 40, config, "count only in the guest: set from exclude_host", true, true);
		add_field(out, max, &n, "hostonly", 41, 41, config, "count only in the host: set from exclude_guest", true, true);
		return n;
	}
	return -EOPNOTSUPP;
}

static const struct {
	unsigned code;
	const char *name;
	const char *desc;
} armv8_events[] = {
	{ 0x00, "SW_INCR", "instruction architecturally executed, software increment" },
	{ 0x01, "L1I_CACHE_REFILL", "level 1 instruction cache refill" },
	{ 0x02, "L1I_TLB_REFILL", "level 1 instruction TLB refill" },
	{ 0x03, "L1D_CACHE_REFILL", "level 1 data cache refill" },
	{ 0x04, "L1D_CACHE", "level 1 data cache access" },
	{ 0x05, "L1D_TLB_REFILL", "level 1 data TLB refill" },
	{ 0x06, "LD_RETIRED", "load instructions architecturally executed" },
	{ 0x07, "ST_RETIRED", "store instructions architecturally executed" },
	{ 0x08, "INST_RETIRED", "instructions architecturally executed" },
	{ 0x09, "EXC_TAKEN", "exceptions taken" },
	{ 0x0a, "EXC_RETURN", "exception returns architecturally executed" },
	{ 0x0c, "PC_WRITE_RETIRED", "software changes of the PC (branches) architecturally executed" },
	{ 0x0d, "BR_IMMED_RETIRED", "immediate branches architecturally executed" },
	{ 0x0e, "BR_RETURN_RETIRED", "function returns architecturally executed" },
	{ 0x10, "BR_MIS_PRED", "mispredicted or not predicted branches speculatively executed" },
	{ 0x11, "CPU_CYCLES", "processor cycles" },
	{ 0x12, "BR_PRED", "predictable branches speculatively executed" },
	{ 0x13, "MEM_ACCESS", "data memory accesses" },
	{ 0x14, "L1I_CACHE", "level 1 instruction cache access" },
	{ 0x15, "L1D_CACHE_WB", "level 1 data cache write-back" },
	{ 0x16, "L2D_CACHE", "level 2 data cache access" },
	{ 0x17, "L2D_CACHE_REFILL", "level 2 data cache refill" },
	{ 0x1b, "INST_SPEC", "operations speculatively executed" },
	{ 0x1d, "BUS_CYCLES", "bus cycles" },
	{ 0x1e, "CHAIN", "odd counter chained to the preceding even counter (64-bit counting)" },
	{ 0x21, "BR_RETIRED", "branches architecturally executed" },
	{ 0x22, "BR_MIS_PRED_RETIRED", "mispredicted branches architecturally executed" },
	{ 0x23, "STALL_FRONTEND", "cycles with no operation issued because of the front end" },
	{ 0x24, "STALL_BACKEND", "cycles with no operation issued because of the back end" },
	{ 0x25, "L1D_TLB", "level 1 data TLB access" },
	{ 0x26, "L1I_TLB", "level 1 instruction TLB access" },
	{ 0x2b, "L3D_CACHE", "level 3 data cache access" },
	{ 0x32, "LL_CACHE", "last-level cache access" },
	{ 0x33, "LL_CACHE_MISS", "last-level cache miss" },
	{ 0x36, "LL_CACHE_RD", "last-level cache read access" },
	{ 0x37, "LL_CACHE_MISS_RD", "last-level cache read miss" },
	{ 0x3a, "OP_RETIRED", "micro-operations architecturally executed" },
	{ 0x3b, "OP_SPEC", "micro-operations speculatively executed" },
	{ 0x3c, "STALL", "cycles with no operation sent for execution" },
	{ 0x3d, "STALL_SLOT_BACKEND", "slots with no operation sent for execution because of the back end" },
	{ 0x3e, "STALL_SLOT_FRONTEND", "slots with no operation sent for execution because of the front end" },
	{ 0x3f, "STALL_SLOT", "slots with no operation sent for execution" },
	{ 0x4004, "CNT_CYCLES", "constant frequency cycles" },
};

const char *pms_armv8__event_name(unsigned code, const char **desc)
{
	for (size_t i = 0; i < sizeof(armv8_events) / sizeof(armv8_events[0]); i++) {
		if (armv8_events[i].code == code) {
			if (desc)
				*desc = armv8_events[i].desc;
			return armv8_events[i].name;
		}
	}
	return NULL;
}

const char *pms_intel__arch_event(unsigned i, unsigned *event, unsigned *umask)
{
	static const struct {
		const char *name;
		unsigned event, umask;
	} ev[PMS_ARCH_EVENTS_MAX] = {
		{ "UnHalted Core Cycles", 0x3c, 0x00 },
		{ "Instructions Retired", 0xc0, 0x00 },
		{ "UnHalted Reference Cycles", 0x3c, 0x01 },
		{ "LLC Reference", 0x2e, 0x4f },
		{ "LLC Misses", 0x2e, 0x41 },
		{ "Branch Instructions Retired", 0xc4, 0x00 },
		{ "Branch Misses Retired", 0xc5, 0x00 },
		{ "Topdown Slots", 0xa4, 0x01 },
	};

	if (i >= PMS_ARCH_EVENTS_MAX)
		return NULL;
	if (event)
		*event = ev[i].event;
	if (umask)
		*umask = ev[i].umask;
	return ev[i].name;
}
