/* SPDX-License-Identifier: MIT */
/*
 * Small-file readers for sysfs/procfs/tracefs. All return 0 or -errno and
 * never print. Trailing newlines are stripped from strings.
 */
#ifndef PMS_UTIL_FILEIO_H
#define PMS_UTIL_FILEIO_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* Read at most size-1 bytes into buf, NUL-terminate, strip trailing '\n'. */
int pms_file__read_str(const char *path, char *buf, size_t size);
/* Whole file into a malloc()ed buffer (caller frees *out); *len optional. */
int pms_file__read_all(const char *path, char **out, size_t *len);
/* Parse a decimal or 0x-prefixed integer file. -EINVAL if malformed. */
int pms_file__read_u64(const char *path, uint64_t *val);
int pms_file__read_int(const char *path, int *val);
/* write(2) all of buf[0..len) (short writes and EINTR retried). 0 or -errno. */
int pms_fd__write_all(int fd, const void *buf, size_t len);
/* Create or truncate path (mode 0666 less umask) and write buf[0..len) to it. 0 or -errno. */
int pms_file__write_all(const char *path, const void *buf, size_t len);
/*
 * A file written whole under a temporary name beside its path (".<name>.XXXXXX"
 * in the same directory), then renamed over it: a reader never sees half a
 * file, and a failed write never replaces a good one.
 */
struct pms_file_replace {
	int fd;            /* write here between __begin() and __end() */
	char tmp[4200];
};
/* Create the temporary file. 0 or -errno (-ENAMETOOLONG for a path too long). */
int pms_file_replace__begin(struct pms_file_replace *r, const char *path);
/*
 * Finish: with err == 0 set mode, close and rename over path; otherwise (or
 * when one of those fails) remove the temporary file. The first error, or 0.
 */
int pms_file_replace__end(struct pms_file_replace *r, const char *path, mode_t mode, int err);
/*
 * fd moved to the lowest free number >= 100 (close-on-exec), so the numbers
 * perf_event_open returns next match perf's in -vv output; fd itself if it
 * cannot be moved.
 */
int pms_fd__move_high(int fd);
/*
 * Give the resident pages of a read-only file mapping back to the page
 * cache (madvise MADV_DONTNEED on the whole pages inside [addr, addr+len)):
 * the mapping stays valid and faults pages back in as they are read.
 */
void pms_mem__drop_pages(const void *addr, size_t len);
/* Strict integer parsing of a whole string (base 0: 0x.. hex, decimal). */
int pms_str__to_u64(const char *s, uint64_t *val);

#endif
