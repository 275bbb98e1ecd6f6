// SPDX-License-Identifier: MIT
// Unit tests of lib/perf_event/userpage: the pure parts of the user-page read (sign extension by
// pmc_width, the cycles-to-ns conversion) and the fallbacks a page forces, on hand-made pages.
#include <criterion/criterion.h>
#include <errno.h>
#include <string.h>

#include "perf_event/userpage.h"

Test(perf_event_userpage, sign_extend_by_width)
{
	/* a 48-bit x86 counter just below its wrap reads as a small negative number */
	cr_assert_eq(pms_userpage__sign_extend(0xffffffffffffULL, 48), -1);
	cr_assert_eq(pms_userpage__sign_extend(0x800000000000ULL, 48), -(int64_t)0x800000000000LL);
	cr_assert_eq(pms_userpage__sign_extend(0x7fffffffffffULL, 48), 0x7fffffffffffLL);
	/* arm64 32-bit counters: the upper 32 bits are UNKNOWN and must not leak in */
	cr_assert_eq(pms_userpage__sign_extend(0xdeadbeef00000005ULL, 32), 5);
	cr_assert_eq(pms_userpage__sign_extend(0x12345678ffffffffULL, 32), -1);
	cr_assert_eq(pms_userpage__sign_extend(42, 64), 42);
	cr_assert_eq(pms_userpage__sign_extend(42, 0), 42);
}

Test(perf_event_userpage, delta_ns_matches_the_uapi_formula)
{
	/* 1 cycle = 0.5 ns: mult 2^31, shift 32 */
	cr_assert_eq(pms_userpage__delta_ns(1000, 0, ~0ULL, 32, 1u << 31, 0), 500);
	/* time_offset is added (it is -now at the kernel's update) */
	cr_assert_eq(pms_userpage__delta_ns(1000, 0, ~0ULL, 32, 1u << 31, (uint64_t)-400), 100);
	/* cycles near 2^64 must not overflow the product: quotient/remainder split */
	uint64_t cyc = 0xfffffffffff00000ULL;
	uint64_t want = (cyc >> 10) * 3 + (((cyc & 1023) * 3) >> 10);
	cr_assert_eq(pms_userpage__delta_ns(cyc, 0, ~0ULL, 10, 3, 0), want);
	/* cap_user_time_short: only the masked low bits past time_cycles count */
	cr_assert_eq(pms_userpage__delta_ns(0x1000000ff, 0x100000000, 0xffffffff, 0, 1, 0),
		     0x100000000 + 0xff);
}

Test(perf_event_userpage, pages_that_forbid_user_reads_fall_back)
{
	static struct perf_event_mmap_page page;
	struct pms_count c = { 0 };
	uint32_t idx = 99;

	memset(&page, 0, sizeof(page));
	cr_assert_not(pms_userpage__capable(&page));
	cr_assert_eq(pms_userpage__read(&page, &c, &idx), -EAGAIN);
	/* kernels before 3.12 aliased the rdpmc bit with the time bit: not trusted */
	page.cap_user_rdpmc = 1;
	cr_assert_not(pms_userpage__capable(&page));
	page.cap_bit0_is_deprecated = 1;
	cr_assert_eq(pms_userpage__capable(&page), pms_userpage__arch_supported());
	/* index 0: not on a counter now (multiplexed out, or a software event) */
	page.index = 0;
	page.offset = 1234;
	cr_assert_eq(pms_userpage__read(&page, &c, &idx), -EAGAIN);
	cr_assert_eq(idx, 0);
	cr_assert_eq(c.val, 0, "nothing written on fallback");
	cr_assert_eq(pms_userpage__read(NULL, &c, NULL), -EAGAIN);
}
