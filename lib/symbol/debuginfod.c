// SPDX-License-Identifier: MIT
// Build-id lookups through libdebuginfod: one lazy client per process, misses remembered, stalled servers given up.
#include <dlfcn.h>
#include <elfutils/debuginfod.h>
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "symbol/debuginfod.h"
#include "symbol/dso.h"
#include "util/array.h"
#include "util/hex.h"
#include "util/print.h"

struct miss {
	enum pms_debuginfod_kind kind;
	uint8_t id[PMS_BUILD_ID_MAX];
	size_t id_size;
	int err;
};

/* The lookup in flight, as the progress callback sees it. */
struct query {
	struct timespec last;  /* start, or when the last byte arrived */
	long bytes;            /* received so far from the server being read */
	bool reading;          /* a server has started sending the file */
	bool stalled;          /* the callback cancelled the lookup */
	long stall_s;
};

static struct {
	pthread_mutex_t lock;
	debuginfod_client *client;
	char *urls;            /* the $DEBUGINFOD_URLS that the state below belongs to */
	struct miss *misses;   /* one entry per failed (kind, build-id); scanned linearly: a
				  report has a few hundred objects at most, each looked up once */
	size_t nr_misses, cap_misses;
	struct pms_debuginfod_stats stats;
	struct query q;
} g = { .lock = PTHREAD_MUTEX_INITIALIZER };

/*
 * libdebuginfod is opened at the first lookup, not linked: it pulls in
 * libcurl and its TLS stack (some 30 libraries), which cost every run of
 * every command ~5 ms of loading, while only a report with $DEBUGINFOD_URLS
 * set ever calls it.
 */
static struct {
	bool tried;
	void *handle;
	debuginfod_client *(*begin)(void);
	void (*end)(debuginfod_client *);
	void (*set_progressfn)(debuginfod_client *, debuginfod_progressfn_t);
	int (*find_executable)(debuginfod_client *, const unsigned char *, int, char **);
	int (*find_debuginfo)(debuginfod_client *, const unsigned char *, int, char **);
} lib;

static bool load_lib(void)
{
	if (lib.tried)
		return lib.handle != NULL;
	lib.tried = true;
	lib.handle = dlopen("libdebuginfod.so.1", RTLD_NOW | RTLD_LOCAL);
	if (!lib.handle) {
		pr_debug("debuginfod: %s\n", dlerror());
		return false;
	}
	*(void **)&lib.begin = dlsym(lib.handle, "debuginfod_begin");
	*(void **)&lib.end = dlsym(lib.handle, "debuginfod_end");
	*(void **)&lib.set_progressfn = dlsym(lib.handle, "debuginfod_set_progressfn");
	*(void **)&lib.find_executable = dlsym(lib.handle, "debuginfod_find_executable");
	*(void **)&lib.find_debuginfo = dlsym(lib.handle, "debuginfod_find_debuginfo");
	if (!lib.begin || !lib.end || !lib.set_progressfn || !lib.find_executable || !lib.find_debuginfo) {
		pr_debug("debuginfod: libdebuginfod.so.1 lacks the calls we use\n");
		dlclose(lib.handle);
		lib.handle = NULL;
		return false;
	}
	return true;
}

static const char *const kind_names[] = {
	[PMS_DEBUGINFOD_EXECUTABLE] = "executable",
	[PMS_DEBUGINFOD_DEBUGINFO] = "debuginfo",
};

static double elapsed_s(const struct timespec *since)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - since->tv_sec) + (double)(now.tv_nsec - since->tv_nsec) / 1e9;
}

/*
 * libdebuginfod calls this about once a second while a lookup runs (b == 0
 * until a server starts sending the file, then its size, a the bytes so
 * far). Its own limit, DEBUGINFOD_TIMEOUT (default 90 s, and each failed
 * attempt retried twice), does not cover a connect that never completes
 * (curl's connect timeout is 300 s), so the stall limit is enforced here:
 * non-zero cancels the lookup. It never prints.
 */
static int on_progress(debuginfod_client *c, long a, long b)
{
	struct query *q = &g.q;

	(void)c;
	if (b != 0 && (!q->reading || a != q->bytes)) {
		q->reading = true;
		q->bytes = a;
		clock_gettime(CLOCK_MONOTONIC, &q->last);
		return 0;
	}
	if (elapsed_s(&q->last) < (double)q->stall_s)
		return 0;
	q->stalled = true;
	return 1;
}

/* $DEBUGINFOD_TIMEOUT when it is a positive number of seconds, else ours. */
static long stall_limit_s(void)
{
	const char *s = getenv(DEBUGINFOD_TIMEOUT_ENV_VAR);
	char *end;
	long v;

	if (!s || !*s)
		return PMS_DEBUGINFOD_STALL_S;
	errno = 0;
	v = strtol(s, &end, 10);
	return errno || *end || v <= 0 ? PMS_DEBUGINFOD_STALL_S : v;
}

/*
 * libdebuginfod's cache directory, by its documented rule:
 * $DEBUGINFOD_CACHE_PATH, else ~/.debuginfod_client_cache if it exists, else
 * $XDG_CACHE_HOME/debuginfod_client, else ~/.cache/debuginfod_client.
 */
static int client_cache_dir(char *buf, size_t size)
{
	const char *env = getenv(DEBUGINFOD_CACHE_PATH_ENV_VAR), *home = getenv("HOME"), *xdg;
	struct stat st;
	int n;

	if (env && *env)
		n = snprintf(buf, size, "%s", env);
	else {
		if (!home)
			home = "/";
		n = snprintf(buf, size, "%s/.debuginfod_client_cache", home);
		if (n >= 0 && (size_t)n < size && stat(buf, &st)) {
			xdg = getenv("XDG_CACHE_HOME");
			n = xdg && *xdg ? snprintf(buf, size, "%s/debuginfod_client", xdg) :
					  snprintf(buf, size, "%s/.cache/debuginfod_client", home);
		}
	}
	return n < 0 || (size_t)n >= size ? -ENAMETOOLONG : 0;
}

/*
 * A cancelled lookup ends in libdebuginfod as "not found", and it records
 * that as an empty file in its cache for cache_miss_s (10 minutes), which
 * gdb and every other client would then trust. The server did not say the
 * file is missing, so that entry goes.
 */
static void drop_negative_entry(enum pms_debuginfod_kind kind, const char *hex)
{
	char dir[PATH_MAX], path[PATH_MAX + 64];
	struct stat st;

	if (client_cache_dir(dir, sizeof(dir)) ||
	    snprintf(path, sizeof(path), "%s/%s/%s", dir, hex, kind_names[kind]) >= (int)sizeof(path))
		return;
	if (!lstat(path, &st) && S_ISREG(st.st_mode) && st.st_size == 0 && !unlink(path)) {
		/* the build-id directory only held that entry: rmdir fails harmlessly otherwise */
		path[strlen(path) - strlen(kind_names[kind]) - 1] = '\0';
		rmdir(path);
	}
}

static void reset_locked(void)
{
	if (g.client)
		lib.end(g.client);
	g.client = NULL;
	free(g.urls);
	g.urls = NULL;
	free(g.misses);
	g.misses = NULL;
	g.nr_misses = g.cap_misses = 0;
	memset(&g.stats, 0, sizeof(g.stats));
}

static const struct miss *find_miss(enum pms_debuginfod_kind kind, const uint8_t *id, size_t id_size)
{
	for (size_t i = 0; i < g.nr_misses; i++) {
		const struct miss *m = &g.misses[i];

		if (m->kind == kind && m->id_size == id_size && !memcmp(m->id, id, id_size))
			return m;
	}
	return NULL;
}

static void remember_miss(enum pms_debuginfod_kind kind, const uint8_t *id, size_t id_size, int err)
{
	struct miss *m;

	/* not remembered when memory is short: the next lookup of it asks again, which is only slower */
	if (pms_array__reserve(&g.misses, &g.cap_misses, g.nr_misses + 1, sizeof(*g.misses)))
		return;
	m = &g.misses[g.nr_misses++];
	m->kind = kind;
	memcpy(m->id, id, id_size);
	m->id_size = id_size;
	m->err = err;
}

/* Failures that say no server can be reached during this run: ask no more. */
static bool is_unreachable(int err)
{
	return err == -ETIME || err == -EHOSTUNREACH || err == -ENETUNREACH;
}

static int find_locked(enum pms_debuginfod_kind kind, const uint8_t *id, size_t id_size, char **path)
{
	const char *urls = getenv(DEBUGINFOD_URLS_ENV_VAR);
	const struct miss *m;
	char hex[PMS_BUILD_ID_HEX_MAX];
	char *p = NULL;
	int rc;

	if (!urls || !*urls)
		return -ENOENT;
	if (!g.urls || strcmp(g.urls, urls)) {
		/* other servers: what the old ones did not have says nothing about these */
		reset_locked();
		g.urls = strdup(urls);
		if (!g.urls)
			return -ENOMEM;
	}
	if (g.stats.down) {
		g.stats.remembered++;
		return -ETIME;
	}
	m = find_miss(kind, id, id_size);
	if (m) {
		g.stats.remembered++;
		return m->err;
	}
	if (!g.client) {
		if (!load_lib())
			return -ENOENT;
		errno = 0;
		g.client = lib.begin();
		if (!g.client)
			return errno ? -errno : -ENOMEM;
		/* replaces the printing callback $DEBUGINFOD_PROGRESS installs */
		lib.set_progressfn(g.client, on_progress);
	}
	memset(&g.q, 0, sizeof(g.q));
	g.q.stall_s = stall_limit_s();
	clock_gettime(CLOCK_MONOTONIC, &g.q.last);
	g.stats.queries++;
	if (kind == PMS_DEBUGINFOD_EXECUTABLE)
		rc = lib.find_executable(g.client, id, (int)id_size, &p);
	else
		rc = lib.find_debuginfo(g.client, id, (int)id_size, &p);
	pms_hex__encode(id, id_size, hex);
	if (rc >= 0) {
		close(rc);
		if (!p)
			return -ENOMEM;
		g.stats.found++;
		pr_debug("debuginfod: %s of build-id %s: %s\n", kind_names[kind], hex, p);
		*path = p;
		return 0;
	}
	free(p);
	if (g.q.stalled) {
		rc = -ETIME;
		g.stats.stalled++;
		drop_negative_entry(kind, hex);
	} else if (rc == -ENOSYS) {
		/* libdebuginfod's word for "no servers" (the URLs were checked above) */
		rc = -ENOENT;
	}
	pr_debug("debuginfod: %s of build-id %s: %s\n", kind_names[kind], hex, strerror(-rc));
	if (rc == -ENOMEM)
		return rc;
	if (is_unreachable(rc))
		g.stats.down = true;
	else
		remember_miss(kind, id, id_size, rc);
	return rc;
}

int pms_debuginfod__find(enum pms_debuginfod_kind kind, const uint8_t *id, size_t id_size, char **path)
{
	int err;

	if (!path)
		return -EINVAL;
	*path = NULL;
	if (!id || !id_size || id_size > PMS_BUILD_ID_MAX ||
	    (kind != PMS_DEBUGINFOD_EXECUTABLE && kind != PMS_DEBUGINFOD_DEBUGINFO))
		return -EINVAL;
	pthread_mutex_lock(&g.lock);
	err = find_locked(kind, id, id_size, path);
	pthread_mutex_unlock(&g.lock);
	return err;
}

void pms_debuginfod__stats(struct pms_debuginfod_stats *out)
{
	pthread_mutex_lock(&g.lock);
	*out = g.stats;
	pthread_mutex_unlock(&g.lock);
}

void pms_debuginfod__reset(void)
{
	pthread_mutex_lock(&g.lock);
	reset_locked();
	pthread_mutex_unlock(&g.lock);
}
