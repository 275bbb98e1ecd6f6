// SPDX-License-Identifier: MIT
// Guest workload `sample N PERIOD [raw-config]`: overflow sampling (IP|TID, user only) of one
// counter around the loop, read from the mmap ring buffer without pmuscope. Prints
// "sample count=<count> samples=<n> in_loop=<n> lost=<n> expected=<count/period>".
// Default event: cpu_cycles (0x11, the dedicated cycle counter; QEMU 7.2 in icount shift=0
// notices overflows of general counters only at the next exception, see docs/pmu-vm.md).
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

#define DATA_PAGES 64

/* The loop's code bounds: a non-inlined copy of vm_loop between two marker functions. */
__attribute__((noinline)) static unsigned long loop_copy(unsigned long n)
{
	return vm_loop(n);
}

int main(int argc, char **argv)
{
	struct perf_event_attr attr;
	volatile struct perf_event_mmap_page *pc;
	unsigned long n, period, samples = 0, in_loop = 0, lost = 0;
	uint64_t count = 0, head, tail;
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	uintptr_t lo = (uintptr_t)&loop_copy, hi = lo + 64;
	unsigned char *data;
	int fd;

	if (argc < 3)
		return 2;
	n = strtoul(argv[1], NULL, 10);
	period = strtoul(argv[2], NULL, 10);
	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_RAW;
	attr.config = argc > 3 ? strtoull(argv[3], NULL, 0) : 0x11;
	attr.sample_period = period;
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID;
	attr.disabled = 1;
	attr.exclude_kernel = 1;
	attr.exclude_hv = 1;
	attr.wakeup_events = 1000000;
	fd = (int)syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0);
	if (fd < 0) {
		printf("error open: %s\n", strerror(errno));
		return 1;
	}
	pc = mmap(NULL, page * (DATA_PAGES + 1), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (pc == MAP_FAILED) {
		printf("error mmap: %s\n", strerror(errno));
		return 1;
	}
	data = (unsigned char *)pc + page;
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	loop_copy(n);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	if (read(fd, &count, sizeof(count)) != sizeof(count))
		return 1;
	head = pc->data_head;
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	for (tail = pc->data_tail; tail < head;) {
		struct perf_event_header h;
		uint64_t ip = 0;
		size_t off = tail % (page * DATA_PAGES);

		/* Records never straddle the end here: 64 pages hold all of them (checked by lost). */
		memcpy(&h, data + off, sizeof(h));
		if (h.size == 0)
			break;
		if (h.type == PERF_RECORD_SAMPLE) {
			memcpy(&ip, data + off + sizeof(h), sizeof(ip));
			samples++;
			in_loop += ip >= lo && ip < hi;
		} else if (h.type == PERF_RECORD_LOST) {
			uint64_t l[2];

			memcpy(l, data + off + sizeof(h), sizeof(l));
			lost += l[1];
		}
		tail += h.size;
	}
	printf("sample count=%llu samples=%lu in_loop=%lu lost=%lu expected=%llu\n",
	       (unsigned long long)count, samples, in_loop, lost,
	       (unsigned long long)(count / period));
	return 0;
}
