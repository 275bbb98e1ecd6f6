/* SPDX-License-Identifier: MIT */
/*
 * An in-memory file for the perf.data writer/reader unit tests: the writer
 * takes an fd, and memfds leave nothing behind in /tmp when a test aborts.
 */
#ifndef PMS_TESTS_MEMFD_FILE_H
#define PMS_TESTS_MEMFD_FILE_H

#include <criterion/criterion.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

static inline int new_memfd(void)
{
	int fd = memfd_create("pms-unit-test", 0);

	cr_assert_geq(fd, 0);
	return fd;
}

/* The whole content of fd (caller frees). */
static inline uint8_t *slurp(int fd, size_t *len)
{
	off_t end = lseek(fd, 0, SEEK_END);
	uint8_t *p = malloc(end > 0 ? (size_t)end : 1);

	cr_assert(p);
	cr_assert_eq(pread(fd, p, (size_t)end, 0), end);
	*len = (size_t)end;
	return p;
}

#endif
