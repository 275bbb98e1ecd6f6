/* SPDX-License-Identifier: MIT */
/*
 * `profile`'s in-kernel sampler (bpf/profile.bpf.c) from user space: load it,
 * open one sampling event per CPU and attach it (or, off-CPU, attach to the
 * scheduler's switch tracepoint), announce new address spaces as they are
 * first sampled, relay streamed samples, read the aggregated counts with
 * their stacks, and account for every stack that could not be kept.
 *
 * Invariants:
 *  - Nothing is printed: libbpf's messages (the verifier log among them) go
 *    through pms_set_print()'s callback at PMS_INFO/PMS_DEBUG.
 *  - Errors are -errno with a pms_profile_fail saying which step failed, so
 *    the caller can word "needs root", "no BTF", "verifier rejected" apart.
 *  - Stacks handed to callbacks are leaf first and borrowed for the call.
 *  - The pure parts (map sizing, the stack hash) work without libbpf and are
 *    in every build; the loader exists only in host builds (libbpf).
 */
#ifndef PMS_BPF_PROFILE_H
#define PMS_BPF_PROFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "profile_abi.h"

enum pms_profile_fail {
	PMS_PF_OK,
	PMS_PF_NO_BTF,      /* no /sys/kernel/btf/vmlinux: CO-RE cannot relocate */
	PMS_PF_PERM,        /* BPF or perf_event refused for privilege (EPERM/EACCES) */
	PMS_PF_VERIFIER,    /* the verifier rejected the program (log at PMS_INFO) */
	PMS_PF_TOO_OLD,     /* a map type or helper this kernel lacks (EINVAL/EOPNOTSUPP at load) */
	PMS_PF_EVENT,       /* the sampling event did not open on a CPU */
	PMS_PF_ATTACH,      /* the program did not attach to the event */
	PMS_PF_LOAD,        /* anything else while loading */
};

struct pms_profile_opts {
	size_t sz;             /* sizeof(struct pms_profile_opts) */
	unsigned int freq;     /* samples per second per CPU */
	const int *cpus;       /* CPUs to sample; NULL = every online CPU */
	size_t nr_cpus;
	const pid_t *pids;     /* only these processes (or threads with threads = true); NULL = all */
	size_t nr_pids;
	bool threads;
	bool user, kernel;     /* which stacks to take (both false means both) */
	bool include_idle;     /* keep samples of the idle task (pid 0) */
	bool try_hardware;     /* hardware cycles first, cpu-clock when there is no PMU */
	double duration_s;     /* expected run time for map sizing; 0 = unknown */
	uint32_t max_stacks;   /* map sizes; 0 = from pms_profile__size_maps() */
	uint32_t max_counts;
	bool stream;           /* every sample whole through the ring buffer from the start */
	size_t ring_bytes;     /* ring buffer size; 0 = pms_profile__ring_bytes() */
	bool off_cpu;          /* time blocked by stack (sched_switch) instead of sampling */
	uint64_t min_block_ns, max_block_ns; /* off_cpu: keep blocks in [min, max]; max 0 = no limit */
	uint32_t dwarf_stack_bytes; /* user stack bytes per sample for DWARF unwinding (x86-64;
				      256..PF_DWARF_MAX_STACK, a multiple of 8); implies stream. 0 = frame pointers */
};

struct pms_profile_stats {
	uint64_t v[PF_STAT_NR];   /* sums over CPUs, indexed by enum pf_stat */
	uint32_t max_stacks, max_counts;
	uint64_t nr_stacks;       /* distinct stacks stored (user + kernel) */
	uint64_t nr_counts;       /* distinct (thread, stacks) keys at the last read */
	uint64_t live_counts;     /* keys in the counts map now (created - deleted by reads) */
};

/* A sample key read back, or one streamed sample, with its stacks (leaf first). */
struct pms_profile_sample {
	const struct pf_key *key;
	uint64_t count;           /* samples; with off_cpu, times blocked */
	uint64_t time_ns;         /* off_cpu: time blocked in all */
	bool streamed;            /* one sample from the ring buffer (count 1) */
	/* dwarf_stack_bytes: user registers (PF_DWARF_REGS_MASK) and stack to unwind; user is NULL */
	const uint64_t *user_regs;
	uint64_t user_regs_mask;
	const void *user_stack;
	size_t user_stack_size;
	const __u64 *user;        /* NULL when the key has no user stack */
	uint32_t nr_user;
	const __u64 *kernel;
	uint32_t nr_kernel;
	bool missing_user, missing_kernel; /* the key names a stack deleted by __clear_stacks() */
};

struct pms_profile;

/*
 * Map sizes for freq x cpus x duration samples (duration 0: 30 s): every
 * sample may be a new (thread, stacks) key and bring a user and a kernel
 * stack, bounded to [4096, 1 << 18] keys, stacks twice that.
 */
void pms_profile__size_maps(unsigned int freq, size_t nr_cpus, double duration_s,
			    uint32_t *max_stacks, uint32_t *max_counts);

/*
 * Ring buffer bytes for streaming freq x cpus samples: about a second of
 * samples of bytes_per_sample (0: a 64-frame stack, 576), a power of two in
 * [1 MiB, 256 MiB].
 */
size_t pms_profile__ring_bytes(unsigned int freq, size_t nr_cpus, size_t bytes_per_sample);

/* The id the BPF program gives a stack before probing (as bpf/profile.bpf.c computes it). */
uint64_t pms_profile__stack_hash(const uint64_t *ips, uint32_t nr, uint32_t kind);

/*
 * Open, load and attach: one event per CPU, or with pids and no cpus one per
 * thread of the processes (inherit: later threads too; the BPF filter keeps
 * children that are new processes out). On error *fail says which step.
 */
int pms_profile__start(const struct pms_profile_opts *opts, struct pms_profile **out,
		       enum pms_profile_fail *fail);
/* Detach the program from every event: no sample after this, so the counts and stats agree. */
void pms_profile__stop(struct pms_profile *p);
void pms_profile__free(struct pms_profile *p);
/* "cpu-clock" or "cycles". */
const char *pms_profile__event(const struct pms_profile *p);
/* CPUs sampled (with per-task events: the online CPUs they may run on). */
size_t pms_profile__nr_cpus(const struct pms_profile *p);
/* Events opened; *per_task: one per thread of -p/-t (inherited by new threads) rather than per CPU. */
size_t pms_profile__nr_events(const struct pms_profile *p, bool *per_task);

typedef int (*pms_profile_task_fn)(void *ctx, const struct pf_task_event *ev);
typedef int (*pms_profile_sample_fn)(void *ctx, const struct pms_profile_sample *s);

/*
 * Wait up to timeout_ms for the ring buffer, then hand over everything in it
 * in order: new address spaces to task_cb, streamed samples to sample_cb
 * (return nonzero from a callback to stop). Returns the number of records
 * handled or -errno (-EINTR when a signal came).
 */
int pms_profile__poll(struct pms_profile *p, int timeout_ms, pms_profile_task_fn task_cb,
		      pms_profile_sample_fn sample_cb, void *ctx);

/*
 * Whether samples go through the ring buffer: asked for (opts.stream), or
 * since the maps filled up (the program switches by itself; see the
 * PF_STAT_SWITCH_* counters for why).
 */
bool pms_profile__streaming(const struct pms_profile *p);

/*
 * Every counted key with its stacks; clear = delete each key as it is read
 * (interval mode: the next read starts from zero). 0 or -errno.
 */
int pms_profile__read(struct pms_profile *p, bool clear, pms_profile_sample_fn cb, void *ctx);

/*
 * Delete every stored stack (interval mode, when the stacks map fills up):
 * keys counted meanwhile may name a deleted stack, which a later read hands
 * over without it (and with missing_user/missing_kernel set). 0 or -errno.
 */
int pms_profile__clear_stacks(struct pms_profile *p);

/*
 * Why pms_profile__start() failed, in words with what to do, into buf
 * ("permission denied: profile needs root or CAP_BPF+CAP_PERFMON", ...;
 * the errno's text where it says more). Returns buf.
 */
const char *pms_profile_fail__describe(enum pms_profile_fail f, int err, char *buf, size_t size);

/* User stacks and kernel stacks that were not taken, summed over every reason. */
uint64_t pms_profile_stats__user_lost(const struct pms_profile_stats *s);
uint64_t pms_profile_stats__kernel_lost(const struct pms_profile_stats *s);

/* Drop counters and map fill, summed over CPUs. 0 or -errno. */
int pms_profile__stats(struct pms_profile *p, struct pms_profile_stats *out);

#endif
