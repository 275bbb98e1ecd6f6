// SPDX-License-Identifier: MIT
// `pmuscope record`: sample a command, processes or the whole system into a perf.data file.
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cmd.h"
#include "events.h"
#include "data/writer.h"
#include "event/event.h"
#include "perf_event/mmap.h"
#include "perf_event/sys.h"
#include "ring/record.h"
#include "ring/ring.h"
#include "ring/stats.h"
#ifndef PMS_NO_HOST_LIBS
#include "symbol/dso.h"
#endif
#include "symbol/maps.h"
#include "util/cpulist.h"
#include "util/sysfs.h"

static const char **ev_strs;
static size_t nr_ev_strs;
static int opt_freq;
static uint64_t opt_period;
static bool opt_callchain, opt_all, opt_compress;
static const char *opt_mmap_pages, *opt_output, *opt_pid;
static double opt_duration;

static volatile sig_atomic_t stop_requests;
static volatile sig_atomic_t child_pid_for_signal;

static int add_event(const struct opt *o, const char *arg)
{
	(void)o;
	ev_strs = xrealloc(ev_strs, (nr_ev_strs + 1) * sizeof(*ev_strs));
	ev_strs[nr_ev_strs++] = arg;
	return 0;
}

static const struct opt opts[] = {
	OPT_CALLBACK('e', "event", "<events>", "event selector (default: cycles, else cpu-clock)", add_event),
	OPT_INT('F', "freq", &opt_freq, "<n>", "sample at n Hz (default 4000)"),
	OPT_U64('c', "count", &opt_period, "<n>", "sample every n events"),
	OPT_BOOL('g', NULL, &opt_callchain, "record call chains (frame pointers)"),
	OPT_STRING('m', "mmap-pages", &opt_mmap_pages, "<pages>", "ring size per CPU: pages or size (512K)"),
	OPT_STRING('o', "output", &opt_output, "<file>", "output file (default perf.data)"),
	OPT_BOOL('z', "compression", &opt_compress, "compress records with zstd"),
	OPT_DOUBLE(0, "duration", &opt_duration, "<s>", "stop after s seconds"),
	OPT_BOOL('a', "all-cpus", &opt_all, "system-wide collection from all CPUs"),
	OPT_STRING('p', "pid", &opt_pid, "<pid>", "record an existing process (all its threads)"),
	OPT_END(),
};

static void on_signal(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	stop_requests++;
	/* a terminal's ^C already reached the workload; forward only kill(2)s */
	if (child_pid_for_signal > 0) {
		if (stop_requests >= 3)
			kill(child_pid_for_signal, SIGKILL);
		else if (si && si->si_code == SI_USER)
			kill(child_pid_for_signal, sig);
	}
}

static void install_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_signal;
	sa.sa_flags = SA_SIGINFO; /* no SA_RESTART: poll() must wake up */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* ------------------------------------------------------------ workload -- */

struct workload {
	pid_t pid;
	int go_fd, err_fd;
	bool exited;
	int status;
};

static int workload_fork(struct workload *w, char **argv)
{
	sigset_t set, old;
	int go[2], er[2];

	memset(w, 0, sizeof(*w));
	if (pipe2(go, O_CLOEXEC) || pipe2(er, O_CLOEXEC))
		return error("cannot create a pipe: %s", strerror(errno));
	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	sigprocmask(SIG_BLOCK, &set, &old);
	w->pid = fork();
	if (w->pid < 0) {
		sigprocmask(SIG_SETMASK, &old, NULL);
		return error("cannot fork: %s", strerror(errno));
	}
	if (w->pid == 0) {
		char c;
		ssize_t n;
		int e;

		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGHUP, SIG_DFL);
		sigprocmask(SIG_SETMASK, &old, NULL);
		close(go[1]);
		close(er[0]);
		do
			n = read(go[0], &c, 1);
		while (n < 0 && errno == EINTR);
		if (n != 1)
			_exit(EXIT_NOTFOUND);
		execvp(argv[0], argv);
		e = errno;
		if (write(er[1], &e, sizeof(e)) < 0)
			_exit(EXIT_NOEXEC);
		_exit(e == ENOENT ? EXIT_NOTFOUND : EXIT_NOEXEC);
	}
	close(go[0]);
	close(er[1]);
	w->go_fd = go[1];
	w->err_fd = er[0];
	child_pid_for_signal = w->pid;
	sigprocmask(SIG_SETMASK, &old, NULL);
	return 0;
}

static void workload_reap(struct workload *w, bool block)
{
	int st;
	pid_t r;

	if (w->exited || w->pid <= 0)
		return;
	do
		r = waitpid(w->pid, &st, block ? 0 : WNOHANG);
	while (r < 0 && errno == EINTR && block);
	if (r == w->pid) {
		w->exited = true;
		w->status = st;
		child_pid_for_signal = 0;
	}
}

static void workload_abort(struct workload *w)
{
	if (w->pid <= 0)
		return;
	if (w->go_fd >= 0)
		close(w->go_fd);
	kill(w->pid, SIGKILL);
	workload_reap(w, true);
	if (w->err_fd >= 0)
		close(w->err_fd);
}

/* 0 once the child exec'ed, else its exec errno. */
static int workload_start(struct workload *w)
{
	ssize_t n;
	int e = 0;

	signal(SIGPIPE, SIG_IGN);
	if (write(w->go_fd, "g", 1) != 1)
		e = 0; /* the child died: its exec errno or EOF tells */
	close(w->go_fd);
	w->go_fd = -1;
	do
		n = read(w->err_fd, &e, sizeof(e));
	while (n < 0 && errno == EINTR);
	close(w->err_fd);
	w->err_fd = -1;
	if (n == (ssize_t)sizeof(e))
		return e ? e : ENOEXEC;
	return 0;
}

static int exit_code_of(int status)
{
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return EXIT_RUNTIME;
}

/* ----------------------------------------------------------- recording -- */

struct rec_ring {
	int cpu;
	struct pms_mmap map;
	struct pms_ring ring;
};

/* An executable file mapping seen in an MMAP2 record, for BUILD_ID. */
struct seen_map {
	uint32_t pid;
	char *path;
};

struct rec {
	struct pms_evlist list;
	struct pms_data_writer *w;
	struct rec_ring *rings;
	size_t nr_rings;
	int *fds;
	size_t nr_fds;
	struct pms_decode_cfg cfg;
	struct pms_ring_stats st;
	struct seen_map *maps;
	size_t nr_maps, cap_maps;
	uint32_t *sample_pids;
	size_t nr_sample_pids, cap_sample_pids;
	int write_err;
};

static void note_sample_pid(struct rec *r, uint32_t pid)
{
	for (size_t i = 0; i < r->nr_sample_pids; i++)
		if (r->sample_pids[i] == pid)
			return;
	if (r->nr_sample_pids == r->cap_sample_pids) {
		r->cap_sample_pids = r->cap_sample_pids ? 2 * r->cap_sample_pids : 16;
		r->sample_pids = xrealloc(r->sample_pids, r->cap_sample_pids * sizeof(*r->sample_pids));
	}
	r->sample_pids[r->nr_sample_pids++] = pid;
}

static void note_map(struct rec *r, uint32_t pid, const char *path)
{
	if (!path || path[0] != '/')
		return;
	for (size_t i = 0; i < r->nr_maps; i++)
		if (r->maps[i].pid == pid && !strcmp(r->maps[i].path, path))
			return;
	if (r->nr_maps == r->cap_maps) {
		r->cap_maps = r->cap_maps ? 2 * r->cap_maps : 32;
		r->maps = xrealloc(r->maps, r->cap_maps * sizeof(*r->maps));
	}
	r->maps[r->nr_maps].pid = pid;
	r->maps[r->nr_maps++].path = xstrdup(path);
}

static int on_record(const struct perf_event_header *h, void *arg)
{
	struct rec *r = arg;
	struct pms_record dec;
	size_t off;
	int err;

	if (pms_record__decode(&r->cfg, h, h->size, &dec, &off) == 0) {
		pms_ring_stats__account(&r->st, &dec);
		if (dec.type == PERF_RECORD_SAMPLE)
			note_sample_pid(r, dec.sample.pid);
		else if (dec.type == PERF_RECORD_MMAP2 && (dec.mmap.prot & 4 /* PROT_EXEC */))
			note_map(r, dec.mmap.pid, dec.mmap.filename);
	}
	err = pms_data_writer__write(r->w, h, h->size);
	if (err && !r->write_err)
		r->write_err = err;
	return 0;
}

static void drain_all(struct rec *r)
{
	for (size_t i = 0; i < r->nr_rings; i++)
		pms_ring__drain(&r->rings[i].ring, on_record, r);
	pms_data_writer__flush(r->w);
}

/* COMM + MMAP2 records of the existing process pid (its threads' comms too). */
static void synthesize_process(struct rec *r, pid_t pid)
{
	char path[PATH_MAX], comm[64];
	struct pms_maps *maps;
	DIR *d;
	struct dirent *de;
	FILE *f;

	if (pms_procfs__path(path, sizeof(path), "%d/task", (int)pid) < 0 || !(d = opendir(path)))
		return;
	while ((de = readdir(d))) {
		long tid = strtol(de->d_name, NULL, 10);

		if (tid <= 0)
			continue;
		if (pms_procfs__path(path, sizeof(path), "%d/task/%ld/comm", (int)pid, tid) < 0 ||
		    !(f = fopen(path, "r")))
			continue;
		if (fgets(comm, sizeof(comm), f)) {
			comm[strcspn(comm, "\n")] = 0;
			pms_data_writer__comm(r->w, (uint32_t)pid, (uint32_t)tid, comm, false, NULL);
		}
		fclose(f);
	}
	closedir(d);
	if (pms_maps__read_pid(pid, &maps))
		return;
	for (size_t i = 0; i < maps->nr; i++) {
		const struct pms_map *m = &maps->maps[i];
		struct pms_data_mmap2 mm;

		if (!pms_map__is_exec(m) || m->anon)
			continue;
		memset(&mm, 0, sizeof(mm));
		mm.pid = mm.tid = (uint32_t)pid;
		mm.addr = m->start;
		mm.len = m->end - m->start;
		mm.pgoff = m->pgoff;
		mm.maj = m->dev_major;
		mm.min = m->dev_minor;
		mm.ino = m->inode;
		mm.prot = 4 | (m->prot[0] == 'r' ? 1 : 0);
		mm.flags = m->prot[3] == 's' ? 1 : 2; /* MAP_SHARED : MAP_PRIVATE */
		mm.cpumode = PERF_RECORD_MISC_USER;
		mm.filename = m->path;
		pms_data_writer__mmap2(r->w, &mm, NULL);
		note_map(r, (uint32_t)pid, m->path);
	}
	pms_maps__free(maps);
}

/*
 * The kernel map perf report needs to attribute kernel samples: one MMAP of
 * [kernel.kallsyms]_text from _text to the top of the address space. Skipped
 * when kallsyms hides addresses (kptr_restrict): a zero address helps nobody.
 */
static void synthesize_kernel(struct rec *r)
{
	char path[PATH_MAX], line[512];
	uint64_t text = 0;
	FILE *f;

	if (pms_procfs__path(path, sizeof(path), "%s", "kallsyms") < 0 || !(f = fopen(path, "r")))
		return;
	while (fgets(line, sizeof(line), f)) {
		char *end;
		uint64_t addr = strtoull(line, &end, 16);

		if (end != line && !strcmp(end, " T _text\n")) {
			text = addr;
			break;
		}
	}
	fclose(f);
	if (text)
		pms_data_writer__mmap(r->w, (uint32_t)-1, 0, text, ~0ULL - text, text,
				      PERF_RECORD_MISC_KERNEL, "[kernel.kallsyms]_text", NULL);
}

static void synthesize_all(struct rec *r)
{
	char path[PATH_MAX];
	DIR *d;
	struct dirent *de;

	if (pms_procfs__path(path, sizeof(path), "%s", "") < 0 || !(d = opendir(path)))
		return;
	while ((de = readdir(d))) {
		long pid = strtol(de->d_name, NULL, 10);

		if (pid > 0 && pid != getpid())
			synthesize_process(r, (pid_t)pid);
	}
	closedir(d);
}

/*
 * The static arm64 build has no libelf: its files carry no build-ids, which
 * only costs the rebuilt-binary check when they are reported on the host.
 */
static void add_build_ids(struct rec *r)
{
#ifdef PMS_NO_HOST_LIBS
	(void)r;
#else
	struct pms_data_features *f = pms_data_writer__features(r->w);

	for (size_t i = 0; i < r->nr_maps; i++) {
		struct pms_dso *dso;
		bool sampled = false, dup = false;

		for (size_t k = 0; k < r->nr_sample_pids && !sampled; k++)
			sampled = r->sample_pids[k] == r->maps[i].pid;
		for (size_t k = 0; k < i && !dup; k++)
			dup = !strcmp(r->maps[k].path, r->maps[i].path);
		if (!sampled || dup || pms_dso__open(r->maps[i].path, &dso))
			continue;
		if (dso->build_id_size)
			pms_data_features__add_build_id(f, r->maps[i].path, dso->build_id,
							dso->build_id_size, -1, PERF_RECORD_MISC_USER);
		pms_dso__free(dso);
	}
#endif
}

static int list_threads(pid_t pid, pid_t **out, size_t *nr)
{
	char path[PATH_MAX];
	DIR *d;
	struct dirent *de;

	*nr = 0;
	*out = NULL;
	if (pms_procfs__path(path, sizeof(path), "%d/task", (int)pid) < 0 || !(d = opendir(path)))
		return -ESRCH;
	while ((de = readdir(d))) {
		long tid = strtol(de->d_name, NULL, 10);

		if (tid <= 0)
			continue;
		*out = xrealloc(*out, (*nr + 1) * sizeof(**out));
		(*out)[(*nr)++] = (pid_t)tid;
	}
	closedir(d);
	return *nr ? 0 : -ESRCH;
}

/* Is the -p target still running? A zombie counts as gone: it runs no more. */
static bool process_alive(pid_t pid)
{
	char path[PATH_MAX], buf[256];
	const char *paren;
	ssize_t n;
	int fd;

	if (kill(pid, 0) && errno == ESRCH)
		return false;
	if (pms_procfs__path(path, sizeof(path), "%d/stat", (int)pid) < 0 ||
	    (fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return errno != ENOENT;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return true;
	buf[n] = 0;
	paren = strrchr(buf, ')');
	return !(paren && paren[1] == ' ' && (paren[2] == 'Z' || paren[2] == 'X'));
}

static void parse_events(struct rec *r)
{
	struct pms_event_ctx *ctx = pms_event_ctx__new();

	if (!ctx)
		die("cannot create the event context: %s", strerror(errno));
	for (size_t i = 0; i < nr_ev_strs; i++) {
		if (cli_parse_events(&r->list, ctx, ev_strs[i])) {
			pms_event_ctx__free(ctx);
			exit(EXIT_BAD_EVENT);
		}
	}
	if (!nr_ev_strs) {
		struct pms_evlist probe = { 0 };
		struct pms_parse_error pe;

		if (pms_evlist__parse(&probe, ctx, "cycles", &pe) == 0 && probe.nr == 1 &&
		    pms_event__probe(&probe.entries[0].attr) == 0) {
			r->list = probe;
		} else {
			pms_evlist__release(&probe);
			note("cycles is not available here; recording cpu-clock instead");
			if (pms_evlist__parse(&r->list, ctx, "cpu-clock", &pe))
				die("cannot parse cpu-clock");
		}
	}
	pms_event_ctx__free(ctx);
	if (!r->list.nr)
		usage_error(&cmd_record, "no events to record");
}

static void setup_attrs(struct rec *r, bool for_command)
{
	for (size_t i = 0; i < r->list.nr; i++) {
		struct pms_evsel *e = &r->list.entries[i];
		struct perf_event_attr *a = &e->attr;

		a->size = sizeof(*a);
		if (!e->period_set && !e->freq_set) {
			if (opt_period) {
				a->freq = 0;
				a->sample_period = opt_period;
			} else {
				a->freq = 1;
				a->sample_freq = (uint64_t)(opt_freq ? opt_freq : 4000);
			}
		}
		a->sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD;
		if (opt_callchain)
			a->sample_type |= PERF_SAMPLE_CALLCHAIN;
		if (opt_all)
			a->sample_type |= PERF_SAMPLE_CPU;
		if (r->list.nr > 1)
			a->sample_type |= PERF_SAMPLE_IDENTIFIER;
		a->read_format = r->list.nr > 1 ? PERF_FORMAT_ID : 0;
		a->sample_id_all = 1;
		a->disabled = 1;
		a->inherit = !opt_all;
		a->enable_on_exec = for_command;
		if (i == 0) {
			a->mmap = a->comm = a->task = a->mmap2 = a->comm_exec = 1;
			a->mmap_data = 0;
		}
	}
	pms_decode_cfg__from_attr(&r->cfg, &r->list.entries[0].attr);
}

static void print_summary(struct rec *r, const char *path)
{
	double mb = (double)pms_data_writer__data_bytes(r->w) / (1024.0 * 1024.0);
	struct stat sb;

	if (stat(path, &sb) == 0)
		mb = (double)sb.st_size / (1024.0 * 1024.0);
	if (r->st.nr_lost_events || r->st.nr_lost_samples) {
		fprintf(stderr, "pmuscope: warning: lost %llu events (%.1f%% of samples); "
			"raise -m, lower -F, or check kernel.perf_event_max_sample_rate\n",
			(unsigned long long)(r->st.nr_lost_events + r->st.nr_lost_samples),
			pms_ring_stats__lost_pct(&r->st));
	}
	if (r->st.nr_throttle)
		fprintf(stderr, "pmuscope: note: %llu throttle / %llu unthrottle events\n",
			(unsigned long long)r->st.nr_throttle, (unsigned long long)r->st.nr_unthrottle);
	fprintf(stderr, "[ pmuscope record: Captured and wrote %.3f MB %s (%llu samples) ]\n", mb, path,
		(unsigned long long)r->st.nr_samples);
}

static int run(int argc, char **argv)
{
	struct rec r;
	struct workload wl = { .pid = -1 };
	struct pms_cpulist cpus = { 0 };
	const char *path;
	char **cmd_argv = NULL;
	pid_t *tids = NULL, target_pid = -1;
	size_t nr_tids = 0;
	unsigned pages;
	int first, err, ret = 0;
	struct pollfd *pfds;
	uint64_t deadline = 0;

	first = opt_parse(&cmd_record, &argc, argv, OPT_STOP_AT_NON_OPTION);
	if (first < argc)
		cmd_argv = argv + first;
	if ((cmd_argv != NULL) + opt_all + (opt_pid != NULL) != 1)
		usage_error(&cmd_record, "give exactly one target: a command, -a or -p <pid>");
	if (opt_freq < 0 || (opt_freq && opt_period))
		usage_error(&cmd_record, "-F and -c are exclusive, and -F must be positive");
	if (opt_duration < 0)
		usage_error(&cmd_record, "--duration must not be negative");
	if (opt_pid) {
		char *end;
		long v;

		errno = 0;
		v = strtol(opt_pid, &end, 10);
		if (errno || *end || v <= 0)
			usage_error(&cmd_record, "bad pid '%s'", opt_pid);
		target_pid = (pid_t)v;
		if (list_threads(target_pid, &tids, &nr_tids))
			return error("no such process: %d", (int)target_pid), EXIT_RUNTIME;
	}
	if (opt_mmap_pages) {
		bool rounded;

		if (pms_mmap__parse_pages(opt_mmap_pages, &pages, &rounded))
			usage_error(&cmd_record, "bad -m value '%s'", opt_mmap_pages);
		if (rounded)
			warning("rounding mmap pages size to %u pages", pages);
	} else {
		pms_mmap__default_pages(&pages);
	}
	path = opt_output ? opt_output : "perf.data";

	memset(&r, 0, sizeof(r));
	parse_events(&r);
	setup_attrs(&r, cmd_argv != NULL);
	if (pms_cpulist__online(&cpus) || !cpus.nr)
		die("cannot read the online CPUs");

	{
		struct pms_data_writer_opts wo = { .sz = sizeof(wo), .compress_level = opt_compress ? 1 : 0 };

		err = pms_data_writer__open(&r.w, path, &wo);
		if (err) {
			if (err == -EOPNOTSUPP)
				return error("-z: this build has no zstd support"), EXIT_RUNTIME;
			return error("cannot create %s: %s", path, strerror(-err)), EXIT_RUNTIME;
		}
	}
	if (cmd_argv && workload_fork(&wl, cmd_argv)) {
		pms_data_writer__free(r.w);
		return EXIT_RUNTIME;
	}

	/* open: per CPU, per event, per thread (-p) or pid target */
	{
		size_t nthr = opt_pid ? nr_tids : 1;
		size_t maxfds = cpus.nr * r.list.nr * nthr;
		uint64_t **ids = xcalloc(r.list.nr, sizeof(*ids));
		size_t *nids = xcalloc(r.list.nr, sizeof(*nids));

		r.fds = xcalloc(maxfds, sizeof(*r.fds));
		r.rings = xcalloc(cpus.nr, sizeof(*r.rings));
		for (size_t c = 0; c < cpus.nr; c++) {
			int ring_fd = -1;

			for (size_t e = 0; e < r.list.nr; e++) {
				ids[e] = xrealloc(ids[e], (nids[e] + nthr) * sizeof(**ids));
				for (size_t t = 0; t < nthr; t++) {
					pid_t pid = opt_all ? -1 : opt_pid ? tids[t] : wl.pid;
					int fd = pms_sys__perf_event_open(&r.list.entries[e].attr, pid,
									  cpus.cpus[c], -1, 0);

					if (fd < 0) {
						if (opt_pid && fd == -ESRCH)
							continue; /* thread exited meanwhile */
						error("cannot open event '%s' on CPU %d: %s",
						      r.list.entries[e].name, cpus.cpus[c],
						      pms_event__open_error_reason(&r.list.entries[e].attr, fd));
						ret = EXIT_RUNTIME;
						goto out_open;
					}
					r.fds[r.nr_fds++] = fd;
					pms_perf_fd__id(fd, &ids[e][nids[e]++]);
					if (ring_fd < 0) {
						struct rec_ring *rr = &r.rings[r.nr_rings];
						char buf[512];

						err = pms_mmap__map(&rr->map, fd, pages);
						if (err) {
							error("cannot map the ring: %s",
							      pms_mmap__error_reason(err, pages, buf, sizeof(buf)));
							ret = EXIT_RUNTIME;
							goto out_open;
						}
						if (pms_ring__init_mmap(&rr->ring, &rr->map))
							die("out of memory");
						rr->cpu = cpus.cpus[c];
						r.nr_rings++;
						ring_fd = fd;
					} else if ((err = pms_mmap__set_output(fd, ring_fd))) {
						error("cannot redirect the ring: %s", strerror(-err));
						ret = EXIT_RUNTIME;
						goto out_open;
					}
				}
			}
		}
		for (size_t e = 0; e < r.list.nr; e++)
			pms_data_writer__add_attr(r.w, &r.list.entries[e].attr, r.list.entries[e].name,
						  ids[e], nids[e]);
out_open:
		for (size_t e = 0; e < r.list.nr; e++)
			free(ids[e]);
		free(ids);
		free(nids);
	}
	if (ret)
		goto out;

	pms_data_features__from_host(pms_data_writer__features(r.w), argc, argv);
	synthesize_kernel(&r);
	if (opt_pid)
		synthesize_process(&r, target_pid);
	else if (opt_all)
		synthesize_all(&r);
	pms_data_writer__flush(r.w);

	install_signals();
	if (!cmd_argv)
		for (size_t i = 0; i < r.nr_fds; i++)
			pms_perf_fd__enable(r.fds[i]);
	if (cmd_argv) {
		err = workload_start(&wl);
		if (err) {
			error("cannot run '%s': %s", cmd_argv[0], strerror(err));
			workload_reap(&wl, true);
			ret = err == ENOENT ? EXIT_NOTFOUND : EXIT_NOEXEC;
			goto out;
		}
	}
	if (opt_duration > 0)
		deadline = now_ns() + (uint64_t)(opt_duration * 1e9);

	pfds = xcalloc(r.nr_rings, sizeof(*pfds));
	for (size_t i = 0; i < r.nr_rings; i++) {
		pfds[i].fd = r.rings[i].map.fd;
		pfds[i].events = POLLIN;
	}
	for (;;) {
		int timeout = 100;

		if (stop_requests && !cmd_argv)
			break;
		if (opt_pid && !process_alive(target_pid))
			break;
		if (cmd_argv) {
			workload_reap(&wl, false);
			if (wl.exited)
				break;
		}
		if (deadline) {
			uint64_t now = now_ns();

			if (now >= deadline) {
				if (cmd_argv && !wl.exited)
					kill(wl.pid, SIGTERM);
				break;
			}
			if ((deadline - now) / 1000000 < (uint64_t)timeout)
				timeout = (int)((deadline - now) / 1000000) + 1;
		}
		poll(pfds, r.nr_rings, timeout);
		drain_all(&r);
	}
	free(pfds);
	for (size_t i = 0; i < r.nr_fds; i++)
		pms_perf_fd__disable(r.fds[i]);
	if (cmd_argv) {
		workload_reap(&wl, true);
		ret = exit_code_of(wl.status);
	}
	drain_all(&r);
	add_build_ids(&r);
	err = pms_data_writer__close(r.w);
	if (err || r.write_err) {
		error("cannot write %s: %s", path, strerror(-(err ? err : r.write_err)));
		ret = EXIT_RUNTIME;
	} else {
		print_summary(&r, path);
	}
out:
	if (cmd_argv && !wl.exited && wl.pid > 0 && ret)
		workload_abort(&wl);
	for (size_t i = 0; i < r.nr_rings; i++) {
		pms_ring__exit(&r.rings[i].ring);
		pms_mmap__unmap(&r.rings[i].map);
	}
	for (size_t i = 0; i < r.nr_fds; i++)
		close(r.fds[i]);
	free(r.fds);
	free(r.rings);
	for (size_t i = 0; i < r.nr_maps; i++)
		free(r.maps[i].path);
	free(r.maps);
	free(r.sample_pids);
	free(tids);
	pms_ring_stats__exit(&r.st);
	pms_data_writer__free(r.w);
	pms_evlist__release(&r.list);
	pms_cpulist__release(&cpus);
	free(ev_strs);
	ev_strs = NULL;
	nr_ev_strs = 0;
	return ret;
}

const struct pms_cmd cmd_record = {
	.name = "record",
	.summary = "sample a command, processes or all CPUs into perf.data",
	.usage = "pmuscope record [<options>] [-a | -p <pid> | [--] <command> [<args>]]",
	.opts = opts,
	.run = run,
};
