// SPDX-License-Identifier: MIT
// Branch stack filter names, as perf record's -j takes them.
#include <errno.h>
#include <string.h>
#include <linux/perf_event.h>

#include "event/branch_filter.h"

static const struct {
	const char *name;
	uint64_t bit;
} modes[] = {
	/* perf 6.1's branch_modes[], in its order */
	{ "u", PERF_SAMPLE_BRANCH_USER },
	{ "k", PERF_SAMPLE_BRANCH_KERNEL },
	{ "hv", PERF_SAMPLE_BRANCH_HV },
	{ "any", PERF_SAMPLE_BRANCH_ANY },
	{ "any_call", PERF_SAMPLE_BRANCH_ANY_CALL },
	{ "any_ret", PERF_SAMPLE_BRANCH_ANY_RETURN },
	{ "ind_call", PERF_SAMPLE_BRANCH_IND_CALL },
	{ "abort_tx", PERF_SAMPLE_BRANCH_ABORT_TX },
	{ "in_tx", PERF_SAMPLE_BRANCH_IN_TX },
	{ "no_tx", PERF_SAMPLE_BRANCH_NO_TX },
	{ "cond", PERF_SAMPLE_BRANCH_COND },
	{ "ind_jmp", PERF_SAMPLE_BRANCH_IND_JUMP },
	{ "call", PERF_SAMPLE_BRANCH_CALL },
	{ "no_flags", PERF_SAMPLE_BRANCH_NO_FLAGS },
	{ "no_cycles", PERF_SAMPLE_BRANCH_NO_CYCLES },
	{ "save_type", PERF_SAMPLE_BRANCH_TYPE_SAVE },
	{ "stack", PERF_SAMPLE_BRANCH_CALL_STACK },
	{ "hw_index", PERF_SAMPLE_BRANCH_HW_INDEX },
	{ "priv", PERF_SAMPLE_BRANCH_PRIV_SAVE },
};

#define PLM_ALL (PERF_SAMPLE_BRANCH_USER | PERF_SAMPLE_BRANCH_KERNEL | PERF_SAMPLE_BRANCH_HV)

int pms_branch_filter__parse(const char *text, uint64_t *mask, size_t *bad_off, size_t *bad_len)
{
	const char *p = text;

	*mask = 0;
	if (!text || !*text) {
		if (bad_off)
			*bad_off = 0;
		if (bad_len)
			*bad_len = 0;
		return -EINVAL;
	}
	for (;;) {
		size_t len = strcspn(p, ",");
		size_t i;

		for (i = 0; i < sizeof(modes) / sizeof(modes[0]); i++)
			if (strlen(modes[i].name) == len && !strncmp(modes[i].name, p, len))
				break;
		if (i == sizeof(modes) / sizeof(modes[0])) {
			if (bad_off)
				*bad_off = (size_t)(p - text);
			if (bad_len)
				*bad_len = len;
			return -EINVAL;
		}
		*mask |= modes[i].bit;
		if (!p[len])
			break;
		p += len + 1;
	}
	if (!(*mask & ~(uint64_t)PLM_ALL))
		*mask |= PERF_SAMPLE_BRANCH_ANY;
	return 0;
}

const char *pms_branch_filter__names(void)
{
	return "u,k,hv,any,any_call,any_ret,ind_call,abort_tx,in_tx,no_tx,cond,ind_jmp,call,no_flags,"
	       "no_cycles,save_type,stack,hw_index,priv";
}
