// SPDX-License-Identifier: MIT
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "event/callgraph.h"

int pms_call_graph__parse(const char *text, uint32_t min_stack_bytes, uint32_t max_stack_bytes,
			  struct pms_call_graph *out)
{
	out->mode = PMS_CALL_GRAPH_NONE;
	out->stack_bytes = 0;
	if (!text)
		return -EINVAL;
	if (!strcmp(text, "fp")) {
		out->mode = PMS_CALL_GRAPH_FP;
		return 0;
	}
	if (!strcmp(text, "lbr"))
		return -EOPNOTSUPP;
	if (strncmp(text, "dwarf", 5) || (text[5] && text[5] != ','))
		return -EINVAL;
	{
		unsigned long long v = PMS_CALL_GRAPH_DWARF_STACK_DEFAULT;

		if (text[5] == ',') {
			const char *num = text + 6;
			char *end;

			/* strtoull would take blanks and a sign */
			if (!isdigit((unsigned char)*num))
				return -ERANGE;
			errno = 0;
			v = strtoull(num, &end, 0);
			if (errno || *end)
				return -ERANGE;
		}
		if (v < min_stack_bytes || v > max_stack_bytes)
			return -ERANGE;
		v = (v + 7) & ~7ULL;
		if (v > max_stack_bytes) /* a limit not a multiple of 8 */
			return -ERANGE;
		out->mode = PMS_CALL_GRAPH_DWARF;
		out->stack_bytes = (uint32_t)v;
	}
	return 0;
}

uint64_t pms_call_graph__dwarf_regs_user(void)
{
#if defined(__x86_64__)
	return 0xff0fffULL;      /* all but the segment registers DS/ES/FS/GS */
#elif defined(__aarch64__)
	return 0x1ffffffffULL;   /* x0..x30, sp, pc */
#else
	return 0;
#endif
}
