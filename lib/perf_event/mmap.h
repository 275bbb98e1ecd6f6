/* SPDX-License-Identifier: MIT */
/*
 * Mapping perf_event ring buffers and the ioctls that steer them.
 *
 * Invariants: a mapped ring is 1 metadata page + 2^n data pages, mapped
 * PROT_READ|PROT_WRITE (we write data_tail, so the kernel never overwrites
 * unread data: it drops records and emits PERF_RECORD_LOST instead). Only
 * this file calls mmap/munmap/ioctl on event fds for sampling; lib/ring
 * reads the mapped memory. A struct pms_mmap is either all zero/unmapped
 * (base == NULL) or owns exactly one mapping; the fd stays owned by the
 * caller (the mapping survives close(fd), so unmap before or after, as you
 * like).
 */
#ifndef PMS_PERF_EVENT_MMAP_H
#define PMS_PERF_EVENT_MMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct pms_mmap {
	int fd;                  /* the event whose ring this is (-1 if unmapped) */
	void *base;              /* struct perf_event_mmap_page, then the data pages */
	size_t len_bytes;        /* (1 + nr_data_pages) * page size */
	size_t page_size_bytes;
	unsigned nr_data_pages;  /* power of two */
};

/* Page size of this system (sysconf), cached. */
size_t pms_mmap__page_size(void);

/*
 * Parse -m like perf: a number of pages ("128") or a size with a B/K/M/G
 * suffix ("512K", "4M"). A size is rounded up to whole pages, and the page
 * count UP to a power of two, as perf does (*rounded says whether either
 * happened, for perf's "rounding mmap pages size" warning). -EINVAL for
 * syntax or zero; -ERANGE beyond 2^31 pages.
 */
int pms_mmap__parse_pages(const char *str, unsigned *out_pages, bool *rounded);

/*
 * perf's default data pages for one ring: perf_event_mlock_kb (per-CPU
 * budget, default 516 kB) minus the metadata page, rounded DOWN to a power
 * of two (so 516 kB -> 128 pages of 4 kB), at least 1. Falls back to the
 * kernel default 516 if the sysctl cannot be read.
 */
int pms_mmap__default_pages(unsigned *out_pages);

/*
 * Map a ring of 1 + nr_data_pages pages for fd. nr_data_pages must be a
 * power of two (-EINVAL otherwise). Returns 0 or -errno from mmap: -EPERM
 * when the locked-memory budget (perf_event_mlock_kb per CPU, then
 * RLIMIT_MEMLOCK) is exhausted without CAP_IPC_LOCK; explain it with
 * pms_mmap__error_reason(). On error *m is left unmapped.
 */
int pms_mmap__map(struct pms_mmap *m, int fd, unsigned nr_data_pages);

/*
 * Map an overwrite ("flight recorder") ring: PROT_READ only, so the kernel
 * never waits for a reader and overwrites the oldest records. Use it for
 * events opened with attr.write_backward = 1 (the kernel then writes from
 * the end towards the beginning, so a reader can find the newest record at
 * data_head) and read it with pms_ring__read_backward() while output is
 * paused. Same sizes and errors as pms_mmap__map().
 */
int pms_mmap__map_overwrite(struct pms_mmap *m, int fd, unsigned nr_data_pages);

/*
 * Map only the metadata page (PROT_READ) of a counting event: what a
 * self-monitoring read needs (perf_event/userpage.h). No data pages, so no
 * locked-memory budget. 0 or -errno.
 */
int pms_mmap__map_user_page(struct pms_mmap *m, int fd);

/* Unmap; accepts zeroed, unmapped or already unmapped structs. */
void pms_mmap__unmap(struct pms_mmap *m);

/*
 * PERF_EVENT_IOC_SET_OUTPUT: records of fd go to target_fd's ring. Both
 * events must be on the same CPU (or the same task) and use the same
 * clock; the kernel says -EINVAL otherwise. fd must not be mapped itself.
 */
int pms_mmap__set_output(int fd, int target_fd);

/* The ioctls that act on a whole group through its leader (PERF_IOC_FLAG_GROUP). */
enum pms_group_ioctl { PMS_GROUP_ENABLE, PMS_GROUP_DISABLE, PMS_GROUP_RESET };
int pms_perf_fd__group_ioctl(int fd, enum pms_group_ioctl op);

/*
 * Deliver signo to thread tid at each wakeup of fd's ring (O_ASYNC,
 * F_SETSIG, F_SETOWN_EX with F_OWNER_TID); the fd becomes non-blocking.
 */
int pms_perf_fd__signal_on_wakeup(int fd, int signo, pid_t tid);

/* PERF_EVENT_IOC_ENABLE / DISABLE on one fd (not the group). */
int pms_perf_fd__enable(int fd);
int pms_perf_fd__disable(int fd);
/*
 * PERF_EVENT_IOC_PAUSE_OUTPUT: stop (pause = true) or resume writing into
 * the fd's ring; records arriving meanwhile are dropped and counted in a
 * later PERF_RECORD_LOST. Needed to snapshot an overwrite ring.
 */
int pms_perf_fd__pause_output(int fd, bool pause);
/* PERF_EVENT_IOC_SET_FILTER: a tracepoint filter ("ret < 0"); the kernel's -EINVAL for a bad one. 0 or -errno. */
int pms_perf_fd__set_filter(int fd, const char *filter);
/* PERF_EVENT_IOC_ID: the kernel id that samples carry in ID/IDENTIFIER. */
int pms_perf_fd__id(int fd, uint64_t *id);

/*
 * One-line explanation of a pms_mmap__map() failure, written into buf:
 * for -EPERM it names the ring size, perf_event_mlock_kb and
 * RLIMIT_MEMLOCK and says what to change. Returns buf.
 */
const char *pms_mmap__error_reason(int err, unsigned nr_data_pages, char *buf, size_t size);

#endif
