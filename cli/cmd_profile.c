// SPDX-License-Identifier: MIT
// `pmuscope profile`: sample stacks in the kernel with BPF (counted per thread and stack there, or streamed sample by sample), or time threads off the CPU by the stacks where they blocked; snapshot each new process's mappings while it lives, then print a report table, folded stacks, a flame graph or pprof, with every lost or truncated stack accounted for.
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>

#include "cmd.h"
#include "output.h"
#include "event/callgraph.h"
#include "report_print.h"
#include "stop_signals.h"
#include "util/clock.h"
#include "util/time_range.h"
#include "aggregate/chaincheck.h"
#include "aggregate/stacks.h"
#include "bpf/profile.h"
#include "export/export.h"
#ifndef PMS_NO_HOST_LIBS
#include "live/profiler.h"
#endif
#include "util/cpulist.h"
#include "util/strbuf.h"

/* Every option's value: reset_opts() sets them all back to the defaults. */
static struct profile_opts {
	int freq;
	bool all, user, kernel, idle, folded, stream, off_cpu;
	const char *pid, *tid, *cpu, *output, *format, *min_block, *max_block, *call_graph;
	double duration, interval;
	int top;
	uint64_t map_entries;
} o;

static const struct opt opts[] = {
	OPT_INT('F', "freq", &o.freq, "<hz>", "samples per second per CPU (default 99)"),
	OPT_BOOL('a', "all-cpus", &o.all, "every process on every CPU (the default)"),
	OPT_STRING('p', "pid", &o.pid, "<pids>", "only these processes (comma-separated), until they all exit"),
	OPT_STRING('t', "tid", &o.tid, "<tids>", "only these threads (comma-separated)"),
	OPT_STRING('C', "cpu", &o.cpu, "<cpus>", "only these CPUs (e.g. 0,2-3)"),
	OPT_DOUBLE(0, "duration", &o.duration, "<s>", "stop after this many seconds (default: at Ctrl-C)"),
	OPT_DOUBLE(0, "interval", &o.interval, "<s>", "print and clear the counts every s seconds"),
	OPT_BOOL('U', "user", &o.user, "user stacks only"),
	OPT_BOOL('K', "kernel", &o.kernel, "kernel stacks only"),
	OPT_BOOL(0, "include-idle", &o.idle, "keep samples of the idle task"),
	OPT_BOOL(0, "folded", &o.folded, "print folded stacks (comm;outer;...;leaf count) instead of the table"),
	OPT_STRING('o', "output", &o.output, "<file>", "write the profile to a file (format from --format)"),
	OPT_STRING_HELP_FN('f', "format", &o.format, "<fmt>", output__format_help),
	OPT_INT(0, "top", &o.top, "<n>", "rows of the table (default 30)"),
	OPT_U64(0, "map-entries", &o.map_entries, "<n>", "counts map size (default: from -F x CPUs x duration)"),
	OPT_BOOL(0, "stream", &o.stream, "send every sample through the BPF ring buffer (done by itself when the maps fill)"),
	OPT_STRING(0, "call-graph", &o.call_graph, "<fp|dwarf[,size]>",
		   "user stacks by frame pointers (default) or by DWARF CFI from a copy of the stack (streamed; size 256..16384, default 8192)"),
	OPT_BOOL(0, "off-cpu", &o.off_cpu, "time blocked, by the stacks where threads went to sleep (sched_switch)"),
	OPT_STRING(0, "min-block", &o.min_block, "<time>", "--off-cpu: leave out shorter blocks (e.g. 100us, 1ms; bare = us)"),
	OPT_STRING(0, "max-block", &o.max_block, "<time>", "--off-cpu: leave out longer blocks"),
	OPT_END(),
};

static void reset_opts(void)
{
	o = (struct profile_opts){ 0 };
}

#ifdef PMS_NO_HOST_LIBS
static int run(int argc, char **argv)
{
	opt_parse(&cmd_profile, &argc, argv, 0);
	return error("profile is not available in this build (it needs libbpf; built with HOST_LIBS=0)"), EXIT_RUNTIME;
}
#else


/* Seconds: profile's durations and intervals are given in seconds. */
static double now_s(void)
{
	return (double)pms_clock__monotonic_ns() / 1e9;
}

/* ------------------------------------------------------- output -- */

static int cmp_rows(const void *a, const void *b, void *by_time)
{
	const struct pms_stacks_function *x = a, *y = b;
	bool rows_by_time = *(const bool *)by_time;
	uint64_t xt = rows_by_time ? x->total_period : x->total_samples, yt = rows_by_time ? y->total_period : y->total_samples;
	uint64_t xs = rows_by_time ? x->self_period : x->self_samples, ys = rows_by_time ? y->self_period : y->self_samples;

	if (xt != yt)
		return xt < yt ? 1 : -1;
	if (xs != ys)
		return xs < ys ? 1 : -1;
	return x->frame < y->frame ? -1 : x->frame > y->frame;
}

/*
 * perf report's children/self table over functions: a recursive function counts once per stack.
 * by_time: weights are nanoseconds off the CPU, shown beside the shares.
 */
static void print_table(FILE *f, const struct pms_stacks *st, int top, bool by_time)
{
	size_t nr_nodes, nr_frames, nr_rows = 0;
	const struct pms_stack_node *nodes = pms_stacks__nodes(st, &nr_nodes);
	const struct pms_stack_frame *frames = pms_stacks__frames(st, &nr_frames);
	struct pms_stacks_function *rows;
	uint64_t total = nr_nodes ? (by_time ? nodes[0].total_period : nodes[0].total_samples) : 0;

	if (pms_stacks__functions(st, &rows, &nr_rows))
		die("out of memory");
	qsort_r(rows, nr_rows, sizeof(*rows), cmp_rows, &by_time);
	fprintf(f, "# Children      Self  %sShared Object         Symbol\n", by_time ? "  Total time  " : "");
	fprintf(f, "# ........  ........  %s....................  ......\n", by_time ? "............  " : "");
	for (size_t i = 0; i < nr_rows && (int)i < top; i++) {
		const struct pms_stack_frame *fr = &frames[rows[i].frame];
		const char *dso = fr->dso ? report_dso_short(fr->dso) : "[unknown]";
		uint64_t tot = by_time ? rows[i].total_period : rows[i].total_samples;
		uint64_t self = by_time ? rows[i].self_period : rows[i].self_samples;

		fprintf(f, "  %7.2f%%  %7.2f%%  ", 100.0 * (double)tot / (double)total, 100.0 * (double)self / (double)total);
		if (by_time) {
			struct strbuf tb = STRBUF_INIT;

			strbuf_add_duration_ns(&tb, rows[i].total_period);
			fprintf(f, "%12s  ", strbuf_str(&tb));
			strbuf_release(&tb);
		}
		fprintf(f, "%-20s  [%c] %s\n", dso, fr->kind == PMS_STACK_KERNEL ? 'k' : '.', fr->name);
	}
	free(rows);
}

static int emit(struct pms_stacks *st, const char *event, double secs, size_t nr_cpus, unsigned int freq)
{
	enum pms_export_weight weight = o.off_cpu ? PMS_WEIGHT_PERIOD : PMS_WEIGHT_SAMPLES;
	struct strbuf sb = STRBUF_INIT;
	const struct pms_stack_node *nodes;
	size_t nr_nodes;
	int err = 0;

	{
		struct pms_stacks_meta m = *pms_stacks__meta(st);
		struct timespec ts;

		m.event = event;
		m.period_unit = "nanoseconds";
		if (o.off_cpu) {
			m.sample_noun = "blocks";
			m.period_noun = "off-CPU time";
		}
		if (!clock_gettime(CLOCK_REALTIME, &ts))
			m.start_wall_ns = (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec -
					  (uint64_t)(secs * 1e9);
		if (pms_stacks__set_meta(st, &m))
			die("out of memory");
	}
	pms_stacks__sort(st, PMS_STACKS_BY_NAME);
	nodes = pms_stacks__nodes(st, &nr_nodes);
	if (o.output) {
		const struct pms_exporter *ex = output__format(&cmd_profile, o.format);
		struct pms_export_opts eo = {
			.sz = sizeof(eo), .weight = weight,
			.title = o.off_cpu ? "pmuscope profile --off-cpu" : "pmuscope profile",
		};
		const char *fmt = ex->name;

		err = ex->write(st, &eo, &sb);
		if (err == -ENOMEM)
			die("out of memory");
		if (!err && output__write(o.output, &sb))
			err = -EIO;
		else if (err)
			error("%s export failed: %s", fmt, strerror(-err));
		else if (strcmp(o.output, "-"))
			note("wrote %s (%s, %zu bytes)", o.output, fmt, sb.len);
		strbuf_release(&sb);
		if (err)
			return -1;
	}
	if (o.folded) {
		err = pms_export__folded(st, weight, &sb);
		if (err)
			die("out of memory");
		fwrite(sb.buf, 1, sb.len, stdout);
		strbuf_release(&sb);
		return 0;
	}
	pms_stacks__sort(st, PMS_STACKS_BY_WEIGHT);
	if (o.off_cpu) {
		struct strbuf tb = STRBUF_INIT;

		strbuf_add_duration_ns(&tb, nr_nodes ? nodes[0].total_period : 0);
		printf("# Off-CPU time: %s in %" PRIu64 " blocks of threads that slept or waited (%.2f s)\n#\n",
		       strbuf_str(&tb), nr_nodes ? nodes[0].total_samples : 0, secs);
		strbuf_release(&tb);
	} else {
		printf("# Samples: %" PRIu64 " of event '%s' (%u Hz, %zu CPUs, %.2f s)\n#\n",
		       nr_nodes ? nodes[0].total_samples : 0, event, freq, nr_cpus, secs);
	}
	print_table(stdout, st, o.top > 0 ? o.top : 30, o.off_cpu);
	fflush(stdout);
	return 0;
}

static void print_stats(struct pms_profiler *pr, bool dwarf)
{
	struct pms_profile *p = pms_profiler__sampler(pr);
	const struct pms_profiler_counts *c = pms_profiler__counts(pr);
	const struct pms_live_syms_stats *sy = pms_profiler__syms_stats(pr);
	struct pms_profile_stats s;
	const uint64_t *v = s.v;
	uint64_t ulost, klost;

	if (pms_profile__stats(p, &s)) {
		warning("cannot read the drop counters");
		return;
	}
	ulost = pms_profile_stats__user_lost(&s);
	klost = pms_profile_stats__kernel_lost(&s);
	fprintf(stderr,
		"profile: %" PRIu64 " %s, %" PRIu64 " distinct stacks (map %u), %" PRIu64
		" keys (map %u, read early %" PRIu64 " times to keep room), %" PRIu64 " idle %s left out\n",
		v[PF_STAT_SAMPLES], o.off_cpu ? "blocks" : "samples", s.nr_stacks, s.max_stacks,
		v[PF_STAT_KEYS_CREATED], s.max_counts, c->drains, v[PF_STAT_IDLE], o.off_cpu ? "switches" : "samples");
	if (dwarf)
		fprintf(stderr, "profile: DWARF unwinding: %" PRIu64 " samples unwound, %" PRIu64
			" failed (no CFI or mappings for the sampled code: shown as [user stack lost])\n",
			c->unwound, c->unwind_failed);
	if (o.off_cpu)
		fprintf(stderr,
			"profile: blocks left out: shorter than --min-block %" PRIu64 ", longer than --max-block %" PRIu64
			", not timed (start map full) %" PRIu64 "\n",
			v[PF_STAT_BLOCK_SHORT], v[PF_STAT_BLOCK_LONG], v[PF_STAT_BLOCK_START_FULL]);
	else
		fprintf(stderr,
			"profile: streamed through the ring buffer: %" PRIu64 " samples%s (moved there: stacks map full %"
			PRIu64 ", counts map full %" PRIu64 ", collision %" PRIu64 ", allocator empty %" PRIu64
			"); dropped (ring buffer full): %" PRIu64 "\n",
			v[PF_STAT_STREAMED], o.stream ? " (--stream)" : dwarf ? " (--call-graph dwarf)"
					     : pms_profile__streaming(p) ? " (switched: maps full)" : "",
			v[PF_STAT_SWITCH_STACKS_FULL], v[PF_STAT_SWITCH_COUNTS_FULL], v[PF_STAT_SWITCH_COLLISION],
			v[PF_STAT_STREAM_NOMEM], v[PF_STAT_STREAM_LOST]);
	fprintf(stderr,
		"profile: user stacks lost: %" PRIu64 " of %" PRIu64 " expected (%.2f%%): fault %" PRIu64
		", empty %" PRIu64 ", stack map full %" PRIu64 ", allocator empty %" PRIu64 ", collision %" PRIu64
		", sample dropped (counts map full) %" PRIu64 ", sample dropped (ring buffer full) %" PRIu64 "\n",
		ulost, v[PF_STAT_USER_EXPECTED],
		v[PF_STAT_USER_EXPECTED] ? 100.0 * (double)ulost / (double)v[PF_STAT_USER_EXPECTED] : 0.0,
		v[PF_STAT_USER_FAULT], v[PF_STAT_USER_EMPTY], v[PF_STAT_USER_MAP_FULL], v[PF_STAT_USER_NOMEM],
		v[PF_STAT_USER_COLLISION], v[PF_STAT_COUNTS_FULL_USER], v[PF_STAT_STREAM_LOST_USER]);
	fprintf(stderr,
		"profile: kernel stacks lost: %" PRIu64 ": fault %" PRIu64 ", stack map full %" PRIu64
		", allocator empty %" PRIu64 ", collision %" PRIu64 "; %s dropped (counts map full): %" PRIu64
		", (ring buffer full): %" PRIu64 "\n",
		klost, v[PF_STAT_KERNEL_FAULT], v[PF_STAT_KERNEL_MAP_FULL], v[PF_STAT_KERNEL_NOMEM],
		v[PF_STAT_KERNEL_COLLISION], o.off_cpu ? "blocks" : "samples",
		v[PF_STAT_COUNTS_FULL], v[PF_STAT_STREAM_LOST]);
	fprintf(stderr,
		"profile: truncated at %d frames (kept, outer callers missing): user %" PRIu64 ", kernel %" PRIu64
		"; stacks cleared to make room before their samples were read: %" PRIu64 "\n",
		PF_MAX_FRAMES, v[PF_STAT_USER_TRUNC], v[PF_STAT_KERNEL_TRUNC], c->evicted);
	fprintf(stderr,
		"profile: processes: %" PRIu64 " mappings snapshots at first sample (%" PRIu64
		" in another mount namespace or root: files opened through /proc/PID/root), %" PRIu64
		" read late, %" PRIu64 " missed (exited first); not announced: tasks map full %" PRIu64
		", ring full %" PRIu64 "\n",
		sy->snapshots, sy->foreign, sy->late, sy->missed, v[PF_STAT_TASKS_FULL], v[PF_STAT_RINGBUF_FULL]);
	{
		struct pms_chaincheck_result cc;

		pms_profiler__chains(pr, &cc);
		report_print_chain_check(stderr, "profile: ", &cc);
	}
}

static bool any_alive(const pid_t *pids, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!kill(pids[i], 0) || errno != ESRCH)
			return true;
	return false;
}

/* An empty profile of an idle machine: the idle task's samples were left out, as asked by default. */
static void say_why_empty(struct pms_profile *p, bool pids)
{
	struct pms_profile_stats s;

	if (pms_profile__stats(p, &s))
		return;
	if (s.v[PF_STAT_IDLE])
		hint("the CPUs were idle: %" PRIu64 " sample%s of the idle task were left out; profile a busy "
		     "process with -p PID or a longer --duration, or keep idle time with --include-idle",
		     s.v[PF_STAT_IDLE], s.v[PF_STAT_IDLE] == 1 ? "" : "s");
	else if (!pids)
		hint("no sample was taken at all: is cpu-clock sampling allowed here (kernel.perf_event_paranoid)?");
}

static int run(int argc, char **argv)
{
	struct pms_profile_opts po = { .sz = sizeof(po) };
	struct pms_cpulist cpus = { 0 };
	struct pms_profiler *pr = NULL;
	struct pms_profile *p;
	enum pms_profile_fail fail;
	pid_t *pids = NULL;
	struct pms_profile_stats ps;
	double t0, t_iv, next_iv;
	int pos, err, ret = 0;

	pos = opt_parse(&cmd_profile, &argc, argv, 0);
	if (pos < argc)
		usage_error(&cmd_profile, "unexpected argument '%s' (profile takes no command: use -p PID or -a)", argv[pos]);
	if (o.freq < 0 || o.freq > 100000)
		usage_error(&cmd_profile, "-F: want 1..100000 samples per second, not %d", o.freq);
	if (o.duration < 0 || o.interval < 0)
		usage_error(&cmd_profile, "--duration and --interval want a positive number of seconds");
	if (o.pid && o.tid)
		usage_error(&cmd_profile, "-p and -t cannot be combined");
	if ((o.pid || o.tid) && o.all)
		usage_error(&cmd_profile, "-a samples every process: leave it out with -p or -t");
	if (o.user && o.kernel)
		usage_error(&cmd_profile, "-U and -K cannot be combined (leave both out for both stacks)");
	if (o.format && !o.output)
		usage_error(&cmd_profile, "--format goes with -o <file>");
	output__format(&cmd_profile, o.format);
	if (o.interval && o.output)
		usage_error(&cmd_profile, "--interval prints each interval: -o is for one whole profile");
	if (o.map_entries && o.map_entries > (1u << 24))
		usage_error(&cmd_profile, "--map-entries: at most %u", 1u << 24);
	if (o.call_graph) {
		struct pms_call_graph cg;

		/* below 256 bytes a copy rarely holds one frame of the caller */
		opt_parse_call_graph(&cmd_profile, o.call_graph, 256, PF_DWARF_MAX_STACK, &cg);
		po.dwarf_stack_bytes = cg.stack_bytes;
#ifndef __x86_64__
		if (cg.mode == PMS_CALL_GRAPH_DWARF)
			usage_error(&cmd_profile, "--call-graph dwarf: profile copies x86-64 registers only");
#endif
		if (po.dwarf_stack_bytes && o.off_cpu)
			usage_error(&cmd_profile, "--call-graph dwarf does not go with --off-cpu (stacks are taken at every switch)");
		if (po.dwarf_stack_bytes && o.kernel)
			usage_error(&cmd_profile, "--call-graph dwarf unwinds user stacks: leave out -K");
	}
	if (o.off_cpu && o.stream)
		usage_error(&cmd_profile, "--stream is for sampling: --off-cpu adds up blocked time in the kernel");
	if (o.off_cpu && o.cpu)
		usage_error(&cmd_profile, "-C does not go with --off-cpu (a blocked thread may wake on any CPU): use -p or -t");
	if (o.off_cpu && o.freq)
		usage_error(&cmd_profile, "-F does not go with --off-cpu (every block is timed, nothing is sampled)");
	if (o.off_cpu && o.idle)
		usage_error(&cmd_profile, "--include-idle does not go with --off-cpu (the idle task never blocks)");
	if ((o.min_block || o.max_block) && !o.off_cpu)
		usage_error(&cmd_profile, "--min-block and --max-block go with --off-cpu");
	if (o.min_block && pms_duration__parse_ns(o.min_block, &po.min_block_ns))
		usage_error(&cmd_profile, "--min-block: want a time such as 100us, 2ms or 1s (a bare number is us), not '%s'",
			    o.min_block);
	if (o.max_block && (pms_duration__parse_ns(o.max_block, &po.max_block_ns) || !po.max_block_ns))
		usage_error(&cmd_profile, "--max-block: want a time above 0 such as 100us, 2ms or 1s (a bare number is us), not '%s'",
			    o.max_block);
	if (po.max_block_ns && po.min_block_ns > po.max_block_ns)
		usage_error(&cmd_profile, "--min-block %s is longer than --max-block %s", o.min_block, o.max_block);
	if (o.cpu) {
		size_t bad = 0;

		if (pms_cpulist__parse(o.cpu, &cpus, &bad) || !cpus.nr)
			usage_error(&cmd_profile, "-C: bad CPU list '%s'", o.cpu);
		po.cpus = cpus.cpus;
		po.nr_cpus = cpus.nr;
	}
	if (o.pid)
		opt_parse_id_list(&cmd_profile, "-p/--pid", o.pid, 1, &pids, &po.nr_pids);
	else if (o.tid)
		opt_parse_id_list(&cmd_profile, "-t/--tid", o.tid, 1, &pids, &po.nr_pids);
	for (size_t i = 0; i < po.nr_pids; i++)
		if (kill(pids[i], 0) && errno == ESRCH) {
			error("no process or thread %d", (int)pids[i]);
			ret = EXIT_RUNTIME;
			goto out;
		}
	po.pids = pids;
	po.threads = o.tid != NULL;
	po.freq = o.freq ? (unsigned int)o.freq : 99;
	po.user = o.user;
	po.kernel = o.kernel;
	po.include_idle = o.idle;
	po.try_hardware = true;
	po.stream = o.stream;
	po.off_cpu = o.off_cpu;
	po.duration_s = o.interval ? o.interval : o.duration;
	if (o.map_entries) {
		po.max_counts = (uint32_t)o.map_entries;
		po.max_stacks = (uint32_t)o.map_entries * 2;
	}

	stop_signals__install_flag();
	err = pms_profiler__start(&po, PMS_STACKS_ROOT_COMM, &pr, &fail);
	if (err) {
		char why[256];

		error("%s", pms_profile_fail__describe(fail, err, why, sizeof(why)));
		ret = EXIT_RUNTIME;
		goto out;
	}
	p = pms_profiler__sampler(pr);
	/* the summary says which objects cut the call chains short */
	pms_profiler__check_chains(pr, true);
	if (!o.off_cpu && strcmp(pms_profile__event(p), "cycles"))
		note("no hardware cycles counter here: sampling cpu-clock at %u Hz", po.freq);
	{
		bool per_task;
		size_t nev = pms_profile__nr_events(p, &per_task);

		const char *who = o.pid ? "the processes" : o.tid ? "the threads" : "every process";

		if (o.off_cpu)
			note("timing %s off the CPU (sched_switch)%s", who, o.duration ? "" : "; Ctrl-C to stop");
		else
			note("profiling %s at %u Hz (%zu event%s, one per %s)%s%s", who, po.freq, nev, nev == 1 ? "" : "s",
			     per_task ? "thread" : "CPU",
			     po.dwarf_stack_bytes ? ", every sample streamed with its user stack for DWARF unwinding"
			     : o.stream ? ", every sample streamed" : "",
			     o.duration ? "" : "; Ctrl-C to stop");
	}

	t0 = t_iv = now_s();
	next_iv = t0 + o.interval;
	while (!stop_signals__requested) {
		double t = now_s();
		int timeout = 100;

		if (o.duration && t - t0 >= o.duration)
			break;
		if (o.duration && (o.duration - (t - t0)) * 1000 < timeout)
			timeout = (int)((o.duration - (t - t0)) * 1000) + 1;
		err = pms_profiler__poll(pr, timeout);
		if (err == -ENOMEM)
			die("out of memory");
		if (err < 0 && err != -EINTR) {
			error("reading the BPF ring buffer: %s", strerror(-err));
			ret = EXIT_RUNTIME;
			break;
		}
		if (pms_profiler__just_switched(pr) && !pms_profile__stats(p, &ps))
			note("after %.1f s the in-kernel maps are full (%u stacks, %u keys): every sample now goes "
			     "through the ring buffer, as with --stream", now_s() - t0, ps.max_stacks, ps.max_counts);
		if (po.nr_pids && !any_alive(pids, po.nr_pids))
			break;
		if (o.interval && now_s() >= next_iv) {
			struct pms_stacks *st;

			err = pms_profiler__cut(pr, &st);
			if (err == -ENOMEM)
				die("out of memory");
			if (err)
				warning("reading the counts map failed: %s", strerror(-err));
			else
				emit(st, pms_profile__event(p), now_s() - t_iv, pms_profile__nr_cpus(p), po.freq);
			printf("\n");
			pms_stacks__free(err ? NULL : st);
			next_iv += o.interval;
			t_iv = now_s();
		}
	}
	err = pms_profiler__stop(pr);
	if (err == -ENOMEM)
		die("out of memory");
	if (err) {
		error("reading the counts map: %s", strerror(-err));
		ret = EXIT_RUNTIME;
	}
	if (pms_profiler__counts(pr)->samples == 0 && !o.interval) {
		if (o.off_cpu)
			error("no thread blocked%s", po.nr_pids ? " among the given processes" : "");
		else
			error("no samples%s", po.nr_pids ? " of the given processes (were they running?)" : "");
		if (!o.off_cpu)
			say_why_empty(p, po.nr_pids != 0);
		ret = EXIT_RUNTIME;
	} else if (emit(pms_profiler__tree(pr), pms_profile__event(p), now_s() - t_iv, pms_profile__nr_cpus(p),
			po.freq)) {
		ret = EXIT_RUNTIME;
	}
	print_stats(pr, po.dwarf_stack_bytes != 0);
out:
	pms_profiler__free(pr);
	pms_cpulist__release(&cpus);
	free(pids);
	return ret;
}
#endif

PMS_COMMAND(profile, "profile",
	    "sample call stacks with BPF, aggregated in the kernel (system-wide or -p), or time blocked threads (--off-cpu)",
	    "pmuscope profile [-F <hz> [--stream] [--call-graph fp|dwarf[,size]] | --off-cpu [--min-block <t>] [--max-block <t>]] [-a | -p <pids> | -t <tids>] [-C <cpus>] [--duration <s>] [-U | -K] [--folded | -o <file> [--format <fmt>]]");
