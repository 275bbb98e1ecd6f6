/* SPDX-License-Identifier: MIT */
/*
 * Reading a self-monitoring counter through its perf_event_mmap_page,
 * without a system call (the protocol documented in linux/perf_event.h).
 *
 * Invariants:
 *  - the page is consistent only between two equal reads of `lock`; every
 *    field is read inside that loop, and a change restarts it;
 *  - the raw register is sign-extended by pmc_width before `offset` is
 *    added (48-bit x86 counters, 32-bit arm64 counters with UNKNOWN upper
 *    bits), so a counter that wrapped since the kernel's last update still
 *    gives the right sum;
 *  - index == 0 or !cap_user_rdpmc means the count is not readable here
 *    (multiplexed out, a software event, user access denied): -EAGAIN, and
 *    the caller reads the fd instead; times that cannot be extrapolated
 *    (no cap_user_time) while enabled != running also give -EAGAIN, since
 *    the scaling would use stale times;
 *  - valid only for an event of the calling thread (the register holds the
 *    count of whatever runs on this CPU).
 */
#ifndef PMS_PERF_EVENT_USERPAGE_H
#define PMS_PERF_EVENT_USERPAGE_H

#include <linux/perf_event.h>
#include <stdbool.h>
#include <stdint.h>

#include "perf_event/counter.h"

/* This architecture has a user-page read path compiled in (x86-64, arm64). */
bool pms_userpage__arch_supported(void);

/*
 * The page's time conversion: timestamp-counter cycles to nanoseconds past
 * the kernel's last update, as the uapi comment gives it (cycles masked by
 * time_mask when cap_user_time_short, quotient/remainder so the product
 * cannot overflow).
 */
uint64_t pms_userpage__delta_ns(uint64_t cyc, uint64_t time_cycles, uint64_t time_mask,
				uint16_t time_shift, uint32_t time_mult, uint64_t time_offset);

/* raw as a pmc_width-bit two's complement number (width 0 or >= 64: raw). */
int64_t pms_userpage__sign_extend(uint64_t raw, uint16_t width);

/*
 * Read the event behind `page` into *out (val, ena, run). 0, or -EAGAIN
 * when the page cannot give the count now (see the invariants). *index_out
 * (optional) receives the page's index of the last attempt.
 */
int pms_userpage__read(const volatile struct perf_event_mmap_page *page, struct pms_count *out,
		       uint32_t *index_out);

/* The page grants user reads of its counter (cap_bit0_is_deprecated and cap_user_rdpmc). */
bool pms_userpage__capable(const volatile struct perf_event_mmap_page *page);

#endif
