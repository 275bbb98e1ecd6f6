/* SPDX-License-Identifier: MIT */
/*
 * Overflow sampling of your own program (what PAPI_overflow does): an
 * event that records a sample every `period` events (the instruction
 * pointer, thread, time) and tells the program, by a signal or by its file
 * descriptor becoming readable.
 *
 *   struct pms_overflow *ov = pms_overflow__open("task-clock", 1000000, &(struct pms_overflow_opts){
 *           .sz = sizeof(struct pms_overflow_opts), .signo = SIGIO });   // every 1 ms of CPU
 *   // a SIGIO handler calls pms_overflow__drain(ov, on_sample, arg)
 *   pms_overflow__enable(ov);
 *
 * Ownership: the handle owns its file descriptor and ring buffer. Signal
 * safety: pms_overflow__drain() allocates nothing and takes no lock, so a
 * signal handler may call it (one drain at a time per handle). The library
 * never installs a signal handler itself: the program does, before enable.
 */
#ifndef PMUSCOPE_OVERFLOW_H
#define PMUSCOPE_OVERFLOW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <pmuscope/pmuscope.h>

#ifdef __cplusplus
extern "C" {
#endif

struct pms_overflow;

struct pms_overflow_opts {
	size_t sz;            /* sizeof(struct pms_overflow_opts) */
	pid_t pid;            /* 0: the calling thread (default); > 0: that thread */
	int signo;            /* send this signal to the opening thread at each overflow; 0: none (poll the fd) */
	unsigned ring_pages;  /* data pages of the ring (power of two); 0: 8 */
	bool enabled;         /* start at open instead of at pms_overflow__enable() */
};

struct pms_overflow_sample {
	uint64_t ip;          /* where the thread was when the period elapsed */
	uint32_t pid, tid;
	uint64_t time_ns;     /* perf clock (CLOCK_MONOTONIC on current kernels) */
	uint64_t period;
	bool kernel;          /* ip is in the kernel */
};

/*
 * One event (perf syntax; a single event, not a group) sampled every
 * period events, for the calling thread. NULL and errno: EINVAL (bad
 * string, a group, period 0), ENOENT and the like from the open, ENOMEM,
 * EPERM when the ring cannot be locked.
 */
PMS_API struct pms_overflow *pms_overflow__open(const char *event, uint64_t period,
					       const struct pms_overflow_opts *opts);
PMS_API void pms_overflow__close(struct pms_overflow *ov);
/* Readable (POLLIN) when samples wait; for poll(2)/epoll. Owned by the handle. */
PMS_API int pms_overflow__fd(const struct pms_overflow *ov);
PMS_API int pms_overflow__enable(struct pms_overflow *ov);
PMS_API int pms_overflow__disable(struct pms_overflow *ov);

typedef void (*pms_overflow_fn)(const struct pms_overflow_sample *sample, void *arg);
/*
 * Hand every waiting sample to fn, oldest first, and free their space.
 * Returns how many, or -errno (-EBADMSG: the ring was corrupt, its content
 * dropped). Async-signal-safe.
 */
PMS_API int pms_overflow__drain(struct pms_overflow *ov, pms_overflow_fn fn, void *arg);
/* Samples the kernel dropped because the ring was full (drain more often, or more ring_pages). */
PMS_API uint64_t pms_overflow__lost(const struct pms_overflow *ov);

#ifdef __cplusplus
}
#endif

#endif /* PMUSCOPE_OVERFLOW_H */
