// SPDX-License-Identifier: GPL-2.0 OR MIT
// pmuscope profile's programs. pf_sample, on each perf_event overflow: the user and kernel stacks are hashed and stored once (compared on a hash hit) and the sample is counted per (process, thread, image, stacks), or, with --stream or once the maps are full, sent whole through the ring buffer. pf_switch (--off-cpu), at each context switch: the stacks where a thread blocked and when, then at its switch-in the time it spent off the CPU, added up per stacks. New address spaces are announced so user space snapshots their mappings while the process lives.
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_tracing.h>

#include "profile_abi.h"

#define PF_KTHREAD_FLAG 0x00200000 /* PF_KTHREAD in include/linux/sched.h */
#define TASK_DEAD_STATE 0x00000080 /* TASK_DEAD, ibid. */
#define E2BIG 7                    /* vmlinux.h has no errno values */
#define EEXIST 17

/* Set by the loader before load (rodata). */
const volatile __u32 filter_mode = 0; /* 0 all, 1 tgid in filter map, 2 tid in filter map */
const volatile __u8 include_idle = 0;
const volatile __u8 want_user = 1;
const volatile __u8 want_kernel = 1;
const volatile __u32 dwarf_stack_bytes = 0; /* --call-graph dwarf: user stack bytes to copy (streamed) */
const volatile __u32 wakeup_bytes = 65536; /* streamed data that wakes the reader (else its poll timeout does) */
const volatile __u64 min_block_ns = 0;     /* --off-cpu: blocks outside [min, max] are left out */
const volatile __u64 max_block_ns = ~0ULL;

/* Set by user space for --stream, or by pf_sample when the maps fill: every sample through the ring. */
__u32 stream_all = 0;

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct pf_stack);
} scratch SEC(".maps");

/* max_entries are set from the expected load by the loader; no prealloc: memory follows use. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 16384);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, __u64);
	__type(value, struct pf_stack);
} stacks SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 16384);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, struct pf_key);
	__type(value, __u64);
} counts SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct pf_sample_event);
} stream_scratch SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct pf_dwarf_event);
} dwarf_scratch SEC(".maps");

/* --off-cpu (user space shrinks them to 1 entry otherwise) */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 16384);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, struct pf_key);
	__type(value, struct pf_block);
} blocked SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 32768);
	__type(key, __u32);
	__type(value, struct pf_block_start);
} block_start SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 65536);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, struct pf_task_key);
	__type(value, __u8);
} tasks SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1024);
	__type(key, __u32);
	__type(value, __u8);
} filter SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, PF_STAT_NR);
	__type(key, __u32);
	__type(value, __u64);
} stats SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 256 * 1024); /* sized by user space from the expected sample rate */
} events SEC(".maps");

static __always_inline void stat_inc(__u32 i)
{
	__u64 *v = bpf_map_lookup_elem(&stats, &i);

	if (v)
		*v += 1; /* per-CPU slot: no atomics needed */
}

static __always_inline int same_stack(const struct pf_stack *a, const struct pf_stack *b)
{
	if (a->nr != b->nr || a->kind != b->kind)
		return 0;
	for (__u32 i = 0; i < PF_MAX_FRAMES; i++) {
		if (i >= a->nr)
			break;
		if (a->ips[i] != b->ips[i])
			return 0;
	}
	return 1;
}

/*
 * The stack's id, storing it on first sight; 0 when it could not be kept (counted under the
 * caller's stat for that reason).
 * A global function: the verifier checks it once, not once per caller, which halves the
 * program's load time (its loops dominate verification).
 */
__noinline __u64 store_stack(struct pf_stack *s, __u32 stat_full, __u32 stat_nomem, __u32 stat_collision,
			     __u32 *lasting)
{
	__u64 h = 0;

	if (!s || s->nr > PF_MAX_FRAMES) /* the verifier knows nothing of the caller's pointer */
		return 0;

	for (__u32 i = 0; i < PF_MAX_FRAMES; i++) {
		if (i >= s->nr)
			break;
		h = pf_hash_step(h, s->ips[i]);
	}
	h = pf_hash_final(h, s->nr, s->kind);
	for (__u32 p = 0; p < PF_PROBES; p++) {
		__u64 id = pf_probe_id(h, p);
		struct pf_stack *old = bpf_map_lookup_elem(&stacks, &id);
		long err;

		if (old) {
			if (same_stack(old, s))
				return id;
			continue; /* a different stack owns this id: next probe */
		}
		err = bpf_map_update_elem(&stacks, &id, s, BPF_NOEXIST);
		if (!err) {
			stat_inc(PF_STAT_STACKS_STORED);
			return id;
		}
		if (err == -EEXIST) {
			/* another CPU stored this id between our lookup and update */
			old = bpf_map_lookup_elem(&stacks, &id);
			if (old && same_stack(old, s))
				return id;
			continue;
		}
		stat_inc(err == -E2BIG ? stat_full : stat_nomem);
		if (lasting) /* a full map stays full; the allocator refills */
			*lasting = err == -E2BIG;
		return 0;
	}
	stat_inc(stat_collision);
	if (lasting)
		*lasting = 1;
	return 0;
}


/* Read-only view of a task's state across the 5.14 rename of task_struct.state. */
struct task_struct___old {
	long state;
} __attribute__((preserve_access_index));

static __always_inline long task_state(struct task_struct *t)
{
	if (bpf_core_field_exists(t->__state))
		return BPF_CORE_READ(t, __state);
	return BPF_CORE_READ((struct task_struct___old *)t, state);
}

/* Ask user space to read this image's mappings now, on its first sample. */
static __always_inline void announce(const struct pf_key *key)
{
	struct pf_task_key tk = { .tgid = key->tgid, .exec_id = key->exec_id };
	__u8 seen = 1;
	long err;

	if (bpf_map_lookup_elem(&tasks, &tk))
		return;
	err = bpf_map_update_elem(&tasks, &tk, &seen, BPF_NOEXIST);
	if (!err) {
		struct pf_task_event *ev = bpf_ringbuf_reserve(&events, sizeof(*ev), 0);

		if (ev) {
			ev->type = PF_EV_TASK;
			ev->tgid = key->tgid;
			ev->pid = key->pid;
			ev->exec_id = key->exec_id;
			__builtin_memcpy(ev->comm, key->comm, sizeof(ev->comm));
			/* at once: a short-lived process must be read before it exits */
			bpf_ringbuf_submit(ev, BPF_RB_FORCE_WAKEUP);
		} else {
			stat_inc(PF_STAT_RINGBUF_FULL);
		}
	} else if (err != -EEXIST) {
		stat_inc(PF_STAT_TASKS_FULL);
	}
}

/* The current task's key (no stack ids yet); 0, or 1 when its samples are not wanted. */
static __always_inline int current_key(struct pf_key *key)
{
	__u64 pid_tgid = bpf_get_current_pid_tgid();
	struct task_struct *task;

	__builtin_memset(key, 0, sizeof(*key));
	key->tgid = pid_tgid >> 32;
	key->pid = (__u32)pid_tgid;
	if (key->pid == 0 && !include_idle) {
		stat_inc(PF_STAT_IDLE);
		return 1;
	}
	if (filter_mode) {
		__u32 k = filter_mode == 1 ? key->tgid : key->pid;

		if (!bpf_map_lookup_elem(&filter, &k))
			return 1;
	}
	bpf_get_current_comm(key->comm, sizeof(key->comm));
	task = (struct task_struct *)bpf_get_current_task();
	key->exec_id = BPF_CORE_READ(task, self_exec_id);
	if ((BPF_CORE_READ(task, flags) & PF_KTHREAD_FLAG) || !BPF_CORE_READ(task, mm))
		key->flags |= PF_F_KTHREAD;
	return 0;
}

/* Ring wakeups: the reader polls every 100 ms anyway; wake it only when a good part of the ring waits. */
static __always_inline __u64 wakeup_flag(void)
{
	return bpf_ringbuf_query(&events, BPF_RB_AVAIL_DATA) >= wakeup_bytes ? BPF_RB_FORCE_WAKEUP : BPF_RB_NO_WAKEUP;
}

/*
 * --call-graph dwarf: the user registers (at kernel entry: what user space
 * had) and a copy of the user stack from sp, unwound in user space with
 * the binaries' CFI; halved until readable near the top of the stack.
 */
static __always_inline void stream_dwarf(void *ctx, const struct pf_key *key, int counted)
{
	struct pf_dwarf_event *ev;
	__u32 zero = 0, size = dwarf_stack_bytes, nk = 0;
	__u64 out;
	long n;

	ev = bpf_map_lookup_elem(&dwarf_scratch, &zero);
	if (!ev)
		return;
	ev->type = PF_EV_SAMPLE_DWARF;
	ev->key = *key;
	ev->key.user_id = 0;
	ev->key.kernel_id = 0;
	ev->stack_size = 0;
	if (want_user && !(key->flags & PF_F_KTHREAD)) {
		struct pt_regs *r = (struct pt_regs *)bpf_task_pt_regs(bpf_get_current_task_btf());
		__u64 sp;

		ev->regs[0] = BPF_CORE_READ(r, ax);
		ev->regs[1] = BPF_CORE_READ(r, bx);
		ev->regs[2] = BPF_CORE_READ(r, cx);
		ev->regs[3] = BPF_CORE_READ(r, dx);
		ev->regs[4] = BPF_CORE_READ(r, si);
		ev->regs[5] = BPF_CORE_READ(r, di);
		ev->regs[6] = BPF_CORE_READ(r, bp);
		ev->regs[7] = sp = BPF_CORE_READ(r, sp);
		ev->regs[8] = BPF_CORE_READ(r, ip);
		ev->regs[9] = BPF_CORE_READ(r, r8);
		ev->regs[10] = BPF_CORE_READ(r, r9);
		ev->regs[11] = BPF_CORE_READ(r, r10);
		ev->regs[12] = BPF_CORE_READ(r, r11);
		ev->regs[13] = BPF_CORE_READ(r, r12);
		ev->regs[14] = BPF_CORE_READ(r, r13);
		ev->regs[15] = BPF_CORE_READ(r, r14);
		ev->regs[16] = BPF_CORE_READ(r, r15);
		for (int i = 0; i < 7; i++) {
			if (size > PF_DWARF_MAX_STACK)
				size = PF_DWARF_MAX_STACK;
			if (size < 256)
				break;
			if (!bpf_probe_read_user(ev->stack, size, (const void *)sp)) {
				ev->stack_size = size;
				break;
			}
			size >>= 1; /* past the top of the stack: less of it */
		}
		if (!ev->stack_size) {
			ev->key.flags |= PF_F_USER_LOST;
			if (!counted)
				stat_inc(PF_STAT_USER_FAULT);
		}
	}
	if (want_kernel) {
		n = bpf_get_stack(ctx, ev->kernel, sizeof(ev->kernel), 0);
		if (n > 0) {
			nk = n / sizeof(__u64);
			if (nk >= PF_MAX_FRAMES) {
				nk = PF_MAX_FRAMES;
				ev->key.flags |= PF_F_KERNEL_TRUNC;
				if (!counted)
					stat_inc(PF_STAT_KERNEL_TRUNC);
			}
		} else if (n < 0) {
			ev->key.flags |= PF_F_KERNEL_LOST;
			if (!counted)
				stat_inc(PF_STAT_KERNEL_FAULT);
		}
	}
	ev->nr_kernel = nk;
	out = __builtin_offsetof(struct pf_dwarf_event, stack) + (__u64)ev->stack_size;
	if (out > sizeof(*ev))
		out = sizeof(*ev);
	if (bpf_ringbuf_output(&events, ev, out, wakeup_flag())) {
		stat_inc(PF_STAT_STREAM_LOST);
		if (want_user && !(key->flags & PF_F_KTHREAD))
			stat_inc(PF_STAT_STREAM_LOST_USER);
	} else {
		stat_inc(PF_STAT_STREAMED);
	}
}

/*
 * Send the sample whole: both stacks into the per-CPU record, then only the
 * frames taken into the ring. counted: the stacks' own counters were already
 * bumped by an attempt to store them (a sample moved here from the maps).
 */
static __always_inline void stream_sample(void *ctx, const struct pf_key *key, int counted)
{
	struct pf_sample_event *ev;
	__u32 zero = 0, nu = 0, nk = 0;
	__u64 size;
	long n;

	if (dwarf_stack_bytes) {
		stream_dwarf(ctx, key, counted);
		return;
	}
	ev = bpf_map_lookup_elem(&stream_scratch, &zero);
	if (!ev)
		return;
	ev->type = PF_EV_SAMPLE;
	ev->key = *key;
	ev->key.user_id = 0;
	ev->key.kernel_id = 0;
	if (want_user && !(key->flags & PF_F_KTHREAD)) {
		n = bpf_get_stack(ctx, ev->ips, PF_MAX_FRAMES * sizeof(__u64), BPF_F_USER_STACK);
		if (n > 0) {
			nu = n / sizeof(__u64);
			if (nu >= PF_MAX_FRAMES) {
				nu = PF_MAX_FRAMES;
				ev->key.flags |= PF_F_USER_TRUNC;
				if (!counted)
					stat_inc(PF_STAT_USER_TRUNC);
			}
		} else {
			ev->key.flags |= PF_F_USER_LOST;
			if (!counted)
				stat_inc(n < 0 ? PF_STAT_USER_FAULT : PF_STAT_USER_EMPTY);
		}
	}
	if (want_kernel) {
		if (nu > PF_MAX_FRAMES) /* for the verifier: the kernel frames fit behind the user ones */
			nu = PF_MAX_FRAMES;
		n = bpf_get_stack(ctx, &ev->ips[nu], PF_MAX_FRAMES * sizeof(__u64), 0);
		if (n > 0) {
			nk = n / sizeof(__u64);
			if (nk >= PF_MAX_FRAMES) {
				nk = PF_MAX_FRAMES;
				ev->key.flags |= PF_F_KERNEL_TRUNC;
				if (!counted)
					stat_inc(PF_STAT_KERNEL_TRUNC);
			}
		} else if (n < 0) {
			ev->key.flags |= PF_F_KERNEL_LOST;
			if (!counted)
				stat_inc(PF_STAT_KERNEL_FAULT);
		}
	}
	ev->nr_user = nu;
	ev->nr_kernel = nk;
	size = __builtin_offsetof(struct pf_sample_event, ips) + (__u64)(nu + nk) * sizeof(__u64);
	if (size > sizeof(*ev))
		size = sizeof(*ev);
	if (bpf_ringbuf_output(&events, ev, size, wakeup_flag())) {
		stat_inc(PF_STAT_STREAM_LOST);
		if (want_user && !(key->flags & PF_F_KTHREAD))
			stat_inc(PF_STAT_STREAM_LOST_USER);
	} else {
		stat_inc(PF_STAT_STREAMED);
	}
}

/* One stack of the current task into s and the stacks map: its id, or 0 (flags say why). */
static __always_inline __u64 take_stack(void *ctx, struct pf_stack *s, struct pf_key *key, int user,
					__u32 *overflow)
{
	long n = bpf_get_stack(ctx, s->ips, sizeof(s->ips), user ? BPF_F_USER_STACK : 0);
	__u32 lasting = 0;
	__u64 id;

	if (n <= 0) {
		if (user) {
			stat_inc(n < 0 ? PF_STAT_USER_FAULT : PF_STAT_USER_EMPTY);
			key->flags |= PF_F_USER_LOST;
		} else if (n < 0) { /* 0 kernel frames: the sample hit user mode */
			stat_inc(PF_STAT_KERNEL_FAULT);
			key->flags |= PF_F_KERNEL_LOST;
		}
		return 0;
	}
	s->nr = n / sizeof(__u64);
	s->kind = user ? PF_KIND_USER : PF_KIND_KERNEL;
	if (s->nr >= PF_MAX_FRAMES) {
		stat_inc(user ? PF_STAT_USER_TRUNC : PF_STAT_KERNEL_TRUNC);
		key->flags |= user ? PF_F_USER_TRUNC : PF_F_KERNEL_TRUNC;
	}
	if (overflow) /* sampling: a stack that does not fit moves the sample to the ring */
		id = store_stack(s, PF_STAT_SWITCH_STACKS_FULL, PF_STAT_STREAM_NOMEM, PF_STAT_SWITCH_COLLISION, &lasting);
	else if (user)
		id = store_stack(s, PF_STAT_USER_MAP_FULL, PF_STAT_USER_NOMEM, PF_STAT_USER_COLLISION, NULL);
	else
		id = store_stack(s, PF_STAT_KERNEL_MAP_FULL, PF_STAT_KERNEL_NOMEM, PF_STAT_KERNEL_COLLISION, NULL);
	if (!id) {
		if (overflow) /* 1: this sample to the ring; 2: and every one after it */
			*overflow = lasting ? 2 : 1;
		else
			key->flags |= user ? PF_F_USER_LOST : PF_F_KERNEL_LOST;
	}
	return id;
}

SEC("perf_event")
int pf_sample(struct bpf_perf_event_data *ctx)
{
	struct pf_stack *s;
	struct pf_key key;
	__u32 zero = 0, overflow = 0;
	__u64 one = 1, *cnt;
	long err;

	if (current_key(&key))
		return 0;
	stat_inc(PF_STAT_SAMPLES);
	if (!(key.flags & PF_F_KTHREAD))
		announce(&key);
	if (want_user && !(key.flags & PF_F_KTHREAD))
		stat_inc(PF_STAT_USER_EXPECTED);
	if (stream_all) {
		stream_sample(ctx, &key, 0);
		return 0;
	}
	s = bpf_map_lookup_elem(&scratch, &zero);
	if (!s)
		return 0;
	if (want_user && !(key.flags & PF_F_KTHREAD))
		key.user_id = take_stack(ctx, s, &key, 1, &overflow);
	if (want_kernel && !overflow)
		key.kernel_id = take_stack(ctx, s, &key, 0, &overflow);
	if (overflow)
		goto stream;

	cnt = bpf_map_lookup_elem(&counts, &key);
	if (cnt) {
		__sync_fetch_and_add(cnt, 1);
		return 0;
	}
	err = bpf_map_update_elem(&counts, &key, &one, BPF_NOEXIST);
	if (!err) {
		stat_inc(PF_STAT_KEYS_CREATED);
	} else if (err == -EEXIST) {
		cnt = bpf_map_lookup_elem(&counts, &key);
		if (cnt)
			__sync_fetch_and_add(cnt, 1);
		else /* user space read and deleted it in between: insert afresh */
			err = bpf_map_update_elem(&counts, &key, &one, BPF_NOEXIST);
		if (!cnt && !err)
			stat_inc(PF_STAT_KEYS_CREATED);
	}
	if (!err || err == -EEXIST)
		return 0;
	stat_inc(err == -E2BIG ? PF_STAT_SWITCH_COUNTS_FULL : PF_STAT_STREAM_NOMEM);
	overflow = err == -E2BIG ? 2 : 1;
stream:
	/* a full map stays full at this rate: stream from now on (a momentarily empty allocator does not) */
	if (overflow == 2)
		stream_all = 1;
	stream_sample(ctx, &key, 1);
	return 0;
}

/*
 * --off-cpu. At sched_switch current is still prev: its stacks are where it
 * blocked. The time is known only when it runs again, so the key waits in
 * block_start until then.
 */
SEC("tp_btf/sched_switch")
int BPF_PROG(pf_switch, bool preempt, struct task_struct *prev, struct task_struct *next)
{
	struct pf_block_start *st, start;
	struct pf_block *b, one = { .count = 1 };
	struct pf_stack *s;
	__u32 zero = 0, tid;
	__u64 now = bpf_ktime_get_ns(), delta;
	long err, state = task_state(prev);

	/*
	 * A preempted thread was runnable, not blocked: its wait is not off-CPU time here.
	 * An exiting thread's last switch never ends.
	 */
	if (!preempt && state != 0 && !(state & TASK_DEAD_STATE) && !current_key(&start.key)) {
		stat_inc(PF_STAT_SAMPLES);
		s = bpf_map_lookup_elem(&scratch, &zero);
		if (s) {
			if (!(start.key.flags & PF_F_KTHREAD))
				announce(&start.key);
			if (want_user && !(start.key.flags & PF_F_KTHREAD)) {
				stat_inc(PF_STAT_USER_EXPECTED);
				start.key.user_id = take_stack(ctx, s, &start.key, 1, NULL);
			}
			if (want_kernel)
				start.key.kernel_id = take_stack(ctx, s, &start.key, 0, NULL);
			start.ts_ns = now;
			tid = start.key.pid;
			if (bpf_map_update_elem(&block_start, &tid, &start, BPF_ANY))
				stat_inc(PF_STAT_BLOCK_START_FULL);
		}
	}

	tid = BPF_CORE_READ(next, pid);
	st = bpf_map_lookup_elem(&block_start, &tid);
	if (!st)
		return 0;
	delta = now - st->ts_ns;
	start.key = st->key;
	bpf_map_delete_elem(&block_start, &tid);
	if (delta < min_block_ns) {
		stat_inc(PF_STAT_BLOCK_SHORT);
		return 0;
	}
	if (delta > max_block_ns) {
		stat_inc(PF_STAT_BLOCK_LONG);
		return 0;
	}
	b = bpf_map_lookup_elem(&blocked, &start.key);
	if (b) {
		__sync_fetch_and_add(&b->count, 1);
		__sync_fetch_and_add(&b->time_ns, delta);
		return 0;
	}
	one.time_ns = delta;
	err = bpf_map_update_elem(&blocked, &start.key, &one, BPF_NOEXIST);
	if (!err) {
		stat_inc(PF_STAT_KEYS_CREATED);
	} else if (err == -EEXIST) {
		b = bpf_map_lookup_elem(&blocked, &start.key);
		if (b) {
			__sync_fetch_and_add(&b->count, 1);
			__sync_fetch_and_add(&b->time_ns, delta);
		}
	} else {
		stat_inc(PF_STAT_COUNTS_FULL);
		if (want_user && !(start.key.flags & (PF_F_KTHREAD | PF_F_USER_LOST)))
			stat_inc(PF_STAT_COUNTS_FULL_USER);
	}
	return 0;
}

#ifdef PMS_BPF_TEST_PROGS
/*
 * Only in the test build of this object (build/tests/pmuscope-bpftest): a
 * read past the end of the context, which every verifier refuses, so that
 * the way a rejection is reported (message, log on -v) is tested for real.
 * The product's object never carries it.
 */
SEC("perf_event")
int pf_reject(struct bpf_perf_event_data *ctx)
{
	return (int)*(volatile __u64 *)((char *)ctx + 4096);
}
#endif

char LICENSE[] SEC("license") = "Dual MIT/GPL";
