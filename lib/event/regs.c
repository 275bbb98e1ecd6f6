// SPDX-License-Identifier: MIT
// Register names and masks for sample_regs_user / sample_regs_intr, per architecture, as perf names them.
#include <errno.h>
#include <string.h>
#include <strings.h>

#include "event/regs.h"

/* perf_event_x86_regs (arch/x86/include/uapi/asm/perf_regs.h) */
static const char *const x86_64_names[] = {
	"AX", "BX", "CX", "DX", "SI", "DI", "BP", "SP", "IP", "FLAGS", "CS", "SS",
	"DS", "ES", "FS", "GS",
	"R8", "R9", "R10", "R11", "R12", "R13", "R14", "R15",
};
/* DS..GS have names (a file may carry them) but the kernel refuses to sample them */
#define X86_64_UNSAMPLED (0xfULL << 12)

/* then XMM0..15, each a pair of bits from 32 (perf names the lower one) */
static const char *const x86_xmm_names[16] = {
	"XMM0", "XMM1", "XMM2", "XMM3", "XMM4", "XMM5", "XMM6", "XMM7",
	"XMM8", "XMM9", "XMM10", "XMM11", "XMM12", "XMM13", "XMM14", "XMM15",
};

/* perf_event_arm64_regs: x0..x28, x29 (fp), lr (x30), sp, pc */
static const char *const arm64_names[] = {
	"x0", "x1", "x2", "x3", "x4", "x5", "x6", "x7", "x8", "x9", "x10", "x11",
	"x12", "x13", "x14", "x15", "x16", "x17", "x18", "x19", "x20", "x21", "x22", "x23",
	"x24", "x25", "x26", "x27", "x28", "x29", "lr", "sp", "pc",
};

static const char *const *names_of(enum pms_regs_arch arch, size_t *nr)
{
	switch (arch) {
	case PMS_REGS_X86_64:
		*nr = sizeof(x86_64_names) / sizeof(x86_64_names[0]);
		return x86_64_names;
	case PMS_REGS_ARM64:
		*nr = sizeof(arm64_names) / sizeof(arm64_names[0]);
		return arm64_names;
	default:
		*nr = 0;
		return NULL;
	}
}

/* The name of register idx when --user-regs/-I may ask for it, else NULL. */
static const char *sampleable_name(enum pms_regs_arch arch, size_t idx)
{
	size_t nr;
	const char *const *names = names_of(arch, &nr);

	if (!names || idx >= nr || (arch == PMS_REGS_X86_64 && ((X86_64_UNSAMPLED >> idx) & 1)))
		return NULL;
	return names[idx];
}

enum pms_regs_arch pms_regs__host_arch(void)
{
#if defined(__x86_64__)
	return PMS_REGS_X86_64;
#elif defined(__aarch64__)
	return PMS_REGS_ARM64;
#else
	return PMS_REGS_NONE;
#endif
}

enum pms_regs_arch pms_regs__arch_of(const char *machine)
{
	if (!machine)
		return pms_regs__host_arch();
	if (!strcmp(machine, "x86_64") || !strcmp(machine, "x86") || !strcmp(machine, "i386") ||
	    !strcmp(machine, "i686"))
		return PMS_REGS_X86_64;
	if (!strcmp(machine, "aarch64") || !strcmp(machine, "arm64"))
		return PMS_REGS_ARM64;
	return PMS_REGS_NONE;
}

uint64_t pms_regs__default_mask(enum pms_regs_arch arch)
{
	uint64_t mask = 0;

	for (size_t i = 0; i < 64; i++)
		if (sampleable_name(arch, i))
			mask |= 1ULL << i;
	return mask;
}

const char *pms_regs__sample_name(enum pms_regs_arch arch, int bit)
{
	size_t nr;
	const char *const *names = names_of(arch, &nr);

	if (bit < 0 || bit > 63 || !names)
		return "unknown";
	if ((size_t)bit < nr)
		return names[bit];
	if (arch == PMS_REGS_X86_64 && bit >= 32 && !(bit & 1))
		return x86_xmm_names[(bit - 32) / 2];
	return "unknown";
}

const char *pms_regs__name(enum pms_regs_arch arch, unsigned idx)
{
	return sampleable_name(arch, idx);
}

int pms_regs__parse(enum pms_regs_arch arch, const char *text, uint64_t *mask, size_t *bad_off, size_t *bad_len)
{
	size_t nr;
	const char *const *names = names_of(arch, &nr);
	const char *p = text;

	if (!names)
		return -EOPNOTSUPP;
	if (!text || !*text) {
		*mask = pms_regs__default_mask(arch);
		return 0;
	}
	*mask = 0;
	for (;;) {
		size_t len = strcspn(p, ",");
		size_t i;

		for (i = 0; i < nr; i++)
			if (sampleable_name(arch, i) && strlen(names[i]) == len && !strncasecmp(names[i], p, len))
				break;
		if (i == nr) {
			if (bad_off)
				*bad_off = (size_t)(p - text);
			if (bad_len)
				*bad_len = len;
			return -EINVAL;
		}
		*mask |= 1ULL << i;
		if (!p[len])
			return 0;
		p += len + 1;
	}
}

void pms_regs__list(enum pms_regs_arch arch, struct strbuf *out)
{
	strbuf_adds(out, "available registers: ");
	for (size_t i = 0; i < 64; i++)
		if (sampleable_name(arch, i))
			strbuf_addf(out, "%s ", sampleable_name(arch, i));
}
