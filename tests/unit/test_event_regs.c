// SPDX-License-Identifier: MIT
// Register names and masks for --user-regs / -I, and -j branch filter names, as perf spells them.
#include <criterion/criterion.h>
#include <errno.h>
#include <linux/perf_event.h>

#include "event/branch_filter.h"
#include "event/regs.h"

Test(event_regs, default_masks_are_perfs)
{
	cr_assert_eq(pms_regs__default_mask(PMS_REGS_X86_64), 0xff0fffULL, "every register but DS/ES/FS/GS");
	cr_assert_eq(pms_regs__default_mask(PMS_REGS_ARM64), 0x1ffffffffULL, "x0..x30, sp, pc");
	cr_assert_eq(pms_regs__default_mask(PMS_REGS_NONE), 0);
}

Test(event_regs, names_parse_case_insensitively)
{
	uint64_t mask;
	size_t off, len;

	cr_assert_eq(pms_regs__parse(PMS_REGS_X86_64, "ax,bx,IP", &mask, NULL, NULL), 0);
	cr_assert_eq(mask, 0x103, "perf evlist shows 0x103 for --user-regs=ax,bx,ip");
	cr_assert_eq(pms_regs__parse(PMS_REGS_X86_64, "ax,sp", &mask, NULL, NULL), 0);
	cr_assert_eq(mask, 0x81);
	cr_assert_eq(pms_regs__parse(PMS_REGS_X86_64, NULL, &mask, NULL, NULL), 0);
	cr_assert_eq(mask, 0xff0fff);
	cr_assert_eq(pms_regs__parse(PMS_REGS_ARM64, "x0,lr,SP,pc", &mask, NULL, NULL), 0);
	cr_assert_eq(mask, (1ULL << 0) | (1ULL << 30) | (1ULL << 31) | (1ULL << 32));
	cr_assert_eq(pms_regs__parse(PMS_REGS_X86_64, "ax,ds", &mask, &off, &len), -EINVAL, "DS cannot be sampled");
	cr_assert_eq(off, 3);
	cr_assert_eq(len, 2);
	cr_assert_eq(pms_regs__parse(PMS_REGS_X86_64, "ax,", &mask, &off, &len), -EINVAL);
	cr_assert_eq(pms_regs__parse(PMS_REGS_ARM64, "ax", &mask, NULL, NULL), -EINVAL);
	cr_assert_eq(pms_regs__parse(PMS_REGS_NONE, "ax", &mask, NULL, NULL), -EOPNOTSUPP);
}

Test(event_regs, list_is_perfs_line)
{
	struct strbuf sb = STRBUF_INIT;

	pms_regs__list(PMS_REGS_X86_64, &sb);
	cr_assert_str_eq(strbuf_str(&sb), "available registers: AX BX CX DX SI DI BP SP IP FLAGS CS SS R8 R9 R10 R11 "
					  "R12 R13 R14 R15 ");
	strbuf_release(&sb);
	cr_assert_str_eq(pms_regs__name(PMS_REGS_ARM64, 30), "lr");
	cr_assert_null(pms_regs__name(PMS_REGS_X86_64, 12));
	cr_assert_null(pms_regs__name(PMS_REGS_X86_64, 64));
}

/* what script prints for a sample's register bits: the recording's arch, DS..GS and XMM included */
Test(event_regs, sample_names_as_perf_script_prints_them)
{
	cr_assert_str_eq(pms_regs__sample_name(pms_regs__arch_of("x86_64"), 0), "AX");
	cr_assert_str_eq(pms_regs__sample_name(pms_regs__arch_of("x86"), 9), "FLAGS");
	cr_assert_str_eq(pms_regs__sample_name(pms_regs__arch_of("x86_64"), 23), "R15");
	cr_assert_str_eq(pms_regs__sample_name(pms_regs__arch_of("x86_64"), 24), "unknown");
	cr_assert_str_eq(pms_regs__sample_name(pms_regs__arch_of("x86_64"), 34), "XMM1");
	cr_assert_str_eq(pms_regs__sample_name(pms_regs__arch_of("x86_64"), 35), "unknown", "the upper half of XMM1 has no name");
	cr_assert_str_eq(pms_regs__sample_name(pms_regs__arch_of("aarch64"), 30), "lr");
	cr_assert_str_eq(pms_regs__sample_name(pms_regs__arch_of("arm64"), 32), "pc");
	cr_assert_str_eq(pms_regs__sample_name(pms_regs__arch_of("aarch64"), 33), "unknown");
	cr_assert_str_eq(pms_regs__sample_name(pms_regs__arch_of("riscv64"), 1), "unknown");
	cr_assert_str_eq(pms_regs__sample_name(pms_regs__arch_of("x86_64"), 64), "unknown");
	cr_assert_str_eq(pms_regs__sample_name(pms_regs__arch_of("x86_64"), -1), "unknown");
	cr_assert_not_null(pms_regs__sample_name(pms_regs__arch_of(NULL), 0));
	cr_assert_str_eq(pms_regs__sample_name(PMS_REGS_X86_64, 12), "DS", "named, though not sampleable");
}

Test(event_branch_filter, names_and_perfs_default)
{
	uint64_t mask;
	size_t off, len;

	cr_assert_eq(pms_branch_filter__parse("any_call,u", &mask, NULL, NULL), 0);
	cr_assert_eq(mask, PERF_SAMPLE_BRANCH_ANY_CALL | PERF_SAMPLE_BRANCH_USER);
	cr_assert_eq(pms_branch_filter__parse("u,k", &mask, NULL, NULL), 0);
	cr_assert_eq(mask, PERF_SAMPLE_BRANCH_USER | PERF_SAMPLE_BRANCH_KERNEL | PERF_SAMPLE_BRANCH_ANY,
		     "only levels: any branch, as perf");
	cr_assert_eq(pms_branch_filter__parse("stack,save_type", &mask, NULL, NULL), 0);
	cr_assert_eq(mask, PERF_SAMPLE_BRANCH_CALL_STACK | PERF_SAMPLE_BRANCH_TYPE_SAVE);
	cr_assert_eq(pms_branch_filter__parse("any,bogus", &mask, &off, &len), -EINVAL);
	cr_assert_eq(off, 4);
	cr_assert_eq(len, 5);
	cr_assert_eq(pms_branch_filter__parse("", &mask, NULL, NULL), -EINVAL);
}
