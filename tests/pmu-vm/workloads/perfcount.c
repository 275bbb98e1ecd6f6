// SPDX-License-Identifier: MIT
// Guest workload `perfcount N [REPEAT]`: counts user-space instructions around the loop of
// loop.h with a bare perf_event_open(2) (no pmuscope), one line per repetition, so the rig can
// check the exact-count premise independently of the tool under test.
#include <errno.h>
#include <linux/perf_event.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "loop.h"

static int open_counter(uint32_t type, uint64_t config, int group_fd)
{
	struct perf_event_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = type;
	attr.config = config;
	attr.disabled = group_fd < 0;
	attr.exclude_kernel = 1;
	attr.exclude_hv = 1;
	attr.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED |
			   PERF_FORMAT_TOTAL_TIME_RUNNING;
	return (int)syscall(SYS_perf_event_open, &attr, 0, -1, group_fd, 0);
}

int main(int argc, char **argv)
{
	unsigned long n, reps = 1;
	int lead, member;

	if (argc < 2)
		return 2;
	n = strtoul(argv[1], NULL, 10);
	if (argc > 2)
		reps = strtoul(argv[2], NULL, 10);
	/* A {instructions, cycles} group: both read in one read(2). */
	lead = open_counter(PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, -1);
	if (lead < 0) {
		printf("error open instructions:u: %s\n", strerror(errno));
		return 1;
	}
	member = open_counter(PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, lead);
	if (member < 0) {
		printf("error open cycles:u: %s\n", strerror(errno));
		return 1;
	}
	for (unsigned long i = 0; i < reps; i++) {
		uint64_t buf[5] = { 0 };

		ioctl(lead, PERF_EVENT_IOC_RESET, PERF_IOC_FLAG_GROUP);
		ioctl(lead, PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP);
		vm_loop(n);
		ioctl(lead, PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP);
		if (read(lead, buf, sizeof(buf)) != (ssize_t)sizeof(buf)) {
			printf("error read: %s\n", strerror(errno));
			return 1;
		}
		/* nr, enabled, running, instructions, cycles */
		printf("count %llu %llu %llu %llu\n", (unsigned long long)buf[3],
		       (unsigned long long)buf[4], (unsigned long long)buf[1],
		       (unsigned long long)buf[2]);
	}
	return 0;
}
