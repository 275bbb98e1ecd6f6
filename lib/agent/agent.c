// SPDX-License-Identifier: MIT
// The agent's engine: counters per CPU and cgroup, a windowed history of live profiles, both served as text.
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <malloc.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/magic.h>
#include <sys/resource.h>
#include <sys/vfs.h>
#include <time.h>
#include <unistd.h>

#include "agent/agent.h"
#include "event/event.h"
#include "export/export.h"
#include "export/prom.h"
#include "live/profiler.h"
#include "perf_event/counter.h"
#include "symbol/dso.h"
#include "symbol/resolver.h"
#include "util/array.h"
#include "util/cgroup.h"
#include "util/clock.h"
#include "util/cpulist.h"
#include "util/privs.h"

#define NS_PER_S 1000000000ull

struct window {
	uint64_t start_ns, end_ns;  /* CLOCK_REALTIME */
	struct pms_stacks *tree;
	size_t nodes;
	uint64_t samples;
};

/* One profile (on-CPU or off-CPU): its sampler and its history, oldest window first. */
struct profile {
	struct pms_profiler *pr;
	bool ring;                  /* perf ring-buffer fallback */
	struct window *w;
	size_t nr_w, w_alloc;
	uint64_t window_start_ns;
	struct pms_profiler_losses losses; /* copied from the sampler thread at each cut */
	struct pms_profiler_counts counts;
};

/* Strings are malloc'd (NULL: unknown): paths are short on average and the table is long. */
struct proc_info {
	uint32_t pid;
	char comm[16];
	char build_id[41];
	bool build_id_tried;
	char *exe, *cgroup, *container_id, *unit;
	uint64_t last_seen_ns;
};

static void proc_info_release(struct proc_info *pi)
{
	free(pi->exe);
	free(pi->cgroup);
	free(pi->container_id);
	free(pi->unit);
	memset(pi, 0, sizeof(*pi));
}

/* A copy of s, NULL for an empty or unknown one (or without memory: the label is left out). */
static char *dup_or_null(const char *s)
{
	return s && *s ? strdup(s) : NULL;
}

struct counter_set {
	char *cgroup;               /* NULL: the whole system, per CPU */
	char container_id[65], unit[128];
	int cgroup_fd;
	struct pms_counters *cs;
};

struct req_stat {
	char path[32];
	uint64_t count, sum_ns;
	uint64_t by_status[6];      /* 1xx..5xx, [0] other */
};

struct pms_agent {
	struct pms_agent_opts opts;
	struct pms_cpulist cpus;
	struct pms_evlist events;

	pthread_mutex_t count_lock; /* counter reads (they move counts into prev) */
	struct counter_set *sets;
	size_t nr_sets;

	pthread_mutex_t hist_lock;  /* windows, process table, health copies */
	struct profile on, off;
	struct proc_info *procs;
	size_t nr_procs, procs_alloc;
	uint64_t procs_evicted, windows_evicted, samples_evicted, windows_cut, unsymbolized;
	uint64_t held_images, held_build_ids, held_files, held_jit_maps; /* the symbolizer's tables */
	char sampler_note[200];

	pthread_mutex_t req_lock;
	struct req_stat reqs[8];
	size_t nr_reqs;

	uint64_t keep_caps;         /* raised around /proc reads of the sampler thread */
	uint64_t last_trim_ns;
	uint64_t start_wall_ns;
};

static uint64_t wall_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * NS_PER_S + (uint64_t)ts.tv_nsec;
}

/* ------------------------------------------------------------- cgroups -- */

int pms_cgroup__path_of(const char *proc_cgroup, char *out, size_t size)
{
	const char *line = proc_cgroup;

	while (line && *line) {
		const char *nl = strchr(line, '\n'), *end = nl ? nl : line + strlen(line);

		/* cgroup v2: "0::/path" */
		if (end - line >= 3 && !strncmp(line, "0::", 3)) {
			size_t len = (size_t)(end - line - 3);

			if (len + 1 > size)
				return -ENAMETOOLONG;
			memcpy(out, line + 3, len);
			out[len] = 0;
			return 0;
		}
		line = nl ? nl + 1 : NULL;
	}
	return -ENOENT;
}

static bool hex64_at(const char *s)
{
	for (int i = 0; i < 64; i++)
		if (!isxdigit((unsigned char)s[i]) || isupper((unsigned char)s[i]))
			return false;
	return !isxdigit((unsigned char)s[64]);
}

void pms_cgroup__labels(const char *path, char *container_id, size_t cid_size, char *unit, size_t unit_size)
{
	const char *p, *elem;

	if (cid_size)
		container_id[0] = 0;
	if (unit_size)
		unit[0] = 0;
	/* docker-<id>.scope, cri-containerd-<id>.scope, crio-<id>.scope, libpod-<id>.scope, /docker/<id> */
	for (p = path; *p; p++) {
		if ((p == path || !isxdigit((unsigned char)p[-1])) && strlen(p) >= 64 && hex64_at(p)) {
			snprintf(container_id, cid_size, "%.64s", p);
			break;
		}
	}
	/* the innermost unit: the last element with a unit suffix */
	for (elem = path; elem && *elem; elem = strchr(elem, '/') ? strchr(elem, '/') + 1 : NULL) {
		const char *end = strchr(elem, '/');
		size_t len = end ? (size_t)(end - elem) : strlen(elem);
		static const char *const sfx[] = { ".service", ".scope", ".socket", ".mount" };

		for (size_t i = 0; i < 4; i++) {
			size_t sl = strlen(sfx[i]);

			if (len > sl && !strncmp(elem + len - sl, sfx[i], sl))
				snprintf(unit, unit_size, "%.*s", (int)len, elem);
		}
	}
}

static int read_small(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = read(fd, buf, size - 1);
	close(fd);
	if (n < 0)
		return -errno;
	buf[n] = 0;
	return 0;
}

/* ------------------------------------------------------------ counters -- */

static int open_set(struct pms_agent *a, struct counter_set *set, char *err, size_t err_size)
{
	struct pms_counter_opts co = { .cgroup = set->cgroup != NULL, .cgroup_fd = set->cgroup_fd };
	struct pms_counter_error ce;
	int rc;

	set->cs = pms_counters__new(&a->events, a->cpus.cpus, a->cpus.nr, NULL, 0, &co);
	if (!set->cs) {
		snprintf(err, err_size, "cannot set up the counters: %s", strerror(errno));
		return -errno;
	}
	memset(&ce, 0, sizeof(ce));
	rc = pms_counters__open(set->cs, &co, &ce);
	if (rc) {
		snprintf(err, err_size, "cannot open the counters%s%s: %s", set->cgroup ? " of cgroup " : "",
			 set->cgroup ? set->cgroup : "", ce.msg[0] ? ce.msg : strerror(-rc));
		return rc;
	}
	rc = pms_counters__enable(set->cs);
	if (rc)
		snprintf(err, err_size, "cannot enable the counters: %s", strerror(-rc));
	return rc;
}

static int open_counters(struct pms_agent *a, char *err, size_t err_size)
{
	struct pms_event_ctx *ctx = pms_event_ctx__new();
	struct pms_parse_error perr;
	const char *events = a->opts.events ? a->opts.events : PMS_AGENT_DEFAULT_EVENTS;
	size_t nr_open = 0;
	int rc;

	if (!ctx)
		return -ENOMEM;
	memset(&perr, 0, sizeof(perr));
	rc = pms_evlist__parse(&a->events, ctx, events, &perr);
	pms_event_ctx__free(ctx);
	if (rc) {
		snprintf(err, err_size, "event list '%s': %s%s%s", events, perr.msg, perr.hint[0] ? "; " : "",
			 perr.hint);
		return rc;
	}
	a->sets = calloc(1 + a->opts.nr_cgroups, sizeof(*a->sets));
	if (!a->sets)
		return -ENOMEM;
	a->sets[0].cgroup_fd = -1;
	a->nr_sets = 1;
	for (size_t i = 0; i < a->opts.nr_cgroups; i++) {
		struct counter_set *set = &a->sets[a->nr_sets];
		const char *cg = a->opts.cgroups[i];
		char path[512];

		int fd = pms_cgroup__open(cg, path, sizeof(path));

		if (fd == -ENOENT && !path[0]) {
			snprintf(err, err_size, "cgroup '%s': no cgroup v2 hierarchy is mounted (looked at /sys/fs/cgroup "
				 "and /sys/fs/cgroup/unified)", cg);
			return -ENOENT;
		}
		set->cgroup = strdup(path + strlen(pms_cgroup__v2_root()) + 1);
		if (!set->cgroup) {
			if (fd >= 0)
				close(fd);
			return -ENOMEM;
		}
		a->nr_sets++;
		set->cgroup_fd = fd;
		if (set->cgroup_fd < 0) {
			rc = fd;
			snprintf(err, err_size, "cgroup '%s': cannot open %s: %s", a->opts.cgroups[i], path,
				 strerror(-fd));
			return rc;
		}
		pms_cgroup__labels(set->cgroup, set->container_id, sizeof(set->container_id), set->unit,
				   sizeof(set->unit));
	}
	for (size_t s = 0; s < a->nr_sets; s++) {
		rc = open_set(a, &a->sets[s], err, err_size);
		if (rc)
			return rc;
	}
	for (size_t i = 0; i < a->sets[0].cs->nr; i++)
		nr_open += a->sets[0].cs->c[i].state == PMS_COUNTER_OK;
	if (!nr_open) {
		snprintf(err, err_size, "none of the events opens here (%s)", a->sets[0].cs->nr ?
			 a->sets[0].cs->c[0].reason : "empty list");
		return -EOPNOTSUPP;
	}
	return 0;
}

/* ------------------------------------------------------------ profiles -- */

static void on_announce(void *arg, uint32_t tgid, uint32_t exec_id);

static int start_profile(struct pms_agent *a, struct profile *p, bool off_cpu, char *err, size_t err_size)
{
	struct pms_profile_opts po = {
		.sz = sizeof(po),
		.freq = a->opts.freq_hz,
		.off_cpu = off_cpu,
		.duration_s = 1,
		.try_hardware = false,
	};
	enum pms_profile_fail fail;
	struct pms_sampler_error serr;
	char why[128];
	int rc;

	rc = pms_profiler__start(&po, PMS_STACKS_ROOT_PID, &p->pr, &fail);
	if (!rc)
		goto started;
	pms_profile_fail__describe(fail, rc, why, sizeof(why));
	if (off_cpu) {
		snprintf(err, err_size, "the off-CPU sampler did not load: %s", why);
		return rc;
	}
	memset(&serr, 0, sizeof(serr));
	rc = pms_profiler__start_ring(&po, PMS_STACKS_ROOT_PID, &p->pr, &serr);
	if (rc) {
		snprintf(err, err_size, "no sampler: BPF did not load (%s), and perf's ring buffer: %s", why,
			 serr.msg[0] ? serr.msg : strerror(-rc));
		return rc;
	}
	p->ring = true;
	snprintf(a->sampler_note, sizeof(a->sampler_note), "perf ring buffer: BPF did not load (%s)", why);
started:
	/* an always-on agent sees every binary the host runs: keep the symbols of the recent ones only */
	pms_profiler__limit_files(p->pr, a->opts.max_files);
	pms_profiler__on_announce(p->pr, on_announce, a);
	p->window_start_ns = wall_ns();
	return 0;
}

static struct proc_info *proc_find(struct pms_agent *a, uint32_t pid)
{
	for (size_t i = 0; i < a->nr_procs; i++)
		if (a->procs[i].pid == pid)
			return &a->procs[i];
	return NULL;
}

static void raise_caps(struct pms_agent *a, bool on)
{
	if (a->keep_caps)
		pms_privs__raise(a->keep_caps, on);
}

static void live_access(void *arg, bool begin)
{
	raise_caps(arg, begin);
}

/*
 * What labels a process's samples, read while it (probably) still runs: its
 * executable's path and its cgroup. The build-id is read from the path later,
 * only for processes that were sampled. hist_lock held.
 */
static void proc_describe(struct pms_agent *a, struct proc_info *pi, uint32_t pid, const char *comm)
{
	char path[64], buf[1024], exe[512], cg[512], cid[65], unit[256];
	ssize_t n;

	proc_info_release(pi);
	pi->pid = pid;
	snprintf(pi->comm, sizeof(pi->comm), "%s", comm ? comm : "");
	raise_caps(a, true);
	snprintf(path, sizeof(path), "/proc/%u/exe", pid);
	n = readlink(path, exe, sizeof(exe) - 1);
	exe[n > 0 ? n : 0] = 0;
	pi->exe = dup_or_null(exe);
	snprintf(path, sizeof(path), "/proc/%u/cgroup", pid);
	if (!read_small(path, buf, sizeof(buf)) && !pms_cgroup__path_of(buf, cg, sizeof(cg))) {
		pms_cgroup__labels(cg, cid, sizeof(cid), unit, sizeof(unit));
		pi->cgroup = dup_or_null(cg);
		pi->container_id = dup_or_null(cid);
		pi->unit = dup_or_null(unit);
	}
	raise_caps(a, false);
}

/* The build-id of a sampled process's executable, once (by /proc while it runs, else by its path). */
static void proc_build_id(struct pms_agent *a, struct proc_info *pi)
{
	char path[64];
	uint8_t id[64];
	int n;

	if (pi->build_id_tried)
		return;
	pi->build_id_tried = true;
	raise_caps(a, true);
	snprintf(path, sizeof(path), "/proc/%u/exe", pi->pid);
	n = pms_build_id__read(path, id, sizeof(id));
	if (n <= 0 && pi->exe && pi->exe[0] == '/')
		n = pms_build_id__read(pi->exe, id, sizeof(id));
	raise_caps(a, false);
	if (n > 0)
		pms_build_id__to_hex(id, (size_t)n, pi->build_id, sizeof(pi->build_id));
}

/* A slot for pid: its own, a new one, or the least recently sampled one's. hist_lock held. */
static struct proc_info *proc_slot(struct pms_agent *a, uint32_t pid, bool *fresh)
{
	struct proc_info *pi = proc_find(a, pid);

	*fresh = !pi;
	if (pi)
		return pi;
	if (a->nr_procs >= a->opts.max_processes) {
		size_t old = 0;

		for (size_t i = 1; i < a->nr_procs; i++)
			if (a->procs[i].last_seen_ns < a->procs[old].last_seen_ns)
				old = i;
		a->procs_evicted++;
		return &a->procs[old];
	}
	if (pms_array__reserve(&a->procs, &a->procs_alloc, a->nr_procs + 1, sizeof(*a->procs)))
		return NULL;
	pi = &a->procs[a->nr_procs++];
	memset(pi, 0, sizeof(*pi));
	return pi;
}

/* The sampler announced a process (new, or exec'd): describe it now, before it can exit. */
static void on_announce(void *arg, uint32_t tgid, uint32_t exec_id)
{
	struct pms_agent *a = arg;
	struct proc_info *pi;
	bool fresh;

	(void)exec_id;
	pthread_mutex_lock(&a->hist_lock);
	pi = proc_slot(a, tgid, &fresh);
	if (pi) {
		proc_describe(a, pi, tgid, NULL);
		pi->last_seen_ns = wall_ns();
	}
	pthread_mutex_unlock(&a->hist_lock);
}

/* Describe the processes of a new window's roots. hist_lock held. */
static void note_processes(struct pms_agent *a, const struct pms_stacks *st, uint64_t now)
{
	size_t nn, nf;
	const struct pms_stack_node *n = pms_stacks__nodes(st, &nn);
	const struct pms_stack_frame *f = pms_stacks__frames(st, &nf);

	for (uint32_t c = nn ? n[0].first_child : 0; c; c = n[c].next_sibling) {
		const struct pms_stack_frame *pf = &f[n[c].frame];
		struct proc_info *pi;
		bool fresh;

		if (pf->kind != PMS_STACK_PROCESS || !pf->pid)
			continue;
		pi = proc_slot(a, pf->pid, &fresh);
		if (!pi)
			continue;
		if (!fresh && !pi->comm[0]) {
			/* described at its announcement: the name comes with its first samples */
			snprintf(pi->comm, sizeof(pi->comm), "%s", pf->name);
		} else if (fresh || strncmp(pi->comm, pf->name, sizeof(pi->comm) - 1)) {
			/* not announced (running before the start, or missed), or another program since */
			proc_describe(a, pi, pf->pid, pf->name);
		}
		proc_build_id(a, pi);
		pi->last_seen_ns = now;
	}
}

static size_t total_nodes(const struct pms_agent *a)
{
	size_t sum = 0;

	for (size_t i = 0; i < a->on.nr_w; i++)
		sum += a->on.w[i].nodes;
	for (size_t i = 0; i < a->off.nr_w; i++)
		sum += a->off.w[i].nodes;
	return sum;
}

static void drop_oldest(struct pms_agent *a, struct profile *p, bool early)
{
	if (!p->nr_w)
		return;
	if (early) {
		a->windows_evicted++;
		a->samples_evicted += p->w[0].samples;
	}
	pms_stacks__free(p->w[0].tree);
	memmove(&p->w[0], &p->w[1], (p->nr_w - 1) * sizeof(p->w[0]));
	p->nr_w--;
}

/* Samples whose leaf is an address no symbol covers. */
static uint64_t unsymbolized_samples(const struct pms_stacks *st)
{
	size_t nn, nf;
	const struct pms_stack_node *n = pms_stacks__nodes(st, &nn);
	const struct pms_stack_frame *f = pms_stacks__frames(st, &nf);
	uint64_t sum = 0;

	for (size_t i = 1; i < nn; i++)
		if (n[i].self_samples && f[n[i].frame].kind == PMS_STACK_UNKNOWN)
			sum += n[i].self_samples;
	return sum;
}

static int cut(struct pms_agent *a, struct profile *p, uint64_t now)
{
	struct pms_stacks *st = NULL;
	struct window w;
	size_t nn;
	int rc = pms_profiler__cut(p->pr, &st);

	if (rc)
		return rc;
	pms_stacks__nodes(st, &nn);
	w = (struct window){ .start_ns = p->window_start_ns, .end_ns = now, .tree = st, .nodes = nn,
			     .samples = pms_stacks__meta(st)->samples };
	p->window_start_ns = now;
	pthread_mutex_lock(&a->hist_lock);
	pms_profiler__losses(p->pr, &p->losses);
	p->counts = *pms_profiler__counts(p->pr);
	a->unsymbolized += unsymbolized_samples(st);
	if (p == &a->on) {
		const struct pms_live_syms_stats *ss = pms_profiler__syms_stats(p->pr);
		size_t files, jits;

		pms_resolver__held(pms_profiler__resolver(p->pr), &files, &jits);
		a->held_images = ss->images;
		a->held_build_ids = ss->build_ids;
		a->held_files = files;
		a->held_jit_maps = jits;
	}
	a->windows_cut++;
	note_processes(a, st, now);
	while (p->nr_w && p->w[0].end_ns + (uint64_t)a->opts.history_s * NS_PER_S <= now)
		drop_oldest(a, p, false);
	if (pms_array__reserve(&p->w, &p->w_alloc, p->nr_w + 1, sizeof(*p->w))) {
		pthread_mutex_unlock(&a->hist_lock);
		a->samples_evicted += w.samples;
		pms_stacks__free(st);
		return -ENOMEM;
	}
	p->w[p->nr_w++] = w;
	/* over the node budget: the oldest windows of either profile go, counted */
	while (total_nodes(a) > a->opts.max_nodes && (a->on.nr_w + a->off.nr_w) > 1) {
		struct profile *older = !a->off.nr_w ? &a->on : !a->on.nr_w ? &a->off :
					a->on.w[0].end_ns <= a->off.w[0].end_ns ? &a->on : &a->off;

		drop_oldest(a, older, true);
	}
	pthread_mutex_unlock(&a->hist_lock);
	return 0;
}

int pms_agent__poll(struct pms_agent *a, int timeout_ms)
{
	uint64_t now;
	int rc = 0;

	if (a->on.pr) {
		rc = pms_profiler__poll(a->on.pr, a->off.pr ? timeout_ms / 2 : timeout_ms);
		if (rc < 0 && rc != -EINTR)
			return rc;
	}
	if (a->off.pr) {
		rc = pms_profiler__poll(a->off.pr, a->on.pr ? timeout_ms / 2 : timeout_ms);
		if (rc < 0 && rc != -EINTR)
			return rc;
	}
	if (!a->on.pr && !a->off.pr) {
		struct timespec ts = { timeout_ms / 1000, (long)(timeout_ms % 1000) * 1000000L };

		if (nanosleep(&ts, NULL))
			return -errno;
	}
	now = wall_ns();
	if (now - a->last_trim_ns >= 10 * NS_PER_S) {
		/* windows come and go every second: hand the pages they freed back rather than keep them */
		malloc_trim(0);
		a->last_trim_ns = now;
	}
	if (a->on.pr && now - a->on.window_start_ns >= NS_PER_S) {
		int c = cut(a, &a->on, now);

		if (c)
			return c;
	}
	if (a->off.pr && now - a->off.window_start_ns >= NS_PER_S) {
		int c = cut(a, &a->off, now);

		if (c)
			return c;
	}
	return rc == -EINTR ? -EINTR : 0;
}

int pms_agent__prepare_drop(struct pms_agent *a, uint64_t keep_caps)
{
	int rc = 0;

	if (a->on.pr)
		rc = pms_profiler__load_kernel_symbols(a->on.pr);
	if (a->off.pr)
		pms_profiler__load_kernel_symbols(a->off.pr);
	/* reading kallsyms freed more than it kept: give those pages back before the long run */
	malloc_trim(0);
	a->keep_caps = keep_caps;
	if (keep_caps) {
		if (a->on.pr)
			pms_live_syms__set_access(pms_profiler__syms(a->on.pr), live_access, a);
		if (a->off.pr)
			pms_live_syms__set_access(pms_profiler__syms(a->off.pr), live_access, a);
	}
	return rc;
}

/* ---------------------------------------------------------- lifecycle -- */

struct pms_agent *pms_agent__new(const struct pms_agent_opts *opts, char *err, size_t err_size)
{
	struct pms_agent *a;
	int rc;

	if (!opts || opts->sz < sizeof(size_t)) {
		errno = EINVAL;
		snprintf(err, err_size, "bad options");
		return NULL;
	}
	a = calloc(1, sizeof(*a));
	if (!a) {
		errno = ENOMEM;
		return NULL;
	}
	memcpy(&a->opts, opts, opts->sz < sizeof(a->opts) ? opts->sz : sizeof(a->opts));
	a->opts.sz = sizeof(a->opts);
	if (!a->opts.freq_hz)
		a->opts.freq_hz = 19;
	if (!a->opts.history_s)
		a->opts.history_s = 60;
	if (!a->opts.max_nodes)
		a->opts.max_nodes = 500000;
	if (!a->opts.max_processes)
		a->opts.max_processes = 4096;
	if (!a->opts.max_files)
		a->opts.max_files = 64;
	pthread_mutex_init(&a->count_lock, NULL);
	pthread_mutex_init(&a->hist_lock, NULL);
	pthread_mutex_init(&a->req_lock, NULL);
	a->start_wall_ns = wall_ns();
	err[0] = 0;
	rc = pms_cpulist__online(&a->cpus);
	if (rc) {
		snprintf(err, err_size, "cannot read the online CPUs: %s", strerror(-rc));
		goto fail;
	}
	if (!a->opts.no_counters && (rc = open_counters(a, err, err_size)))
		goto fail;
	if (!a->opts.no_profile && (rc = start_profile(a, &a->on, false, err, err_size)))
		goto fail;
	if (a->opts.off_cpu && !a->opts.no_profile && (rc = start_profile(a, &a->off, true, err, err_size)))
		goto fail;
	return a;
fail:
	if (!err[0])
		snprintf(err, err_size, "%s", strerror(-rc));
	pms_agent__free(a);
	errno = rc < 0 ? -rc : ENOMEM;
	return NULL;
}

static void profile_free(struct profile *p)
{
	pms_profiler__free(p->pr);
	for (size_t i = 0; i < p->nr_w; i++)
		pms_stacks__free(p->w[i].tree);
	free(p->w);
}

void pms_agent__free(struct pms_agent *a)
{
	if (!a)
		return;
	profile_free(&a->on);
	profile_free(&a->off);
	for (size_t s = 0; s < a->nr_sets; s++) {
		if (a->sets[s].cs) {
			pms_counters__close(a->sets[s].cs);
			pms_counters__free(a->sets[s].cs);
		}
		if (a->sets[s].cgroup_fd >= 0)
			close(a->sets[s].cgroup_fd);
		free(a->sets[s].cgroup);
	}
	free(a->sets);
	pms_evlist__release(&a->events);
	pms_cpulist__release(&a->cpus);
	for (size_t i = 0; i < a->nr_procs; i++)
		proc_info_release(&a->procs[i]);
	free(a->procs);
	pthread_mutex_destroy(&a->count_lock);
	pthread_mutex_destroy(&a->hist_lock);
	pthread_mutex_destroy(&a->req_lock);
	free(a);
}

/* ------------------------------------------------------------- health -- */

void pms_agent__health(struct pms_agent *a, struct pms_agent_health *h)
{
	memset(h, 0, sizeof(*h));
	pthread_mutex_lock(&a->hist_lock);
	for (int k = 0; k < 2; k++) {
		const struct profile *p = k ? &a->off : &a->on;

		if (k) /* off-CPU weights are blocks, not samples: not in the sample accounting */
			break;
		h->samples_taken += p->losses.taken;
		h->dropped_ring += p->losses.dropped_ring;
		h->dropped_maps += p->losses.dropped_maps;
		h->user_stacks_lost += p->losses.user_stacks_lost;
		h->kernel_stacks_lost += p->losses.kernel_stacks_lost;
		h->truncated += p->losses.truncated;
		h->samples_profiled += p->counts.samples;
	}
	h->samples_evicted = a->samples_evicted;
	h->windows = a->on.nr_w + a->off.nr_w;
	h->windows_evicted = a->windows_evicted;
	h->nodes = total_nodes(a);
	h->unsymbolized = a->unsymbolized;
	h->processes = a->nr_procs;
	h->processes_evicted = a->procs_evicted;
	h->ring_fallback = a->on.ring;
	snprintf(h->sampler_note, sizeof(h->sampler_note), "%s", a->sampler_note);
	pthread_mutex_unlock(&a->hist_lock);
	if (a->nr_sets)
		for (size_t i = 0; i < a->sets[0].cs->nr; i++) {
			if (a->sets[0].cs->c[i].state == PMS_COUNTER_OK)
				h->counters_open++;
			else
				h->counters_unsupported++;
		}
}

int pms_agent__note_request(struct pms_agent *a, const char *path, unsigned status, uint64_t duration_ns)
{
	struct req_stat *r = NULL;

	pthread_mutex_lock(&a->req_lock);
	for (size_t i = 0; i < a->nr_reqs; i++)
		if (!strcmp(a->reqs[i].path, path))
			r = &a->reqs[i];
	if (!r && a->nr_reqs < sizeof(a->reqs) / sizeof(a->reqs[0])) {
		r = &a->reqs[a->nr_reqs++];
		snprintf(r->path, sizeof(r->path), "%s", path);
	}
	if (r) {
		r->count++;
		r->sum_ns += duration_ns;
		r->by_status[status >= 100 && status < 600 ? status / 100 : 0]++;
	}
	pthread_mutex_unlock(&a->req_lock);
	return r ? 0 : -ENOSPC;
}

/* ------------------------------------------------------------ /metrics -- */

struct mw {
	struct strbuf *out;
	int err;
};

static void fam(struct mw *m, const char *name, const char *type, const char *help)
{
	int rc = pms_prom__family(m->out, name, type, help);

	if (rc && !m->err)
		m->err = rc;
}

static void smp(struct mw *m, const char *name, const struct pms_prom_label *l, size_t nl, double v)
{
	int rc = pms_prom__sample(m->out, name, l, nl, v);

	if (rc && !m->err)
		m->err = rc;
}

static void smp_u64(struct mw *m, const char *name, const struct pms_prom_label *l, size_t nl, uint64_t v)
{
	int rc = pms_prom__sample_u64(m->out, name, l, nl, v);

	if (rc && !m->err)
		m->err = rc;
}

/* A family of one unlabelled sample. */
static void one_u64(struct mw *m, const char *name, const char *type, const char *help, uint64_t v)
{
	fam(m, name, type, help);
	smp_u64(m, name, NULL, 0, v);
}

static bool is_clock(const struct pms_counter *c)
{
	return !strcmp(c->unit, "msec");
}

/* The family name of counter c ("pmuscope_context_switches_total", "pmuscope_cpu_clock_seconds_total"). */
static int counter_name(const struct pms_counter *c, const char *prefix, char *out, size_t size)
{
	return pms_prom__name_from(c->name, prefix, is_clock(c) ? "_seconds_total" : "_total", out, size);
}

/* The base-unit value of a count: clocks count nanoseconds, shown in seconds. */
static double base_value(const struct pms_counter *c, double v)
{
	return is_clock(c) ? v / 1e9 : v;
}

static void counters_text(struct pms_agent *a, struct mw *m)
{
	const struct counter_set *sys = &a->sets[0];
	char name[256], cpu[16];

	fam(m, "pmuscope_perf_event_supported", "gauge",
	    "1 when the event opened here and is counted, 0 when it did not (reason says why)");
	for (size_t i = 0; i < sys->cs->nr; i++) {
		const struct pms_counter *c = &sys->cs->c[i];
		struct pms_prom_label l[2] = { { "event", c->name }, { "reason", c->state == PMS_COUNTER_OK ? NULL :
								       c->reason[0] ? c->reason : "not supported" } };

		smp(m, "pmuscope_perf_event_supported", l, 2, c->state == PMS_COUNTER_OK);
	}
	/* one family per event: the raw count, exact and monotonic, per CPU */
	for (size_t i = 0; i < sys->cs->nr; i++) {
		const struct pms_counter *c = &sys->cs->c[i];
		char help[256];
		bool dup = false;

		if (c->state != PMS_COUNTER_OK || counter_name(c, "pmuscope_", name, sizeof(name)))
			continue;
		for (size_t k = 0; k < i; k++) {
			char other[256];

			if (sys->cs->c[k].state == PMS_COUNTER_OK &&
			    !counter_name(&sys->cs->c[k], "pmuscope_", other, sizeof(other)) && !strcmp(other, name))
				dup = true;
		}
		if (dup)
			continue;
		snprintf(help, sizeof(help),
			 "perf event %s per CPU%s, as counted (not scaled: see pmuscope_perf_event_scaled)", c->name,
			 is_clock(c) ? " in seconds" : "");
		fam(m, name, "counter", help);
		for (size_t k = 0; k < sys->cs->nr_cpus; k++) {
			struct pms_count s = pms_counter__sum(c, sys->cs, (int)k, -1, false);
			struct pms_prom_label l = { "cpu", cpu };

			snprintf(cpu, sizeof(cpu), "%d", sys->cs->cpus[k]);
			if (is_clock(c))
				smp(m, name, &l, 1, base_value(c, (double)s.val));
			else
				smp_u64(m, name, &l, 1, s.val);
		}
	}
	/* time enabled and running, so that multiplexed counts can be scaled over any interval */
	static const char *const fams[3][3] = {
		{ "pmuscope_perf_event_enabled_seconds_total", "counter",
		  "time the event was enabled, per CPU: rate(count) * rate(enabled) / rate(running) is the "
		  "multiplexing-corrected rate" },
		{ "pmuscope_perf_event_running_seconds_total", "counter",
		  "time the event was counting on the PMU, per CPU (less than enabled when multiplexed)" },
		{ "pmuscope_perf_event_scaled", "gauge",
		  "count * enabled / running since the start (perf stat's estimate, in the event's base unit); "
		  "not monotonic when multiplexing varies, so not a counter" },
	};
	for (int f = 0; f < 3; f++) {
		fam(m, fams[f][0], fams[f][1], fams[f][2]);
		for (size_t i = 0; i < sys->cs->nr; i++) {
			const struct pms_counter *c = &sys->cs->c[i];

			if (c->state != PMS_COUNTER_OK)
				continue;
			for (size_t k = 0; k < sys->cs->nr_cpus; k++) {
				struct pms_count s = pms_counter__sum(c, sys->cs, (int)k, -1, false);
				struct pms_prom_label l[2] = { { "event", c->name }, { "cpu", cpu } };
				double scaled;

				snprintf(cpu, sizeof(cpu), "%d", sys->cs->cpus[k]);
				if (f == 0)
					smp(m, fams[f][0], l, 2, (double)s.ena / 1e9);
				else if (f == 1)
					smp(m, fams[f][0], l, 2, (double)s.run / 1e9);
				else if (pms_count__scaled(&s, false, &scaled))
					smp(m, fams[f][0], l, 2, base_value(c, scaled));
			}
		}
	}
	/* cgroups: summed over CPUs */
	if (a->nr_sets < 2)
		return;
	for (size_t i = 0; i < sys->cs->nr; i++) {
		const struct pms_counter *c = &sys->cs->c[i];
		char help[256];

		if (c->state != PMS_COUNTER_OK || counter_name(c, "pmuscope_cgroup_", name, sizeof(name)))
			continue;
		snprintf(help, sizeof(help), "perf event %s of the tasks of a cgroup (perf's cgroup mode), all CPUs%s",
			 c->name, is_clock(c) ? ", in seconds" : "");
		fam(m, name, "counter", help);
		for (size_t s = 1; s < a->nr_sets; s++) {
			const struct counter_set *set = &a->sets[s];
			const struct pms_counter *cc = &set->cs->c[i];
			struct pms_count sum = pms_counter__sum(cc, set->cs, -1, -1, false);
			struct pms_prom_label l[3] = { { "cgroup", set->cgroup }, { "container_id", set->container_id },
						       { "systemd_unit", set->unit } };

			if (cc->state != PMS_COUNTER_OK)
				continue;
			if (is_clock(c))
				smp(m, name, l, 3, base_value(c, (double)sum.val));
			else
				smp_u64(m, name, l, 3, sum.val);
		}
	}
	for (int f = 0; f < 2; f++) {
		const char *fn = f ? "pmuscope_cgroup_perf_event_running_seconds_total" :
				     "pmuscope_cgroup_perf_event_enabled_seconds_total";

		fam(m, fn, "counter", f ? "time a cgroup's event was counting, summed over CPUs" :
					  "time a cgroup's event was enabled, summed over CPUs");
		for (size_t s = 1; s < a->nr_sets; s++)
			for (size_t i = 0; i < a->sets[s].cs->nr; i++) {
				const struct pms_counter *cc = &a->sets[s].cs->c[i];
				struct pms_count sum = pms_counter__sum(cc, a->sets[s].cs, -1, -1, false);
				struct pms_prom_label l[2] = { { "event", cc->name }, { "cgroup", a->sets[s].cgroup } };

				if (cc->state == PMS_COUNTER_OK)
					smp(m, fn, l, 2, (double)(f ? sum.run : sum.ena) / 1e9);
			}
	}
}

static void process_text(struct mw *m)
{
	struct rusage ru;
	char buf[256];
	long page = sysconf(_SC_PAGESIZE);
	unsigned long long size = 0, rss = 0;

	if (!getrusage(RUSAGE_SELF, &ru)) {
		fam(m, "process_cpu_seconds_total", "counter", "user and system CPU time of the agent, in seconds");
		smp(m, "process_cpu_seconds_total", NULL, 0,
		    (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
			    (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6);
	}
	if (!read_small("/proc/self/statm", buf, sizeof(buf)) && sscanf(buf, "%llu %llu", &size, &rss) == 2) {
		fam(m, "process_resident_memory_bytes", "gauge", "resident memory of the agent, in bytes");
		smp(m, "process_resident_memory_bytes", NULL, 0, (double)rss * (double)page);
		fam(m, "process_virtual_memory_bytes", "gauge", "virtual memory of the agent, in bytes");
		smp(m, "process_virtual_memory_bytes", NULL, 0, (double)size * (double)page);
	}
}

static void health_text(struct pms_agent *a, struct mw *m)
{
	struct pms_agent_health h;
	struct pms_prom_label l;

	pms_agent__health(a, &h);
	fam(m, "pmuscope_agent_start_time_seconds", "gauge", "when the agent started, seconds since the epoch");
	smp(m, "pmuscope_agent_start_time_seconds", NULL, 0, (double)a->start_wall_ns / 1e9);
	if (a->on.pr) {
		fam(m, "pmuscope_agent_sample_rate_hertz", "gauge", "on-CPU samples per second per CPU asked for");
		smp(m, "pmuscope_agent_sample_rate_hertz", NULL, 0, a->opts.freq_hz);
		fam(m, "pmuscope_agent_sampler_ring_fallback", "gauge",
		    "1 when samples stream through perf's ring buffer because BPF did not load");
		l = (struct pms_prom_label){ "reason", h.sampler_note };
		smp(m, "pmuscope_agent_sampler_ring_fallback", &l, 1, h.ring_fallback);
		one_u64(m, "pmuscope_agent_samples_total", "counter", "on-CPU samples the sampler took", h.samples_taken);
		one_u64(m, "pmuscope_agent_samples_profiled_total", "counter", "samples put into profile windows",
			h.samples_profiled);
		fam(m, "pmuscope_agent_samples_dropped_total", "counter",
		    "samples dropped whole, by reason: ring_full (ring buffer), maps_full (in-kernel counts map), "
		    "evicted (history over its node budget)");
		l = (struct pms_prom_label){ "reason", "ring_full" };
		smp_u64(m, "pmuscope_agent_samples_dropped_total", &l, 1, h.dropped_ring);
		l.value = "maps_full";
		smp_u64(m, "pmuscope_agent_samples_dropped_total", &l, 1, h.dropped_maps);
		l.value = "evicted";
		smp_u64(m, "pmuscope_agent_samples_dropped_total", &l, 1, h.samples_evicted);
		fam(m, "pmuscope_agent_stacks_lost_total", "counter",
		    "samples kept without their user or kernel stack, by part");
		l = (struct pms_prom_label){ "part", "user" };
		smp_u64(m, "pmuscope_agent_stacks_lost_total", &l, 1, h.user_stacks_lost);
		l.value = "kernel";
		smp_u64(m, "pmuscope_agent_stacks_lost_total", &l, 1, h.kernel_stacks_lost);
		one_u64(m, "pmuscope_agent_stacks_truncated_total", "counter", "stacks cut at the frame limit", h.truncated);
		one_u64(m, "pmuscope_agent_stacks_table_drains_total", "counter",
		    "early reads of the in-kernel counts map because it was three quarters full", a->on.counts.drains);
		one_u64(m, "pmuscope_agent_unsymbolized_samples_total", "counter",
		    "samples whose leaf frame no symbol covers", h.unsymbolized);
		one_u64(m, "pmuscope_agent_profile_windows", "gauge", "one-second profile windows held", h.windows);
		one_u64(m, "pmuscope_agent_profile_windows_evicted_total", "counter",
		    "windows dropped before their time to stay under the node budget", h.windows_evicted);
		one_u64(m, "pmuscope_agent_profile_nodes", "gauge", "call-tree nodes held over all windows", h.nodes);
		one_u64(m, "pmuscope_agent_processes", "gauge", "processes described for profile labels", h.processes);
		one_u64(m, "pmuscope_agent_processes_evicted_total", "counter",
		    "process descriptions dropped to stay under the table's size", h.processes_evicted);
	}
	if (a->on.pr) { /* the symbolizer's tables (of the on-CPU sampler) */
		static const char *const kinds[4] = { "images", "build_ids", "files", "jit_maps" };
		uint64_t v[4];

		pthread_mutex_lock(&a->hist_lock);
		v[0] = a->held_images;
		v[1] = a->held_build_ids;
		v[2] = a->held_files;
		v[3] = a->held_jit_maps;
		pthread_mutex_unlock(&a->hist_lock);
		fam(m, "pmuscope_agent_symbolizer_entries", "gauge",
		    "what the symbolizer holds, by kind: process images (live, and gone ones for one more "
		    "second), files' build-ids, object files open, JIT maps");
		for (int k = 0; k < 4; k++) {
			l = (struct pms_prom_label){ "kind", kinds[k] };
			smp_u64(m, "pmuscope_agent_symbolizer_entries", &l, 1, v[k]);
		}
	}
	{
		struct mallinfo2 mi = mallinfo2();

		fam(m, "pmuscope_agent_heap_bytes", "gauge",
		    "the agent's malloc heap: in_use (allocated) and free (held by malloc, not returned to the system)");
		l = (struct pms_prom_label){ "state", "in_use" };
		smp_u64(m, "pmuscope_agent_heap_bytes", &l, 1, mi.uordblks + mi.hblkhd);
		l.value = "free";
		smp_u64(m, "pmuscope_agent_heap_bytes", &l, 1, mi.fordblks);
	}
	process_text(m);
	pthread_mutex_lock(&a->req_lock);
	fam(m, "pmuscope_agent_scrape_duration_seconds", "summary",
	    "time to answer a request, by path (the answer's building, not its sending)");
	for (size_t i = 0; i < a->nr_reqs; i++) {
		struct pms_prom_label pl = { "path", a->reqs[i].path };

		smp(m, "pmuscope_agent_scrape_duration_seconds_sum", &pl, 1, (double)a->reqs[i].sum_ns / 1e9);
		smp_u64(m, "pmuscope_agent_scrape_duration_seconds_count", &pl, 1, a->reqs[i].count);
	}
	fam(m, "pmuscope_agent_http_requests_total", "counter", "requests answered, by path and status class");
	for (size_t i = 0; i < a->nr_reqs; i++)
		for (int s = 1; s < 6; s++) {
			char code[4] = { (char)('0' + s), 'x', 'x', 0 };
			struct pms_prom_label rl[2] = { { "path", a->reqs[i].path }, { "code", code } };

			if (a->reqs[i].by_status[s])
				smp_u64(m, "pmuscope_agent_http_requests_total", rl, 2, a->reqs[i].by_status[s]);
		}
	pthread_mutex_unlock(&a->req_lock);
}

int pms_agent__metrics(struct pms_agent *a, struct strbuf *out)
{
	struct mw m = { .out = out };

	if (a->nr_sets) {
		int rc;

		pthread_mutex_lock(&a->count_lock);
		rc = 0;
		for (size_t s = 0; s < a->nr_sets && !rc; s++)
			rc = pms_counters__read(a->sets[s].cs);
		if (!rc)
			counters_text(a, &m);
		pthread_mutex_unlock(&a->count_lock);
		if (rc)
			return rc;
	}
	health_text(a, &m);
	if (!m.err && out->oom)
		m.err = -ENOMEM;
	return m.err;
}

/* ------------------------------------------------------ /debug/pprof -- */

struct query_ctx {
	struct pms_agent *a;
	const struct pms_agent_query *q;
};

static bool keep_process(void *arg, const struct pms_stack_frame *f)
{
	const struct query_ctx *x = arg;

	if (x->q->pid && f->pid != x->q->pid)
		return false;
	if (x->q->comm && (!f->name || strcmp(f->name, x->q->comm)))
		return false;
	if (x->q->cgroup) {
		const struct proc_info *pi = proc_find(x->a, f->pid);

		if (!pi || !pi->cgroup || !strstr(pi->cgroup, x->q->cgroup))
			return false;
	}
	return true;
}

static size_t process_labels(void *arg, uint32_t pid, const char *comm, struct pms_pprof_label *out, size_t max)
{
	const struct proc_info *pi = proc_find(arg, pid);
	size_t n = 0;

	(void)comm;
	if (!pi || max < 5)
		return 0;
	out[n++] = (struct pms_pprof_label){ .key = "executable", .str = pi->exe };
	out[n++] = (struct pms_pprof_label){ .key = "build_id", .str = pi->build_id };
	out[n++] = (struct pms_pprof_label){ .key = "cgroup", .str = pi->cgroup };
	out[n++] = (struct pms_pprof_label){ .key = "container_id", .str = pi->container_id };
	out[n++] = (struct pms_pprof_label){ .key = "systemd_unit", .str = pi->unit };
	return n;
}

int pms_agent__profile(struct pms_agent *a, const struct pms_agent_query *q, struct strbuf *out, char *err,
		       size_t err_size)
{
	struct profile *p = q->off_cpu ? &a->off : &a->on;
	unsigned seconds = q->seconds ? q->seconds : 30;
	struct pms_stacks_opts so = { .sz = sizeof(so), .root = PMS_STACKS_ROOT_PID };
	struct pms_stacks *st;
	struct query_ctx x = { a, q };
	struct pms_pprof_opts po = { .sz = sizeof(po), .process_labels = process_labels, .arg = a,
				     .period = q->off_cpu ? 0 : NS_PER_S / a->opts.freq_hz };
	struct pms_stacks_meta meta;
	uint64_t now = wall_ns(), from = now - (uint64_t)seconds * NS_PER_S, first = 0, last = 0;
	int rc = 0;

	if (!p->pr) {
		snprintf(err, err_size, q->off_cpu ? "the off-CPU profile is not running (start the agent with "
						     "--off-cpu)" : "profiling is off (--no-profile)");
		return -ENOENT;
	}
	if (seconds > a->opts.history_s) {
		snprintf(err, err_size, "seconds=%u is more than the %u seconds of history kept (--history)", seconds,
			 a->opts.history_s);
		return -ERANGE;
	}
	st = pms_stacks__new(&so);
	if (!st)
		return -ENOMEM;
	pthread_mutex_lock(&a->hist_lock);
	for (size_t i = 0; i < p->nr_w && !rc; i++) {
		/* a window counts when most of it lies in the asked interval */
		if (p->w[i].start_ns + (p->w[i].end_ns - p->w[i].start_ns) / 2 < from)
			continue;
		if (!first)
			first = p->w[i].start_ns;
		last = p->w[i].end_ns;
		rc = pms_stacks__add_tree_if(st, p->w[i].tree, 1, 1,
					     q->pid || q->comm || q->cgroup ? keep_process : NULL, &x);
	}
	if (!rc) {
		const struct pms_stacks_meta *wm = p->nr_w ? pms_stacks__meta(p->w[p->nr_w - 1].tree) : NULL;
		size_t nn;

		memset(&meta, 0, sizeof(meta));
		meta.event = wm && wm->event ? wm->event : (q->off_cpu ? "off-cpu" : "cpu");
		meta.period_unit = "nanoseconds";
		meta.sample_noun = q->off_cpu ? "blocks" : "samples";
		meta.start_wall_ns = first ? first : from;
		meta.time_first_ns = first ? first : from;
		meta.time_last_ns = last ? last : now;
		meta.samples = pms_stacks__nodes(st, &nn)[0].total_samples;
		rc = pms_stacks__set_meta(st, &meta);
	}
	if (!rc)
		rc = pms_export__pprof_opts(st, &po, out);
	pthread_mutex_unlock(&a->hist_lock);
	pms_stacks__free(st);
	if (rc && !err[0])
		snprintf(err, err_size, "cannot build the profile: %s", strerror(-rc));
	return rc;
}
