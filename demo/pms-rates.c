// SPDX-License-Identifier: MIT
// Ground-truth workload for rate metrics (context switches and page faults per second), so a
// scraper's rate() of a system-wide or per-cgroup counter can be checked against what happened.
//
//   * context switches: a driver thread and a pong thread hand a byte back and forth over two
//     pipes; every handoff blocks the thread that hands off, so each round trip is exactly two
//     switches of this process (voluntary, or involuntary when the woken thread preempts the
//     waker just before it would block: the kernel may count either, the sum is the same).
//     Both threads are pinned to one CPU (the first this process may run on, or --cpu), so a
//     handoff switches directly from one to the other and the machine's switch count grows by
//     the same one (unpinned, a handoff between two idle CPUs also counts the idle task's
//     switch on the other CPU: about 1.35 system-wide switches per switch of its own here);
//   * page faults: the driver writes one byte into each page of an anonymous private mapping
//     (MADV_NOHUGEPAGE: one fault per 4 KiB page, no THP/mTHP folio faulting many at once),
//     and after the last page MADV_DONTNEED drops them all so the next pass faults again. A
//     write to an absent anonymous page is exactly one fault (no zero-page read first).
//
// The work is paced in 10 ms slices: at each slice the driver does what is due since the start
// (rate x elapsed time) and sleeps until the next slice, so the rate is steady over any window
// of a second or more. A slice that comes late (a loaded CPU) catches up on the next one, at
// most one second of backlog (beyond it, work is dropped rather than done in one burst). Each
// of those sleeps is a voluntary switch too: they count towards N (so N below 100 per second
// is not reached: the pacing alone makes 100). System-wide, each wake-up from a sleep is also
// a switch from another task (idle, or whatever ran) into the driver, which the process's own
// counts do not include.
//
// On exit (after --seconds, or on SIGTERM/SIGINT) it prints one line to stdout, what it did:
//   pms-rates: switches S faults F seconds T rusage_switches K rusage_nvcsw V rusage_nivcsw I
//              rusage_minflt M rusage_majflt J round_trips R sleeps P cpu C
// (one line). S = 2 x R + P are the switches its own operations make, F the pages it touched
// absent, T the seconds from the start of the work to its end. The rusage_ fields are the
// kernel's count for the whole process (getrusage(RUSAGE_SELF): every thread, start-up
// included): K = V + I switches, M minor faults. Rates are S/T, F/T (or K/T, M/T): what was
// achieved, not what was asked. C is the CPU the threads are pinned to (-1: not pinned).
//
// Usage: pms-rates [--switches N] [--faults M] [--seconds S] [--cpu C|any] [--fifo]
//   --switches N   context switches per second (default 1000)
//   --faults M     page faults per second (default 1000)
//   --seconds S    run time (default 10; 0 = until SIGTERM/SIGINT)
//   --cpu C|any    the CPU both switching threads are pinned to (default: the first allowed);
//                  `any`: not pinned
//   --fifo         SCHED_FIFO priority 1 for both threads (needs CAP_SYS_NICE): no wakeup
//                  preemption, every switch voluntary
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#define SLICE_NS 10000000LL  /* 10 ms */
#define MAX_BACKLOG_S 1.0    /* at most one second of work caught up at once */
#define REGION_PAGES 512     /* 2 MiB of 4 KiB pages, dropped and faulted again */

static double switches_per_s = 1000, faults_per_s = 1000;
static int pin_cpu = -2; /* -2: the first allowed CPU, -1: not pinned */
static int fifo;
static volatile sig_atomic_t stop;

static int ping[2], pong[2]; /* driver -> pong thread, pong thread -> driver */
static char *region;
static size_t page_size, next_page;

/* results, written by the driver, read by main after the join */
static uint64_t round_trips, sleeps, faults_done;
static double work_seconds;

static int usage(void)
{
	fprintf(stderr, "usage: pms-rates [--switches N] [--faults M] [--seconds S (0: until killed)] "
			"[--cpu C|any] [--fifo]\n");
	return 2;
}

static int64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void die(const char *what)
{
	perror(what);
	exit(1);
}

static void setup_thread(const char *name)
{
	pthread_setname_np(pthread_self(), name);
	if (pin_cpu >= 0) {
		cpu_set_t set;

		CPU_ZERO(&set);
		CPU_SET(pin_cpu, &set);
		if (pthread_setaffinity_np(pthread_self(), sizeof(set), &set))
			fprintf(stderr, "pms-rates: cannot pin %s to CPU %d\n", name, pin_cpu);
	}
	if (fifo) {
		struct sched_param sp = { .sched_priority = 1 };
		int err = pthread_setschedparam(pthread_self(), SCHED_FIFO, &sp);

		if (err)
			fprintf(stderr, "pms-rates: SCHED_FIFO for %s: %s\n", name, strerror(err));
	}
}

static void xwrite(int fd, char c)
{
	while (write(fd, &c, 1) != 1)
		if (errno != EINTR)
			die("write");
}

static char xread(int fd)
{
	char c;
	ssize_t n;

	while ((n = read(fd, &c, 1)) != 1)
		if (n == 0 || errno != EINTR)
			die("read");
	return c;
}

static void *pong_main(void *arg)
{
	(void)arg;
	setup_thread("pms-rates-pong");
	while (xread(ping[0]) != 'q')
		xwrite(pong[1], 'p');
	return NULL;
}

/* one write to a page that is not there: one page fault */
static void fault_one(void)
{
	((volatile char *)region)[next_page * page_size] = 1;
	if (++next_page == REGION_PAGES) {
		if (madvise(region, REGION_PAGES * page_size, MADV_DONTNEED))
			die("madvise(MADV_DONTNEED)");
		next_page = 0;
	}
	faults_done++;
}

static void *driver_main(void *arg)
{
	int64_t t0, t, next;
	uint64_t due, rt_dropped = 0, f_dropped = 0;
	/* the most work caught up in one slice; what is beyond is dropped, never counted */
	uint64_t rt_max_backlog = (uint64_t)(MAX_BACKLOG_S * switches_per_s / 2) + 1;
	uint64_t f_max_backlog = (uint64_t)(MAX_BACKLOG_S * faults_per_s) + 1;

	(void)arg;
	setup_thread("pms-rates");
	t0 = next = now_ns();
	while (!stop) {
		double elapsed;

		t = now_ns();
		elapsed = (double)(t - t0) / 1e9;
		/* round trips due (two switches each): the switches due less the pacing sleeps
		 * (one switch each) and the backlog dropped */
		due = (uint64_t)fmax(0, floor((elapsed * switches_per_s - (double)sleeps) / 2));
		due = due > rt_dropped ? due - rt_dropped : 0;
		if (due > round_trips + rt_max_backlog) {
			rt_dropped += due - round_trips - rt_max_backlog;
			due = round_trips + rt_max_backlog;
		}
		while (round_trips < due && !stop) {
			xwrite(ping[1], 'p');
			xread(pong[0]);
			round_trips++;
		}
		due = (uint64_t)floor(elapsed * faults_per_s);
		due = due > f_dropped ? due - f_dropped : 0;
		if (due > faults_done + f_max_backlog) {
			f_dropped += due - faults_done - f_max_backlog;
			due = faults_done + f_max_backlog;
		}
		while (faults_done < due && !stop)
			fault_one();
		next += SLICE_NS;
		t = now_ns();
		if (next <= t) {
			next = t; /* late: no sleep, the next pass catches up */
			continue;
		}
		struct timespec ts = { .tv_sec = next / 1000000000LL, .tv_nsec = next % 1000000000LL };

		sleeps++;
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
			;
	}
	work_seconds = (double)(now_ns() - t0) / 1e9;
	xwrite(ping[1], 'q');
	return NULL;
}

static int first_allowed_cpu(void)
{
	cpu_set_t set;

	if (sched_getaffinity(0, sizeof(set), &set))
		return -1;
	for (int c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &set))
			return c;
	return -1;
}

static int parse_rate(const char *s, double *out)
{
	char *end;
	double v = strtod(s, &end);

	if (end == s || *end || !(v >= 0) || v > 1e7)
		return -1;
	*out = v;
	return 0;
}

int main(int argc, char **argv)
{
	double seconds = 10;
	pthread_t driver, ponger;
	sigset_t sigs;
	struct rusage ru;
	char *end;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--fifo")) {
			fifo = 1;
			continue;
		}
		if (i + 1 >= argc)
			return usage();
		if (!strcmp(argv[i], "--switches")) {
			if (parse_rate(argv[++i], &switches_per_s))
				return usage();
		} else if (!strcmp(argv[i], "--faults")) {
			if (parse_rate(argv[++i], &faults_per_s))
				return usage();
		} else if (!strcmp(argv[i], "--seconds")) {
			seconds = strtod(argv[++i], &end);
			if (end == argv[i] || *end || !(seconds >= 0))
				return usage();
		} else if (!strcmp(argv[i], "--cpu")) {
			if (!strcmp(argv[++i], "any")) {
				pin_cpu = -1;
			} else {
				long c = strtol(argv[i], &end, 10);

				if (end == argv[i] || *end || c < 0 || c >= CPU_SETSIZE)
					return usage();
				pin_cpu = (int)c;
			}
		} else {
			return usage();
		}
	}
	if (pin_cpu == -2)
		pin_cpu = first_allowed_cpu();

	page_size = (size_t)sysconf(_SC_PAGESIZE);
	region = mmap(NULL, REGION_PAGES * page_size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (region == MAP_FAILED)
		die("mmap");
	if (madvise(region, REGION_PAGES * page_size, MADV_NOHUGEPAGE))
		die("madvise(MADV_NOHUGEPAGE)");
	if (pipe(ping) || pipe(pong))
		die("pipe");

	/* SIGTERM/SIGINT wait for main's sigtimedwait in every thread */
	sigemptyset(&sigs);
	sigaddset(&sigs, SIGTERM);
	sigaddset(&sigs, SIGINT);
	pthread_sigmask(SIG_BLOCK, &sigs, NULL);
	if (pthread_create(&ponger, NULL, pong_main, NULL) || pthread_create(&driver, NULL, driver_main, NULL))
		die("pthread_create");

	if (seconds > 0) {
		int64_t deadline = now_ns() + (int64_t)(seconds * 1e9);

		for (int64_t left; (left = deadline - now_ns()) > 0;) {
			struct timespec ts = { .tv_sec = left / 1000000000LL, .tv_nsec = left % 1000000000LL };

			if (sigtimedwait(&sigs, NULL, &ts) > 0)
				break;
		}
	} else {
		int sig;

		sigwait(&sigs, &sig);
	}
	stop = 1;
	pthread_join(driver, NULL);
	pthread_join(ponger, NULL);

	getrusage(RUSAGE_SELF, &ru);
	printf("pms-rates: switches %llu faults %llu seconds %.3f rusage_switches %ld rusage_nvcsw %ld "
	       "rusage_nivcsw %ld rusage_minflt %ld rusage_majflt %ld round_trips %llu sleeps %llu cpu %d\n",
	       (unsigned long long)(2 * round_trips + sleeps), (unsigned long long)faults_done, work_seconds,
	       ru.ru_nvcsw + ru.ru_nivcsw, ru.ru_nvcsw, ru.ru_nivcsw, ru.ru_minflt, ru.ru_majflt,
	       (unsigned long long)round_trips, (unsigned long long)sleeps, pin_cpu);
	return 0;
}
