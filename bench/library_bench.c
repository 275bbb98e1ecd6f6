// SPDX-License-Identifier: MIT
// In-process benchmark for bench/library.sh: the cost of the public counting API
// (include/pmuscope/count.h, region.h) against its peers, measured in the same process.
//
//   library_bench read   [batches]  one read of task-clock: pms_count_set__read() vs a bare
//                                   read(2) of a hand-opened fd (same attr) vs PAPI_read()
//   library_bench region [batches]  one begin/end pair: pms_region__begin/end vs
//                                   PAPI_hl_region_begin/end vs LIKWID's markers
//   library_bench likwid            LIKWID markers only (what likwid-perfctr -m runs)
//
// Method: each peer is calibrated (which warms it up) to a batch of ~20 ms, then the batches run
// interleaved A,B,C,A,B,C... so load hits every peer alike; each peer's result is the median of its
// batches' ns/op (CLOCK_MONOTONIC). Build with -DHAVE_PAPI / -DHAVE_LIKWID when those are there;
// a peer that is not built in or does not work here prints a SKIP line with the reason.
#include <errno.h>
#include <linux/perf_event.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <pmuscope/count.h>
#include <pmuscope/pmuscope.h>
#include <pmuscope/region.h>

#ifdef HAVE_PAPI
#include <papi.h>
#endif
#ifdef HAVE_LIKWID
#include <likwid.h>
#endif

#define MAX_BATCHES 101
#define BATCH_NS 20000000.0 /* ~20 ms per batch */

static volatile uint64_t sink;

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

struct peer {
	const char *name;
	int (*run)(void *ctx, uint64_t n); /* n operations; 0 or an error */
	void *ctx;
	uint64_t n;                        /* operations per batch */
	double ns[MAX_BATCHES];
	double median;
};

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median(const double *v, int nr)
{
	double s[MAX_BATCHES];

	memcpy(s, v, nr * sizeof(*s));
	qsort(s, nr, sizeof(*s), cmp_double);
	return nr % 2 ? s[nr / 2] : (s[nr / 2 - 1] + s[nr / 2]) / 2;
}

/* Size a batch to ~BATCH_NS (this also warms the peer up), then one more warm-up batch. */
static int calibrate(struct peer *p)
{
	uint64_t n = 16, t0, dt;
	int err;

	for (;;) {
		t0 = now_ns();
		err = p->run(p->ctx, n);
		dt = now_ns() - t0;
		if (err)
			return err;
		if (dt >= BATCH_NS / 4 || n >= (1ull << 32))
			break;
		n *= 2;
	}
	p->n = (uint64_t)((double)n * BATCH_NS / (double)(dt ? dt : 1));
	if (p->n < 1)
		p->n = 1;
	return p->run(p->ctx, p->n);
}

/* Batches interleaved across the peers; 0 or the first error (its peer named in *failed). */
static int measure(struct peer *peers, int nr, int batches, const char **failed)
{
	for (int i = 0; i < nr; i++) {
		int err = calibrate(&peers[i]);

		if (err) {
			*failed = peers[i].name;
			return err;
		}
	}
	for (int b = 0; b < batches; b++) {
		for (int i = 0; i < nr; i++) {
			uint64_t t0 = now_ns();
			int err = peers[i].run(peers[i].ctx, peers[i].n);

			if (err) {
				*failed = peers[i].name;
				return err;
			}
			peers[i].ns[b] = (double)(now_ns() - t0) / (double)peers[i].n;
		}
	}
	for (int i = 0; i < nr; i++)
		peers[i].median = median(peers[i].ns, batches);
	return 0;
}

static void print_spread(const struct peer *p, int batches)
{
	double lo = p->ns[0], hi = p->ns[0];

	for (int b = 1; b < batches; b++) {
		lo = p->ns[b] < lo ? p->ns[b] : lo;
		hi = p->ns[b] > hi ? p->ns[b] : hi;
	}
	printf("library-batches: %s: %d batches of %llu ops, %.1f .. %.1f ns/op, median %.1f\n", p->name, batches,
	       (unsigned long long)p->n, lo, hi, p->median);
}

static void ratio_line(const char *what, double ours, double theirs, const char *goal)
{
	printf("%s: ratio %.3fx (%s%s)\n", what, ours / theirs, goal ? "goal " : "no goal set", goal ? goal : "");
}

/* ---------------------------------------------------------------- read */

struct bare_ctx {
	int fd;
};

static int run_pms_read(void *ctx, uint64_t n)
{
	struct pms_count_set *set = ctx;
	struct pms_count_value v;
	uint64_t acc = 0;

	for (uint64_t i = 0; i < n; i++) {
		int err = pms_count_set__read(set, 0, &v);

		if (err)
			return err;
		acc += v.value;
	}
	sink = acc;
	return 0;
}

static int run_bare_read(void *ctx, uint64_t n)
{
	struct bare_ctx *b = ctx;
	uint64_t v[3], acc = 0;

	for (uint64_t i = 0; i < n; i++) {
		if (read(b->fd, v, sizeof(v)) != (ssize_t)sizeof(v))
			return -EIO;
		acc += v[0];
	}
	sink = acc;
	return 0;
}

/* The attr pms_count_set__open("task-clock") opens (pmuscope stat -vv shows it), by hand. */
static int open_bare_task_clock(void)
{
	struct perf_event_attr attr;
	int fd;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_SOFTWARE;
	attr.config = PERF_COUNT_SW_TASK_CLOCK;
	attr.sample_type = PERF_SAMPLE_IDENTIFIER;
	attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	attr.disabled = 1;
	attr.exclude_guest = 1;
	fd = (int)syscall(SYS_perf_event_open, &attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (ioctl(fd, PERF_EVENT_IOC_ENABLE, 0) < 0) {
		int err = -errno;

		close(fd);
		return err;
	}
	return fd;
}

#ifdef HAVE_PAPI
struct papi_ctx {
	int es;
};

static int run_papi_read(void *ctx, uint64_t n)
{
	struct papi_ctx *p = ctx;
	long long v[1];
	uint64_t acc = 0;

	for (uint64_t i = 0; i < n; i++) {
		int err = PAPI_read(p->es, v);

		if (err != PAPI_OK)
			return err < 0 ? err : -err;
		acc += (uint64_t)v[0];
	}
	sink = acc;
	return 0;
}

/* An event set counting task-clock on this thread, started; or the reason it cannot be had. */
static int papi_open_task_clock(int *es, const char **which, char *why, size_t whylen)
{
	static const char *const names[] = { "perf::TASK-CLOCK", "perf::PERF_COUNT_SW_TASK_CLOCK",
					     "perf::task-clock" };
	int err = PAPI_library_init(PAPI_VER_CURRENT);

	if (err != PAPI_VER_CURRENT) {
		snprintf(why, whylen, "PAPI_library_init: %s", err > 0 ? "version mismatch" : PAPI_strerror(err));
		return -1;
	}
	*es = PAPI_NULL;
	err = PAPI_create_eventset(es);
	if (err != PAPI_OK) {
		snprintf(why, whylen, "PAPI_create_eventset: %s", PAPI_strerror(err));
		return -1;
	}
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		err = PAPI_add_named_event(*es, names[i]);
		if (err == PAPI_OK) {
			*which = names[i];
			err = PAPI_start(*es);
			if (err != PAPI_OK) {
				snprintf(why, whylen, "PAPI_start(%s): %s", names[i], PAPI_strerror(err));
				return -1;
			}
			return 0;
		}
		snprintf(why, whylen, "PAPI_add_named_event(%s): %s", names[i], PAPI_strerror(err));
	}
	return -1;
}
#endif

static const char *path_name(enum pms_read_path p)
{
	return p == PMS_READ_USER_PAGE ? "PMS_READ_USER_PAGE" : p == PMS_READ_SYSCALL ? "PMS_READ_SYSCALL" : "?";
}

static int bench_read(int batches)
{
	struct pms_count_opts o = { .sz = sizeof(o), .enabled = true };
	struct pms_count_set *set = pms_count_set__open("task-clock", &o);
	struct bare_ctx bare;
	struct peer peers[3];
	struct pms_count_value v;
	const char *failed = NULL;
	int nr = 0, err, have_papi = 0;

	if (!set) {
		printf("library-read: SKIP: pms_count_set__open(task-clock): %s\n", pms_strerror(-errno));
		return 0;
	}
	bare.fd = open_bare_task_clock();
	if (bare.fd < 0) {
		printf("library-read: SKIP: perf_event_open(task-clock): %s\n", strerror(-bare.fd));
		pms_count_set__close(set);
		return 0;
	}
	err = pms_count_set__read(set, 0, &v);
	if (err) {
		printf("library-read: SKIP: pms_count_set__read: %s\n", pms_strerror(err));
		return 0;
	}
	peers[nr++] = (struct peer){ .name = "pmuscope pms_count_set__read", .run = run_pms_read, .ctx = set };
	peers[nr++] = (struct peer){ .name = "bare read()", .run = run_bare_read, .ctx = &bare };
#ifdef HAVE_PAPI
	static struct papi_ctx papi;
	const char *papi_event = NULL;
	char why[256] = "";

	if (papi_open_task_clock(&papi.es, &papi_event, why, sizeof(why)) == 0) {
		peers[nr++] = (struct peer){ .name = "PAPI_read", .run = run_papi_read, .ctx = &papi };
		have_papi = 1;
	} else {
		printf("library-read-papi: SKIP: %s\n", why);
	}
#else
	printf("library-read-papi: SKIP: built without PAPI (papi.h / -lpapi not usable)\n");
#endif
	err = measure(peers, nr, batches, &failed);
	if (err) {
		printf("library-read: FAIL: %s returned %d\n", failed, err);
		return 1;
	}
	for (int i = 0; i < nr; i++)
		print_spread(&peers[i], batches);
	printf("library-read: task-clock (1 event, read_format TOTAL_TIME_ENABLED|TOTAL_TIME_RUNNING): "
	       "pmuscope %.1f ns/read, bare read() %.1f ns/read",
	       peers[0].median, peers[1].median);
	if (have_papi)
		printf(", PAPI_read %.1f ns/read", peers[2].median);
	printf("\n");
	ratio_line("library-read-vs-bare: pmuscope / bare read()", peers[0].median, peers[1].median, "<= 1.05");
#ifdef HAVE_PAPI
	if (have_papi) {
		ratio_line("library-read-vs-papi: pmuscope / PAPI_read", peers[0].median, peers[2].median, "<= 0.5");
		printf("library-read-papi: event %s\n", papi_event);
	}
#endif
	err = pms_count_set__read(set, 0, &v);
	printf("library-read-path: pmuscope reads took %s (user_page_capable=%d)%s\n", err ? "?" : path_name(v.path),
	       pms_count_set__user_page_capable(set, 0),
	       !err && v.path == PMS_READ_SYSCALL
		       ? ": task-clock is a software event, never on a hardware counter, so the user page "
			 "gives no rdpmc index and every read falls back to read(2)"
		       : "");
	pms_count_set__close(set);
	close(bare.fd);
	return 0;
}

/* ---------------------------------------------------------------- region */

static int run_pms_region(void *ctx, uint64_t n)
{
	(void)ctx;
	for (uint64_t i = 0; i < n; i++) {
		int err = pms_region__begin("bench");

		if (err)
			return err;
		err = pms_region__end("bench");
		if (err)
			return err;
	}
	return 0;
}

/* What a pair cannot go below: per end of the pair, one read(2) of the event and one clock read. */
static int run_floor(void *ctx, uint64_t n)
{
	struct bare_ctx *b = ctx;
	uint64_t v[3], acc = 0;

	for (uint64_t i = 0; i < n; i++) {
		acc += now_ns();
		if (read(b->fd, v, sizeof(v)) != (ssize_t)sizeof(v))
			return -EIO;
		acc += v[0];
		if (read(b->fd, v, sizeof(v)) != (ssize_t)sizeof(v))
			return -EIO;
		acc += v[0] + now_ns();
	}
	sink = acc;
	return 0;
}

#ifdef HAVE_PAPI
static int run_papi_hl(void *ctx, uint64_t n)
{
	(void)ctx;
	for (uint64_t i = 0; i < n; i++) {
		int err = PAPI_hl_region_begin("bench");

		if (err != PAPI_OK)
			return err < 0 ? err : -err;
		err = PAPI_hl_region_end("bench");
		if (err != PAPI_OK)
			return err < 0 ? err : -err;
	}
	return 0;
}
#endif

#ifdef HAVE_LIKWID
static int likwid_counting; /* likwid_markerInit found likwid-perfctr -m's environment and set up */

static int run_likwid(void *ctx, uint64_t n)
{
	(void)ctx;
	for (uint64_t i = 0; i < n; i++) {
		int err = likwid_markerStartRegion("bench");

		if (err && likwid_counting)
			return err;
		err = likwid_markerStopRegion("bench");
		if (err && likwid_counting)
			return err;
	}
	return 0;
}

/* Whether the markers count: a start that does not fail (it returns -EFAULT when not initialized). */
static int likwid_setup(int *start_ret)
{
	likwid_markerInit();
	*start_ret = likwid_markerStartRegion("probe");
	if (*start_ret == 0)
		likwid_markerStopRegion("probe");
	return *start_ret == 0;
}
#endif

static int region_result(const struct pms_region_result *r, void *arg)
{
	(void)arg;
	if (!strcmp(r->name, "bench"))
		printf("library-region-path: pmuscope region '%s': %llu calls, %llu user-page reads, %llu read(2) "
		       "reads (task-clock is a software event: PMS_READ_SYSCALL)\n",
		       r->name, (unsigned long long)r->calls, (unsigned long long)r->user_page_reads,
		       (unsigned long long)r->syscall_reads);
	return 0;
}

static int bench_region(int batches)
{
	struct pms_region_opts o = { .sz = sizeof(o), .events = "task-clock" };
	struct peer peers[4];
	struct bare_ctx bare;
	const char *failed = NULL;
	int nr = 0, err, i_papi = -1, i_likwid = -1;

	err = pms_region__init(&o);
	if (err) {
		printf("library-region: SKIP: pms_region__init(task-clock): %s\n", pms_strerror(err));
		return 0;
	}
	if ((err = pms_region__begin("bench")) || (err = pms_region__end("bench"))) {
		printf("library-region: SKIP: pms_region__begin/end: %s\n", pms_strerror(err));
		return 0;
	}
	bare.fd = open_bare_task_clock();
	if (bare.fd < 0) {
		printf("library-region: SKIP: perf_event_open(task-clock): %s\n", strerror(-bare.fd));
		return 0;
	}
	peers[nr++] = (struct peer){ .name = "pmuscope pms_region__begin/end", .run = run_pms_region };
	peers[nr++] = (struct peer){ .name = "floor: 2 x (read() + clock_gettime)", .run = run_floor, .ctx = &bare };
#ifdef HAVE_PAPI
	{
		const char *evs = getenv("PAPI_EVENTS");
		int e1 = PAPI_hl_region_begin("probe"), e2 = e1 == PAPI_OK ? PAPI_hl_region_end("probe") : e1;

		if (e1 == PAPI_OK && e2 == PAPI_OK) {
			i_papi = nr;
			peers[nr++] = (struct peer){ .name = "PAPI_hl_region_begin/end", .run = run_papi_hl };
			printf("library-region-papi: PAPI_EVENTS=%s, output under PAPI_OUTPUT_DIRECTORY=%s\n",
			       evs ? evs : "(unset: PAPI's defaults)",
			       getenv("PAPI_OUTPUT_DIRECTORY") ? getenv("PAPI_OUTPUT_DIRECTORY") : "(cwd)");
		} else {
			printf("library-region-papi: SKIP: PAPI_hl_region_%s: %s (PAPI_EVENTS=%s)\n",
			       e1 != PAPI_OK ? "begin" : "end", PAPI_strerror(e1 != PAPI_OK ? e1 : e2),
			       evs ? evs : "(unset)");
		}
	}
#else
	printf("library-region-papi: SKIP: built without PAPI (papi.h / -lpapi not usable)\n");
#endif
#ifdef HAVE_LIKWID
	{
		int start_ret;

		likwid_counting = likwid_setup(&start_ret);
		i_likwid = nr;
		peers[nr++] = (struct peer){ .name = likwid_counting ? "LIKWID markers"
								      : "LIKWID markers, inactive (no -m)",
					     .run = run_likwid };
		if (!likwid_counting)
			printf("library-region-likwid: markers inactive in this process: likwid_markerStartRegion "
			       "returned %d (-EFAULT: likwid_markerInit found no likwid-perfctr -m environment), "
			       "so each call only tests an init flag and counts nothing\n",
			       start_ret);
	}
#else
	printf("library-region-likwid: SKIP: built without LIKWID (likwid.h / -llikwid not usable)\n");
	(void)i_likwid;
#endif
	err = measure(peers, nr, batches, &failed);
	if (err) {
		printf("library-region: FAIL: %s returned %d\n", failed, err);
		return 1;
	}
	for (int i = 0; i < nr; i++)
		print_spread(&peers[i], batches);
	printf("library-region: task-clock (1 event): pmuscope %.1f ns/pair, floor %.1f ns/pair", peers[0].median,
	       peers[1].median);
	if (i_papi >= 0)
		printf(", PAPI_hl %.1f ns/pair", peers[i_papi].median);
#ifdef HAVE_LIKWID
	if (i_likwid >= 0)
		printf(", LIKWID markers%s %.1f ns/pair", likwid_counting ? "" : " (inactive, count nothing)",
		       peers[i_likwid].median);
#endif
	printf("\n");
	ratio_line("library-region-vs-floor: pmuscope / floor", peers[0].median, peers[1].median, NULL);
	if (i_papi >= 0)
		ratio_line("library-region-vs-papi-hl: pmuscope / PAPI_hl", peers[0].median, peers[i_papi].median,
			   NULL);
#ifdef HAVE_LIKWID
	if (i_likwid >= 0 && likwid_counting)
		ratio_line("library-region-vs-likwid: pmuscope / LIKWID markers", peers[0].median,
			   peers[i_likwid].median, NULL);
	else if (i_likwid >= 0)
		printf("library-region-vs-likwid: no ratio: the inactive markers count nothing, so their "
		       "%.1f ns/pair is only what compiled-in markers cost a run without likwid-perfctr -m\n",
		       peers[i_likwid].median);
#endif
	(void)pms_region__foreach(region_result, NULL);
	pms_region__finish();
	close(bare.fd);
	return 0;
}

#ifdef HAVE_LIKWID
/* Under likwid-perfctr -m: a short marked loop, so the run shows whether the markers count here. */
static int bench_likwid(void)
{
	int start_ret, counting = likwid_setup(&start_ret);

	for (int i = 0; counting && i < 1000; i++) {
		likwid_markerStartRegion("bench");
		likwid_markerStopRegion("bench");
	}
	printf("likwid markers: %s (likwid_markerStartRegion returned %d)\n", counting ? "counting" : "inactive",
	       start_ret);
	likwid_markerClose();
	return counting ? 0 : 1;
}
#endif

int main(int argc, char **argv)
{
	int batches = argc > 2 ? atoi(argv[2]) : 15;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (batches < 1 || batches > MAX_BATCHES)
		batches = 15;
	if (argc > 1 && !strcmp(argv[1], "read"))
		return bench_read(batches);
	if (argc > 1 && !strcmp(argv[1], "region"))
		return bench_region(batches);
#ifdef HAVE_LIKWID
	if (argc > 1 && !strcmp(argv[1], "likwid"))
		return bench_likwid();
#endif
	fprintf(stderr, "usage: %s read|region|likwid [batches (15)]\n", argv[0]);
	return 2;
}
