// SPDX-License-Identifier: MIT
// Public regions API (include/pmuscope/region.h): per-thread counts around named code.
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <pmuscope/count.h>
#include <pmuscope/region.h>

#include "api/api_priv.h"
#include "util/clock.h"
#include "util/array.h"
#include "util/fileio.h"
#include "util/json.h"
#include "util/print.h"
#include "util/strbuf.h"

struct region_acc {
	char *name;
	uint64_t calls, time_ns;
	uint64_t user_page_reads, syscall_reads;
	struct pms_region_count *counts; /* [nr_events] */
};

struct frame {
	size_t region;
	uint64_t t0_ns;
	struct pms_count *start; /* [nr_events], inside thread_state.starts */
};

struct thread_state {
	pid_t tid;
	struct pms_count_set *set; /* NULL once the thread exited (results stay) */
	struct region_acc *regions;
	size_t nr_regions, cap_regions;
	size_t last;                /* the region found last: loops end what they began */
	struct frame stack[PMS_REGION_MAX_DEPTH];
	size_t depth;
	struct pms_count *starts;   /* [PMS_REGION_MAX_DEPTH * nr_events] */
	struct pms_count *now;      /* [nr_events]: the reads at an end */
	struct thread_state *next;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static bool initialized;
static char *events;          /* the event string every thread opens */
static char **event_names;
static size_t nr_events;
static char *json_path;
static bool no_user_page;
static bool atexit_done;
static struct thread_state *threads, **threads_tail = &threads;
static pthread_key_t exit_key;
static bool exit_key_made;
/*
 * finish frees every thread's state while other threads may still hold it:
 * a thread's pointer counts only while its generation is the current one.
 */
static unsigned generation;
static __thread struct thread_state *self;
static __thread unsigned self_generation;

static struct thread_state *current_self(void)
{
	return self && self_generation == __atomic_load_n(&generation, __ATOMIC_ACQUIRE) ? self : NULL;
}

static struct pms_count_set *open_set(const char *evs)
{
	struct pms_count_opts o = { .sz = sizeof(o), .enabled = true, .no_user_page = no_user_page };

	return pms_count_set__open(evs, &o);
}

/*
 * A thread's events close when it exits; what it counted stays for the
 * results. The key holds the tid, not the state, which finish may have freed.
 */
static void thread_exit(void *arg)
{
	pid_t tid = (pid_t)(uintptr_t)arg;

	pthread_mutex_lock(&lock);
	for (struct thread_state *ts = threads; ts; ts = ts->next) {
		if (ts->tid == tid && ts->set) {
			pms_count_set__close(ts->set);
			ts->set = NULL;
		}
	}
	pthread_mutex_unlock(&lock);
}

static void at_exit(void)
{
	bool write;

	pthread_mutex_lock(&lock);
	write = initialized && json_path;
	pthread_mutex_unlock(&lock);
	if (write)
		(void)pms_region__write_json(json_path);
}

static void free_state(void)
{
	for (struct thread_state *ts = threads, *next; ts; ts = next) {
		next = ts->next;
		pms_count_set__close(ts->set);
		for (size_t i = 0; i < ts->nr_regions; i++) {
			free(ts->regions[i].name);
			free(ts->regions[i].counts);
		}
		free(ts->regions);
		free(ts->starts);
		free(ts->now);
		free(ts);
	}
	threads = NULL;
	threads_tail = &threads;
	for (size_t i = 0; i < nr_events; i++)
		free(event_names[i]);
	free(event_names);
	event_names = NULL;
	nr_events = 0;
	free(events);
	events = NULL;
	free(json_path);
	json_path = NULL;
	initialized = false;
	self = NULL;
	__atomic_add_fetch(&generation, 1, __ATOMIC_RELEASE);
}

static struct thread_state *thread_state_new(struct pms_count_set *set)
{
	struct thread_state *ts = calloc(1, sizeof(*ts));

	if (!ts)
		return NULL;
	ts->starts = calloc(PMS_REGION_MAX_DEPTH * (nr_events ? nr_events : 1), sizeof(*ts->starts));
	ts->now = calloc(nr_events ? nr_events : 1, sizeof(*ts->now));
	if (!ts->starts || !ts->now) {
		free(ts->starts);
		free(ts->now);
		free(ts);
		return NULL;
	}
	ts->tid = (pid_t)syscall(SYS_gettid);
	ts->set = set;
	for (size_t d = 0; d < PMS_REGION_MAX_DEPTH; d++)
		ts->stack[d].start = &ts->starts[d * nr_events];
	*threads_tail = ts;
	threads_tail = &ts->next;
	if (exit_key_made)
		(void)pthread_setspecific(exit_key, (void *)(uintptr_t)ts->tid);
	self_generation = generation;
	return ts;
}

/* Called with the lock held. */
static int init_locked(const struct pms_region_opts *opts)
{
	struct pms_region_opts o;
	const char *evs, *path;
	struct pms_count_set *set;

	if (pms_api__copy_opts(&o, sizeof(o), opts))
		return -EINVAL;
	no_user_page = o.no_user_page;
	evs = o.events ? o.events : getenv("PMS_REGION_EVENTS");
	if (evs && *evs) {
		set = open_set(evs);
		if (!set)
			return -errno;
	} else {
		evs = PMS_REGION_DEFAULT_EVENTS;
		set = open_set(evs);
		if (!set) {
			pr_info("regions: %s do not open here (%s); counting %s\n", evs, pms_strerror(-errno),
				PMS_REGION_FALLBACK_EVENTS);
			evs = PMS_REGION_FALLBACK_EVENTS;
			set = open_set(evs);
			if (!set)
				return -errno;
		}
	}
	events = strdup(evs);
	nr_events = pms_count_set__nr_events(set);
	event_names = calloc(nr_events ? nr_events : 1, sizeof(*event_names));
	if (!events || !event_names)
		goto nomem;
	for (size_t i = 0; i < nr_events; i++) {
		event_names[i] = strdup(pms_count_set__event_name(set, i));
		if (!event_names[i])
			goto nomem;
	}
	path = o.json_path ? o.json_path : getenv("PMS_REGION_OUTPUT");
	if (path && *path) {
		json_path = strdup(path);
		if (!json_path)
			goto nomem;
	}
	if (!exit_key_made && pthread_key_create(&exit_key, thread_exit) == 0)
		exit_key_made = true;
	self = thread_state_new(set);
	if (!self)
		goto nomem;
	if (json_path && !atexit_done && atexit(at_exit) == 0)
		atexit_done = true;
	initialized = true;
	return 0;
nomem:
	pms_count_set__close(set);
	free_state();
	return -ENOMEM;
}

PMS_API int pms_region__init(const struct pms_region_opts *opts)
{
	int err;

	pthread_mutex_lock(&lock);
	err = initialized ? -EALREADY : init_locked(opts);
	pthread_mutex_unlock(&lock);
	return err;
}

/* This thread's state: the first begin of a thread opens its events. */
static int thread_self(struct thread_state **out)
{
	struct pms_count_set *set;
	int err = 0;

	*out = current_self();
	if (*out)
		return 0;
	pthread_mutex_lock(&lock);
	if (!initialized) {
		err = init_locked(NULL);
		*out = self;
		pthread_mutex_unlock(&lock);
		return err;
	}
	pthread_mutex_unlock(&lock);
	set = open_set(events);
	if (!set)
		return -errno;
	pthread_mutex_lock(&lock);
	self = initialized ? thread_state_new(set) : NULL;
	pthread_mutex_unlock(&lock);
	if (!self) {
		pms_count_set__close(set);
		return -ENOMEM;
	}
	*out = self;
	return 0;
}

static int find_region(struct thread_state *ts, const char *name, bool create, size_t *out)
{
	struct region_acc *r;

	if (ts->last < ts->nr_regions && !strcmp(ts->regions[ts->last].name, name)) {
		*out = ts->last;
		return 0;
	}
	for (size_t i = 0; i < ts->nr_regions; i++) {
		if (!strcmp(ts->regions[i].name, name)) {
			*out = ts->last = i;
			return 0;
		}
	}
	if (!create)
		return -ENOENT;
	/* the registry reads regions[] under the lock while other threads count */
	pthread_mutex_lock(&lock);
	if (pms_array__reserve(&ts->regions, &ts->cap_regions, ts->nr_regions + 1, sizeof(*ts->regions))) {
		pthread_mutex_unlock(&lock);
		return -ENOMEM;
	}
	r = &ts->regions[ts->nr_regions];
	memset(r, 0, sizeof(*r));
	r->name = strdup(name);
	r->counts = calloc(nr_events ? nr_events : 1, sizeof(*r->counts));
	if (!r->name || !r->counts) {
		free(r->name);
		free(r->counts);
		pthread_mutex_unlock(&lock);
		return -ENOMEM;
	}
	*out = ts->last = ts->nr_regions++;
	pthread_mutex_unlock(&lock);
	return 0;
}

PMS_API int pms_region__begin(const char *name)
{
	struct thread_state *ts;
	struct frame *f;
	size_t idx;
	int err;

	if (!name)
		return -EINVAL;
	err = thread_self(&ts);
	if (err)
		return err;
	if (ts->depth >= PMS_REGION_MAX_DEPTH)
		return -E2BIG;
	err = find_region(ts, name, true, &idx);
	if (err)
		return err;
	f = &ts->stack[ts->depth];
	f->region = idx;
	f->t0_ns = pms_clock__monotonic_ns();
	/* counters last, so the clock read is not counted */
	for (size_t i = 0; i < nr_events; i++) {
		enum pms_read_path path;

		err = pms_count_set__read_raw(ts->set, i, &f->start[i], &path);
		if (err)
			return err;
	}
	ts->depth++;
	return 0;
}

PMS_API int pms_region__end(const char *name)
{
	struct thread_state *ts = current_self();
	struct pms_count *now;
	struct region_acc *r;
	struct frame *f;
	uint64_t t1;
	unsigned user = 0;

	if (!name)
		return -EINVAL;
	if (!ts || !ts->depth) {
		pr_warn("regions: end of '%s' without a begin\n", name);
		return -EINVAL;
	}
	f = &ts->stack[ts->depth - 1];
	r = &ts->regions[f->region];
	now = ts->now;
	if (strcmp(r->name, name)) {
		pr_warn("regions: end of '%s' while '%s' is the innermost open region\n", name, r->name);
		return -EINVAL;
	}
	/* counters first, so the clock read is not counted */
	for (size_t i = 0; i < nr_events; i++) {
		enum pms_read_path path;
		int err = pms_count_set__read_raw(ts->set, i, &now[i], &path);

		if (err)
			return err;
		user += path == PMS_READ_USER_PAGE;
	}
	t1 = pms_clock__monotonic_ns();
	for (size_t i = 0; i < nr_events; i++) {
		struct pms_count d = pms_count__delta(&now[i], &f->start[i]);
		struct pms_region_count *c = &r->counts[i];

		c->value += d.val;
		c->enabled_ns += d.ena;
		c->running_ns += d.run;
		if (d.run)
			c->scaled += (double)d.val * ((double)d.ena / (double)d.run);
	}
	r->user_page_reads += user;
	r->syscall_reads += nr_events - user;
	r->calls++;
	r->time_ns += t1 - f->t0_ns;
	ts->depth--;
	return 0;
}

PMS_API size_t pms_region__nr_events(void)
{
	return nr_events;
}

PMS_API const char *pms_region__event_name(size_t idx)
{
	return idx < nr_events ? event_names[idx] : NULL;
}

PMS_API int pms_region__foreach(pms_region_fn fn, void *arg)
{
	int ret = 0;

	if (!fn)
		return -EINVAL;
	pthread_mutex_lock(&lock);
	for (struct thread_state *ts = threads; ts && !ret; ts = ts->next) {
		for (size_t i = 0; i < ts->nr_regions && !ret; i++) {
			const struct region_acc *r = &ts->regions[i];
			struct pms_region_result res = {
				.name = r->name,
				.tid = ts->tid,
				.calls = r->calls,
				.time_ns = r->time_ns,
				.nr_events = nr_events,
				.counts = r->counts,
				.user_page_reads = r->user_page_reads,
				.syscall_reads = r->syscall_reads,
			};

			ret = fn(&res, arg);
		}
	}
	pthread_mutex_unlock(&lock);
	return ret;
}

static int json_region(const struct pms_region_result *r, void *arg)
{
	struct pms_json *j = arg;

	pms_json__obj(j, NULL);
	pms_json__str(j, "name", r->name);
	pms_json__int(j, "tid", r->tid);
	pms_json__uint(j, "calls", r->calls);
	pms_json__uint(j, "time_ns", r->time_ns);
	pms_json__uint(j, "user_page_reads", r->user_page_reads);
	pms_json__uint(j, "syscall_reads", r->syscall_reads);
	pms_json__arr(j, "counts");
	for (size_t i = 0; i < r->nr_events; i++) {
		const struct pms_region_count *c = &r->counts[i];

		pms_json__obj(j, NULL);
		pms_json__str(j, "event", event_names[i]);
		pms_json__uint(j, "value", c->value);
		pms_json__double(j, "scaled", c->scaled);
		pms_json__uint(j, "enabled_ns", c->enabled_ns);
		pms_json__uint(j, "running_ns", c->running_ns);
		pms_json__end(j);
	}
	pms_json__end(j);
	pms_json__end(j);
	return 0;
}

PMS_API int pms_region__write_json(const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	struct pms_json j;
	int err;

	if (!path || !*path)
		return -EINVAL;
	pms_json__init(&j, &sb, true);
	pms_json__obj(&j, NULL);
	pms_json__str(&j, "pmuscope", PMS_VERSION_STRING);
	pms_json__int(&j, "pid", getpid());
	pms_json__arr(&j, "events");
	for (size_t i = 0; i < nr_events; i++)
		pms_json__str(&j, NULL, event_names[i]);
	pms_json__end(&j);
	pms_json__arr(&j, "regions");
	(void)pms_region__foreach(json_region, &j);
	pms_json__end(&j);
	pms_json__end(&j);
	pms_json__finish(&j);
	strbuf_addch(&sb, '\n');
	if (sb.oom)
		err = -ENOMEM;
	else
		err = pms_file__write_all(path, sb.buf, sb.len);
	strbuf_release(&sb);
	return err;
}

PMS_API void pms_region__finish(void)
{
	pthread_mutex_lock(&lock);
	if (!initialized) {
		pthread_mutex_unlock(&lock);
		return;
	}
	pthread_mutex_unlock(&lock);
	if (json_path)
		(void)pms_region__write_json(json_path);
	pthread_mutex_lock(&lock);
	free_state();
	pthread_mutex_unlock(&lock);
}
