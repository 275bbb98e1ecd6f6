// SPDX-License-Identifier: MIT
// pmuscope stat: count events for a command, processes, threads or CPUs (perf stat's model).
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <locale.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cmd.h"
#include "events.h"
#include "event/attr_print.h"
#include "event/event.h"
#include "perf_event/caps.h"
#include "perf_event/counter.h"
#include "stat_print.h"
#include "stop_signals.h"
#include "util/cgroup.h"
#include "util/clock.h"
#include "util/tasks.h"
#include "util/cpulist.h"
#include "util/fileio.h"
#include "util/strsim.h"
#include "util/sysfs.h"

#define DEFAULT_EVENTS \
	"task-clock,context-switches,cpu-migrations,page-faults,cycles,instructions,branches,branch-misses"

/* Every option of the command; reset_opts() gives the defaults (run() starts with it). */
static struct stat_opts {
	const char *pids, *tids, *cpus, *output, *sep, *pre, *post, *for_each_cgroup, *cputype;
	bool all, no_aggr, per_thread, no_inherit, no_scale, json, append, null_run, sync, quiet;
	bool all_user, all_kernel, interval_clear, big_num, summary, csv_summary, group;
	bool per_core, per_socket, per_die, per_node, metric_only, metric_no_group, metric_no_merge;
	bool topdown, transaction, smi_cost, no_merge, hybrid_merge, percore_show_thread, table;
	int repeat, interval, interval_count, timeout, verbose, detailed, delay_ms, log_fd, td_level;
	bool delay_set;
	struct opt_strings events, cgroups, metrics;
} o;

static volatile sig_atomic_t stop_requests;
static volatile sig_atomic_t last_signal;

static int opt_delay(const struct opt *opt, const char *arg)
{
	char *end;
	long v;

	(void)opt;
	errno = 0;
	v = strtol(arg, &end, 10);
	if (errno || *end || v < -1 || v > INT_MAX) {
		error("-D/--delay: '%s' is not a number of ms (or -1: start with the events disabled)", arg);
		return -1;
	}
	o.delay_ms = (int)v;
	o.delay_set = true;
	return 0;
}

static int opt_iostat(const struct opt *opt, const char *arg)
{
	(void)opt;
	(void)arg;
	error("--iostat is not supported here: perf's I/O metrics count the per-root-port PCIe counters of "
	      "Intel Xeon uncore IIO PMUs (uncore_iio_*), which pmuscope does not model; count them with -e "
	      "uncore_iio_<n>/<event>/ instead");
	exit(EXIT_USAGE);
}

static const struct opt opts[] = {
	OPT_GROUP("events"),
	OPT_STRINGS('e', "event", &o.events, "<events>", "events to count (repeatable; default: perf's set)"),
	OPT_COUNT('d', "detailed", &o.detailed, "add perf's detailed cache events (-dd, -ddd: more)"),
	OPT_STRINGS('M', "metrics", &o.metrics, "<metric,...>", "compute these metrics (IPC, CPI, ...; -M list)"),
	OPT_BOOL(0, "metric-only", &o.metric_only, "print only the computed metrics, no raw counts"),
	OPT_BOOL(0, "metric-no-group", &o.metric_no_group, "accepted: metric inputs are never grouped here"),
	OPT_BOOL(0, "metric-no-merge", &o.metric_no_merge, "accepted: metrics share their inputs"),
	OPT_BOOL(0, "topdown", &o.topdown, "Intel top-down level 1 (needs the PMU's topdown events)"),
	OPT_INT(0, "td-level", &o.td_level, "<n>", "top-down level, with --topdown"),
	OPT_BOOL('T', "transaction", &o.transaction, "Intel TSX transaction statistics (needs TSX events)"),
	OPT_BOOL(0, "smi-cost", &o.smi_cost, "SMI cost (needs msr/smi/ and the cpu PMU's freeze_on_smi)"),
	OPT_BOOL('g', "group", &o.group, "put all the events into one group"),
	OPT_BOOL('i', "no-inherit", &o.no_inherit, "do not count threads/children created later"),
	OPT_BOOL(0, "no-scale", &o.no_scale, "show raw counts, not scaled for multiplexing"),
	OPT_BOOL(0, "all-user", &o.all_user, "count every event in user space only"),
	OPT_BOOL(0, "all-kernel", &o.all_kernel, "count every event in kernel space only"),
	OPT_BOOL('n', "null", &o.null_run, "null run: open no counter, show the elapsed time only"),
	OPT_STRING(0, "cputype", &o.cputype, "<type>", "hybrid CPUs: count on this core type only"),
	OPT_BOOL(0, "no-merge", &o.no_merge, "accepted: events are never merged here"),
	OPT_BOOL(0, "hybrid-merge", &o.hybrid_merge, "accepted: no hybrid merging here"),
	OPT_GROUP("target (default: the command)"),
	OPT_STRING('p', "pid", &o.pids, "<pid,...>", "count existing processes (all their threads)"),
	OPT_STRING('t', "tid", &o.tids, "<tid,...>", "count existing threads"),
	OPT_BOOL('a', "all-cpus", &o.all, "system-wide, on every online CPU"),
	OPT_STRING('C', "cpu", &o.cpus, "<cpulist>", "system-wide on these CPUs (\"0-3,8\")"),
	OPT_STRINGS('G', "cgroup", &o.cgroups, "<name,...>", "count only tasks in these cgroups (with -a/-C)"),
	OPT_STRING(0, "for-each-cgroup", &o.for_each_cgroup, "<name,...>", "every event in each of these cgroups"),
	OPT_GROUP("aggregation and repetition"),
	OPT_BOOL('A', "no-aggr", &o.no_aggr, "one line per CPU (with -a/-C)"),
	OPT_BOOL(0, "per-thread", &o.per_thread, "one line per thread (with -p, -t, -a or a command)"),
	OPT_BOOL(0, "per-core", &o.per_core, "one line per core (with -a/-C)"),
	OPT_BOOL(0, "per-die", &o.per_die, "one line per die (with -a/-C)"),
	OPT_BOOL(0, "per-socket", &o.per_socket, "one line per socket (with -a/-C)"),
	OPT_BOOL(0, "per-node", &o.per_node, "one line per NUMA node (with -a/-C)"),
	OPT_BOOL(0, "percore-show-thread", &o.percore_show_thread, "with the percore event term (not supported)"),
	OPT_INT('r', "repeat", &o.repeat, "<n>", "run the command n times; show means and +- stddev"),
	OPT_BOOL(0, "table", &o.table, "with -r: show each run's elapsed time"),
	OPT_INT('I', "interval-print", &o.interval, "<ms>", "print deltas every ms milliseconds (>= 10)"),
	OPT_INT(0, "interval-count", &o.interval_count, "<n>", "stop after n intervals"),
	OPT_BOOL(0, "interval-clear", &o.interval_clear, "clear the screen before each interval"),
	OPT_BOOL(0, "summary", &o.summary, "with -I: also print the totals at the end"),
	OPT_BOOL(0, "csv-summary", &o.csv_summary, "with --summary -x: 'summary' in the first column"),
	OPT_INT(0, "timeout", &o.timeout, "<ms>", "stop (and SIGTERM the command) after ms milliseconds"),
	OPT_CALLBACK('D', "delay", "<ms>", "start counting ms after the command starts", opt_delay),
	OPT_BOOL('S', "sync", &o.sync, "call sync() before each run"),
	OPT_STRING(0, "pre", &o.pre, "<command>", "shell command to run before each run"),
	OPT_STRING(0, "post", &o.post, "<command>", "shell command to run after each run"),
	OPT_CALLBACK_OPTARG(0, "iostat", "<default>", "Intel Xeon IIO metrics (not supported)", opt_iostat),
	OPT_REFUSED(0, "control", "<fd:ctl-fd[,ack-fd]|fifo:ctl-fifo[,ack-fifo]>",
		    "not implemented yet: enable/disable through a control fd or fifo"),
	OPT_REFUSED(0, "filter", "<filter>", "not implemented yet for stat: tracepoint filters of the preceding -e"),
	OPT_GROUP("output (default: stderr, like perf)"),
	OPT_STRING('o', "output", &o.output, "<file>", "write the counts to file"),
	OPT_BOOL(0, "append", &o.append, "append to the -o file"),
	OPT_INT(0, "log-fd", &o.log_fd, "<fd>", "write the counts to this open file descriptor"),
	OPT_STRING('x', "field-separator", &o.sep, "<sep>", "CSV with this separator (columns: man pmuscope-stat)"),
	OPT_BOOL('j', "json", &o.json, "one JSON document (JSON Lines with -I)"),
	OPT_BOOL(0, "json-output", &o.json, "the same as --json (perf's spelling)"),
	OPT_BOOL('B', "big-num", &o.big_num, "thousands separators of the locale (default; --no-big-num)"),
	OPT_BOOL(0, "quiet", &o.quiet, "print no counts (the exit status still says how the command ended)"),
	OPT_COUNT('v', "verbose", &o.verbose, "-v: raw counts; -vv: every perf_event_attr opened"),
	OPT_END(),
};

/* Frees what the options own and puts every one back to its default. */
static void reset_opts(void)
{
	opt_strings__release(&o.events);
	opt_strings__release(&o.cgroups);
	opt_strings__release(&o.metrics);
	o = (struct stat_opts){ .repeat = 1, .big_num = true, .csv_summary = true, .log_fd = -1 };
}

/* ---------------------------------------------------------------- time -- */

/* ------------------------------------------------------------- signals -- */

static void on_signal(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	stop_requests++;
	last_signal = sig;
	stop_signals__forward(sig, si, stop_requests);
}


/* -------------------------------------------------------------- targets -- */

/* --------------------------------------------------------------- -vv -- */

static void print_open(void *arg, const struct perf_event_attr *attr, pid_t pid, int cpu, int group_fd,
		       unsigned long flags, int ret)
{
	static const char dashes[] = "------------------------------------------------------------";
	struct strbuf sb = STRBUF_INIT;

	(void)arg;
	pms_attr__format(attr, &sb);
	fflush(stdout);
	fprintf(stderr, "%s\n%s%s\n", dashes, strbuf_str(&sb), dashes);
	fprintf(stderr, "sys_perf_event_open: pid %d  cpu %d  group_fd %d  flags %#lx", (int)pid, cpu, group_fd,
		flags);
	if (ret < 0)
		fprintf(stderr, "\nsys_perf_event_open failed, error %d\n", ret);
	else
		fprintf(stderr, " = %d\n", ret);
	strbuf_release(&sb);
}

/* -v: perf's raw "name: cpu: val ena run" lines. */
static void print_raw(const struct pms_counters *cs)
{
	for (size_t i = 0; i < cs->nr; i++) {
		const struct pms_counter *c = &cs->c[i];

		for (size_t ci = 0; ci < cs->nr_cpus && c->state == PMS_COUNTER_OK; ci++) {
			struct pms_count s = pms_counter__sum(c, cs, (int)ci, -1, false);

			fprintf(stderr, "%s: %d: %llu %llu %llu\n", c->name, cs->cpus[ci], (unsigned long long)s.val,
				(unsigned long long)s.ena, (unsigned long long)s.run);
		}
	}
	for (size_t i = 0; i < cs->nr; i++) {
		const struct pms_counter *c = &cs->c[i];
		struct pms_count t = pms_counter__sum(c, cs, -1, -1, false);

		if (c->state == PMS_COUNTER_OK)
			fprintf(stderr, "%s: %llu %llu %llu\n", c->name, (unsigned long long)t.val,
				(unsigned long long)t.ena, (unsigned long long)t.run);
	}
}

/* ------------------------------------------------------------- running -- */

struct stat_ctx {
	struct stat_cfg cfg;
	struct stat_out out;
	struct pms_evlist list;
	struct pms_aggr_map amap;  /* --per-socket/die/core/node */
	char **cg_names;           /* -G / --for-each-cgroup names in order ("" for none) */
	size_t nr_cg_names;
	const char **cgroup_of;    /* per event: its cgroup's name, NULL for none */
	int *cg_fd_of;             /* per event: that cgroup's directory fd, -1 for none */
	int *cg_fds;               /* per name of cg_names: its fd, -1 for none */
	int *cpus;
	size_t nr_cpus;
	pid_t *tids;           /* -p (expanded) / -t */
	size_t nr_tids;
	pid_t *pids;           /* -p as given, to notice when they are gone */
	size_t nr_pids;
};

/* Owner of <procfs>/<tid>; false if it cannot be told. */
static bool owner_of(pid_t tid, uid_t *uid)
{
	char path[PATH_MAX];
	struct stat st;

	if (pms_procfs__path(path, sizeof(path), "%d", (int)tid) || stat(path, &st))
		return false;
	*uid = st.st_uid;
	return true;
}

static int report_open_error(const struct stat_ctx *x, const struct pms_counters *cs,
			     const struct pms_counter_error *e)
{
	const char *ev = cs->c[e->idx].name;

	switch (-e->err) {
	case EACCES:
	case EPERM: {
		struct pms_knobs k;
		bool cpu_wide = x->cfg.target == ST_SYSTEM || x->cfg.target == ST_CPUS;
		bool kernel_only = cs->c[e->idx].attr.exclude_user && !cs->c[e->idx].attr.exclude_kernel;
		uid_t owner;

		if (!cpu_wide && e->tid > 0 && owner_of(e->tid, &owner) && owner != geteuid()) {
			/* the kernel's ptrace access check, which no sysctl relaxes */
			error("no permission to count %s %d: it belongs to another user (uid %u), and counting "
			      "another user's process needs ptrace access",
			      x->cfg.target == ST_TID ? "thread" : "process", (int)e->tid, (unsigned)owner);
			hint("run as root or as that user, or grant CAP_SYS_PTRACE; "
			     "lowering kernel.perf_event_paranoid does not help here");
			return EXIT_RUNTIME;
		}
		pms_knobs__read(&k);
		error("no permission to count '%s'%s", ev, cpu_wide ? " system-wide" : "");
		if (k.paranoid != PMS_KNOB_ABSENT) {
			if (cpu_wide)
				note("kernel.perf_event_paranoid is %d: counting whole CPUs (-a/-C) needs it at 0 or "
				     "lower, or CAP_PERFMON",
				     k.paranoid);
			else if (kernel_only)
				note("kernel.perf_event_paranoid is %d: counting the kernel (a :k event) needs it at 1 "
				     "or lower, or CAP_PERFMON",
				     k.paranoid);
			else
				note("kernel.perf_event_paranoid is %d: even user-space counting of your own process "
				     "was refused (kernels patched like Debian's deny everything at 3 and above)",
				     k.paranoid);
		}
		hint("run as root, grant CAP_PERFMON (setcap cap_perfmon+ep), or lower it: "
		     "sysctl kernel.perf_event_paranoid=%d",
		     cpu_wide ? 0 : kernel_only ? 1 : 2);
		return EXIT_RUNTIME;
	}
	case EMFILE:
	case ENFILE: {
		struct rlimit rl;
		size_t need = 0;

		for (size_t i = 0; i < cs->nr; i++)
			need += cs->nr_cpus * cs->nr_threads;
		getrlimit(RLIMIT_NOFILE, &rl);
		error("too many open files: %zu events x %zu CPUs x %zu threads need %zu file descriptors, the limit "
		      "is %llu",
		      cs->nr, cs->nr_cpus, cs->nr_threads, need, (unsigned long long)rl.rlim_cur);
		hint("raise it with 'ulimit -n %zu' (or count fewer events/CPUs)", need + 64);
		return EXIT_RUNTIME;
	}
	case ESRCH:
		error("cannot count '%s': the target process or thread %d no longer exists", ev, (int)e->tid);
		return EXIT_RUNTIME;
	default:
		error("cannot open '%s' (cpu %d, pid %d): %s", ev, e->cpu, (int)e->tid, e->msg);
		return EXIT_RUNTIME;
	}
}

/* On EMFILE, perf raises the soft fd limit to the hard one once and retries. */
static bool raise_nofile(void)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) || rl.rlim_cur >= rl.rlim_max)
		return false;
	rl.rlim_cur = rl.rlim_max;
	return setrlimit(RLIMIT_NOFILE, &rl) == 0;
}

static bool targets_alive(const struct stat_ctx *x)
{
	const pid_t *ids = x->cfg.target == ST_PID ? x->pids : x->tids;
	size_t n = x->cfg.target == ST_PID ? x->nr_pids : x->nr_tids;

	if (x->cfg.target != ST_PID && x->cfg.target != ST_TID)
		return true;
	for (size_t i = 0; i < n; i++)
		if (pms_task__alive(ids[i], ids[i]))
			return true;
	return false;
}

static void free_comms(char **comms, size_t n)
{
	if (!comms)
		return;
	for (size_t i = 0; i < n; i++)
		free(comms[i]);
	free(comms);
}

/*
 * One measurement. Returns the exit code for this run (the workload's, or 0)
 * or a negative value on a failure already reported; *cs_out gets the
 * counters with their final reading.
 */
static int run_once(struct stat_ctx *x, struct pms_counters **cs_out, struct stat_run_info *ri)
{
	const struct stat_cfg *cfg = &x->cfg;
	struct pms_counter_opts copts = { 0 };
	struct pms_counter_error cerr;
	struct pms_workload w = { .pid = -1, .pidfd = -1, .go_fd = -1, .err_fd = -1 };
	struct pms_counters *cs;
	const pid_t *threads = x->tids;
	size_t nr_threads = x->nr_tids;
	uint64_t t0, t_end = 0, next_tick = 0, t_last;
	int intervals = 0, ret, rc = 0;
	bool stopped_by_us = false;
	bool retried = false;

	memset(ri, 0, sizeof(*ri));
	ri->exit_status = -1;
	if (cfg->argv && (ret = stop_signals__fork_workload(&w, cfg->argv, false))) {
		error("cannot start '%s': %s", cfg->argv[0], strerror(-ret));
		return -1;
	}
	if (cfg->argv && cfg->target == ST_COMMAND) {
		threads = &w.pid;
		nr_threads = 1;
	}
	copts.no_inherit = o.no_inherit;
	/* -D: the counters start disabled and stat enables them after the delay, as perf */
	copts.enable_on_exec = cfg->target == ST_COMMAND && !o.delay_set;
	if (verbose >= 2)
		copts.on_open = print_open;
	cs = pms_counters__new(&x->list, x->cpus, x->nr_cpus, threads, nr_threads, &copts);
	if (!cs) {
		stop_signals__abort_workload(&w);
		return error("cannot set up counters: %s", strerror(errno));
	}
	for (size_t i = 0; i < cs->nr && x->cg_fd_of; i++)
		cs->c[i].cgroup_fd = x->cg_fd_of[i];
again:
	ret = pms_counters__open(cs, &copts, &cerr);
	if ((ret == -EMFILE || ret == -ENFILE) && !retried && raise_nofile()) {
		retried = true;
		goto again;
	}
	if (ret == -ESRCH && cfg->target == ST_COMMAND) {
		/* the child died before its exec: a ^C to the group, or the OOM killer */
		stop_signals__abort_workload(&w);
		pms_counters__free(cs);
		if (stop_requests) {
			error("interrupted before '%s' started; nothing was counted", cfg->argv[0]);
			return -(128 + last_signal);
		}
		error("'%s' died before it started (%s); nothing was counted", cfg->argv[0],
		      WIFSIGNALED(w.status) ? strsignal(WTERMSIG(w.status)) : "exited");
		return -EXIT_RUNTIME;
	}
	if (ret) {
		int code = report_open_error(x, cs, &cerr);

		stop_signals__abort_workload(&w);
		pms_counters__free(cs);
		return -code;
	}
	if (cfg->aggr == AGGR_THREAD) {
		free_comms(x->out.comms, cs->nr_threads); /* -r: the previous run's */
		x->out.comms = xcalloc(cs->nr_threads, sizeof(char *));
		for (size_t t = 0; t < cs->nr_threads; t++)
			if (cs->threads[t] > 0 && !(cfg->argv && cfg->target == ST_COMMAND))
				x->out.comms[t] = pms_task__comm(cs->threads[t]);
	}
	t0 = pms_clock__monotonic_ns();
	if (o.delay_set)
		fprintf(stderr, "Events disabled\n");
	else if (cfg->target != ST_COMMAND)
		pms_counters__enable(cs);
	if (cfg->argv && stop_requests) {
		/* ^C before the command started: do not start it */
		stop_signals__abort_workload(&w);
		pms_counters__free(cs);
		free_comms(x->out.comms, nr_threads);
		x->out.comms = NULL;
		error("interrupted before '%s' started; nothing was counted", cfg->argv[0]);
		return -(128 + last_signal);
	}
	if (cfg->argv) {
		int e = pms_workload__start(&w);

		if (e) {
			stop_signals__reap_workload(&w, true);
			pms_workload__release(&w);
			pms_counters__free(cs);
			free_comms(x->out.comms, nr_threads);
			x->out.comms = NULL;
			error("cannot run '%s': %s", cfg->argv[0], strerror(-e));
			return -(e == -ENOENT ? EXIT_NOTFOUND : EXIT_NOEXEC);
		}
		if (o.delay_set && o.delay_ms > 0 && w.pidfd >= 0) {
			struct pollfd pfd = { .fd = w.pidfd, .events = POLLIN };

			poll(&pfd, 1, o.delay_ms); /* a workload that ends sooner ends the delay */
		}
		if (cfg->aggr == AGGR_THREAD && cfg->target == ST_COMMAND) {
			const char *b = strrchr(cfg->argv[0], '/');

			x->out.comms[0] = xstrdup(b ? b + 1 : cfg->argv[0]);
			if (strlen(x->out.comms[0]) > 15)
				x->out.comms[0][15] = '\0';
		}
	}
	if (o.delay_set && o.delay_ms > 0 && (!cfg->argv || w.pidfd < 0)) {
		struct timespec ts = { o.delay_ms / 1000, (long)(o.delay_ms % 1000) * 1000000L };

		while (nanosleep(&ts, &ts) && errno == EINTR && !stop_requests)
			;
	}
	if (o.delay_set && o.delay_ms >= 0) {
		pms_counters__enable(cs);
		fprintf(stderr, "Events enabled\n");
	}
	if (o.timeout > 0)
		t_end = t0 + (uint64_t)o.timeout * 1000000ULL;
	else if (!cfg->argv && !o.interval_count && isatty(STDERR_FILENO))
		note("counting %s; Ctrl-C to stop", cfg->target == ST_SYSTEM ? "every CPU" :
		     cfg->target == ST_CPUS ? "the CPUs of -C" : "the targets");
	if (cfg->interval_ms > 0)
		next_tick = t0 + (uint64_t)cfg->interval_ms * 1000000ULL;
	t_last = t0;
	for (;;) {
		uint64_t now = pms_clock__monotonic_ns(), wake = 0;
		int wait_ms = -1;
		bool stop = false;

		if (cfg->argv) {
			stop_signals__reap_workload(&w, false);
			if (w.exited)
				break;
		}
		if (stop_requests) {
			ri->interrupted = true;
			if (!cfg->argv)
				break;
			/* a workload: wait until it acts on the signal (the 3rd one kills it) */
		}
		if (next_tick && now >= next_tick) {
			double len;

			if (pms_counters__read(cs) == 0) {
				len = (double)(now - t_last);
				stat_print_interval(&x->out, cs, now - t0, len);
			}
			t_last = now;
			intervals++;
			next_tick += (uint64_t)cfg->interval_ms * 1000000ULL;
			if (next_tick <= now)
				next_tick = now + (uint64_t)cfg->interval_ms * 1000000ULL;
			if (o.interval_count && intervals >= o.interval_count)
				stop = true;
		}
		if (t_end && now >= t_end)
			stop = true;
		if (stop) {
			if (cfg->argv && !w.exited) {
				kill(w.pid, SIGTERM);
				stopped_by_us = true;
				stop_signals__reap_workload(&w, true);
			}
			break;
		}
		if (!cfg->argv && !targets_alive(x))
			break;
		if (next_tick)
			wake = next_tick;
		if (t_end && (!wake || t_end < wake))
			wake = t_end;
		if (wake)
			wait_ms = (int)((wake - now + 999999) / 1000000);
		if (cfg->argv && w.pidfd < 0 && (wait_ms < 0 || wait_ms > 5))
			wait_ms = 5; /* no pidfd: poll for the child */
		if (!cfg->argv && (cfg->target == ST_PID || cfg->target == ST_TID) && (wait_ms < 0 || wait_ms > 100))
			wait_ms = 100; /* notice when the targets are gone */
		if (cfg->argv && w.pidfd >= 0) {
			struct pollfd pfd = { .fd = w.pidfd, .events = POLLIN };

			poll(&pfd, 1, wait_ms);
		} else {
			poll(NULL, 0, wait_ms);
		}
	}
	if (cfg->argv)
		stop_signals__reap_workload(&w, true);
	if (stop_requests)
		ri->interrupted = true; /* also when the workload died of the same ^C first */
	ri->elapsed_ns = (double)(pms_clock__monotonic_ns() - t0);
	ret = pms_counters__read(cs);
	if (ret) {
		error("cannot read the counters: %s; no counts are shown", strerror(-ret));
		rc = -EXIT_RUNTIME;
	}
	pms_counters__disable(cs);
	if (cfg->interval_ms > 0 && rc == 0) {
		uint64_t now = pms_clock__monotonic_ns();

		/* the partial last interval, so no count is lost */
		if (!(o.interval_count && intervals >= o.interval_count))
			stat_print_interval(&x->out, cs, now - t0, (double)(now - t_last));
	}
	pms_workload__release(&w);
	if (cfg->argv) {
		ri->exit_status = pms_workload__exit_code(&w);
		if (ri->exit_status < 0)
			ri->exit_status = EXIT_RUNTIME;
		/* stopping it was what --timeout or --interval-count asked for: exit 0, as perf stat */
		if (stopped_by_us && ri->exit_status == 128 + SIGTERM) {
			if (o.json)
				; /* JSON Lines keep stderr quiet: the status says it */
			else if (o.timeout > 0 && t_end && !(o.interval_count && intervals >= o.interval_count))
				note("--timeout: stopped '%s' after %d ms, as asked", cfg->argv[0], o.timeout);
			else
				note("--interval-count: stopped '%s' after %d intervals, as asked", cfg->argv[0],
				     o.interval_count);
			ri->exit_status = 0;
		}
		ri->have_rusage = cfg->target == ST_COMMAND; /* perf shows user/sys for a plain workload only */
		ri->user_ns = (double)w.rusage.ru_utime.tv_sec * 1e9 + (double)w.rusage.ru_utime.tv_usec * 1e3;
		ri->sys_ns = (double)w.rusage.ru_stime.tv_sec * 1e9 + (double)w.rusage.ru_stime.tv_usec * 1e3;
		if (rc == 0)
			rc = ri->exit_status;
	}
	if (verbose >= 1)
		print_raw(cs);
	*cs_out = cs;
	return rc;
}

/* -r: add one run's reading of counter k in aggregation unit u. */
static void rstat_add(const struct stat_out *out, const struct pms_counters *cs, size_t k, size_t u,
		      const struct stat_run_info *ri, struct stat_rstat *e)
{
	const struct stat_cfg *cfg = out->cfg;
	const struct pms_counter *c = &cs->c[k];
	struct pms_count s;
	double v;

	if (c->state != PMS_COUNTER_OK)
		return;
	if (c->tool != PMS_TOOL_NONE) {
		v = stat_tool_value(ri, c->tool);
		if (v >= 0) {
			s.val = s.ena = s.run = (uint64_t)v;
			pms_count__add(&e->sum, &s);
			pms_stats__update(&e->st, v);
			e->nr_counted++;
		}
		return;
	}
	s = stat_unit_sum(out, cs, c, u, false);
	pms_count__add(&e->sum, &s);
	if (pms_count__scaled(&s, cfg->no_scale, &v)) {
		pms_stats__update(&e->st, v);
		e->nr_counted++;
	}
}

/* ------------------------------------------------------------ set-up -- */

/* perf 6.1's -d, -dd, -ddd sets, each added to the previous ones (after the default or -e events). */
static const char *const detailed_sets[] = {
	"L1-dcache-loads,L1-dcache-load-misses,LLC-loads,LLC-load-misses",
	"L1-icache-loads,L1-icache-load-misses,dTLB-loads,dTLB-load-misses,iTLB-loads,iTLB-load-misses",
	"L1-dcache-prefetches,L1-dcache-prefetch-misses",
};

/* Split comma lists of -G / --for-each-cgroup into x->cg_names, empty names kept (perf's "-G a,,b"). */
static void split_cgroup_names(struct stat_ctx *x, const char *const *v, size_t nr)
{
	for (size_t i = 0; i < nr; i++) {
		const char *p = v[i];

		for (;;) {
			const char *comma = strchr(p, ',');
			size_t len = comma ? (size_t)(comma - p) : strlen(p);

			x->cg_names = xrealloc(x->cg_names, (x->nr_cg_names + 1) * sizeof(*x->cg_names));
			x->cg_names[x->nr_cg_names] = xcalloc(1, len + 1);
			memcpy(x->cg_names[x->nr_cg_names++], p, len);
			if (!comma)
				break;
			p = comma + 1;
		}
	}
}

/*
 * --for-each-cgroup: the events once per cgroup (the list parsed so far
 * is the first copy); then every event's cgroup as perf assigns them: -G
 * with one name applies to all events, with several the n-th name to the
 * n-th event.
 */
static void per_cgroup_copies(struct stat_ctx *x, struct pms_event_ctx *ctx)
{
	size_t per_copy = x->list.nr;

	if (o.for_each_cgroup) {
		const char *one = o.for_each_cgroup;

		split_cgroup_names(x, &one, 1);
		for (size_t g = 1; g < x->nr_cg_names; g++) {
			for (size_t i = 0; i < per_copy; i++) {
				struct pms_evsel *e = &x->list.entries[i];
				const char *str = e->name;

				/* a copy of event i: its group structure is re-made below from the first copy's */
				if (cli_parse_events(&x->list, ctx, str)) {
					pms_event_ctx__free(ctx);
					exit(EXIT_BAD_EVENT);
				}
				x->list.entries[x->list.nr - 1].attr = x->list.entries[i].attr;
				x->list.entries[x->list.nr - 1].leader_idx =
					x->list.entries[i].leader_idx + (int)(g * per_copy);
				x->list.entries[x->list.nr - 1].nr_members = x->list.entries[i].nr_members;
				x->list.entries[x->list.nr - 1].weak_group = x->list.entries[i].weak_group;
			}
		}
	} else if (o.cgroups.nr) {
		split_cgroup_names(x, o.cgroups.v, o.cgroups.nr);
		if (x->nr_cg_names > per_copy)
			usage_error(&cmd_stat, "-G names %zu cgroups for %zu event%s: the n-th cgroup goes to the n-th "
				    "event (one name: every event)", x->nr_cg_names, per_copy, per_copy == 1 ? "" : "s");
	}
	if (!x->nr_cg_names)
		return;
	x->cg_fds = xcalloc(x->nr_cg_names, sizeof(*x->cg_fds));
	for (size_t g = 0; g < x->nr_cg_names; g++) {
		char path[PATH_MAX];

		x->cg_fds[g] = -1;
		if (!x->cg_names[g][0])
			continue; /* "-G a,,b": the 2nd event counts every task */
		x->cg_fds[g] = pms_cgroup__open(x->cg_names[g], path, sizeof(path));
		if (x->cg_fds[g] < 0) {
			if (!path[0])
				error("cgroup '%s': no cgroup v2 hierarchy is mounted (looked at /sys/fs/cgroup and "
				      "/sys/fs/cgroup/unified)", x->cg_names[g]);
			else
				error("cgroup '%s': cannot open '%s': %s", x->cg_names[g], path, strerror(-x->cg_fds[g]));
			exit(EXIT_RUNTIME);
		}
		x->cg_fds[g] = pms_fd__move_high(x->cg_fds[g]);
	}
	x->cgroup_of = xcalloc(x->list.nr, sizeof(*x->cgroup_of));
	x->cg_fd_of = xcalloc(x->list.nr, sizeof(*x->cg_fd_of));
	for (size_t i = 0; i < x->list.nr; i++) {
		size_t g = o.for_each_cgroup ? i / per_copy : x->nr_cg_names == 1 ? 0 : i;

		x->cg_fd_of[i] = g < x->nr_cg_names ? x->cg_fds[g] : -1;
		x->cgroup_of[i] = g < x->nr_cg_names && x->cg_names[g][0] ? x->cg_names[g] : NULL;
	}
	x->out.cgroup_of = x->cgroup_of;
}

/* -g: every event in one group led by the first, as perf's evlist__set_leader(). */
static void group_all(struct pms_evlist *l)
{
	for (size_t i = 0; i < l->nr; i++) {
		l->entries[i].leader_idx = 0;
		l->entries[i].nr_members = i ? 0 : (int)l->nr;
	}
}

/* -M names (comma-separated, repeatable) into x->out.metrics; an unknown one lists the known ones. */
static void parse_metrics(struct stat_ctx *x)
{
	static const char *const deflt[] = { "CPUs_utilized", "GHz", "IPC", "branch_miss_rate" };
	size_t nr_defs;
	const struct pms_metric_def *defs = pms_metric_defs(&nr_defs);

	for (size_t i = 0; i < o.metrics.nr; i++) {
		char *copy = xstrdup(o.metrics.v[i]), *save = NULL;

		for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
			const struct pms_metric_def *d = pms_metric_def__find(t);
			bool dup = false;

			if (!d) {
				const char **names = xcalloc(nr_defs, sizeof(*names));
				struct strbuf known = STRBUF_INIT;
				const char *best;

				for (size_t k = 0; k < nr_defs; k++) {
					names[k] = defs[k].name;
					strbuf_addf(&known, "%s%s", k ? ", " : "", defs[k].name);
				}
				best = pms_str__suggest(t, names, nr_defs);
				error("-M: unknown metric '%s'%s%s%s", t, best ? "; did you mean '" : "", best ? best : "",
				      best ? "'?" : "");
				note("pmuscope's metrics: %s (man pmuscope-stat)", strbuf_str(&known));
				exit(EXIT_USAGE);
			}
			for (size_t k = 0; k < x->out.nr_metrics; k++)
				dup |= x->out.metrics[k] == d;
			if (dup)
				continue;
			x->out.metrics = xrealloc(x->out.metrics, (x->out.nr_metrics + 1) * sizeof(*x->out.metrics));
			x->out.metrics[x->out.nr_metrics++] = d;
		}
		free(copy);
	}
	if (o.metric_only && !x->out.nr_metrics) {
		/* --metric-only without -M: the metrics perf shows beside its default events */
		for (size_t k = 0; k < sizeof(deflt) / sizeof(deflt[0]); k++) {
			x->out.metrics = xrealloc(x->out.metrics, (x->out.nr_metrics + 1) * sizeof(*x->out.metrics));
			x->out.metrics[x->out.nr_metrics++] = pms_metric_def__find(deflt[k]);
		}
	}
	x->out.metric_only = o.metric_only;
}

/* Is an event of kind k already in the list? */
static bool list_has_kind(const struct pms_evlist *l, enum pms_metric_kind k)
{
	if (k == PMS_MK_OTHER)
		return true; /* the elapsed time: always there */
	for (size_t i = 0; i < l->nr; i++)
		if (l->entries[i].tool_event == PMS_TOOL_NONE && pms_attr__metric_kind(&l->entries[i].attr) == k)
			return true;
	return false;
}

static void parse_events(struct stat_ctx *x)
{
	struct pms_event_ctx *ctx;
	static const char *const def[] = { DEFAULT_EVENTS };
	const char *const *strs = o.events.nr ? o.events.v : def;
	/* -M alone counts only the metrics' inputs, as perf */
	size_t n = o.events.nr ? o.events.nr : o.metrics.nr ? 0 : 1;

	if (o.null_run)
		return; /* perf -n: no counter at all, only the elapsed time */
	ctx = pms_event_ctx__new();
	if (!ctx)
		die("cannot create the event context: %s", strerror(errno));
	for (size_t i = 0; i < n + (size_t)(o.detailed > 3 ? 3 : o.detailed); i++) {
		const char *str = i < n ? strs[i] : detailed_sets[i - n];

		if (cli_parse_events(&x->list, ctx, str)) {
			pms_event_ctx__free(ctx);
			exit(EXIT_BAD_EVENT);
		}
	}
	{
		/* the metrics' inputs not counted yet, once each, in one weak group (as perf groups a metric's events) */
		struct strbuf in = STRBUF_INIT;
		bool added[PMS_MK__NR] = { false };
		int nr_in = 0;

		for (size_t m = 0; m < x->out.nr_metrics; m++) {
			enum pms_metric_kind kinds[2] = { x->out.metrics[m]->num, x->out.metrics[m]->den };

			for (int k = 0; k < 2; k++) {
				if (list_has_kind(&x->list, kinds[k]) || added[kinds[k]])
					continue;
				added[kinds[k]] = true;
				strbuf_addf(&in, "%s%s", nr_in++ ? "," : "", pms_metric_kind__name(kinds[k]));
			}
		}
		if (nr_in > 1) {
			struct strbuf g = STRBUF_INIT;

			strbuf_addf(&g, "{%s}:W", strbuf_str(&in));
			strbuf_release(&in);
			in = g;
		}
		if (nr_in && cli_parse_events(&x->list, ctx, strbuf_str(&in))) {
			pms_event_ctx__free(ctx);
			exit(EXIT_BAD_EVENT);
		}
		strbuf_release(&in);
	}
	per_cgroup_copies(x, ctx);
	pms_event_ctx__free(ctx);
	if (!x->list.nr)
		usage_error(&cmd_stat, "no events to count");
	if (o.group && x->list.nr > 1) {
		for (size_t i = 0; i < x->list.nr; i++)
			if (x->list.entries[i].nr_members > 1)
				usage_error(&cmd_stat, "-g puts every event into one group: give no {...} groups with it");
		group_all(&x->list);
	}
	for (size_t i = 0; i < x->list.nr && (o.all_user || o.all_kernel); i++) {
		struct perf_event_attr *a = &x->list.entries[i].attr;

		/* perf's --all-user/--all-kernel override the events' own modifiers */
		a->exclude_user = o.all_kernel;
		a->exclude_kernel = o.all_user;
	}
}

static void setup_target(struct stat_ctx *x)
{
	struct stat_cfg *c = &x->cfg;
	int nt = (o.pids != NULL) + (o.tids != NULL) + (o.all || o.cpus);

	if (nt > 1)
		usage_error(&cmd_stat, "-p, -t and -a/-C are different targets: give one of them");
	if (o.pids) {
		c->target = ST_PID;
		c->target_str = o.pids;
		opt_parse_id_list(&cmd_stat, "-p/--pid", o.pids, 1, &x->pids, &x->nr_pids);
		for (size_t i = 0; i < x->nr_pids; i++) {
			int ret = pms_tasks__of_process(x->pids[i], &x->tids, &x->nr_tids);

			if (ret && (kill(x->pids[i], 0) == 0 || errno == EPERM)) {
				char path[PATH_MAX];

				/* it exists: procfs is what is missing (not mounted, a container) */
				pms_procfs__path(path, sizeof(path), "%d/task", (int)x->pids[i]);
				error("cannot list the threads of process %d: '%s': %s", (int)x->pids[i], path,
				      strerror(ret == -ESRCH ? ENOENT : -ret));
				hint("mount procfs (mount -t proc proc /proc) or count threads with -t");
				exit(EXIT_RUNTIME);
			}
			if (ret) {
				error("no such process: %d", (int)x->pids[i]);
				exit(EXIT_RUNTIME);
			}
		}
	} else if (o.tids) {
		c->target = ST_TID;
		c->target_str = o.tids;
		opt_parse_id_list(&cmd_stat, "-t/--tid", o.tids, 1, &x->tids, &x->nr_tids);
		for (size_t i = 0; i < x->nr_tids; i++) {
			/* kill(tid, 0) finds any task, thread or not, without needing procfs */
			if (kill(x->tids[i], 0) && errno != EPERM) {
				error("no such thread: %d", (int)x->tids[i]);
				exit(EXIT_RUNTIME);
			}
		}
	} else if (o.all && o.per_thread) {
		/* perf's -a --per-thread: every thread that exists now, each counted on any CPU */
		c->target = ST_SYSTEM;
		if (pms_tasks__all(&x->tids, &x->nr_tids)) {
			error("cannot list the threads in '%s'", pms_procfs_root());
			exit(EXIT_RUNTIME);
		}
	} else if (o.all || o.cpus) {
		struct pms_cpulist cl = { 0 };
		struct pms_cpulist online = { 0 };
		size_t bad = 0;
		int ret;

		c->target = o.cpus ? ST_CPUS : ST_SYSTEM;
		c->target_str = o.cpus;
		ret = pms_cpulist__online(&online);
		if (ret) {
			char path[PATH_MAX];

			pms_sysfs__path(path, sizeof(path), "devices/system/cpu/online");
			error("cannot read the online CPU list from '%s': %s", path, strerror(-ret));
			exit(EXIT_RUNTIME);
		}
		if (o.cpus) {
			if (pms_cpulist__parse(o.cpus, &cl, &bad) || !cl.nr)
				usage_error(&cmd_stat, "bad CPU list '%s' (at offset %zu): expected e.g. 0-3,8", o.cpus, bad);
			for (size_t i = 0; i < cl.nr; i++)
				if (!pms_cpulist__contains(&online, cl.cpus[i]))
					usage_error(&cmd_stat, "CPU %d is not online (online: see /sys/devices/system/cpu/online)",
						    cl.cpus[i]);
			pms_cpulist__release(&online);
		} else {
			cl = online;
		}
		x->cpus = cl.cpus;
		x->nr_cpus = cl.nr;
	} else {
		c->target = ST_COMMAND;
		if (!c->argv)
			usage_error(&cmd_stat, "nothing to count: give a command, -p, -t, -a or -C");
	}
}

static void check_options(struct stat_ctx *x)
{
	struct stat_cfg *c = &x->cfg;

	if (o.repeat < 1)
		usage_error(&cmd_stat, "-r needs a positive number of runs, not %d", o.repeat);
	if (o.repeat > 1 && !c->argv)
		usage_error(&cmd_stat, "-r repeats a command: give one");
	if (o.interval && o.interval < 10)
		usage_error(&cmd_stat, "-I %d: the interval must be at least 10 ms", o.interval);
	if (o.interval < 0 || o.timeout < 0 || o.interval_count < 0)
		usage_error(&cmd_stat, "times and counts must not be negative");
	if (o.interval_count && !o.interval)
		usage_error(&cmd_stat, "--interval-count needs -I");
	if (o.json && o.sep)
		usage_error(&cmd_stat, "--json and -x are different output formats: give one");
	if (o.sep && !*o.sep)
		usage_error(&cmd_stat, "-x needs a non-empty separator");
	if (o.append && !o.output)
		usage_error(&cmd_stat, "--append needs -o <file>");
	{
		int nr_aggr = o.no_aggr + o.per_thread + o.per_core + o.per_die + o.per_socket + o.per_node;

		if (nr_aggr > 1)
			usage_error(&cmd_stat, "-A, --per-thread, --per-core, --per-die, --per-socket and --per-node "
				    "are different aggregations: give one");
	}
	if ((o.per_core || o.per_die || o.per_socket || o.per_node) && !(c->target == ST_SYSTEM || c->target == ST_CPUS))
		usage_error(&cmd_stat, "--per-%s aggregates CPUs: it needs a CPU target, -a or -C",
			    o.per_core ? "core" : o.per_die ? "die" : o.per_socket ? "socket" : "node");
	if (o.cgroups.nr && o.for_each_cgroup)
		usage_error(&cmd_stat, "-G and --for-each-cgroup both place events in cgroups: give one");
	if ((o.cgroups.nr || o.for_each_cgroup) && !(c->target == ST_SYSTEM || c->target == ST_CPUS))
		usage_error(&cmd_stat, "%s counts the tasks of a cgroup on whole CPUs: it needs -a or -C",
			    o.cgroups.nr ? "-G" : "--for-each-cgroup");
	if ((o.cgroups.nr || o.for_each_cgroup) && o.per_thread)
		usage_error(&cmd_stat, "cgroups are counted per CPU: --per-thread cannot be combined with them");
	if (o.output && o.log_fd >= 0)
		usage_error(&cmd_stat, "-o and --log-fd both say where the counts go: give one");
	if (o.log_fd >= 0 && fcntl(o.log_fd, F_GETFD) < 0)
		usage_error(&cmd_stat, "--log-fd %d: no such open file descriptor", o.log_fd);
	if (o.log_fd < -1)
		usage_error(&cmd_stat, "--log-fd needs a file descriptor number, not %d", o.log_fd);
	if (o.all_user && o.all_kernel)
		usage_error(&cmd_stat, "--all-user and --all-kernel exclude each other");
	if (o.null_run && (o.events.nr || o.detailed || o.metrics.nr))
		usage_error(&cmd_stat, "-n counts nothing: it does not take -e, -d or -M");
	if (o.null_run && !c->argv)
		usage_error(&cmd_stat, "-n times a command: give one");
	if (o.interval_clear && !o.interval)
		usage_error(&cmd_stat, "--interval-clear clears the screen between -I intervals: give -I");
	if (o.summary && !o.interval)
		usage_error(&cmd_stat, "--summary prints the totals after -I intervals: give -I");
	if (o.table && o.repeat < 2)
		usage_error(&cmd_stat, "--table shows each run of -r: give -r N with N > 1");
	if (o.pre && !c->argv)
		usage_error(&cmd_stat, "--pre runs before the command: give one");
	if (o.post && !c->argv)
		usage_error(&cmd_stat, "--post runs after the command: give one");
	if (o.td_level && !o.topdown)
		usage_error(&cmd_stat, "--td-level sets the level of --topdown: give --topdown");
	if (o.td_level < 0)
		usage_error(&cmd_stat, "--td-level needs a level >= 0, not %d", o.td_level);

	if (o.no_aggr && !(c->target == ST_SYSTEM || c->target == ST_CPUS))
		usage_error(&cmd_stat, "-A (per-CPU counts) needs a CPU target: -a or -C");
	if (o.per_thread && c->target == ST_CPUS)
		usage_error(&cmd_stat, "--per-thread needs a thread target: -p, -t, -a or a command");
	c->aggr = o.no_aggr ? AGGR_CPU : o.per_thread ? AGGR_THREAD : AGGR_GLOBAL;
	if (o.per_core || o.per_die || o.per_socket || o.per_node) {
		enum pms_aggr_mode m = o.per_core ? PMS_AGGR_CORE : o.per_die ? PMS_AGGR_DIE :
				       o.per_socket ? PMS_AGGR_SOCKET : PMS_AGGR_NODE;
		int err = pms_aggr_map__build(&x->amap, m, x->cpus, x->nr_cpus);

		if (err) {
			char path[PATH_MAX];

			pms_sysfs__path(path, sizeof(path), "devices/system/cpu/cpuN/topology");
			error("cannot read the CPU topology for --per-%s from '%s': %s", pms_aggr_mode__word(m), path,
			      strerror(-err));
			exit(EXIT_RUNTIME);
		}
		c->aggr = AGGR_TOPO;
		x->out.amap = &x->amap;
	}
	c->no_scale = o.no_scale;
	c->json = o.json;
	c->csv_sep = o.sep;
	c->repeat = o.repeat;
	c->interval_ms = o.interval;
}

/*
 * --pre/--post: a shell command around each run, as perf's system(); a
 * failure stops stat with the command's status.
 */
static int run_hook(const char *what, const char *cmd)
{
	int st;

	fflush(NULL);
	st = system(cmd);
	if (st == -1) {
		error("%s: cannot run '%s': %s", what, cmd, strerror(errno));
		return EXIT_RUNTIME;
	}
	if (WIFEXITED(st) && WEXITSTATUS(st) == 0)
		return 0;
	if (WIFSIGNALED(st)) {
		error("%s '%s' was killed by signal %d (%s)", what, cmd, WTERMSIG(st), strsignal(WTERMSIG(st)));
		return 128 + WTERMSIG(st);
	}
	error("%s '%s' failed with exit status %d", what, cmd, WEXITSTATUS(st));
	return WEXITSTATUS(st);
}

/* A PMU's sysfs file (e.g. "cpu", "events/topdown-retiring"), to tell whether the hardware has a feature. */
static bool pmu_has(const char *pmu, const char *file)
{
	char path[PATH_MAX];

	return pms_pmu_dir__path(path, sizeof(path), "%s/%s", pmu, file) == 0 && access(path, F_OK) == 0;
}

/*
 * Options that count what only some CPUs have: refused with what is
 * missing on this machine (they need Intel core PMU events).
 */
static void check_hw_options(void)
{
	if (o.topdown) {
		if (!pmu_has("cpu", "events/topdown-retiring") && !pmu_has("cpu", "events/topdown-slots-issued"))
			usage_error(&cmd_stat, "--topdown needs the CPU PMU's top-down events (Intel: cpu/events/"
				    "topdown-*); this machine has none (no hardware PMU: a VM?)");
		usage_error(&cmd_stat, "--topdown: this CPU has top-down events, but pmuscope does not compute "
			    "the top-down metrics yet; count them with -e '{slots,topdown-retiring,...}'");
	}
	if (o.transaction) {
		if (!pmu_has("cpu", "events/tx-start"))
			usage_error(&cmd_stat, "-T counts Intel TSX transactions (cpu/events/tx-start, el-start, "
				    "cycles-t, cycles-ct); this machine's CPU PMU has no TSX events");
		usage_error(&cmd_stat, "-T: this CPU has TSX events, but pmuscope does not build perf's "
			    "transaction set yet; count them with -e cpu/tx-start/,cpu/el-start/,cpu/cycles-t/,...");
	}
	if (o.smi_cost) {
		if (!pmu_has("msr", "events/smi") || !pmu_has("cpu", "freeze_on_smi"))
			usage_error(&cmd_stat, "--smi-cost needs the msr PMU's SMI counter (msr/smi/) and the CPU "
				    "PMU's freeze_on_smi (Intel); here: %s%s",
				    pmu_has("msr", "events/smi") ? "" : "no msr/smi/ ",
				    pmu_has("cpu", "freeze_on_smi") ? "" : "no cpu/freeze_on_smi");
		usage_error(&cmd_stat, "--smi-cost: this CPU has msr/smi/, but pmuscope does not set "
			    "freeze_on_smi yet; count -e msr/smi/,msr/aperf/ instead");
	}
	if (o.cputype && !pmu_has("cpu_core", "type") && !pmu_has("cpu_atom", "type"))
		usage_error(&cmd_stat, "--cputype %s selects a core type of a hybrid CPU (cpu_core/cpu_atom PMUs); "
			    "this machine is not hybrid", o.cputype);
	if (o.cputype)
		usage_error(&cmd_stat, "--cputype: not implemented yet; name the PMU in the events instead "
			    "(-e cpu_%s/cycles/)", o.cputype);
	if (o.percore_show_thread)
		usage_error(&cmd_stat, "--percore-show-thread goes with perf's 'percore' event term, which "
			    "pmuscope does not take; use --per-core -a");
}

static int run(int argc, char **argv)
{
	struct stat_ctx x;
	struct pms_stats wall = { 0, 0, 0 };
	struct stat_rstat *rs = NULL;
	struct pms_counters *cs = NULL;
	struct stat_run_info ri;
	char *thousands_sep = NULL;
	int i, rc = 0;

	memset(&x, 0, sizeof(x));
	i = opt_parse(&cmd_stat, &argc, argv, OPT_STOP_AT_NON_OPTION);
	if (i < argc) {
		x.cfg.argv = argv + i;
		x.cfg.argc = argc - i;
	}
	verbose += o.verbose; /* stat -vv also shows the library's debug notes (fallbacks, splits) */
	setup_target(&x);
	check_options(&x);
	check_hw_options();
	parse_metrics(&x);
	parse_events(&x);
	if (x.cfg.argv) {
		int e = pms_workload__runnable(x.cfg.argv[0]);

		if (e) {
			error("cannot run '%s': %s", x.cfg.argv[0], strerror(-e));
			rc = e == -ENOENT ? EXIT_NOTFOUND : EXIT_NOEXEC;
			goto out;
		}
	}

	x.out.cfg = &x.cfg;
	x.out.f = stderr;
	x.out.interval_clear = o.interval_clear;
	x.out.summary = o.summary;
	x.out.csv_summary = o.csv_summary;
	x.out.quiet = o.quiet;
	if (o.big_num && !o.sep && !o.json) {
		/* perf's "%'" in the user's locale; every other number keeps the C locale's '.' */
		const char *ts;

		setlocale(LC_NUMERIC, "");
		ts = localeconv()->thousands_sep;
		thousands_sep = ts && *ts ? xstrdup(ts) : NULL;
		setlocale(LC_NUMERIC, "C");
		x.out.thousands_sep = thousands_sep;
	}
	if (o.log_fd >= 0) {
		int fd = fcntl(o.log_fd, F_DUPFD_CLOEXEC, 100);

		x.out.f = fd < 0 ? NULL : fdopen(fd, o.append ? "a" : "w");
		if (!x.out.f) {
			error("cannot write to --log-fd %d: %s", o.log_fd, strerror(errno));
			rc = EXIT_RUNTIME;
			goto out;
		}
	} else if (o.output) {
		int fd = open(o.output, O_WRONLY | O_CREAT | O_CLOEXEC | (o.append ? O_APPEND : O_TRUNC), 0666);

		if (fd < 0) {
			error("cannot open '%s' for writing: %s", o.output, strerror(errno));
			rc = EXIT_RUNTIME;
			goto out;
		}
		x.out.f = fdopen(pms_fd__move_high(fd), o.append ? "a" : "w");
		if (!x.out.f)
			die("cannot open a stream on '%s'", o.output);
	}
	if (o.interval_clear && !isatty(fileno(x.out.f)))
		usage_error(&cmd_stat, "--interval-clear clears a terminal: the output is not one");
	stop_signals__install(on_signal);

	for (int r = 0; r < x.cfg.repeat; r++) {
		struct pms_counters *one = NULL;

		if (r > 0 && stop_requests)
			break; /* a signal between two runs ends the repetition */
		if (o.sync)
			sync();
		if (o.pre && (rc = run_hook("--pre", o.pre)))
			goto out;

		rc = run_once(&x, &one, &ri);
		if (rc < 0) {
			pms_counters__free(one);
			rc = -rc;
			goto out;
		}
		if (o.post) {
			int prc = run_hook("--post", o.post);

			if (prc) {
				pms_counters__free(one);
				rc = prc;
				goto out;
			}
		}
		if (x.cfg.repeat > 1) {
			size_t nu = stat_nr_units(&x.out, one);

			if (!rs)
				rs = xcalloc(one->nr * nu, sizeof(*rs));
			pms_stats__update(&wall, ri.elapsed_ns);
			if (o.table) {
				x.out.run_ns = xrealloc(x.out.run_ns, (x.out.nr_run_ns + 1) * sizeof(double));
				x.out.run_ns[x.out.nr_run_ns++] = ri.elapsed_ns;
			}
			for (size_t k = 0; k < one->nr; k++)
				for (size_t u = 0; u < nu; u++)
					rstat_add(&x.out, one, k, u, &ri, &rs[k * nu + u]);
		}
		pms_counters__free(cs);
		cs = one;
		if (ri.interrupted)
			break;
	}
	x.cfg.runs = rs ? (int)wall.n : 1;
	if (rs && x.cfg.runs < x.cfg.repeat && stop_requests && rc == 0)
		rc = 128 + last_signal; /* the repetition was cut short, even if between two runs */
	stat_check_counts(&x.out, cs);
	if (x.cfg.interval_ms && x.cfg.json)
		stat_print_warnings_line(&x.out);
	if (!x.cfg.interval_ms || o.summary)
		stat_print_final(&x.out, cs, &ri, rs, &wall);
	if (ri.exit_status < 0)
		rc = 0;
out:
	if (x.out.f && x.out.f != stderr) {
		/* a full disk must not leave a truncated file that looks complete */
		if (ferror(x.out.f) | fclose(x.out.f)) {
			error("writing '%s' failed: %s; its counts are incomplete", o.output ? o.output : "--log-fd",
			      strerror(errno ? errno : EIO));
			if (!rc)
				rc = EXIT_RUNTIME;
		}
	}
	free_comms(x.out.comms, cs ? cs->nr_threads : 0);
	pms_counters__free(cs);
	stat_out__release_warnings(&x.out);
	pms_evlist__release(&x.list);
	free(rs);
	free(thousands_sep);
	free(x.out.run_ns);
	free(x.out.metrics);
	for (size_t g = 0; g < x.nr_cg_names; g++) {
		if (x.cg_fds && x.cg_fds[g] >= 0)
			close(x.cg_fds[g]);
		free(x.cg_names[g]);
	}
	free(x.cg_names);
	free(x.cg_fds);
	free(x.cg_fd_of);
	free(x.cgroup_of);
	pms_aggr_map__release(&x.amap);
	free(x.cpus);
	free(x.tids);
	free(x.pids);
	return rc;
}

PMS_COMMAND(stat, "stat",
	    "count events for a command, processes, threads or CPUs",
	    "pmuscope stat [<options>] [--] [<command> [<args>]]");
