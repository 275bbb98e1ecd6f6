// SPDX-License-Identifier: MIT
// Branch type names as perf 6.1's get_branch_type() gives them.
#include <stdint.h>
#include <string.h>

#include "ring/branch_name.h"

static const char *const type_names[16] = {
	"", "COND", "UNCOND", "IND", "CALL", "IND_CALL", "RET", "SYSCALL", "SYSRET",
	"COND_CALL", "COND_RET", "ERET", "IRQ", "SERROR", "NO_TX", NULL,
};

/* perf names the architecture-specific ones by the architecture it was built for */
static const char *const new_type_names[8] = {
	"FAULT_ALGN", "FAULT_DATA", "FAULT_INST",
#ifdef __aarch64__
	"ARM64_FIQ", "ARM64_DEBUG_HALT", "ARM64_DEBUG_EXIT", "ARM64_DEBUG_INST", "ARM64_DEBUG_DATA",
#else
	"ARCH_1", "ARCH_2", "ARCH_3", "ARCH_4", "ARCH_5",
#endif
};

const char *pms_branch_entry__type_name(const struct perf_branch_entry *e)
{
	uint64_t word;
	unsigned type, new_type;

	/*
	 * The flags word after from/to, read whole: older uapi headers lack
	 * the new_type bit-field (mispred:1 predicted:1 in_tx:1 abort:1
	 * cycles:16 type:4 spec:2 new_type:4 ...).
	 */
	memcpy(&word, (const char *)e + 2 * sizeof(uint64_t), sizeof(word));
	type = (unsigned)(word >> 20) & 0xf;
	new_type = (unsigned)(word >> 26) & 0xf;
	if (type != 15)
		return type_names[type];
	return new_type < 8 ? new_type_names[new_type] : "";
}
