// SPDX-License-Identifier: MIT
// `pmuscope top`: the live view of where CPU time goes (or, with o / --off-cpu, where threads block), counted in the kernel by the BPF profiler and refreshed every -d seconds with perf top's decay; a terminal view, or batch text and JSON lines for scripts.
#include <errno.h>
#include <inttypes.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/resource.h>

#include "cmd.h"
#include "output.h"
#include "report_print.h"
#include "stop_signals.h"
#include "top.h"
#include "export/export.h"
#include "perf_event/caps.h"
#include "util/clock.h"
#include "util/cpulist.h"
#include "util/fileio.h"
#include "util/json.h"
#include "util/tasks.h"
#ifndef PMS_NO_HOST_LIBS
#include "live/profiler.h"
#endif

static struct top_opts {
	double delay, decay;
	int iterations, entries, freq;
	bool batch, stdio, json, all, hide_kernel, hide_user, zero, call_graph, off_cpu, no_bpf;
	const char *pid, *tid, *cpu, *user, *sort, *output, *format, *call_order;
} o;

static const struct opt opts[] = {
	OPT_DOUBLE('d', "delay", &o.delay, "<s>", "seconds between refreshes (default 2, as perf top)"),
	OPT_INT('n', "iterations", &o.iterations, "<n>", "exit after n refreshes"),
	OPT_BOOL('b', "batch", &o.batch, "print each refresh as text on stdout instead of the terminal view"),
	OPT_BOOL(0, "stdio", &o.stdio, "the same as -b"),
	OPT_BOOL(0, "json", &o.json, "batch mode, one JSON object per refresh (JSON lines)"),
	OPT_INT('E', "entries", &o.entries, "<n>", "rows per refresh in batch mode (default 30)"),
	OPT_BOOL('a', "all-cpus", &o.all, "every process on every CPU (the default)"),
	OPT_STRING('p', "pid", &o.pid, "<pids>", "only these processes (comma-separated)"),
	OPT_STRING('t', "tid", &o.tid, "<tids>", "only these threads (comma-separated)"),
	OPT_STRING('C', "cpu", &o.cpu, "<cpus>", "only these CPUs (e.g. 0,2-3)"),
	OPT_STRING('u', "uid", &o.user, "<user>", "only the processes this user runs now (name or uid)"),
	OPT_INT('F', "freq", &o.freq, "<hz>", "samples per second per CPU (default 999)"),
	OPT_BOOL('K', "hide-kernel", &o.hide_kernel, "hide kernel functions"),
	OPT_BOOL('U', "hide-user", &o.hide_user, "hide user functions"),
	OPT_STRING('s', "sort", &o.sort, "<keys>", "rows by comm, pid, tid, dso, sym (default dso,sym, as perf top)"),
	OPT_BOOL('z', "zero", &o.zero, "start every refresh from zero instead of decaying the last"),
	OPT_DOUBLE(0, "decay", &o.decay, "<f>", "weight kept from one refresh to the next (default 0.875, perf's 7/8)"),
	OPT_BOOL('g', "call-graph", &o.call_graph, "show the call chains under each row (batch) or on Enter"),
	OPT_STRING(0, "call-order", &o.call_order, "<order>", "chains from the leaf up (callee, default) or from main down (caller)"),
	OPT_BOOL(0, "off-cpu", &o.off_cpu, "start with time blocked (sched_switch) instead of CPU time (key o)"),
	OPT_BOOL(0, "no-bpf", &o.no_bpf, "sample through perf's ring buffers even where BPF loads (also PMS_TOP_NO_BPF=1)"),
	OPT_STRING('o', "output", &o.output, "<file>", "where w (and batch mode at its end) writes the view"),
	OPT_STRING_HELP_FN('f', "format", &o.format, "<fmt>", output__format_help),
	OPT_END(),
};

static void reset_opts(void)
{
	o = (struct top_opts){ 0 };
}

#ifdef PMS_NO_HOST_LIBS
static int run(int argc, char **argv)
{
	opt_parse(&cmd_top, &argc, argv, 0);
	return error("top is not available in this build (it needs libbpf; built with HOST_LIBS=0)"), EXIT_RUNTIME;
}
#else


static uint64_t self_cpu_ns(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_SELF, &ru))
		return 0;
	return (uint64_t)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000000ull +
	       (uint64_t)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1000ull;
}

/* ------------------------------------------------------------ sampling -- */

int top__start(struct top *t)
{
	enum pms_profile_fail fail = PMS_PF_OK;
	struct pms_sampler_error serr;
	int err, paranoid;

	t->po.off_cpu = t->off_cpu;
	if (!t->force_ring) {
		err = pms_profiler__start(&t->po, PMS_STACKS_ROOT_TID, &t->pr, &fail);
		if (!err) {
			t->ring = false;
			t->why_ring[0] = 0;
			pms_profiler__keep_addresses(t->pr, true); /* for the a key */
			return 0;
		}
		pms_profile_fail__describe(fail, err, t->why_ring, sizeof(t->why_ring));
		if (t->off_cpu) {
			snprintf(t->message, sizeof(t->message), "off-CPU time needs the BPF program: %s", t->why_ring);
			return -1;
		}
	} else {
		snprintf(t->why_ring, sizeof(t->why_ring), "BPF not tried (--no-bpf or PMS_TOP_NO_BPF)");
	}
	err = pms_profiler__start_ring(&t->po, PMS_STACKS_ROOT_TID, &t->pr, &serr);
	if (!err) {
		t->ring = true;
		pms_profiler__keep_addresses(t->pr, true);
		return 0;
	}
	paranoid = pms_knob__sysctl("perf_event_paranoid");
	if (err == -EACCES || err == -EPERM)
		snprintf(t->message, sizeof(t->message),
			 "cannot sample: %s; perf events refused too (kernel.perf_event_paranoid is %d). Run as root, or "
			 "give the binary CAP_PERFMON and CAP_BPF (setcap cap_perfmon,cap_bpf+ep), or allow perf events "
			 "with sysctl kernel.perf_event_paranoid=%s", t->force_ring ? "BPF not tried" : t->why_ring,
			 paranoid, t->po.pids ? "2 (your own processes with -p)" : "-1 (system-wide)");
	else
		snprintf(t->message, sizeof(t->message), "cannot sample: %s; and through perf's ring buffers: %s",
			 t->force_ring ? "BPF not tried" : t->why_ring, serr.msg[0] ? serr.msg : strerror(-err));
	return -1;
}

void top__stop(struct top *t)
{
	pms_profiler__free(t->pr);
	t->pr = NULL;
}

static void sample_cpu(struct top *t)
{
	uint64_t wall = pms_clock__monotonic_ns(), self = self_cpu_ns(), target = 0, all = 0, busy = 0;
	double dt = (double)(wall - t->prev_wall_ns);

	if (t->po.nr_pids) {
		for (size_t i = 0; i < t->po.nr_pids; i++) {
			uint64_t ns = 0;

			/* a thread id reads as its process's total: -t is approximate */
			if (!pms_process__cpu_ns(t->po.pids[i], &ns))
				target += ns;
		}
	} else if (!pms_system__cpu_ns(&busy, &all)) {
		target = busy;
	}
	if (t->prev_wall_ns && dt > 0) {
		t->self_pct = 100.0 * (double)(self - t->prev_self_ns) / dt;
		if (!t->po.nr_pids && all > t->prev_all_ns)
			t->target_pct = 100.0 * (double)(target - t->prev_target_ns) / (double)(all - t->prev_all_ns);
		else if (t->po.nr_pids)
			t->target_pct = target >= t->prev_target_ns ? 100.0 * (double)(target - t->prev_target_ns) / dt : 0;
	}
	t->prev_wall_ns = wall;
	t->prev_self_ns = self;
	t->prev_target_ns = target;
	t->prev_all_ns = all;
}

/*
 * Off-CPU, a row is where a thread chose to wait (the scheduler's own frames
 * skipped); with kernel functions hidden, the user call that blocked.
 */
static struct pms_top_filter view_filter(const struct top *t)
{
	struct pms_top_filter f = t->filter;

	f.skip_sched = t->off_cpu;
	f.user_leaf = t->off_cpu && t->filter.hide_kernel;
	return f;
}

void top__rows(struct top *t)
{
	struct pms_top_filter f = view_filter(t);

	pms_top_rows__release(&t->rows);
	if (t->view && pms_top__rows(t->view, t->keys, t->nr_keys, &f, t->off_cpu, &t->rows) == -ENOMEM)
		die("out of memory");
}

int top__refresh(struct top *t)
{
	struct pms_stacks *fresh, *next;
	struct pms_profiler_losses l;
	size_t nr;
	int err = pms_profiler__cut(t->pr, &fresh);

	if (err == -ENOMEM)
		die("out of memory");
	if (err) {
		snprintf(t->message, sizeof(t->message), "reading the samples failed: %s", strerror(-err));
		return -1;
	}
	t->interval_samples = pms_stacks__nodes(fresh, &nr)[0].total_samples;
	if (t->paused) {
		pms_stacks__free(fresh);
		return 0;
	}
	if (t->zero || !t->view) {
		next = fresh;
	} else {
		next = pms_stacks__new(NULL);
		if (!next || pms_stacks__add_tree(next, t->view, t->decay_num, t->decay_den) ||
		    pms_stacks__add_tree(next, fresh, 1, 1))
			die("out of memory");
		pms_stacks__free(fresh);
	}
	pms_stacks__free(t->view);
	t->view = next;
	t->refreshes++;
	if (!pms_profiler__losses(t->pr, &l)) {
		t->loss.taken = l.taken;
		t->loss.dropped_ring = l.dropped_ring;
		t->loss.dropped_maps = l.dropped_maps;
		t->loss.user_lost = l.user_stacks_lost;
		t->loss.kernel_lost = l.kernel_stacks_lost;
	}
	sample_cpu(t);
	top__rows(t);
	return 0;
}

bool top__set_regex(struct top *t, const char *text)
{
	regex_t re;
	int rc;

	if (!text || !*text) {
		if (t->filter.sym)
			regfree(&t->re);
		t->filter.sym = NULL;
		free(t->re_text);
		t->re_text = NULL;
		return true;
	}
	rc = regcomp(&re, text, REG_EXTENDED | REG_NOSUB);
	if (rc) {
		char why[128];

		regerror(rc, &re, why, sizeof(why));
		snprintf(t->message, sizeof(t->message), "bad regex '%s': %s", text, why);
		return false;
	}
	if (t->filter.sym)
		regfree(&t->re);
	t->re = re;
	t->filter.sym = &t->re;
	free(t->re_text);
	t->re_text = xstrdup(text);
	return true;
}

int top__write(struct top *t)
{
	const struct pms_exporter *ex = output__format(&cmd_top, t->format);
	struct pms_export_opts eo = { .sz = sizeof(eo), .weight = t->off_cpu ? PMS_WEIGHT_PERIOD : PMS_WEIGHT_SAMPLES,
				      .title = t->off_cpu ? "pmuscope top --off-cpu" : "pmuscope top" };
	char name[64];
	const char *path = t->output;
	struct strbuf sb = STRBUF_INIT;
	int err;

	if (!t->view) {
		snprintf(t->message, sizeof(t->message), "nothing to write yet");
		return -1;
	}
	if (!path) {
		snprintf(name, sizeof(name), "pmuscope-top.%s", !strcmp(ex->name, "flamegraph") ? "html" :
			 !strcmp(ex->name, "pprof") ? "pb.gz" : ex->name);
		path = name;
	}
	{
		struct pms_stacks_meta m = *pms_stacks__meta(t->view);

		m.event = pms_profiler__event(t->pr);
		m.period_unit = "nanoseconds";
		if (t->off_cpu) {
			m.sample_noun = "blocks";
			m.period_noun = "off-CPU time";
		}
		if (pms_stacks__set_meta(t->view, &m))
			die("out of memory");
	}
	err = ex->write(t->view, &eo, &sb);
	if (err == -ENOMEM)
		die("out of memory");
	if (!err)
		err = pms_file__write_all(path, sb.buf ? sb.buf : "", sb.len);
	if (err)
		snprintf(t->message, sizeof(t->message), "cannot write %s: %s", path, strerror(-err));
	else
		snprintf(t->message, sizeof(t->message), "wrote %s (%s, %zu bytes)", path, ex->name, sb.len);
	strbuf_release(&sb);
	return err ? -1 : 0;
}

/* ------------------------------------------------------------- layout -- */

void top__header(const struct top *t, int width, struct strbuf *l1, struct strbuf *l2)
{
	const char *event = t->pr ? pms_profiler__event(t->pr) : "?";
	struct strbuf lost = STRBUF_INIT;

	if (width > 0 && width < 80) {
		/* narrow: the numbers, fewer words */
		strbuf_addf(l1, "%s%s%" PRIu64 " %s/%.1fs %s %s", t->paused ? "PAUSED " : "", t->zero ? "zeroed " : "",
			    t->interval_samples, t->off_cpu ? "blocks" : "smp", t->interval_s, t->off_cpu ? "off-CPU" : event,
			    t->ring ? "ring" : "BPF");
		strbuf_addf(l2, "cpu %.0f%% self %.1f%% lost %" PRIu64 "/%" PRIu64, t->target_pct, t->self_pct,
			    t->loss.dropped_ring + t->loss.dropped_maps, t->loss.user_lost + t->loss.kernel_lost);
		if ((int)l1->len > width)
			strbuf_setlen(l1, (size_t)width);
		if ((int)l2->len > width)
			strbuf_setlen(l2, (size_t)width);
		return;
	}
	/* the modes first: a narrow screen cuts the end of the line */
	strbuf_addf(l1, "pmuscope top%s%s%s%s%s: ", t->paused || t->zero || t->filter.hide_kernel ? " (" : "",
		    t->paused ? "PAUSED" : "", t->zero ? (t->paused ? ", zeroed" : "zeroed") : "",
		    t->filter.hide_kernel ? (t->paused || t->zero ? ", kernel hidden" : "kernel hidden") : "",
		    t->paused || t->zero || t->filter.hide_kernel ? ")" : "");
	if (t->off_cpu)
		strbuf_addf(l1, "%" PRIu64 " blocks in %.1f s [off-CPU time, %s]", t->interval_samples, t->interval_s, event);
	else
		strbuf_addf(l1, "%" PRIu64 " samples in %.1f s [%s, %u Hz, %s]", t->interval_samples, t->interval_s, event,
			    t->po.freq, t->ring ? "perf ring buffer: BPF did not load" : "BPF, counted in the kernel");
	strbuf_addf(&lost, "lost: ring %" PRIu64 ", maps %" PRIu64 "; stacks lost: user %" PRIu64 ", kernel %" PRIu64,
		    t->loss.dropped_ring, t->loss.dropped_maps, t->loss.user_lost, t->loss.kernel_lost);
	strbuf_addf(l2, "%s; CPU: target %.1f%%, pmuscope %.1f%%; %s", t->target, t->target_pct, t->self_pct,
		    strbuf_str(&lost));
	strbuf_release(&lost);
	if (width > 0 && (int)l1->len > width)
		strbuf_setlen(l1, (size_t)width);
	if (width > 0 && (int)l2->len > width)
		strbuf_setlen(l2, (size_t)width);
}

/* Column widths for a screen of width: the symbol takes what is left. */
struct layout {
	bool samples;        /* the samples (or time) column fits */
	int comm, dso;
};

static struct layout layout_for(const struct top *t, int width)
{
	struct layout l = { .comm = 16, .dso = 20 };

	if (width <= 0)
		width = 200; /* batch: no screen edge */
	l.samples = width >= 60;
	if (width < 80) {
		l.comm = 10;
		l.dso = 12;
	}
	if (width < 50)
		l.dso = 8;
	(void)t;
	return l;
}

static bool has_key(const struct top *t, enum pms_top_key k)
{
	for (size_t i = 0; i < t->nr_keys; i++)
		if (t->keys[i] == k)
			return true;
	return false;
}

/* perf's short object name, cut to width from the left (the file name is what tells objects apart). */
static void add_fitted(struct strbuf *sb, const char *s, int w)
{
	int len = (int)strlen(s);

	if (len <= w)
		strbuf_addf(sb, "%-*s ", w, s);
	else if (s[0] == '[')
		strbuf_addf(sb, "%.*s] ", w - 1, s); /* "[kernel.kallsyms]" -> "[kernel]" */
	else
		strbuf_addf(sb, "%.*s ", w, s + (len - w));
}

void top__columns(const struct top *t, int width, struct strbuf *out)
{
	struct layout l = layout_for(t, width);

	strbuf_adds(out, "Overhead ");
	if (l.samples)
		strbuf_addf(out, "%10s ", t->off_cpu ? "Blocked" : "Samples");
	for (size_t i = 0; i < t->nr_keys; i++) {
		switch (t->keys[i]) {
		case PMS_TOP_COMM: add_fitted(out, "Command", l.comm); break;
		case PMS_TOP_PID: strbuf_addf(out, "%7s ", "Pid"); break;
		case PMS_TOP_TID: strbuf_addf(out, "%7s ", "Tid"); break;
		case PMS_TOP_DSO: add_fitted(out, l.dso < 13 ? "Object" : "Shared Object", l.dso); break;
		case PMS_TOP_SYM: strbuf_adds(out, "Symbol "); break;
		default: break;
		}
	}
	strbuf_rtrim(out);
	if (width > 0 && (int)out->len > width)
		strbuf_setlen(out, (size_t)width);
}

void top__row_line(const struct top *t, const struct pms_top_row *r, int width, struct strbuf *out)
{
	struct layout l = layout_for(t, width);
	uint64_t shown = t->off_cpu ? t->rows.shown_period : t->rows.shown_samples;
	uint64_t w = t->off_cpu ? r->period : r->samples;
	size_t start = out->len;

	strbuf_addf(out, "%7.2f%% ", shown ? 100.0 * (double)w / (double)shown : 0.0);
	if (l.samples) {
		if (t->off_cpu) {
			struct strbuf d = STRBUF_INIT;

			strbuf_add_duration_ns(&d, r->period);
			strbuf_addf(out, "%10s ", strbuf_str(&d));
			strbuf_release(&d);
		} else {
			strbuf_addf(out, "%10" PRIu64 " ", r->samples);
		}
	}
	for (size_t i = 0; i < t->nr_keys; i++) {
		switch (t->keys[i]) {
		case PMS_TOP_COMM: add_fitted(out, r->comm ? r->comm : "[unknown]", l.comm); break;
		case PMS_TOP_PID: strbuf_addf(out, "%7u ", r->pid); break;
		case PMS_TOP_TID: strbuf_addf(out, "%7u ", r->tid); break;
		case PMS_TOP_DSO: add_fitted(out, r->dso ? report_dso_short(r->dso) : "[unknown]", l.dso); break;
		case PMS_TOP_SYM:
			strbuf_addf(out, "[%c] %s ", r->kind == PMS_STACK_KERNEL ? 'k' : '.', r->sym ? r->sym : "[unknown]");
			break;
		default: break;
		}
	}
	strbuf_rtrim(out);
	if (width > 0 && (int)(out->len - start) > width)
		strbuf_setlen(out, start + (size_t)width);
}

struct chain {
	uint32_t node;
	uint64_t weight;
};

static int cmp_chains(const void *a, const void *b)
{
	const struct chain *x = a, *y = b;

	return x->weight != y->weight ? (x->weight < y->weight ? 1 : -1) : (x->node < y->node ? -1 : x->node > y->node);
}

size_t top__chain_lines(const struct top *t, const struct pms_top_row *r, int width, size_t max,
			struct strbuf *lines)
{
	struct pms_stacks *ch;
	const struct pms_stack_node *n;
	const struct pms_stack_frame *f;
	struct pms_top_filter flt = view_filter(t);
	struct chain *chains;
	size_t nn, nf, nr = 0, added = 0;
	uint64_t total;

	if (!t->view || pms_top__chains(t->view, t->keys, t->nr_keys, &flt, r, t->callers_first, &ch))
		return 0;
	n = pms_stacks__nodes(ch, &nn);
	f = pms_stacks__frames(ch, &nf);
	total = t->off_cpu ? n[0].total_period : n[0].total_samples;
	chains = xcalloc(nn ? nn : 1, sizeof(*chains));
	for (size_t i = 1; i < nn; i++)
		if (n[i].self_samples)
			chains[nr++] = (struct chain){ .node = (uint32_t)i,
						      .weight = t->off_cpu ? n[i].self_period : n[i].self_samples };
	qsort(chains, nr, sizeof(*chains), cmp_chains);
	for (size_t c = 0; c < nr && added < max; c++) {
		uint32_t path[256];
		size_t len = 0, start = lines->len;

		for (uint32_t up = chains[c].node; up && len < 256; up = n[up].parent)
			path[len++] = up;
		strbuf_addf(lines, "          %5.1f%%  ", total ? 100.0 * (double)chains[c].weight / (double)total : 0.0);
		/* the tree runs from its root: leaf first (callee order) or main first (caller order) */
		for (size_t k = len; k-- > 0;)
			strbuf_addf(lines, "%s%s", k + 1 == len ? "" : t->callers_first ? " -> " : " <- ",
				    f[n[path[k]].frame].name);
		if (width > 0 && (int)(lines->len - start) > width)
			strbuf_setlen(lines, start + (size_t)width);
		strbuf_addch(lines, '\n');
		added++;
	}
	free(chains);
	pms_stacks__free(ch);
	return added;
}

/* ------------------------------------------------------------- batch -- */

static void print_text(const struct top *t, int entries)
{
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT, line = STRBUF_INIT;

	top__header(t, 0, &a, &b);
	printf("%s\n%s\n\n", strbuf_str(&a), strbuf_str(&b));
	top__columns(t, 0, &line);
	printf("%s\n", strbuf_str(&line));
	for (size_t i = 0; i < t->rows.nr && (int)i < entries; i++) {
		strbuf_reset(&line);
		top__row_line(t, &t->rows.rows[i], 0, &line);
		printf("%s\n", strbuf_str(&line));
		if (t->call_graph) {
			strbuf_reset(&line);
			top__chain_lines(t, &t->rows.rows[i], 0, 5, &line);
			fputs(strbuf_str(&line), stdout);
		}
	}
	printf("\n");
	fflush(stdout);
	strbuf_release(&a);
	strbuf_release(&b);
	strbuf_release(&line);
}

static void print_json(const struct top *t, int entries)
{
	struct strbuf sb = STRBUF_INIT;
	struct pms_json j;
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	pms_json__init(&j, &sb, false);
	pms_json__obj(&j, NULL);
	pms_json__uint(&j, "refresh", t->refreshes);
	pms_json__double(&j, "time", (double)ts.tv_sec + (double)ts.tv_nsec / 1e9);
	pms_json__double(&j, "interval_s", t->interval_s);
	pms_json__str(&j, "event", pms_profiler__event(t->pr));
	pms_json__str(&j, "mode", t->off_cpu ? "off-cpu" : "on-cpu");
	pms_json__str(&j, "sampler", t->ring ? "ring" : "bpf");
	if (t->ring)
		pms_json__str(&j, "bpf_not_loaded", t->why_ring);
	if (!t->off_cpu)
		pms_json__uint(&j, "freq_hz", t->po.freq);
	pms_json__str(&j, "target", t->target);
	pms_json__uint(&j, "samples", t->interval_samples);
	pms_json__uint(&j, "view_samples", t->rows.total_samples);
	pms_json__uint(&j, "shown_samples", t->rows.shown_samples);
	pms_json__obj(&j, "lost");
	pms_json__uint(&j, "taken", t->loss.taken);
	pms_json__uint(&j, "dropped_ring_full", t->loss.dropped_ring);
	pms_json__uint(&j, "dropped_maps_full", t->loss.dropped_maps);
	pms_json__uint(&j, "user_stacks_lost", t->loss.user_lost);
	pms_json__uint(&j, "kernel_stacks_lost", t->loss.kernel_lost);
	pms_json__end(&j);
	pms_json__obj(&j, "cpu_pct");
	pms_json__double(&j, "target", t->target_pct);
	pms_json__double(&j, "pmuscope", t->self_pct);
	pms_json__end(&j);
	pms_json__arr(&j, "rows");
	for (size_t i = 0; i < t->rows.nr && (int)i < entries; i++) {
		const struct pms_top_row *r = &t->rows.rows[i];
		uint64_t shown = t->off_cpu ? t->rows.shown_period : t->rows.shown_samples;

		pms_json__obj(&j, NULL);
		pms_json__double(&j, "overhead_pct", shown ? 100.0 * (double)(t->off_cpu ? r->period : r->samples) /
							     (double)shown : 0.0);
		pms_json__uint(&j, "samples", r->samples);
		pms_json__uint(&j, t->off_cpu ? "blocked_ns" : "period_ns", r->period);
		if (has_key(t, PMS_TOP_COMM))
			pms_json__str(&j, "comm", r->comm);
		if (has_key(t, PMS_TOP_PID))
			pms_json__uint(&j, "pid", r->pid);
		if (has_key(t, PMS_TOP_TID))
			pms_json__uint(&j, "tid", r->tid);
		if (has_key(t, PMS_TOP_DSO)) {
			if (r->dso)
				pms_json__str(&j, "dso", r->dso);
			else
				pms_json__null(&j, "dso");
		}
		if (has_key(t, PMS_TOP_SYM)) {
			pms_json__str(&j, "sym", r->sym);
			pms_json__bool(&j, "kernel", r->kind == PMS_STACK_KERNEL);
		}
		pms_json__end(&j);
	}
	pms_json__end(&j);
	pms_json__end(&j);
	pms_json__finish(&j);
	if (sb.oom)
		die("out of memory");
	fwrite(sb.buf, 1, sb.len, stdout);
	fflush(stdout);
	strbuf_release(&sb);
}

static bool any_alive(const pid_t *pids, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!kill(pids[i], 0) || errno != ESRCH)
			return true;
	return false;
}

/* Sample until the next refresh is due; false when asked to stop or the targets are gone. */
static bool wait_refresh(struct top *t, uint64_t due_ns)
{
	while (!stop_signals__requested) {
		uint64_t now = pms_clock__monotonic_ns();
		int err;

		if (now >= due_ns)
			return true;
		err = pms_profiler__poll(t->pr, (int)((due_ns - now) / 1000000 + 1 > 100 ? 100 : (due_ns - now) / 1000000 + 1));
		if (err == -ENOMEM)
			die("out of memory");
		if (err < 0 && err != -EINTR) {
			error("reading the samples: %s", strerror(-err));
			return false;
		}
		if (t->po.nr_pids && !any_alive(t->po.pids, t->po.nr_pids))
			return false;
	}
	return false;
}

static int run_batch(struct top *t, int iterations, int entries)
{
	uint64_t last = pms_clock__monotonic_ns(), due = last + (uint64_t)((t->delay_s < 0.5 ? t->delay_s : 0.5) * 1e9);
	int ret = 0;
	bool more = true;

	for (int i = 0; more && (iterations <= 0 || i < iterations); i++) {
		uint64_t now;

		/* the first refresh comes early (at most half a second), the rest every -d */
		more = wait_refresh(t, due);
		now = pms_clock__monotonic_ns();
		t->interval_s = (double)(now - last) / 1e9;
		last = now;
		due = now + (uint64_t)(t->delay_s * 1e9);
		if (top__refresh(t)) {
			error("%s", t->message);
			ret = EXIT_RUNTIME;
			break;
		}
		if (o.json)
			print_json(t, entries);
		else
			print_text(t, entries);
	}
	if (t->output && t->view && top__write(t)) {
		error("%s", t->message);
		ret = EXIT_RUNTIME;
	} else if (t->output && t->view) {
		fprintf(stderr, "pmuscope: %s\n", t->message);
	}
	return ret;
}

/* -u: every process the user runs now (by name or number). */
static void pids_of_user(const char *user, pid_t **pids, size_t *nr)
{
	struct passwd *pw = getpwnam(user);
	char *end;
	unsigned long uid = strtoul(user, &end, 10);

	if (pw)
		uid = pw->pw_uid;
	else if (!*user || *end)
		usage_error(&cmd_top, "-u: no user '%s'", user);
	if (pms_processes__of_user((uid_t)uid, pids, nr))
		usage_error(&cmd_top, "-u: user '%s' runs no process now", user);
}

static int run(int argc, char **argv)
{
	struct top t = { .decay_num = 7, .decay_den = 8 };
	struct pms_cpulist cpus = { 0 };
	pid_t *pids = NULL;
	char target[96];
	const char *bad = NULL;
	const char *term = getenv("TERM");
	bool batch;
	int pos, ret = 0;

	pos = opt_parse(&cmd_top, &argc, argv, 0);
	if (pos < argc)
		usage_error(&cmd_top, "unexpected argument '%s' (top takes no command: use -p PID)", argv[pos]);
	if (o.delay < 0 || (o.delay > 0 && o.delay < 0.1))
		usage_error(&cmd_top, "-d: want at least 0.1 seconds");
	if (o.freq < 0 || o.freq > 100000)
		usage_error(&cmd_top, "-F: want 1..100000 samples per second, not %d", o.freq);
	if (o.decay < 0 || o.decay > 1)
		usage_error(&cmd_top, "--decay: want a fraction in (0, 1] of the weight kept per refresh");
	if (!!o.pid + !!o.tid + !!o.user > 1)
		usage_error(&cmd_top, "-p, -t and -u cannot be combined");
	if ((o.pid || o.tid || o.user) && o.all)
		usage_error(&cmd_top, "-a samples every process: leave it out with -p, -t or -u");
	if (o.hide_kernel && o.hide_user)
		usage_error(&cmd_top, "-K and -U together hide every row");
	if (o.off_cpu && o.cpu)
		usage_error(&cmd_top, "-C does not go with --off-cpu (a blocked thread may wake on any CPU)");
	if (o.call_order && strcmp(o.call_order, "caller") && strcmp(o.call_order, "callee"))
		usage_error(&cmd_top, "--call-order: want caller or callee, not '%s'", o.call_order);
	if (o.format && !output__format(&cmd_top, o.format))
		usage_error(&cmd_top, "--format: unknown");
	if (o.entries < 0)
		usage_error(&cmd_top, "-E: want a positive number of rows");
	t.nr_keys = 0;
	if (pms_top_keys__parse(o.sort ? o.sort : "dso,sym", t.keys, &t.nr_keys, &bad))
		usage_error(&cmd_top, "--sort: unknown key '%s' (want comm, pid, tid, dso or sym, comma-separated)", bad);
	if (o.cpu) {
		size_t b = 0;

		if (pms_cpulist__parse(o.cpu, &cpus, &b) || !cpus.nr)
			usage_error(&cmd_top, "-C: bad CPU list '%s'", o.cpu);
		t.po.cpus = cpus.cpus;
		t.po.nr_cpus = cpus.nr;
	}
	if (o.pid)
		opt_parse_id_list(&cmd_top, "-p/--pid", o.pid, 1, &pids, &t.po.nr_pids);
	else if (o.tid)
		opt_parse_id_list(&cmd_top, "-t/--tid", o.tid, 1, &pids, &t.po.nr_pids);
	else if (o.user)
		pids_of_user(o.user, &pids, &t.po.nr_pids);
	for (size_t i = 0; i < t.po.nr_pids; i++)
		if (kill(pids[i], 0) && errno == ESRCH) {
			error("no process or thread %d", (int)pids[i]);
			ret = EXIT_RUNTIME;
			goto out;
		}
	t.po.sz = sizeof(t.po);
	t.po.pids = pids;
	t.po.threads = o.tid != NULL;
	t.po.freq = o.freq ? (unsigned int)o.freq : 999;
	t.po.try_hardware = true;
	t.po.duration_s = o.delay ? o.delay : 2;
	t.force_ring = o.no_bpf || (getenv("PMS_TOP_NO_BPF") && strcmp(getenv("PMS_TOP_NO_BPF"), "0"));
	t.off_cpu = o.off_cpu;
	t.delay_s = o.delay ? o.delay : 2;
	t.zero = o.zero;
	if (o.decay > 0) {
		t.decay_num = (uint64_t)(o.decay * 1000000 + 0.5);
		t.decay_den = 1000000;
	}
	t.filter.hide_kernel = o.hide_kernel;
	t.filter.hide_user = o.hide_user;
	t.call_graph = o.call_graph;
	t.callers_first = o.call_order && !strcmp(o.call_order, "caller");
	t.output = o.output;
	t.format = o.format;
	if (o.pid)
		snprintf(target, sizeof(target), "process%s %s", strchr(o.pid, ',') ? "es" : "", o.pid);
	else if (o.tid)
		snprintf(target, sizeof(target), "thread%s %s", strchr(o.tid, ',') ? "s" : "", o.tid);
	else if (o.user)
		snprintf(target, sizeof(target), "user %s (%zu processes)", o.user, t.po.nr_pids);
	else if (o.cpu)
		snprintf(target, sizeof(target), "CPUs %s", o.cpu);
	else
		snprintf(target, sizeof(target), "every process");
	t.target = target;

	batch = o.batch || o.stdio || o.json || !isatty(STDOUT_FILENO) || !isatty(STDIN_FILENO);
	if (!batch && (!term || !strcmp(term, "dumb") || !*term)) {
		note("TERM is %s: no terminal view; printing refreshes as text (batch mode)", term ? "dumb" : "unset");
		batch = true;
	}
	stop_signals__install_flag();
	if (top__start(&t)) {
		error("%s", t.message);
		ret = EXIT_RUNTIME;
		goto out;
	}
	if (t.ring)
		note("sampling through perf's ring buffers: %s", t.why_ring);
	sample_cpu(&t);
	ret = batch ? run_batch(&t, o.iterations, o.entries ? o.entries : 30) : top_tui__run(&t, o.iterations);
out:
	top__stop(&t);
	pms_top_rows__release(&t.rows);
	pms_stacks__free(t.view);
	top__set_regex(&t, NULL);
	free(t.dso_text);
	pms_cpulist__release(&cpus);
	free(pids);
	return ret;
}
#endif

PMS_COMMAND(top, "top",
	    "a live view of the hottest functions, counted in the kernel with BPF (or off-CPU time with o)",
	    "pmuscope top [-d <s>] [-b [-n <n>] [--json]] [-a | -p <pids> | -t <tids> | -u <user>] [-C <cpus>] [-F <hz>] [-K | -U] [-s <keys>] [-g] [-z] [--off-cpu]");
