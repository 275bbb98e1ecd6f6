/* SPDX-License-Identifier: MIT */
/*
 * x86 CPUID behind an architecture seam, plus decoding of the leaves that
 * describe performance monitoring (1, 0AH, 0x40000000, 0x80000001,
 * 0x80000022).
 *
 * Invariants: when $PMS_CPUID_FILE is set every query is answered from that
 * file and never from the CPU, on any architecture (fixture tests); a leaf
 * the file does not list reads as all zeros, as CPUID does beyond the
 * maximum leaf on AMD. Without the file, non-x86 builds return -EOPNOTSUPP;
 * PMS_CPUID_FILE=none simulates that on x86 (arm64 fixture tests).
 * Nothing is cached: the file is re-read on each query (it is tiny and tests
 * switch it between cases).
 *
 * File format: one leaf per line, "#" comments, all numbers hex:
 *   <leaf> <subleaf> <eax> <ebx> <ecx> <edx>
 *   0x0000000a 0x0 0x07300404 0x00000000 0x00000000 0x00000603
 */
#ifndef PMS_UTIL_CPUID_H
#define PMS_UTIL_CPUID_H

#include <stdbool.h>
#include <stdint.h>

struct pms_cpuid_regs {
	uint32_t eax, ebx, ecx, edx;
};

/* 0, -EOPNOTSUPP (no CPUID here), -ENOENT/-EINVAL (unreadable/bad file). */
int pms_cpuid(uint32_t leaf, uint32_t subleaf, struct pms_cpuid_regs *out);
/* True when pms_cpuid() can answer (x86, or a CPUID file is set). */
bool pms_cpuid__available(void);

#define PMS_ARCH_EVENTS_MAX 8 /* EBX bits with a defined meaning (0..7) */

/* Intel CPUID.0AH, decoded. */
struct pms_cpuid_arch_perfmon {
	unsigned version;
	unsigned nr_gp;          /* general-purpose counters per logical CPU */
	unsigned gp_width;
	unsigned ebx_length;     /* EAX[31:24]: events at or beyond it are unavailable */
	uint32_t ebx;            /* raw: a SET bit means NOT available */
	unsigned nr_fixed;       /* EDX[4:0] (version > 1) */
	unsigned fixed_width;    /* EDX[12:5] */
	uint32_t fixed_bitmap;   /* ECX (version >= 5) */
	bool anythread_deprecated; /* EDX[15] */
};

/* AMD performance-monitoring bits of 0x80000001:ECX and leaf 0x80000022. */
struct pms_cpuid_amd_perf {
	bool perfctr_core;       /* [23] 6 core counters at 0xC0010200 */
	bool perfctr_nb;         /* [24] */
	bool perf_tsc;           /* [27] */
	bool perfctr_llc;        /* [28] */
	bool has_leaf_22;        /* max extended leaf >= 0x80000022 */
	bool perfmon_v2;         /* 0x80000022 EAX[0] */
	bool lbr_v2;             /* EAX[1] */
	bool lbr_pmc_freeze;     /* EAX[2] */
	unsigned nr_core;        /* EBX[3:0] */
	unsigned lbr_v2_stack;   /* EBX[9:4] */
	unsigned nr_df;          /* EBX[15:10] */
	unsigned nr_umc;         /* EBX[21:16] */
	uint32_t active_umc;     /* ECX */
};

struct pms_cpuid_info {
	char vendor[13];         /* "GenuineIntel", "AuthenticAMD", ... */
	uint32_t max_leaf, max_ext_leaf;
	unsigned family, model, stepping; /* display family/model (extended fields folded in) */
	bool hypervisor;         /* leaf 1 ECX[31] */
	char hv_vendor[13];      /* leaf 0x40000000 signature, "" if none */
	bool pdcm;               /* leaf 1 ECX[15]: IA32_PERF_CAPABILITIES present */
	bool has_arch_perfmon;   /* Intel and max_leaf >= 0xA and version != 0 */
	struct pms_cpuid_arch_perfmon arch;
	bool is_amd;
	struct pms_cpuid_amd_perf amd;
	uint32_t ext1_ecx;       /* raw 0x80000001 ECX */
};

/* Read and decode everything above. Same errors as pms_cpuid(). */
int pms_cpuid__read_info(struct pms_cpuid_info *info);

/* Pure decoders, exposed for tests. */
void pms_cpuid__decode_0a(const struct pms_cpuid_regs *r, struct pms_cpuid_arch_perfmon *out);
/* Is architectural event i (0..7) available per EBX and the EAX[31:24] length? */
bool pms_cpuid__arch_event_available(const struct pms_cpuid_arch_perfmon *a, unsigned i);
/* Is fixed counter i supported (ECX bitmap on v5+, else i < nr_fixed)? */
bool pms_cpuid__fixed_counter_supported(const struct pms_cpuid_arch_perfmon *a, unsigned i);
void pms_cpuid__decode_signature(uint32_t eax, unsigned *family, unsigned *model, unsigned *stepping);

#endif
