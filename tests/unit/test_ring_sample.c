// SPDX-License-Identifier: MIT
// Unit tests of ring/sample: every sample_type bit, read formats, and rejection of truncated/oversized bodies.
#include <criterion/criterion.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ring/sample.h"
#include "ring_build.h"

#define ALL_BITS ((uint64_t)PERF_SAMPLE_MAX - 1)
#define RF_ALL (PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING | PERF_FORMAT_ID | \
		PERF_FORMAT_LOST)

static const uint64_t chain[] = { PERF_CONTEXT_KERNEL, 0xffffffff81000010ull, PERF_CONTEXT_USER, 0x401000 };

/* Emit the body for cfg with fixed, recognisable values. */
static void build(struct rb *b, const struct pms_decode_cfg *cfg)
{
	uint64_t st = cfg->sample_type, i;

	rb_begin(b, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER);
	if (st & PERF_SAMPLE_IDENTIFIER) rb_u64(b, 0x4444);
	if (st & PERF_SAMPLE_IP) rb_u64(b, 0x1111);
	if (st & PERF_SAMPLE_TID) { rb_u32(b, 100); rb_u32(b, 101); }
	if (st & PERF_SAMPLE_TIME) rb_u64(b, 0x2222);
	if (st & PERF_SAMPLE_ADDR) rb_u64(b, 0x3333);
	if (st & PERF_SAMPLE_ID) rb_u64(b, 0x4444);
	if (st & PERF_SAMPLE_STREAM_ID) rb_u64(b, 0x5555);
	if (st & PERF_SAMPLE_CPU) { rb_u32(b, 3); rb_u32(b, 0); }
	if (st & PERF_SAMPLE_PERIOD) rb_u64(b, 0x6666);
	if (st & PERF_SAMPLE_READ) {
		uint64_t rf = cfg->read_format;

		if (rf & PERF_FORMAT_GROUP) {
			rb_u64(b, 2);
			if (rf & PERF_FORMAT_TOTAL_TIME_ENABLED) rb_u64(b, 1000);
			if (rf & PERF_FORMAT_TOTAL_TIME_RUNNING) rb_u64(b, 900);
			for (i = 0; i < 2; i++) {
				rb_u64(b, 10 + i);
				if (rf & PERF_FORMAT_ID) rb_u64(b, 20 + i);
				if (rf & PERF_FORMAT_LOST) rb_u64(b, 30 + i);
			}
		} else {
			rb_u64(b, 10);
			if (rf & PERF_FORMAT_TOTAL_TIME_ENABLED) rb_u64(b, 1000);
			if (rf & PERF_FORMAT_TOTAL_TIME_RUNNING) rb_u64(b, 900);
			if (rf & PERF_FORMAT_ID) rb_u64(b, 20);
			if (rf & PERF_FORMAT_LOST) rb_u64(b, 30);
		}
	}
	if (st & PERF_SAMPLE_CALLCHAIN) {
		rb_u64(b, 4);
		rb_put(b, chain, sizeof(chain));
	}
	if (st & PERF_SAMPLE_RAW) {
		/* 4-byte size + 12 bytes keeps the kernel's u64 alignment. */
		rb_u32(b, 12);
		rb_put(b, "raw-payload!", 12);
	}
	if (st & PERF_SAMPLE_BRANCH_STACK) {
		rb_u64(b, 2);
		if (cfg->branch_sample_type & PERF_SAMPLE_BRANCH_HW_INDEX) rb_u64(b, 7);
		for (i = 0; i < 2; i++) { rb_u64(b, 0xa000 + i); rb_u64(b, 0xb000 + i); rb_u64(b, 0); }
		if (cfg->branch_sample_type & PERF_SAMPLE_BRANCH_COUNTERS) { rb_u64(b, 5); rb_u64(b, 6); }
	}
	if (st & PERF_SAMPLE_REGS_USER) {
		rb_u64(b, PERF_SAMPLE_REGS_ABI_64);
		for (i = 0; i < (uint64_t)__builtin_popcountll(cfg->sample_regs_user); i++) rb_u64(b, 0x100 + i);
	}
	if (st & PERF_SAMPLE_STACK_USER) {
		rb_u64(b, 16);
		rb_put(b, "0123456789abcdef", 16);
		rb_u64(b, 12);
	}
	if (st & (PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT)) rb_u64(b, 0x0003000200000001ull);
	if (st & PERF_SAMPLE_DATA_SRC) rb_u64(b, 0x77);
	if (st & PERF_SAMPLE_TRANSACTION) rb_u64(b, 0x88);
	if (st & PERF_SAMPLE_REGS_INTR) {
		rb_u64(b, PERF_SAMPLE_REGS_ABI_64);
		for (i = 0; i < (uint64_t)__builtin_popcountll(cfg->sample_regs_intr); i++) rb_u64(b, 0x200 + i);
	}
	if (st & PERF_SAMPLE_PHYS_ADDR) rb_u64(b, 0x99);
	if (st & PERF_SAMPLE_CGROUP) rb_u64(b, 0xaa);
	if (st & PERF_SAMPLE_DATA_PAGE_SIZE) rb_u64(b, 4096);
	if (st & PERF_SAMPLE_CODE_PAGE_SIZE) rb_u64(b, 2 << 20);
	if (st & PERF_SAMPLE_AUX) { rb_u64(b, 8); rb_put(b, "auxdata!", 8); }
	rb_end(b);
}

static void check(const struct pms_sample *s, const struct pms_decode_cfg *cfg)
{
	uint64_t st = cfg->sample_type, i;
	struct pms_read_value v;

	cr_assert_eq(s->present, st);
	cr_assert_eq(s->misc, PERF_RECORD_MISC_USER);
	cr_assert_eq(s->id, st & (PERF_SAMPLE_ID | PERF_SAMPLE_IDENTIFIER) ? 0x4444u : 0u);
	cr_assert_eq(s->ip, st & PERF_SAMPLE_IP ? 0x1111u : 0u);
	cr_assert_eq(s->pid, st & PERF_SAMPLE_TID ? 100u : 0u);
	cr_assert_eq(s->tid, st & PERF_SAMPLE_TID ? 101u : 0u);
	cr_assert_eq(s->time, st & PERF_SAMPLE_TIME ? 0x2222u : 0u);
	cr_assert_eq(s->addr, st & PERF_SAMPLE_ADDR ? 0x3333u : 0u);
	cr_assert_eq(s->stream_id, st & PERF_SAMPLE_STREAM_ID ? 0x5555u : 0u);
	cr_assert_eq(s->cpu, st & PERF_SAMPLE_CPU ? 3u : 0u);
	cr_assert_eq(s->period, st & PERF_SAMPLE_PERIOD ? 0x6666u : 0u);
	if (st & PERF_SAMPLE_READ) {
		uint64_t rf = cfg->read_format;
		uint64_t nr = rf & PERF_FORMAT_GROUP ? 2 : 1;

		cr_assert_eq(s->read.nr, nr);
		cr_assert_eq(s->read.time_enabled, rf & PERF_FORMAT_TOTAL_TIME_ENABLED ? 1000u : 0u);
		cr_assert_eq(s->read.time_running, rf & PERF_FORMAT_TOTAL_TIME_RUNNING ? 900u : 0u);
		for (i = 0; i < nr; i++) {
			cr_assert_eq(pms_read_values__get(&s->read, i, &v), 0);
			cr_assert_eq(v.value, 10 + i);
			cr_assert_eq(v.id, rf & PERF_FORMAT_ID ? 20 + i : 0);
			cr_assert_eq(v.lost, rf & PERF_FORMAT_LOST ? 30 + i : 0);
		}
		cr_assert_eq(pms_read_values__get(&s->read, nr, &v), -EINVAL);
	}
	if (st & PERF_SAMPLE_CALLCHAIN) {
		cr_assert_eq(s->callchain_nr, 4u);
		cr_assert(memcmp(s->callchain, chain, sizeof(chain)) == 0);
		cr_assert(pms_callchain__is_context(s->callchain[0]));
		cr_assert(!pms_callchain__is_context(s->callchain[1]));
	} else {
		cr_assert_null(s->callchain);
	}
	if (st & PERF_SAMPLE_RAW) {
		cr_assert_eq(s->raw_size, 12u);
		cr_assert(memcmp(s->raw, "raw-payload!", 12) == 0);
	}
	if (st & PERF_SAMPLE_BRANCH_STACK) {
		cr_assert_eq(s->branch_nr, 2u);
		cr_assert_eq(s->branch_has_hw_idx, !!(cfg->branch_sample_type & PERF_SAMPLE_BRANCH_HW_INDEX));
		cr_assert_eq(s->branch_hw_idx, s->branch_has_hw_idx ? 7u : 0u);
		cr_assert_eq(s->branches[1].from, 0xa001u);
		cr_assert_eq(s->branches[1].to, 0xb001u);
		if (cfg->branch_sample_type & PERF_SAMPLE_BRANCH_COUNTERS)
			cr_assert_eq(s->branch_counters[1], 6u);
		else
			cr_assert_null(s->branch_counters);
	}
	if (st & PERF_SAMPLE_REGS_USER) {
		cr_assert_eq(s->regs_user.abi, (uint64_t)PERF_SAMPLE_REGS_ABI_64);
		cr_assert_eq(s->regs_user.nr, (uint64_t)__builtin_popcountll(cfg->sample_regs_user));
		if (s->regs_user.nr)
			cr_assert_eq(s->regs_user.regs[s->regs_user.nr - 1], 0x100 + s->regs_user.nr - 1);
	}
	if (st & PERF_SAMPLE_STACK_USER) {
		cr_assert_eq(s->stack_user_size, 16u);
		cr_assert_eq(s->stack_user_dyn_size, 12u);
		cr_assert(memcmp(s->stack_user, "0123456789abcdef", 16) == 0);
	}
	if (st & PERF_SAMPLE_WEIGHT_STRUCT) {
		cr_assert_eq(s->weight_var1_dw, 1u);
		cr_assert_eq(s->weight_var2_w, 2u);
		cr_assert_eq(s->weight_var3_w, 3u);
		cr_assert_eq(s->weight, 1u);
	} else if (st & PERF_SAMPLE_WEIGHT) {
		cr_assert_eq(s->weight, 0x0003000200000001ull);
	}
	cr_assert_eq(s->data_src, st & PERF_SAMPLE_DATA_SRC ? 0x77u : 0u);
	cr_assert_eq(s->transaction, st & PERF_SAMPLE_TRANSACTION ? 0x88u : 0u);
	if (st & PERF_SAMPLE_REGS_INTR) {
		cr_assert_eq(s->regs_intr.nr, (uint64_t)__builtin_popcountll(cfg->sample_regs_intr));
		if (s->regs_intr.nr)
			cr_assert_eq(s->regs_intr.regs[0], 0x200u);
	}
	cr_assert_eq(s->phys_addr, st & PERF_SAMPLE_PHYS_ADDR ? 0x99u : 0u);
	cr_assert_eq(s->cgroup, st & PERF_SAMPLE_CGROUP ? 0xaau : 0u);
	cr_assert_eq(s->data_page_size, st & PERF_SAMPLE_DATA_PAGE_SIZE ? 4096u : 0u);
	cr_assert_eq(s->code_page_size, st & PERF_SAMPLE_CODE_PAGE_SIZE ? (2u << 20) : 0u);
	if (st & PERF_SAMPLE_AUX) {
		cr_assert_eq(s->aux_size, 8u);
		cr_assert(memcmp(s->aux, "auxdata!", 8) == 0);
	}
}

static struct pms_decode_cfg cfg_of(uint64_t st)
{
	struct pms_decode_cfg cfg = {
		.sample_type = st,
		.read_format = PERF_FORMAT_GROUP | RF_ALL,
		.branch_sample_type = PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_HW_INDEX,
		.sample_regs_user = 0xff0fful,
		.sample_regs_intr = 0x3,
	};
	return cfg;
}

static struct rb b;

Test(ring_sample, each_bit_alone)
{
	struct pms_sample s;
	size_t off = 99;
	unsigned bit;

	for (bit = 0; bit < 25; bit++) {
		struct pms_decode_cfg cfg = cfg_of(1ull << bit);

		build(&b, &cfg);
		cr_assert_eq(pms_sample__decode(&cfg, rb_bytes(&b), b.len, &s, &off), 0, "bit %u off %zu", bit, off);
		check(&s, &cfg);
	}
}

Test(ring_sample, all_bits_together)
{
	struct pms_decode_cfg cfg = cfg_of(ALL_BITS);
	struct pms_sample s;

	build(&b, &cfg);
	cr_assert_eq(pms_sample__decode(&cfg, rb_bytes(&b), b.len, &s, NULL), 0);
	check(&s, &cfg);
}

Test(ring_sample, random_combinations_and_read_formats)
{
	struct pms_sample s;
	unsigned i;

	srand(42);
	for (i = 0; i < 2000; i++) {
		uint64_t st = ((uint64_t)rand() << 16 ^ (uint64_t)rand()) & ALL_BITS;
		struct pms_decode_cfg cfg = cfg_of(st);

		cfg.read_format = (uint64_t)rand() & (PERF_FORMAT_GROUP | RF_ALL);
		cfg.branch_sample_type = (uint64_t)rand() & (PERF_SAMPLE_BRANCH_HW_INDEX | PERF_SAMPLE_BRANCH_COUNTERS);
		cfg.sample_regs_user = (uint64_t)rand();
		build(&b, &cfg);
		cr_assert_eq(pms_sample__decode(&cfg, rb_bytes(&b), b.len, &s, NULL), 0, "st %#lx", (unsigned long)st);
		check(&s, &cfg);
	}
}

Test(ring_sample, every_truncation_rejected)
{
	struct pms_decode_cfg cfg = cfg_of(ALL_BITS);
	struct pms_sample s;
	size_t full, len, off;

	build(&b, &cfg);
	full = b.len;
	for (len = 0; len < full; len++) {
		/* Short header.size: the body runs out. */
		uint16_t sz = (uint16_t)len;

		memcpy(rb_bytes(&b) + 6, &sz, 2);
		off = 12345;
		cr_assert_eq(pms_sample__decode(&cfg, rb_bytes(&b), full, &s, &off), -EINVAL, "size %zu", len);
		cr_assert_leq(off, full);
		cr_assert_eq(s.callchain, NULL);
		/* Short buffer: header.size claims more than there is. */
		rb_end(&b);
		cr_assert_eq(pms_sample__decode(&cfg, rb_bytes(&b), len, &s, &off), -EINVAL);
	}
}

Test(ring_sample, oversized_rejected_at_leftover)
{
	struct pms_decode_cfg cfg = cfg_of(PERF_SAMPLE_IP | PERF_SAMPLE_TID);
	struct pms_sample s;
	size_t off = 0;

	build(&b, &cfg);
	rb_u64(&b, 0);
	rb_end(&b);
	cr_assert_eq(pms_sample__decode(&cfg, rb_bytes(&b), b.len, &s, &off), -EINVAL);
	cr_assert_eq(off, 24u);
}

Test(ring_sample, huge_counts_do_not_overflow)
{
	struct pms_decode_cfg cfg = { .sample_type = PERF_SAMPLE_CALLCHAIN };
	uint64_t nrs[] = { 1ull << 61, (1ull << 61) + 1, UINT64_MAX, UINT64_MAX / 8 + 1, 2 };
	struct pms_sample s;
	size_t off, i;

	for (i = 0; i < sizeof(nrs) / sizeof(nrs[0]); i++) {
		rb_begin(&b, PERF_RECORD_SAMPLE, 0);
		rb_u64(&b, nrs[i]);
		rb_u64(&b, 1);
		rb_end(&b);
		cr_assert_eq(pms_sample__decode(&cfg, rb_bytes(&b), b.len, &s, &off), -EINVAL);
		cr_assert_eq(off, 16u);
	}
	cfg.sample_type = PERF_SAMPLE_BRANCH_STACK;
	rb_begin(&b, PERF_RECORD_SAMPLE, 0);
	rb_u64(&b, UINT64_MAX / 3 + 1);
	rb_end(&b);
	cr_assert_eq(pms_sample__decode(&cfg, rb_bytes(&b), b.len, &s, &off), -EINVAL);
	cfg.sample_type = PERF_SAMPLE_READ;
	cfg.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID;
	rb_begin(&b, PERF_RECORD_SAMPLE, 0);
	rb_u64(&b, UINT64_MAX / 2 + 1);
	rb_u64(&b, 1);
	rb_u64(&b, 2);
	rb_end(&b);
	cr_assert_eq(pms_sample__decode(&cfg, rb_bytes(&b), b.len, &s, &off), -EINVAL);
	cfg.sample_type = PERF_SAMPLE_AUX;
	rb_begin(&b, PERF_RECORD_SAMPLE, 0);
	rb_u64(&b, UINT64_MAX - 4);
	rb_end(&b);
	cr_assert_eq(pms_sample__decode(&cfg, rb_bytes(&b), b.len, &s, &off), -EINVAL);
	cr_assert_eq(off, 16u);
}

Test(ring_sample, regs_abi_none_and_empty_user_stack)
{
	struct pms_decode_cfg cfg = { .sample_type = PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER | PERF_SAMPLE_PERIOD,
				      .sample_regs_user = 0xff };
	struct pms_sample s;

	/* A kernel thread: no user regs, stack size 0 and then no dyn_size. */
	rb_begin(&b, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_KERNEL);
	rb_u64(&b, 1234);
	rb_u64(&b, PERF_SAMPLE_REGS_ABI_NONE);
	rb_u64(&b, 0);
	rb_end(&b);
	cr_assert_eq(pms_sample__decode(&cfg, rb_bytes(&b), b.len, &s, NULL), 0);
	cr_assert_eq(s.regs_user.nr, 0u);
	cr_assert_null(s.regs_user.regs);
	cr_assert_eq(s.stack_user_size, 0u);
	cr_assert_null(s.stack_user);
	cr_assert_eq(s.period, 1234u);
}

Test(ring_sample, bad_values_rejected)
{
	struct pms_decode_cfg cfg = { .sample_type = PERF_SAMPLE_STACK_USER };
	struct pms_sample s;
	size_t off;

	/* dyn_size larger than the copied stack. */
	rb_begin(&b, PERF_RECORD_SAMPLE, 0);
	rb_u64(&b, 8);
	rb_u64(&b, 0);
	rb_u64(&b, 9);
	rb_end(&b);
	cr_assert_eq(pms_sample__decode(&cfg, rb_bytes(&b), b.len, &s, &off), -EINVAL);
	cr_assert_eq(off, 24u);
	/* Unknown regs ABI. */
	cfg.sample_type = PERF_SAMPLE_REGS_USER;
	rb_begin(&b, PERF_RECORD_SAMPLE, 0);
	rb_u64(&b, 3);
	rb_end(&b);
	cr_assert_eq(pms_sample__decode(&cfg, rb_bytes(&b), b.len, &s, &off), -EINVAL);
	cr_assert_eq(off, 8u);
	/* Unknown sample_type bit and read_format bit. */
	cfg.sample_type = PERF_SAMPLE_MAX;
	cr_assert_eq(pms_sample__decode(&cfg, rb_bytes(&b), b.len, &s, &off), -EINVAL);
	cfg.sample_type = PERF_SAMPLE_READ;
	cfg.read_format = PERF_FORMAT_MAX;
	rb_begin(&b, PERF_RECORD_SAMPLE, 0);
	rb_u64(&b, 1);
	rb_end(&b);
	cr_assert_eq(pms_sample__decode(&cfg, rb_bytes(&b), b.len, &s, &off), -EINVAL);
	/* Not a sample, or misaligned. */
	cfg.sample_type = 0;
	rb_begin(&b, PERF_RECORD_MMAP, 0);
	rb_end(&b);
	cr_assert_eq(pms_sample__decode(&cfg, rb_bytes(&b), b.len, &s, &off), -EINVAL);
	rb_begin(&b, PERF_RECORD_SAMPLE, 0);
	rb_end(&b);
	cr_assert_eq(pms_sample__decode(&cfg, rb_bytes(&b), b.len, &s, &off), 0);
	cr_assert_eq(pms_sample__decode(&cfg, rb_bytes(&b) + 4, b.len, &s, &off), -EINVAL);
}

Test(ring_sample, raw_that_breaks_alignment_before_an_array)
{
	struct pms_decode_cfg cfg = { .sample_type = PERF_SAMPLE_RAW | PERF_SAMPLE_BRANCH_STACK };
	struct pms_sample s;
	size_t off;

	rb_begin(&b, PERF_RECORD_SAMPLE, 0);
	rb_u32(&b, 8);          /* 4 + 8 = 12: the next u64 array is misaligned */
	rb_u64(&b, 0);
	rb_u64(&b, 1);          /* branch nr 1, then 24 bytes at offset 28 */
	rb_u64(&b, 0);
	rb_u64(&b, 0);
	rb_u64(&b, 0);
	rb_u32(&b, 0);
	rb_end(&b);
	cr_assert_eq(pms_sample__decode(&cfg, rb_bytes(&b), b.len, &s, &off), -EINVAL);
	cr_assert_eq(off, 28u);
	/* Scalars after a misaligned RAW are fine (read with memcpy). */
	cfg.sample_type = PERF_SAMPLE_RAW | PERF_SAMPLE_PHYS_ADDR;
	rb_begin(&b, PERF_RECORD_SAMPLE, 0);
	rb_u32(&b, 8);
	rb_u64(&b, 0x0102030405060708ull);
	rb_u64(&b, 0x99);
	rb_u32(&b, 0);
	rb_end(&b);
	b.len -= 4;
	rb_end(&b);
	cr_assert_eq(pms_sample__decode(&cfg, rb_bytes(&b), b.len, &s, &off), 0);
	cr_assert_eq(s.phys_addr, 0x99u);
}

Test(ring_sample, non_group_read_and_decode_helper)
{
	uint64_t buf[5] = { 10, 1000, 900, 20, 30 };
	struct pms_read_values rv;
	struct pms_read_value v;
	size_t used;

	cr_assert_eq(pms_read_values__decode(&rv, RF_ALL, buf, sizeof(buf), &used), 0);
	cr_assert_eq(used, sizeof(buf));
	cr_assert_eq(rv.nr, 1u);
	cr_assert_eq(rv.time_enabled, 1000u);
	cr_assert_eq(pms_read_values__get(&rv, 0, &v), 0);
	cr_assert_eq(v.value, 10u);
	cr_assert_eq(v.id, 20u);
	cr_assert_eq(v.lost, 30u);
	cr_assert_eq(pms_read_values__decode(&rv, RF_ALL, buf, sizeof(buf) - 1, &used), -EINVAL);
	cr_assert_eq(used, 32u);
}

Test(ring_sample, cfg_from_attr_and_sample_id_size)
{
	struct perf_event_attr attr = { .sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME, .read_format = 3,
					.sample_id_all = 1, .sample_regs_user = 5 };
	struct pms_decode_cfg cfg;

	pms_decode_cfg__from_attr(&cfg, &attr);
	cr_assert_eq(cfg.sample_type, attr.sample_type);
	cr_assert_eq(cfg.read_format, 3u);
	cr_assert(cfg.sample_id_all);
	cr_assert_eq(cfg.sample_regs_user, 5u);
	cr_assert_eq(pms_sample_id__size(ALL_BITS), 48u);
	cr_assert_eq(pms_sample_id__size(PERF_SAMPLE_IP | PERF_SAMPLE_CALLCHAIN), 0u);
}

/* The ordering queue's read of a record's time agrees with the full decode,
 * and says "none" where there is none or the record is too short for it. */
Test(ring_sample, record_time_without_decoding)
{
	static const uint64_t types[] = {
		PERF_SAMPLE_TIME,
		PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU,
		ALL_BITS,
	};
	uint64_t t;

	for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
		struct pms_decode_cfg cfg = cfg_of(types[i]);
		struct pms_sample s;
		size_t off;
		struct perf_event_header *h;

		build(&b, &cfg);
		cr_assert_eq(pms_sample__decode(&cfg, rb_bytes(&b), b.len, &s, &off), 0);
		cr_assert(pms_record__time(&cfg, (const void *)rb_bytes(&b), &t), "type %#llx",
			  (unsigned long long)types[i]);
		cr_expect_eq(t, s.time);
		h = (void *)rb_bytes(&b);
		h->size = (uint16_t)(sizeof(*h) + 4); /* cut before the time */
		cr_expect_not(pms_record__time(&cfg, h, &t));
	}
	/* no TIME in sample_type: none, whatever the record */
	{
		struct pms_decode_cfg cfg = cfg_of(PERF_SAMPLE_IP);

		build(&b, &cfg);
		cr_expect_not(pms_record__time(&cfg, (const void *)rb_bytes(&b), &t));
	}
	/* a COMM with the sample_id trailer TID, TIME, CPU */
	{
		struct pms_decode_cfg cfg = cfg_of(PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU);

		cfg.sample_id_all = true;
		rb_begin(&b, PERF_RECORD_COMM, 0);
		rb_u32(&b, 7);
		rb_u32(&b, 7);
		rb_str(&b, "x");
		rb_pad8(&b);
		rb_u32(&b, 7);
		rb_u32(&b, 7);
		rb_u64(&b, 0xabcdef);
		rb_u32(&b, 1);
		rb_u32(&b, 0);
		rb_end(&b);
		cr_assert(pms_record__time(&cfg, (const void *)rb_bytes(&b), &t));
		cr_expect_eq(t, 0xabcdef);
		cfg.sample_id_all = false; /* no trailer then */
		cr_expect_not(pms_record__time(&cfg, (const void *)rb_bytes(&b), &t));
		cfg.sample_id_all = true;
		((struct perf_event_header *)(void *)rb_bytes(&b))->type = PERF_RECORD_MAX + 3;
		cr_expect_not(pms_record__time(&cfg, (const void *)rb_bytes(&b), &t), "unknown types carry no trailer we know");
	}
}
