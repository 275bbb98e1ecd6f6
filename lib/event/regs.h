/* SPDX-License-Identifier: MIT */
/*
 * Machine register names for --user-regs and -I/--intr-regs, as perf spells
 * them per architecture (x86-64 "AX".."R15", arm64 "x0".."pc"), the
 * sample_regs_* masks they stand for, and the names script prints for a
 * sample's registers (-F iregs,uregs).
 *
 * Invariants:
 *  - Bit i of a mask is the kernel's perf_event_<arch>_regs index i.
 *  - The default mask (no names given) is perf's PERF_REGS_MASK: every
 *    general register, without x86's DS/ES/FS/GS, which the kernel refuses.
 *  - Names match case-insensitively, as perf's do.
 */
#ifndef PMS_EVENT_REGS_H
#define PMS_EVENT_REGS_H

#include <stddef.h>
#include <stdint.h>

#include "util/strbuf.h"

enum pms_regs_arch {
	PMS_REGS_NONE,
	PMS_REGS_X86_64,
	PMS_REGS_ARM64,
};

/* The architecture this library was built for, PMS_REGS_NONE where registers cannot be sampled. */
enum pms_regs_arch pms_regs__host_arch(void);

/* A recording's arch: an uname machine ("x86_64", "aarch64") or perf's ("x86", "arm64"); NULL: this build's. */
enum pms_regs_arch pms_regs__arch_of(const char *machine);

/* perf's PERF_REGS_MASK for arch; 0 for PMS_REGS_NONE. */
uint64_t pms_regs__default_mask(enum pms_regs_arch arch);

/*
 * The name of register idx ("AX"), or NULL when arch has none there (and
 * for the masked-out segment registers).
 */
const char *pms_regs__name(enum pms_regs_arch arch, unsigned idx);

/*
 * perf_reg_name(): what perf script prints for bit 0..63 of a sample's
 * register mask, DS..GS and x86's XMM0..15 (the lower bit of each pair)
 * included; "unknown" where perf has no name.
 */
const char *pms_regs__sample_name(enum pms_regs_arch arch, int bit);

/*
 * "ax,sp,IP" -> the mask of those registers; NULL or "" -> the default
 * mask. 0; -EINVAL for a name arch does not have (*bad_off is then its
 * offset in text, *bad_len its length); -EOPNOTSUPP for PMS_REGS_NONE.
 */
int pms_regs__parse(enum pms_regs_arch arch, const char *text, uint64_t *mask, size_t *bad_off, size_t *bad_len);

/* perf's -I? line: "available registers: AX BX ... R15 " (with its trailing blank). */
void pms_regs__list(enum pms_regs_arch arch, struct strbuf *out);

#endif
