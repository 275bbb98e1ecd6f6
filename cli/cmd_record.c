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
#include "perf_event/caps.h"
#include "events.h"
#include "stop_signals.h"
#include "data/outfile.h"
#include "aggregate/chaincheck.h"
#include "aggregate/record_hits.h"
#include "aggregate/record_synth.h"
#include "aggregate/session.h"
#include "data/tracing_data.h"
#include "data/writer.h"
#include "event/callgraph.h"
#include "event/event.h"
#include "event/sampling.h"
#include "perf_event/counter.h"
#include "perf_event/mmap.h"
#include "perf_event/sys.h"
#include "ring/record.h"
#include "ring/sampler.h"
#include "ring/stats.h"
#include "symbol/buildid_cache.h"
#include "util/clock.h"
#include "util/tasks.h"
#include "util/strbuf.h"
#include "util/cpulist.h"
#include "util/sysfs.h"

/* Every option of the command; reset_opts() gives the defaults (run() starts with it). */
static struct record_opts {
	int freq;
	uint64_t period;
	bool callchain, all, compress, no_inherit, no_buildid, buildid_all, no_cache;
	const char *call_graph, *mmap_pages, *output, *pid, *tid, *cpu;
	double duration;
	struct opt_strings events;
} o;

static volatile sig_atomic_t stop_requests;

static const struct opt opts[] = {
	OPT_STRINGS('e', "event", &o.events, "<events>", "event selector (default: cycles, else cpu-clock)"),
	OPT_INT('F', "freq", &o.freq, "<n>", "sample at n Hz (default 4000)"),
	OPT_U64('c', "count", &o.period, "<n>", "sample every n events"),
	OPT_BOOL('g', NULL, &o.callchain, "record call chains (frame pointers; = --call-graph fp)"),
	OPT_STRING(0, "call-graph", &o.call_graph, "<fp|dwarf[,size]>",
		   "call chains: frame pointers, or user registers + a stack copy (default 8192 bytes)"),
	OPT_STRING('m', "mmap-pages", &o.mmap_pages, "<pages>", "ring size per CPU: pages or size (512K)"),
	OPT_STRING('o', "output", &o.output, "<file>", "output file (default perf.data; - for a pipe)"),
	OPT_BOOL('z', "compression", &o.compress, "compress records with zstd"),
	OPT_DOUBLE(0, "duration", &o.duration, "<s>", "stop after s seconds"),
	OPT_BOOL('a', "all-cpus", &o.all, "system-wide collection from all CPUs"),
	OPT_STRING('C', "cpu", &o.cpu, "<cpus>", "system-wide collection on these CPUs only (0-2,5)"),
	OPT_STRING('p', "pid", &o.pid, "<pid,...>", "record existing processes (all their threads)"),
	OPT_STRING('t', "tid", &o.tid, "<tid,...>", "record existing threads only (no inheritance)"),
	OPT_BOOL('i', "no-inherit", &o.no_inherit, "children and new threads are not sampled"),
	OPT_BOOL('B', "no-buildid", &o.no_buildid, "write no build-ids (and save nothing in the build-id cache)"),
	OPT_BOOL('N', "no-buildid-cache", &o.no_cache, "do not save the sampled objects in the build-id cache"),
	OPT_BOOL(0, "buildid-all", &o.buildid_all, "build-ids of every object mapped, not only those with samples"),
	OPT_END(),
};

/* Frees what the options own and puts every one back to its default (all zero: unset). */
static void reset_opts(void)
{
	opt_strings__release(&o.events);
	o = (struct record_opts){ 0 };
}

static void on_signal(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	stop_requests++;
	stop_signals__forward(sig, si, stop_requests);
}

static void on_sigchld(int sig)
{
	(void)sig; /* only here to interrupt ppoll() */
}

/*
 * SIGCHLD stays blocked except inside ppoll(), so the workload's exit wakes
 * the main loop at once (not at the next 100 ms timeout) without a race
 * between the reap check and the wait. *poll_mask is the mask for ppoll().
 */
static void install_sigchld(sigset_t *poll_mask)
{
	struct sigaction sa;
	sigset_t set;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_sigchld;
	sa.sa_flags = SA_NOCLDSTOP;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGCHLD, &sa, NULL);
	sigemptyset(&set);
	sigaddset(&set, SIGCHLD);
	sigprocmask(SIG_BLOCK, &set, poll_mask);
	sigdelset(poll_mask, SIGCHLD);
}

/* ----------------------------------------------------------- recording -- */

struct rec {
	struct pms_evlist list;
	struct pms_data_writer *w;
	struct pms_sampler *smp; /* the events, opened cpu x event x thread, and their rings */
	struct pms_record_hits *hits;
	int write_err;
};

/* Feed the build-id bookkeeping: maps, forks, execs and sampled addresses. */
static void track(struct rec *r, const struct pms_record *d)
{
	switch (d->type) {
	case PERF_RECORD_SAMPLE:
		pms_record_hits__sample(r->hits, d->sample.pid, d->misc & PERF_RECORD_MISC_CPUMODE_MASK,
				 d->sample.ip, d->sample.callchain, d->sample.callchain_nr);
		break;
	case PERF_RECORD_MMAP2:
		if (!(d->mmap.prot & 4 /* PROT_EXEC */))
			break;
		/* fall through */
	case PERF_RECORD_MMAP:
		if ((d->misc & PERF_RECORD_MISC_CPUMODE_MASK) == PERF_RECORD_MISC_USER && !d->mmap.data)
			pms_record_hits__mmap(r->hits, d->mmap.pid, d->mmap.addr, d->mmap.len, d->mmap.filename);
		break;
	case PERF_RECORD_FORK:
		pms_record_hits__fork(r->hits, d->task.pid, d->task.ppid);
		break;
	case PERF_RECORD_COMM:
		if (d->comm.exec)
			pms_record_hits__exec(r->hits, d->comm.pid);
		break;
	default:
		break;
	}
}

/* The first write error is the one reported when the file is closed; later ones follow from it. */
static void keep_write_err(struct rec *r, int err)
{
	if (err && !r->write_err)
		r->write_err = err;
}

static int on_record(const struct perf_event_header *h, const struct pms_record *dec, void *arg)
{
	struct rec *r = arg;

	if (dec && r->hits)
		track(r, dec);
	keep_write_err(r, pms_data_writer__write(r->w, h, h->size));
	return 0;
}

/*
 * One pass over every ring, then a FINISHED_ROUND (as perf writes it) when
 * the pass copied anything: per-CPU rings are not in time order, and the
 * round marks let readers sort a bounded window instead of the whole file.
 */
static void drain_all(struct rec *r)
{
	if (pms_sampler__drain(r->smp, on_record, r))
		keep_write_err(r, pms_data_writer__finished_round(r->w));
	if (r->hits)
		pms_record_hits__pass_done(r->hits);
	pms_data_writer__flush(r->w);
}

/*
 * HEADER_CMDLINE as perf writes it: the tool's own path (not what was typed),
 * then every word of the command line, so `report --header` shows how the
 * file was made.
 */
static void record_cmdline(struct rec *r)
{
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	char **words = xcalloc((size_t)pms_cli_argc + 1, sizeof(*words));

	exe[n > 0 ? n : 0] = 0;
	words[0] = n > 0 ? exe : pms_cli_argv[0];
	for (int i = 1; i < pms_cli_argc; i++)
		words[i] = pms_cli_argv[i];
	pms_data_features__from_host(pms_data_writer__features(r->w), pms_cli_argc, words);
	free(words);
}

/* -t 12,34: the thread ids (syntax first, then existence) and the process (tgid) of each. */
static int parse_tids(const char *s, pid_t **tids, pid_t **tgids, size_t *nr)
{
	opt_parse_id_list(&cmd_record, "-t/--tid", s, 1, tids, nr);
	*tgids = xcalloc(*nr, sizeof(**tgids));
	for (size_t i = 0; i < *nr; i++) {
		long tg = pms_record_synth__status_field((*tids)[i], "Tgid");

		if (tg <= 0)
			return error("no such thread: %d", (int)(*tids)[i]);
		(*tgids)[i] = (pid_t)tg;
	}
	return 0;
}

static void parse_events(struct rec *r)
{
	struct pms_event_ctx *ctx = pms_event_ctx__new();

	if (!ctx)
		die("cannot create the event context: %s", strerror(errno));
	for (size_t i = 0; i < o.events.nr; i++) {
		if (cli_parse_events(&r->list, ctx, o.events.v[i])) {
			pms_event_ctx__free(ctx);
			exit(EXIT_BAD_EVENT);
		}
	}
	if (!o.events.nr) {
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

/*
 * HEADER_TRACING_DATA, as perf record writes it for tracepoint events: the
 * formats of those tracepoints from this machine's tracefs (and printk
 * formats, saved cmdlines), which perf report/script need to accept the
 * file and everyone needs to print the payloads. Without it (no tracefs)
 * the recording still goes on: pmuscope script falls back to tracefs.
 */
static void add_tracing_data(struct rec *r)
{
	void *blob = NULL;
	size_t size = 0;
	int err = pms_tracing_data__for_evlist(&r->list, &blob, &size);

	if (!err && blob)
		err = pms_data_features__set_raw(pms_data_writer__features(r->w), PMS_FEAT_TRACING_DATA, blob, size);
	if (err)
		warning("no tracing data (the tracepoints' formats) in the file: %s; perf report and "
			"perf script will refuse it", err == -ENOENT ? "tracefs is not mounted" :
			err == -EOPNOTSUPP ? "this build cannot write it" : strerror(-err));
	free(blob);
}

static void print_summary(struct rec *r, const char *path)
{
	double mb = (double)pms_data_writer__data_bytes(r->w) / (1024.0 * 1024.0);
	const struct pms_ring_stats *st = pms_sampler__stats(r->smp);
	struct stat sb;

	if (strcmp(path, "-") && stat(path, &sb) == 0)
		mb = (double)sb.st_size / (1024.0 * 1024.0);
	if (st->nr_lost_events || st->nr_lost_samples) {
		warning("lost %llu event%s (%.1f%% of samples); raise -m, lower -F, or check "
			"kernel.perf_event_max_sample_rate",
			(unsigned long long)(st->nr_lost_events + st->nr_lost_samples),
			st->nr_lost_events + st->nr_lost_samples == 1 ? "" : "s", pms_ring_stats__lost_pct(st));
	}
	if (st->nr_throttle)
		note("the kernel throttled sampling %llu time%s (%llu unthrottle event%s): interrupts took more than "
		     "kernel.perf_cpu_time_max_percent of the CPU, so some samples were not taken; lower -F or -c "
		     "less often, or raise that limit", (unsigned long long)st->nr_throttle, st->nr_throttle == 1 ? "" : "s",
		     (unsigned long long)st->nr_unthrottle, st->nr_unthrottle == 1 ? "" : "s");
	fprintf(stderr, "[ pmuscope record: Captured and wrote %.3f MB %s (%llu sample%s) ]\n", mb, path,
		(unsigned long long)st->nr_samples, st->nr_samples == 1 ? "" : "s");
}

/*
 * perf record's build-id cache update: what the file names (the kernel's
 * kallsyms, the vDSO, sampled binaries and their debug files) saved under
 * ~/.debug, new entries only. A cache that cannot be written costs a
 * warning, never the recording.
 */
static void save_in_cache(const struct pms_record_synth *out)
{
	struct pms_record_cache_stats st;
	char dir[PATH_MAX];
	int err = pms_buildid_cache__dir(dir, sizeof(dir));

	if (err) {
		warning("no build-id cache (set HOME or PMS_BUILDID_DIR); objects not saved");
		return;
	}
	err = pms_record_synth__cache(out, dir, o.buildid_all, &st);
	if (err)
		warning("cannot save objects in the build-id cache %s: %s (-N skips it)", dir, strerror(-err));
	if (verbose)
		note("build-id cache %s: %zu objects saved now, %zu already there, %zu not found", dir,
		     st.nr_added, st.nr_present - st.nr_added, st.nr_missing);
}

/*
 * After a frame-pointer (-g) recording: whether its user call chains reach a
 * thread or process entry, judged on its first few thousand chains, and if
 * not, in which objects they stop (aggregate/chaincheck.h) - said now, while
 * --call-graph dwarf is one re-run away. The file is in the page cache and
 * only a sample of it is read: a few ms.
 */
static void check_chains(const char *path)
{
	struct pms_session_opts so = { .sz = sizeof(so), .recover = true, .callchain = true };
	const struct pms_session_sample *smp;
	struct pms_chaincheck_result cc;
	struct strbuf sb = STRBUF_INIT;
	struct pms_session *s;
	size_t chains = 0;

	if (pms_session__open(&s, path, &so, NULL))
		return;
	while (chains < 4000 && pms_session__next(s, &smp) > 0)
		chains += smp->has_callchain;
	pms_session__chain_check(s, &cc);
	if (pms_chaincheck__describe(&cc, &sb))
		warning("call chains%s: %s", chains >= 4000 ? " (the first 4000)" : "", strbuf_str(&sb));
	strbuf_release(&sb);
	pms_session__free(s);
}

static bool targets_alive(const pid_t *tgids, const pid_t *tids, size_t nr)
{
	for (size_t i = 0; i < nr; i++)
		if (pms_task__alive(tgids[i], tids[i]))
			return true;
	return false;
}

static int run(int argc, char **argv)
{
	struct rec r;
	struct pms_record_synth out;
	struct pms_sampling_opts so = { 0 };
	struct pms_workload wl = { .pid = -1, .pidfd = -1, .go_fd = -1, .err_fd = -1 };
	struct pms_cpulist cpus = { 0 };
	struct pms_data_outfile of = { .fd = -1 };
	const char *path;
	char **cmd_argv = NULL;
	pid_t *tids = NULL, *tgids = NULL, *pids = NULL;
	size_t nr_tids = 0, nr_pids = 0;
	unsigned pages;
	int first, err, ret = 0;
	sigset_t poll_mask;
	uint64_t deadline = 0;
	bool stopped_by_duration = false;
	bool pipe_out;

	first = opt_parse(&cmd_record, &argc, argv, OPT_STOP_AT_NON_OPTION);
	if (first < argc)
		cmd_argv = argv + first;
	/* -a / -C may go with a command (system-wide while it runs), as in perf */
	if ((cmd_argv != NULL) + (o.pid != NULL) + (o.tid != NULL) > 1 ||
	    (!cmd_argv && !o.pid && !o.tid && !o.all && !o.cpu) ||
	    ((o.pid || o.tid) && o.all))
		usage_error(&cmd_record, "give one target: a command, -a, -C <cpus>, -p <pid> or -t <tid>");
	if (o.freq < 0 || (o.freq && o.period))
		usage_error(&cmd_record, "-F and -c are exclusive, and -F must be positive");
	if (o.duration < 0)
		usage_error(&cmd_record, "--duration must not be negative");
	if (o.no_buildid && o.buildid_all)
		usage_error(&cmd_record, "-B and --buildid-all are exclusive");
	if (o.call_graph) {
		struct pms_call_graph cg;

		opt_parse_call_graph(&cmd_record, o.call_graph, 1, PMS_CALL_GRAPH_DWARF_STACK_MAX, &cg);
		if (cg.mode == PMS_CALL_GRAPH_DWARF && !pms_call_graph__dwarf_regs_user())
			usage_error(&cmd_record, "--call-graph dwarf is not supported on this architecture");
		so.cg = cg;
	} else if (o.callchain) {
		so.cg.mode = PMS_CALL_GRAPH_FP;
	}
	if (o.cpu) {
		size_t bad = 0;
		struct pms_cpulist online = { 0 };

		if (pms_cpulist__parse(o.cpu, &cpus, &bad) || !cpus.nr)
			usage_error(&cmd_record, "bad CPU list '%s'", o.cpu);
		if (pms_cpulist__online(&online) == 0) {
			for (size_t i = 0; i < cpus.nr; i++)
				if (!pms_cpulist__contains(&online, cpus.cpus[i]))
					usage_error(&cmd_record, "CPU %d is not online", cpus.cpus[i]);
		}
		pms_cpulist__release(&online);
		if (o.pid || o.tid) {
			warning("-C is ignored with -p/-t: a process is followed on every CPU (as in perf)");
			pms_cpulist__release(&cpus);
		}
	}
	if (o.pid) {
		/* -p 12,34: every thread of each process */
		opt_parse_id_list(&cmd_record, "-p/--pid", o.pid, 1, &pids, &nr_pids);
		for (size_t k = 0; k < nr_pids; k++) {
			pid_t *t = NULL;
			size_t n = 0;

			if (pms_tasks__of_process(pids[k], &t, &n)) {
				free(t);
				error("no such process: %d", (int)pids[k]);
				free(tids);
				free(tgids);
				free(pids);
				return EXIT_RUNTIME;
			}
			tids = xrealloc(tids, (nr_tids + n) * sizeof(*tids));
			tgids = xrealloc(tgids, (nr_tids + n) * sizeof(*tgids));
			for (size_t i = 0; i < n; i++) {
				tids[nr_tids] = t[i];
				tgids[nr_tids++] = pids[k];
			}
			free(t);
		}
	}
	if (o.tid && parse_tids(o.tid, &tids, &tgids, &nr_tids)) {
		free(pids);
		free(tids);
		free(tgids);
		return EXIT_RUNTIME;
	}
	if (o.mmap_pages) {
		bool rounded;

		if (pms_mmap__parse_pages(o.mmap_pages, &pages, &rounded))
			usage_error(&cmd_record, "bad -m value '%s'", o.mmap_pages);
		if (rounded)
			warning("rounding mmap pages size to %u pages", pages);
	} else {
		pms_mmap__default_pages(&pages);
	}
	path = o.output ? o.output : "perf.data";
	pipe_out = !strcmp(path, "-");

	if (o.freq > 0) {
		int max_hz = pms_knob__sysctl("perf_event_max_sample_rate");

		/* as perf: throttle to the kernel's limit with a warning, rather than fail the open (EINVAL) */
		if (max_hz > 0 && o.freq > max_hz) {
			warning("-F %d Hz is more than kernel.perf_event_max_sample_rate (%d Hz): sampling at %d Hz, as perf "
				"does. Raise the limit in /proc/sys/kernel/perf_event_max_sample_rate (the kernel lowers "
				"it again when sampling interrupts take too long)", o.freq, max_hz, max_hz);
			o.freq = max_hz;
		}
	}
	so.period = o.period;
	so.freq = (uint64_t)o.freq;
	so.system_wide = o.all || (o.cpu && !o.pid && !o.tid);
	so.enable_on_exec = cmd_argv && !so.system_wide;
	/* -t samples only the threads named, as perf's -t does */
	so.inherit = !so.system_wide && !o.no_inherit && !o.tid;
	memset(&r, 0, sizeof(r));
	/* -B: no bookkeeping at all (pms_record_synth__* accept a NULL table) */
	r.hits = o.no_buildid ? NULL : pms_record_hits__new();
	if (!o.no_buildid && !r.hits)
		die("out of memory");
	parse_events(&r);
	pms_evlist__config_sampling(&r.list, &so);
	if (!cpus.nr && (pms_cpulist__online(&cpus) || !cpus.nr))
		die("cannot read the online CPUs");

	{
		struct pms_data_writer_opts wo = { .sz = sizeof(wo), .compress_level = o.compress ? 1 : 0 };

		/* zstd compresses a flush at a time: bigger chunks compress better (dwarf: 1.4x) */
		if (o.compress)
			wo.buffer_bytes = 4u << 20;

		/*
		 * A file is written under a temporary name until the recording
		 * has started (events open, command exec'd): a recording that
		 * fails before leaves the previous file as it was.
		 */
		if (pipe_out) {
			err = pms_data_writer__open(&r.w, path, &wo);
		} else {
			err = pms_data_outfile__create(&of, path);
			if (err) {
				pms_record_hits__free(r.hits);
				if (err == -ENOTEMPTY)
					return error("cannot keep %s as %s.old: that is a directory; move it away",
						     path, path), EXIT_RUNTIME;
				return error("cannot create %s: %s", path, strerror(-err)), EXIT_RUNTIME;
			}
			err = pms_data_writer__open_fd(&r.w, of.fd, &wo);
		}
		if (err) {
			pms_record_hits__free(r.hits);
			pms_data_outfile__release(&of);
			if (err == -EOPNOTSUPP)
				return error("-z: this build has no zstd support"), EXIT_RUNTIME;
			return error("cannot create %s: %s", path, strerror(-err)), EXIT_RUNTIME;
		}
	}
	if (cmd_argv && (err = stop_signals__fork_workload(&wl, cmd_argv, pipe_out))) {
		error("cannot start '%s': %s", cmd_argv[0], strerror(-err));
		pms_data_writer__free(r.w);
		pms_data_outfile__release(&of);
		pms_record_hits__free(r.hits);
		return EXIT_RUNTIME;
	}
	/* after the fork (the command keeps its SIGPIPE), before the first write:
	 * a closed -o - pipe is a write error, not a silent death */
	signal(SIGPIPE, SIG_IGN);

	/* open: per CPU, per event, per thread (-p/-t) or pid target */
	{
		size_t nthr = nr_tids ? nr_tids : 1;
		pid_t *threads = xcalloc(nthr, sizeof(*threads));
		struct pms_sampler_error serr;

		for (size_t t = 0; t < nthr; t++)
			threads[t] = so.system_wide ? -1 : nr_tids ? tids[t] : wl.pid;
		err = pms_sampler__open(&r.list, cpus.cpus, cpus.nr, threads, nthr, pages, &r.smp, &serr);
		free(threads);
		if (err == -ENOMEM && !serr.msg[0])
			die("out of memory");
		if (err) {
			if (serr.step == PMS_SAMPLER_E_GONE)
				error("every thread of the target exited before recording started");
			else if (serr.step == PMS_SAMPLER_E_MAP && serr.cpu < 0)
				error("cannot map the ring: %s", serr.msg);
			else if (serr.step == PMS_SAMPLER_E_MAP)
				error("cannot map the ring of CPU %d: %s", serr.cpu, serr.msg);
			else if (serr.event >= 0 && serr.cpu >= 0)
				error("cannot open event '%s' on CPU %d: %s", r.list.entries[serr.event].name, serr.cpu, serr.msg);
			else if (serr.event >= 0)
				error("cannot open event '%s': %s", r.list.entries[serr.event].name, serr.msg);
			else
				error("cannot open the events: %s", serr.msg);
			ret = EXIT_RUNTIME;
			goto out_open;
		}
		for (size_t e = 0; e < r.list.nr; e++) {
			size_t nids;
			const uint64_t *ids = pms_sampler__ids(r.smp, e, &nids);

			pms_data_writer__add_attr(r.w, &r.list.entries[e].attr, r.list.entries[e].name, ids, nids);
		}
		/* {a,b} groups, as perf describes them: report shows each as one view */
		for (size_t e = 0; e < r.list.nr; e++)
			if (r.list.entries[e].leader_idx == (int)e && r.list.entries[e].nr_members > 1 &&
			    pms_data_features__add_group(pms_data_writer__features(r.w), "{anon_group}", (uint32_t)e,
							 (uint32_t)r.list.entries[e].nr_members))
				die("out of memory");
out_open:;
	}
	if (ret)
		goto out;

	record_cmdline(&r);
	add_tracing_data(&r);
	out.w = r.w;
	out.hits = r.hits;
	keep_write_err(&r, pms_record_synth__kernel(&out));
	keep_write_err(&r, pms_record_synth__modules(&out));
	if (o.pid) {
		for (size_t k = 0; k < nr_pids; k++)
			keep_write_err(&r, pms_record_synth__process(&out, pids[k], NULL, 0));
	} else if (o.tid) {
		for (size_t i = 0; i < nr_tids; i++) {
			bool seen = false;

			for (size_t k = 0; k < i && !seen; k++)
				seen = tgids[k] == tgids[i];
			if (seen)
				continue;
			/* the listed threads of this process, then its maps */
			pid_t *mine = xcalloc(nr_tids, sizeof(*mine));
			size_t n = 0;

			for (size_t k = i; k < nr_tids; k++)
				if (tgids[k] == tgids[i])
					mine[n++] = tids[k];
			keep_write_err(&r, pms_record_synth__process(&out, tgids[i], mine, n));
			free(mine);
		}
	} else if (so.system_wide) {
		keep_write_err(&r, pms_record_synth__all(&out));
	}
	keep_write_err(&r, pms_data_writer__flush(r.w));

	stop_signals__install(on_signal);
	install_sigchld(&poll_mask);
	if (!so.enable_on_exec)
		pms_sampler__enable(r.smp);
	if (cmd_argv) {
		err = pms_workload__start(&wl);
		if (err) {
			error("cannot run '%s': %s", cmd_argv[0], strerror(-err));
			stop_signals__reap_workload(&wl, true);
			ret = err == -ENOENT ? EXIT_NOTFOUND : EXIT_NOEXEC;
			goto out;
		}
	}
	/* started: now the new file may replace the previous one (kept as .old, as perf does) */
	err = pms_data_outfile__commit(&of, NULL);
	if (err) {
		error("cannot rename %s to %s: %s", of.tmp, path, strerror(-err));
		ret = EXIT_RUNTIME;
		goto out;
	}
	if (o.duration > 0)
		deadline = pms_clock__monotonic_ns() + (uint64_t)(o.duration * 1e9);
	else if (!cmd_argv && isatty(STDERR_FILENO))
		note("recording %s; Ctrl-C to stop", so.system_wide ? "every CPU" : "the targets");

	for (;;) {
		int timeout = 100;

		if (stop_requests && !cmd_argv)
			break;
		if (r.write_err) {
			/* disk full, or the reader of -o - went away: stop, say why below */
			if (cmd_argv && !wl.exited)
				kill(wl.pid, SIGTERM);
			break;
		}
		if (nr_tids && !targets_alive(tgids, tids, nr_tids))
			break;
		if (cmd_argv) {
			stop_signals__reap_workload(&wl, false);
			if (wl.exited)
				break;
		}
		if (deadline) {
			uint64_t now = pms_clock__monotonic_ns();

			if (now >= deadline) {
				if (cmd_argv && !wl.exited) {
					kill(wl.pid, SIGTERM);
					stopped_by_duration = true;
				}
				break;
			}
			if ((deadline - now) / 1000000 < (uint64_t)timeout)
				timeout = (int)((deadline - now) / 1000000) + 1;
		}
		pms_sampler__wait(r.smp, timeout, &poll_mask);
		drain_all(&r);
	}
	pms_sampler__disable(r.smp);
	if (cmd_argv) {
		stop_signals__reap_workload(&wl, true);
		ret = pms_workload__exit_code(&wl);
		if (ret < 0)
			ret = EXIT_RUNTIME;
		/* stopping it was what --duration asked for: not a failure (as perf stat --timeout) */
		if (stopped_by_duration && ret == 128 + SIGTERM) {
			note("--duration: stopped '%s' after %g s, as asked", cmd_argv[0], o.duration);
			ret = 0;
		}
	}
	drain_all(&r);
	if (r.hits)
		keep_write_err(&r, pms_record_synth__build_ids(&out, o.buildid_all));
	err = pms_data_writer__close(r.w);
	if (err || r.write_err) {
		error("cannot write %s: %s", path, strerror(-(err ? err : r.write_err)));
		ret = EXIT_RUNTIME;
	} else {
		print_summary(&r, path);
		/* after the file is whole: a slow first copy into the cache costs the recording nothing */
		if (r.hits && !pipe_out && !o.no_cache)
			save_in_cache(&out);
		if (so.cg.mode == PMS_CALL_GRAPH_FP && !pipe_out && pms_sampler__stats(r.smp)->nr_samples)
			check_chains(path);
	}
	if (r.hits && pms_record_hits__incomplete(r.hits))
		warning("out of memory while tracking sampled objects: some build-ids are missing");
out:
	if (cmd_argv && !wl.exited && wl.pid > 0 && ret)
		stop_signals__abort_workload(&wl);
	pms_workload__release(&wl);
	pms_sampler__free(r.smp); /* closes every event */
	pms_record_hits__free(r.hits);
	free(tids);
	free(tgids);
	free(pids);
	pms_data_writer__free(r.w);
	/* a recording that never started leaves no trace but its message */
	pms_data_outfile__release(&of);
	pms_evlist__release(&r.list);
	pms_cpulist__release(&cpus);
	return ret;
}

PMS_COMMAND(record, "record",
	    "sample a command, processes or all CPUs into perf.data",
	    "pmuscope record [<options>] [-a | -C <cpus> | -p <pid> | -t <tid> | [--] <command> [<args>]]");
