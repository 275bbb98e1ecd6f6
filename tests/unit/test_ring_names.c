// SPDX-License-Identifier: MIT
// Unit tests of perf's branch type names (ring/branch_name.h).
#include <criterion/criterion.h>
#include <string.h>

#include "ring/branch_name.h"

Test(branch_name, types_and_extended_types)
{
	struct perf_branch_entry e;

	memset(&e, 0, sizeof(e));
	cr_assert_str_eq(pms_branch_entry__type_name(&e), "", "unknown prints nothing");
	e.type = PERF_BR_COND;
	cr_assert_str_eq(pms_branch_entry__type_name(&e), "COND");
	e.type = PERF_BR_NO_TX;
	cr_assert_str_eq(pms_branch_entry__type_name(&e), "NO_TX");
	e.type = PERF_BR_EXTEND_ABI;
	e.new_type = PERF_BR_NEW_FAULT_DATA;
	cr_assert_str_eq(pms_branch_entry__type_name(&e), "FAULT_DATA");
	e.mispred = 1;
	e.cycles = 0xffff;
	cr_assert_str_eq(pms_branch_entry__type_name(&e), "FAULT_DATA", "other flags do not leak in");
}
