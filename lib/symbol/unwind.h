/* SPDX-License-Identifier: MIT */
/*
 * DWARF (CFI) unwinding of a copied user stack, as recorded by
 * --call-graph dwarf samples (PERF_SAMPLE_REGS_USER + PERF_SAMPLE_STACK_USER),
 * through libdwfl with our own thread callbacks: registers come from the
 * sample, stack memory from the copied bytes, code and CFI from the ELF
 * files named by the process's mappings.
 *
 * Invariants:
 *  - One unwinder per process address space (maps); each executable,
 *    file-backed mapping is reported to libdwfl once with the bias derived
 *    from its PT_LOAD segments, so no per-sample ELF work.
 *  - Reads outside [sp, sp + stack_size) fail instead of guessing, which
 *    ends the unwind (a truncated chain, never an invented frame).
 *  - ips[0] is the sampled IP; later entries are return addresses (callers
 *    symbolize them at ip - 1).
 */
#ifndef PMS_SYMBOL_UNWIND_H
#define PMS_SYMBOL_UNWIND_H

#include <stddef.h>
#include <stdint.h>

#include "symbol/maps.h"

enum pms_unwind_arch {
	PMS_UNWIND_X86_64,
	PMS_UNWIND_ARM64,
};

/* Register indices as in the kernel's perf_regs.h (asm/perf_regs.h). */
enum {
	PMS_X86_REG_AX = 0, PMS_X86_REG_BX = 1, PMS_X86_REG_CX = 2, PMS_X86_REG_DX = 3,
	PMS_X86_REG_SI = 4, PMS_X86_REG_DI = 5, PMS_X86_REG_BP = 6, PMS_X86_REG_SP = 7,
	PMS_X86_REG_IP = 8, PMS_X86_REG_R8 = 16, /* .. R15 = 23 */
	PMS_ARM64_REG_X29 = 29, PMS_ARM64_REG_LR = 30, PMS_ARM64_REG_SP = 31,
	PMS_ARM64_REG_PC = 32,
};

/* A sample's regs_user: values[] holds one value per set bit of mask, low bit first. */
struct pms_unwind_regs {
	enum pms_unwind_arch arch;
	uint64_t mask;
	const uint64_t *values;
};

struct pms_unwinder;

/* maps must outlive the unwinder. -ENOENT if no mapping could be reported. */
int pms_unwinder__new(const struct pms_maps *maps, struct pms_unwinder **out);
/*
 * Unwind one sample. stack holds stack_size bytes copied from the sample's
 * SP upwards. Fills up to max IPs; 0 with *nr >= 1 on success (a partial
 * chain is a success), -EINVAL if IP/SP are missing from the registers.
 */
int pms_unwinder__unwind(struct pms_unwinder *u, const struct pms_unwind_regs *regs,
			 const void *stack, size_t stack_size, uint64_t *ips, size_t max, size_t *nr);
void pms_unwinder__free(struct pms_unwinder *u);

/* Value of perf register `reg` in regs, 0 or -ENOENT when not in the mask. */
int pms_unwind_regs__get(const struct pms_unwind_regs *regs, int reg, uint64_t *val);

#endif
