// SPDX-License-Identifier: MIT
// Unit tests of perf's register and branch type names (ring/regs_name.h, ring/branch_name.h).
#include <criterion/criterion.h>
#include <string.h>

#include "ring/branch_name.h"
#include "ring/regs_name.h"

Test(regs_name, x86_and_arm64_as_perf_names_them)
{
	cr_assert_str_eq(pms_reg__name("x86_64", 0), "AX");
	cr_assert_str_eq(pms_reg__name("x86", 9), "FLAGS");
	cr_assert_str_eq(pms_reg__name("x86_64", 23), "R15");
	cr_assert_str_eq(pms_reg__name("x86_64", 24), "unknown");
	cr_assert_str_eq(pms_reg__name("x86_64", 34), "XMM1");
	cr_assert_str_eq(pms_reg__name("x86_64", 35), "unknown", "the upper half of XMM1 has no name");
	cr_assert_str_eq(pms_reg__name("aarch64", 30), "lr");
	cr_assert_str_eq(pms_reg__name("arm64", 32), "pc");
	cr_assert_str_eq(pms_reg__name("aarch64", 33), "unknown");
	cr_assert_str_eq(pms_reg__name("riscv64", 1), "unknown");
	cr_assert_str_eq(pms_reg__name("x86_64", 64), "unknown");
	cr_assert_str_eq(pms_reg__name("x86_64", -1), "unknown");
	cr_assert_not_null(pms_reg__name(NULL, 0));
}

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
