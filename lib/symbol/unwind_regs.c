// SPDX-License-Identifier: MIT
// Register lookup in a sample's regs_user; kept apart from unwind.c so builds without libdw have it too.
#include <errno.h>

#include "symbol/unwind.h"

int pms_unwind_regs__get(const struct pms_unwind_regs *regs, int reg, uint64_t *val)
{
	size_t idx = 0;

	if (reg < 0 || reg > 63 || !(regs->mask & (1ULL << reg)))
		return -ENOENT;
	for (int i = 0; i < reg; i++)
		if (regs->mask & (1ULL << i))
			idx++;
	*val = regs->values[idx];
	return 0;
}
