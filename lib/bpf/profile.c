// SPDX-License-Identifier: MIT
// Loads bpf/profile.bpf.c (skeleton), opens and attaches one sampling event per CPU (or the sched_switch program for off-CPU time), relays new-address-space events and streamed samples, and reads the aggregated counts, stacks and drop counters back.
#include <errno.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "profile.h"
#include "profile.skel.h"
#include "perf_event/sys.h"
#include "util/array.h"
#include "util/cpulist.h"
#include "util/print.h"
#include "util/sysfs.h"

struct pms_profile {
	struct profile_bpf *skel;
	int *fds;
	struct bpf_link **links;
	size_t nr;
	struct ring_buffer *rb;
	pms_profile_task_fn task_cb;
	pms_profile_sample_fn sample_cb;
	void *cb_ctx;
	int cb_stop;
	struct bpf_link *switch_link; /* off_cpu */
	bool off_cpu;
	const char *event;
	uint32_t max_stacks, max_counts;
	uint64_t nr_counts;
	int nr_possible;
	size_t nr_cpus;     /* CPUs sampled (for per-task events: online CPUs) */
	uint64_t stacks_deleted; /* by __clear_stacks(), out of PF_STAT_STACKS_STORED */
	uint64_t keys_deleted;   /* by __read(clear), out of PF_STAT_KEYS_CREATED */
	bool per_task;      /* events follow threads (-p/-t without -C) */
};

/*
 * Set when libbpf shows a verifier log: the verifier answers EACCES, EINVAL
 * or others alike, so the errno alone cannot tell a rejection from a lack
 * of privilege. libbpf's print callback has no context pointer, hence a
 * thread-local.
 */
static _Thread_local bool verifier_log_seen;

/* libbpf's messages, the verifier log among them, through the library's one callback. */
static int libbpf_print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	char small[1024], *buf = small;
	va_list copy;
	int n;

	/* a verifier log is one message of up to megabytes, its verdict at the end: keep it whole */
	va_copy(copy, ap);
	n = vsnprintf(small, sizeof(small), fmt, ap);
	if (n >= (int)sizeof(small) && (buf = malloc((size_t)n + 1)))
		vsnprintf(buf, (size_t)n + 1, fmt, copy);
	else if (!buf)
		buf = small;
	va_end(copy);
	if (strstr(buf, "-- BEGIN PROG LOAD LOG --"))
		verifier_log_seen = true;
	pms__print(level == LIBBPF_DEBUG ? PMS_DEBUG : PMS_INFO, "%s%s", strncmp(buf, "libbpf: ", 8) ? "libbpf: " : "", buf);
	if (buf != small)
		free(buf);
	return 0;
}

static int open_event(struct perf_event_attr *attr, bool hw, unsigned int freq, pid_t pid, int cpu,
		      bool inherit)
{
	memset(attr, 0, sizeof(*attr));
	attr->size = sizeof(*attr);
	attr->type = hw ? PERF_TYPE_HARDWARE : PERF_TYPE_SOFTWARE;
	attr->config = hw ? PERF_COUNT_HW_CPU_CYCLES : PERF_COUNT_SW_CPU_CLOCK;
	attr->freq = 1;
	attr->sample_freq = freq;
	/* new threads of a followed thread get a copy of the event, and the program with it */
	attr->inherit = inherit;
	/* no sample_type: the program reads the registers; nothing goes to a ring */
	return pms_sys__perf_event_open(attr, pid, cpu, -1, 0);
}

/* One ring record; after a callback asked to stop, the rest are consumed unseen. */
static int on_record(void *ctx, void *data, size_t size)
{
	struct pms_profile *p = ctx;
	const struct pf_sample_event *ev = data;
	struct pf_key key;
	struct pms_profile_sample s = { .key = &key, .count = 1, .streamed = true };
	uint32_t type;

	if (p->cb_stop || size < sizeof(type))
		return 0;
	memcpy(&type, data, sizeof(type));
	if (type == PF_EV_TASK && size >= sizeof(struct pf_task_event)) {
		p->cb_stop = p->task_cb ? p->task_cb(p->cb_ctx, data) : 0;
		return 0;
	}
	if (type == PF_EV_SAMPLE_DWARF) {
		const struct pf_dwarf_event *d = data;

		if (size < offsetof(struct pf_dwarf_event, stack) || d->nr_kernel > PF_MAX_FRAMES ||
		    d->stack_size > PF_DWARF_MAX_STACK || size < offsetof(struct pf_dwarf_event, stack) + d->stack_size)
			return 0;
		key = d->key;
		if (d->stack_size) {
			s.user_regs = (const uint64_t *)d->regs; /* __u64 and uint64_t: same 64 bits, other names */
			s.user_regs_mask = PF_DWARF_REGS_MASK;
			s.user_stack = d->stack;
			s.user_stack_size = d->stack_size;
		}
		if (d->nr_kernel) {
			s.kernel = d->kernel;
			s.nr_kernel = d->nr_kernel;
		}
		p->cb_stop = p->sample_cb ? p->sample_cb(p->cb_ctx, &s) : 0;
		return 0;
	}
	if (type != PF_EV_SAMPLE || size < offsetof(struct pf_sample_event, ips) ||
	    ev->nr_user > PF_MAX_FRAMES || ev->nr_kernel > PF_MAX_FRAMES ||
	    size < offsetof(struct pf_sample_event, ips) + ((size_t)ev->nr_user + ev->nr_kernel) * sizeof(__u64))
		return 0;
	key = ev->key;
	if (ev->nr_user) {
		s.user = ev->ips;
		s.nr_user = ev->nr_user;
	}
	if (ev->nr_kernel) {
		s.kernel = ev->ips + ev->nr_user;
		s.nr_kernel = ev->nr_kernel;
	}
	p->cb_stop = p->sample_cb ? p->sample_cb(p->cb_ctx, &s) : 0;
	return 0;
}

static enum pms_profile_fail load_fail(int err)
{
	if (err == -EPERM || err == -EACCES)
		return PMS_PF_PERM;
	if (err == -EOPNOTSUPP || err == -ENOTSUP || err == -ENOSYS)
		return PMS_PF_TOO_OLD;
	return PMS_PF_LOAD;
}

/*
 * After a failed load (with the privilege to load): 0, or -EOPNOTSUPP and a
 * warning naming what this kernel lacks. The probes cannot tell "missing"
 * from "not allowed", hence only after EPERM has been ruled out.
 */
static int probe_features(void)
{
	static const struct {
		enum bpf_func_id helper;
		const char *name;
	} helpers[] = {
		{ BPF_FUNC_get_stack, "the bpf_get_stack helper (Linux 4.18)" },
		{ BPF_FUNC_ringbuf_reserve, "BPF ring buffers (Linux 5.8)" },
		{ BPF_FUNC_get_current_task, "the bpf_get_current_task helper (Linux 4.8)" },
	};
	int r = libbpf_probe_bpf_map_type(BPF_MAP_TYPE_RINGBUF, NULL);

	if (r == 0) {
		pr_warn("this kernel has no BPF ring buffers (Linux 5.8)\n");
		return -EOPNOTSUPP;
	}
	for (size_t i = 0; i < sizeof(helpers) / sizeof(helpers[0]); i++) {
		r = libbpf_probe_bpf_helper(BPF_PROG_TYPE_PERF_EVENT, helpers[i].helper, NULL);
		if (r == 0) {
			pr_warn("this kernel lacks %s for perf_event programs\n", helpers[i].name);
			return -EOPNOTSUPP;
		}
	}
	return 0;
}

struct target {
	pid_t pid;
	int cpu;
	bool inherit;
};

/* Room for one more target; on failure the list is freed (its caller gives up). */
static int targets_reserve(struct target **t, size_t *cap, size_t n)
{
	if (!pms_array__reserve(t, cap, n + 1, sizeof(**t)))
		return 0;
	free(*t);
	*t = NULL;
	return -ENOMEM;
}

/* Every thread of each process now (new ones come through inherit), or the threads as given. */
static int task_targets(const struct pms_profile_opts *o, struct target **out, size_t *nr)
{
	size_t n = 0, cap = 0;
	struct target *t = NULL;

	for (size_t i = 0; i < o->nr_pids; i++) {
		char path[512];
		struct dirent *de;
		DIR *d;

		if (o->threads) {
			if (targets_reserve(&t, &cap, n))
				return -ENOMEM;
			t[n++] = (struct target){ .pid = o->pids[i], .cpu = -1 };
			continue;
		}
		if (pms_procfs__path(path, sizeof(path), "%d/task", (int)o->pids[i]) || !(d = opendir(path))) {
			free(t);
			return -ESRCH;
		}
		while ((de = readdir(d))) {
			if (de->d_name[0] < '0' || de->d_name[0] > '9')
				continue;
			if (targets_reserve(&t, &cap, n)) {
				closedir(d);
				return -ENOMEM;
			}
			t[n++] = (struct target){ .pid = (pid_t)strtol(de->d_name, NULL, 10), .cpu = -1, .inherit = true };
		}
		closedir(d);
	}
	*out = t;
	*nr = n;
	return 0;
}

/*
 * A hash map created without preallocation takes its elements from a per-CPU
 * cache that the kernel fills with one element of our stack size at creation
 * and refills from irq_work. pf_switch runs in the scheduler with interrupts
 * off, so the first block on each CPU, which stores a user and a kernel stack,
 * found the cache empty for the second and lost the kernel stack ("allocator
 * empty"). Inserting and deleting a few elements from each CPU before the
 * programs are attached has the refill run there, and the deletes leave the
 * elements in that CPU's cache. Best effort: a CPU we may not run on keeps
 * the old behaviour, whose losses stay counted. The calling thread's
 * affinity is restored.
 */
static void warm_map_caches(struct bpf_object *obj, const int *cpus, size_t nr_cpus)
{
	enum { WARM_ELEMS = 12 }; /* a cache's high watermark for elements over 1 KiB */
	unsigned char key[256], value[4096];
	cpu_set_t saved, one;
	struct bpf_map *m;

	if (sched_getaffinity(0, sizeof(saved), &saved))
		return;
	memset(value, 0, sizeof(value));
	for (size_t c = 0; c < nr_cpus; c++) {
		if (cpus[c] < 0 || cpus[c] >= CPU_SETSIZE)
			continue;
		CPU_ZERO(&one);
		CPU_SET(cpus[c], &one);
		if (sched_setaffinity(0, sizeof(one), &one))
			continue;
		bpf_object__for_each_map(m, obj) {
			uint32_t ksz = bpf_map__key_size(m), vsz = bpf_map__value_size(m);
			uint32_t n = bpf_map__max_entries(m) < WARM_ELEMS ? bpf_map__max_entries(m) : WARM_ELEMS;

			if (bpf_map__type(m) != BPF_MAP_TYPE_HASH || !(bpf_map__map_flags(m) & BPF_F_NO_PREALLOC) ||
			    ksz < sizeof(uint32_t) || ksz > sizeof(key) || vsz > sizeof(value))
				continue;
			memset(key, 0xff, ksz); /* no real key: ids, pids and exec ids are never all ones */
			for (uint32_t i = 0; i < n; i++) {
				memcpy(key, &i, sizeof(i));
				if (bpf_map_update_elem(bpf_map__fd(m), key, value, BPF_NOEXIST))
					n = i;
			}
			for (uint32_t i = 0; i < n; i++) {
				memcpy(key, &i, sizeof(i));
				bpf_map_delete_elem(bpf_map__fd(m), key);
			}
		}
	}
	sched_setaffinity(0, sizeof(saved), &saved);
}

int pms_profile__start(const struct pms_profile_opts *o, struct pms_profile **out,
		       enum pms_profile_fail *fail)
{
	struct pms_cpulist online = { 0 };
	struct target *targets = NULL;
	size_t nr_targets = 0;
	struct pms_profile *p = NULL;
	const int *cpus;
	size_t nr_cpus;
	char path[512];
	int err;

	*out = NULL;
	*fail = PMS_PF_OK;
	if (!o || o->sz < sizeof(*o) || (!o->freq && !o->off_cpu) || (o->off_cpu && o->cpus) ||
	    (o->dwarf_stack_bytes && (o->off_cpu || o->dwarf_stack_bytes < 256 ||
				      o->dwarf_stack_bytes > PF_DWARF_MAX_STACK || o->dwarf_stack_bytes % 8)))
		return -EINVAL;
	libbpf_set_print(libbpf_print);
	if (pms_sysfs__path(path, sizeof(path), "kernel/btf/vmlinux") || access(path, R_OK)) {
		*fail = access(path, F_OK) ? PMS_PF_NO_BTF : PMS_PF_PERM;
		return -ENOENT;
	}
	cpus = o->cpus;
	nr_cpus = o->nr_cpus;
	if (!cpus) {
		err = pms_cpulist__online(&online);
		if (err)
			return err;
		cpus = online.cpus;
		nr_cpus = online.nr;
	}
	/*
	 * -p/-t without -C: events that follow the tasks, as perf record -p does, so the
	 * timer runs only while they run (no interrupts on other CPUs); else one per CPU.
	 */
	if (o->off_cpu) {
		nr_targets = 0; /* one tracepoint program for every CPU */
	} else if (o->nr_pids && !o->cpus) {
		err = task_targets(o, &targets, &nr_targets);
		if (err) {
			pms_cpulist__release(&online);
			return err;
		}
	} else {
		targets = calloc(nr_cpus ? nr_cpus : 1, sizeof(*targets));
		if (!targets) {
			pms_cpulist__release(&online);
			return -ENOMEM;
		}
		for (size_t i = 0; i < nr_cpus; i++)
			targets[i] = (struct target){ .pid = -1, .cpu = cpus[i] };
		nr_targets = nr_cpus;
	}
	p = calloc(1, sizeof(*p));
	if (!p) {
		pms_cpulist__release(&online);
		free(targets);
		return -ENOMEM;
	}
	p->per_task = o->nr_pids && !o->cpus && !o->off_cpu;
	p->off_cpu = o->off_cpu;
	p->fds = calloc(nr_targets ? nr_targets : 1, sizeof(*p->fds));
	p->links = calloc(nr_targets ? nr_targets : 1, sizeof(*p->links));
	if (!p->fds || !p->links) {
		err = -ENOMEM;
		goto fail;
	}
	for (size_t i = 0; i < nr_targets; i++)
		p->fds[i] = -1;

	p->skel = profile_bpf__open();
	if (!p->skel) {
		err = -errno;
		*fail = load_fail(err);
		goto fail;
	}
	p->max_stacks = o->max_stacks;
	p->max_counts = o->max_counts;
	if (!p->max_stacks || !p->max_counts) {
		uint32_t s, c;

		/* per-task events sample at most one CPU per thread */
		/* off-CPU: blocks come at about the rate of a busy sampler's samples */
		pms_profile__size_maps(o->off_cpu ? 1000 : o->freq,
				       p->per_task && nr_targets < nr_cpus ? nr_targets : nr_cpus, o->duration_s, &s, &c);
		p->max_stacks = p->max_stacks ? p->max_stacks : s;
		p->max_counts = p->max_counts ? p->max_counts : c;
	}
	/* streaming from the start keeps nothing in the maps: their bucket arrays would be zeroed for nothing */
	if (o->stream || o->dwarf_stack_bytes)
		p->max_stacks = p->max_counts = 1;
	bpf_map__set_max_entries(p->skel->maps.stacks, p->max_stacks);
	/* the mode's own maps get the size, the other mode's one entry */
	bpf_map__set_max_entries(p->skel->maps.counts, o->off_cpu ? 1 : p->max_counts);
	bpf_map__set_max_entries(p->skel->maps.blocked, o->off_cpu ? p->max_counts : 1);
	if (!o->off_cpu)
		bpf_map__set_max_entries(p->skel->maps.block_start, 1);
	bpf_program__set_autoload(o->off_cpu ? p->skel->progs.pf_sample : p->skel->progs.pf_switch, false);
	{
		/* announcements only off-CPU; streamed samples (asked for, or when the maps fill) else */
		size_t ring = o->ring_bytes ? o->ring_bytes
				 : o->off_cpu ? (size_t)256 << 10
				 : pms_profile__ring_bytes(o->freq, nr_cpus, o->dwarf_stack_bytes ?
					offsetof(struct pf_dwarf_event, stack) + o->dwarf_stack_bytes : 0);

		bpf_map__set_max_entries(p->skel->maps.events, (uint32_t)ring);
		p->skel->rodata->wakeup_bytes = (uint32_t)(ring / 4);
	}
	p->skel->rodata->dwarf_stack_bytes = o->dwarf_stack_bytes;
	p->skel->rodata->min_block_ns = o->min_block_ns;
	p->skel->rodata->max_block_ns = o->max_block_ns ? o->max_block_ns : ~0ULL;
	p->skel->rodata->include_idle = o->include_idle;
	p->skel->rodata->want_user = o->user || !o->kernel;
	p->skel->rodata->want_kernel = o->kernel || !o->user;
	p->skel->rodata->filter_mode = o->nr_pids ? (o->threads ? 2 : 1) : 0;
	if (o->nr_pids > bpf_map__max_entries(p->skel->maps.filter))
		bpf_map__set_max_entries(p->skel->maps.filter, (uint32_t)o->nr_pids);

	verifier_log_seen = false;
	err = profile_bpf__load(p->skel);
	if (err) {
		err = err < 0 ? err : -errno;
		if (verifier_log_seen)
			*fail = PMS_PF_VERIFIER; /* its log went to PMS_INFO */
		else if (err == -EPERM || err == -EACCES)
			*fail = PMS_PF_PERM;
		else if (probe_features() == -EOPNOTSUPP)
			*fail = PMS_PF_TOO_OLD; /* named by probe_features(): better than the load's errno */
		else if (err == -EINVAL || err == -E2BIG || err == -ENOSPC)
			*fail = PMS_PF_VERIFIER; /* the verifier's answers; its log went to PMS_INFO */
		else
			*fail = load_fail(err);
		goto fail;
	}
	for (size_t i = 0; i < o->nr_pids; i++) {
		uint32_t k = (uint32_t)o->pids[i];
		uint8_t one = 1;

		if (bpf_map__update_elem(p->skel->maps.filter, &k, sizeof(k), &one, sizeof(one), BPF_ANY)) {
			err = -errno;
			*fail = PMS_PF_LOAD;
			goto fail;
		}
	}
	warm_map_caches(p->skel->obj, cpus, nr_cpus);
	p->skel->bss->stream_all = o->stream || o->dwarf_stack_bytes;
	p->rb = ring_buffer__new(bpf_map__fd(p->skel->maps.events), on_record, p, NULL);
	if (!p->rb) {
		err = -errno;
		*fail = load_fail(err);
		goto fail;
	}

	p->event = o->off_cpu ? "off-cpu" : "cpu-clock";
	if (o->off_cpu) {
		p->switch_link = bpf_program__attach(p->skel->progs.pf_switch);
		if (!p->switch_link) {
			err = -errno;
			*fail = (err == -EPERM || err == -EACCES) ? PMS_PF_PERM : PMS_PF_ATTACH;
			goto fail;
		}
	}
	for (size_t i = 0; i < nr_targets; i++) {
		const struct target *t = &targets[i];
		struct perf_event_attr attr;
		size_t k = p->nr;
		int fd = -1;

		if (o->try_hardware && (k == 0 || !strcmp(p->event, "cycles"))) {
			fd = open_event(&attr, true, o->freq, t->pid, t->cpu, t->inherit);
			if (fd >= 0)
				p->event = "cycles";
		}
		if (fd < 0)
			fd = open_event(&attr, false, o->freq, t->pid, t->cpu, t->inherit);
		if (fd == -ESRCH && p->per_task)
			continue; /* a thread that ended since the listing */
		if (fd < 0) {
			err = fd;
			*fail = (err == -EPERM || err == -EACCES) ? PMS_PF_PERM : PMS_PF_EVENT;
			goto fail;
		}
		p->fds[k] = fd;
		p->nr = k + 1;
		p->links[k] = bpf_program__attach_perf_event(p->skel->progs.pf_sample, fd);
		if (!p->links[k]) {
			err = -errno;
			*fail = (err == -EPERM || err == -EACCES) ? PMS_PF_PERM : PMS_PF_ATTACH;
			goto fail;
		}
	}
	p->nr_possible = libbpf_num_possible_cpus();
	if (p->nr_possible <= 0) {
		err = p->nr_possible ? p->nr_possible : -EINVAL;
		*fail = PMS_PF_LOAD;
		goto fail;
	}
	if (!p->nr && !o->off_cpu) {
		err = -ESRCH;
		*fail = PMS_PF_EVENT;
		goto fail;
	}
	p->nr_cpus = nr_cpus;
	pms_cpulist__release(&online);
	free(targets);
	*out = p;
	return 0;
fail:
	pms_cpulist__release(&online);
	free(targets);
	pms_profile__free(p);
	return err < 0 ? err : -EINVAL;
}

void pms_profile__stop(struct pms_profile *p)
{
	bpf_link__destroy(p->switch_link);
	p->switch_link = NULL;
	for (size_t i = 0; i < p->nr; i++) {
		bpf_link__destroy(p->links[i]);
		p->links[i] = NULL;
	}
}

void pms_profile__free(struct pms_profile *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->nr; i++) {
		if (p->links && p->links[i])
			bpf_link__destroy(p->links[i]);
		if (p->fds && p->fds[i] >= 0)
			close(p->fds[i]);
	}
	bpf_link__destroy(p->switch_link);
	ring_buffer__free(p->rb);
	profile_bpf__destroy(p->skel);
	free(p->links);
	free(p->fds);
	free(p);
}

const char *pms_profile__event(const struct pms_profile *p)
{
	return p->event;
}

size_t pms_profile__nr_cpus(const struct pms_profile *p)
{
	return p->nr_cpus;
}

size_t pms_profile__nr_events(const struct pms_profile *p, bool *per_task)
{
	*per_task = p->per_task;
	return p->nr;
}

int pms_profile__poll(struct pms_profile *p, int timeout_ms, pms_profile_task_fn task_cb,
		      pms_profile_sample_fn sample_cb, void *ctx)
{
	int n, m;

	p->task_cb = task_cb;
	p->sample_cb = sample_cb;
	p->cb_ctx = ctx;
	p->cb_stop = 0;
	n = ring_buffer__poll(p->rb, timeout_ms);
	if (n < 0)
		return n;
	/* streamed samples do not wake us (only a filling ring does): take what the timeout left */
	m = ring_buffer__consume(p->rb);
	return m < 0 ? m : n + m;
}

bool pms_profile__streaming(const struct pms_profile *p)
{
	return !p->off_cpu && p->skel->bss->stream_all;
}

static int read_stack(struct pms_profile *p, uint64_t id, struct pf_stack *s)
{
	if (!id)
		return -ENOENT;
	return bpf_map__lookup_elem(p->skel->maps.stacks, &id, sizeof(id), s, sizeof(*s), 0) ? -errno : 0;
}

int pms_profile__read(struct pms_profile *p, bool clear, pms_profile_sample_fn cb, void *ctx)
{
	struct bpf_map *m = p->off_cpu ? p->skel->maps.blocked : p->skel->maps.counts;
	struct pf_key key, next;
	struct pf_stack *us, *ks;
	uint64_t n = 0;
	int err = 0;

	/* two stacks of 1 KiB: on the heap, the CLI's stack is not ours to spend */
	us = malloc(sizeof(*us));
	ks = malloc(sizeof(*ks));
	if (!us || !ks) {
		free(us);
		free(ks);
		return -ENOMEM;
	}
	/*
	 * Each key's successor is found while the key is still in the map: a
	 * deleted key leads nowhere, and restarting from the first key makes
	 * every step scan the buckets emptied before it (quadratic, and at
	 * 10 kHz endless: new keys keep coming). Keys added behind the walk
	 * wait for the next read.
	 */
	int more = bpf_map__get_next_key(m, NULL, &next, sizeof(next));

	while (!more) {
		struct pms_profile_sample s = { .key = &key };
		struct pf_block val = { 0 };
		/* counts hold a u64 of samples, blocked a struct pf_block */
		size_t vsz = p->off_cpu ? sizeof(val) : sizeof(val.count);
		int r;

		key = next;
		more = bpf_map__get_next_key(m, &key, &next, sizeof(next));
		if (clear) {
			r = bpf_map__lookup_and_delete_elem(m, &key, sizeof(key), &val, vsz, 0);
			if (!r)
				p->keys_deleted++;
		} else {
			r = bpf_map__lookup_elem(m, &key, sizeof(key), &val, vsz, 0);
		}
		if (r)
			continue;
		s.count = val.count;
		s.time_ns = val.time_ns;
		if (!read_stack(p, key.user_id, us) && us->nr <= PF_MAX_FRAMES) {
			s.user = us->ips;
			s.nr_user = us->nr;
		} else if (key.user_id) {
			s.missing_user = true;
		}
		if (!read_stack(p, key.kernel_id, ks) && ks->nr <= PF_MAX_FRAMES) {
			s.kernel = ks->ips;
			s.nr_kernel = ks->nr;
		} else if (key.kernel_id) {
			s.missing_kernel = true;
		}
		n++;
		err = cb(ctx, &s);
		if (err)
			break;
	}
	p->nr_counts = n;
	free(us);
	free(ks);
	return err;
}

int pms_profile__clear_stacks(struct pms_profile *p)
{
	uint64_t id, next;
	/* the successor first, while the key is there (see pms_profile__read()) */
	int more = bpf_map__get_next_key(p->skel->maps.stacks, NULL, &next, sizeof(next));

	while (!more) {
		id = next;
		more = bpf_map__get_next_key(p->skel->maps.stacks, &id, &next, sizeof(next));
		if (bpf_map__delete_elem(p->skel->maps.stacks, &id, sizeof(id), 0)) {
			if (errno != ENOENT)
				return -errno;
		} else {
			p->stacks_deleted++;
		}
	}
	return 0;
}

int pms_profile__stats(struct pms_profile *p, struct pms_profile_stats *out)
{
	uint64_t *vals;

	memset(out, 0, sizeof(*out));
	vals = calloc((size_t)p->nr_possible, sizeof(*vals));
	if (!vals)
		return -ENOMEM;
	for (uint32_t i = 0; i < PF_STAT_NR; i++) {
		if (bpf_map__lookup_elem(p->skel->maps.stats, &i, sizeof(i), vals,
					 sizeof(*vals) * (size_t)p->nr_possible, 0))
			continue;
		for (int c = 0; c < p->nr_possible; c++)
			out->v[i] += vals[c];
	}
	free(vals);
	/* counted by the program: walking the keys would scan every bucket of a large map */
	out->nr_stacks = out->v[PF_STAT_STACKS_STORED] - p->stacks_deleted;
	out->live_counts = out->v[PF_STAT_KEYS_CREATED] - p->keys_deleted;
	out->max_stacks = p->max_stacks;
	out->max_counts = p->max_counts;
	out->nr_counts = p->nr_counts;
	return 0;
}
