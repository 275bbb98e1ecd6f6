// SPDX-License-Identifier: MIT
// libFuzzer target: records through pms_record__decode()/pms_sample__decode() and a synthetic ring.
/*
 * Input: a 32-byte config block then the record bytes.
 *   [0..8)   sample_type (masked to known bits unless flags bit 0)
 *   [8]      read_format
 *   [9]      bit 0: branch HW_INDEX, bit 1: branch COUNTERS
 *   [10]     bit 0: sample_id_all
 *   [11]     flags: bit 0 keep unknown sample_type bits
 *   [12..20) sample_regs_user   [20..28) sample_regs_intr
 *   [28]     where in the synthetic ring the bytes start   [29..32) unused
 * The record is copied to an exactly-sized aligned heap buffer so that ASan
 * sees any read past it; every decoded pointer is then touched over its
 * claimed length.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ring/record.h"
#include "ring/ring.h"
#include "ring/stats.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static volatile uint64_t sink;

static void touch(const void *p, uint64_t len)
{
	const unsigned char *b = p;
	uint64_t i, s = 0;

	if (!len)
		return;
	for (i = 0; i < len; i += 61)
		s += b[i];
	s += b[len - 1];
	sink += s;
}

static void touch_record(const struct pms_record *r)
{
	const struct pms_sample *s = &r->sample;
	struct pms_read_value v;
	uint64_t i;

	switch (r->type) {
	case PERF_RECORD_SAMPLE:
		touch(s->callchain, s->callchain_nr * 8);
		touch(s->raw, s->raw_size);
		touch(s->branches, s->branch_nr * sizeof(*s->branches));
		if (s->branch_counters)
			touch(s->branch_counters, s->branch_nr * 8);
		touch(s->regs_user.regs, s->regs_user.nr * 8);
		touch(s->regs_intr.regs, s->regs_intr.nr * 8);
		touch(s->stack_user, s->stack_user ? s->stack_user_size : 0);
		touch(s->aux, s->aux ? s->aux_size : 0);
		for (i = 0; i < s->read.nr; i++)
			if (pms_read_values__get(&s->read, i, &v) == 0)
				sink += v.value + v.id + v.lost;
		break;
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		sink += strlen(r->mmap.filename);
		if (r->mmap.build_id)
			touch(r->mmap.build_id, 20);
		break;
	case PERF_RECORD_COMM:
		sink += strlen(r->comm.comm);
		break;
	case PERF_RECORD_KSYMBOL:
		sink += strlen(r->ksymbol.name);
		break;
	case PERF_RECORD_CGROUP:
		sink += strlen(r->cgroup.path);
		break;
	case PERF_RECORD_NAMESPACES:
		touch(r->namespaces.links, r->namespaces.nr * sizeof(*r->namespaces.links));
		break;
	case PERF_RECORD_TEXT_POKE:
		touch(r->text_poke.bytes, (uint64_t)r->text_poke.old_len + r->text_poke.new_len);
		break;
	case PERF_RECORD_BPF_EVENT:
		touch(r->bpf.tag, 8);
		break;
	case PERF_RECORD_READ:
		for (i = 0; i < r->read.values.nr; i++)
			if (pms_read_values__get(&r->read.values, i, &v) == 0)
				sink += v.value;
		break;
	default:
		break;
	}
}

struct ring_ctx {
	const struct pms_decode_cfg *cfg;
	struct pms_ring_stats *st;
};

static int on_record(const struct perf_event_header *h, void *arg)
{
	struct ring_ctx *ctx = arg;
	struct pms_record r;
	size_t off;

	if (pms_record__decode(ctx->cfg, h, h->size, &r, &off) == 0) {
		touch_record(&r);
		pms_ring_stats__account(ctx->st, &r);
	} else if (off > h->size) {
		abort();
	}
	return 0;
}

/*
 * The synthetic ring: a metadata page then exactly ring_size data bytes, so
 * ASan still sees a read past the ring. One buffer per size for the whole
 * run (an aligned allocation per input was a quarter of the time), zeroed per
 * input so that nothing of an earlier input is left in it.
 */
static unsigned char *ring_mem(size_t ring_size)
{
	static unsigned char *rings[64];
	unsigned int lg = (unsigned int)__builtin_ctzll(ring_size);

	if (!rings[lg] && posix_memalign((void **)&rings[lg], 4096, 4096 + ring_size))
		rings[lg] = NULL;
	if (rings[lg])
		memset(rings[lg], 0, 4096 + ring_size);
	return rings[lg];
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pms_decode_cfg cfg = { 0 };
	struct pms_ring_stats st = { 0 };
	struct ring_ctx ctx = { &cfg, &st };
	struct pms_record r;
	struct pms_ring ring;
	size_t len, off = 0, ring_size = 8;
	unsigned char *rec, *mem;
	uint8_t flags, rot;

	if (size < 32)
		return 0;
	memcpy(&cfg.sample_type, data, 8);
	flags = data[11];
	rot = data[28];
	if (!(flags & 1))
		cfg.sample_type &= (uint64_t)PERF_SAMPLE_MAX - 1;
	cfg.read_format = data[8];
	if (data[9] & 1)
		cfg.branch_sample_type |= PERF_SAMPLE_BRANCH_HW_INDEX;
	if (data[9] & 2)
		cfg.branch_sample_type |= PERF_SAMPLE_BRANCH_COUNTERS;
	cfg.sample_id_all = data[10] & 1;
	memcpy(&cfg.sample_regs_user, data + 12, 8);
	memcpy(&cfg.sample_regs_intr, data + 20, 8);
	data += 32;
	len = size - 32;

	/* One record, exactly sized: decoders must not look past len. */
	/* malloc is 16-byte aligned; exactly len bytes so ASan sees any overread. */
	rec = malloc(len ? len : 1);
	if (!rec)
		return 0;
	memcpy(rec, data, len);
	{
		uint64_t id;

		if (pms_record__peek_id(rec, len, cfg.sample_id_all, &id) == 0)
			sink += id;
	}
	if (pms_record__decode(&cfg, rec, len, &r, &off) == 0)
		touch_record(&r);
	else if (off > len)
		abort();
	if (len >= 8) {
		struct pms_sample s;

		if (pms_sample__decode(&cfg, rec, len, &s, &off) == 0)
			touch_record(&(struct pms_record){ .type = PERF_RECORD_SAMPLE, .sample = s });
	}
	free(rec);

	/* The same bytes as ring contents starting mid-ring, so records wrap. */
	while (ring_size < len || ring_size < 64)
		ring_size <<= 1;
	mem = ring_mem(ring_size);
	if (!mem)
		return 0;
	{
		struct perf_event_mmap_page *meta = (void *)mem;
		uint64_t start = ring_size - 8 * (rot % (ring_size / 8));
		size_t i;

		for (i = 0; i < len; i++)
			mem[4096 + ((start + i) & (ring_size - 1))] = data[i];
		meta->data_tail = start;
		meta->data_head = start + (len & ~(size_t)7);
		if (pms_ring__init(&ring, mem, 4096, ring_size) == 0) {
			pms_ring__drain(&ring, on_record, &ctx);
			/* The same bytes as an overwrite ring whose newest record is at start. */
			meta->data_head = start;
			pms_ring__read_backward(&ring, on_record, &ctx);
			pms_ring__exit(&ring);
		}
	}
	pms_ring_stats__exit(&st);
	return 0;
}
