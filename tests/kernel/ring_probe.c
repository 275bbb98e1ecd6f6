// SPDX-License-Identifier: MIT
// Test program for tests/kernel/test_ring.sh: samples a busy child through lib/perf_event/mmap + lib/ring and checks what comes back.
//
// usage: ring_probe [BUSY_MS [FREQ_HZ [DATA_PAGES [slow]]]]
//        (slow: drain only every 100 ms so the ring overflows; checks LOST accounting instead)
//        ring_probe --map-only DATA_PAGES   (map one ring on itself; print "map ok" or "map ERRNO REASON")
//        ring_probe --busy MS               (just the child's workload, for perf record as the oracle)
//        ring_probe --overwrite MS          (write_backward cpu-clock into 1-page read-only rings; read newest first)
// Forks a child that waits for a go byte, renames itself "ring-busy", maps
// /bin/true executable, spins BUSY_MS of CPU time and exits. On every CPU opens a
// cpu-clock sampling event (sample_type IDENTIFIER|IP|TID|TIME|CPU|PERIOD|
// CALLCHAIN) on the child and a dummy tracking event (comm, task, mmap2,
// sample_id_all) whose records go to the cpu-clock ring via SET_OUTPUT.
// Drains the rings with poll while the child runs and prints one line per
// check: "ok NAME detail" or "fail NAME detail", then "stats ...".
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "perf_event/mmap.h"
#include "perf_event/sys.h"
#include "ring/record.h"
#include "ring/ring.h"
#include "ring/stats.h"

#define MAX_CPUS 256

static struct {
	pid_t child;
	int ncpus;
	uint64_t clock_ids[MAX_CPUS], dummy_ids[MAX_CPUS];
	struct pms_decode_cfg cfg;
	struct pms_ring_stats st;
	uint64_t last_time[MAX_CPUS];
	int cur_cpu;
	/* check counters */
	uint64_t bad_lost_id, bad_peek, bad_pid, bad_chain, bad_cpu, bad_time, bad_period, bad_id, bad_sid, decode_errors;
	uint64_t min_period, max_period;
	int comm_seen, exit_seen, mmap2_seen;
	char detail[256];
} g;

static double clock_ms(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static double now_ms(void)
{
	return clock_ms(CLOCK_MONOTONIC);
}

static void busy_child(int go_fd, int busy_ms)
{
	volatile uint64_t x = 0;
	char c;
	double end;
	int fd;

	if (read(go_fd, &c, 1) != 1)
		_exit(2);
	prctl(PR_SET_NAME, "ring-busy", 0, 0, 0);
	fd = open("/bin/true", O_RDONLY);
	if (fd >= 0 && mmap(NULL, 4096, PROT_READ | PROT_EXEC, MAP_PRIVATE, fd, 0) == MAP_FAILED)
		_exit(3);
	/* CPU time, not wall time: cpu-clock samples what the child ran, even on a loaded machine. */
	end = clock_ms(CLOCK_THREAD_CPUTIME_ID) + busy_ms;
	while (clock_ms(CLOCK_THREAD_CPUTIME_ID) < end)
		for (int i = 0; i < 10000; i++)
			x += (uint64_t)i * i;
	_exit(0);
}

static bool in(const uint64_t *ids, uint64_t id)
{
	for (int i = 0; i < g.ncpus; i++)
		if (ids[i] == id)
			return true;
	return false;
}

static int on_record(const struct perf_event_header *h, void *arg)
{
	struct pms_record r;
	size_t off;
	uint64_t i;

	(void)arg;
	if (pms_record__decode(&g.cfg, h, h->size, &r, &off)) {
		if (!g.decode_errors++)
			snprintf(g.detail, sizeof(g.detail), "type %u size %u: bad byte at %zu",
				 h->type, h->size, off);
		return 0;
	}
	pms_ring_stats__account(&g.st, &r);
	{
		uint64_t peeked = 0;

		if (pms_record__peek_id(h, h->size, true, &peeked) ||
		    peeked != (r.type == PERF_RECORD_SAMPLE ? r.sample.id : r.sid.id))
			g.bad_peek++;
	}
	if (r.type == PERF_RECORD_LOST && !in(g.clock_ids, r.lost.id) && !in(g.dummy_ids, r.lost.id))
		g.bad_lost_id++;
	if (r.type == PERF_RECORD_SAMPLE) {
		const struct pms_sample *s = &r.sample;

		if (s->pid != (uint32_t)g.child || s->tid != (uint32_t)g.child)
			g.bad_pid++;
		if (!s->callchain_nr || !pms_callchain__is_context(s->callchain[0]))
			g.bad_chain++;
		for (i = 0; i < s->callchain_nr; i++)
			if (s->callchain[i] == 0)
				g.bad_chain++;
		if (s->cpu != (uint32_t)g.cur_cpu)
			g.bad_cpu++;
		if (s->time < g.last_time[g.cur_cpu])
			g.bad_time++;
		g.last_time[g.cur_cpu] = s->time;
		if (!s->period)
			g.bad_period++;
		if (!g.min_period || s->period < g.min_period)
			g.min_period = s->period;
		if (s->period > g.max_period)
			g.max_period = s->period;
		if (!in(g.clock_ids, s->id))
			g.bad_id++;
		return 0;
	}
	/* Side-band records come from the dummy event through SET_OUTPUT. */
	if (r.type == PERF_RECORD_COMM || r.type == PERF_RECORD_EXIT || r.type == PERF_RECORD_MMAP2) {
		if (!(r.sid.present & PERF_SAMPLE_IDENTIFIER) || !in(g.dummy_ids, r.sid.id) ||
		    r.sid.pid != (uint32_t)g.child)
			g.bad_sid++;
	}
	if (r.type == PERF_RECORD_COMM && r.comm.pid == (uint32_t)g.child &&
	    strcmp(r.comm.comm, "ring-busy") == 0 && !r.comm.exec)
		g.comm_seen++;
	if (r.type == PERF_RECORD_EXIT && r.task.pid == (uint32_t)g.child && r.task.tid == (uint32_t)g.child)
		g.exit_seen++;
	if (r.type == PERF_RECORD_MMAP2 && r.mmap.pid == (uint32_t)g.child && strstr(r.mmap.filename, "true") &&
	    (r.mmap.prot & PROT_EXEC))
		g.mmap2_seen++;
	return 0;
}

static void check(const char *name, bool ok, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void check(const char *name, bool ok, const char *fmt, ...)
{
	va_list ap;

	printf("%s %s ", ok ? "ok" : "fail", name);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

struct backward {
	uint64_t n, bad, last_time, bytes;
	struct pms_decode_cfg cfg;
};

static int on_backward(const struct perf_event_header *h, void *arg)
{
	struct backward *b = arg;
	struct pms_sample s;

	b->bytes += h->size;
	if (h->type != PERF_RECORD_SAMPLE)
		return 0;
	b->n++;
	if (pms_sample__decode(&b->cfg, h, h->size, &s, NULL) || s.pid != (uint32_t)g.child ||
	    (b->last_time && s.time >= b->last_time))
		b->bad++;
	b->last_time = s.time;
	return 0;
}

/* Flight-recorder mode: the kernel overwrites, we read the newest records at the end. */
static int overwrite_mode(int busy_ms)
{
	struct perf_event_attr a = { .size = sizeof(a), .type = PERF_TYPE_SOFTWARE,
				     .config = PERF_COUNT_SW_CPU_CLOCK, .freq = 1, .sample_freq = 1000,
				     .sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME, .disabled = 1,
				     .exclude_hv = 1, .write_backward = 1 };
	static struct pms_mmap maps[MAX_CPUS];
	int fds[MAX_CPUS], go[2], cpu, err, status = 0;
	uint64_t total = 0, bad = 0, maxbytes = 0;
	struct pms_ring ring;

	g.ncpus = (int)sysconf(_SC_NPROCESSORS_ONLN);
	if (g.ncpus < 1 || g.ncpus > MAX_CPUS || pipe(go))
		return 2;
	g.child = fork();
	if (g.child < 0)
		return 2;
	if (!g.child) {
		close(go[1]);
		busy_child(go[0], busy_ms);
	}
	close(go[0]);
	for (cpu = 0; cpu < g.ncpus; cpu++) {
		fds[cpu] = pms_sys__perf_event_open(&a, g.child, cpu, -1, 0);
		if (fds[cpu] < 0) {
			printf("skip write_backward: %s\n", strerror(-fds[cpu]));
			kill(g.child, SIGKILL);
			return 0;
		}
		err = pms_mmap__map_overwrite(&maps[cpu], fds[cpu], 1);
		if (err) {
			check("ring_overwrite_map", false, "%s", strerror(-err));
			kill(g.child, SIGKILL);
			return 1;
		}
		pms_perf_fd__enable(fds[cpu]);
	}
	if (write(go[1], "g", 1) != 1)
		return 2;
	waitpid(g.child, &status, 0);
	for (cpu = 0; cpu < g.ncpus; cpu++) {
		struct backward b = { 0 };
		int64_t n;

		pms_decode_cfg__from_attr(&b.cfg, &a);
		err = pms_perf_fd__pause_output(fds[cpu], true);
		if (err)
			check("ring_overwrite_pause", false, "%s", strerror(-err));
		if (pms_ring__init_mmap(&ring, &maps[cpu]))
			return 1;
		n = pms_ring__read_backward(&ring, on_backward, &b);
		if (n < 0)
			bad++;
		total += b.n;
		bad += b.bad;
		if (b.bytes > maxbytes)
			maxbytes = b.bytes;
		pms_ring__exit(&ring);
		pms_mmap__unmap(&maps[cpu]);
		close(fds[cpu]);
	}
	/*
	 * 1000 Hz for busy_ms gives far more samples than one 4 kB page holds
	 * (32 bytes each): the fullest ring must be (nearly) full, never more.
	 */
	check("ring_overwrite_kept_newest", total > 0 && !bad && maxbytes <= pms_mmap__page_size() &&
	      maxbytes >= pms_mmap__page_size() / 2,
	      "%llu samples kept of ~%d, %llu bad or out of newest-first order, %llu bytes in the fullest ring",
	      (unsigned long long)total, busy_ms, (unsigned long long)bad, (unsigned long long)maxbytes);
	check("ring_overwrite_child_status", WIFEXITED(status) && WEXITSTATUS(status) == 0, "status %#x", status);
	return 0;
}

static int map_only(unsigned pages)
{
	struct perf_event_attr a = { .size = sizeof(a), .type = PERF_TYPE_SOFTWARE,
				     .config = PERF_COUNT_SW_CPU_CLOCK, .sample_period = 1000000,
				     .sample_type = PERF_SAMPLE_IP, .disabled = 1, .exclude_hv = 1 };
	struct pms_mmap m;
	char reason[512];
	int fd, err;

	fd = pms_sys__perf_event_open(&a, 0, -1, -1, 0);
	if (fd < 0) {
		printf("open %d %s\n", -fd, strerror(-fd));
		return 1;
	}
	err = pms_mmap__map(&m, fd, pages);
	if (err)
		printf("map %d %s\n", -err, pms_mmap__error_reason(err, pages, reason, sizeof(reason)));
	else
		printf("map ok %zu bytes\n", m.len_bytes);
	pms_mmap__unmap(&m);
	close(fd);
	return 0;
}

int main(int argc, char **argv)
{
	int busy_ms = argc > 1 && argv[1][0] != '-' ? (int)strtol(argv[1], NULL, 10) : 300;
	int freq = argc > 2 && argv[1][0] != '-' ? (int)strtol(argv[2], NULL, 10) : 1000;
	unsigned pages = argc > 3 && argv[1][0] != '-' ? (unsigned)strtoul(argv[3], NULL, 10) : 2;
	bool slow = argc > 4 && strcmp(argv[4], "slow") == 0;
	static struct pms_mmap maps[MAX_CPUS];
	static struct pms_ring rings[MAX_CPUS];
	int clock_fd[MAX_CPUS], dummy_fd[MAX_CPUS];
	struct perf_event_attr clk = { 0 }, dummy = { 0 };
	struct pollfd pfd[MAX_CPUS];
	int go[2], status = 0, err, cpu;
	bool child_done = false, setup_ok = true;
	uint64_t wrapped = 0, bytes = 0;
	char reason[512];
	double expected, t0, t1 = 0;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc > 2 && strcmp(argv[1], "--map-only") == 0)
		return map_only((unsigned)strtoul(argv[2], NULL, 10));
	if (argc > 2 && strcmp(argv[1], "--overwrite") == 0)
		return overwrite_mode((int)strtol(argv[2], NULL, 10));
	if (argc > 2 && strcmp(argv[1], "--busy") == 0) {
		if (pipe(go) || write(go[1], "g", 1) != 1)
			return 2;
		busy_child(go[0], (int)strtol(argv[2], NULL, 10));
	}
	g.ncpus = (int)sysconf(_SC_NPROCESSORS_ONLN);
	if (g.ncpus < 1 || g.ncpus > MAX_CPUS)
		return 2;
	if (pipe(go))
		return 2;
	g.child = fork();
	if (g.child < 0)
		return 2;
	if (!g.child) {
		close(go[1]);
		busy_child(go[0], busy_ms);
	}
	close(go[0]);

	clk.size = sizeof(clk);
	clk.type = PERF_TYPE_SOFTWARE;
	clk.config = PERF_COUNT_SW_CPU_CLOCK;
	clk.freq = 1;
	clk.sample_freq = (uint64_t)freq;
	clk.sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
			  PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | PERF_SAMPLE_CALLCHAIN;
	clk.sample_id_all = 1;
	clk.disabled = 1;
	clk.exclude_hv = 1;
	dummy = clk;
	dummy.config = PERF_COUNT_SW_DUMMY;
	dummy.freq = 0;
	dummy.sample_period = 1;
	dummy.comm = 1;
	dummy.task = 1;
	dummy.mmap = 1;
	dummy.mmap2 = 1;
	pms_decode_cfg__from_attr(&g.cfg, &clk);

	for (cpu = 0; cpu < g.ncpus; cpu++) {
		clock_fd[cpu] = pms_sys__perf_event_open(&clk, g.child, cpu, -1, 0);
		dummy_fd[cpu] = pms_sys__perf_event_open(&dummy, g.child, cpu, -1, 0);
		if (clock_fd[cpu] < 0 || dummy_fd[cpu] < 0) {
			printf("skip open cpu-clock/dummy on cpu %d: %s\n", cpu,
			       strerror(-(clock_fd[cpu] < 0 ? clock_fd[cpu] : dummy_fd[cpu])));
			kill(g.child, SIGKILL);
			return 0;
		}
		err = pms_mmap__map(&maps[cpu], clock_fd[cpu], pages);
		if (err) {
			check("ring_mmap", false, "cpu %d: %s", cpu,
			      pms_mmap__error_reason(err, pages, reason, sizeof(reason)));
			setup_ok = false;
			break;
		}
		err = pms_mmap__set_output(dummy_fd[cpu], clock_fd[cpu]);
		if (err) {
			check("ring_set_output", false, "cpu %d: %s", cpu, strerror(-err));
			setup_ok = false;
			break;
		}
		if (pms_perf_fd__id(clock_fd[cpu], &g.clock_ids[cpu]) ||
		    pms_perf_fd__id(dummy_fd[cpu], &g.dummy_ids[cpu]) ||
		    pms_ring__init_mmap(&rings[cpu], &maps[cpu])) {
			check("ring_setup", false, "cpu %d: id or ring init failed", cpu);
			setup_ok = false;
			break;
		}
		pfd[cpu].fd = clock_fd[cpu];
		pfd[cpu].events = POLLIN;
	}
	if (!setup_ok) {
		kill(g.child, SIGKILL);
		waitpid(g.child, NULL, 0);
		return 1;
	}
	check("ring_mmap_set_output", true, "%d cpus, %u data pages each, dummy -> cpu-clock ring", g.ncpus, pages);
	/* A second SET_OUTPUT onto a ring on another CPU must be refused by the kernel. */
	if (g.ncpus > 1) {
		int fd = pms_sys__perf_event_open(&dummy, g.child, 1, -1, 0);

		if (fd >= 0) {
			err = pms_mmap__set_output(fd, clock_fd[0]);
			check("ring_set_output_cross_cpu_refused", err == -EINVAL, "got %d", err);
			close(fd);
		}
	}
	for (cpu = 0; cpu < g.ncpus; cpu++)
		if (pms_perf_fd__enable(clock_fd[cpu]) || pms_perf_fd__enable(dummy_fd[cpu]))
			check("ring_enable", false, "cpu %d", cpu);

	t0 = now_ms();
	if (write(go[1], "g", 1) != 1)
		return 2;
	while (1) {
		if (slow)
			nanosleep(&(struct timespec){ .tv_nsec = 100 * 1000 * 1000 }, NULL);
		else
			poll(pfd, (nfds_t)g.ncpus, 5);
		for (cpu = 0; cpu < g.ncpus; cpu++) {
			g.cur_cpu = cpu;
			if (pms_ring__drain(&rings[cpu], on_record, NULL) < 0)
				g.decode_errors++;
		}
		if (child_done)
			break;
		if (waitpid(g.child, &status, WNOHANG) == g.child) {
			child_done = true;   /* one more drain for the EXIT record */
			t1 = now_ms();
		}
	}
	for (cpu = 0; cpu < g.ncpus; cpu++) {
		pms_perf_fd__disable(clock_fd[cpu]);
		wrapped += rings[cpu].nr_wrapped;
		bytes += rings[cpu].nr_bytes;
		pms_ring__exit(&rings[cpu]);
		pms_mmap__unmap(&maps[cpu]);
		close(dummy_fd[cpu]);
		close(clock_fd[cpu]);
	}

	expected = busy_ms * freq / 1000.0;
	if (slow) {
		/*
		 * The kernel reports drops with a LOST record at its next write
		 * after we free space, so losses after the last drain go
		 * unreported: the total is only bounded from above tightly.
		 */
		uint64_t lost = g.st.nr_lost_events, n = g.st.nr_samples + lost;

		check("ring_lost_records", g.st.nr_lost_records > 0 && lost > 0 && g.st.nr_samples < expected * 0.9,
		      "%llu LOST records for %llu samples, %llu samples kept of %.0f",
		      (unsigned long long)g.st.nr_lost_records, (unsigned long long)lost,
		      (unsigned long long)g.st.nr_samples, expected);
		check("ring_lost_total", n >= expected * 0.4 && n <= expected * 1.3,
		      "%llu samples + %llu lost, expected <= %.0f +30%%", (unsigned long long)g.st.nr_samples,
		      (unsigned long long)lost, expected);
		check("ring_lost_ids", g.st.nr_lost_records && !g.bad_lost_id,
		      "%llu LOST records whose id is neither event's", (unsigned long long)g.bad_lost_id);
		check("ring_lost_pct", pms_ring_stats__lost_pct(&g.st) > 0 && pms_ring_stats__lost_pct(&g.st) < 100,
		      "lost %.2f%% (perf: \"Processed N samples and lost X%%!\")", pms_ring_stats__lost_pct(&g.st));
	} else {
		uint64_t n = g.st.nr_samples + g.st.nr_lost_events + g.st.nr_lost_samples;

		check("ring_sample_count", n >= expected * 0.7 && n <= expected * 1.3,
		      "%llu samples + %llu lost, expected %.0f +-30%% (child lived %.0f ms)",
		      (unsigned long long)g.st.nr_samples,
		      (unsigned long long)(g.st.nr_lost_events + g.st.nr_lost_samples), expected, t1 - t0);
	}
	check("ring_no_decode_errors", g.decode_errors == 0, "%llu errors %s",
	      (unsigned long long)g.decode_errors, g.detail);
	check("ring_sample_pid_tid", g.st.nr_samples && !g.bad_pid, "%llu of %llu samples not pid/tid %d",
	      (unsigned long long)g.bad_pid, (unsigned long long)g.st.nr_samples, (int)g.child);
	check("ring_sample_ids", g.st.nr_samples && !g.bad_id, "%llu samples whose IDENTIFIER is not a cpu-clock id",
	      (unsigned long long)g.bad_id);
	check("ring_peek_id", !g.bad_peek, "%llu records whose peeked id differs from the decoded IDENTIFIER",
	      (unsigned long long)g.bad_peek);
	if (slow)
		goto out;
	check("ring_callchain_context", g.st.nr_samples && !g.bad_chain,
	      "%llu callchains without a leading PERF_CONTEXT marker or with null entries",
	      (unsigned long long)g.bad_chain);
	check("ring_sample_cpu_time", !g.bad_cpu && !g.bad_time,
	      "%llu samples with a cpu other than their ring's, %llu going back in time",
	      (unsigned long long)g.bad_cpu, (unsigned long long)g.bad_time);
	check("ring_sample_period", g.st.nr_samples && !g.bad_period && g.min_period >= 5e8 / freq &&
	      g.max_period <= 2e9 / freq, "cpu-clock periods %llu..%llu ns (%.0f ns at %d Hz)",
	      (unsigned long long)g.min_period, (unsigned long long)g.max_period, 1e9 / freq, freq);
	check("ring_comm", g.comm_seen == 1, "%d COMM ring-busy records for pid %d", g.comm_seen, (int)g.child);
	/*
	 * EXIT is written as the child dies, in the burst of its last samples: with a one-page ring
	 * that overflows, it can be one of the records the kernel counted as lost (a LOST record
	 * does not say of which type), so it is only required when nothing was lost.
	 */
	check("ring_exit", g.exit_seen == 1 || (!g.exit_seen && g.st.nr_lost_events),
	      "%d EXIT records for pid %d (%llu records lost)", g.exit_seen, (int)g.child,
	      (unsigned long long)g.st.nr_lost_events);
	check("ring_mmap2", g.mmap2_seen == 1, "%d MMAP2 records of /bin/true", g.mmap2_seen);
	check("ring_sample_id_all", !g.bad_sid && g.comm_seen + g.exit_seen + g.mmap2_seen > 0,
	      "%llu side-band records without a dummy-event IDENTIFIER and the child's pid in sample_id",
	      (unsigned long long)g.bad_sid);
out:
	check("ring_child_status", WIFEXITED(status) && WEXITSTATUS(status) == 0, "status %#x", status);
	printf("stats records=%llu samples=%llu bytes=%llu wrapped=%llu lost=%llu lost_samples=%llu throttle=%llu\n",
	       (unsigned long long)g.st.nr_records, (unsigned long long)g.st.nr_samples,
	       (unsigned long long)bytes, (unsigned long long)wrapped,
	       (unsigned long long)g.st.nr_lost_events, (unsigned long long)g.st.nr_lost_samples,
	       (unsigned long long)g.st.nr_throttle);
	pms_ring_stats__exit(&g.st);
	return 0;
}
