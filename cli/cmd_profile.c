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
#include "util/time_range.h"
#include "aggregate/chaincheck.h"
#ifndef PMS_NO_HOST_LIBS
#include "aggregate/live_syms.h"
#endif
#include "aggregate/stacks.h"
#include "bpf/profile.h"
#include "export/export.h"
#include "util/cpulist.h"
#include "util/strbuf.h"
#ifndef PMS_NO_HOST_LIBS
#include "symbol/dso.h"
#include "symbol/maps.h"
#include "symbol/resolver.h"
#include "symbol/unwind.h"
#endif

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

static volatile sig_atomic_t stop_flag;

static void on_stop(int sig, siginfo_t *si, void *uc)
{
	(void)sig, (void)si, (void)uc;
	stop_flag = 1;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* ------------------------------------------------ symbols -- */

static uint32_t intern(struct pms_stacks *st, const struct pms_stack_frame *f)
{
	int64_t id = pms_stacks__intern(st, f);

	if (id < 0)
		die("out of memory");
	return (uint32_t)id;
}

static uint32_t user_frame(struct pms_live_syms *ls, struct pms_stacks *st, struct pms_live_image *img,
			   uint64_t ip, bool leaf)
{
	uint32_t frame;

	if (pms_live_syms__user_frame(ls, st, img, ip, leaf, &frame))
		die("out of memory");
	return frame;
}

static uint32_t kernel_frame(struct pms_live_syms *ls, struct pms_stacks *st, uint64_t ip)
{
	uint32_t frame;

	if (pms_live_syms__kernel_frame(ls, st, ip, &frame))
		die("out of memory");
	return frame;
}

/* ------------------------------------------------------- reading -- */

struct reader {
	struct pms_live_syms *ls;
	struct pms_stacks *st;
	uint32_t path[2 * PF_MAX_FRAMES + 2];
	uint64_t samples;
	uint64_t period_ns; /* per sample: cpu-clock's 1/freq (pprof's second value, --weight period) */
	uint64_t evicted; /* samples whose stack was deleted between intervals */
	uint64_t streamed; /* samples that came through the ring buffer */
	uint64_t unwound, unwind_failed; /* --call-graph dwarf */
	uint64_t blocked_ns; /* --off-cpu: time in the tree */
	bool off_cpu;     /* weights are time blocked (ns), not samples */
	bool dwarf;       /* --call-graph dwarf */
	struct pms_chaincheck *chains; /* frame-pointer user stacks that stop short */
};

/* The image a key's user stack belongs to, snapshotted now if its announcement was not read yet. */
static struct pms_live_image *image_of(struct reader *rd, const struct pf_key *k)
{
	struct pms_live_image *img = pms_live_syms__image(rd->ls, k->tgid, k->exec_id);

	if (!img)
		die("out of memory");
	return img;
}

/* --call-graph dwarf: unwind the copied stack with the image's CFI; path[n..] gets the frames, outermost first. */
static size_t dwarf_user_frames(struct reader *rd, const struct pms_profile_sample *s, size_t n)
{
	struct pms_live_image *img = image_of(rd, s->key);
	struct pms_unwinder *unw = pms_live_syms__unwinder(rd->ls, img);
	struct pms_unwind_regs regs = { .arch = PMS_UNWIND_X86_64, .mask = s->user_regs_mask, .values = s->user_regs };
	uint64_t ips[PF_MAX_FRAMES];
	size_t nr = 0;

	if (!unw || pms_unwinder__unwind(unw, &regs, s->user_stack, s->user_stack_size, ips, PF_MAX_FRAMES, &nr) ||
	    !nr) {
		struct pms_stack_frame f = { .kind = PMS_STACK_UNKNOWN, .name = "[user stack lost]" };

		rd->unwind_failed += s->count;
		rd->path[n++] = intern(rd->st, &f);
		return n;
	}
	rd->unwound += s->count;
	for (size_t i = nr; i-- > 0;)
		rd->path[n++] = user_frame(rd->ls, rd->st, img, ips[i], i == 0);
	return n;
}

/* Where a frame-pointer user stack ended, for the "stop before an entry" check. */
static void check_chain(struct reader *rd, struct pms_live_image *img, const struct pms_profile_sample *s)
{
	struct pms_chaincheck_chain ch = { .weight = s->count, .at_depth_limit = s->nr_user >= PF_MAX_FRAMES };

	for (uint32_t i = s->nr_user; i-- > 0;) {
		const struct pms_map *m;
		struct pms_resolved r;

		if (pms_live_syms__resolve_user(rd->ls, img, s->user[i], i == 0, &r, &m))
			die("out of memory");
		if (i == s->nr_user - 1) {
			ch.outer_sym = r.status == PMS_RES_OK ? r.sym : NULL;
			ch.outer_vaddr = r.addr;
			ch.outer_elf = r.elf;
		}
		if (m && r.dso) {
			ch.blame_dso = r.dso;
			ch.blame_elf = r.elf;
			break;
		}
	}
	if (pms_chaincheck__add(rd->chains, &ch))
		die("out of memory");
}

/* The tracepoint's own frames: the BPF program and the kernel's code that runs it. */
static bool tracing_frame(const struct reader *rd, uint32_t frame)
{
	size_t nr;
	const struct pms_stack_frame *f = pms_stacks__frames(rd->st, &nr);
	const char *name = frame < nr ? f[frame].name : "";

	return !strncmp(name, "bpf_prog_", 9) || !strncmp(name, "bpf_trace_run", 13) ||
	       !strncmp(name, "__bpf_trace_", 12) || !strncmp(name, "__traceiter_", 12);
}

static int on_sample(void *ctx, const struct pms_profile_sample *s)
{
	struct reader *rd = ctx;
	const struct pf_key *k = s->key;
	struct pms_stack_frame root = { .kind = PMS_STACK_PROCESS };
	char comm[PF_COMM_LEN + 1];
	size_t n = 0;

	memcpy(comm, k->comm, PF_COMM_LEN);
	comm[PF_COMM_LEN] = 0;
	root.name = comm;
	rd->path[n++] = intern(rd->st, &root);
	rd->samples += s->count;
	rd->streamed += s->streamed ? s->count : 0;
	rd->blocked_ns += s->time_ns;
	if (s->missing_user || s->missing_kernel)
		rd->evicted += s->count;
	if (s->user_stack) {
		n = dwarf_user_frames(rd, s, n);
	} else if (s->user) {
		struct pms_live_image *img = image_of(rd, k);

		for (uint32_t i = s->nr_user; i-- > 0;)
			rd->path[n++] = user_frame(rd->ls, rd->st, img, s->user[i], i == 0);
		if (s->nr_user)
			check_chain(rd, img, s);
	} else if ((k->flags & PF_F_USER_LOST) && !o.kernel) {
		struct pms_stack_frame f = { .kind = PMS_STACK_UNKNOWN, .name = "[user stack lost]" };

		rd->path[n++] = intern(rd->st, &f);
	}
	{
		uint32_t skip = 0;

		/* off-CPU stacks are taken inside the tracepoint: its BPF frames are not where the thread blocked */
		while (rd->off_cpu && skip < s->nr_kernel && tracing_frame(rd, kernel_frame(rd->ls, rd->st, s->kernel[skip])))
			skip++;
		for (uint32_t i = s->nr_kernel; i-- > skip;)
			rd->path[n++] = kernel_frame(rd->ls, rd->st, s->kernel[i]);
	}
	if (pms_stacks__add_path(rd->st, rd->path, n, s->count, rd->off_cpu ? s->time_ns : s->count * rd->period_ns))
		die("out of memory");
	return 0;
}

static int on_task(void *ctx, const struct pf_task_event *ev)
{
	struct reader *rd = ctx;

	if (!pms_live_syms__announce(rd->ls, ev->tgid, ev->exec_id))
		die("out of memory");
	return 0;
}

/* ------------------------------------------------------- output -- */

struct fn_row {
	uint32_t frame;
	uint64_t self, total;
};

static int cmp_rows(const void *a, const void *b)
{
	const struct fn_row *x = a, *y = b;

	if (x->total != y->total)
		return x->total < y->total ? 1 : -1;
	if (x->self != y->self)
		return x->self < y->self ? 1 : -1;
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
	struct fn_row *rows = xcalloc(nr_frames ? nr_frames : 1, sizeof(*rows));
	uint64_t total = nr_nodes ? (by_time ? nodes[0].total_period : nodes[0].total_samples) : 0;

	for (size_t i = 0; i < nr_frames; i++)
		rows[i].frame = (uint32_t)i;
	for (size_t i = 1; i < nr_nodes; i++) {
		const struct pms_stack_node *nd = &nodes[i];
		bool outer = false;

		rows[nd->frame].self += by_time ? nd->self_period : nd->self_samples;
		for (uint32_t p = nd->parent; p; p = nodes[p].parent)
			if (nodes[p].frame == nd->frame) {
				outer = true;
				break;
			}
		if (!outer)
			rows[nd->frame].total += by_time ? nd->total_period : nd->total_samples;
	}
	for (size_t i = 0; i < nr_frames; i++)
		if (frames[i].kind != PMS_STACK_PROCESS && frames[i].kind != PMS_STACK_THREAD && rows[i].total)
			rows[nr_rows++] = rows[i];
	qsort(rows, nr_rows, sizeof(*rows), cmp_rows);
	fprintf(f, "# Children      Self  %sShared Object         Symbol\n", by_time ? "  Total time  " : "");
	fprintf(f, "# ........  ........  %s....................  ......\n", by_time ? "............  " : "");
	for (size_t i = 0; i < nr_rows && (int)i < top; i++) {
		const struct pms_stack_frame *fr = &frames[rows[i].frame];
		const char *dso = fr->dso ? report_dso_short(fr->dso) : "[unknown]";

		fprintf(f, "  %7.2f%%  %7.2f%%  ", 100.0 * (double)rows[i].total / (double)total,
			100.0 * (double)rows[i].self / (double)total);
		if (by_time) {
			struct strbuf tb = STRBUF_INIT;

			strbuf_add_duration_ns(&tb, rows[i].total);
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
			fprintf(stderr, "pmuscope: wrote %s (%s, %zu bytes)\n", o.output, fmt, sb.len);
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

static void print_stats(struct pms_profile *p, const struct reader *rd, const struct pms_live_syms_stats *sy,
			unsigned int drains)
{
	struct pms_profile_stats s;
	const uint64_t *v = s.v;
	uint64_t ulost, klost;

	if (pms_profile__stats(p, &s)) {
		warning("cannot read the drop counters");
		return;
	}
	ulost = v[PF_STAT_USER_FAULT] + v[PF_STAT_USER_EMPTY] + v[PF_STAT_USER_MAP_FULL] +
		v[PF_STAT_USER_COLLISION] + v[PF_STAT_USER_NOMEM] + v[PF_STAT_COUNTS_FULL_USER] +
		v[PF_STAT_STREAM_LOST_USER];
	klost = v[PF_STAT_KERNEL_FAULT] + v[PF_STAT_KERNEL_MAP_FULL] + v[PF_STAT_KERNEL_COLLISION] +
		v[PF_STAT_KERNEL_NOMEM];
	fprintf(stderr,
		"profile: %" PRIu64 " %s, %" PRIu64 " distinct stacks (map %u), %" PRIu64
		" keys (map %u, read early %u times to keep room), %" PRIu64 " idle %s left out\n",
		v[PF_STAT_SAMPLES], o.off_cpu ? "blocks" : "samples", s.nr_stacks, s.max_stacks,
		v[PF_STAT_KEYS_CREATED], s.max_counts, drains, v[PF_STAT_IDLE], o.off_cpu ? "switches" : "samples");
	if (rd->dwarf)
		fprintf(stderr, "profile: DWARF unwinding: %" PRIu64 " samples unwound, %" PRIu64
			" failed (no CFI or mappings for the sampled code: shown as [user stack lost])\n",
			rd->unwound, rd->unwind_failed);
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
			v[PF_STAT_STREAMED], o.stream ? " (--stream)" : rd->dwarf ? " (--call-graph dwarf)"
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
		PF_MAX_FRAMES, v[PF_STAT_USER_TRUNC], v[PF_STAT_KERNEL_TRUNC], rd->evicted);
	fprintf(stderr,
		"profile: processes: %" PRIu64 " mappings snapshots at first sample (%" PRIu64
		" in another mount namespace or root: files opened through /proc/PID/root), %" PRIu64
		" read late, %" PRIu64 " missed (exited first); not announced: tasks map full %" PRIu64
		", ring full %" PRIu64 "\n",
		sy->snapshots, sy->foreign, sy->late, sy->missed, v[PF_STAT_TASKS_FULL], v[PF_STAT_RINGBUF_FULL]);
	{
		struct pms_chaincheck_result cc;
		struct strbuf sb = STRBUF_INIT;

		pms_chaincheck__result(rd->chains, &cc);
		if (pms_chaincheck__describe(&cc, &sb))
			fprintf(stderr, "profile: call chains: %s\n", strbuf_str(&sb));
		strbuf_release(&sb);
	}
}

static const char *fail_message(enum pms_profile_fail f, int err)
{
	switch (f) {
	case PMS_PF_NO_BTF:
		return "this kernel has no BTF (/sys/kernel/btf/vmlinux): profile needs CONFIG_DEBUG_INFO_BTF=y";
	case PMS_PF_PERM:
		return "permission denied: profile needs root or CAP_BPF+CAP_PERFMON";
	case PMS_PF_VERIFIER:
		return "the kernel's BPF verifier rejected the profile program (run 'pmuscope -v profile ...' to see its log)";
	case PMS_PF_TOO_OLD:
		return "this kernel is too old for the profile program (it needs BPF ring buffers, global BPF functions, and hash maps without preallocation in perf_event programs: Linux 6.1 or later)";
	case PMS_PF_EVENT:
		return "cannot open the sampling event";
	case PMS_PF_ATTACH:
		return "cannot attach the BPF program to the sampling event";
	default:
		return err == -ENOMEM ? "out of memory (or locked-memory limit) while loading the BPF program"
				      : "cannot load the BPF program";
	}
}

static bool any_alive(const pid_t *pids, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!kill(pids[i], 0) || errno != ESRCH)
			return true;
	return false;
}

static int run(int argc, char **argv)
{
	struct pms_profile_opts po = { .sz = sizeof(po) };
	struct pms_stacks_opts sto = { .sz = sizeof(sto), .root = PMS_STACKS_ROOT_COMM };
	struct pms_cpulist cpus = { 0 };
	struct pms_profile *p = NULL;
	struct pms_resolver *res = NULL;
	struct reader rd = { .chains = pms_chaincheck__new() };
	enum pms_profile_fail fail;
	pid_t *pids = NULL;
	struct pms_profile_stats ps;
	double t0, t_iv, next_iv, next_check;
	unsigned int drains = 0;
	bool switched = false;
	int pos, err, ret = 0;

	if (!rd.chains)
		die("out of memory");
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
	rd.off_cpu = o.off_cpu;
	rd.dwarf = po.dwarf_stack_bytes != 0;
	po.duration_s = o.interval ? o.interval : o.duration;
	if (o.map_entries) {
		po.max_counts = (uint32_t)o.map_entries;
		po.max_stacks = (uint32_t)o.map_entries * 2;
	}

	rd.period_ns = 1000000000ull / po.freq;
	stop_signals__install(on_stop);
	err = pms_profile__start(&po, &p, &fail);
	if (err) {
		error("%s%s%s", fail_message(fail, err), fail == PMS_PF_OK || fail == PMS_PF_LOAD ||
			fail == PMS_PF_EVENT || fail == PMS_PF_ATTACH ? ": " : "",
		      fail == PMS_PF_OK || fail == PMS_PF_LOAD || fail == PMS_PF_EVENT || fail == PMS_PF_ATTACH
			      ? strerror(-err) : "");
		ret = EXIT_RUNTIME;
		goto out;
	}
	if (!o.off_cpu && strcmp(pms_profile__event(p), "cycles"))
		note("no hardware cycles counter here: sampling cpu-clock at %u Hz", po.freq);
	res = pms_resolver__new();
	rd.ls = res ? pms_live_syms__new(res) : NULL;
	if (!rd.ls)
		die("out of memory");
	{
		bool per_task;
		size_t nev = pms_profile__nr_events(p, &per_task);

		const char *who = o.pid ? "the processes" : o.tid ? "the threads" : "every process";

		if (o.off_cpu)
			fprintf(stderr, "pmuscope: timing %s off the CPU (sched_switch)%s\n", who,
				o.duration ? "" : "; Ctrl-C to stop");
		else
			fprintf(stderr, "pmuscope: profiling %s at %u Hz (%zu events, one per %s)%s%s\n", who, po.freq,
				nev, per_task ? "thread" : "CPU",
				po.dwarf_stack_bytes ? ", every sample streamed with its user stack for DWARF unwinding"
				: o.stream ? ", every sample streamed" : "",
				o.duration ? "" : "; Ctrl-C to stop");
	}

	t0 = t_iv = now_s();
	next_iv = t0 + o.interval;
	next_check = t0 + 0.5;
	rd.st = pms_stacks__new(&sto);
	if (!rd.st)
		die("out of memory");
	while (!stop_flag) {
		double t = now_s();
		int timeout = 100;

		if (o.duration && t - t0 >= o.duration)
			break;
		if (o.duration && (o.duration - (t - t0)) * 1000 < timeout)
			timeout = (int)((o.duration - (t - t0)) * 1000) + 1;
		err = pms_profile__poll(p, timeout, on_task, on_sample, &rd);
		if (err < 0 && err != -EINTR) {
			error("reading the BPF ring buffer: %s", strerror(-err));
			ret = EXIT_RUNTIME;
			break;
		}
		if (!o.stream && !po.dwarf_stack_bytes && !switched && pms_profile__streaming(p)) {
			switched = true;
			if (!pms_profile__stats(p, &ps))
				note("after %.1f s the in-kernel maps are full (%u stacks, %u keys): every sample now goes "
				     "through the ring buffer, as with --stream", now_s() - t0, ps.max_stacks, ps.max_counts);
		}
		if (po.nr_pids && !any_alive(pids, po.nr_pids))
			break;
		if (o.interval && now_s() >= next_iv) {
			if (pms_profile__read(p, true, on_sample, &rd))
				warning("reading the counts map failed");
			emit(rd.st, pms_profile__event(p), now_s() - t_iv, pms_profile__nr_cpus(p), po.freq);
			printf("\n");
			pms_stacks__free(rd.st);
			pms_live_syms__new_tree(rd.ls);
			rd.st = pms_stacks__new(&sto);
			if (!rd.st)
				die("out of memory");
			next_iv += o.interval;
			t_iv = now_s();
			/* stacks outlive their interval's counts; start over before the map fills */
			if (!pms_profile__stats(p, &ps) && ps.nr_stacks > ps.max_stacks / 2 &&
			    pms_profile__clear_stacks(p))
				warning("cannot clear the stacks map");
		} else if (now_s() >= next_check) {
			/*
			 * A run longer or busier than the maps were sized for: move the counts
			 * into the tree before the map fills (the tree adds them up), and start
			 * the stacks over once their keys are read.
			 */
			next_check = now_s() + 0.5;
			if (!pms_profile__stats(p, &ps) && ps.live_counts > ps.max_counts / 4 * 3) {
				if (pms_profile__read(p, true, on_sample, &rd))
					warning("reading the counts map failed");
				drains++;
				if (!pms_profile__stats(p, &ps) && ps.nr_stacks > ps.max_stacks / 2 &&
				    pms_profile__clear_stacks(p))
					warning("cannot clear the stacks map");
			}
		}
	}
	pms_profile__stop(p);
	/* drain announcements still queued: snapshots before reading the counts */
	while (pms_profile__poll(p, 0, on_task, on_sample, &rd) > 0)
		;
	err = pms_profile__read(p, o.interval > 0, on_sample, &rd);
	if (err) {
		error("reading the counts map: %s", strerror(-err));
		ret = EXIT_RUNTIME;
	}
	if (rd.samples == 0 && !o.interval) {
		if (o.off_cpu)
			error("no thread blocked%s", po.nr_pids ? " among the given processes" : "");
		else
			error("no samples%s", po.nr_pids ? " of the given processes (were they running?)" : "");
		ret = EXIT_RUNTIME;
	} else if (emit(rd.st, pms_profile__event(p), now_s() - t_iv, pms_profile__nr_cpus(p), po.freq)) {
		ret = EXIT_RUNTIME;
	}
	print_stats(p, &rd, pms_live_syms__stats(rd.ls), drains);
out:
	pms_chaincheck__free(rd.chains);
	pms_stacks__free(rd.st);
	pms_profile__free(p);
	pms_live_syms__free(rd.ls);
	pms_resolver__free(res);
	pms_cpulist__release(&cpus);
	free(pids);
	return ret;
}
#endif

const struct pms_cmd cmd_profile = {
	.name = "profile",
	.summary = "sample call stacks with BPF, aggregated in the kernel (system-wide or -p), or time blocked threads (--off-cpu)",
	.usage = "pmuscope profile [-F <hz> [--stream] [--call-graph fp|dwarf[,size]] | --off-cpu [--min-block <t>] [--max-block <t>]] [-a | -p <pids> | -t <tids>] [-C <cpus>] [--duration <s>] [-U | -K] [--folded | -o <file> [--format <fmt>]]",
	.opts = opts,
	.run = run,
	.reset = reset_opts,
};
