// SPDX-License-Identifier: MIT
// The perf_event_mmap_page self-monitoring read: seqlock, counter register, time extrapolation.
#include <errno.h>

#include "perf_event/userpage.h"

#define barrier() __asm__ volatile("" ::: "memory")

#if defined(__x86_64__)
static inline uint64_t read_counter(uint32_t index)
{
	uint32_t lo, hi;

	__asm__ volatile("rdpmc" : "=a"(lo), "=d"(hi) : "c"(index - 1));
	return (uint64_t)hi << 32 | lo;
}

static inline uint64_t read_timestamp(void)
{
	uint32_t lo, hi;

	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return (uint64_t)hi << 32 | lo;
}
#define HAVE_USER_READ 1
#elif defined(__aarch64__)
/* index is the counter + 1; 32 is the cycle counter (the kernel's ARMV8_IDX_CYCLE_COUNTER + 1). */
static inline uint64_t read_counter(uint32_t index)
{
	uint64_t v;

	if (index == 32) {
		__asm__ volatile("mrs %0, pmccntr_el0" : "=r"(v));
	} else {
		__asm__ volatile("msr pmselr_el0, %1\n\tisb\n\tmrs %0, pmxevcntr_el0"
				 : "=r"(v)
				 : "r"((uint64_t)(index - 1)));
	}
	return v;
}

static inline uint64_t read_timestamp(void)
{
	uint64_t v;

	__asm__ volatile("isb\n\tmrs %0, cntvct_el0" : "=r"(v));
	return v;
}
#define HAVE_USER_READ 1
#else
#define HAVE_USER_READ 0
#endif

bool pms_userpage__arch_supported(void)
{
	return HAVE_USER_READ;
}

uint64_t pms_userpage__delta_ns(uint64_t cyc, uint64_t time_cycles, uint64_t time_mask,
				uint16_t time_shift, uint32_t time_mult, uint64_t time_offset)
{
	uint64_t quot, rem;

	cyc = time_cycles + ((cyc - time_cycles) & time_mask);
	if (time_shift >= 64)
		return time_offset;
	quot = cyc >> time_shift;
	rem = cyc & (((uint64_t)1 << time_shift) - 1);
	return time_offset + quot * time_mult + ((rem * time_mult) >> time_shift);
}

int64_t pms_userpage__sign_extend(uint64_t raw, uint16_t width)
{
	if (width == 0 || width >= 64)
		return (int64_t)raw;
	/* shift up then arithmetically down: the top bit of the width is the sign */
	return (int64_t)(raw << (64 - width)) >> (64 - width);
}

bool pms_userpage__capable(const volatile struct perf_event_mmap_page *page)
{
	/* before cap_bit0_is_deprecated (3.12) the rdpmc bit shared its place with the time bit */
	return HAVE_USER_READ && page && page->cap_bit0_is_deprecated && page->cap_user_rdpmc;
}

int pms_userpage__read(const volatile struct perf_event_mmap_page *page, struct pms_count *out,
		       uint32_t *index_out)
{
#if HAVE_USER_READ
	uint64_t cnt, ena, run, cyc = 0, time_offset = 0, time_cycles = 0, time_mask = ~(uint64_t)0;
	uint32_t seq, idx, time_mult = 0;
	uint16_t time_shift = 0;
	bool have_time;

	if (!pms_userpage__capable(page))
		return -EAGAIN;
	do {
		seq = page->lock;
		barrier();
		ena = page->time_enabled;
		run = page->time_running;
		have_time = page->cap_user_time;
		if (have_time) {
			cyc = read_timestamp();
			time_mult = page->time_mult;
			time_shift = page->time_shift;
			time_offset = page->time_offset;
			if (page->cap_user_time_short) {
				time_cycles = page->time_cycles;
				time_mask = page->time_mask;
			}
		}
		idx = page->index;
		cnt = page->offset;
		if (!page->cap_user_rdpmc || !idx) {
			if (index_out)
				*index_out = idx;
			return -EAGAIN;
		}
		cnt += (uint64_t)pms_userpage__sign_extend(read_counter(idx), page->pmc_width);
		barrier();
	} while (page->lock != seq);
	if (index_out)
		*index_out = idx;
	if (have_time) {
		uint64_t delta = pms_userpage__delta_ns(cyc, time_cycles, time_mask, time_shift, time_mult,
							time_offset);

		/* on a counter now (idx != 0), so running as long as enabled since the update */
		ena += delta;
		run += delta;
	} else if (ena != run) {
		return -EAGAIN;
	}
	out->val = cnt;
	out->ena = ena;
	out->run = run;
	return 0;
#else
	(void)page;
	(void)out;
	if (index_out)
		*index_out = 0;
	return -EAGAIN;
#endif
}
