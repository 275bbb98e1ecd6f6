// SPDX-License-Identifier: MIT
// Register names and masks for sample_regs_user / sample_regs_intr, per architecture, as perf names them.
#include <errno.h>
#include <string.h>
#include <strings.h>

#include "event/regs.h"

/* perf_event_x86_regs (arch/x86/include/uapi/asm/perf_regs.h): DS..GS have names but are not sampled */
static const char *const x86_64_names[] = {
	"AX", "BX", "CX", "DX", "SI", "DI", "BP", "SP", "IP", "FLAGS", "CS", "SS",
	NULL, NULL, NULL, NULL, /* DS, ES, FS, GS */
	"R8", "R9", "R10", "R11", "R12", "R13", "R14", "R15",
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

uint64_t pms_regs__default_mask(enum pms_regs_arch arch)
{
	size_t nr;
	const char *const *names = names_of(arch, &nr);
	uint64_t mask = 0;

	for (size_t i = 0; names && i < nr; i++)
		if (names[i])
			mask |= 1ULL << i;
	return mask;
}

const char *pms_regs__name(enum pms_regs_arch arch, unsigned idx)
{
	size_t nr;
	const char *const *names = names_of(arch, &nr);

	return names && idx < nr ? names[idx] : NULL;
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
			if (names[i] && strlen(names[i]) == len && !strncasecmp(names[i], p, len))
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
	size_t nr;
	const char *const *names = names_of(arch, &nr);

	strbuf_adds(out, "available registers: ");
	for (size_t i = 0; names && i < nr; i++)
		if (names[i])
			strbuf_addf(out, "%s ", names[i]);
}
