/* SPDX-License-Identifier: MIT */
/*
 * What bpf/profile.bpf.c and lib/bpf/profile.c share: map keys and values,
 * drop counters and the stack hash, compiled by clang -target bpf and by the
 * host compiler alike.
 *
 * Invariants:
 *  - A stack id is a 64-bit hash of (kind, frames), never 0 (0 = no stack);
 *    the kernel compares frames before sharing an id, so equal ids mean equal
 *    stacks, and a real collision moves on to the next probe (PF_PROBES), is
 *    counted only when every probe is taken.
 *  - Stack values hold leaf-first return addresses, zero past nr.
 *  - Every sample is counted in PF_STAT_SAMPLES; a sample whose stack could
 *    not be kept is counted once per reason below and keeps its other stack.
 *    With sampling, a stack or key that does not fit the maps sends the sample
 *    whole through the ring instead (PF_STAT_SWITCH_*: from then on all are),
 *    so only a full ring drops samples. With --off-cpu a "sample" is one
 *    block (switch-out while not runnable) and the maps' limits are losses.
 */
#ifndef PMS_BPF_PROFILE_ABI_H
#define PMS_BPF_PROFILE_ABI_H

#ifndef __VMLINUX_H__
#include <linux/types.h>
#endif

#define PF_MAX_FRAMES 127 /* the kernel's default perf_event_max_stack */
#define PF_PROBES 4       /* ids tried per stack before a collision is a drop */
#define PF_COMM_LEN 16

enum pf_stack_kind {
	PF_KIND_USER = 1,
	PF_KIND_KERNEL = 2,
};

struct pf_stack {
	__u32 nr;
	__u32 kind;
	__u64 ips[PF_MAX_FRAMES];
};

/* Flags of a counts key: why a stack is missing, or that it was cut. */
#define PF_F_USER_LOST 1u     /* a user stack was expected (process with an mm) and is not kept */
#define PF_F_KERNEL_LOST 2u
#define PF_F_USER_TRUNC 4u    /* PF_MAX_FRAMES frames: the outer callers are missing */
#define PF_F_KERNEL_TRUNC 8u
#define PF_F_KTHREAD 16u      /* kernel thread: no user stack, not a loss */

struct pf_key {
	__u32 tgid, pid;
	__u32 exec_id;   /* task->self_exec_id: which image of tgid (changes at execve) */
	__u32 flags;
	__u64 user_id, kernel_id;
	char comm[PF_COMM_LEN];
};

/* Ring-buffer records start with their type: announcements and streamed samples share the ring, so a process is announced before its first streamed sample. */
enum pf_event_type {
	PF_EV_TASK = 1,
	PF_EV_SAMPLE = 2,
	PF_EV_SAMPLE_DWARF = 3,
};

/* An address space seen for the first time. */
struct pf_task_event {
	__u32 type;
	__u32 tgid, pid, exec_id;
	char comm[PF_COMM_LEN];
};

/*
 * One sample sent whole (--stream, or after the maps filled): the key (ids 0)
 * and the user frames then the kernel frames, leaf first; the record ends
 * after nr_user + nr_kernel frames.
 */
struct pf_sample_event {
	__u32 type;
	__u16 nr_user, nr_kernel;
	struct pf_key key;
	__u64 ips[2 * PF_MAX_FRAMES];
};

#define PF_DWARF_MAX_STACK 16384 /* bytes of user stack a --call-graph dwarf sample can copy */
#define PF_DWARF_NR_REGS 17      /* x86-64 ax bx cx dx si di bp sp ip r8..r15 */
/* their perf_regs.h bits (PERF_REG_X86_AX..IP, R8..R15): the mask of pms_unwind_regs */
#define PF_DWARF_REGS_MASK 0x0000000000ff01ffULL

/*
 * One sample for DWARF unwinding in user space (--call-graph dwarf): the
 * user registers and stack_size bytes of stack from sp up instead of a
 * frame-pointer walk; the kernel stack as usual. The record ends after
 * stack_size bytes of stack.
 */
struct pf_dwarf_event {
	__u32 type;
	__u16 nr_kernel, pad;
	__u32 stack_size, pad2;
	struct pf_key key;
	__u64 regs[PF_DWARF_NR_REGS];
	__u64 kernel[PF_MAX_FRAMES];
	__u8 stack[PF_DWARF_MAX_STACK];
};

/* --off-cpu: blocked time per key (the stacks where the thread went to sleep). */
struct pf_block {
	__u64 count;    /* times blocked */
	__u64 time_ns;  /* summed off-CPU time */
};

/* --off-cpu: a thread that blocked, until it runs again (keyed by tid). */
struct pf_block_start {
	__u64 ts_ns;
	struct pf_key key;
};

struct pf_task_key {
	__u32 tgid, exec_id;
};

enum pf_stat {
	PF_STAT_SAMPLES,        /* samples taken (after the idle and pid filters) */
	PF_STAT_IDLE,           /* idle (pid 0) samples left out (not a loss) */
	PF_STAT_USER_FAULT,     /* bpf_get_stack(user) failed */
	PF_STAT_USER_EMPTY,     /* user stack expected, 0 frames */
	PF_STAT_USER_TRUNC,     /* user stack cut at PF_MAX_FRAMES (kept, outer frames missing) */
	PF_STAT_KERNEL_FAULT,
	PF_STAT_KERNEL_TRUNC,
	PF_STAT_USER_MAP_FULL,  /* user stack not stored: stacks map full */
	PF_STAT_KERNEL_MAP_FULL,
	PF_STAT_USER_COLLISION, /* every probe held another stack */
	PF_STAT_KERNEL_COLLISION,
	PF_STAT_COUNTS_FULL,    /* sample dropped whole: counts map full */
	PF_STAT_TASKS_FULL,     /* address space not announced: tasks map full */
	PF_STAT_RINGBUF_FULL,   /* address space not announced: ring buffer full */
	PF_STAT_USER_NOMEM,     /* user stack not stored: the BPF allocator had no element at hand
				   (maps are not preallocated; it refills right after) */
	PF_STAT_KERNEL_NOMEM,
	PF_STAT_STACKS_STORED,  /* distinct stacks inserted (user space subtracts what it deletes) */
	PF_STAT_KEYS_CREATED,   /* counts keys inserted (user space subtracts what it deletes) */
	PF_STAT_USER_EXPECTED,  /* samples of a task with an mm (user stack expected, with -U/default) */
	PF_STAT_COUNTS_FULL_USER, /* of PF_STAT_COUNTS_FULL: those with a user stack expected */
	PF_STAT_STREAMED,       /* samples sent whole through the ring buffer */
	PF_STAT_STREAM_LOST,    /* samples dropped whole: ring buffer full */
	PF_STAT_STREAM_LOST_USER, /* of PF_STAT_STREAM_LOST: those with a user stack expected */
	PF_STAT_SWITCH_STACKS_FULL, /* samples streamed because the stacks map was full (then all are) */
	PF_STAT_SWITCH_COUNTS_FULL, /* ... because the counts map was full */
	PF_STAT_SWITCH_COLLISION,   /* ... because every probe of a stack's id held another stack */
	PF_STAT_STREAM_NOMEM,   /* samples streamed because the allocator had no element at hand (not a switch) */
	PF_STAT_BLOCK_SHORT,    /* --off-cpu: blocks shorter than --min-block, left out */
	PF_STAT_BLOCK_LONG,     /* --off-cpu: blocks longer than --max-block, left out */
	PF_STAT_BLOCK_START_FULL, /* --off-cpu: a block not timed: the start map was full */
	PF_STAT_NR,
};

/* One mixing step: multiply-xorshift over 64 bits (cheap in BPF, good avalanche). */
static inline __u64 pf_hash_step(__u64 h, __u64 v)
{
	h ^= v;
	h *= 0x9e3779b97f4a7c15ULL;
	h ^= h >> 29;
	return h;
}

static inline __u64 pf_hash_final(__u64 h, __u32 nr, __u32 kind)
{
	h = pf_hash_step(h, ((__u64)kind << 32) | nr);
	h ^= h >> 32;
	h *= 0xd6e8feb86659fd93ULL;
	h ^= h >> 32;
	return h ? h : 1;
}

/* The id tried at probe i (i = 0 is the hash itself); never 0. */
static inline __u64 pf_probe_id(__u64 h, __u32 i)
{
	__u64 id = h + (__u64)i * 0x9e3779b97f4a7c15ULL;

	return id ? id : 1;
}

#endif
