// SPDX-License-Identifier: MIT
// Public counting API (include/pmuscope/count.h) over the counter engine and the user-page read.
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pmuscope/count.h>

#include "api/api_priv.h"
#include "event/event.h"
#include "event/pmu.h"
#include "perf_event/caps.h"
#include "perf_event/counter.h"
#include "perf_event/mmap.h"
#include "perf_event/userpage.h"
#include "util/cpulist.h"
#include "util/print.h"

struct pms_count_set {
	struct pms_counters *cs;
	struct pms_mmap *maps;   /* per event: its metadata page, or unmapped (read(2) only) */
	volatile struct perf_event_mmap_page **pages; /* per event: maps[i].base, or NULL */
	uint64_t *group_buf; /* a group read's buffer, sized for the largest group */
	size_t group_buf_words;
};

static void set_format_term(struct perf_event_attr *attr, const struct pms_pmu_format *fmt)
{
	__u64 *field = fmt->field == 0 ? &attr->config : fmt->field == 1 ? &attr->config1 : &attr->config2;

	if (fmt->field > 2 || fmt->nr_bits != 1)
		return;
	*field |= (__u64)1 << fmt->ranges[0].lo;
}

static const struct pms_pmu_format *rdpmc_format(const struct pms_pmu *pmu)
{
	for (size_t i = 0; pmu && i < pmu->nr_formats; i++)
		if (!strcmp(pmu->formats[i].name, "rdpmc"))
			return &pmu->formats[i];
	return NULL;
}

/*
 * The PMU's "rdpmc" format term (arm64: config1:1) asks the driver for user
 * access to the event's counter. Generic hardware events go to the core
 * PMU: the first one that has the term.
 */
static void request_user_access(struct pms_evlist *list, struct pms_event_ctx *ctx)
{
	size_t nr_pmus = 0;
	const struct pms_pmu *const *pmus;
	const struct pms_pmu_format *core = NULL;

	/* arm64 hands the counters to user space only when asked per event, and only if the sysctl allows */
	if (pms_knob__sysctl("perf_user_access") != 1)
		return;
	pmus = pms_event_ctx__pmus(ctx, &nr_pmus);
	for (size_t i = 0; pmus && i < nr_pmus && !core; i++)
		core = rdpmc_format(pmus[i]);
	for (size_t i = 0; i < list->nr; i++) {
		struct perf_event_attr *a = &list->entries[i].attr;
		const struct pms_pmu_format *f;

		if (a->type == PERF_TYPE_HARDWARE || a->type == PERF_TYPE_HW_CACHE || a->type == PERF_TYPE_RAW)
			f = core;
		else
			f = rdpmc_format(pms_event_ctx__pmu_by_type(ctx, a->type));
		if (f)
			set_format_term(a, f);
	}
}

static int parse_events(const char *events, struct pms_evlist *list, bool want_user_access)
{
	struct pms_event_ctx *ctx = pms_event_ctx__new();
	int err;

	if (!ctx)
		return -errno;
	err = pms_api__parse_events(events, list, ctx);
	if (!err && want_user_access && pms_userpage__arch_supported())
		request_user_access(list, ctx);
	pms_event_ctx__free(ctx);
	return err;
}

static int check_opened(const struct pms_counters *cs)
{
	for (size_t i = 0; i < cs->nr; i++) {
		const struct pms_counter *c = &cs->c[i];

		if (c->state == PMS_COUNTER_UNSUPPORTED) {
			pr_warn("%s: %s\n", c->name, c->reason[0] ? c->reason : pms_strerror(c->open_err));
			return c->open_err ? c->open_err : -ENOENT;
		}
		if (c->state == PMS_COUNTER_GROUP_REFUSED) {
			pr_warn("%s: its group needs more counters than the PMU has\n", c->name);
			return -ENOSPC;
		}
		if (c->tool != PMS_TOOL_NONE) {
			pr_warn("%s: tool events are not counted by the library\n", c->name);
			return -EOPNOTSUPP;
		}
	}
	return 0;
}

/* Map each event's metadata page; an event that cannot be mapped just reads through read(2). */
static int map_pages(struct pms_count_set *set)
{
	size_t n = set->cs->nr ? set->cs->nr : 1;

	set->maps = calloc(n, sizeof(*set->maps));
	set->pages = calloc(n, sizeof(*set->pages));
	if (!set->maps || !set->pages)
		return -ENOMEM;
	for (size_t i = 0; i < set->cs->nr; i++) {
		int err = pms_mmap__map_user_page(&set->maps[i], set->cs->c[i].fds[0]);

		if (err) {
			pr_debug("%s: no user page (%s); reads use read(2)\n", set->cs->c[i].name, strerror(-err));
			continue;
		}
		set->pages[i] = set->maps[i].base;
	}
	return 0;
}

PMS_API struct pms_count_set *pms_count_set__open(const char *events, const struct pms_count_opts *opts)
{
	struct pms_count_opts o;
	struct pms_counter_opts copts = { 0 };
	struct pms_counter_error cerr = { 0 };
	struct pms_evlist list = { 0 };
	struct pms_count_set *set;
	struct pms_cpulist online = { 0 };
	pid_t thread;
	int cpu, err;
	bool self;
	size_t max_members = 1;

	if (!events || pms_api__copy_opts(&o, sizeof(o), opts)) {
		errno = EINVAL;
		return NULL;
	}
	if (o.pid < -1 || (o.pid == -1 && !o.cpu_set && !o.all_cpus) || (o.cpu_set && o.cpu < 0) ||
	    (o.cpu_set && o.all_cpus)) {
		errno = EINVAL;
		return NULL;
	}
	if (o.all_cpus) {
		err = pms_cpulist__online(&online);
		if (err || !online.nr) {
			pms_cpulist__release(&online);
			errno = err ? -err : ENODEV;
			return NULL;
		}
	}
	/* the user page describes the counter of the thread that reads it: only for itself, on any CPU */
	self = o.pid == 0 && !o.inherit && !o.no_user_page && !o.all_cpus && !o.cpu_set;
	err = parse_events(events, &list, self);
	if (err || !list.nr) {
		pms_evlist__release(&list);
		pms_cpulist__release(&online);
		errno = err ? -err : EINVAL;
		return NULL;
	}
	set = calloc(1, sizeof(*set));
	if (!set) {
		pms_evlist__release(&list);
		pms_cpulist__release(&online);
		errno = ENOMEM;
		return NULL;
	}
	thread = o.pid;
	cpu = o.cpu_set ? o.cpu : -1;
	copts.no_inherit = !o.inherit;
	if (o.all_cpus)
		set->cs = pms_counters__new(&list, online.cpus, online.nr, &thread, 1, &copts);
	else
		set->cs = pms_counters__new(&list, &cpu, 1, &thread, 1, &copts);
	pms_evlist__release(&list);
	pms_cpulist__release(&online);
	if (!set->cs) {
		err = -errno;
		goto fail;
	}
	err = pms_counters__open(set->cs, &copts, &cerr);
	if (err) {
		if (cerr.msg[0])
			pr_warn("%s\n", cerr.msg);
		goto fail;
	}
	err = check_opened(set->cs);
	if (err)
		goto fail;
	for (size_t i = 0; i < set->cs->nr; i++)
		if (set->cs->c[i].nr_members > 0 && (size_t)set->cs->c[i].nr_members > max_members)
			max_members = (size_t)set->cs->c[i].nr_members;
	set->group_buf_words = 3 + 2 * max_members;
	set->group_buf = calloc(set->group_buf_words, sizeof(*set->group_buf));
	if (!set->group_buf) {
		err = -ENOMEM;
		goto fail;
	}
	if (self) {
		err = map_pages(set);
		if (err)
			goto fail;
	}
	if (o.enabled) {
		err = pms_count_set__enable(set);
		if (err)
			goto fail;
	}
	return set;
fail:
	pms_count_set__close(set);
	errno = -err;
	return NULL;
}

PMS_API void pms_count_set__close(struct pms_count_set *set)
{
	if (!set)
		return;
	for (size_t i = 0; set->maps && set->cs && i < set->cs->nr; i++)
		pms_mmap__unmap(&set->maps[i]);
	free(set->maps);
	free(set->pages);
	free(set->group_buf);
	pms_counters__free(set->cs);
	free(set);
}

PMS_API size_t pms_count_set__nr_events(const struct pms_count_set *set)
{
	return set ? set->cs->nr : 0;
}

PMS_API const char *pms_count_set__event_name(const struct pms_count_set *set, size_t idx)
{
	return set && idx < set->cs->nr ? set->cs->c[idx].name : NULL;
}

static int ioctl_leaders(struct pms_count_set *set, enum pms_group_ioctl req)
{
	if (!set)
		return -EINVAL;
	for (size_t i = 0; i < set->cs->nr; i++) {
		const struct pms_counter *c = &set->cs->c[i];

		if (c->leader != (int)i)
			continue;
		for (size_t k = 0; k < set->cs->nr_cpus; k++) {
			int err = c->fds[k] < 0 ? 0 : pms_perf_fd__group_ioctl(c->fds[k], req);

			if (err)
				return err;
		}
	}
	return 0;
}

PMS_API int pms_count_set__enable(struct pms_count_set *set)
{
	return ioctl_leaders(set, PMS_GROUP_ENABLE);
}

PMS_API int pms_count_set__disable(struct pms_count_set *set)
{
	return ioctl_leaders(set, PMS_GROUP_DISABLE);
}

PMS_API int pms_count_set__reset(struct pms_count_set *set)
{
	return ioctl_leaders(set, PMS_GROUP_RESET);
}

PMS_API bool pms_count_set__user_page_capable(const struct pms_count_set *set, size_t idx)
{
	return set && set->pages && idx < set->cs->nr && pms_userpage__capable(set->pages[idx]);
}

/* One CPU's slot of event idx (the set has one thread): 0, -ENODEV where it did not open, or -errno. */
static int read_slot(struct pms_count_set *set, size_t idx, size_t slot, struct pms_count *out)
{
	const struct pms_counter *c = &set->cs->c[idx];
	const struct pms_counter *l = &set->cs->c[c->leader];
	ssize_t got;

	if (c->fds[slot] < 0)
		return -ENODEV;
	if (!(l->attr.read_format & PERF_FORMAT_GROUP))
		return pms_perf_fd__read_count(c->fds[slot], out);
	got = pms_perf_fd__read_group(l->fds[slot], set->group_buf, set->group_buf_words);
	if (got < 0)
		return (int)got;
	*out = (struct pms_count){ 0 };
	return pms_group_read__decode(set->group_buf, (size_t)got / sizeof(*set->group_buf), &c->ids[slot], 1,
				      out);
}

/* The sum over the set's CPUs, as perf stat -a aggregates (then scales). */
static int read_syscall(struct pms_count_set *set, size_t idx, struct pms_count *out)
{
	*out = (struct pms_count){ 0 };
	for (size_t k = 0; k < set->cs->nr_cpus; k++) {
		struct pms_count v;
		int err = read_slot(set, idx, k, &v);

		if (err == -ENODEV)
			continue;
		if (err)
			return err;
		pms_count__add(out, &v);
	}
	return 0;
}

PMS_API size_t pms_count_set__nr_cpus(const struct pms_count_set *set)
{
	return set ? set->cs->nr_cpus : 0;
}

PMS_API int pms_count_set__cpu(const struct pms_count_set *set, size_t cpu_idx)
{
	return set && cpu_idx < set->cs->nr_cpus ? set->cs->cpus[cpu_idx] : -EINVAL;
}

PMS_API int pms_count_set__read_cpu(struct pms_count_set *set, size_t idx, size_t cpu_idx,
				    struct pms_count_value *out)
{
	struct pms_count c;
	int err;

	if (!set || !out || idx >= set->cs->nr || cpu_idx >= set->cs->nr_cpus)
		return -EINVAL;
	err = read_slot(set, idx, cpu_idx, &c);
	if (err)
		return err;
	pms_count_value__from_count(&c, PMS_READ_SYSCALL, out);
	return 0;
}

void pms_count_value__from_count(const struct pms_count *c, enum pms_read_path path,
				 struct pms_count_value *out)
{
	out->value = c->val;
	out->enabled_ns = c->ena;
	out->running_ns = c->run;
	/* never multiplexed (the usual case): no division on the read path */
	if (c->run == c->ena)
		out->scaled = c->run ? (double)c->val : 0.0;
	else
		out->scaled = c->run ? (double)c->val * ((double)c->ena / (double)c->run) : 0.0;
	out->running_pct = pms_count__running_pct(c);
	out->path = path;
}

int pms_count_set__read_raw(struct pms_count_set *set, size_t idx, struct pms_count *out,
			    enum pms_read_path *path)
{
	if (set->pages && set->pages[idx] && pms_userpage__read(set->pages[idx], out, NULL) == 0) {
		*path = PMS_READ_USER_PAGE;
		return 0;
	}
	*path = PMS_READ_SYSCALL;
	return read_syscall(set, idx, out);
}

PMS_API int pms_count_set__read(struct pms_count_set *set, size_t idx, struct pms_count_value *out)
{
	struct pms_count c;
	enum pms_read_path path;
	int err;

	if (!set || !out || idx >= set->cs->nr)
		return -EINVAL;
	err = pms_count_set__read_raw(set, idx, &c, &path);
	if (err)
		return err;
	pms_count_value__from_count(&c, path, out);
	return 0;
}

PMS_API int pms_count_set__read_all(struct pms_count_set *set, struct pms_count_value *out, size_t nr)
{
	if (!set || !out || nr < set->cs->nr)
		return -EINVAL;
	for (size_t i = 0; i < set->cs->nr; i++) {
		int err = pms_count_set__read(set, i, &out[i]);

		if (err)
			return err;
	}
	return 0;
}
