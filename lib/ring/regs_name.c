// SPDX-License-Identifier: MIT
// perf's register names for the sample_regs bits, per architecture (perf_reg_name()).
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "ring/regs_name.h"

/* arch/x86/include/uapi/asm/perf_regs.h: 0..23, then XMM0..15 as pairs from 32 */
static const char *const x86_regs[24] = {
	"AX", "BX", "CX", "DX", "SI", "DI", "BP", "SP", "IP", "FLAGS", "CS", "SS",
	"DS", "ES", "FS", "GS", "R8", "R9", "R10", "R11", "R12", "R13", "R14", "R15",
};

static const char *const x86_xmm[16] = {
	"XMM0", "XMM1", "XMM2", "XMM3", "XMM4", "XMM5", "XMM6", "XMM7",
	"XMM8", "XMM9", "XMM10", "XMM11", "XMM12", "XMM13", "XMM14", "XMM15",
};

/* arch/arm64/include/uapi/asm/perf_regs.h: x0..x29, lr, sp, pc */
static const char *const arm64_regs[33] = {
	"x0", "x1", "x2", "x3", "x4", "x5", "x6", "x7", "x8", "x9", "x10",
	"x11", "x12", "x13", "x14", "x15", "x16", "x17", "x18", "x19", "x20",
	"x21", "x22", "x23", "x24", "x25", "x26", "x27", "x28", "x29", "lr",
	"sp", "pc",
};

static bool is_arm64(const char *arch)
{
	if (!arch)
#if defined(__aarch64__)
		return true;
#else
		return false;
#endif
	return !strcmp(arch, "aarch64") || !strcmp(arch, "arm64");
}

static bool is_x86(const char *arch)
{
	if (!arch)
#if defined(__x86_64__) || defined(__i386__)
		return true;
#else
		return false;
#endif
	return !strcmp(arch, "x86_64") || !strcmp(arch, "x86") || !strcmp(arch, "i386") ||
	       !strcmp(arch, "i686");
}

const char *pms_reg__name(const char *arch, int bit)
{
	if (bit < 0 || bit > 63)
		return "unknown";
	if (is_x86(arch)) {
		if (bit < 24)
			return x86_regs[bit];
		if (bit >= 32 && !(bit & 1))
			return x86_xmm[(bit - 32) / 2];
		return "unknown";
	}
	if (is_arm64(arch) && bit < 33)
		return arm64_regs[bit];
	return "unknown";
}
