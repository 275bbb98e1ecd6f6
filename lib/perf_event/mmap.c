/* SPDX-License-Identifier: MIT */
/* Mapping perf_event ring buffers, -m sizing like perf, and the steering ioctls. */
#include "perf_event/mmap.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include "util/fileio.h"
#include "util/units.h"
#include "util/sysfs.h"

#define KERNEL_DEFAULT_MLOCK_KB 516u

size_t pms_mmap__page_size(void)
{
	static size_t cached;

	if (!cached) {
		long ps = sysconf(_SC_PAGESIZE);
		cached = ps > 0 ? (size_t)ps : 4096;
	}
	return cached;
}

static bool is_pow2(uint64_t v)
{
	return v && !(v & (v - 1));
}

static uint64_t roundup_pow2(uint64_t v)
{
	uint64_t p = 1;

	while (p < v)
		p <<= 1;
	return p;
}

static uint64_t rounddown_pow2(uint64_t v)
{
	uint64_t p = 1;

	while (p <= v / 2)
		p <<= 1;
	return p;
}

int pms_mmap__parse_pages(const char *str, unsigned *out_pages, bool *rounded)
{
	uint64_t pages;
	bool partial = false;
	size_t len = str ? strlen(str) : 0;
	int err;

	if (!len || *str == '-' || *str == '+')
		return -EINVAL;
	if (!isdigit((unsigned char)str[len - 1])) {
		/* A size names bytes of data: whole pages, rounded up as perf does. */
		uint64_t bytes, ps = pms_mmap__page_size();

		/* leading blanks as strtoull() skips them in a bare page count */
		if ((err = pms_units__parse_size_bytes(str + strspn(str, " \t\n\v\f\r"), true, &bytes)))
			return err;
		pages = bytes / ps + (bytes % ps != 0);
		partial = bytes % ps != 0;
	} else {
		char *end;

		errno = 0;
		pages = strtoull(str, &end, 10);
		if (errno || end == str)
			return errno == ERANGE ? -ERANGE : -EINVAL;
		if (*end || !pages)
			return -EINVAL;
	}
	if (pages > (1ull << 31))
		return -ERANGE;
	if (rounded)
		*rounded = partial || !is_pow2(pages);
	*out_pages = (unsigned)roundup_pow2(pages);
	return 0;
}

static unsigned read_mlock_kb(void)
{
	char path[512];
	uint64_t kb;

	if (pms_procfs__path(path, sizeof(path), "sys/kernel/perf_event_mlock_kb") < 0 ||
	    pms_file__read_u64(path, &kb) < 0 || kb > UINT32_MAX)
		return KERNEL_DEFAULT_MLOCK_KB;
	return (unsigned)kb;
}

int pms_mmap__default_pages(unsigned *out_pages)
{
	size_t ps_kb = pms_mmap__page_size() / 1024;
	unsigned kb = read_mlock_kb();
	uint64_t pages;

	/* The budget includes the metadata page; the data part is the rest. */
	kb = kb > ps_kb ? kb - (unsigned)ps_kb : 0;
	pages = (uint64_t)kb * 1024 / pms_mmap__page_size();
	*out_pages = pages ? (unsigned)rounddown_pow2(pages) : 1;
	return 0;
}

static int map_ring(struct pms_mmap *m, int fd, unsigned nr_data_pages, int prot)
{
	size_t ps = pms_mmap__page_size();
	size_t len;
	void *p;

	memset(m, 0, sizeof(*m));
	m->fd = -1;
	if (fd < 0 || !is_pow2(nr_data_pages) || nr_data_pages > (1u << 31))
		return -EINVAL;
	if ((size_t)nr_data_pages + 1 > SIZE_MAX / ps)
		return -ERANGE;
	len = ((size_t)nr_data_pages + 1) * ps;
	p = mmap(NULL, len, prot, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED)
		return -errno;
	m->fd = fd;
	m->base = p;
	m->len_bytes = len;
	m->page_size_bytes = ps;
	m->nr_data_pages = nr_data_pages;
	return 0;
}

int pms_mmap__map(struct pms_mmap *m, int fd, unsigned nr_data_pages)
{
	return map_ring(m, fd, nr_data_pages, PROT_READ | PROT_WRITE);
}

int pms_mmap__map_overwrite(struct pms_mmap *m, int fd, unsigned nr_data_pages)
{
	/* Without write access to data_tail the kernel treats the ring as overwritable. */
	return map_ring(m, fd, nr_data_pages, PROT_READ);
}

int pms_mmap__map_user_page(struct pms_mmap *m, int fd)
{
	size_t page = pms_mmap__page_size();
	void *base = mmap(NULL, page, PROT_READ, MAP_SHARED, fd, 0);

	memset(m, 0, sizeof(*m));
	m->fd = -1;
	if (base == MAP_FAILED)
		return -errno;
	m->fd = fd;
	m->base = base;
	m->len_bytes = page;
	m->page_size_bytes = page;
	return 0;
}

void pms_mmap__unmap(struct pms_mmap *m)
{
	if (!m)
		return;
	if (m->base)
		munmap(m->base, m->len_bytes);
	m->base = NULL;
	m->len_bytes = 0;
	m->fd = -1;
}

int pms_mmap__set_output(int fd, int target_fd)
{
	if (ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, target_fd) < 0)
		return -errno;
	return 0;
}

int pms_perf_fd__enable(int fd)
{
	return ioctl(fd, PERF_EVENT_IOC_ENABLE, 0) < 0 ? -errno : 0;
}

int pms_perf_fd__disable(int fd)
{
	return ioctl(fd, PERF_EVENT_IOC_DISABLE, 0) < 0 ? -errno : 0;
}

int pms_perf_fd__group_ioctl(int fd, enum pms_group_ioctl op)
{
	static const unsigned long req[] = {
		[PMS_GROUP_ENABLE] = PERF_EVENT_IOC_ENABLE,
		[PMS_GROUP_DISABLE] = PERF_EVENT_IOC_DISABLE,
		[PMS_GROUP_RESET] = PERF_EVENT_IOC_RESET,
	};

	if ((unsigned)op >= sizeof(req) / sizeof(req[0]))
		return -EINVAL;
	return ioctl(fd, req[op], PERF_IOC_FLAG_GROUP) < 0 ? -errno : 0;
}

int pms_perf_fd__signal_on_wakeup(int fd, int signo, pid_t tid)
{
	struct f_owner_ex owner = { .type = F_OWNER_TID, .pid = tid };
	int fl = fcntl(fd, F_GETFL);

	if (fl < 0 || fcntl(fd, F_SETFL, fl | O_ASYNC | O_NONBLOCK) < 0 || fcntl(fd, F_SETSIG, signo) < 0 ||
	    fcntl(fd, F_SETOWN_EX, &owner) < 0)
		return -errno;
	return 0;
}

int pms_perf_fd__pause_output(int fd, bool pause)
{
	return ioctl(fd, PERF_EVENT_IOC_PAUSE_OUTPUT, pause ? 1 : 0) < 0 ? -errno : 0;
}

int pms_perf_fd__set_filter(int fd, const char *filter)
{
	return ioctl(fd, PERF_EVENT_IOC_SET_FILTER, filter) < 0 ? -errno : 0;
}

int pms_perf_fd__id(int fd, uint64_t *id)
{
	return ioctl(fd, PERF_EVENT_IOC_ID, id) < 0 ? -errno : 0;
}

const char *pms_mmap__error_reason(int err, unsigned nr_data_pages, char *buf, size_t size)
{
	size_t ps = pms_mmap__page_size();
	unsigned long long ring_kb = ((unsigned long long)nr_data_pages + 1) * ps / 1024;
	struct rlimit rl;
	char lim[64];

	if (err > 0)
		err = -err;
	switch (err) {
	case -EPERM:
		if (getrlimit(RLIMIT_MEMLOCK, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY)
			snprintf(lim, sizeof(lim), "%llu kB", (unsigned long long)rl.rlim_cur / 1024);
		else
			snprintf(lim, sizeof(lim), "unlimited");
		snprintf(buf, size,
			 "a ring of %llu kB (%u data pages + 1) exceeds the locked-memory budget: "
			 "/proc/sys/kernel/perf_event_mlock_kb = %u kB per online CPU for all of this user's rings, then RLIMIT_MEMLOCK = %s; "
			 "use fewer pages with -m, raise perf_event_mlock_kb, or run with CAP_IPC_LOCK",
			 ring_kb, nr_data_pages, read_mlock_kb(), lim);
		break;
	case -EINVAL:
		snprintf(buf, size, "the ring size must be a power of two data pages (got %u), "
			 "and an inherited per-task event cannot be mapped", nr_data_pages);
		break;
	case -ENOMEM:
		snprintf(buf, size, "not enough memory for a ring of %llu kB", ring_kb);
		break;
	default:
		snprintf(buf, size, "mmap of the event ring failed: %s", strerror(-err));
		break;
	}
	return buf;
}
