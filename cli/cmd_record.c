// SPDX-License-Identifier: MIT
// `pmuscope record`: sample a command, processes or the whole system into a perf.data file.
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pwd.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
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
#include "util/units.h"
#include "event/branch_filter.h"
#include "event/regs.h"

/* --switch-output: what makes record close the file and start the next one */
enum switch_mode { SWITCH_NONE, SWITCH_SIGNAL, SWITCH_SIZE, SWITCH_TIME };

/* Every option of the command; reset_opts() gives the defaults (run() starts with it). */
static struct record_opts {
	uint64_t period;
	bool callchain, all, no_inherit, no_buildid, buildid_all, no_cache;
	const char *freq, *call_graph, *mmap_pages, *output, *pid, *tid, *cpu, *uid, *clockid, *delay, *max_size;
	const char *affinity, *synth, *vmlinux, *mmap_flush;
	double duration;
	struct opt_strings events;
	const char **filters;    /* filters[i]: --filter after the i-th -e, or NULL */
	int compress_level, realtime, switch_max_files, num_thread_synth, proc_map_timeout;
	bool timestamp, stat, sample_cpu, data, phys_data, data_page_size, code_page_size, period_bit, weight;
	bool transaction, raw, sample_identifier, running_time, no_samples, all_user, all_kernel;
	bool switch_events, namespaces, all_cgroups, kernel_callchains, user_callchains, strict_freq, dry_run;
	bool quiet, no_buffering, no_bpf_event, timestamp_filename, timestamp_boundary, tail_synthesize;
	bool user_regs_set, intr_regs_set, regs_list, overwrite;
	uint64_t user_regs, intr_regs, branch_filter;
	enum switch_mode switch_mode;
	uint64_t switch_bytes, switch_s;
} o;

/* -q: perf's quiet, for record's own warnings, notes and summary (errors still print) */
#define warning(...) do { if (!o.quiet) (warning)(__VA_ARGS__); } while (0)
#define note(...) do { if (!o.quiet) (note)(__VA_ARGS__); } while (0)

static volatile sig_atomic_t stop_requests;
static volatile sig_atomic_t switch_requests;

/* --user-regs[=regs] / -I[regs]: perf's names; "?" lists them, as perf's -I? does */
static int parse_regs(const struct opt *opt, const char *arg)
{
	bool intr = opt->short_name == 'I';
	enum pms_regs_arch arch = pms_regs__host_arch();
	uint64_t mask;
	size_t off = 0, len = 0;
	int err;

	if (arg && !strcmp(arg, "?")) {
		struct strbuf sb = STRBUF_INIT;

		pms_regs__list(arch, &sb);
		printf("%s\n", strbuf_str(&sb));
		strbuf_release(&sb);
		exit(0);
	}
	err = pms_regs__parse(arch, arg, &mask, &off, &len);
	if (err == -EOPNOTSUPP) {
		error("%s: sampling registers is not supported on this architecture", intr ? "-I" : "--user-regs");
		return -1;
	}
	if (err) {
		error("unknown register \"%.*s\"; '%s' lists them", (int)len, arg + off, intr ? "-I?" : "--user-regs=?");
		return -1;
	}
	if (intr) {
		o.intr_regs = mask;
		o.intr_regs_set = true;
	} else {
		o.user_regs = mask;
		o.user_regs_set = true;
	}
	return 0;
}

/* -j filters, -b = -j any; repeated ones add up, as perf's */
static int parse_branch(const struct opt *opt, const char *arg)
{
	uint64_t mask;
	size_t off = 0, len = 0;

	if (opt->short_name == 'b') {
		o.branch_filter |= PERF_SAMPLE_BRANCH_ANY;
		return 0;
	}
	if (pms_branch_filter__parse(arg, &mask, &off, &len)) {
		error("unknown branch filter \"%.*s\"; known: %s", (int)len, arg + off, pms_branch_filter__names());
		return -1;
	}
	o.branch_filter |= mask;
	return 0;
}

/* -z[level]: perf's default level is 1, its maximum 22 */
static int parse_compression(const struct opt *opt, const char *arg)
{
	char *end;
	long level = 1;

	(void)opt;
	if (arg) {
		errno = 0;
		level = strtol(arg, &end, 10);
		if (errno || end == arg || *end || level < 1 || level > 22) {
			error("bad -z level '%s': 1 (fastest) to 22 (smallest)", arg);
			return -1;
		}
	}
	o.compress_level = (int)level;
	return 0;
}

/* --switch-output[=signal|SIZE|TIME], perf's rules: no value or "signal" is SIGUSR2; sizes need B/K/M/G */
static int parse_switch_output(const struct opt *opt, const char *arg)
{
	(void)opt;
	if (!arg || !strcmp(arg, "signal")) {
		o.switch_mode = SWITCH_SIGNAL;
		return 0;
	}
	if (pms_units__parse_size_bytes(arg, true, &o.switch_bytes) == 0) {
		o.switch_mode = SWITCH_SIZE;
		return 0;
	}
	if (pms_units__parse_time_s(arg, &o.switch_s) == 0) {
		o.switch_mode = SWITCH_TIME;
		return 0;
	}
	error("bad --switch-output value '%s': signal, a size (100M: B/K/M/G) or a time (30s: s/m/h/d)", arg);
	return -1;
}

/* --debuginfod[=urls]: record's cache step copies local files only; report and annotate fetch */
static int parse_debuginfod(const struct opt *opt, const char *arg)
{
	(void)opt;
	(void)arg;
	note("--debuginfod: record saves local objects in the build-id cache only; report and annotate fetch the rest");
	return 0;
}

/* -e, in order, so that a --filter applies to the -e just before it, as perf's */
static int parse_event_opt(const struct opt *opt, const char *arg)
{
	(void)opt;
	o.events.v = xrealloc(o.events.v, (o.events.nr + 1) * sizeof(*o.events.v));
	o.filters = xrealloc(o.filters, (o.events.nr + 1) * sizeof(*o.filters));
	o.filters[o.events.nr] = NULL;
	o.events.v[o.events.nr++] = arg;
	return 0;
}

static int parse_filter_opt(const struct opt *opt, const char *arg)
{
	(void)opt;
	if (!o.events.nr) {
		error("--filter must follow the -e tracepoint it filters");
		return -1;
	}
	o.filters[o.events.nr - 1] = arg;
	return 0;
}

static const struct opt opts[] = {
	OPT_CALLBACK('e', "event", "<events>", "event selector (default: cycles, else cpu-clock)", parse_event_opt),
	OPT_CALLBACK(0, "filter", "<filter>", "tracepoint filter for the -e before it (the kernel's syntax: 'ret < 0')",
		     parse_filter_opt),
	OPT_STRING('F', "freq", &o.freq, "<n|max>", "sample at n Hz (default 4000); max: kernel.perf_event_max_sample_rate"),
	OPT_U64('c', "count", &o.period, "<n>", "sample every n events"),
	OPT_BOOL('g', NULL, &o.callchain, "record call chains (frame pointers; = --call-graph fp)"),
	OPT_STRING(0, "call-graph", &o.call_graph, "<fp|dwarf[,size]>",
		   "call chains: frame pointers, or user registers + a stack copy (default 8192 bytes)"),
	OPT_BOOL(0, "kernel-callchains", &o.kernel_callchains, "call chains: the kernel part only"),
	OPT_BOOL(0, "user-callchains", &o.user_callchains, "call chains: the user part only"),
	OPT_STRING('m', "mmap-pages", &o.mmap_pages, "<pages[,aux]>", "ring size per CPU: pages or size (512K)"),
	OPT_STRING('o', "output", &o.output, "<file>", "output file (default perf.data; - for a pipe)"),
	OPT_CALLBACK_OPTARG('z', "compression-level", "<n>", "compress records with zstd (level 1..22, default 1)",
			    parse_compression),
	OPT_DOUBLE(0, "duration", &o.duration, "<s>", "stop after s seconds"),
	OPT_BOOL('a', "all-cpus", &o.all, "system-wide collection from all CPUs"),
	OPT_STRING('C', "cpu", &o.cpu, "<cpus>", "system-wide collection on these CPUs only (0-2,5)"),
	OPT_STRING('p', "pid", &o.pid, "<pid,...>", "record existing processes (all their threads)"),
	OPT_STRING('t', "tid", &o.tid, "<tid,...>", "record existing threads only (no inheritance)"),
	OPT_STRING('u', "uid", &o.uid, "<user>", "record every process of a user (name or uid) existing now"),
	OPT_BOOL('i', "no-inherit", &o.no_inherit, "children and new threads are not sampled"),
	OPT_BOOL('B', "no-buildid", &o.no_buildid, "write no build-ids (and save nothing in the build-id cache)"),
	OPT_BOOL('N', "no-buildid-cache", &o.no_cache, "do not save the sampled objects in the build-id cache"),
	OPT_BOOL(0, "buildid-all", &o.buildid_all, "build-ids of every object mapped, not only those with samples"),
	OPT_GROUP("Sample contents"),
	OPT_BOOL('T', "timestamp", &o.timestamp, "sample times (on by default; --no-timestamp drops them)"),
	OPT_BOOL('P', "period", &o.period_bit, "sample periods even with a fixed period (-c)"),
	OPT_BOOL(0, "sample-cpu", &o.sample_cpu, "sample the CPU (always on with -a/-C)"),
	OPT_BOOL('d', "data", &o.data, "sample data addresses (ADDR, DATA_SRC) and record data maps"),
	OPT_BOOL(0, "phys-data", &o.phys_data, "sample physical data addresses"),
	OPT_BOOL(0, "data-page-size", &o.data_page_size, "sample the page size of data addresses"),
	OPT_BOOL(0, "code-page-size", &o.code_page_size, "sample the page size of code addresses"),
	OPT_CALLBACK_OPTARG(0, "user-regs", "<regs>", "sample user registers (perf's names; =? lists them)", parse_regs),
	OPT_CALLBACK_OPTARG('I', "intr-regs", "<regs>", "sample registers at the interrupt (-I? lists them)", parse_regs),
	OPT_BOOL('W', "weight", &o.weight, "sample weights (special events only)"),
	OPT_BOOL(0, "transaction", &o.transaction, "sample transaction flags (special events only)"),
	OPT_BOOL('R', "raw-samples", &o.raw, "sample raw payloads (and CPUs)"),
	OPT_BOOL(0, "sample-identifier", &o.sample_identifier, "samples carry IDENTIFIER even with one event"),
	OPT_BOOL(0, "running-time", &o.running_time, "enabled and running times in reads"),
	OPT_BOOL('s', "stat", &o.stat, "per-thread counts (inherit_stat: a READ record at each thread's exit)"),
	OPT_BOOL('n', "no-samples", &o.no_samples, "count only, take no samples"),
	OPT_CALLBACK_NOARG('b', "branch-any", "sample any taken branch (branch stacks: LBR, BRS, BRBE)", parse_branch),
	OPT_CALLBACK('j', "branch-filter", "<filters>", "branch stacks with these filters (any,u,k,call,...)", parse_branch),
	OPT_BOOL(0, "all-user", &o.all_user, "every event counts in user space only"),
	OPT_BOOL(0, "all-kernel", &o.all_kernel, "every event counts in kernel space only"),
	OPT_STRING('k', "clockid", &o.clockid, "<clock>", "sample times on this clock (monotonic, monotonic_raw, realtime, boottime, tai)"),
	OPT_GROUP("Side-band records"),
	OPT_BOOL(0, "switch-events", &o.switch_events, "record context switches"),
	OPT_BOOL(0, "namespaces", &o.namespaces, "record namespace events"),
	OPT_BOOL(0, "all-cgroups", &o.all_cgroups, "record cgroup events and each sample's cgroup"),
	OPT_BOOL(0, "no-bpf-event", &o.no_bpf_event, "record no BPF events (pmuscope never does)"),
	OPT_GROUP("Running and output"),
	OPT_STRING('D', "delay", &o.delay, "<ms>", "start sampling ms after the command starts"),
	OPT_STRING(0, "max-size", &o.max_size, "<size>", "stop when the output reaches size (B/K/M/G)"),
	OPT_CALLBACK_OPTARG(0, "switch-output", "<signal|size|time>",
			    "start a new output file on SIGUSR2, at a size (B/K/M/G) or a time (s/m/h/d)", parse_switch_output),
	OPT_INT(0, "switch-max-files", &o.switch_max_files, "<n>", "keep only the n newest --switch-output files"),
	OPT_BOOL(0, "timestamp-filename", &o.timestamp_filename, "append the end time to the output file name"),
	OPT_BOOL(0, "timestamp-boundary", &o.timestamp_boundary, "record the first and last sample times (always done)"),
	OPT_BOOL(0, "strict-freq", &o.strict_freq, "fail when -F is above kernel.perf_event_max_sample_rate"),
	OPT_INT('r', "realtime", &o.realtime, "<prio>", "read the rings at this SCHED_FIFO priority"),
	OPT_BOOL(0, "no-buffering", &o.no_buffering, "wake up for every record"),
	OPT_BOOL(0, "overwrite", &o.overwrite, "flight recorder: rings overwritten, read at the end (and at each --switch-output)"),
	OPT_BOOL('q', "quiet", &o.quiet, "print no warnings, notes or summary"),
	OPT_COUNT('v', "verbose", &verbose, "be more verbose"),
	OPT_BOOL(0, "dry-run", &o.dry_run, "parse the options, then exit"),
	OPT_BOOL(0, "tail-synthesize", &o.tail_synthesize, "accepted; existing processes are described at the start"),
	OPT_STRING(0, "synth", &o.synth, "<no|all|task|mmap|cgroup>", "which existing processes' records to write"),
	OPT_INT(0, "proc-map-timeout", &o.proc_map_timeout, "<ms>", "accepted; /proc maps are read whole"),
	OPT_INT(0, "num-thread-synthesize", &o.num_thread_synth, "<n>", "accepted; synthesis runs in one thread"),
	OPT_STRING(0, "affinity", &o.affinity, "<node|cpu>", "accepted; the rings are read by one thread"),
	OPT_STRING(0, "mmap-flush", &o.mmap_flush, "<bytes>", "accepted; the rings are drained whole at each wake-up"),
	OPT_CALLBACK_OPTARG(0, "debuginfod", "<urls>", "accepted; record saves local objects only", parse_debuginfod),
	OPT_STRING(0, "vmlinux", &o.vmlinux, "<file>", "accepted; record reads no symbols"),
	OPT_REFUSED('S', "snapshot", NULL, "AUX area snapshots: pmuscope opens no AUX (Intel PT, CoreSight) events"),
	OPT_REFUSED(0, "aux-sample", NULL, "AUX area samples: pmuscope opens no AUX (Intel PT, CoreSight) events"),
	OPT_REFUSED(0, "kcore", NULL, "a /proc/kcore copy is for Intel PT decoding; pmuscope opens no AUX events"),
	OPT_REFUSED(0, "aio", NULL, "pmuscope writes with plain write(2) at each wake-up; there is no AIO mode"),
	OPT_REFUSED(0, "threads", NULL, "pmuscope reads every ring from one thread into one file"),
	OPT_REFUSED(0, "control", "<fd:ctl-fd[,ack-fd]>", "not implemented: no control fd or FIFO"),
	OPT_REFUSED(0, "off-cpu", NULL, "use 'pmuscope profile --off-cpu' (BPF off-CPU time)"),
	OPT_REFUSED(0, "clang-opt", "<options>", "no BPF scriptlet events (perf's clang-compiled .c events)"),
	OPT_REFUSED(0, "clang-path", "<path>", "no BPF scriptlet events (perf's clang-compiled .c events)"),
	OPT_REFUSED(0, "switch-output-event", "<event>", "not implemented: use --switch-output=signal and SIGUSR2"),
	OPT_REFUSED(0, "buildid-mmap", NULL, "not implemented: build-ids go to the file's BUILD_ID table"),
	OPT_REFUSED('G', "cgroup", "<name>", "not implemented: no cgroup-scoped events in record (stat has them)"),
	OPT_REFUSED(0, "group", NULL, "spell groups with braces: -e '{a,b}'"),
	OPT_REFUSED(0, "per-thread", NULL, "not implemented: one ring per CPU"),
	OPT_REFUSED(0, "exclude-perf", NULL, "not implemented: no event filter for the recorder itself"),
	OPT_END(),
};

/* Frees what the options own and puts every one back to its default. */
static void reset_opts(void)
{
	opt_strings__release(&o.events);
	free(o.filters);
	o = (struct record_opts){ 0 };
	o.timestamp = true;
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
	const char **filters;    /* per event of list: its --filter, or NULL */
	size_t nr_filters;       /* filters[] covers the first nr_filters events */
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
		if (!o.filters[i])
			continue;
		/* perf's rule: a --filter goes to the last event of the -e before it */
		if (!r->list.nr || r->list.entries[r->list.nr - 1].attr.type != PERF_TYPE_TRACEPOINT)
			usage_error(&cmd_record, "--filter '%s': '%s' is not a tracepoint (filters are for tracepoints)",
				    o.filters[i], o.events.v[i]);
		r->filters = xrealloc(r->filters, r->list.nr * sizeof(*r->filters));
		for (size_t k = r->nr_filters; k < r->list.nr; k++)
			r->filters[k] = NULL;
		r->filters[r->list.nr - 1] = o.filters[i];
		r->nr_filters = r->list.nr;
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
	if (!o.quiet)
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

static void on_switch_signal(int sig)
{
	(void)sig;
	switch_requests++;
}

/* What the file of a recording starts with, again in each --switch-output file. */
struct target {
	pid_t *tids, *tgids, *pids;
	size_t nr_tids, nr_pids;
	pid_t workload;          /* a forked command, or -1 */
	bool system_wide;
	bool synth;              /* --synth=no: none of the records describing what already runs */
};

/* perf's output name suffix: local time to the hundredth of a second, "2026112715460836" */
static void timestamp_suffix(char *buf, size_t size)
{
	struct timespec ts;
	struct tm tm;

	clock_gettime(CLOCK_REALTIME, &ts);
	localtime_r(&ts.tv_sec, &tm);
	if (!strftime(buf, size, "%Y%m%d%H%M%S", &tm))
		buf[0] = 0;
	snprintf(buf + strlen(buf), size - strlen(buf), "%02d", (int)(ts.tv_nsec / 10000000) % 100);
}

/* The attrs with their ids, groups, command line, tracing data and the synthesized records of the targets. */
static void write_preamble(struct rec *r, const struct target *t)
{
	struct pms_record_synth out = { .w = r->w, .hits = r->hits };

	for (size_t e = 0; e < r->list.nr; e++) {
		size_t nids;
		const uint64_t *ids = pms_sampler__ids(r->smp, e, &nids);

		pms_data_writer__add_attr(r->w, &r->list.entries[e].attr, r->list.entries[e].name, ids, nids);
	}
	/* {a,b} groups, as perf describes them: report shows each as one view */
	for (size_t e = 0; e < r->list.nr; e++)
		if (r->list.entries[e].leader_idx == (int)e && r->list.entries[e].nr_members > 1 &&
		    pms_data_features__add_group(pms_data_writer__features(r->w), "{anon_group}", (uint32_t)e,
						 (uint32_t)r->list.entries[e].nr_members))
			die("out of memory");
	if (o.clockid) {
		struct timespec res = { 0, 1 };
		uint64_t res_ns;

		clock_getres(r->list.entries[0].attr.clockid, &res);
		res_ns = (uint64_t)res.tv_sec * 1000000000u + (uint64_t)res.tv_nsec;
		if (pms_data_features__set_raw(pms_data_writer__features(r->w), PMS_FEAT_CLOCKID, &res_ns, sizeof(res_ns)))
			die("out of memory");
		/* HEADER_CLOCK_DATA as perf writes it: version 1, the clock, then wall time and clock time read together */
		{
			struct {
				uint32_t version, clockid;
				uint64_t wall_ns, clock_ns;
			} cd = { .version = 1, .clockid = (uint32_t)r->list.entries[0].attr.clockid };
			struct timespec wall, clk;

			clock_gettime(CLOCK_REALTIME, &wall);
			clock_gettime(r->list.entries[0].attr.clockid, &clk);
			cd.wall_ns = (uint64_t)wall.tv_sec * 1000000000u + (uint64_t)wall.tv_nsec;
			cd.clock_ns = (uint64_t)clk.tv_sec * 1000000000u + (uint64_t)clk.tv_nsec;
			if (pms_data_features__set_raw(pms_data_writer__features(r->w), PMS_FEAT_CLOCK_DATA, &cd, sizeof(cd)))
				die("out of memory");
		}
	}
	record_cmdline(r);
	add_tracing_data(r);
	if (!t->synth) {
		keep_write_err(r, pms_data_writer__flush(r->w));
		return;
	}
	keep_write_err(r, pms_record_synth__kernel(&out));
	keep_write_err(r, pms_record_synth__modules(&out));
	if (t->nr_pids) {
		for (size_t k = 0; k < t->nr_pids; k++)
			keep_write_err(r, pms_record_synth__process(&out, t->pids[k], NULL, 0));
	} else if (t->nr_tids) {
		for (size_t i = 0; i < t->nr_tids; i++) {
			bool seen = false;

			for (size_t k = 0; k < i && !seen; k++)
				seen = t->tgids[k] == t->tgids[i];
			if (seen)
				continue;
			/* the listed threads of this process, then its maps */
			pid_t *mine = xcalloc(t->nr_tids, sizeof(*mine));
			size_t n = 0;

			for (size_t k = i; k < t->nr_tids; k++)
				if (t->tgids[k] == t->tgids[i])
					mine[n++] = t->tids[k];
			keep_write_err(r, pms_record_synth__process(&out, t->tgids[i], mine, n));
			free(mine);
		}
	} else if (t->system_wide) {
		keep_write_err(r, pms_record_synth__all(&out));
	} else if (t->workload > 0) {
		/* a later --switch-output file: the command runs already, describe it as perf does */
		keep_write_err(r, pms_record_synth__process(&out, t->workload, NULL, 0));
	}
	keep_write_err(r, pms_data_writer__flush(r->w));
}

/* --switch-output: the files made so far, oldest first, for --switch-max-files */
struct rotation {
	char **names;
	size_t nr;
};

/*
 * Finish the file being written: build-ids, header, the build-id cache;
 * then, with --switch-output or --timestamp-filename, give it perf's
 * timestamped name (and drop the oldest beyond --switch-max-files).
 * *final_name: the name the file has now (malloc()ed). 0 or -errno.
 */
static int finish_file(struct rec *r, const char *path, bool pipe_out, struct rotation *rot, char **final_name)
{
	struct pms_record_synth out = { .w = r->w, .hits = r->hits };
	int err;

	if (r->hits)
		keep_write_err(r, pms_record_synth__build_ids(&out, o.buildid_all));
	err = pms_data_writer__close(r->w);
	if (err || r->write_err)
		return err ? err : r->write_err;
	if (r->hits && !pipe_out && !o.no_cache)
		save_in_cache(&out);
	*final_name = xstrdup(path);
	if (pipe_out || (!o.switch_mode && !o.timestamp_filename))
		return 0;
	{
		char ts[32];
		size_t n = strlen(path) + sizeof(ts) + 2;
		char *name = xmalloc(n);

		timestamp_suffix(ts, sizeof(ts));
		snprintf(name, n, "%s.%s", path, ts);
		if (rename(path, name)) {
			err = -errno;
			free(name);
			return err;
		}
		free(*final_name);
		*final_name = name;
	}
	if (o.switch_mode) {
		rot->names = xrealloc(rot->names, (rot->nr + 1) * sizeof(*rot->names));
		rot->names[rot->nr++] = xstrdup(*final_name);
		if (o.switch_max_files > 0 && rot->nr > (size_t)o.switch_max_files) {
			/* perf's rule: the oldest file of this run goes */
			unlink(rot->names[0]);
			free(rot->names[0]);
			memmove(rot->names, rot->names + 1, --rot->nr * sizeof(*rot->names));
		}
	}
	return 0;
}

/* --switch-output: finish this file and carry on in a fresh one under the same name. */
static int switch_file(struct rec *r, const char *path, const struct target *t, struct rotation *rot)
{
	struct pms_data_writer_opts wo = { .sz = sizeof(wo), .compress_level = o.compress_level };
	char *name = NULL;
	int fd, err;

	drain_all(r);
	err = finish_file(r, path, false, rot, &name);
	pms_data_writer__free(r->w);
	r->w = NULL;
	pms_record_hits__free(r->hits);
	r->hits = NULL;
	if (err)
		return err;
	if (!o.quiet)
		fprintf(stderr, "[ pmuscope record: Dump %s ]\n", name);
	free(name);
	if (!o.no_buildid && !(r->hits = pms_record_hits__new()))
		die("out of memory");
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0)
		return -errno;
	if (o.compress_level)
		wo.buffer_bytes = 4u << 20;
	err = pms_data_writer__open_fd(&r->w, fd, &wo);
	if (err) {
		close(fd);
		return err;
	}
	write_preamble(r, t);
	return r->write_err;
}

/* -D ms: 0 for none; -1 and ranges are perf's control-fd and time-range modes, which we do not have */
static long parse_delay(void)
{
	char *end;
	long ms;

	if (!o.delay)
		return 0;
	errno = 0;
	ms = strtol(o.delay, &end, 10);
	if (!errno && end != o.delay && !*end && ms >= 0)
		return ms;
	if (!strcmp(o.delay, "-1"))
		usage_error(&cmd_record, "-D -1 (start disabled, enable with --control) is not supported: there is no --control");
	if (strchr(o.delay, '-'))
		usage_error(&cmd_record, "-D with time ranges ('%s') is not supported; give one delay in ms", o.delay);
	usage_error(&cmd_record, "bad -D value '%s': a delay in ms", o.delay);
}

/* -k: perf's clock names (and their short forms), or a number */
static int parse_clockid(const char *s)
{
	static const struct {
		const char *name;
		int id;
	} clocks[] = {
		{ "monotonic", CLOCK_MONOTONIC }, { "mono", CLOCK_MONOTONIC },
		{ "monotonic_raw", CLOCK_MONOTONIC_RAW }, { "raw", CLOCK_MONOTONIC_RAW },
		{ "realtime", CLOCK_REALTIME }, { "real", CLOCK_REALTIME },
		{ "boottime", CLOCK_BOOTTIME }, { "boot", CLOCK_BOOTTIME },
		{ "tai", CLOCK_TAI },
	};
	char *end;
	long id;

	for (size_t i = 0; i < sizeof(clocks) / sizeof(clocks[0]); i++)
		if (!strcasecmp(s, clocks[i].name) || (!strncasecmp(s, "CLOCK_", 6) && !strcasecmp(s + 6, clocks[i].name)))
			return clocks[i].id;
	errno = 0;
	id = strtol(s, &end, 10);
	if (errno || end == s || *end || id < 0 || id > 64)
		usage_error(&cmd_record, "unknown clock '%s': monotonic, monotonic_raw, realtime, boottime, tai or a number", s);
	return (int)id;
}

/* -u: a user name or uid */
static uid_t parse_uid(const char *s)
{
	struct passwd *pw = getpwnam(s);
	char *end;
	unsigned long uid;

	if (pw)
		return pw->pw_uid;
	errno = 0;
	uid = strtoul(s, &end, 10);
	if (errno || end == s || *end)
		usage_error(&cmd_record, "-u: no user '%s'", s);
	return (uid_t)uid;
}

/* Every sampling option on the attrs: the lib does it as perf's evsel__config() does. */
static void sampling_from_opts(struct pms_sampling_opts *so)
{
	so->no_time = !o.timestamp;
	so->sample_cpu = o.sample_cpu;
	so->sample_period = o.period_bit;
	so->sample_addr = o.data;
	so->phys_addr = o.phys_data;
	so->data_page_size = o.data_page_size;
	so->code_page_size = o.code_page_size;
	so->weight = o.weight;
	so->transaction = o.transaction;
	so->raw = o.raw;
	so->sample_identifier = o.sample_identifier;
	so->inherit_stat = o.stat;
	so->running_time = o.running_time;
	so->no_samples = o.no_samples;
	so->all_user = o.all_user;
	so->all_kernel = o.all_kernel;
	so->context_switch = o.switch_events;
	so->namespaces = o.namespaces;
	so->cgroup = o.all_cgroups;
	so->regs_user = o.user_regs;
	so->regs_intr = o.intr_regs;
	so->branch_sample_type = o.branch_filter;
	so->no_buffering = o.no_buffering;
	so->write_backward = o.overwrite;
	so->kernel_callchains_only = o.kernel_callchains && !o.user_callchains;
	so->user_callchains_only = o.user_callchains && !o.kernel_callchains;
	if (o.clockid) {
		so->use_clockid = true;
		so->clockid = parse_clockid(o.clockid);
	}
}

/* Why an event did not open, when an option asked for what only some PMUs have. */
static void hint_open_failure(const struct pms_evsel *e, int err)
{
	if (o.branch_filter && (err == -EOPNOTSUPP || err == -EINVAL || err == -ENOENT))
		hint("'%s' is %s: branch stacks come from hardware PMUs that record taken branches (Intel LBR, "
		     "AMD BRS on Zen 3 or LbrExtV2 on Zen 4, arm64 BRBE); sample a hardware event of such a PMU",
		     e->name, e->attr.type == PERF_TYPE_SOFTWARE || e->attr.type == PERF_TYPE_TRACEPOINT ?
		     "a software event" : "on a PMU without a branch stack");
	else if ((o.weight || o.transaction || o.phys_data || o.data_page_size || o.code_page_size) &&
		 (err == -EOPNOTSUPP || err == -EINVAL))
		hint("-W, --transaction, --phys-data and the page sizes need events that supply them "
		     "(precise memory events, e.g. Intel PEBS, AMD IBS)");
	else if (o.intr_regs_set && err == -EOPNOTSUPP)
		hint("-I: this PMU does not sample registers at the interrupt");
}

static int run(int argc, char **argv)
{
	struct rec r;
	struct pms_sampling_opts so = { 0 };
	struct pms_workload wl = { .pid = -1, .pidfd = -1, .go_fd = -1, .err_fd = -1 };
	struct pms_cpulist cpus = { 0 };
	struct pms_data_outfile of = { .fd = -1 };
	struct target tg = { .workload = -1, .synth = true };
	struct rotation rot = { 0 };
	const char *path;
	char *final_name = NULL;
	char **cmd_argv = NULL;
	unsigned pages;
	int first, err, ret = 0, freq = 0;
	sigset_t poll_mask;
	uint64_t deadline = 0, enable_at = 0, switch_at = 0, max_bytes = 0;
	long delay_ms;
	bool stopped_by_duration = false, stopped_by_size = false, enabled = false;
	bool pipe_out;

	first = opt_parse(&cmd_record, &argc, argv, OPT_STOP_AT_NON_OPTION);
	if (first < argc)
		cmd_argv = argv + first;
	/* -a / -C may go with a command (system-wide while it runs), as in perf */
	if ((cmd_argv != NULL) + (o.pid != NULL) + (o.tid != NULL) + (o.uid != NULL) > 1 ||
	    (!cmd_argv && !o.pid && !o.tid && !o.uid && !o.all && !o.cpu) ||
	    ((o.pid || o.tid || o.uid) && o.all))
		usage_error(&cmd_record, "give one target: a command, -a, -C <cpus>, -p <pid>, -t <tid> or -u <user>");
	if (o.freq) {
		char *end;
		long f;

		errno = 0;
		f = strtol(o.freq, &end, 10);
		if (!strcmp(o.freq, "max"))
			f = pms_knob__sysctl("perf_event_max_sample_rate");
		else if (errno || end == o.freq || *end)
			f = -1;
		if (f <= 0 || f > INT32_MAX)
			usage_error(&cmd_record, "-F wants a positive number of samples per second or 'max', not '%s'", o.freq);
		freq = (int)f;
	}
	if (freq && o.period)
		usage_error(&cmd_record, "-F and -c are exclusive, and -F must be positive");
	if (o.duration < 0)
		usage_error(&cmd_record, "--duration must not be negative");
	if (o.no_buildid && o.buildid_all)
		usage_error(&cmd_record, "-B and --buildid-all are exclusive");
	if (o.all_user && o.all_kernel)
		usage_error(&cmd_record, "--all-user and --all-kernel are exclusive");
	if (o.switch_max_files < 0)
		usage_error(&cmd_record, "--switch-max-files must not be negative");
	if (o.max_size && pms_units__parse_size_bytes(o.max_size, false, &max_bytes))
		usage_error(&cmd_record, "bad --max-size '%s': a size in bytes, or with B/K/M/G", o.max_size);
	if (o.synth) {
		if (!strcmp(o.synth, "no"))
			tg.synth = false;
		else if (strcmp(o.synth, "all") && strcmp(o.synth, "task") && strcmp(o.synth, "mmap") &&
			 strcmp(o.synth, "cgroup"))
			usage_error(&cmd_record, "bad --synth '%s': no, all, task, mmap or cgroup", o.synth);
	}
	if (o.mmap_flush) {
		uint64_t b;

		if (pms_units__parse_size_bytes(o.mmap_flush, false, &b))
			usage_error(&cmd_record, "bad --mmap-flush '%s': a size in bytes, or with B/K/M/G", o.mmap_flush);
	}
	if (o.affinity && strcmp(o.affinity, "node") && strcmp(o.affinity, "cpu"))
		usage_error(&cmd_record, "bad --affinity '%s': node or cpu", o.affinity);
	delay_ms = parse_delay();
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
		if (o.pid || o.tid || o.uid) {
			warning("-C is ignored with -p/-t/-u: a process is followed on every CPU (as in perf)");
			pms_cpulist__release(&cpus);
		}
	}
	if (o.mmap_pages) {
		bool rounded;
		char *main_part = xstrdup(o.mmap_pages), *aux = strchr(main_part, ',');
		unsigned aux_pages;

		/* pages,aux_pages: the AUX part sizes AUX areas, which pmuscope never maps (no AUX events) */
		if (aux) {
			*aux++ = 0;
			if (pms_mmap__parse_pages(aux, &aux_pages, &rounded))
				usage_error(&cmd_record, "bad -m AUX value '%s'", aux);
		}
		if (!*main_part)
			pms_mmap__default_pages(&pages);
		else if (pms_mmap__parse_pages(main_part, &pages, &rounded))
			usage_error(&cmd_record, "bad -m value '%s'", o.mmap_pages);
		else if (rounded)
			warning("rounding mmap pages size to %u pages", pages);
		free(main_part);
	} else {
		pms_mmap__default_pages(&pages);
	}
	if (o.dry_run)
		goto out_targets;
	if (o.pid || o.uid) {
		/* -p 12,34: every thread of each process; -u: every process of the user now (not us) */
		if (o.pid) {
			opt_parse_id_list(&cmd_record, "-p/--pid", o.pid, 1, &tg.pids, &tg.nr_pids);
		} else {
			uid_t uid = parse_uid(o.uid);
			pid_t *all = NULL;
			size_t n = 0;

			if (pms_processes__of_user(uid, &all, &n) || !n) {
				free(all);
				return error("user %s has no processes", o.uid), EXIT_RUNTIME;
			}
			tg.pids = xcalloc(n, sizeof(*tg.pids));
			for (size_t i = 0; i < n; i++)
				if (all[i] != getpid())
					tg.pids[tg.nr_pids++] = all[i];
			free(all);
		}
		for (size_t k = 0; k < tg.nr_pids; k++) {
			pid_t *t = NULL;
			size_t n = 0;

			if (pms_tasks__of_process(tg.pids[k], &t, &n)) {
				free(t);
				if (o.uid)
					continue; /* gone since it was listed */
				error("no such process: %d", (int)tg.pids[k]);
				ret = EXIT_RUNTIME;
				goto out_targets;
			}
			tg.tids = xrealloc(tg.tids, (tg.nr_tids + n) * sizeof(*tg.tids));
			tg.tgids = xrealloc(tg.tgids, (tg.nr_tids + n) * sizeof(*tg.tgids));
			for (size_t i = 0; i < n; i++) {
				tg.tids[tg.nr_tids] = t[i];
				tg.tgids[tg.nr_tids++] = tg.pids[k];
			}
			free(t);
		}
	}
	if (o.tid && parse_tids(o.tid, &tg.tids, &tg.tgids, &tg.nr_tids)) {
		ret = EXIT_RUNTIME;
		goto out_targets;
	}
	path = o.output ? o.output : "perf.data";
	pipe_out = !strcmp(path, "-");
	if (pipe_out && (o.switch_mode || o.timestamp_filename))
		usage_error(&cmd_record, "--switch-output and --timestamp-filename need a file, not -o -");

	if (freq > 0) {
		int max_hz = pms_knob__sysctl("perf_event_max_sample_rate");

		if (max_hz > 0 && freq > max_hz && o.strict_freq) {
			error("-F %d Hz is more than kernel.perf_event_max_sample_rate (%d Hz) and --strict-freq "
			      "forbids lowering it", freq, max_hz);
			ret = EXIT_RUNTIME;
			goto out_targets;
		}
		/* as perf: throttle to the kernel's limit with a warning, rather than fail the open (EINVAL) */
		if (max_hz > 0 && freq > max_hz) {
			warning("-F %d Hz is more than kernel.perf_event_max_sample_rate (%d Hz): sampling at %d Hz, as perf "
				"does. Raise the limit in /proc/sys/kernel/perf_event_max_sample_rate (the kernel lowers "
				"it again when sampling interrupts take too long)", freq, max_hz, max_hz);
			freq = max_hz;
		}
	}
	so.period = o.period;
	so.freq = (uint64_t)freq;
	so.system_wide = o.all || (o.cpu && !o.pid && !o.tid && !o.uid);
	tg.system_wide = so.system_wide;
	/* -D: the events are enabled by us after the delay, not by the kernel at exec */
	so.enable_on_exec = cmd_argv && !so.system_wide && !delay_ms;
	/* -t samples only the threads named, as perf's -t does */
	so.inherit = !so.system_wide && !o.no_inherit && !o.tid;
	sampling_from_opts(&so);
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
		struct pms_data_writer_opts wo = { .sz = sizeof(wo), .compress_level = o.compress_level };

		/* zstd compresses a flush at a time: bigger chunks compress better (dwarf: 1.4x) */
		if (o.compress_level)
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
				ret = EXIT_RUNTIME;
				if (err == -ENOTEMPTY)
					error("cannot keep %s as %s.old: that is a directory; move it away", path, path);
				else
					error("cannot create %s: %s", path, strerror(-err));
				goto out_targets;
			}
			err = pms_data_writer__open_fd(&r.w, of.fd, &wo);
		}
		if (err) {
			pms_record_hits__free(r.hits);
			pms_data_outfile__release(&of);
			ret = EXIT_RUNTIME;
			if (err == -EOPNOTSUPP)
				error("-z: this build has no zstd support");
			else
				error("cannot create %s: %s", path, strerror(-err));
			goto out_targets;
		}
	}
	if (cmd_argv && (err = stop_signals__fork_workload(&wl, cmd_argv, pipe_out))) {
		error("cannot start '%s': %s", cmd_argv[0], strerror(-err));
		pms_data_writer__free(r.w);
		pms_data_outfile__release(&of);
		pms_record_hits__free(r.hits);
		ret = EXIT_RUNTIME;
		goto out_targets;
	}
	/* after the fork (the command keeps its SIGPIPE), before the first write:
	 * a closed -o - pipe is a write error, not a silent death */
	signal(SIGPIPE, SIG_IGN);
	if (o.realtime) {
		/* after the fork: the command keeps its own scheduling, as with perf */
		struct sched_param sp = { .sched_priority = o.realtime };

		if (sched_setscheduler(0, SCHED_FIFO, &sp))
			warning("-r %d: cannot run at SCHED_FIFO priority %d: %s", o.realtime, o.realtime, strerror(errno));
	}

	/* open: per CPU, per event, per thread (-p/-t/-u) or pid target */
	{
		size_t nthr = tg.nr_tids ? tg.nr_tids : 1;
		pid_t *threads = xcalloc(nthr, sizeof(*threads));
		struct pms_sampler_error serr;

		for (size_t t = 0; t < nthr; t++)
			threads[t] = so.system_wide ? -1 : tg.nr_tids ? tg.tids[t] : wl.pid;
		err = pms_sampler__open(&r.list, cpus.cpus, cpus.nr, threads, nthr, pages, &r.smp, &serr);
		free(threads);
		if (err == -ENOMEM && !serr.msg[0])
			die("out of memory");
		if (err) {
			if (serr.step == PMS_SAMPLER_E_GONE)
				error("every thread of the target exited before recording started");
			else if (o.branch_filter && serr.event >= 0 && err == -EOPNOTSUPP)
				/* the kernel's EOPNOTSUPP for branch_sample_type: no branch stack behind this event */
				error("cannot open event '%s' with -b/-j: the kernel refuses branch stack sampling for it "
				      "(EOPNOTSUPP)", r.list.entries[serr.event].name);
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
			if (serr.event >= 0 && serr.step != PMS_SAMPLER_E_GONE && serr.step != PMS_SAMPLER_E_MAP)
				hint_open_failure(&r.list.entries[serr.event], err);
			ret = EXIT_RUNTIME;
			goto out;
		}
	}
	for (size_t e = 0; e < r.nr_filters; e++) {
		if (!r.filters[e])
			continue;
		err = pms_sampler__set_filter(r.smp, e, r.filters[e]);
		if (err) {
			error("cannot set --filter '%s' on '%s': %s", r.filters[e], r.list.entries[e].name, strerror(-err));
			if (err == -EINVAL)
				hint("the kernel's filter syntax: FIELD OP VALUE joined by && and ||, with the fields of the "
				     "tracepoint's format file (tracefs events/SYSTEM/NAME/format), e.g. 'prev_pid == 0'");
			ret = EXIT_RUNTIME;
			goto out;
		}
	}
	if (cmd_argv)
		tg.workload = wl.pid;
	{
		/* the first file describes what runs before the recording; a command is described by the kernel */
		pid_t wl_pid = tg.workload;

		tg.workload = -1;
		write_preamble(&r, &tg);
		tg.workload = wl_pid;
	}

	stop_signals__install(on_signal);
	install_sigchld(&poll_mask);
	if (o.switch_mode == SWITCH_SIGNAL) {
		struct sigaction sa;

		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = on_switch_signal;
		sigemptyset(&sa.sa_mask);
		sigaction(SIGUSR2, &sa, NULL);
	}
	if (!so.enable_on_exec && !delay_ms) {
		pms_sampler__enable(r.smp);
		enabled = true;
	}
	if (cmd_argv) {
		err = pms_workload__start(&wl);
		if (err) {
			error("cannot run '%s': %s", cmd_argv[0], strerror(-err));
			stop_signals__reap_workload(&wl, true);
			ret = err == -ENOENT ? EXIT_NOTFOUND : EXIT_NOEXEC;
			goto out;
		}
	}
	if (delay_ms)
		enable_at = pms_clock__monotonic_ns() + (uint64_t)delay_ms * 1000000u;
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
	if (o.switch_mode == SWITCH_TIME)
		switch_at = pms_clock__monotonic_ns() + o.switch_s * 1000000000u;

	for (;;) {
		int timeout = 100;
		uint64_t now = pms_clock__monotonic_ns();

		if (stop_requests && !cmd_argv)
			break;
		if (r.write_err) {
			/* disk full, or the reader of -o - went away: stop, say why below */
			if (cmd_argv && !wl.exited)
				kill(wl.pid, SIGTERM);
			break;
		}
		if (tg.nr_tids && !targets_alive(tg.tgids, tg.tids, tg.nr_tids))
			break;
		if (cmd_argv) {
			stop_signals__reap_workload(&wl, false);
			if (wl.exited)
				break;
		}
		if (max_bytes && pms_data_writer__data_bytes(r.w) >= max_bytes) {
			note("--max-size: %s reached %llu KB; stopping", path,
			     (unsigned long long)(pms_data_writer__data_bytes(r.w) >> 10));
			if (cmd_argv && !wl.exited)
				kill(wl.pid, SIGTERM);
			stopped_by_size = true;
			break;
		}
		if (enable_at && !enabled) {
			if (now >= enable_at) {
				/* the command's exec went unrecorded (events off): describe it as it is now */
				if (cmd_argv && !so.system_wide) {
					struct pms_record_synth out = { .w = r.w, .hits = r.hits };

					keep_write_err(&r, pms_record_synth__process(&out, wl.pid, NULL, 0));
				}
				pms_sampler__enable(r.smp);
				enabled = true;
			} else if ((enable_at - now) / 1000000 < (uint64_t)timeout) {
				timeout = (int)((enable_at - now) / 1000000) + 1;
			}
		}
		if ((o.switch_mode == SWITCH_SIGNAL && switch_requests) ||
		    (o.switch_mode == SWITCH_SIZE && pms_data_writer__data_bytes(r.w) >= o.switch_bytes) ||
		    (switch_at && now >= switch_at)) {
			switch_requests = 0;
			err = switch_file(&r, path, &tg, &rot);
			if (err) {
				error("--switch-output: cannot start a new %s: %s", path, strerror(-err));
				if (cmd_argv && !wl.exited)
					kill(wl.pid, SIGTERM);
				ret = EXIT_RUNTIME;
				goto out;
			}
			if (switch_at)
				switch_at = pms_clock__monotonic_ns() + o.switch_s * 1000000000u;
		}
		if (switch_at) {
			uint64_t t2 = pms_clock__monotonic_ns();

			if (switch_at > t2 && (switch_at - t2) / 1000000 < (uint64_t)timeout)
				timeout = (int)((switch_at - t2) / 1000000) + 1;
		}
		if (deadline) {
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
		/* --overwrite: the rings keep the newest records; they are read at the end or a switch */
		if (!o.overwrite)
			drain_all(&r);
	}
	pms_sampler__disable(r.smp);
	if (cmd_argv) {
		stop_signals__reap_workload(&wl, true);
		ret = pms_workload__exit_code(&wl);
		if (ret < 0)
			ret = EXIT_RUNTIME;
		/* stopping it was what --duration or --max-size asked for: not a failure (as perf stat --timeout) */
		if ((stopped_by_duration || stopped_by_size) && ret == 128 + SIGTERM) {
			if (stopped_by_duration)
				note("--duration: stopped '%s' after %g s, as asked", cmd_argv[0], o.duration);
			ret = 0;
		}
	}
	/* --max-size: what the rings still hold would only make the file bigger */
	if (!stopped_by_size)
		drain_all(&r);
	err = finish_file(&r, path, pipe_out, &rot, &final_name);
	if (err) {
		error("cannot write %s: %s", path, strerror(-err));
		ret = EXIT_RUNTIME;
	} else {
		print_summary(&r, final_name);
		if (so.cg.mode == PMS_CALL_GRAPH_FP && !pipe_out && pms_sampler__stats(r.smp)->nr_samples)
			check_chains(final_name);
	}
	if (r.hits && pms_record_hits__incomplete(r.hits))
		warning("out of memory while tracking sampled objects: some build-ids are missing");
out:
	if (cmd_argv && !wl.exited && wl.pid > 0 && ret)
		stop_signals__abort_workload(&wl);
	pms_workload__release(&wl);
	pms_sampler__free(r.smp); /* closes every event */
	pms_record_hits__free(r.hits);
	pms_data_writer__free(r.w);
	/* a recording that never started leaves no trace but its message */
	pms_data_outfile__release(&of);
	pms_evlist__release(&r.list);
	free(r.filters);
out_targets:
	free(final_name);
	for (size_t i = 0; i < rot.nr; i++)
		free(rot.names[i]);
	free(rot.names);
	free(tg.tids);
	free(tg.tgids);
	free(tg.pids);
	pms_cpulist__release(&cpus);
	return ret;
}

PMS_COMMAND(record, "record",
	    "sample a command, processes or all CPUs into perf.data",
	    "pmuscope record [<options>] [-a | -C <cpus> | -p <pid> | -t <tid> | -u <user> | [--] <command> [<args>]]");
