// SPDX-License-Identifier: MIT
// Readers for the small text files of sysfs, procfs and tracefs, and whole-file writers.
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>

#include "util/fileio.h"

int pms_file__read_str(const char *path, char *buf, size_t size)
{
	ssize_t n;
	size_t len = 0;
	int fd, err = 0;

	if (!size)
		return -EINVAL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	while (len + 1 < size) {
		n = read(fd, buf + len, size - 1 - len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			err = -errno;
			break;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	close(fd);
	buf[len] = '\0';
	while (len && (buf[len - 1] == '\n' || buf[len - 1] == ' '))
		buf[--len] = '\0';
	return err;
}

int pms_file__read_all(const char *path, char **out, size_t *lenp)
{
	size_t len = 0, cap = 4096;
	char *buf, *p;
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	buf = malloc(cap);
	if (!buf) {
		close(fd);
		return -ENOMEM;
	}
	for (;;) {
		if (len + 1 >= cap) {
			p = realloc(buf, cap * 2);
			if (!p)
				goto oom;
			buf = p;
			cap *= 2;
		}
		n = read(fd, buf + len, cap - 1 - len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			n = -errno;
			free(buf);
			close(fd);
			return (int)n;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	close(fd);
	buf[len] = '\0';
	*out = buf;
	if (lenp)
		*lenp = len;
	return 0;
oom:
	free(buf);
	close(fd);
	return -ENOMEM;
}

int pms_str__to_u64(const char *s, uint64_t *val)
{
	unsigned long long v;
	char *end;

	if (!s || !*s || *s == '-' || *s == '+' || *s == ' ')
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || end == s)
		return -EINVAL;
	while (*end == '\n' || *end == ' ')
		end++;
	if (*end)
		return -EINVAL;
	*val = v;
	return 0;
}

int pms_file__read_u64(const char *path, uint64_t *val)
{
	char buf[64];
	int err = pms_file__read_str(path, buf, sizeof(buf));

	if (err)
		return err;
	return pms_str__to_u64(buf, val);
}

int pms_file__read_int(const char *path, int *val)
{
	char buf[64], *end;
	long v;
	int err = pms_file__read_str(path, buf, sizeof(buf));

	if (err)
		return err;
	errno = 0;
	v = strtol(buf, &end, 0);
	if (errno || end == buf || *end || v < INT_MIN || v > INT_MAX)
		return -EINVAL;
	*val = (int)v;
	return 0;
}

int pms_file__write_all(const char *path, const void *buf, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666), err;

	if (fd < 0)
		return -errno;
	err = pms_fd__write_all(fd, buf, len);
	/* close reports what a network file system deferred */
	if (close(fd) && !err)
		err = -errno;
	return err;
}

int pms_file_replace__begin(struct pms_file_replace *r, const char *path)
{
	const char *slash = strrchr(path, '/');
	int dir_len = slash ? (int)(slash - path + 1) : 0;
	int n = snprintf(r->tmp, sizeof(r->tmp), "%.*s.%s.XXXXXX", dir_len, path, path + dir_len);

	r->fd = -1;
	if (n < 0 || (size_t)n >= sizeof(r->tmp))
		return -ENAMETOOLONG;
	r->fd = mkostemp(r->tmp, O_CLOEXEC);
	return r->fd < 0 ? -errno : 0;
}

int pms_file_replace__end(struct pms_file_replace *r, const char *path, mode_t mode, int err)
{
	if (r->fd < 0)
		return err ? err : -EBADF;
	if (!err && fchmod(r->fd, mode))
		err = -errno;
	/* close reports what a network file system deferred */
	if (close(r->fd) && !err)
		err = -errno;
	r->fd = -1;
	if (!err && rename(r->tmp, path))
		err = -errno;
	if (err)
		unlink(r->tmp);
	return err;
}

int pms_fd__move_high(int fd)
{
	int nfd = fcntl(fd, F_DUPFD_CLOEXEC, 100);

	if (nfd < 0)
		return fd;
	close(fd);
	return nfd;
}

int pms_fd__write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

void pms_mem__drop_pages(const void *addr, size_t len)
{
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE), start = ((uintptr_t)addr + page - 1) & ~(page - 1),
		  end = ((uintptr_t)addr + len) & ~(page - 1);

	if (end > start)
		madvise((void *)start, end - start, MADV_DONTNEED);
}
