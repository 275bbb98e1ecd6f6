// SPDX-License-Identifier: MIT
// PERF_SAMPLE_DATA_SRC as perf 6.1's mem-events.c prints it (tables and rules in data_src.h).
#include <linux/perf_event.h>
#include <stdio.h>
#include <string.h>

#include "ring/data_src.h"

/* union perf_mem_data_src, little-endian bit fields (linux/perf_event.h) */
#define FIELD(v, shift, bits) (((v) >> (shift)) & ((1ULL << (bits)) - 1))
#define DS_OP(v) FIELD(v, PERF_MEM_OP_SHIFT, 5)
#define DS_LVL(v) FIELD(v, PERF_MEM_LVL_SHIFT, 14)
#define DS_SNOOP(v) FIELD(v, PERF_MEM_SNOOP_SHIFT, 5)
#define DS_LOCK(v) FIELD(v, PERF_MEM_LOCK_SHIFT, 2)
#define DS_DTLB(v) FIELD(v, PERF_MEM_TLB_SHIFT, 7)
#define DS_LVLNUM(v) FIELD(v, PERF_MEM_LVLNUM_SHIFT, 4)
#define DS_REMOTE(v) FIELD(v, PERF_MEM_REMOTE_SHIFT, 1)
#define DS_SNOOPX(v) FIELD(v, PERF_MEM_SNOOPX_SHIFT, 2)
#define DS_BLK(v) FIELD(v, PERF_MEM_BLK_SHIFT, 3)
#define DS_HOPS(v) FIELD(v, PERF_MEM_HOPS_SHIFT, 3)

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

/* perf 6.1's tables, index = bit number of the field (mem_lvlnum: the value) */
static const char *const tlb_access[] = { "N/A", "HIT", "MISS", "L1", "L2", "Walker", "Fault" };
static const char *const mem_lvl[] = {
	"N/A", "HIT", "MISS", "L1", "LFB/MAB", "L2", "L3", "Local RAM", "Remote RAM (1 hop)",
	"Remote RAM (2 hops)", "Remote Cache (1 hop)", "Remote Cache (2 hops)", "I/O", "Uncached",
};
/* 6.1 has no name for 8 (PERF_MEM_LVLNUM_UNC came later): it prints "L8" */
static const char *const mem_lvlnum[16] = {
	[0x09] = "CXL", [0x0a] = "I/O", [0x0b] = "Any cache", [0x0c] = "LFB/MAB",
	[0x0d] = "RAM", [0x0e] = "PMEM", [0x0f] = "N/A",
};
/* "Remote " goes before these (the remote bit is set with the hops) */
static const char *const mem_hops[] = {
	"N/A", "core, same node", "node, same socket", "socket, same board", "board",
};
static const char *const snoop_access[] = { "N/A", "None", "Hit", "Miss", "HitM" };
static const char *const snoopx_access[] = { "Fwd", "Peer" };

/* Text appended to a caller's buffer, snprintf-style: len counts everything, buf keeps what fits. */
struct out {
	char *buf;
	size_t size;
	size_t len;
};

static void put(struct out *o, const char *s)
{
	size_t n = strlen(s);

	if (o->len < o->size) {
		size_t room = o->size - 1 - o->len;

		memcpy(o->buf + o->len, s, n < room ? n : room);
		o->buf[o->len + (n < room ? n : room)] = '\0';
	}
	o->len += n;
}

static struct out out_init(char *buf, size_t size)
{
	if (size)
		buf[0] = '\0';
	return (struct out){ .buf = buf, .size = size };
}

/* perf joins the names of set bits with " or "; *printed counts names
 * already written in this field, so joins span several tables. */
static void put_bit_names(struct out *o, uint64_t bits, const char *const *names,
			  size_t nr_names, int *printed)
{
	for (size_t i = 0; bits && i < nr_names; i++, bits >>= 1) {
		if (!(bits & 1))
			continue;
		if ((*printed)++)
			put(o, " or ");
		put(o, names[i]);
	}
}

/* The end of perf's level and TLB fields: "N/A" when nothing was named,
 * then the hit/miss bits. */
static void put_na_hit_miss(struct out *o, size_t start, uint64_t hit, uint64_t miss)
{
	if (o->len == start)
		put(o, "N/A");
	if (hit)
		put(o, " hit");
	if (miss)
		put(o, " miss");
}

static void op(struct out *o, uint64_t v)
{
	uint64_t m = DS_OP(v);

	put(o, m & PERF_MEM_OP_NA ? "N/A" : m & PERF_MEM_OP_LOAD ? "LOAD" : m & PERF_MEM_OP_STORE ? "STORE" :
	       m & PERF_MEM_OP_PFETCH ? "PFETCH" : m & PERF_MEM_OP_EXEC ? "EXEC" : "No");
}

/*
 * 6.1's perf_mem__lvl_scnprintf(): "Remote " for the remote bit; the hop
 * name when hops are set, else every mem_lvl bit but HIT/MISS joined by
 * " or "; then the mem_lvl_num name, joined by " or " to a mem_lvl name
 * (not to a hop name); "N/A" when nothing was written; " hit", " miss".
 */
static void lvl(struct out *o, uint64_t v)
{
	uint64_t m = DS_LVL(v);
	uint64_t hit = m & PERF_MEM_LVL_HIT, miss = m & PERF_MEM_LVL_MISS;
	size_t start = o->len;
	int printed = 0;

	m &= ~(uint64_t)(PERF_MEM_LVL_HIT | PERF_MEM_LVL_MISS);
	if (DS_REMOTE(v))
		put(o, "Remote ");
	if (DS_HOPS(v)) {
		uint64_t h = DS_HOPS(v);

		put(o, h < ARRAY_LEN(mem_hops) ? mem_hops[h] : "N/A");
		put(o, " ");
	} else {
		put_bit_names(o, m, mem_lvl, ARRAY_LEN(mem_lvl), &printed);
	}
	if (DS_LVLNUM(v)) {
		uint64_t n = DS_LVLNUM(v);

		if (printed++)
			put(o, " or ");
		if (mem_lvlnum[n]) {
			put(o, mem_lvlnum[n]);
		} else {
			char num[24];

			snprintf(num, sizeof(num), "L%u", (unsigned)n);
			put(o, num);
		}
	}
	put_na_hit_miss(o, start, hit, miss);
}

static void snoop(struct out *o, uint64_t v)
{
	size_t start = o->len;
	int printed = 0;

	put_bit_names(o, DS_SNOOP(v), snoop_access, ARRAY_LEN(snoop_access), &printed);
	put_bit_names(o, DS_SNOOPX(v), snoopx_access, ARRAY_LEN(snoopx_access), &printed);
	if (o->len == start)
		put(o, "N/A");
}

static void tlb(struct out *o, uint64_t v)
{
	uint64_t m = DS_DTLB(v);
	uint64_t hit = m & PERF_MEM_TLB_HIT, miss = m & PERF_MEM_TLB_MISS;
	size_t start = o->len;
	int printed = 0;

	m &= ~(uint64_t)(PERF_MEM_TLB_HIT | PERF_MEM_TLB_MISS);
	put_bit_names(o, m, tlb_access, ARRAY_LEN(tlb_access), &printed);
	put_na_hit_miss(o, start, hit, miss);
}

static void lock(struct out *o, uint64_t v)
{
	uint64_t m = DS_LOCK(v);

	put(o, m & PERF_MEM_LOCK_NA ? "N/A" : m & PERF_MEM_LOCK_LOCKED ? "Yes" : "No");
}

static void blk(struct out *o, uint64_t v)
{
	uint64_t m = DS_BLK(v);

	if (!m || (m & PERF_MEM_BLK_NA)) {
		put(o, " N/A");
		return;
	}
	if (m & PERF_MEM_BLK_DATA)
		put(o, " Data");
	if (m & PERF_MEM_BLK_ADDR)
		put(o, " Addr");
}

#define ONE(fn)                                                    \
	size_t pms_data_src__##fn(uint64_t data_src, char *buf, size_t size) \
	{                                                          \
		struct out o = out_init(buf, size);                \
                                                                   \
		fn(&o, data_src);                                  \
		return o.len;                                      \
	}

ONE(op)
ONE(lvl)
ONE(snoop)
ONE(tlb)
ONE(lock)
ONE(blk)

size_t pms_data_src__describe(uint64_t data_src, char *buf, size_t size)
{
	struct out o = out_init(buf, size);

	put(&o, "|OP ");
	op(&o, data_src);
	put(&o, "|LVL ");
	lvl(&o, data_src);
	put(&o, "|SNP ");
	snoop(&o, data_src);
	put(&o, "|TLB ");
	tlb(&o, data_src);
	put(&o, "|LCK ");
	lock(&o, data_src);
	put(&o, "|BLK ");
	blk(&o, data_src);
	return o.len;
}
