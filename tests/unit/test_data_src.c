// SPDX-License-Identifier: MIT
// Unit tests of lib/ring/data_src: PERF_SAMPLE_DATA_SRC decoded into the text perf 6.1 prints, table by table.
#include <criterion/criterion.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <string.h>

#include "ring/data_src.h"

/* union perf_mem_data_src from its fields */
static uint64_t ds(uint64_t op, uint64_t lvl, uint64_t snoop, uint64_t lock, uint64_t dtlb)
{
	return op << PERF_MEM_OP_SHIFT | lvl << PERF_MEM_LVL_SHIFT | snoop << PERF_MEM_SNOOP_SHIFT |
	       lock << PERF_MEM_LOCK_SHIFT | dtlb << PERF_MEM_TLB_SHIFT;
}

#define LVLNUM(n) ((uint64_t)(n) << PERF_MEM_LVLNUM_SHIFT)
#define REMOTE ((uint64_t)1 << PERF_MEM_REMOTE_SHIFT)
#define SNOOPX(n) ((uint64_t)(n) << PERF_MEM_SNOOPX_SHIFT)
#define BLK(n) ((uint64_t)(n) << PERF_MEM_BLK_SHIFT)
#define HOPS(n) ((uint64_t)(n) << PERF_MEM_HOPS_SHIFT)

typedef size_t (*field_fn)(uint64_t, char *, size_t);

static void expect(field_fn fn, uint64_t v, const char *want)
{
	char buf[256];
	size_t n = fn(v, buf, sizeof(buf));

	cr_expect_str_eq(buf, want, "data_src %#llx", (unsigned long long)v);
	cr_expect_eq(n, strlen(want));
}

/*
 * `perf script` 6.1 on tests/cli/cases/script_mem_fixture.py --all (every
 * entry of every table, alone and combined; lines perf cuts at 99 bytes
 * left out): the value and the text after it, as perf printed them.
 */
static const struct {
	uint64_t data_src;
	const char *text;
} perf_61[] = {
	{ 0x10029100140ULL, "|OP No|LVL L1 hit|SNP None|TLB L1 hit|LCK N/A|BLK  N/A" },
	{ 0x10029100141ULL, "|OP N/A|LVL L1 hit|SNP None|TLB L1 hit|LCK N/A|BLK  N/A" },
	{ 0x10029100142ULL, "|OP LOAD|LVL L1 hit|SNP None|TLB L1 hit|LCK N/A|BLK  N/A" },
	{ 0x10029100144ULL, "|OP STORE|LVL L1 hit|SNP None|TLB L1 hit|LCK N/A|BLK  N/A" },
	{ 0x10029100148ULL, "|OP PFETCH|LVL L1 hit|SNP None|TLB L1 hit|LCK N/A|BLK  N/A" },
	{ 0x10029100150ULL, "|OP EXEC|LVL L1 hit|SNP None|TLB L1 hit|LCK N/A|BLK  N/A" },
	{ 0x10029100143ULL, "|OP N/A|LVL L1 hit|SNP None|TLB L1 hit|LCK N/A|BLK  N/A" },
	{ 0x10029100146ULL, "|OP LOAD|LVL L1 hit|SNP None|TLB L1 hit|LCK N/A|BLK  N/A" },
	{ 0x1002910014cULL, "|OP STORE|LVL L1 hit|SNP None|TLB L1 hit|LCK N/A|BLK  N/A" },
	{ 0x10029100158ULL, "|OP PFETCH|LVL L1 hit|SNP None|TLB L1 hit|LCK N/A|BLK  N/A" },
	{ 0x1002910015fULL, "|OP N/A|LVL L1 hit|SNP None|TLB L1 hit|LCK N/A|BLK  N/A" },
	{ 0x10029100022ULL, "|OP LOAD|LVL N/A|SNP None|TLB L1 hit|LCK N/A|BLK  N/A" },
	{ 0x10029100062ULL, "|OP LOAD|LVL N/A hit|SNP None|TLB L1 hit|LCK N/A|BLK  N/A" },
	{ 0x100291000a2ULL, "|OP LOAD|LVL N/A miss|SNP None|TLB L1 hit|LCK N/A|BLK  N/A" },
	{ 0x10029100042ULL, "|OP LOAD|LVL N/A hit|SNP None|TLB L1 hit|LCK N/A|BLK  N/A" },
	{ 0x100291000c2ULL, "|OP LOAD|LVL N/A hit miss|SNP None|TLB L1 hit|LCK N/A|BLK  N/A" },
	{ 0x10029100082ULL, "|OP LOAD|LVL N/A miss|SNP None|TLB L1 hit|LCK N/A|BLK  N/A" },
	{ 0x10029100102ULL, "|OP LOAD|LVL L1|SNP None|TLB L1 hit|LCK N/A|BLK  N/A" },
	{ 0x10029100182ULL, "|OP LOAD|LVL L1 miss|SNP None|TLB L1 hit|LCK N/A|BLK  N/A" },
	{ 0x10029100202ULL, "|OP LOAD|LVL LFB/MAB|SNP None|TLB L1 hit|LCK N/A|BLK  N/A" },
	{ 0x10029100242ULL, "|OP LOAD|LVL LFB/MAB hit|SNP None|TLB L1 hit|LCK N/A|BLK  N/A" },
	{ 0x10029100282ULL, "|OP LOAD|LVL LFB/MAB miss|SNP None|TLB L1 hit|LCK N/A|BLK  N/A" },
	{ 0x10029100402ULL, "|OP LOAD|LVL L2|SNP None|TLB L1 hit|LCK N/A|BLK  N/A" },
	{ 0x10029100442ULL, "|OP LOAD|LVL L2 hit|SNP None|TLB L1 hit|LCK N/A|BLK  N/A" },
	{ 0x10029100482ULL, "|OP LOAD|LVL L2 miss|SNP None|TLB L1 hit|LCK N/A|BLK  N/A" },
	{ 0x10029100802ULL, "|OP LOAD|LVL L3|SNP None|TLB L1 hit|LCK N/A|BLK  N/A" },
	{ 0x10029100842ULL, "|OP LOAD|LVL L3 hit|SNP None|TLB L1 hit|LCK N/A|BLK  N/A" },
	{ 0x10029100882ULL, "|OP LOAD|LVL L3 miss|SNP None|TLB L1 hit|LCK N/A|BLK  N/A" },
	{ 0x10029101002ULL, "|OP LOAD|LVL Local RAM|SNP None|TLB L1 hit|LCK N/A|BLK  N/A" },
	{ 0x10029101042ULL, "|OP LOAD|LVL Local RAM hit|SNP None|TLB L1 hit|LCK N/A|BLK  N/A" },
	{ 0x10029101082ULL, "|OP LOAD|LVL Local RAM miss|SNP None|TLB L1 hit|LCK N/A|BLK  N/A" },
	{ 0x10029102002ULL, "|OP LOAD|LVL Remote RAM (1 hop)|SNP None|TLB L1 hit|LCK N/A|BLK  N/A" },
	{ 0x10029102042ULL, "|OP LOAD|LVL Remote RAM (1 hop) hit|SNP None|TLB L1 hit|LCK N/A|BLK  N/A" },
	{ 0x10029102082ULL, "|OP LOAD|LVL Remote RAM (1 hop) miss|SNP None|TLB L1 hit|LCK N/A|BLK  N/A" },
	{ 0x10029104002ULL, "|OP LOAD|LVL Remote RAM (2 hops)|SNP None|TLB L1 hit|LCK N/A|BLK  N/A" },
	{ 0x10029104042ULL, "|OP LOAD|LVL Remote RAM (2 hops) hit|SNP None|TLB L1 hit|LCK N/A|BLK  N/A" },
	{ 0x10029104082ULL, "|OP LOAD|LVL Remote RAM (2 hops) miss|SNP None|TLB L1 hit|LCK N/A|BLK  N/A" },
	{ 0x10029108002ULL, "|OP LOAD|LVL Remote Cache (1 hop)|SNP None|TLB L1 hit|LCK N/A|BLK  N/A" },
	{ 0x10029108042ULL, "|OP LOAD|LVL Remote Cache (1 hop) hit|SNP None|TLB L1 hit|LCK N/A|BLK  N/A" },
	{ 0x10029108082ULL, "|OP LOAD|LVL Remote Cache (1 hop) miss|SNP None|TLB L1 hit|LCK N/A|BLK  N/A" },
	{ 0x10029110002ULL, "|OP LOAD|LVL Remote Cache (2 hops)|SNP None|TLB L1 hit|LCK N/A|BLK  N/A" },
	{ 0x10029110042ULL, "|OP LOAD|LVL Remote Cache (2 hops) hit|SNP None|TLB L1 hit|LCK N/A|BLK  N/A" },
	{ 0x10029110082ULL, "|OP LOAD|LVL Remote Cache (2 hops) miss|SNP None|TLB L1 hit|LCK N/A|BLK  N/A" },
	{ 0x10029120002ULL, "|OP LOAD|LVL I/O|SNP None|TLB L1 hit|LCK N/A|BLK  N/A" },
	{ 0x10029120042ULL, "|OP LOAD|LVL I/O hit|SNP None|TLB L1 hit|LCK N/A|BLK  N/A" },
	{ 0x10029120082ULL, "|OP LOAD|LVL I/O miss|SNP None|TLB L1 hit|LCK N/A|BLK  N/A" },
	{ 0x10029140002ULL, "|OP LOAD|LVL Uncached|SNP None|TLB L1 hit|LCK N/A|BLK  N/A" },
	{ 0x10029140042ULL, "|OP LOAD|LVL Uncached hit|SNP None|TLB L1 hit|LCK N/A|BLK  N/A" },
	{ 0x10029140082ULL, "|OP LOAD|LVL Uncached miss|SNP None|TLB L1 hit|LCK N/A|BLK  N/A" },
	{ 0x10029100002ULL, "|OP LOAD|LVL N/A|SNP None|TLB L1 hit|LCK N/A|BLK  N/A" },
	{ 0x100291001c2ULL, "|OP LOAD|LVL L1 hit miss|SNP None|TLB L1 hit|LCK N/A|BLK  N/A" },
	{ 0x10029100d42ULL, "|OP LOAD|LVL L1 or L2 or L3 hit|SNP None|TLB L1 hit|LCK N/A|BLK  N/A" },
	{ 0x10229100142ULL, "|OP LOAD|LVL L1 or L1 hit|SNP None|TLB L1 hit|LCK N/A|BLK  N/A" },
	{ 0x10229100002ULL, "|OP LOAD|LVL L1|SNP None|TLB L1 hit|LCK N/A|BLK  N/A" },
	{ 0x10429100142ULL, "|OP LOAD|LVL L1 or L2 hit|SNP None|TLB L1 hit|LCK N/A|BLK  N/A" },
	{ 0x10429100002ULL, "|OP LOAD|LVL L2|SNP None|TLB L1 hit|LCK N/A|BLK  N/A" },
	{ 0x10629100142ULL, "|OP LOAD|LVL L1 or L3 hit|SNP None|TLB L1 hit|LCK N/A|BLK  N/A" },
	{ 0x10629100002ULL, "|OP LOAD|LVL L3|SNP None|TLB L1 hit|LCK N/A|BLK  N/A" },
	{ 0x10829100142ULL, "|OP LOAD|LVL L1 or L4 hit|SNP None|TLB L1 hit|LCK N/A|BLK  N/A" },
	{ 0x10829100002ULL, "|OP LOAD|LVL L4|SNP None|TLB L1 hit|LCK N/A|BLK  N/A" },
	{ 0x10a29100142ULL, "|OP LOAD|LVL L1 or L5 hit|SNP None|TLB L1 hit|LCK N/A|BLK  N/A" },
	{ 0x10a29100002ULL, "|OP LOAD|LVL L5|SNP None|TLB L1 hit|LCK N/A|BLK  N/A" },
	{ 0x10c29100142ULL, "|OP LOAD|LVL L1 or L6 hit|SNP None|TLB L1 hit|LCK N/A|BLK  N/A" },
	{ 0x10c29100002ULL, "|OP LOAD|LVL L6|SNP None|TLB L1 hit|LCK N/A|BLK  N/A" },
	{ 0x10e29100142ULL, "|OP LOAD|LVL L1 or L7 hit|SNP None|TLB L1 hit|LCK N/A|BLK  N/A" },
	{ 0x10e29100002ULL, "|OP LOAD|LVL L7|SNP None|TLB L1 hit|LCK N/A|BLK  N/A" },
	{ 0x11029100142ULL, "|OP LOAD|LVL L1 or L8 hit|SNP None|TLB L1 hit|LCK N/A|BLK  N/A" },
	{ 0x11029100002ULL, "|OP LOAD|LVL L8|SNP None|TLB L1 hit|LCK N/A|BLK  N/A" },
	{ 0x11229100142ULL, "|OP LOAD|LVL L1 or CXL hit|SNP None|TLB L1 hit|LCK N/A|BLK  N/A" },
	{ 0x11229100002ULL, "|OP LOAD|LVL CXL|SNP None|TLB L1 hit|LCK N/A|BLK  N/A" },
	{ 0x11429100142ULL, "|OP LOAD|LVL L1 or I/O hit|SNP None|TLB L1 hit|LCK N/A|BLK  N/A" },
	{ 0x11429100002ULL, "|OP LOAD|LVL I/O|SNP None|TLB L1 hit|LCK N/A|BLK  N/A" },
	{ 0x11629100142ULL, "|OP LOAD|LVL L1 or Any cache hit|SNP None|TLB L1 hit|LCK N/A|BLK  N/A" },
	{ 0x11629100002ULL, "|OP LOAD|LVL Any cache|SNP None|TLB L1 hit|LCK N/A|BLK  N/A" },
	{ 0x11829100142ULL, "|OP LOAD|LVL L1 or LFB/MAB hit|SNP None|TLB L1 hit|LCK N/A|BLK  N/A" },
	{ 0x11829100002ULL, "|OP LOAD|LVL LFB/MAB|SNP None|TLB L1 hit|LCK N/A|BLK  N/A" },
	{ 0x11a29100142ULL, "|OP LOAD|LVL L1 or RAM hit|SNP None|TLB L1 hit|LCK N/A|BLK  N/A" },
	{ 0x11a29100002ULL, "|OP LOAD|LVL RAM|SNP None|TLB L1 hit|LCK N/A|BLK  N/A" },
	{ 0x11c29100142ULL, "|OP LOAD|LVL L1 or PMEM hit|SNP None|TLB L1 hit|LCK N/A|BLK  N/A" },
	{ 0x11c29100002ULL, "|OP LOAD|LVL PMEM|SNP None|TLB L1 hit|LCK N/A|BLK  N/A" },
	{ 0x11e29100142ULL, "|OP LOAD|LVL L1 or N/A hit|SNP None|TLB L1 hit|LCK N/A|BLK  N/A" },
	{ 0x11e29100002ULL, "|OP LOAD|LVL N/A|SNP None|TLB L1 hit|LCK N/A|BLK  N/A" },
	{ 0x12429100142ULL, "|OP LOAD|LVL Remote L1 or L2 hit|SNP None|TLB L1 hit|LCK N/A|BLK  N/A" },
	{ 0x12029100002ULL, "|OP LOAD|LVL Remote |SNP None|TLB L1 hit|LCK N/A|BLK  N/A" },
	{ 0x90029100142ULL, "|OP LOAD|LVL core, same node  hit|SNP None|TLB L1 hit|LCK N/A|BLK  N/A" },
	{ 0x92429100142ULL, "|OP LOAD|LVL Remote core, same node L2 hit|SNP None|TLB L1 hit|LCK N/A|BLK  N/A" },
	{ 0x92029100002ULL, "|OP LOAD|LVL Remote core, same node |SNP None|TLB L1 hit|LCK N/A|BLK  N/A" },
	{ 0x110029100142ULL, "|OP LOAD|LVL node, same socket  hit|SNP None|TLB L1 hit|LCK N/A|BLK  N/A" },
	{ 0x112429100142ULL, "|OP LOAD|LVL Remote node, same socket L2 hit|SNP None|TLB L1 hit|LCK N/A|BLK  N/A" },
	{ 0x112029100002ULL, "|OP LOAD|LVL Remote node, same socket |SNP None|TLB L1 hit|LCK N/A|BLK  N/A" },
	{ 0x190029100142ULL, "|OP LOAD|LVL socket, same board  hit|SNP None|TLB L1 hit|LCK N/A|BLK  N/A" },
	{ 0x192429100142ULL, "|OP LOAD|LVL Remote socket, same board L2 hit|SNP None|TLB L1 hit|LCK N/A|BLK  N/A" },
	{ 0x192029100002ULL, "|OP LOAD|LVL Remote socket, same board |SNP None|TLB L1 hit|LCK N/A|BLK  N/A" },
	{ 0x210029100142ULL, "|OP LOAD|LVL board  hit|SNP None|TLB L1 hit|LCK N/A|BLK  N/A" },
	{ 0x212429100142ULL, "|OP LOAD|LVL Remote board L2 hit|SNP None|TLB L1 hit|LCK N/A|BLK  N/A" },
	{ 0x212029100002ULL, "|OP LOAD|LVL Remote board |SNP None|TLB L1 hit|LCK N/A|BLK  N/A" },
	{ 0x12029100142ULL, "|OP LOAD|LVL Remote L1 hit|SNP None|TLB L1 hit|LCK N/A|BLK  N/A" },
	{ 0x12029100042ULL, "|OP LOAD|LVL Remote  hit|SNP None|TLB L1 hit|LCK N/A|BLK  N/A" },
	{ 0x10029000142ULL, "|OP LOAD|LVL L1 hit|SNP N/A|TLB L1 hit|LCK N/A|BLK  N/A" },
	{ 0x10029080142ULL, "|OP LOAD|LVL L1 hit|SNP N/A|TLB L1 hit|LCK N/A|BLK  N/A" },
	{ 0x10029180142ULL, "|OP LOAD|LVL L1 hit|SNP N/A or None|TLB L1 hit|LCK N/A|BLK  N/A" },
	{ 0x10029200142ULL, "|OP LOAD|LVL L1 hit|SNP Hit|TLB L1 hit|LCK N/A|BLK  N/A" },
	{ 0x10029280142ULL, "|OP LOAD|LVL L1 hit|SNP N/A or Hit|TLB L1 hit|LCK N/A|BLK  N/A" },
	{ 0x10029300142ULL, "|OP LOAD|LVL L1 hit|SNP None or Hit|TLB L1 hit|LCK N/A|BLK  N/A" },
	{ 0x10029380142ULL, "|OP LOAD|LVL L1 hit|SNP N/A or None or Hit|TLB L1 hit|LCK N/A|BLK  N/A" },
	{ 0x10029400142ULL, "|OP LOAD|LVL L1 hit|SNP Miss|TLB L1 hit|LCK N/A|BLK  N/A" },
	{ 0x10029480142ULL, "|OP LOAD|LVL L1 hit|SNP N/A or Miss|TLB L1 hit|LCK N/A|BLK  N/A" },
	{ 0x10029500142ULL, "|OP LOAD|LVL L1 hit|SNP None or Miss|TLB L1 hit|LCK N/A|BLK  N/A" },
	{ 0x10029580142ULL, "|OP LOAD|LVL L1 hit|SNP N/A or None or Miss|TLB L1 hit|LCK N/A|BLK  N/A" },
	{ 0x10029600142ULL, "|OP LOAD|LVL L1 hit|SNP Hit or Miss|TLB L1 hit|LCK N/A|BLK  N/A" },
	{ 0x10029680142ULL, "|OP LOAD|LVL L1 hit|SNP N/A or Hit or Miss|TLB L1 hit|LCK N/A|BLK  N/A" },
	{ 0x10029700142ULL, "|OP LOAD|LVL L1 hit|SNP None or Hit or Miss|TLB L1 hit|LCK N/A|BLK  N/A" },
	{ 0x10029780142ULL, "|OP LOAD|LVL L1 hit|SNP N/A or None or Hit or Miss|TLB L1 hit|LCK N/A|BLK  N/A" },
	{ 0x10029800142ULL, "|OP LOAD|LVL L1 hit|SNP HitM|TLB L1 hit|LCK N/A|BLK  N/A" },
	{ 0x10029880142ULL, "|OP LOAD|LVL L1 hit|SNP N/A or HitM|TLB L1 hit|LCK N/A|BLK  N/A" },
	{ 0x10029900142ULL, "|OP LOAD|LVL L1 hit|SNP None or HitM|TLB L1 hit|LCK N/A|BLK  N/A" },
	{ 0x10029980142ULL, "|OP LOAD|LVL L1 hit|SNP N/A or None or HitM|TLB L1 hit|LCK N/A|BLK  N/A" },
	{ 0x10029a00142ULL, "|OP LOAD|LVL L1 hit|SNP Hit or HitM|TLB L1 hit|LCK N/A|BLK  N/A" },
	{ 0x10029a80142ULL, "|OP LOAD|LVL L1 hit|SNP N/A or Hit or HitM|TLB L1 hit|LCK N/A|BLK  N/A" },
	{ 0x10029b00142ULL, "|OP LOAD|LVL L1 hit|SNP None or Hit or HitM|TLB L1 hit|LCK N/A|BLK  N/A" },
	{ 0x10029b80142ULL, "|OP LOAD|LVL L1 hit|SNP N/A or None or Hit or HitM|TLB L1 hit|LCK N/A|BLK  N/A" },
	{ 0x10029c00142ULL, "|OP LOAD|LVL L1 hit|SNP Miss or HitM|TLB L1 hit|LCK N/A|BLK  N/A" },
	{ 0x10029c80142ULL, "|OP LOAD|LVL L1 hit|SNP N/A or Miss or HitM|TLB L1 hit|LCK N/A|BLK  N/A" },
	{ 0x10029d00142ULL, "|OP LOAD|LVL L1 hit|SNP None or Miss or HitM|TLB L1 hit|LCK N/A|BLK  N/A" },
	{ 0x10029d80142ULL, "|OP LOAD|LVL L1 hit|SNP N/A or None or Miss or HitM|TLB L1 hit|LCK N/A|BLK  N/A" },
	{ 0x10029e00142ULL, "|OP LOAD|LVL L1 hit|SNP Hit or Miss or HitM|TLB L1 hit|LCK N/A|BLK  N/A" },
	{ 0x10029e80142ULL, "|OP LOAD|LVL L1 hit|SNP N/A or Hit or Miss or HitM|TLB L1 hit|LCK N/A|BLK  N/A" },
	{ 0x10029f00142ULL, "|OP LOAD|LVL L1 hit|SNP None or Hit or Miss or HitM|TLB L1 hit|LCK N/A|BLK  N/A" },
	{ 0x14029100142ULL, "|OP LOAD|LVL L1 hit|SNP None or Fwd|TLB L1 hit|LCK N/A|BLK  N/A" },
	{ 0x14029000142ULL, "|OP LOAD|LVL L1 hit|SNP Fwd|TLB L1 hit|LCK N/A|BLK  N/A" },
	{ 0x14029800142ULL, "|OP LOAD|LVL L1 hit|SNP HitM or Fwd|TLB L1 hit|LCK N/A|BLK  N/A" },
	{ 0x18029100142ULL, "|OP LOAD|LVL L1 hit|SNP None or Peer|TLB L1 hit|LCK N/A|BLK  N/A" },
	{ 0x18029000142ULL, "|OP LOAD|LVL L1 hit|SNP Peer|TLB L1 hit|LCK N/A|BLK  N/A" },
	{ 0x18029800142ULL, "|OP LOAD|LVL L1 hit|SNP HitM or Peer|TLB L1 hit|LCK N/A|BLK  N/A" },
	{ 0x1c029100142ULL, "|OP LOAD|LVL L1 hit|SNP None or Fwd or Peer|TLB L1 hit|LCK N/A|BLK  N/A" },
	{ 0x1c029000142ULL, "|OP LOAD|LVL L1 hit|SNP Fwd or Peer|TLB L1 hit|LCK N/A|BLK  N/A" },
	{ 0x1c029800142ULL, "|OP LOAD|LVL L1 hit|SNP HitM or Fwd or Peer|TLB L1 hit|LCK N/A|BLK  N/A" },
	{ 0x10028100142ULL, "|OP LOAD|LVL L1 hit|SNP None|TLB L1 hit|LCK No|BLK  N/A" },
	{ 0x1002a100142ULL, "|OP LOAD|LVL L1 hit|SNP None|TLB L1 hit|LCK Yes|BLK  N/A" },
	{ 0x1002b100142ULL, "|OP LOAD|LVL L1 hit|SNP None|TLB L1 hit|LCK N/A|BLK  N/A" },
	{ 0x10001100142ULL, "|OP LOAD|LVL L1 hit|SNP None|TLB N/A|LCK N/A|BLK  N/A" },
	{ 0x10005100142ULL, "|OP LOAD|LVL L1 hit|SNP None|TLB N/A|LCK N/A|BLK  N/A" },
	{ 0x10009100142ULL, "|OP LOAD|LVL L1 hit|SNP None|TLB N/A hit|LCK N/A|BLK  N/A" },
	{ 0x1000d100142ULL, "|OP LOAD|LVL L1 hit|SNP None|TLB N/A hit|LCK N/A|BLK  N/A" },
	{ 0x10011100142ULL, "|OP LOAD|LVL L1 hit|SNP None|TLB N/A miss|LCK N/A|BLK  N/A" },
	{ 0x10015100142ULL, "|OP LOAD|LVL L1 hit|SNP None|TLB N/A miss|LCK N/A|BLK  N/A" },
	{ 0x10019100142ULL, "|OP LOAD|LVL L1 hit|SNP None|TLB N/A hit miss|LCK N/A|BLK  N/A" },
	{ 0x1001d100142ULL, "|OP LOAD|LVL L1 hit|SNP None|TLB N/A hit miss|LCK N/A|BLK  N/A" },
	{ 0x10021100142ULL, "|OP LOAD|LVL L1 hit|SNP None|TLB L1|LCK N/A|BLK  N/A" },
	{ 0x10025100142ULL, "|OP LOAD|LVL L1 hit|SNP None|TLB N/A or L1|LCK N/A|BLK  N/A" },
	{ 0x1002d100142ULL, "|OP LOAD|LVL L1 hit|SNP None|TLB N/A or L1 hit|LCK N/A|BLK  N/A" },
	{ 0x10031100142ULL, "|OP LOAD|LVL L1 hit|SNP None|TLB L1 miss|LCK N/A|BLK  N/A" },
	{ 0x10035100142ULL, "|OP LOAD|LVL L1 hit|SNP None|TLB N/A or L1 miss|LCK N/A|BLK  N/A" },
	{ 0x10039100142ULL, "|OP LOAD|LVL L1 hit|SNP None|TLB L1 hit miss|LCK N/A|BLK  N/A" },
	{ 0x1003d100142ULL, "|OP LOAD|LVL L1 hit|SNP None|TLB N/A or L1 hit miss|LCK N/A|BLK  N/A" },
	{ 0x10041100142ULL, "|OP LOAD|LVL L1 hit|SNP None|TLB L2|LCK N/A|BLK  N/A" },
	{ 0x10045100142ULL, "|OP LOAD|LVL L1 hit|SNP None|TLB N/A or L2|LCK N/A|BLK  N/A" },
	{ 0x10049100142ULL, "|OP LOAD|LVL L1 hit|SNP None|TLB L2 hit|LCK N/A|BLK  N/A" },
	{ 0x1004d100142ULL, "|OP LOAD|LVL L1 hit|SNP None|TLB N/A or L2 hit|LCK N/A|BLK  N/A" },
	{ 0x10051100142ULL, "|OP LOAD|LVL L1 hit|SNP None|TLB L2 miss|LCK N/A|BLK  N/A" },
	{ 0x10055100142ULL, "|OP LOAD|LVL L1 hit|SNP None|TLB N/A or L2 miss|LCK N/A|BLK  N/A" },
	{ 0x10059100142ULL, "|OP LOAD|LVL L1 hit|SNP None|TLB L2 hit miss|LCK N/A|BLK  N/A" },
	{ 0x1005d100142ULL, "|OP LOAD|LVL L1 hit|SNP None|TLB N/A or L2 hit miss|LCK N/A|BLK  N/A" },
	{ 0x10061100142ULL, "|OP LOAD|LVL L1 hit|SNP None|TLB L1 or L2|LCK N/A|BLK  N/A" },
	{ 0x10065100142ULL, "|OP LOAD|LVL L1 hit|SNP None|TLB N/A or L1 or L2|LCK N/A|BLK  N/A" },
	{ 0x10069100142ULL, "|OP LOAD|LVL L1 hit|SNP None|TLB L1 or L2 hit|LCK N/A|BLK  N/A" },
	{ 0x1006d100142ULL, "|OP LOAD|LVL L1 hit|SNP None|TLB N/A or L1 or L2 hit|LCK N/A|BLK  N/A" },
	{ 0x10071100142ULL, "|OP LOAD|LVL L1 hit|SNP None|TLB L1 or L2 miss|LCK N/A|BLK  N/A" },
	{ 0x10075100142ULL, "|OP LOAD|LVL L1 hit|SNP None|TLB N/A or L1 or L2 miss|LCK N/A|BLK  N/A" },
	{ 0x10079100142ULL, "|OP LOAD|LVL L1 hit|SNP None|TLB L1 or L2 hit miss|LCK N/A|BLK  N/A" },
	{ 0x1007d100142ULL, "|OP LOAD|LVL L1 hit|SNP None|TLB N/A or L1 or L2 hit miss|LCK N/A|BLK  N/A" },
	{ 0x10081100142ULL, "|OP LOAD|LVL L1 hit|SNP None|TLB Walker|LCK N/A|BLK  N/A" },
	{ 0x10085100142ULL, "|OP LOAD|LVL L1 hit|SNP None|TLB N/A or Walker|LCK N/A|BLK  N/A" },
	{ 0x10089100142ULL, "|OP LOAD|LVL L1 hit|SNP None|TLB Walker hit|LCK N/A|BLK  N/A" },
	{ 0x1008d100142ULL, "|OP LOAD|LVL L1 hit|SNP None|TLB N/A or Walker hit|LCK N/A|BLK  N/A" },
	{ 0x10091100142ULL, "|OP LOAD|LVL L1 hit|SNP None|TLB Walker miss|LCK N/A|BLK  N/A" },
	{ 0x10095100142ULL, "|OP LOAD|LVL L1 hit|SNP None|TLB N/A or Walker miss|LCK N/A|BLK  N/A" },
	{ 0x10099100142ULL, "|OP LOAD|LVL L1 hit|SNP None|TLB Walker hit miss|LCK N/A|BLK  N/A" },
	{ 0x1009d100142ULL, "|OP LOAD|LVL L1 hit|SNP None|TLB N/A or Walker hit miss|LCK N/A|BLK  N/A" },
	{ 0x100a1100142ULL, "|OP LOAD|LVL L1 hit|SNP None|TLB L1 or Walker|LCK N/A|BLK  N/A" },
	{ 0x100a5100142ULL, "|OP LOAD|LVL L1 hit|SNP None|TLB N/A or L1 or Walker|LCK N/A|BLK  N/A" },
	{ 0x100a9100142ULL, "|OP LOAD|LVL L1 hit|SNP None|TLB L1 or Walker hit|LCK N/A|BLK  N/A" },
	{ 0x100ad100142ULL, "|OP LOAD|LVL L1 hit|SNP None|TLB N/A or L1 or Walker hit|LCK N/A|BLK  N/A" },
	{ 0x100b1100142ULL, "|OP LOAD|LVL L1 hit|SNP None|TLB L1 or Walker miss|LCK N/A|BLK  N/A" },
	{ 0x100b5100142ULL, "|OP LOAD|LVL L1 hit|SNP None|TLB N/A or L1 or Walker miss|LCK N/A|BLK  N/A" },
	{ 0x100b9100142ULL, "|OP LOAD|LVL L1 hit|SNP None|TLB L1 or Walker hit miss|LCK N/A|BLK  N/A" },
	{ 0x100bd100142ULL, "|OP LOAD|LVL L1 hit|SNP None|TLB N/A or L1 or Walker hit miss|LCK N/A|BLK  N/A" },
	{ 0x100c1100142ULL, "|OP LOAD|LVL L1 hit|SNP None|TLB L2 or Walker|LCK N/A|BLK  N/A" },
	{ 0x100c5100142ULL, "|OP LOAD|LVL L1 hit|SNP None|TLB N/A or L2 or Walker|LCK N/A|BLK  N/A" },
	{ 0x100c9100142ULL, "|OP LOAD|LVL L1 hit|SNP None|TLB L2 or Walker hit|LCK N/A|BLK  N/A" },
	{ 0x100cd100142ULL, "|OP LOAD|LVL L1 hit|SNP None|TLB N/A or L2 or Walker hit|LCK N/A|BLK  N/A" },
	{ 0x100d1100142ULL, "|OP LOAD|LVL L1 hit|SNP None|TLB L2 or Walker miss|LCK N/A|BLK  N/A" },
	{ 0x100d5100142ULL, "|OP LOAD|LVL L1 hit|SNP None|TLB N/A or L2 or Walker miss|LCK N/A|BLK  N/A" },
	{ 0x100d9100142ULL, "|OP LOAD|LVL L1 hit|SNP None|TLB L2 or Walker hit miss|LCK N/A|BLK  N/A" },
	{ 0x100dd100142ULL, "|OP LOAD|LVL L1 hit|SNP None|TLB N/A or L2 or Walker hit miss|LCK N/A|BLK  N/A" },
	{ 0x100e1100142ULL, "|OP LOAD|LVL L1 hit|SNP None|TLB L1 or L2 or Walker|LCK N/A|BLK  N/A" },
	{ 0x100e5100142ULL, "|OP LOAD|LVL L1 hit|SNP None|TLB N/A or L1 or L2 or Walker|LCK N/A|BLK  N/A" },
	{ 0x100e9100142ULL, "|OP LOAD|LVL L1 hit|SNP None|TLB L1 or L2 or Walker hit|LCK N/A|BLK  N/A" },
	{ 0x100ed100142ULL, "|OP LOAD|LVL L1 hit|SNP None|TLB N/A or L1 or L2 or Walker hit|LCK N/A|BLK  N/A" },
	{ 0x100f1100142ULL, "|OP LOAD|LVL L1 hit|SNP None|TLB L1 or L2 or Walker miss|LCK N/A|BLK  N/A" },
	{ 0x100f5100142ULL, "|OP LOAD|LVL L1 hit|SNP None|TLB N/A or L1 or L2 or Walker miss|LCK N/A|BLK  N/A" },
	{ 0x100f9100142ULL, "|OP LOAD|LVL L1 hit|SNP None|TLB L1 or L2 or Walker hit miss|LCK N/A|BLK  N/A" },
	{ 0x10101100142ULL, "|OP LOAD|LVL L1 hit|SNP None|TLB Fault|LCK N/A|BLK  N/A" },
	{ 0x10105100142ULL, "|OP LOAD|LVL L1 hit|SNP None|TLB N/A or Fault|LCK N/A|BLK  N/A" },
	{ 0x10109100142ULL, "|OP LOAD|LVL L1 hit|SNP None|TLB Fault hit|LCK N/A|BLK  N/A" },
	{ 0x1010d100142ULL, "|OP LOAD|LVL L1 hit|SNP None|TLB N/A or Fault hit|LCK N/A|BLK  N/A" },
	{ 0x10111100142ULL, "|OP LOAD|LVL L1 hit|SNP None|TLB Fault miss|LCK N/A|BLK  N/A" },
	{ 0x10115100142ULL, "|OP LOAD|LVL L1 hit|SNP None|TLB N/A or Fault miss|LCK N/A|BLK  N/A" },
	{ 0x10119100142ULL, "|OP LOAD|LVL L1 hit|SNP None|TLB Fault hit miss|LCK N/A|BLK  N/A" },
	{ 0x1011d100142ULL, "|OP LOAD|LVL L1 hit|SNP None|TLB N/A or Fault hit miss|LCK N/A|BLK  N/A" },
	{ 0x10121100142ULL, "|OP LOAD|LVL L1 hit|SNP None|TLB L1 or Fault|LCK N/A|BLK  N/A" },
	{ 0x10125100142ULL, "|OP LOAD|LVL L1 hit|SNP None|TLB N/A or L1 or Fault|LCK N/A|BLK  N/A" },
	{ 0x10129100142ULL, "|OP LOAD|LVL L1 hit|SNP None|TLB L1 or Fault hit|LCK N/A|BLK  N/A" },
	{ 0x1012d100142ULL, "|OP LOAD|LVL L1 hit|SNP None|TLB N/A or L1 or Fault hit|LCK N/A|BLK  N/A" },
	{ 0x10131100142ULL, "|OP LOAD|LVL L1 hit|SNP None|TLB L1 or Fault miss|LCK N/A|BLK  N/A" },
	{ 0x10135100142ULL, "|OP LOAD|LVL L1 hit|SNP None|TLB N/A or L1 or Fault miss|LCK N/A|BLK  N/A" },
	{ 0x10139100142ULL, "|OP LOAD|LVL L1 hit|SNP None|TLB L1 or Fault hit miss|LCK N/A|BLK  N/A" },
	{ 0x1013d100142ULL, "|OP LOAD|LVL L1 hit|SNP None|TLB N/A or L1 or Fault hit miss|LCK N/A|BLK  N/A" },
	{ 0x10141100142ULL, "|OP LOAD|LVL L1 hit|SNP None|TLB L2 or Fault|LCK N/A|BLK  N/A" },
	{ 0x10145100142ULL, "|OP LOAD|LVL L1 hit|SNP None|TLB N/A or L2 or Fault|LCK N/A|BLK  N/A" },
	{ 0x10149100142ULL, "|OP LOAD|LVL L1 hit|SNP None|TLB L2 or Fault hit|LCK N/A|BLK  N/A" },
	{ 0x1014d100142ULL, "|OP LOAD|LVL L1 hit|SNP None|TLB N/A or L2 or Fault hit|LCK N/A|BLK  N/A" },
	{ 0x10151100142ULL, "|OP LOAD|LVL L1 hit|SNP None|TLB L2 or Fault miss|LCK N/A|BLK  N/A" },
	{ 0x10155100142ULL, "|OP LOAD|LVL L1 hit|SNP None|TLB N/A or L2 or Fault miss|LCK N/A|BLK  N/A" },
	{ 0x10159100142ULL, "|OP LOAD|LVL L1 hit|SNP None|TLB L2 or Fault hit miss|LCK N/A|BLK  N/A" },
	{ 0x1015d100142ULL, "|OP LOAD|LVL L1 hit|SNP None|TLB N/A or L2 or Fault hit miss|LCK N/A|BLK  N/A" },
	{ 0x10161100142ULL, "|OP LOAD|LVL L1 hit|SNP None|TLB L1 or L2 or Fault|LCK N/A|BLK  N/A" },
	{ 0x10165100142ULL, "|OP LOAD|LVL L1 hit|SNP None|TLB N/A or L1 or L2 or Fault|LCK N/A|BLK  N/A" },
	{ 0x10169100142ULL, "|OP LOAD|LVL L1 hit|SNP None|TLB L1 or L2 or Fault hit|LCK N/A|BLK  N/A" },
	{ 0x1016d100142ULL, "|OP LOAD|LVL L1 hit|SNP None|TLB N/A or L1 or L2 or Fault hit|LCK N/A|BLK  N/A" },
	{ 0x10171100142ULL, "|OP LOAD|LVL L1 hit|SNP None|TLB L1 or L2 or Fault miss|LCK N/A|BLK  N/A" },
	{ 0x10175100142ULL, "|OP LOAD|LVL L1 hit|SNP None|TLB N/A or L1 or L2 or Fault miss|LCK N/A|BLK  N/A" },
	{ 0x10179100142ULL, "|OP LOAD|LVL L1 hit|SNP None|TLB L1 or L2 or Fault hit miss|LCK N/A|BLK  N/A" },
	{ 0x10181100142ULL, "|OP LOAD|LVL L1 hit|SNP None|TLB Walker or Fault|LCK N/A|BLK  N/A" },
	{ 0x10185100142ULL, "|OP LOAD|LVL L1 hit|SNP None|TLB N/A or Walker or Fault|LCK N/A|BLK  N/A" },
	{ 0x10189100142ULL, "|OP LOAD|LVL L1 hit|SNP None|TLB Walker or Fault hit|LCK N/A|BLK  N/A" },
	{ 0x1018d100142ULL, "|OP LOAD|LVL L1 hit|SNP None|TLB N/A or Walker or Fault hit|LCK N/A|BLK  N/A" },
	{ 0x10191100142ULL, "|OP LOAD|LVL L1 hit|SNP None|TLB Walker or Fault miss|LCK N/A|BLK  N/A" },
	{ 0x10195100142ULL, "|OP LOAD|LVL L1 hit|SNP None|TLB N/A or Walker or Fault miss|LCK N/A|BLK  N/A" },
	{ 0x10199100142ULL, "|OP LOAD|LVL L1 hit|SNP None|TLB Walker or Fault hit miss|LCK N/A|BLK  N/A" },
	{ 0x1019d100142ULL, "|OP LOAD|LVL L1 hit|SNP None|TLB N/A or Walker or Fault hit miss|LCK N/A|BLK  N/A" },
	{ 0x101a1100142ULL, "|OP LOAD|LVL L1 hit|SNP None|TLB L1 or Walker or Fault|LCK N/A|BLK  N/A" },
	{ 0x101a5100142ULL, "|OP LOAD|LVL L1 hit|SNP None|TLB N/A or L1 or Walker or Fault|LCK N/A|BLK  N/A" },
	{ 0x101a9100142ULL, "|OP LOAD|LVL L1 hit|SNP None|TLB L1 or Walker or Fault hit|LCK N/A|BLK  N/A" },
	{ 0x101ad100142ULL, "|OP LOAD|LVL L1 hit|SNP None|TLB N/A or L1 or Walker or Fault hit|LCK N/A|BLK  N/A" },
	{ 0x101b1100142ULL, "|OP LOAD|LVL L1 hit|SNP None|TLB L1 or Walker or Fault miss|LCK N/A|BLK  N/A" },
	{ 0x101b9100142ULL, "|OP LOAD|LVL L1 hit|SNP None|TLB L1 or Walker or Fault hit miss|LCK N/A|BLK  N/A" },
	{ 0x101c1100142ULL, "|OP LOAD|LVL L1 hit|SNP None|TLB L2 or Walker or Fault|LCK N/A|BLK  N/A" },
	{ 0x101c5100142ULL, "|OP LOAD|LVL L1 hit|SNP None|TLB N/A or L2 or Walker or Fault|LCK N/A|BLK  N/A" },
	{ 0x101c9100142ULL, "|OP LOAD|LVL L1 hit|SNP None|TLB L2 or Walker or Fault hit|LCK N/A|BLK  N/A" },
	{ 0x101cd100142ULL, "|OP LOAD|LVL L1 hit|SNP None|TLB N/A or L2 or Walker or Fault hit|LCK N/A|BLK  N/A" },
	{ 0x101d1100142ULL, "|OP LOAD|LVL L1 hit|SNP None|TLB L2 or Walker or Fault miss|LCK N/A|BLK  N/A" },
	{ 0x101d9100142ULL, "|OP LOAD|LVL L1 hit|SNP None|TLB L2 or Walker or Fault hit miss|LCK N/A|BLK  N/A" },
	{ 0x101e1100142ULL, "|OP LOAD|LVL L1 hit|SNP None|TLB L1 or L2 or Walker or Fault|LCK N/A|BLK  N/A" },
	{ 0x101e9100142ULL, "|OP LOAD|LVL L1 hit|SNP None|TLB L1 or L2 or Walker or Fault hit|LCK N/A|BLK  N/A" },
	{ 0x101f1100142ULL, "|OP LOAD|LVL L1 hit|SNP None|TLB L1 or L2 or Walker or Fault miss|LCK N/A|BLK  N/A" },
	{ 0x29100142ULL, "|OP LOAD|LVL L1 hit|SNP None|TLB L1 hit|LCK N/A|BLK  N/A" },
	{ 0x20029100142ULL, "|OP LOAD|LVL L1 hit|SNP None|TLB L1 hit|LCK N/A|BLK  Data" },
	{ 0x30029100142ULL, "|OP LOAD|LVL L1 hit|SNP None|TLB L1 hit|LCK N/A|BLK  N/A" },
	{ 0x40029100142ULL, "|OP LOAD|LVL L1 hit|SNP None|TLB L1 hit|LCK N/A|BLK  Addr" },
	{ 0x50029100142ULL, "|OP LOAD|LVL L1 hit|SNP None|TLB L1 hit|LCK N/A|BLK  N/A" },
	{ 0x60029100142ULL, "|OP LOAD|LVL L1 hit|SNP None|TLB L1 hit|LCK N/A|BLK  Data Addr" },
	{ 0x70029100142ULL, "|OP LOAD|LVL L1 hit|SNP None|TLB L1 hit|LCK N/A|BLK  N/A" },
	{ 0x0ULL, "|OP No|LVL N/A|SNP N/A|TLB N/A|LCK No|BLK  N/A" },
	{ 0x11e05080021ULL, "|OP N/A|LVL N/A or N/A|SNP N/A|TLB N/A|LCK N/A|BLK  N/A" },
};

Test(data_src, describe_equals_perf_script_for_every_table_entry)
{
	for (size_t i = 0; i < sizeof(perf_61) / sizeof(perf_61[0]); i++)
		expect(pms_data_src__describe, perf_61[i].data_src, perf_61[i].text);
}

Test(data_src, op_table)
{
	expect(pms_data_src__op, ds(PERF_MEM_OP_NA, 0, 0, 0, 0), "N/A");
	expect(pms_data_src__op, ds(PERF_MEM_OP_LOAD, 0, 0, 0, 0), "LOAD");
	expect(pms_data_src__op, ds(PERF_MEM_OP_STORE, 0, 0, 0, 0), "STORE");
	expect(pms_data_src__op, ds(PERF_MEM_OP_PFETCH, 0, 0, 0, 0), "PFETCH");
	expect(pms_data_src__op, ds(PERF_MEM_OP_EXEC, 0, 0, 0, 0), "EXEC");
	expect(pms_data_src__op, 0, "No");
	/* the lowest bit wins */
	expect(pms_data_src__op, ds(PERF_MEM_OP_LOAD | PERF_MEM_OP_STORE, 0, 0, 0, 0), "LOAD");
	expect(pms_data_src__op, ds(PERF_MEM_OP_NA | PERF_MEM_OP_LOAD, 0, 0, 0, 0), "N/A");
}

Test(data_src, lvl_table)
{
	static const char *const names[] = {
		"N/A", NULL, NULL, "L1", "LFB/MAB", "L2", "L3", "Local RAM", "Remote RAM (1 hop)",
		"Remote RAM (2 hops)", "Remote Cache (1 hop)", "Remote Cache (2 hops)", "I/O", "Uncached",
	};
	char want[64];

	for (unsigned b = 0; b < 14; b++) {
		if (!names[b])
			continue;
		expect(pms_data_src__lvl, ds(0, 1u << b, 0, 0, 0), names[b]);
		snprintf(want, sizeof(want), "%s hit", names[b]);
		expect(pms_data_src__lvl, ds(0, (1u << b) | PERF_MEM_LVL_HIT, 0, 0, 0), want);
		snprintf(want, sizeof(want), "%s miss", names[b]);
		expect(pms_data_src__lvl, ds(0, (1u << b) | PERF_MEM_LVL_MISS, 0, 0, 0), want);
	}
	/* HIT/MISS alone: "N/A" then the suffix; both suffixes when both are set */
	expect(pms_data_src__lvl, ds(0, PERF_MEM_LVL_HIT, 0, 0, 0), "N/A hit");
	expect(pms_data_src__lvl, ds(0, PERF_MEM_LVL_HIT | PERF_MEM_LVL_MISS | PERF_MEM_LVL_L1, 0, 0, 0),
	       "L1 hit miss");
	expect(pms_data_src__lvl,
	       ds(0, PERF_MEM_LVL_HIT | PERF_MEM_LVL_L1 | PERF_MEM_LVL_L2 | PERF_MEM_LVL_L3, 0, 0, 0),
	       "L1 or L2 or L3 hit");
	expect(pms_data_src__lvl, 0, "N/A");
}

Test(data_src, lvlnum_table_joins_the_lvl_bits)
{
	static const char *const names[16] = {
		NULL, "L1", "L2", "L3", "L4", "L5", "L6", "L7", "L8", "CXL", "I/O", "Any cache",
		"LFB/MAB", "RAM", "PMEM", "N/A",
	};
	char want[64];

	for (unsigned n = 1; n < 16; n++) {
		expect(pms_data_src__lvl, LVLNUM(n), names[n]);
		snprintf(want, sizeof(want), "L1 or %s hit", names[n]);
		expect(pms_data_src__lvl, LVLNUM(n) | ds(0, PERF_MEM_LVL_HIT | PERF_MEM_LVL_L1, 0, 0, 0), want);
	}
}

Test(data_src, remote_and_hops)
{
	static const char *const hops[] = { NULL, "core, same node", "node, same socket", "socket, same board",
					    "board" };
	char want[96];

	expect(pms_data_src__lvl, REMOTE | ds(0, PERF_MEM_LVL_HIT | PERF_MEM_LVL_L1, 0, 0, 0), "Remote L1 hit");
	/* "Remote " alone counts as written: no "N/A" */
	expect(pms_data_src__lvl, REMOTE, "Remote ");
	for (unsigned h = 1; h < 5; h++) {
		/* hops replace the lvl bits; the level number follows without " or " */
		snprintf(want, sizeof(want), "Remote %s L2 hit", hops[h]);
		expect(pms_data_src__lvl,
		       REMOTE | HOPS(h) | LVLNUM(2) | ds(0, PERF_MEM_LVL_HIT | PERF_MEM_LVL_L1, 0, 0, 0), want);
		snprintf(want, sizeof(want), "%s  hit", hops[h]);
		expect(pms_data_src__lvl, HOPS(h) | ds(0, PERF_MEM_LVL_HIT | PERF_MEM_LVL_L1, 0, 0, 0), want);
	}
	/* past perf's table (perf reads beyond it): stable text */
	expect(pms_data_src__lvl, HOPS(6), "N/A ");
}

Test(data_src, snoop_table)
{
	expect(pms_data_src__snoop, ds(0, 0, PERF_MEM_SNOOP_NA, 0, 0), "N/A");
	expect(pms_data_src__snoop, ds(0, 0, PERF_MEM_SNOOP_NONE, 0, 0), "None");
	expect(pms_data_src__snoop, ds(0, 0, PERF_MEM_SNOOP_HIT, 0, 0), "Hit");
	expect(pms_data_src__snoop, ds(0, 0, PERF_MEM_SNOOP_MISS, 0, 0), "Miss");
	expect(pms_data_src__snoop, ds(0, 0, PERF_MEM_SNOOP_HITM, 0, 0), "HitM");
	expect(pms_data_src__snoop, ds(0, 0, 0x1f, 0, 0), "N/A or None or Hit or Miss or HitM");
	expect(pms_data_src__snoop, SNOOPX(PERF_MEM_SNOOPX_FWD), "Fwd");
	expect(pms_data_src__snoop, SNOOPX(PERF_MEM_SNOOPX_PEER), "Peer");
	expect(pms_data_src__snoop, SNOOPX(3) | ds(0, 0, PERF_MEM_SNOOP_HITM, 0, 0), "HitM or Fwd or Peer");
	expect(pms_data_src__snoop, 0, "N/A");
}

Test(data_src, tlb_table)
{
	expect(pms_data_src__tlb, ds(0, 0, 0, 0, PERF_MEM_TLB_NA), "N/A");
	expect(pms_data_src__tlb, ds(0, 0, 0, 0, PERF_MEM_TLB_L1), "L1");
	expect(pms_data_src__tlb, ds(0, 0, 0, 0, PERF_MEM_TLB_L2), "L2");
	expect(pms_data_src__tlb, ds(0, 0, 0, 0, PERF_MEM_TLB_WK), "Walker");
	expect(pms_data_src__tlb, ds(0, 0, 0, 0, PERF_MEM_TLB_OS), "Fault");
	expect(pms_data_src__tlb, ds(0, 0, 0, 0, PERF_MEM_TLB_HIT), "N/A hit");
	expect(pms_data_src__tlb, ds(0, 0, 0, 0, PERF_MEM_TLB_MISS | PERF_MEM_TLB_WK | PERF_MEM_TLB_OS),
	       "Walker or Fault miss");
	expect(pms_data_src__tlb, ds(0, 0, 0, 0, 0x7f), "N/A or L1 or L2 or Walker or Fault hit miss");
	expect(pms_data_src__tlb, 0, "N/A");
}

Test(data_src, lock_and_blk_tables)
{
	expect(pms_data_src__lock, ds(0, 0, 0, PERF_MEM_LOCK_NA, 0), "N/A");
	expect(pms_data_src__lock, ds(0, 0, 0, PERF_MEM_LOCK_LOCKED, 0), "Yes");
	expect(pms_data_src__lock, ds(0, 0, 0, PERF_MEM_LOCK_NA | PERF_MEM_LOCK_LOCKED, 0), "N/A");
	expect(pms_data_src__lock, 0, "No");
	expect(pms_data_src__blk, 0, " N/A");
	expect(pms_data_src__blk, BLK(PERF_MEM_BLK_NA), " N/A");
	expect(pms_data_src__blk, BLK(PERF_MEM_BLK_NA | PERF_MEM_BLK_DATA), " N/A");
	expect(pms_data_src__blk, BLK(PERF_MEM_BLK_DATA), " Data");
	expect(pms_data_src__blk, BLK(PERF_MEM_BLK_ADDR), " Addr");
	expect(pms_data_src__blk, BLK(PERF_MEM_BLK_DATA | PERF_MEM_BLK_ADDR), " Data Addr");
}

Test(data_src, snprintf_semantics)
{
	const char *full = "|OP LOAD|LVL L1 hit|SNP None|TLB L1 hit|LCK N/A|BLK  N/A";
	uint64_t v = 0x10029100142ULL;
	char buf[16];

	memset(buf, 'x', sizeof(buf));
	cr_expect_eq(pms_data_src__describe(v, buf, 0), strlen(full));
	cr_expect_eq(buf[0], 'x', "size 0 writes nothing");
	cr_expect_eq(pms_data_src__describe(v, buf, sizeof(buf)), strlen(full));
	cr_expect_str_eq(buf, "|OP LOAD|LVL L1");
	cr_expect_eq(pms_data_src__lvl(v, buf, 1), strlen("L1 hit"));
	cr_expect_str_eq(buf, "");
}
