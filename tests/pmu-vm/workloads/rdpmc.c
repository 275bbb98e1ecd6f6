// SPDX-License-Identifier: MIT
// Guest workload `rdpmc N`: user-space counter reads (arm64 "rdpmc": PMCCNTR_EL0 for the cycle
// counter, PMSELR/PMXEVCNTR for general counters) of inst_retired and cycles around the loop,
// per the perf_event_mmap_page seqlock protocol, next to read(2) of the same counters.
// Prints "rdpmc <event> <index> <pmc_width> <user delta> <read(2) delta>" per event.
// Needs /proc/sys/kernel/perf_user_access = 1 and config1 bit 1 (the PMU's rdpmc format term).
#include <errno.h>
#include <linux/perf_event.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "loop.h"

#define barrier() __asm__ volatile("" ::: "memory")

static uint64_t read_pmc(uint32_t index)
{
	uint64_t v;

	/* index is counter + 1; 32 is the cycle counter (perf's ARMV8_IDX_CYCLE_COUNTER + 1). */
	if (index == 32) {
		__asm__ volatile("mrs %0, pmccntr_el0" : "=r"(v));
	} else {
		__asm__ volatile("msr pmselr_el0, %1\n\tisb\n\tmrs %0, pmxevcntr_el0"
				 : "=r"(v)
				 : "r"((uint64_t)(index - 1)));
	}
	return v;
}

/* The count as the kernel's mmap-page protocol defines it; *index_out = 0 if not readable. */
static uint64_t user_read(volatile struct perf_event_mmap_page *pc, uint32_t *index_out,
			  uint16_t *width_out)
{
	uint32_t seq, idx;
	uint64_t count;
	uint16_t width;

	do {
		seq = pc->lock;
		barrier();
		idx = pc->index;
		count = pc->offset;
		width = pc->pmc_width;
		if (pc->cap_user_rdpmc && idx) {
			int64_t pmc = (int64_t)read_pmc(idx);

			pmc <<= 64 - width;
			pmc >>= 64 - width;
			count += (uint64_t)pmc;
		}
		barrier();
	} while (pc->lock != seq);
	*index_out = idx;
	*width_out = width;
	return count;
}

int main(int argc, char **argv)
{
	static const struct { const char *name; uint64_t config; } evs[] = {
		{ "inst_retired", 0x08 }, { "cpu_cycles", 0x11 },
	};
	unsigned long n;

	if (argc != 2)
		return 2;
	n = strtoul(argv[1], NULL, 10);
	for (size_t i = 0; i < sizeof(evs) / sizeof(evs[0]); i++) {
		struct perf_event_attr attr;
		volatile struct perf_event_mmap_page *pc;
		uint64_t u0, u1, r0 = 0, r1 = 0;
		uint32_t idx;
		uint16_t width;
		int fd;

		memset(&attr, 0, sizeof(attr));
		attr.size = sizeof(attr);
		attr.type = PERF_TYPE_RAW;
		attr.config = evs[i].config;
		attr.config1 = 0x2;
		attr.exclude_kernel = 1;
		attr.exclude_hv = 1;
		fd = (int)syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0);
		if (fd < 0) {
			printf("error open %s: %s\n", evs[i].name, strerror(errno));
			return 1;
		}
		pc = mmap(NULL, (size_t)sysconf(_SC_PAGESIZE), PROT_READ, MAP_SHARED, fd, 0);
		if (pc == MAP_FAILED) {
			printf("error mmap %s: %s\n", evs[i].name, strerror(errno));
			return 1;
		}
		if (read(fd, &r0, sizeof(r0)) != sizeof(r0))
			return 1;
		u0 = user_read(pc, &idx, &width);
		vm_loop(n);
		u1 = user_read(pc, &idx, &width);
		if (read(fd, &r1, sizeof(r1)) != sizeof(r1))
			return 1;
		printf("rdpmc %s %u %u %llu %llu\n", evs[i].name, idx, width,
		       (unsigned long long)(u1 - u0), (unsigned long long)(r1 - r0));
		munmap((void *)pc, (size_t)sysconf(_SC_PAGESIZE));
		close(fd);
	}
	return 0;
}
