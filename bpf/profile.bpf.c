// SPDX-License-Identifier: GPL-2.0 OR MIT
// pmuscope profile's sampler: on each perf_event overflow, the user and kernel stacks are hashed and stored once (compared on a hash hit) and the sample is counted per (process, thread, image, stacks); new address spaces are announced so user space snapshots their mappings while the process lives.
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>

#include "profile_abi.h"

#define PF_KTHREAD_FLAG 0x00200000 /* PF_KTHREAD in include/linux/sched.h */
#define E2BIG 7                    /* vmlinux.h has no errno values */
#define EEXIST 17

/* Set by the loader before load (rodata). */
const volatile __u32 filter_mode = 0; /* 0 all, 1 tgid in filter map, 2 tid in filter map */
const volatile __u8 include_idle = 0;
const volatile __u8 want_user = 1;
const volatile __u8 want_kernel = 1;

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
	__uint(max_entries, 256 * 1024);
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
 * The stack's id, storing it on first sight; 0 when it could not be kept (counted by reason).
 * A global function: the verifier checks it once, not once per caller, which halves the
 * program's load time (its loops dominate verification).
 */
__noinline __u64 store_stack(struct pf_stack *s, __u32 stat_full, __u32 stat_nomem, __u32 stat_collision)
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
		return 0;
	}
	stat_inc(stat_collision);
	return 0;
}

SEC("perf_event")
int pf_sample(struct bpf_perf_event_data *ctx)
{
	__u64 pid_tgid = bpf_get_current_pid_tgid();
	__u32 tgid = pid_tgid >> 32, pid = (__u32)pid_tgid, zero = 0;
	struct task_struct *task;
	struct pf_stack *s;
	struct pf_key key;
	struct pf_task_key tk;
	__u64 one = 1, *cnt;
	long n, err;
	int kthread, has_mm;

	if (pid == 0 && !include_idle) {
		stat_inc(PF_STAT_IDLE);
		return 0;
	}
	if (filter_mode) {
		__u32 k = filter_mode == 1 ? tgid : pid;

		if (!bpf_map_lookup_elem(&filter, &k))
			return 0;
	}
	stat_inc(PF_STAT_SAMPLES);
	s = bpf_map_lookup_elem(&scratch, &zero);
	if (!s)
		return 0;

	__builtin_memset(&key, 0, sizeof(key));
	key.tgid = tgid;
	key.pid = pid;
	bpf_get_current_comm(key.comm, sizeof(key.comm));
	task = (struct task_struct *)bpf_get_current_task();
	kthread = (BPF_CORE_READ(task, flags) & PF_KTHREAD_FLAG) != 0;
	has_mm = BPF_CORE_READ(task, mm) != NULL;
	key.exec_id = BPF_CORE_READ(task, self_exec_id);
	if (kthread || !has_mm)
		key.flags |= PF_F_KTHREAD;

	if (want_user && !(key.flags & PF_F_KTHREAD)) {
		stat_inc(PF_STAT_USER_EXPECTED);
		n = bpf_get_stack(ctx, s->ips, sizeof(s->ips), BPF_F_USER_STACK);
		if (n < 0) {
			stat_inc(PF_STAT_USER_FAULT);
			key.flags |= PF_F_USER_LOST;
		} else if (n == 0) {
			stat_inc(PF_STAT_USER_EMPTY);
			key.flags |= PF_F_USER_LOST;
		} else {
			s->nr = n / sizeof(__u64);
			s->kind = PF_KIND_USER;
			if (s->nr >= PF_MAX_FRAMES) {
				stat_inc(PF_STAT_USER_TRUNC);
				key.flags |= PF_F_USER_TRUNC;
			}
			key.user_id = store_stack(s, PF_STAT_USER_MAP_FULL, PF_STAT_USER_NOMEM, PF_STAT_USER_COLLISION);
			if (!key.user_id)
				key.flags |= PF_F_USER_LOST;
		}
	}
	if (want_kernel) {
		n = bpf_get_stack(ctx, s->ips, sizeof(s->ips), 0);
		if (n < 0) {
			stat_inc(PF_STAT_KERNEL_FAULT);
			key.flags |= PF_F_KERNEL_LOST;
		} else if (n > 0) { /* 0: the sample hit user mode */
			s->nr = n / sizeof(__u64);
			s->kind = PF_KIND_KERNEL;
			if (s->nr >= PF_MAX_FRAMES) {
				stat_inc(PF_STAT_KERNEL_TRUNC);
				key.flags |= PF_F_KERNEL_TRUNC;
			}
			key.kernel_id = store_stack(s, PF_STAT_KERNEL_MAP_FULL, PF_STAT_KERNEL_NOMEM, PF_STAT_KERNEL_COLLISION);
			if (!key.kernel_id)
				key.flags |= PF_F_KERNEL_LOST;
		}
	}

	/* First sample of this image of the process: ask user space to read its mappings now. */
	if (!(key.flags & PF_F_KTHREAD)) {
		tk.tgid = tgid;
		tk.exec_id = key.exec_id;
		if (!bpf_map_lookup_elem(&tasks, &tk)) {
			__u8 seen = 1;

			err = bpf_map_update_elem(&tasks, &tk, &seen, BPF_NOEXIST);
			if (!err) {
				struct pf_task_event *ev = bpf_ringbuf_reserve(&events, sizeof(*ev), 0);

				if (ev) {
					ev->tgid = tgid;
					ev->pid = pid;
					ev->exec_id = key.exec_id;
					ev->pad = 0;
					__builtin_memcpy(ev->comm, key.comm, sizeof(ev->comm));
					bpf_ringbuf_submit(ev, 0);
				} else {
					stat_inc(PF_STAT_RINGBUF_FULL);
				}
			} else if (err != -EEXIST) {
				stat_inc(PF_STAT_TASKS_FULL);
			}
		}
	}

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
	if (err && err != -EEXIST) {
		stat_inc(PF_STAT_COUNTS_FULL);
		/* a user stack already lost above is counted once, under its first reason */
		if (want_user && !(key.flags & (PF_F_KTHREAD | PF_F_USER_LOST)))
			stat_inc(PF_STAT_COUNTS_FULL_USER);
	}
	return 0;
}

char LICENSE[] SEC("license") = "Dual MIT/GPL";
