// SPDX-License-Identifier: MIT
// Unit tests of lib/symbol/debuginfod against a small HTTP server in the test: no URLs, arguments, hits, remembered misses, stalled servers.
#include <arpa/inet.h>
#include <criterion/criterion.h>
#include <criterion/redirect.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "symbol/debuginfod.h"

static const uint8_t bid_a[20] = { 0x4a, 0x5a, 0x9b, 0x0a, 0xff, 0xb6, 0x6c, 0x43, 0x7a, 0xbc,
				   0xd4, 0x55, 0xd2, 0x73, 0x8a, 0xf8, 0x79, 0x98, 0x5f, 0xa9 };
#define BID_A_HEX "4a5a9b0affb66c437abcd455d2738af879985fa9"
static const uint8_t bid_b[20] = { 0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef, 0x01, 0x23,
				   0x45, 0x67, 0x89, 0xab, 0xcd, 0xef, 0x01, 0x23, 0x45, 0x67 };
#define BID_B_HEX "0123456789abcdef0123456789abcdef01234567"
static const uint8_t bid_c[8] = { 0xde, 0xad, 0xbe, 0xef, 0x00, 0x11, 0x22, 0x33 };
#define BID_C_HEX "deadbeef00112233"

#define BODY "not really an ELF file, served by the test"

static char tmpdir[64], cache[128];

/*
 * The server: answers GET /buildid/<hex>/<kind> with BODY for the one path
 * it serves and 404 for the rest, counting requests per path.
 */
static struct {
	int fd, port;
	pthread_t th;
	atomic_bool stop;
	char served[128];
	pthread_mutex_t mu;
	char paths[64][128];
	int nr;
} srv = { .fd = -1, .mu = PTHREAD_MUTEX_INITIALIZER };

static int listen_on_loopback(int backlog)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t len = sizeof(a);
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

	cr_assert_geq(fd, 0);
	cr_assert_eq(bind(fd, (struct sockaddr *)&a, sizeof(a)), 0);
	cr_assert_eq(listen(fd, backlog), 0);
	cr_assert_eq(getsockname(fd, (struct sockaddr *)&a, &len), 0);
	srv.port = ntohs(a.sin_port);
	return fd;
}

static void serve_one(int c)
{
	char req[4096] = "", path[128] = "", resp[512];
	size_t n = 0;
	struct pollfd p = { .fd = c, .events = POLLIN };

	/* the request line is all that matters; headers end with an empty line */
	while (n < sizeof(req) - 1 && !strstr(req, "\r\n\r\n") && poll(&p, 1, 5000) == 1) {
		ssize_t k = read(c, req + n, sizeof(req) - 1 - n);

		if (k <= 0)
			break;
		n += (size_t)k;
		req[n] = '\0';
	}
	req[n] = '\0';
	sscanf(req, "GET %127s", path);
	pthread_mutex_lock(&srv.mu);
	if (srv.nr < 64)
		snprintf(srv.paths[srv.nr++], sizeof(srv.paths[0]), "%s", path);
	pthread_mutex_unlock(&srv.mu);
	if (!strcmp(path, srv.served))
		snprintf(resp, sizeof(resp), "HTTP/1.1 200 OK\r\nContent-Length: %zu\r\nConnection: close\r\n\r\n%s",
			 strlen(BODY), BODY);
	else
		snprintf(resp, sizeof(resp), "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
	if (write(c, resp, strlen(resp)) < 0)
		return;
}

static void *server_main(void *arg)
{
	(void)arg;
	while (!atomic_load(&srv.stop)) {
		struct pollfd p = { .fd = srv.fd, .events = POLLIN };
		int c;

		if (poll(&p, 1, 50) != 1)
			continue;
		c = accept4(srv.fd, NULL, NULL, SOCK_CLOEXEC);
		if (c < 0)
			continue;
		serve_one(c);
		close(c);
	}
	return NULL;
}

static void start_server(const char *served)
{
	char urls[64];

	snprintf(srv.served, sizeof(srv.served), "%s", served);
	srv.fd = listen_on_loopback(16);
	cr_assert_eq(pthread_create(&srv.th, NULL, server_main, NULL), 0);
	snprintf(urls, sizeof(urls), "http://127.0.0.1:%d", srv.port);
	setenv("DEBUGINFOD_URLS", urls, 1);
}

static int requests(const char *path)
{
	int n = 0;

	pthread_mutex_lock(&srv.mu);
	for (int i = 0; i < srv.nr; i++)
		n += !strcmp(srv.paths[i], path);
	pthread_mutex_unlock(&srv.mu);
	return n;
}

static void setup(void)
{
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/pms-dbgd-XXXXXX");
	cr_assert_not_null(mkdtemp(tmpdir));
	snprintf(cache, sizeof(cache), "%s/cache", tmpdir);
	setenv("DEBUGINFOD_CACHE_PATH", cache, 1);
	/* the library's defaults, and a proxy must not stand between us and our server */
	unsetenv("DEBUGINFOD_URLS");
	unsetenv("DEBUGINFOD_TIMEOUT");
	unsetenv("DEBUGINFOD_PROGRESS");
	unsetenv("DEBUGINFOD_VERBOSE");
	unsetenv("DEBUGINFOD_MAXTIME");
	setenv("no_proxy", "127.0.0.1", 1);
	pms_debuginfod__reset();
}

static void teardown(void)
{
	char cmd[128];

	if (srv.fd >= 0) {
		atomic_store(&srv.stop, true);
		if (srv.th)
			pthread_join(srv.th, NULL);
		close(srv.fd);
	}
	pms_debuginfod__reset();
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	cr_expect_eq(system(cmd), 0);
}

static void rm_cache(void)
{
	char cmd[256];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", cache);
	cr_assert_eq(system(cmd), 0);
}

static double now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

TestSuite(debuginfod, .init = setup, .fini = teardown);

Test(debuginfod, no_urls_asks_nothing)
{
	struct pms_debuginfod_stats st;
	struct stat sb;
	char *p = (char *)1;

	cr_expect_eq(pms_debuginfod__find_debuginfo(bid_a, sizeof(bid_a), &p), -ENOENT);
	cr_expect_null(p);
	setenv("DEBUGINFOD_URLS", "", 1);
	cr_expect_eq(pms_debuginfod__find_executable(bid_a, sizeof(bid_a), &p), -ENOENT);
	cr_expect_null(p);
	pms_debuginfod__stats(&st);
	cr_expect_eq(st.queries, 0);
	/* libdebuginfod was not even asked: it creates its cache directory first thing */
	cr_expect_neq(stat(cache, &sb), 0, "libdebuginfod's cache %s was created", cache);
}

Test(debuginfod, bad_arguments)
{
	char *p = (char *)1;

	setenv("DEBUGINFOD_URLS", "http://127.0.0.1:9", 1);
	cr_expect_eq(pms_debuginfod__find_debuginfo(bid_a, sizeof(bid_a), NULL), -EINVAL);
	cr_expect_eq(pms_debuginfod__find_debuginfo(NULL, 20, &p), -EINVAL);
	cr_expect_null(p);
	cr_expect_eq(pms_debuginfod__find_debuginfo(bid_a, 0, &p), -EINVAL);
	cr_expect_eq(pms_debuginfod__find_debuginfo(bid_a, 21, &p), -EINVAL);
	cr_expect_eq(pms_debuginfod__find((enum pms_debuginfod_kind)7, bid_a, sizeof(bid_a), &p), -EINVAL);
	cr_expect_null(p);
}

/* the suite's setup runs too: a test's .init comes after it */
Test(debuginfod, found_file_is_in_its_cache_and_nothing_printed, .init = cr_redirect_stderr)
{
	struct pms_debuginfod_stats st;
	char *p = NULL, want[256], text[128] = "";
	FILE *f;

	/* would print "Downloading..." if its default progress callback were left in place */
	setenv("DEBUGINFOD_PROGRESS", "1", 1);
	start_server("/buildid/" BID_A_HEX "/executable");
	cr_assert_eq(pms_debuginfod__find_executable(bid_a, sizeof(bid_a), &p), 0);
	cr_assert_not_null(p);
	snprintf(want, sizeof(want), "%s/" BID_A_HEX "/executable", cache);
	cr_expect_str_eq(p, want);
	f = fopen(p, "r");
	cr_assert_not_null(f);
	cr_expect_not_null(fgets(text, sizeof(text), f));
	fclose(f);
	cr_expect_str_eq(text, BODY);
	free(p);
	/* the second time from libdebuginfod's cache, not the server */
	cr_assert_eq(pms_debuginfod__find_executable(bid_a, sizeof(bid_a), &p), 0);
	free(p);
	cr_expect_eq(requests("/buildid/" BID_A_HEX "/executable"), 1);
	/* a short build-id (not 20 bytes) is asked for by its own hex */
	cr_expect_eq(pms_debuginfod__find_debuginfo(bid_c, sizeof(bid_c), &p), -ENOENT);
	cr_expect_eq(requests("/buildid/" BID_C_HEX "/debuginfo"), 1);
	pms_debuginfod__stats(&st);
	cr_expect_eq(st.queries, 3);
	cr_expect_eq(st.found, 2);
	fflush(stderr);
	cr_expect_stderr_eq_str("");
}

Test(debuginfod, misses_are_remembered_per_build_id_and_kind)
{
	struct pms_debuginfod_stats st;
	char *p = NULL, urls[64];

	start_server("/buildid/" BID_A_HEX "/executable");
	cr_expect_eq(pms_debuginfod__find_debuginfo(bid_b, sizeof(bid_b), &p), -ENOENT);
	cr_expect_null(p);
	cr_expect_eq(requests("/buildid/" BID_B_HEX "/debuginfo"), 1);
	/* without libdebuginfod's own record of the miss, only ours keeps the server out of it */
	rm_cache();
	for (int i = 0; i < 5; i++)
		cr_expect_eq(pms_debuginfod__find_debuginfo(bid_b, sizeof(bid_b), &p), -ENOENT);
	cr_expect_eq(requests("/buildid/" BID_B_HEX "/debuginfo"), 1);
	pms_debuginfod__stats(&st);
	cr_expect_eq(st.queries, 1);
	cr_expect_eq(st.remembered, 5);
	cr_expect_not(st.down, "a 404 is an answer, not a dead server");

	/* the other kind of the same build-id, and another build-id, are still asked for */
	cr_expect_eq(pms_debuginfod__find_executable(bid_b, sizeof(bid_b), &p), -ENOENT);
	cr_expect_eq(requests("/buildid/" BID_B_HEX "/executable"), 1);
	cr_expect_eq(pms_debuginfod__find_executable(bid_a, sizeof(bid_a), &p), 0);
	free(p);

	/* other URLs: the misses of the old ones say nothing */
	rm_cache();
	snprintf(urls, sizeof(urls), "http://127.0.0.1:%d/", srv.port);
	setenv("DEBUGINFOD_URLS", urls, 1);
	cr_expect_eq(pms_debuginfod__find_debuginfo(bid_b, sizeof(bid_b), &p), -ENOENT);
	cr_expect_eq(requests("/buildid/" BID_B_HEX "/debuginfo"), 2);
}

/*
 * A server whose listen queue is full: the connection never completes, and
 * libdebuginfod's own DEBUGINFOD_TIMEOUT does not cover connecting (curl
 * would wait 300 s, three times). The stall limit ends it; the server is
 * then not asked again, and libdebuginfod's "not found" entry for it goes.
 */
Test(debuginfod, stalled_server_is_given_up_once, .timeout = 120)
{
	struct pms_debuginfod_stats st;
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	char *p = NULL, urls[64], entry[256];
	int fill[3];
	struct stat sb;
	double t0, t;

	srv.fd = listen_on_loopback(0);
	a.sin_port = htons((uint16_t)srv.port);
	for (int i = 0; i < 3; i++) {
		fill[i] = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
		cr_assert_geq(fill[i], 0);
		if (connect(fill[i], (struct sockaddr *)&a, sizeof(a)))
			cr_assert_eq(errno, EINPROGRESS);
	}
	snprintf(urls, sizeof(urls), "http://127.0.0.1:%d", srv.port);
	setenv("DEBUGINFOD_URLS", urls, 1);
	setenv("DEBUGINFOD_TIMEOUT", "2", 1);
	t0 = now_s();
	cr_expect_eq(pms_debuginfod__find_debuginfo(bid_a, sizeof(bid_a), &p), -ETIME);
	t = now_s() - t0;
	/* about 2 s; the bound only says "not curl's 300 s" on a loaded machine */
	cr_expect_geq(t, 1.5);
	cr_expect_lt(t, 60, "the lookup took %.1f s", t);
	cr_expect_null(p);
	pms_debuginfod__stats(&st);
	cr_expect_eq(st.stalled, 1);
	cr_expect(st.down);
	snprintf(entry, sizeof(entry), "%s/" BID_A_HEX "/debuginfo", cache);
	cr_expect_neq(stat(entry, &sb), 0, "libdebuginfod's negative entry %s was left", entry);

	/* other objects are not asked for: one wait per run, not one per object */
	cr_expect_eq(pms_debuginfod__find_executable(bid_b, sizeof(bid_b), &p), -ETIME);
	pms_debuginfod__stats(&st);
	cr_expect_eq(st.queries, 1);
	cr_expect_eq(st.remembered, 1);
	for (int i = 0; i < 3; i++)
		close(fill[i]);
}
