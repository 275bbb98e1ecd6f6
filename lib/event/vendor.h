/* SPDX-License-Identifier: MIT */
/*
 * What the generic perf events mean in hardware, per CPU vendor: the
 * kernel's generic-event maps (intel_perfmon_event_map, the AMD legacy /
 * Zen1 / Zen2-3 / Zen4 maps, armv8_pmuv3_perf_map) and hw-cache maps
 * (Skylake, AMD K7-16h and 17h+, ARMv8), plus decoders of raw configs
 * (IA32_PERFEVTSELx, AMD PERF_CTL, ARM PMUv3 event numbers).
 *
 * Invariants: tables are static, mirror the kernel (arch/x86/events/intel/
 * core.c, amd/core.c, drivers/perf/arm_pmuv3.c, 6.x) and are checked by
 * tests/unit/test_vendor.c against docs events-and-pmu.md §6.3; lookups
 * never allocate. A map entry is either a raw config (status 0), not
 * supported (-ENOENT, the kernel's 0) or invalid (-EINVAL, the kernel's -1).
 */
#ifndef PMS_EVENT_VENDOR_H
#define PMS_EVENT_VENDOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum pms_vendor {
	PMS_VENDOR_UNKNOWN,
	PMS_VENDOR_INTEL,
	PMS_VENDOR_AMD,
	PMS_VENDOR_ARM64,
};

/* Which kernel map applies. */
enum pms_uarch {
	PMS_UARCH_NONE,
	PMS_UARCH_INTEL,        /* architectural map + Skylake hw-cache table */
	PMS_UARCH_AMD_LEGACY,   /* K7 .. family 16h */
	PMS_UARCH_ZEN1,
	PMS_UARCH_ZEN2,         /* Zen2 and Zen3 (family 0x19 non-Zen4) */
	PMS_UARCH_ZEN4,         /* Zen4 and family >= 0x1A */
	PMS_UARCH_ARMV8,        /* PMUv3 */
};

struct pms_vendor_event {
	int status;            /* 0 mapped, -ENOENT not supported, -EINVAL invalid */
	uint64_t config;       /* the raw config the kernel programs */
	const char *hw_name;   /* vendor event name: "LONGEST_LAT_CACHE.MISS", "L2_CACHE_REFILL" */
	const char *meaning;   /* one line in words */
};

enum pms_vendor pms_uarch__vendor(enum pms_uarch u);
/* "Intel (architectural perfmon)", "AMD Zen2/Zen3", ... */
const char *pms_uarch__name(enum pms_uarch u);
/*
 * intel, amd (= zen2), amd-legacy, zen1, zen2, zen3, zen4, zen5, arm64,
 * arm, armv8. -EINVAL if unknown.
 */
int pms_uarch__parse(const char *s, enum pms_uarch *out);
/* The names pms_uarch__parse() offers (not its aliases), joined by sep: for help and errors. */
const char *pms_uarch__names(const char *sep);
/* The kernel's own choice (amd_pmu_event_map()) from CPUID family/model. */
enum pms_uarch pms_uarch__for_cpu(enum pms_vendor v, unsigned family, unsigned model);

/*
 * The CPU of this machine (or of the fixture): CPUID where available
 * ($PMS_CPUID_FILE or x86), else <procfs>/cpuinfo ("CPU implementer" means
 * arm64) or <sysfs>/devices/system/cpu/cpu0/regs/identification/midr_el1.
 * -ENODEV if it cannot tell.
 */
int pms_uarch__detect(enum pms_uarch *out);

/* PERF_TYPE_HARDWARE id (0..9) -> this uarch's raw encoding. -EINVAL if id is out of range. */
int pms_vendor__generic(enum pms_uarch u, unsigned hw_id, struct pms_vendor_event *out);
/* PERF_TYPE_HW_CACHE (cache, op, result) -> raw encoding. -EINVAL if out of range. */
int pms_vendor__cache(enum pms_uarch u, unsigned cache, unsigned op, unsigned result,
		      struct pms_vendor_event *out);
/* A warning about what a generic event really counts here, or NULL. */
const char *pms_vendor__trap_note(enum pms_uarch u, unsigned hw_id);
/* Name of a PERF_COUNT_HW_* id ("PERF_COUNT_HW_CACHE_MISSES"), NULL if out of range. */
const char *pms_hw_id__name(unsigned hw_id);
/* "L1D", "read", "miss"... for a hw-cache config; NULL if out of range. */
const char *pms_hw_cache__name(unsigned cache);
const char *pms_hw_cache_op__name(unsigned op);
const char *pms_hw_cache_result__name(unsigned result);

/* One decoded bit field of a raw config. */
struct pms_reg_field {
	const char *name;  /* "event", "umask", "usr", ... */
	int lo, hi;        /* bit range(s): for AMD's split event, lo..hi is 7:0 and lo2..hi2 35:32 */
	int lo2, hi2;      /* -1 when the field is contiguous */
	uint64_t value;
	const char *desc;
	bool from_attr;    /* set by the kernel from attr (exclude_*, sampling), not from config */
	bool ignored;      /* the kernel masks it out of a raw config */
};

#define PMS_REG_FIELDS_MAX 16
/*
 * Decode a raw core-PMU config as IA32_PERFEVTSELx (Intel) or PERF_CTL
 * (AMD). Returns the number of fields written to out (at most max), or
 * -EOPNOTSUPP for a uarch without such a register (ARM: use
 * pms_armv8__event_name()). The AMD 12-bit event is reported as one field.
 */
int pms_vendor__decode_config(enum pms_uarch u, uint64_t config, struct pms_reg_field *out, size_t max);
/* AMD: the 12-bit event select from config bits 7:0 and 35:32. */
unsigned pms_amd__event_code(uint64_t config);
/* ARMv8 PMUv3 common event number -> name and description; NULL if not a common event. */
const char *pms_armv8__event_name(unsigned code, const char **desc);
/* Intel architectural event i (0..7) from CPUID.0AH:EBX: name, event, umask. NULL if out of range. */
const char *pms_intel__arch_event(unsigned i, unsigned *event, unsigned *umask);

#endif
