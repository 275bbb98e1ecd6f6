// SPDX-License-Identifier: MIT
// Counting over cpus x threads: perf stat's attrs, open with fallbacks, group reads, scaling, metrics.
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "perf_event/caps.h"
#include "perf_event/counter.h"
#include "perf_event/mmap.h"
#include "perf_event/sys.h"
#include "util/cpulist.h"
#include "util/print.h"

#define GROUP_BITS (PERF_FORMAT_ID | PERF_FORMAT_GROUP)

static size_t nr_slots(const struct pms_counters *cs)
{
	return cs->nr_cpus * cs->nr_threads;
}

static bool is_clock(const struct perf_event_attr *a)
{
	return a->type == PERF_TYPE_SOFTWARE &&
	       (a->config == PERF_COUNT_SW_CPU_CLOCK || a->config == PERF_COUNT_SW_TASK_CLOCK);
}

/* perf stat's tool bits; see the header's invariants. */
static void set_tool_bits(struct perf_event_attr *a, bool leader, bool in_group,
			  const struct pms_counter_opts *o)
{
	if (o && o->sampling)
		return;
	a->read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	if (in_group)
		a->read_format |= GROUP_BITS;
	a->sample_type = PERF_SAMPLE_IDENTIFIER;
	a->sample_period = 0;
	a->freq = 0;
	a->inherit = o && o->no_inherit ? 0 : 1;
	a->disabled = leader ? 1 : 0;
	a->enable_on_exec = leader && o && o->enable_on_exec ? 1 : 0;
}

struct pms_counters *pms_counters__new(const struct pms_evlist *list, const int *cpus, size_t nr_cpus,
				       const pid_t *threads, size_t nr_threads,
				       const struct pms_counter_opts *opts)
{
	static const int any_cpu = -1;
	static const pid_t any_thread = -1;
	struct pms_counters *cs;
	size_t n;

	if (!list || (nr_cpus && !cpus) || (nr_threads && !threads)) {
		errno = EINVAL;
		return NULL;
	}
	if (!nr_cpus) {
		cpus = &any_cpu;
		nr_cpus = 1;
	}
	if (!nr_threads) {
		threads = &any_thread;
		nr_threads = 1;
	}
	cs = calloc(1, sizeof(*cs));
	if (!cs)
		return NULL;
	cs->cpus = malloc(nr_cpus * sizeof(*cs->cpus));
	cs->threads = malloc(nr_threads * sizeof(*cs->threads));
	cs->c = calloc(list->nr ? list->nr : 1, sizeof(*cs->c));
	if (!cs->cpus || !cs->threads || !cs->c)
		goto fail;
	memcpy(cs->cpus, cpus, nr_cpus * sizeof(*cpus));
	memcpy(cs->threads, threads, nr_threads * sizeof(*threads));
	cs->nr_cpus = nr_cpus;
	cs->nr_threads = nr_threads;
	n = nr_slots(cs);
	for (size_t i = 0; i < list->nr; i++) {
		const struct pms_evsel *ev = &list->entries[i];
		struct pms_counter *c = &cs->c[i];
		int leader = ev->leader_idx;

		cs->nr++;
		if (leader < 0 || (size_t)leader > i)
			leader = (int)i;
		c->attr = ev->attr;
		c->name = strdup(ev->name ? ev->name : "?");
		c->leader = leader;
		c->open_cpu = -1;
		c->nr_members = leader == (int)i ? (ev->nr_members > 0 ? ev->nr_members : 1) : 0;
		c->weak_group = list->entries[leader].weak_group;
		c->tool = ev->tool_event;
		c->cgroup_fd = -1;
		c->fds = malloc(n * sizeof(*c->fds));
		c->ids = calloc(n, sizeof(*c->ids));
		c->counts = calloc(n, sizeof(*c->counts));
		c->prev = calloc(n, sizeof(*c->prev));
		if (!c->name || !c->fds || !c->ids || !c->counts || !c->prev)
			goto fail;
		for (size_t s = 0; s < n; s++)
			c->fds[s] = -1;
		if (ev->pmu_cpus && *ev->pmu_cpus) {
			struct pms_cpulist pl = { 0 };

			if (pms_cpulist__parse(ev->pmu_cpus, &pl, NULL) == 0 && pl.nr) {
				c->pmu_cpus = pl.cpus;
				c->nr_pmu_cpus = pl.nr;
			} else {
				pms_cpulist__release(&pl);
			}
		}
		if (c->tool != PMS_TOOL_NONE) {
			snprintf(c->unit, sizeof(c->unit), "ns");
			c->scale = 1.0;
		} else if (is_clock(&c->attr)) {
			snprintf(c->unit, sizeof(c->unit), "msec");
			c->scale = 1e-6;
		} else {
			snprintf(c->unit, sizeof(c->unit), "%s", ev->unit);
			c->scale = ev->scale > 0 ? ev->scale : 1.0;
		}
		set_tool_bits(&c->attr, leader == (int)i, list->entries[leader].nr_members > 1, opts);
	}
	return cs;
fail:
	pms_counters__free(cs);
	errno = ENOMEM;
	return NULL;
}

void pms_counters__close(struct pms_counters *cs)
{
	if (!cs)
		return;
	for (size_t i = 0; i < cs->nr; i++) {
		struct pms_counter *c = &cs->c[i];

		for (size_t s = 0; c->fds && s < nr_slots(cs); s++) {
			if (c->fds[s] >= 0)
				close(c->fds[s]);
			c->fds[s] = -1;
		}
	}
	cs->opened = false;
}

void pms_counters__free(struct pms_counters *cs)
{
	if (!cs)
		return;
	pms_counters__close(cs);
	for (size_t i = 0; i < cs->nr; i++) {
		free(cs->c[i].name);
		free(cs->c[i].fds);
		free(cs->c[i].ids);
		free(cs->c[i].counts);
		free(cs->c[i].prev);
		free(cs->c[i].pmu_cpus);
	}
	free(cs->c);
	free(cs->cpus);
	free(cs->threads);
	free(cs);
}

/* Errors after which no count of this run can be trusted or obtained. */
static bool is_fatal(int err)
{
	switch (-err) {
	case EACCES:
	case EPERM:
	case EMFILE:
	case ENFILE:
	case ENOMEM:
	case EFAULT:
	case EBADF:
		return true;
	default:
		return false;
	}
}

static void close_counter(struct pms_counters *cs, struct pms_counter *c)
{
	for (size_t s = 0; s < nr_slots(cs); s++) {
		if (c->fds[s] >= 0)
			close(c->fds[s]);
		c->fds[s] = -1;
		c->ids[s] = 0;
	}
}

static void mark_unsupported(struct pms_counter *c, int err, const char *reason)
{
	c->state = PMS_COUNTER_UNSUPPORTED;
	c->open_err = err;
	snprintf(c->reason, sizeof(c->reason), "%s", reason);
}

/* Break weak group `l` into single events that are opened on their own. */
static void split_weak_group(struct pms_counters *cs, int l, const struct pms_counter_opts *o)
{
	int nr = cs->c[l].nr_members;

	for (int j = l; j < l + nr && (size_t)j < cs->nr; j++) {
		struct pms_counter *c = &cs->c[j];

		close_counter(cs, c);
		c->leader = j;
		c->nr_members = 1;
		c->weak_split = true;
		c->state = PMS_COUNTER_OK;
		c->open_err = 0;
		c->reason[0] = '\0';
		if (o && o->sampling) {
			/* each is its own leader now: starts as the group's leader did */
			c->attr.disabled = cs->c[l].attr.disabled;
			c->attr.enable_on_exec = cs->c[l].attr.enable_on_exec;
		}
		set_tool_bits(&c->attr, true, false, o);
		/* keep a :u fallback applied earlier */
	}
	pr_debug("weak group '%s' failed to open as a group, opening its events separately\n", cs->c[l].name);
}

static bool on_pmu_cpu(const struct pms_counter *c, int cpu)
{
	if (cpu < 0 || !c->pmu_cpus)
		return true;
	for (size_t k = 0; k < c->nr_pmu_cpus; k++)
		if (c->pmu_cpus[k] == cpu)
			return true;
	return false;
}

static bool only_duration_time(const struct pms_counters *cs)
{
	for (size_t i = 0; i < cs->nr; i++)
		if (cs->c[i].tool != PMS_TOOL_DURATION_TIME)
			return false;
	return cs->nr > 0;
}

static int open_one(struct pms_counters *cs, struct pms_counter *c, size_t ci, size_t ti, int group_fd,
		    const struct pms_counter_opts *o)
{
	pid_t pid = cs->threads[ti];
	int cpu = cs->cpus[ci], fd;
	unsigned long flags = 0;

	if (cpu < 0 && only_duration_time(cs)) {
		/* perf anchors a list of only duration_time on CPU 0, without enable_on_exec */
		pid = -1;
		cpu = 0;
		c->attr.enable_on_exec = 0;
	}
	if (c->cgroup_fd >= 0 && pid == -1 && cpu >= 0) {
		pid = c->cgroup_fd;
		flags = PERF_FLAG_PID_CGROUP;
	} else if (o && o->cgroup && pid == -1 && cpu >= 0) {
		pid = o->cgroup_fd;
		flags = PERF_FLAG_PID_CGROUP;
	}
	fd = pms_sys__perf_event_open(&c->attr, pid, cpu, group_fd, flags);
	if (o && o->on_open)
		o->on_open(o->on_open_arg, &c->attr, pid, cpu, group_fd, PERF_FLAG_FD_CLOEXEC | flags, fd);
	return fd;
}

/* perf's fallback for PMUs without guest/host filtering (msr): drop the bits. */
static bool fallback_no_guest(struct pms_counter *c)
{
	if (!c->attr.exclude_guest && !c->attr.exclude_host)
		return false;
	c->attr.exclude_guest = 0;
	c->attr.exclude_host = 0;
	pr_debug("'%s' refused exclude_guest, retrying without it\n", c->name);
	return true;
}

/* perf's fallback for paranoid > 1: count user space only ("name:u"). */
static bool fallback_user_only(struct pms_counter *c)
{
	char *n;
	size_t len;

	if (c->attr.exclude_kernel || c->attr.exclude_user)
		return false; /* already user-only, or kernel-only: nothing sensible is left to count */
	c->attr.exclude_kernel = 1;
	c->attr.exclude_hv = 1;
	len = strlen(c->name) + 3;
	n = malloc(len);
	if (n) {
		snprintf(n, len, "%s%s", c->name, strchr(c->name, ':') ? "u" : ":u");
		if (strchr(c->name, '/') && c->name[strlen(c->name) - 1] == '/')
			snprintf(n, len, "%su", c->name);
		free(c->name);
		c->name = n;
	}
	pr_debug("no permission for kernel counting, falling back to '%s'\n", c->name);
	return true;
}

static void fill_error(struct pms_counter_error *e, const struct pms_counters *cs, int idx, size_t ci,
		       size_t ti, int err)
{
	if (!e)
		return;
	e->err = err;
	e->idx = idx;
	e->cpu = cs->cpus[ci];
	e->tid = cs->threads[ti];
	snprintf(e->msg, sizeof(e->msg), "%s", pms_event__open_error_reason(&cs->c[idx].attr, err));
}

/*
 * Can a refusal of this member mean "the group needs more counters than
 * the PMU has"? Not for a pinned member (only leaders may be pinned) nor
 * for software and tracepoint events, which have no counter limit.
 */
static bool may_not_fit(const struct pms_counter *c)
{
	return !c->attr.pinned && c->attr.type != PERF_TYPE_SOFTWARE && c->attr.type != PERF_TYPE_TRACEPOINT;
}

/* Does this member open outside its group on the same slot? (then the group is the problem) */
static bool opens_alone(struct pms_counters *cs, struct pms_counter *c, size_t ci, size_t ti,
			const struct pms_counter_opts *o)
{
	struct pms_counter probe = *c;
	int fd;

	set_tool_bits(&probe.attr, true, false, o);
	fd = open_one(cs, &probe, ci, ti, -1, o);
	if (fd < 0)
		return false;
	close(fd);
	return true;
}

static void refuse_group(struct pms_counters *cs, int l, int culprit, int err)
{
	char why[192];

	snprintf(why, sizeof(why),
		 "the kernel refused the group at '%s' (%s), which opens on its own: the group needs more "
		 "counters than the PMU has",
		 cs->c[culprit].name, err == -ENOSPC ? "ENOSPC" : "EINVAL");
	for (int j = l; j < l + cs->c[l].nr_members && (size_t)j < cs->nr; j++) {
		struct pms_counter *m = &cs->c[j];

		if (m->state != PMS_COUNTER_OK)
			continue;
		close_counter(cs, m);
		m->state = PMS_COUNTER_GROUP_REFUSED;
		m->open_err = err;
		snprintf(m->reason, sizeof(m->reason), "%s", why);
	}
}

static void close_all(struct pms_counters *cs)
{
	for (size_t i = 0; i < cs->nr; i++)
		close_counter(cs, &cs->c[i]);
}

/*
 * perf's order: CPU by CPU, and on each CPU event by event, thread by
 * thread (for per-thread targets the CPU loop has one pass). Anything that
 * changes an attr or a group after fds exist on an earlier CPU (fallbacks,
 * weak-group splits, a leader failing late) closes everything and starts
 * over; each change happens at most once per counter, so this ends.
 */
int pms_counters__open(struct pms_counters *cs, const struct pms_counter_opts *o,
		       struct pms_counter_error *err)
{
	if (!cs)
		return -EINVAL;
	if (err)
		memset(err, 0, sizeof(*err));
restart:
	for (size_t i = 0; i < cs->nr; i++)
		if (cs->c[i].state == PMS_COUNTER_OK)
			cs->c[i].open_err = 0;
	for (size_t ci = 0; ci < cs->nr_cpus; ci++) {
		for (size_t i = 0; i < cs->nr; i++) {
			struct pms_counter *c = &cs->c[i];
			struct pms_counter *l = &cs->c[c->leader];
			bool member = c->leader != (int)i;

			if (c->state != PMS_COUNTER_OK)
				continue;
			if (member && l->state == PMS_COUNTER_UNSUPPORTED) {
				char why[192];

				snprintf(why, sizeof(why), "its group leader '%s' did not open", l->name);
				close_counter(cs, c);
				mark_unsupported(c, l->open_err, why);
				continue;
			}
			if (!on_pmu_cpu(c, cs->cpus[ci]))
				continue; /* an uncore/hybrid PMU counts only on its own CPUs */
			for (size_t ti = 0; ti < cs->nr_threads; ti++) {
				size_t s = ci * cs->nr_threads + ti;
				int gfd = member ? l->fds[s] : -1;
				int fd;

				if (member && gfd < 0)
					continue; /* the leader's thread vanished */
				fd = open_one(cs, c, ci, ti, gfd, o);
				if (fd >= 0) {
					c->fds[s] = fd;
					if (ioctl(fd, PERF_EVENT_IOC_ID, &c->ids[s]) < 0)
						c->ids[s] = 0;
					continue;
				}
				c->open_err = fd;
				c->open_cpu = cs->cpus[ci];
				if (fd == -ESRCH)
					continue; /* that thread exited: skip its slot */
				if (c->tool != PMS_TOOL_NONE && !member) {
					c->open_err = 0; /* the value does not depend on the anchor */
					break;
				}
				if ((fd == -EINVAL && c->attr.exclude_guest && !member && fallback_no_guest(c)) ||
				    ((fd == -EACCES || fd == -EPERM) && fallback_user_only(c))) {
					if (ci > 0) {
						close_all(cs);
						goto restart;
					}
					close_counter(cs, c);
					ti = (size_t)-1; /* reopen this CPU's slots with the new attr */
					continue;
				}
				if (is_fatal(fd)) {
					fill_error(err, cs, (int)i, ci, ti, fd);
					pms_counters__close(cs);
					return fd;
				}
				if (member && c->weak_group && !c->weak_split &&
				    (fd == -EINVAL || fd == -EBADF || fd == -ENOSPC)) {
					/* the group did not fit (perf's cases, plus ENOSPC); an unknown
					 * event (ENOENT) would not open alone either */
					split_weak_group(cs, c->leader, o);
					close_all(cs);
					goto restart;
				}
				if (member && (fd == -EINVAL || fd == -ENOSPC) && may_not_fit(c) &&
				    opens_alone(cs, c, ci, ti, o)) {
					refuse_group(cs, c->leader, (int)i, fd);
					close_all(cs);
					goto restart;
				}
				if (!member && c->weak_group && c->nr_members > 1 && !c->weak_split) {
					/* :W with a leader that cannot open: count the others on their own */
					split_weak_group(cs, (int)i, o);
					mark_unsupported(c, fd, pms_event__open_error_reason(&c->attr, fd));
					close_all(cs);
					goto restart;
				}
				close_counter(cs, c);
				mark_unsupported(c, fd, member && c->attr.pinned && fd == -EINVAL
							? "only a group's leader can be pinned (D): pin the whole group, {...}:D"
							: pms_event__open_error_reason(&c->attr, fd));
				if (!member && c->nr_members > 1 && ci > 0) {
					close_all(cs); /* members on earlier CPUs hang on its closed fds */
					goto restart;
				}
				break;
			}
		}
	}
	for (size_t i = 0; i < cs->nr; i++) {
		struct pms_counter *c = &cs->c[i];
		bool member = c->leader != (int)i;
		bool opened = false;

		if (c->state != PMS_COUNTER_OK || c->tool != PMS_TOOL_NONE)
			continue;
		for (size_t s = 0; s < nr_slots(cs) && !opened; s++)
			opened = c->fds[s] >= 0;
		if (opened)
			continue;
		if (c->open_err == -ESRCH) {
			fill_error(err, cs, (int)i, 0, 0, -ESRCH);
			if (err)
				snprintf(err->msg, sizeof(err->msg), "no such process or thread");
			pms_counters__close(cs);
			return -ESRCH;
		}
		if (!c->open_err && c->pmu_cpus && !member) {
			mark_unsupported(c, -ENODEV, "its PMU counts only on its own CPUs, none of which is in the target");
			continue;
		}
		mark_unsupported(c, c->open_err ? c->open_err : -ENOENT,
				 member ? "no slot of its group leader opened"
					: pms_event__open_error_reason(&c->attr, c->open_err ? c->open_err : -ENOENT));
	}
	cs->opened = true;
	return 0;
}

static int ioctl_leaders(struct pms_counters *cs, unsigned long req)
{
	int ret = 0;

	for (size_t i = 0; i < cs->nr; i++) {
		struct pms_counter *c = &cs->c[i];

		if (c->leader != (int)i || c->state != PMS_COUNTER_OK)
			continue;
		for (size_t s = 0; s < nr_slots(cs); s++)
			if (c->fds[s] >= 0 && ioctl(c->fds[s], req, 0) < 0 && !ret)
				ret = -errno;
	}
	return ret;
}

int pms_counters__enable(struct pms_counters *cs)
{
	return cs ? ioctl_leaders(cs, PERF_EVENT_IOC_ENABLE) : -EINVAL;
}

int pms_counters__disable(struct pms_counters *cs)
{
	return cs ? ioctl_leaders(cs, PERF_EVENT_IOC_DISABLE) : -EINVAL;
}

int pms_group_read__decode(const uint64_t *buf, size_t buf_words, const uint64_t *ids, size_t nr,
			   struct pms_count *out)
{
	uint64_t n;

	if (!buf || buf_words < 3)
		return -EINVAL;
	n = buf[0];
	if (n > (buf_words - 3) / 2)
		return -EINVAL;
	for (size_t j = 0; j < nr; j++) {
		for (uint64_t k = 0; k < n; k++) {
			if (ids[j] && buf[3 + 2 * k + 1] == ids[j]) {
				out[j].val = buf[3 + 2 * k];
				out[j].ena = buf[1];
				out[j].run = buf[2];
				break;
			}
		}
	}
	return 0;
}

/* buf holds 3 + 2 * nr_members words; ids/vals nr_members entries (scratch). */
static int read_group(struct pms_counters *cs, int l, size_t s, uint64_t *buf, uint64_t *ids,
		      struct pms_count *vals)
{
	struct pms_counter *lc = &cs->c[l];
	int nr = lc->nr_members;
	ssize_t got;
	int k = 0;

	got = pms_perf_fd__read_group(lc->fds[s], buf, 3 + 2 * (size_t)nr);
	if (got < 0)
		return (int)got;
	for (int j = l; j < l + nr && (size_t)j < cs->nr; j++, k++) {
		ids[k] = cs->c[j].fds[s] >= 0 ? cs->c[j].ids[s] : 0;
		vals[k] = cs->c[j].counts[s];
	}
	if (pms_group_read__decode(buf, (size_t)got / sizeof(*buf), ids, (size_t)k, vals))
		return -EIO;
	k = 0;
	for (int j = l; j < l + nr && (size_t)j < cs->nr; j++, k++)
		if (cs->c[j].fds[s] >= 0)
			cs->c[j].counts[s] = vals[k];
	return 0;
}

int pms_counters__read(struct pms_counters *cs)
{
	uint64_t *buf, *ids;
	struct pms_count *vals;
	size_t max_nr = 1;
	int ret = 0;

	if (!cs)
		return -EINVAL;
	for (size_t i = 0; i < cs->nr; i++)
		if (cs->c[i].nr_members > 0 && (size_t)cs->c[i].nr_members > max_nr)
			max_nr = (size_t)cs->c[i].nr_members;
	buf = malloc((3 + 2 * max_nr) * sizeof(*buf));
	ids = malloc(max_nr * sizeof(*ids));
	vals = malloc(max_nr * sizeof(*vals));
	if (!buf || !ids || !vals) {
		free(buf);
		free(ids);
		free(vals);
		return -ENOMEM;
	}
	for (size_t i = 0; i < cs->nr; i++)
		memcpy(cs->c[i].prev, cs->c[i].counts, nr_slots(cs) * sizeof(struct pms_count));
	for (size_t i = 0; i < cs->nr && !ret; i++) {
		struct pms_counter *c = &cs->c[i];

		if (c->leader != (int)i || c->state != PMS_COUNTER_OK || (c->tool && c->nr_members <= 1))
			continue;
		for (size_t s = 0; s < nr_slots(cs) && !ret; s++) {
			if (c->fds[s] < 0)
				continue;
			if (c->attr.read_format & PERF_FORMAT_GROUP) {
				ret = read_group(cs, (int)i, s, buf, ids, vals);
			} else {
				ret = pms_perf_fd__read_count(c->fds[s], &c->counts[s]);
			}
		}
	}
	if (ret) /* nothing partial: keep the previous complete reading */
		for (size_t i = 0; i < cs->nr; i++)
			memcpy(cs->c[i].counts, cs->c[i].prev, nr_slots(cs) * sizeof(struct pms_count));
	free(buf);
	free(ids);
	free(vals);
	return ret;
}

struct pms_count pms_counter__sum(const struct pms_counter *c, const struct pms_counters *cs,
				  int cpu_idx, int thread_idx, bool delta)
{
	struct pms_count acc = { 0, 0, 0 };

	for (size_t ci = 0; ci < cs->nr_cpus; ci++) {
		if (cpu_idx >= 0 && (size_t)cpu_idx != ci)
			continue;
		for (size_t ti = 0; ti < cs->nr_threads; ti++) {
			size_t s = ci * cs->nr_threads + ti;
			struct pms_count v;

			if (thread_idx >= 0 && (size_t)thread_idx != ti)
				continue;
			v = delta ? pms_count__delta(&c->counts[s], &c->prev[s]) : c->counts[s];
			pms_count__add(&acc, &v);
		}
	}
	return acc;
}

bool pms_counter__never_scheduled(const struct pms_count *leader_sum)
{
	return leader_sum->ena > 0 && leader_sum->run == 0;
}

void pms_count__add(struct pms_count *acc, const struct pms_count *c)
{
	acc->val += c->val;
	acc->ena += c->ena;
	acc->run += c->run;
}

struct pms_count pms_count__delta(const struct pms_count *a, const struct pms_count *b)
{
	struct pms_count d;

	d.val = a->val > b->val ? a->val - b->val : 0;
	d.ena = a->ena > b->ena ? a->ena - b->ena : 0;
	d.run = a->run > b->run ? a->run - b->run : 0;
	return d;
}

bool pms_count__scaled(const struct pms_count *c, bool no_scale, double *out)
{
	if (c->run == 0) {
		*out = 0;
		return false;
	}
	if (no_scale || c->run >= c->ena)
		*out = (double)c->val;
	else
		*out = floor((double)c->val * (double)c->ena / (double)c->run + 0.5);
	return true;
}

double pms_count__running_pct(const struct pms_count *c)
{
	if (!c->ena)
		return 100.0;
	if (c->run >= c->ena)
		return 100.0;
	return 100.0 * (double)c->run / (double)c->ena;
}

void pms_stats__update(struct pms_stats *s, double v)
{
	double delta;

	s->n += 1;
	delta = v - s->mean;
	s->mean += delta / s->n;
	s->m2 += delta * (v - s->mean);
}

double pms_stats__stddev_mean(const struct pms_stats *s)
{
	if (s->n < 2)
		return 0.0;
	return sqrt(s->m2 / (s->n - 1) / s->n);
}

double pms_stats__rel_pct(const struct pms_stats *s)
{
	if (s->mean == 0)
		return 0.0;
	return 100.0 * pms_stats__stddev_mean(s) / s->mean;
}

enum pms_metric_kind pms_attr__metric_kind(const struct perf_event_attr *a)
{
	uint64_t cfg = a->config & 0xffffffffULL; /* hybrid PMUs put the PMU type in the high half */

	if (is_clock(a))
		return PMS_MK_CLOCK;
	if (a->type != PERF_TYPE_HARDWARE)
		return PMS_MK_OTHER;
	switch (cfg) {
	case PERF_COUNT_HW_CPU_CYCLES:
		return PMS_MK_CYCLES;
	case PERF_COUNT_HW_INSTRUCTIONS:
		return PMS_MK_INSTRUCTIONS;
	case PERF_COUNT_HW_BRANCH_INSTRUCTIONS:
		return PMS_MK_BRANCHES;
	case PERF_COUNT_HW_BRANCH_MISSES:
		return PMS_MK_BRANCH_MISSES;
	case PERF_COUNT_HW_CACHE_REFERENCES:
		return PMS_MK_CACHE_REFS;
	case PERF_COUNT_HW_CACHE_MISSES:
		return PMS_MK_CACHE_MISSES;
	case PERF_COUNT_HW_STALLED_CYCLES_FRONTEND:
		return PMS_MK_STALLED_FRONTEND;
	case PERF_COUNT_HW_STALLED_CYCLES_BACKEND:
		return PMS_MK_STALLED_BACKEND;
	default:
		return PMS_MK_OTHER;
	}
}

int pms_attr__metric_context(const struct perf_event_attr *a)
{
	return (a->exclude_user ? 1 : 0) | (a->exclude_kernel ? 2 : 0) | (a->exclude_hv ? 4 : 0) |
	       (a->exclude_host ? 8 : 0) | (a->exclude_idle ? 16 : 0);
}

void pms_metric_ctx__add(struct pms_metric_ctx *m, enum pms_metric_kind k, int pctx, double v)
{
	if (k == PMS_MK_OTHER || pctx < 0 || pctx >= PMS_METRIC_NR_CTX)
		return;
	m->in[pctx].sum[k] += v;
	m->in[pctx].nr[k]++;
}

/* Mean of the inputs of kind k in context pctx; false if there are none or they are 0. */
static bool metric_input(const struct pms_metric_ctx *m, int pctx, enum pms_metric_kind k, double *out)
{
	const struct pms_metric_inputs *in = &m->in[pctx];

	if (!in->nr[k])
		return false;
	*out = in->sum[k] / in->nr[k];
	return *out > 0;
}

static void set_metric(struct pms_metric *out, double v, const char *fmt, const char *unit)
{
	out->valid = true;
	out->value = v;
	out->fmt = fmt;
	snprintf(out->unit, sizeof(out->unit), "%s", unit);
}

void pms_metric__compute(const struct pms_metric_ctx *m, enum pms_metric_kind k, int pctx, double v,
			 struct pms_metric *out)
{
	double in;
	bool has_clock;
	double clock_ns = 0;

	memset(out, 0, sizeof(*out));
	if (pctx < 0 || pctx >= PMS_METRIC_NR_CTX)
		return;
	has_clock = m->in[pctx].nr[PMS_MK_CLOCK] > 0;
	if (has_clock)
		clock_ns = m->in[pctx].sum[PMS_MK_CLOCK] / m->in[pctx].nr[PMS_MK_CLOCK];
	switch (k) {
	case PMS_MK_CLOCK:
		if (m->elapsed_ns > 0)
			set_metric(out, v / m->elapsed_ns, "%8.3f", "CPUs utilized");
		return;
	case PMS_MK_CYCLES:
		if (has_clock && clock_ns > 0)
			set_metric(out, v / clock_ns, "%8.3f", "GHz");
		return;
	case PMS_MK_INSTRUCTIONS:
		if (metric_input(m, pctx, PMS_MK_CYCLES, &in))
			set_metric(out, v / in, "%7.2f ", "insn per cycle");
		return;
	case PMS_MK_BRANCH_MISSES:
		if (metric_input(m, pctx, PMS_MK_BRANCHES, &in))
			set_metric(out, 100.0 * v / in, "%7.2f%%", "of all branches");
		return;
	case PMS_MK_CACHE_MISSES:
		if (metric_input(m, pctx, PMS_MK_CACHE_REFS, &in))
			set_metric(out, 100.0 * v / in, "%7.2f%%", "of all cache refs");
		return;
	case PMS_MK_STALLED_FRONTEND:
	case PMS_MK_STALLED_BACKEND:
		if (metric_input(m, pctx, PMS_MK_CYCLES, &in))
			set_metric(out, 100.0 * v / in, "%7.2f%%",
				   k == PMS_MK_STALLED_FRONTEND ? "frontend cycles idle" : "backend cycles idle");
		return;
	default:
		break;
	}
	if (has_clock) {
		double rate = clock_ns > 0 ? 1e9 * v / clock_ns : 0;
		const char *prefix = "";

		if (rate > 1e9) {
			rate /= 1e9;
			prefix = "G";
		} else if (rate > 1e6) {
			rate /= 1e6;
			prefix = "M";
		} else if (rate > 1e3) {
			rate /= 1e3;
			prefix = "K";
		}
		char unit[16];

		snprintf(unit, sizeof(unit), "%s/sec", prefix);
		set_metric(out, rate, "%8.3f", unit);
	}
}

int pms_perf_fd__read_count(int fd, struct pms_count *out)
{
	uint64_t v[3];
	ssize_t got = read(fd, v, sizeof(v));

	if (got < 0)
		return -errno;
	if (got != (ssize_t)sizeof(v))
		return -EIO;
	*out = (struct pms_count){ .val = v[0], .ena = v[1], .run = v[2] };
	return 0;
}

ssize_t pms_perf_fd__read_group(int leader_fd, uint64_t *buf, size_t buf_words)
{
	ssize_t got = read(leader_fd, buf, buf_words * sizeof(*buf));

	return got < 0 ? -errno : got;
}

int pms_counters__map_rings(struct pms_counters *cs, unsigned nr_data_pages, struct pms_mmap *maps,
			    int *failed_cpu)
{
	if (!cs || !maps)
		return -EINVAL;
	for (size_t ci = 0; ci < cs->nr_cpus; ci++) {
		struct pms_mmap *m = &maps[ci];
		int err;

		memset(m, 0, sizeof(*m));
		m->fd = -1;
		/* perf's order: the ring belongs to the first event opened on the CPU */
		for (size_t i = 0; i < cs->nr; i++) {
			const struct pms_counter *c = &cs->c[i];

			for (size_t ti = 0; ti < cs->nr_threads; ti++) {
				int fd = c->fds[ci * cs->nr_threads + ti];

				if (fd < 0)
					continue;
				/* write_backward events (record --overwrite) get a read-only ring the kernel overwrites */
				err = m->base ? pms_mmap__set_output(fd, m->fd) :
				      c->attr.write_backward ? pms_mmap__map_overwrite(m, fd, nr_data_pages) :
				      pms_mmap__map(m, fd, nr_data_pages);
				if (err) {
					if (failed_cpu)
						*failed_cpu = cs->cpus[ci];
					return err;
				}
			}
		}
	}
	return 0;
}

size_t pms_counters__nr_slots(const struct pms_counters *cs)
{
	return cs ? nr_slots(cs) : 0;
}

/* perf's shadow-metric formulas, by name; perf 6.1's -M names come from per-CPU JSON files instead. */
static const struct pms_metric_def metric_defs[] = {
	{ "IPC", "insn per cycle", "instructions retired per CPU cycle", PMS_MK_INSTRUCTIONS, PMS_MK_CYCLES, 1,
	  "%8.2f" },
	{ "CPI", "cycles per insn", "CPU cycles per instruction retired", PMS_MK_CYCLES, PMS_MK_INSTRUCTIONS, 1,
	  "%8.2f" },
	{ "branch_miss_rate", "% of all branches", "mispredicted branches per branch, in percent",
	  PMS_MK_BRANCH_MISSES, PMS_MK_BRANCHES, 100, "%7.2f%%" },
	{ "cache_miss_rate", "% of all cache refs", "cache misses per cache reference, in percent",
	  PMS_MK_CACHE_MISSES, PMS_MK_CACHE_REFS, 100, "%7.2f%%" },
	{ "frontend_stalls", "% frontend cycles idle", "cycles the front end delivered nothing, in percent",
	  PMS_MK_STALLED_FRONTEND, PMS_MK_CYCLES, 100, "%7.2f%%" },
	{ "backend_stalls", "% backend cycles idle", "cycles the back end retired nothing, in percent",
	  PMS_MK_STALLED_BACKEND, PMS_MK_CYCLES, 100, "%7.2f%%" },
	{ "CPUs_utilized", "CPUs utilized", "task-clock per elapsed time", PMS_MK_CLOCK, PMS_MK_OTHER, 1, "%8.3f" },
	{ "GHz", "GHz", "CPU cycles per nanosecond of task-clock", PMS_MK_CYCLES, PMS_MK_CLOCK, 1, "%8.3f" },
};

const struct pms_metric_def *pms_metric_defs(size_t *nr)
{
	*nr = sizeof(metric_defs) / sizeof(metric_defs[0]);
	return metric_defs;
}

const struct pms_metric_def *pms_metric_def__find(const char *name)
{
	for (size_t i = 0; name && i < sizeof(metric_defs) / sizeof(metric_defs[0]); i++)
		if (!strcasecmp(metric_defs[i].name, name))
			return &metric_defs[i];
	return NULL;
}

const char *pms_metric_kind__name(enum pms_metric_kind k)
{
	static const char *const names[PMS_MK__NR] = {
		[PMS_MK_OTHER] = "duration_time", [PMS_MK_CLOCK] = "task-clock", [PMS_MK_CYCLES] = "cycles",
		[PMS_MK_INSTRUCTIONS] = "instructions", [PMS_MK_BRANCHES] = "branches",
		[PMS_MK_BRANCH_MISSES] = "branch-misses", [PMS_MK_CACHE_REFS] = "cache-references",
		[PMS_MK_CACHE_MISSES] = "cache-misses", [PMS_MK_STALLED_FRONTEND] = "stalled-cycles-frontend",
		[PMS_MK_STALLED_BACKEND] = "stalled-cycles-backend",
	};

	return (unsigned)k < PMS_MK__NR ? names[k] : "?";
}

int pms_metric_def__compute(const struct pms_metric_def *d, const struct pms_metric_ctx *m, int pctx,
			    double *value, enum pms_metric_kind *missing)
{
	const struct pms_metric_inputs *in;
	double num, den;

	if (pctx < 0 || pctx >= PMS_METRIC_NR_CTX)
		return -EINVAL;
	in = &m->in[pctx];
	if (!in->nr[d->num]) {
		*missing = d->num;
		return -ENOENT;
	}
	num = in->sum[d->num] / in->nr[d->num];
	if (d->den == PMS_MK_OTHER) {
		den = m->elapsed_ns;
	} else if (in->nr[d->den]) {
		den = in->sum[d->den] / in->nr[d->den];
	} else {
		*missing = d->den;
		return -ENOENT;
	}
	if (!(den > 0)) {
		/* a zero denominator is not a zero metric: say which input read 0 */
		*missing = d->den;
		return -ENOENT;
	}
	*value = d->factor * num / den;
	return 0;
}
