/* SPDX-License-Identifier: MIT */
/*
 * perf's names of the registers a sample carries (PERF_SAMPLE_REGS_USER /
 * _INTR bits, the kernel's asm/perf_regs.h indices), as perf script prints
 * them with -F iregs,uregs: "AX", "FLAGS", "R8" on x86, "x0", "lr", "pc" on
 * arm64.
 */
#ifndef PMS_RING_REGS_NAME_H
#define PMS_RING_REGS_NAME_H

/*
 * The name of register bit `bit` (0..63) of arch, an uname machine
 * ("x86_64", "aarch64") or perf's normalized name ("x86", "arm64"); NULL
 * for the build's own arch. "unknown" where perf has no name, as perf prints.
 */
const char *pms_reg__name(const char *arch, int bit);

#endif
