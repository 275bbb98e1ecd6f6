// SPDX-License-Identifier: MIT
// `pmuscope script`: print the samples of a perf.data file as `perf script` text (what FlameGraph, speedscope and Firefox Profiler import).
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>

#include "cmd.h"
#include "data_input.h"
#include "output.h"
#include "symbol_opts.h"
#include "util/time_range.h"
#include "aggregate/session.h"
#include "event/attr_print.h"
#include "event/regs.h"
#include "data/format.h"
#include "data/header_text.h"
#include "data/reader.h"
#include "data/tracing_data.h"
#include "ring/branch_name.h"
#include "ring/data_src.h"
#include "ring/record.h"
#include "symbol/disasm.h"
#include "symbol/dso.h"
#include "symbol/resolver.h"
#include "util/cpulist.h"
#include "util/fileio.h"
#include "util/ptrmap.h"
#include "util/strbuf.h"

/* The -F fields, in perf's order (the bit order is only for the table). */
#define F(n) (1ULL << (n))
#define F_COMM F(0)
#define F_TID F(1)
#define F_PID F(2)
#define F_TIME F(3)
#define F_CPU F(4)
#define F_EVENT F(5)
#define F_IP F(6)
#define F_SYM F(7)
#define F_SYMOFF F(8)
#define F_DSO F(9)
#define F_PERIOD F(10)
#define F_TRACE F(11)
#define F_ADDR F(12)
#define F_SRCLINE F(13)
#define F_DATA_SRC F(14)
#define F_WEIGHT F(15)
#define F_INS_LAT F(16)
#define F_PHYS_ADDR F(17)
#define F_DATA_PAGE_SIZE F(18)
#define F_CODE_PAGE_SIZE F(19)
#define F_MISC F(20)
#define F_IREGS F(21)
#define F_UREGS F(22)
#define F_BRSTACK F(23)
#define F_BRSTACKSYM F(24)
#define F_BRSTACKOFF F(25)
#define F_FLAGS F(26)
#define F_TOD F(27)
#define F_BPF_OUTPUT F(28)
#define F_BRSTACKINSN F(29)
#define F_BRSTACKINSNLEN F(30)
#define F_CALLINDENT F(31)
#define F_INSN F(32)
#define F_INSNLEN F(33)
#define F_SYNTH F(34)
#define F_METRIC F(35)
#define F_SRCCODE F(36)
#define F_IPC F(37)

static const struct {
	const char *name;
	uint64_t field;
	uint64_t sample_bit;  /* the sample_type bit the field needs, 0: none */
	const char *sample_name;
} field_names[] = {
	{ "comm", F_COMM, 0, NULL },
	{ "tid", F_TID, PERF_SAMPLE_TID, "TID" },
	{ "pid", F_PID, PERF_SAMPLE_TID, "TID" },
	{ "time", F_TIME, PERF_SAMPLE_TIME, "TIME" },
	{ "cpu", F_CPU, PERF_SAMPLE_CPU, "CPU" },
	{ "event", F_EVENT, 0, NULL },
	{ "trace", F_TRACE, PERF_SAMPLE_RAW, "RAW" },
	{ "ip", F_IP, PERF_SAMPLE_IP, "IP" },
	{ "sym", F_SYM, 0, NULL },
	{ "dso", F_DSO, 0, NULL },
	{ "addr", F_ADDR, PERF_SAMPLE_ADDR, "ADDR" },
	{ "symoff", F_SYMOFF, 0, NULL },
	{ "srcline", F_SRCLINE, 0, NULL },
	{ "period", F_PERIOD, 0, NULL },  /* perf prints attr.sample_period without PERIOD */
	{ "iregs", F_IREGS, PERF_SAMPLE_REGS_INTR, "IREGS" },
	{ "uregs", F_UREGS, PERF_SAMPLE_REGS_USER, "UREGS" },
	{ "brstack", F_BRSTACK, 0, NULL },      /* perf prints nothing without a branch stack */
	{ "brstacksym", F_BRSTACKSYM, 0, NULL },
	{ "flags", F_FLAGS, 0, NULL },
	{ "data_src", F_DATA_SRC, PERF_SAMPLE_DATA_SRC, "DATA_SRC" },
	{ "weight", F_WEIGHT, PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT, "WEIGHT" },
	{ "bpf-output", F_BPF_OUTPUT, 0, NULL },
	{ "brstackinsn", F_BRSTACKINSN, 0, NULL },
	{ "brstackinsnlen", F_BRSTACKINSNLEN, 0, NULL },
	{ "brstackoff", F_BRSTACKOFF, 0, NULL },
	{ "callindent", F_CALLINDENT, 0, NULL },
	{ "insn", F_INSN, 0, NULL },
	{ "insnlen", F_INSNLEN, 0, NULL },
	{ "synth", F_SYNTH, 0, NULL },
	{ "phys_addr", F_PHYS_ADDR, PERF_SAMPLE_PHYS_ADDR, "PHYS_ADDR" },
	{ "metric", F_METRIC, 0, NULL },
	{ "misc", F_MISC, 0, NULL },
	{ "srccode", F_SRCCODE, 0, NULL },
	{ "ipc", F_IPC, 0, NULL },
	{ "tod", F_TOD, 0, NULL },
	{ "data_page_size", F_DATA_PAGE_SIZE, PERF_SAMPLE_DATA_PAGE_SIZE, "DATA_PAGE_SIZE" },
	{ "code_page_size", F_CODE_PAGE_SIZE, PERF_SAMPLE_CODE_PAGE_SIZE, "CODE_PAGE_SIZE" },
	{ "ins_lat", F_INS_LAT, PERF_SAMPLE_WEIGHT_STRUCT, "WEIGHT_STRUCT" },
};

#define NR_FIELDS (sizeof(field_names) / sizeof(field_names[0]))
#define DEFAULT_FIELDS (F_COMM | F_TID | F_CPU | F_TIME | F_EVENT | F_IP | F_SYM | F_SYMOFF | F_DSO | F_PERIOD)
#define DEFAULT_TRACE_FIELDS (F_COMM | F_TID | F_CPU | F_TIME | F_EVENT | F_TRACE)
/* perf's defaults for PERF_TYPE_RAW events (memory sampling: mem-loads, ldlat events) */
#define DEFAULT_RAW_FIELDS (DEFAULT_FIELDS | F_ADDR | F_DATA_SRC | F_WEIGHT | F_PHYS_ADDR | F_DATA_PAGE_SIZE | \
			    F_CODE_PAGE_SIZE | F_INS_LAT)
#define FIELD_LIST "comm,tid,pid,time,cpu,event,trace,ip,sym,dso,addr,symoff,srcline,period,iregs,uregs," \
		   "brstack,brstacksym,flags,data_src,weight,bpf-output,brstackinsn,brstackinsnlen,brstackoff," \
		   "callindent,insn,insnlen,synth,phys_addr,metric,misc,srccode,ipc,tod,data_page_size," \
		   "code_page_size,ins_lat"

/* perf's -F event types ("sw:ip,sym"): attr.type, plus synthesized and other PMUs' events */
enum ftype { T_HW, T_SW, T_TRACE, T_HWCACHE, T_RAW, T_BREAK, T_SYNTH, T_OTHER, T__NR };

#ifndef PERF_TYPE_SYNTH
#define PERF_TYPE_SYNTH 3000000000U  /* perf's synthesized events (Intel PT's ptwrite, power...) */
#endif

static enum ftype ftype_of(const struct perf_event_attr *a)
{
	if (a->type == PERF_TYPE_SYNTH)
		return T_SYNTH;
	return a->type < PERF_TYPE_MAX ? (enum ftype)a->type : T_OTHER;
}

/* Every option's value: reset_opts() sets them all back to the defaults. */
static struct script_opts {
	const char *input;
	struct opt_strings fields;
	bool header, header_only, ns, hide_callchain, recover, stats, inline_frames;
	bool reltime, deltatime, full_source_path, force, verbose, demangle, demangle_kernel;
	bool show_task, show_mmap, show_switch, show_namespace, show_lost, show_round, show_bpf, show_cgroup,
		show_text_poke;
	int max_stack;
	bool show_on_off, per_event_dump;
	const char *pids, *tids, *comms, *cpus, *time, *symbols, *dsos, *stop_bt, *switch_on, *switch_off;
} o;

#define SCRIPT_LANG_WHY "perl and python scripting is not built into pmuscope: pipe 'pmuscope script' " \
			"text into your own tool, or use 'pmuscope export --format json'"
#define AUX_WHY "decodes an AUX area trace (Intel PT, Arm CoreSight/SPE), which pmuscope does not decode"
#define GUEST_WHY "pmuscope does not symbolize KVM guests' frames (they print as [unknown])"
#define DLFILTER_WHY "perf's dlfilter plugin ABI (perf_dlfilter.h) is not supported: filter with --pid, " \
		     "--tid, --comms, -C, --time, -S, --dsos, or filter the text"

static const struct opt opts[] = {
	OPT_STRING('i', "input", &o.input, "<file>", "input file (default perf.data, - for stdin)"),
	OPT_STRINGS('F', "fields", &o.fields, "<[type:]fields>",
		    "fields to print (" FIELD_LIST "); +f adds to the defaults, -f removes; "
		    "type: hw, sw, trace, raw, break, synth applies them to those events only"),
	OPT_BOOL(0, "header", &o.header, "print the file's metadata (# lines) first"),
	OPT_BOOL(0, "header-only", &o.header_only, "print only the file's metadata (# lines)"),
	OPT_BOOL('I', "show-info", &o.header, "the file's metadata first (same as --header)"),
	OPT_BOOL(0, "ns", &o.ns, "timestamps in nanoseconds"),
	OPT_BOOL(0, "reltime", &o.reltime, "timestamps relative to the first record printed"),
	OPT_BOOL(0, "deltatime", &o.deltatime, "timestamps relative to the previous record printed"),
	OPT_BOOL('G', "hide-call-graph", &o.hide_callchain, "print only the sampled IP, not the call chain"),
	OPT_INT(0, "max-stack", &o.max_stack, "<n>", "frames printed per call chain (default 127)"),
	OPT_STRING(0, "stop-bt", &o.stop_bt, "<symbols>", "end each call chain at the first of these symbols"),
	OPT_BOOL(0, "inline", &o.inline_frames, "show inlined functions of DWARF-unwound frames (default; --no-inline)"),
	OPT_BOOL(0, "full-source-path", &o.full_source_path, "srcline with the file's full path"),
	OPT_BOOL(0, "demangle", &o.demangle, "demangle C++ and Rust symbols (default; --no-demangle is ignored)"),
	OPT_BOOL(0, "demangle-kernel", &o.demangle_kernel, "accepted: kernel symbols are printed as kallsyms has them"),
	OPT_STRING(0, "pid", &o.pids, "<pids>", "only samples of these processes (comma-separated)"),
	OPT_STRING(0, "tid", &o.tids, "<tids>", "only samples of these threads (comma-separated)"),
	OPT_STRING('c', "comms", &o.comms, "<names>", "only samples of threads with these names (comma-separated)"),
	OPT_STRING('C', "cpu", &o.cpus, "<cpus>", "only samples taken on these CPUs (0-3,8)"),
	OPT_STRING('S', "symbols", &o.symbols, "<symbols>", "only samples whose IP is in these functions"),
	OPT_STRING(0, "dsos", &o.dsos, "<dsos>", "only samples whose IP is in these objects (path or base name)"),
	OPT_STRING(0, "time", &o.time, "<start,end>", "only samples in [start, end] seconds, both included (either may be empty)"),
	OPT_BOOL(0, "show-task-events", &o.show_task, "print COMM, FORK and EXIT records"),
	OPT_BOOL(0, "show-mmap-events", &o.show_mmap, "print MMAP and MMAP2 records"),
	OPT_BOOL(0, "show-switch-events", &o.show_switch, "print context switch records (record --switch-events)"),
	OPT_BOOL(0, "show-namespace-events", &o.show_namespace, "print NAMESPACES records (record --namespaces)"),
	OPT_BOOL(0, "show-lost-events", &o.show_lost, "print LOST records"),
	OPT_BOOL(0, "show-round-events", &o.show_round, "print FINISHED_ROUND records"),
	OPT_BOOL(0, "show-bpf-events", &o.show_bpf, "print KSYMBOL and BPF_EVENT records"),
	OPT_BOOL(0, "show-cgroup-events", &o.show_cgroup, "print CGROUP records (record --all-cgroups)"),
	OPT_BOOL(0, "show-text-poke-events", &o.show_text_poke, "print TEXT_POKE records (record --kcore)"),
	OPT_STRING(0, "switch-on", &o.switch_on, "<event>", "only samples after one of this event (which is not printed)"),
	OPT_STRING(0, "switch-off", &o.switch_off, "<event>", "no samples after one of this event, until --switch-on's"),
	OPT_BOOL(0, "show-on-off-events", &o.show_on_off, "print the --switch-on/--switch-off events' samples too"),
	OPT_BOOL(0, "per-event-dump", &o.per_event_dump, "each event's samples into FILE.EVENT.dump, not stdout"),
	OPT_BOOL('f', "force", &o.force, "accepted: files are read whoever owns them"),
	OPT_BOOL('v', "verbose", &o.verbose, "accepted: the output is the same"),
	OPT_BOOL(0, "recover", &o.recover, "print the samples before damage in a truncated or corrupt file"),
	OPT_BOOL(0, "stats", &o.stats, "after the samples, print record counts and unresolved frames to stderr"),
	OPTS_SYMBOLS,
	OPT_REFUSED('s', "script", "<name>", SCRIPT_LANG_WHY),
	OPT_REFUSED('g', "gen-script", "<lang>", SCRIPT_LANG_WHY),
	OPT_REFUSED('l', "list", NULL, SCRIPT_LANG_WHY),
	OPT_REFUSED('a', "all-cpus", NULL, "only for 'perf script record <script>', a script language's "
		    "recording: use 'pmuscope record -a'"),
	OPT_REFUSED('d', "debug-mode", NULL, "perf's internal checks of its own event ordering; "
		    "'pmuscope script --stats' counts lost events and undecodable samples"),
	OPT_REFUSED('D', "dump-raw-trace", NULL, "a raw record dump is not implemented: --show-*-events print "
		    "the side-band records, --header the metadata"),
	OPT_REFUSED(0, "dump-unsorted-raw-trace", NULL, "a raw record dump is not implemented: "
		    "--show-*-events print the side-band records, --header the metadata"),
	OPT_REFUSED('k', "vmlinux", "<file>", "vmlinux images are not read: kernel symbols come from "
		    "kallsyms (--kallsyms) and the build-id cache"),
	OPT_REFUSED('L', "Latency", NULL, "libtraceevent's latency columns (irqs/preemption disabled) are not "
		    "printed; -F trace prints the tracepoint's fields"),
	OPT_REFUSED(0, "addr-range", "<n>", "-S takes function names here, not addresses"),
	OPT_REFUSED(0, "itrace", "<opts>", AUX_WHY),
	OPT_REFUSED(0, "insn-trace", "<raw|disasm>", AUX_WHY),
	OPT_REFUSED(0, "call-trace", "<...>", AUX_WHY),
	OPT_REFUSED(0, "call-ret-trace", "<...>", AUX_WHY),
	OPT_REFUSED(0, "graph-function", "<symbols>", "only with --call-trace/--call-ret-trace, whose AUX area trace (Intel PT) pmuscope does not decode"),
	OPT_REFUSED(0, "xed", "<...>", "Intel XED is not packaged in Debian; -F insn prints the instruction "
		    "bytes as perf does without it"),
	OPT_REFUSED(0, "max-blocks", "<n>", "only for -F brstackinsn, which is not implemented"),
	OPT_REFUSED(0, "stitch-lbr", NULL, "stitching LBR call stacks (record --call-graph lbr) is not "
		    "implemented"),
	OPT_REFUSED(0, "dlfilter", "<file>", DLFILTER_WHY),
	OPT_REFUSED(0, "dlarg", "<argument>", DLFILTER_WHY),
	OPT_REFUSED(0, "list-dlfilters", NULL, DLFILTER_WHY),
	OPT_REFUSED(0, "guest-code", NULL, GUEST_WHY),
	OPT_REFUSED(0, "guestkallsyms", "<file>", GUEST_WHY),
	OPT_REFUSED(0, "guestmodules", "<file>", GUEST_WHY),
	OPT_REFUSED(0, "guestmount", "<directory>", GUEST_WHY),
	OPT_REFUSED(0, "guestvmlinux", "<file>", GUEST_WHY),
	OPT_REFUSED(0, "show-kernel-path", NULL, "the kernel is named [kernel.kallsyms]; its symbols come from "
		    "kallsyms, not a file with a path"),
	OPT_END(),
};

/* Forget the options of a previous run (commands run more than once in one process: tests). */
static void reset_opts(void)
{
	symbol_opts__reset();
	opt_strings__release(&o.fields);
	o = (struct script_opts){ .inline_frames = true, .demangle = true };
}

/* Sample filters (perf script's --pid/--tid/--comms/-C/--time). */
struct filters {
	pid_t *pids, *tids;
	size_t nr_pids, nr_tids;
	char **comms;
	size_t nr_comms;
	struct pms_cpulist cpus;
	bool have_cpus;
	uint64_t t0, t1;   /* ns; t1 == 0: no end */
};

static int parse_filters(struct filters *flt)
{
	memset(flt, 0, sizeof(*flt));
	if (o.pids)
		opt_parse_id_list(&cmd_script, "--pid", o.pids, 0, &flt->pids, &flt->nr_pids);
	if (o.tids)
		opt_parse_id_list(&cmd_script, "--tid", o.tids, 0, &flt->tids, &flt->nr_tids);
	if (o.comms) {
		char *copy = xstrdup(o.comms), *save = NULL;

		for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
			flt->comms = xrealloc(flt->comms, (flt->nr_comms + 1) * sizeof(*flt->comms));
			flt->comms[flt->nr_comms++] = xstrdup(tok);
		}
		free(copy);
	}
	if (o.cpus) {
		if (pms_cpulist__parse(o.cpus, &flt->cpus, NULL)) {
			error("-C: '%s' is not a CPU list (e.g. 0-3,8)", o.cpus);
			return -1;
		}
		flt->have_cpus = true;
	}
	if (o.time) {
		if (pms_time_range__parse(o.time, &flt->t0, &flt->t1)) {
			error("--time: '%s' is not <start>,<end> in seconds (e.g. 1234.5,1236)", o.time);
			return -1;
		}
	}
	return 0;
}

static void release_filters(struct filters *flt)
{
	free(flt->pids);
	free(flt->tids);
	for (size_t i = 0; i < flt->nr_comms; i++)
		free(flt->comms[i]);
	free(flt->comms);
	if (flt->have_cpus)
		pms_cpulist__release(&flt->cpus);
}

static bool in_list(const pid_t *v, size_t nr, long x)
{
	for (size_t i = 0; i < nr; i++)
		if (v[i] == x)
			return true;
	return false;
}

static bool wanted(const struct filters *flt, const struct pms_session_sample *ss)
{
	if (flt->nr_pids && !in_list(flt->pids, flt->nr_pids, (long)ss->pid))
		return false;
	if (flt->nr_tids && !in_list(flt->tids, flt->nr_tids, (long)ss->tid))
		return false;
	if (flt->nr_comms) {
		size_t i;

		for (i = 0; i < flt->nr_comms && strcmp(flt->comms[i], ss->comm); i++)
			;
		if (i == flt->nr_comms)
			return false;
	}
	if (flt->have_cpus && !pms_cpulist__contains(&flt->cpus, (int)ss->cpu))
		return false;
	if (ss->time_ns < flt->t0 || (flt->t1 && ss->time_ns > flt->t1))
		return false;
	return true;
}

/* What -F asked for one event type: a replacing list, and fields added to and removed from it or the defaults. */
struct fsel {
	uint64_t set, add, del;
	bool replace;
};

static const char *const ftype_names[T__NR] = {
	[T_HW] = "hw", [T_SW] = "sw", [T_TRACE] = "trace", [T_RAW] = "raw", [T_BREAK] = "break",
	[T_SYNTH] = "synth",
};

/* One -F value: "[type:]f1,+f2,-f3" into sel[] (every type without a prefix); 0 or -1 (said why). */
static int parse_fields(const char *spec, struct fsel sel[T__NR])
{
	const char *colon = strchr(spec, ':');
	char *copy, *save = NULL;
	struct fsel one = { 0 };
	int err = 0, type = -1;

	if (colon) {
		for (int t = 0; t < T__NR; t++)
			if (ftype_names[t] && (size_t)(colon - spec) == strlen(ftype_names[t]) &&
			    !strncmp(spec, ftype_names[t], (size_t)(colon - spec)))
				type = t;
		if (type < 0) {
			error("-F '%s': invalid event type (hw, sw, trace, raw, break, synth)", spec);
			return -1;
		}
		spec = colon + 1;
	}
	copy = xstrdup(spec);
	for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char mode = 0;
		uint64_t f = 0;

		if (*tok == '+' || *tok == '-')
			mode = *tok++;
		for (size_t i = 0; i < NR_FIELDS; i++)
			if (!strcmp(tok, field_names[i].name))
				f = field_names[i].field;
		if (!f) {
			struct strbuf valid = STRBUF_INIT;

			for (size_t i = 0; i < NR_FIELDS; i++)
				strbuf_addf(&valid, "%s%s", i ? ", " : "", field_names[i].name);
			error("unknown field '%s' in -F (valid: %s)", tok, strbuf_str(&valid));
			strbuf_release(&valid);
			err = -1;
			break;
		}
		if (mode == '+') {
			one.add |= f;
			one.del &= ~f;
		} else if (mode == '-') {
			one.del |= f;
			one.add &= ~f;
		} else {
			one.set |= f;
			one.replace = true;
		}
	}
	free(copy);
	if (err)
		return err;
	for (int t = 0; t < T__NR; t++) {
		if (type >= 0 && t != type)
			continue;
		if (one.replace) {
			sel[t].set = one.set;
			sel[t].replace = true;
			sel[t].add = sel[t].del = 0;
		}
		sel[t].add = (sel[t].add | one.add) & ~one.del;
		sel[t].del = (sel[t].del | one.del) & ~one.add;
	}
	return 0;
}

static uint64_t default_fields(const struct perf_event_attr *a, bool use_callchain)
{
	uint64_t f = a->type == PERF_TYPE_TRACEPOINT ? DEFAULT_TRACE_FIELDS :
		     a->type == PERF_TYPE_RAW ? DEFAULT_RAW_FIELDS : DEFAULT_FIELDS;

	if (a->type == PERF_TYPE_TRACEPOINT && use_callchain && (a->sample_type & PERF_SAMPLE_CALLCHAIN))
		f |= F_IP | F_SYM | F_SYMOFF | F_DSO;
	/* perf drops default fields the samples cannot fill */
	for (size_t i = 0; i < NR_FIELDS; i++)
		if (field_names[i].sample_bit && !(a->sample_type & field_names[i].sample_bit))
			f &= ~field_names[i].field;
	return f;
}

/*
 * The per-frame output: printf's format parsing was 45% of the run time on
 * large files, so the hot lines are assembled with these instead.
 */
static void put_str(FILE *out, const char *str)
{
	fputs_unlocked(str, out);
}

static void put_uint(FILE *out, uint64_t v, unsigned base, int width, bool left, char pad)
{
	char buf[32], *p = buf + sizeof(buf);
	int n;

	do {
		*--p = "0123456789abcdef"[v % base];
		v /= base;
	} while (v);
	n = (int)(buf + sizeof(buf) - p);
	if (!left)
		for (; n < width; n++)
			*--p = pad;
	fwrite_unlocked(p, 1, (size_t)(buf + sizeof(buf) - p), out);
	if (left)
		for (; n < width; n++)
			fputc_unlocked(' ', out);
}

/* "%*s" / "%-*s" */
static void put_padded(FILE *out, const char *str, int width, bool left)
{
	int n = (int)strlen(str);

	if (left)
		put_str(out, str);
	for (; n < width; n++)
		fputc_unlocked(' ', out);
	if (!left)
		put_str(out, str);
}

static void put_int(FILE *out, int v, int width, bool left)
{
	if (v < 0) {
		char buf[24];

		snprintf(buf, sizeof(buf), "%d", v);
		put_padded(out, buf, width, left);
		return;
	}
	put_uint(out, (uint64_t)v, 10, width, left, ' ');
}

/* perf's --reltime / --deltatime state: times of the first and of the previous record printed */
static uint64_t initial_time, previous_time;

static void print_time(FILE *out, uint64_t t)
{
	uint64_t secs, ns;

	if (o.reltime) {
		if (!initial_time)
			initial_time = t;
		t -= initial_time;
	} else if (o.deltatime) {
		uint64_t prev = previous_time;

		previous_time = t;
		t = prev ? t - prev : 0;
	}
	secs = t / 1000000000ULL;
	ns = t % 1000000000ULL;
	if (o.ns) {
		put_uint(out, secs, 10, 5, false, ' ');
		fputc_unlocked('.', out);
		put_uint(out, ns, 10, 9, false, '0');
	} else {
		char buf[32], *p = buf + sizeof(buf) - 1;
		uint64_t us = ns / 1000;

		*p = '\0';
		for (int i = 0; i < 6; i++, us /= 10)
			*--p = (char)('0' + us % 10);
		*--p = '.';
		do {
			*--p = (char)('0' + secs % 10);
			secs /= 10;
		} while (secs);
		put_padded(out, p, 12, false);
	}
	put_str(out, ": ");
}

static void print_sym(FILE *out, const struct pms_frame *f, uint64_t fields, uint64_t adj)
{
	if (fields & F_SYM) {
		if (f->res.sym) {
			fputc_unlocked(' ', out);
			put_str(out, f->res.sym);
			if (fields & F_SYMOFF) {
				put_str(out, "+0x");
				put_uint(out, f->res.sym_off - adj, 16, 0, false, ' ');
			}
		} else {
			put_str(out, " [unknown]");
		}
	}
	if (fields & F_DSO) {
		put_str(out, " (");
		put_str(out, f->dso_path ? f->dso_path : f->res.dso);
		fputc_unlocked(')', out);
	}
}

/*
 * perf expands the DWARF-unwound user frames of --call-graph dwarf samples
 * into their inlined functions (innermost first), as addr2line lists them:
 * each gets a line with the outer symbol's offset and addr2line's name for
 * it (the linkage name where DWARF has one); "(inlined)" wherever that name
 * is not the ELF symbol's, the out-of-line function included (glibc's
 * "__GI___sbrk" in "__sbrk"). Returns false (print the frame normally)
 * without line info.
 */
static bool print_inlines(FILE *out, struct pms_resolver *r, const struct pms_frame *f, uint64_t addr,
			  uint64_t adj, uint64_t fields)
{
	const struct pms_srcline_frame *sl;
	struct pms_resolved res = f->res;
	size_t nr = 0;

	if (res.status != PMS_RES_OK || !res.elf)
		return false;
	res.addr -= adj;
	if (pms_resolver__srcline(r, &res, &sl, &nr) || !nr)
		return false;
	for (size_t i = 0; i < nr; i++)
		if (!sl[i].func)
			return false;
	for (size_t i = 0; i < nr; i++) {
		const char *name = sl[i].linkage_name ? sl[i].linkage_name : sl[i].func;
		bool inlined = strcmp(name, f->res.sym) != 0;

		fprintf(out, "\t%16" PRIx64, addr);
		if (fields & F_SYM) {
			fprintf(out, " %s", name);
			if (fields & F_SYMOFF)
				fprintf(out, "+0x%" PRIx64, f->res.sym_off - adj);
		}
		if (inlined)
			fputs(" (inlined)", out);
		else if (fields & F_DSO)
			fprintf(out, " (%s)", f->dso_path ? f->dso_path : f->res.dso);
		fputc('\n', out);
	}
	return true;
}

/*
 * perf's srcline line: "  file:line" with the file's base name; without
 * line information, one-line samples and kernel frames get "  dso[address]",
 * other chain frames nothing. Callers are looked up at the call instruction.
 */
static void print_srcline(FILE *out, struct pms_resolver *r, const struct pms_frame *f, bool chain)
{
	const struct pms_srcline_frame *sl;
	struct pms_resolved res = f->res;
	size_t nr = 0;

	if (f->caller && res.status == PMS_RES_OK)
		res.addr--;
	if (res.status == PMS_RES_OK && res.elf && !pms_resolver__srcline(r, &res, &sl, &nr) && nr &&
	    sl[0].file && sl[0].line) {
		const char *base = strrchr(sl[0].file, '/');

		if (o.full_source_path)  /* as addr2line names it: under the compile directory */
			fprintf(out, "\n  %s%s%s:%u", sl[0].file[0] != '/' && sl[0].comp_dir ? sl[0].comp_dir : "",
				sl[0].file[0] != '/' && sl[0].comp_dir ? "/" : "", sl[0].file, sl[0].line);
		else
			fprintf(out, "\n  %s:%u", base ? base + 1 : sl[0].file, sl[0].line);
	} else if (!chain || f->kind == PMS_FRAME_KERNEL) {
		const char *base = strrchr(f->res.dso, '/');

		fprintf(out, "\n  %s[%" PRIx64 "]", base ? base + 1 : f->res.dso, f->map_addr);
	}
}

/*
 * perf's get_page_size_name(): "N/A" for 0, else unit_number__scnprintf(),
 * which divides by 1024 while the quotient is above 1 (so 1024 is "1024B"
 * and 1 GiB "1024M", as perf prints them).
 */
static const char *page_size_name(uint64_t n, char *buf, size_t size)
{
	static const char unit[] = "BKMG";
	int i = 0;

	if (!n) {
		snprintf(buf, size, "N/A");
		return buf;
	}
	while (n / 1024 > 1 && i < 3) {
		n /= 1024;
		i++;
	}
	snprintf(buf, size, "%" PRIu64 "%c", n, unit[i]);
	return buf;
}

/*
 * perf script's data_src field (data_src__fprintf()): the value in 16 hex
 * columns, a blank, its decoding, all cut to perf's 100-byte buffer and
 * left-aligned to the longest seen so far (perf's static maxlen: lines
 * before a longer one stay shorter).
 */
static void print_data_src(FILE *out, uint64_t data_src, int *maxlen)
{
	char decode[100], line[100];
	int len;

	pms_data_src__describe(data_src, decode, sizeof(decode));
	len = snprintf(line, sizeof(line), "%16" PRIx64 " %s", data_src, decode);
	if (len >= (int)sizeof(line))
		len = (int)sizeof(line) - 1;
	if (*maxlen < len)
		*maxlen = len;
	fprintf(out, "%-*s", *maxlen, line);
}

/* perf's sample_addr_correlates_sym(): ADDR is a code/data address worth a symbol (page faults) */
static bool addr_has_symbol(const struct perf_event_attr *a)
{
	return a->type == PERF_TYPE_SOFTWARE &&
	       (a->config == PERF_COUNT_SW_PAGE_FAULTS || a->config == PERF_COUNT_SW_PAGE_FAULTS_MIN ||
		a->config == PERF_COUNT_SW_PAGE_FAULTS_MAJ);
}

/* perf's "tod" field: the wall-clock time of a sample from the file's HEADER_CLOCK_DATA */
struct clock_data {
	bool enabled;
	uint64_t tod_ns, clockid_ns;
};

static void clock_data__read(struct clock_data *cd, struct pms_data_reader *r)
{
	const uint8_t *p;
	const void *blob;
	size_t size;

	memset(cd, 0, sizeof(*cd));
	/* u32 version, u32 clockid, u64 wall-clock ns, u64 clockid ns at the same instant */
	if (pms_data_reader__feature_raw(r, PMS_FEAT_CLOCK_DATA, &blob, &size) || size < 24)
		return;
	p = blob;
	memcpy(&cd->tod_ns, p + 8, 8);
	memcpy(&cd->clockid_ns, p + 16, 8);
	cd->enabled = true;
}

static void print_tod(FILE *out, const struct clock_data *cd, uint64_t t)
{
	uint64_t tod = cd->tod_ns;
	char date[64];
	struct tm tm;
	time_t sec;

	if (!cd->enabled) {
		fputs("disabled ", out);
		return;
	}
	tod = t > cd->clockid_ns ? tod + (t - cd->clockid_ns) : tod - (cd->clockid_ns - t);
	sec = (time_t)(tod / 1000000000ULL);
	if (!localtime_r(&sec, &tm)) {
		fputs("failed ", out);
		return;
	}
	strftime(date, sizeof(date), "%Y-%m-%d %H:%M:%S", &tm);
	if (o.ns)
		fprintf(out, "%s.%09" PRIu64 " ", date, (uint64_t)(tod % 1000000000ULL));
	else
		fprintf(out, "%s.%06" PRIu64 " ", date, (uint64_t)(tod % 1000000000ULL / 1000));
}

/*
 * perf's misc field: the cpumode letters as perf tests them (each mode's
 * bits all set, so a hypervisor sample also says K and U), the record
 * type's own flag, padded to 6 columns.
 */
static void print_misc(FILE *out, uint16_t misc, uint32_t type)
{
	char buf[16];
	int n = 0;

#define HAS(m) ((misc & (m)) == (m))
	if (HAS(PERF_RECORD_MISC_KERNEL))
		buf[n++] = 'K';
	if (HAS(PERF_RECORD_MISC_USER))
		buf[n++] = 'U';
	if (HAS(PERF_RECORD_MISC_HYPERVISOR))
		buf[n++] = 'H';
	if (HAS(PERF_RECORD_MISC_GUEST_KERNEL))
		buf[n++] = 'G';
	if (HAS(PERF_RECORD_MISC_GUEST_USER))
		buf[n++] = 'g';
	switch (type) {
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		if (HAS(PERF_RECORD_MISC_MMAP_DATA))
			buf[n++] = 'M';
		break;
	case PERF_RECORD_COMM:
		if (HAS(PERF_RECORD_MISC_COMM_EXEC))
			buf[n++] = 'E';
		break;
	case PERF_RECORD_SWITCH:
	case PERF_RECORD_SWITCH_CPU_WIDE:
		if (HAS(PERF_RECORD_MISC_SWITCH_OUT)) {
			buf[n++] = 'S';
			if (misc & PERF_RECORD_MISC_SWITCH_OUT_PREEMPT)
				buf[n++] = 'p';
		}
		break;
	default:
		break;
	}
#undef HAS
	fwrite(buf, 1, (size_t)n, out);
	fprintf(out, "%*s", 6 - n, " ");
}

/*
 * The start of a line, samples and side-band records alike (perf's
 * perf_sample__fprintf_start()): comm, pid/tid, cpu, misc, tod, time.
 */
static void print_start(FILE *out, const struct pms_session_sample *ss, const char *comm, uint64_t f, bool chain,
			uint16_t misc, uint32_t type, const struct clock_data *cd)
{
	if (f & F_COMM) {
		put_padded(out, comm ? comm : ":-1", chain ? 0 : 16, false);
		fputc_unlocked(' ', out);
	}
	if ((f & F_PID) && (f & F_TID)) {
		put_int(out, (int)ss->pid, 5, false);
		fputc_unlocked('/', out);
		put_int(out, (int)ss->tid, 5, true);
		fputc_unlocked(' ', out);
	} else if (f & (F_PID | F_TID)) {
		put_int(out, (int)(f & F_PID ? ss->pid : ss->tid), 5, false);
		fputc_unlocked(' ', out);
	}
	if (f & F_CPU) {
		fputc_unlocked('[', out);
		if ((int)ss->cpu < 0)
			fprintf(out, "%03d", (int)ss->cpu);
		else
			put_uint(out, ss->cpu, 10, 3, false, '0');
		put_str(out, "] ");
	}
	if (f & F_MISC)
		print_misc(out, misc, type);
	if (f & F_TOD)
		print_tod(out, cd, ss->time_ns);
	if (f & F_TIME)
		print_time(out, ss->time_ns);
}

/* perf's -F iregs/uregs: " ABI:n " then "%5s:0x%lx " per register of the mask */
static void print_regs(FILE *out, const struct pms_regs *regs, const char *machine)
{
	enum pms_regs_arch arch = pms_regs__arch_of(machine);
	uint64_t i = 0;

	if (!regs->abi || !regs->nr)
		return;
	fprintf(out, " ABI:%" PRIu64 " ", regs->abi);
	for (int bit = 0; bit < 64 && i < regs->nr; bit++)
		if (regs->mask & (1ULL << bit))
			fprintf(out, "%5s:0x%" PRIx64 " ", pms_regs__sample_name(arch, bit), regs->regs[i++]);
}

/* perf 6.1's print_bstack_flags(): /mispredicted/in_tx/abort/cycles/type */
static void print_branch_flags(FILE *out, const struct perf_branch_entry *e)
{
	char pred = !(e->mispred || e->predicted) ? '-' : e->predicted ? 'P' : 'M';

	fprintf(out, "/%c/%c/%c/%u/%s ", pred, e->in_tx ? 'X' : '-', e->abort ? 'A' : '-', (unsigned)e->cycles,
		pms_branch_entry__type_name(e));
}

/* A branch address's object as perf's map__fprintf_dsoname() names it */
static void print_branch_dso(FILE *out, const struct pms_frame *fr)
{
	fprintf(out, "(%s)", fr->dso_path ? fr->dso_path : fr->res.dso);
}

/* brstackoff's offset: in the mapped file, or for the kernel from its recorded mapping (perf's kernel map has pgoff 0) */
static uint64_t branch_offset(struct pms_session *s, const struct pms_frame *fr)
{
	uint64_t start;

	if (fr->kind == PMS_FRAME_KERNEL && !pms_session__kernel_map_start(s, fr->ip, &start))
		return fr->ip - start;
	return fr->map_addr;
}

/* -F brstack, brstacksym, brstackoff (one of them, in that order of precedence, as perf) */
static void print_brstack(FILE *out, struct pms_session *s, const struct pms_session_sample *ss, uint64_t f)
{
	const struct pms_sample *smp = ss->sample;

	for (uint64_t i = 0; i < smp->branch_nr; i++) {
		const struct perf_branch_entry *e = &smp->branches[i];
		struct pms_frame from, to;

		pms_session__resolve_pid_addr(s, ss->pid, e->from, &from);
		pms_session__resolve_pid_addr(s, ss->pid, e->to, &to);
		if (f & F_BRSTACKSYM) {
			const struct pms_frame *fr[2] = { &from, &to };

			for (int k = 0; k < 2; k++) {
				if (k)
					fputc('/', out);
				if (fr[k]->res.sym)
					fprintf(out, "%s+0x%" PRIx64, fr[k]->res.sym, fr[k]->res.sym_off);
				else
					fputs("[unknown]", out);
				if (f & F_DSO)
					print_branch_dso(out, fr[k]);
			}
		} else {
			/* brstackoff: file offsets of mapped objects, as perf's map__map_ip() */
			bool off = !(f & F_BRSTACK);

			fprintf(out, " 0x%" PRIx64, off ? branch_offset(s, &from) : (uint64_t)e->from);
			if (f & F_DSO)
				print_branch_dso(out, &from);
			fprintf(out, "/0x%" PRIx64, off ? branch_offset(s, &to) : (uint64_t)e->to);
			if (f & F_DSO)
				print_branch_dso(out, &to);
		}
		print_branch_flags(out, e);
	}
}

/*
 * perf's -F insnlen,insn without XED: the sampled instruction's length and
 * bytes, read from the mapped file (0 and nothing where the file is not
 * here, kernel code included, as perf prints them).
 */
static void print_insn(FILE *out, const struct pms_frame *fr, uint64_t f)
{
	struct pms_disasm_insn *insn = NULL;
	const uint8_t *code;
	size_t avail = 0, nr = 0;
	int len = 0;

	if (fr->kind == PMS_FRAME_USER && fr->res.elf && !pms_dso__code(fr->res.elf, fr->res.addr, 16, &code, &avail) &&
	    avail && !pms_disasm(fr->res.elf->e_machine, PMS_DISASM_ATT, code, avail < 16 ? avail : 16, fr->ip, &insn,
				 &nr) && nr && insn[0].kind != PMS_INSN_BAD)
		len = insn[0].size;
	if (f & F_INSNLEN)
		fprintf(out, " ilen: %d", len);
	if ((f & F_INSN) && len) {
		fputs(" insn:", out);
		for (int i = 0; i < len; i++)
			fprintf(out, " %02x", insn[0].bytes[i]);
	}
	free(insn);
}

/*
 * perf's -F srccode: after the sample line, "|LINE     text" of the
 * sampled line's source, unless the thread's previous sample printed the
 * same file and line. Source files stay loaded (a few at a time).
 */
struct srccode {
	struct pms_ptrmap last;  /* tid -> struct srccode_last * */
	struct {
		char *path, *text;
		size_t len;
	} files[8];
	unsigned next;
};

struct srccode_last {
	char *file;
	unsigned line;
};

static const char *srccode__line(struct srccode *sc, const char *path, unsigned line, size_t *len)
{
	const char *p, *end;
	int i;

	for (i = 0; i < 8 && !(sc->files[i].path && !strcmp(sc->files[i].path, path)); i++)
		;
	if (i == 8) {
		char *text;
		size_t n;

		if (pms_file__read_all(path, &text, &n))
			return NULL;
		i = (int)(sc->next++ % 8);
		free(sc->files[i].path);
		free(sc->files[i].text);
		sc->files[i].path = xstrdup(path);
		sc->files[i].text = text;
		sc->files[i].len = n;
	}
	p = sc->files[i].text;
	end = p + sc->files[i].len;
	for (unsigned l = 1; l < line && p < end; l++) {
		p = memchr(p, '\n', (size_t)(end - p));
		if (!p)
			return NULL;
		p++;
	}
	if (p >= end)
		return NULL;
	*len = strcspn(p, "\n");
	if (p + *len > end)
		*len = (size_t)(end - p);
	return p;
}

static void srccode__print(struct srccode *sc, FILE *out, struct pms_resolver *r, const struct pms_session_sample *ss)
{
	const struct pms_frame *f = &ss->frames[0];
	const struct pms_srcline_frame *sl;
	struct pms_resolved res = f->res;
	struct srccode_last *last;
	const char *text;
	size_t nr = 0, len;

	if (res.status != PMS_RES_OK || !res.elf || pms_resolver__srcline(r, &res, &sl, &nr) || !nr || !sl[0].file ||
	    !sl[0].line)
		return;
	last = pms_ptrmap__get(&sc->last, ss->tid);
	if (last && last->file && !strcmp(last->file, sl[0].file) && last->line == sl[0].line)
		return;
	if (sl[0].file[0] != '/' && sl[0].comp_dir) {
		struct strbuf full = STRBUF_INIT;

		strbuf_addf(&full, "%s/%s", sl[0].comp_dir, sl[0].file);
		text = srccode__line(sc, strbuf_str(&full), sl[0].line, &len);
		strbuf_release(&full);
	} else {
		text = srccode__line(sc, sl[0].file, sl[0].line, &len);
	}
	if (!text)
		return;
	fprintf(out, "|%-8u %.*s\n", sl[0].line, (int)len, text);
	if (!last) {
		last = xcalloc(1, sizeof(*last));
		if (pms_ptrmap__put(&sc->last, ss->tid, last)) {
			free(last);
			return;
		}
	}
	free(last->file);
	last->file = xstrdup(sl[0].file);
	last->line = sl[0].line;
}

static void srccode__release(struct srccode *sc)
{
	for (int i = 0; i < 8; i++) {
		free(sc->files[i].path);
		free(sc->files[i].text);
	}
	for (size_t i = 0; i < sc->last.nr; i++) {
		struct srccode_last *l = sc->last.vals[i];

		if (l)
			free(l->file);
		free(l);
	}
	pms_ptrmap__release(&sc->last);
}

static const char *const ns_names[] = { "net", "uts", "ipc", "pid", "user", "mnt", "cgroup", "time" };

/* perf's text poke bytes: 16 a line after "Old bytes:" / "New bytes:" */
static void print_poke_bytes(FILE *out, const uint8_t *b, unsigned len, const char *which)
{
	for (unsigned i = 0; i < len; i++) {
		if (i % 16 == 0)
			fprintf(out, "            %s bytes:", which);
		fprintf(out, " %02x", b[i]);
		if (i % 16 == 15 || i + 1 == len)
			fputc('\n', out);
	}
}

/* A side-band record after the line start, as perf's perf_event__fprintf() */
static void print_side_band(FILE *out, struct pms_session *s, const struct pms_record *r)
{
	switch (r->type) {
	case PERF_RECORD_MMAP:
		fprintf(out, "PERF_RECORD_MMAP %d/%d: [%#" PRIx64 "(%#" PRIx64 ") @ %#" PRIx64 "]: %c %s\n",
			(int)r->mmap.pid, (int)r->mmap.tid, r->mmap.addr, r->mmap.len, r->mmap.pgoff,
			r->mmap.data ? 'r' : 'x', r->mmap.filename);
		return;
	case PERF_RECORD_MMAP2:
		fprintf(out, "PERF_RECORD_MMAP2 %d/%d: [%#" PRIx64 "(%#" PRIx64 ") @ %#" PRIx64 " ", (int)r->mmap.pid,
			(int)r->mmap.tid, r->mmap.addr, r->mmap.len, r->mmap.pgoff);
		if (r->mmap.has_build_id) {
			fputc('<', out);
			for (unsigned i = 0; i < r->mmap.build_id_size; i++)
				fprintf(out, "%02x", r->mmap.build_id[i]);
			fputc('>', out);
		} else {
			fprintf(out, "%02x:%02x %" PRIu64 " %" PRIu64, r->mmap.maj, r->mmap.min, r->mmap.ino,
				r->mmap.ino_generation);
		}
		fprintf(out, "]: %c%c%c%c %s\n", r->mmap.prot & 1 ? 'r' : '-', r->mmap.prot & 2 ? 'w' : '-',
			r->mmap.prot & 4 ? 'x' : '-', r->mmap.flags & 1 ? 's' : 'p', r->mmap.filename);
		return;
	case PERF_RECORD_COMM:
		fprintf(out, "PERF_RECORD_COMM%s: %s:%d/%d\n", r->comm.exec ? " exec" : "", r->comm.comm,
			(int)r->comm.pid, (int)r->comm.tid);
		return;
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		fprintf(out, "PERF_RECORD_%s(%d:%d):(%d:%d)\n", r->type == PERF_RECORD_FORK ? "FORK" : "EXIT",
			(int)r->task.pid, (int)r->task.tid, (int)r->task.ppid, (int)r->task.ptid);
		return;
	case PERF_RECORD_LOST:
		fprintf(out, "PERF_RECORD_LOST lost %" PRIu64 "\n", r->lost.lost);
		return;
	case PERF_RECORD_SWITCH:
	case PERF_RECORD_SWITCH_CPU_WIDE: {
		const char *in_out = !r->sw.out ? "IN         " : !r->sw.preempt ? "OUT        " : "OUT preempt";

		if (r->type == PERF_RECORD_SWITCH)
			fprintf(out, "PERF_RECORD_SWITCH %s\n", in_out);
		else
			fprintf(out, "PERF_RECORD_SWITCH_CPU_WIDE %s  %s pid/tid: %5d/%-5d\n", in_out,
				r->sw.out ? "next" : "prev", (int)r->sw.next_prev_pid, (int)r->sw.next_prev_tid);
		return;
	}
	case PERF_RECORD_NAMESPACES:
		fprintf(out, "PERF_RECORD_NAMESPACES %d/%d - nr_namespaces: %u\n\t\t[", (int)r->namespaces.pid,
			(int)r->namespaces.tid, (unsigned)r->namespaces.nr);
		for (uint64_t i = 0; i < r->namespaces.nr; i++) {
			if (i && i % 4 == 0)
				fputs("\n\t\t ", out);
			fprintf(out, "%u/%s: %" PRIu64 "/%#" PRIx64 "%s", (unsigned)i,
				i < sizeof(ns_names) / sizeof(ns_names[0]) ? ns_names[i] : "UNKNOWN",
				(uint64_t)r->namespaces.links[i].dev, (uint64_t)r->namespaces.links[i].ino,
				i + 1 != r->namespaces.nr ? ", " : "]\n");
		}
		if (!r->namespaces.nr)
			fputs("]\n", out);
		return;
	case PERF_RECORD_CGROUP:
		fprintf(out, "PERF_RECORD_CGROUP cgroup: %" PRIu64 " %s\n", r->cgroup.id, r->cgroup.path);
		return;
	case PERF_RECORD_KSYMBOL:
		fprintf(out, "PERF_RECORD_KSYMBOL addr %" PRIx64 " len %u type %u flags 0x%x name %s\n", r->ksymbol.addr,
			r->ksymbol.len, r->ksymbol.ksym_type, r->ksymbol.flags, r->ksymbol.name);
		return;
	case PERF_RECORD_BPF_EVENT:
		fprintf(out, "PERF_RECORD_BPF_EVENT type %u, flags %u, id %u\n", r->bpf.type, r->bpf.flags, r->bpf.id);
		return;
	case PERF_RECORD_TEXT_POKE: {
		struct pms_resolved res;

		fprintf(out, "PERF_RECORD_TEXT_POKE %" PRIx64 " ", r->text_poke.addr);
		if (!pms_resolver__kernel(pms_session__resolver(s), r->text_poke.addr, &res) &&
		    res.status == PMS_RES_OK && res.sym)
			fprintf(out, "%s+0x%" PRIx64, res.sym, res.sym_off);
		fprintf(out, " old len %u new len %u\n", r->text_poke.old_len, r->text_poke.new_len);
		print_poke_bytes(out, r->text_poke.bytes, r->text_poke.old_len, "Old");
		print_poke_bytes(out, r->text_poke.bytes + r->text_poke.old_len, r->text_poke.new_len, "New");
		return;
	}
	default:
		fprintf(out, "PERF_RECORD_%s\n", pms_record__type_name(r->type));
		return;
	}
}

/*
 * Tracepoint payloads (the `trace` field): formatted from the file's
 * tracing data, or, for files written without it (pmuscope record before
 * it wrote tracing data), from this machine's tracefs when the file was
 * recorded here.
 */
struct trace_fmt {
	struct pms_tracing_data *td;
	char *buf;
	size_t size;
	uint64_t failed;       /* payloads that could not be formatted */
	char first_why[192];
};

/* %ps in print fmts: kernel symbols, as perf resolves them from its kernel map. */
static const char *trace_kernel_sym(void *ctx, uint64_t addr, uint64_t *start)
{
	struct pms_resolved res;

	if (pms_resolver__kernel(ctx, addr, &res) || res.status != PMS_RES_OK || !res.sym)
		return NULL;
	*start = addr - res.sym_off;
	return res.sym;
}

/* The file was recorded on this machine (same host and kernel), or does not say. */
static bool recorded_here(const struct pms_data_features *f)
{
	struct utsname u;

	if (uname(&u))
		return false;
	return (!f->hostname || !strcmp(f->hostname, u.nodename)) &&
	       (!f->osrelease || !strcmp(f->osrelease, u.release));
}

static void trace_fmt__open(struct trace_fmt *tf, struct pms_session *s, const char *path)
{
	struct pms_data_reader *r = pms_session__reader(s);
	struct pms_tracepoint_ref *refs;
	char msg[256] = "";
	const void *blob;
	void *synth = NULL;
	size_t size, nr = 0;
	int err;

	if (!pms_data_reader__feature_raw(r, PMS_FEAT_TRACING_DATA, &blob, &size)) {
		err = pms_tracing_data__open(&tf->td, blob, size, msg, sizeof(msg));
		if (err)
			warning("'%s': tracing data: %s; tracepoint fields are not printed", path,
				msg[0] ? msg : strerror(-err));
		else if (pms_tracing_data__warning(tf->td))
			warning("'%s': tracing data: %s", path, pms_tracing_data__warning(tf->td));
		goto resolver;
	}
	refs = xcalloc(pms_data_reader__nr_attrs(r) + 1, sizeof(*refs));
	for (size_t i = 0; i < pms_data_reader__nr_attrs(r); i++) {
		const struct perf_event_attr *a = pms_data_reader__attr(r, i);
		const char *name = pms_data_reader__attr_name(r, i);
		char *copy, *colon;

		if (a->type != PERF_TYPE_TRACEPOINT)
			continue;
		refs[nr].id = a->config;
		/* "sched:sched_switch", perhaps with a ":u" modifier */
		if (name && strchr(name, ':')) {
			copy = xstrdup(name);
			colon = strchr(copy, ':');
			*colon++ = '\0';
			colon[strcspn(colon, ":")] = '\0';
			refs[nr].sys = copy;
			refs[nr].name = colon;
		}
		nr++;
	}
	if (nr && !recorded_here(pms_data_reader__features(r))) {
		warning("'%s' has no tracing data and was recorded on another machine or kernel: "
			"tracepoint fields are not printed", path);
	} else if (nr) {
		err = pms_tracing_data__synthesize(refs, nr, &synth, &size);
		if (!err)
			err = pms_tracing_data__open(&tf->td, synth, size, msg, sizeof(msg));
		if (err)
			warning("'%s' has no tracing data, and tracefs gave none (%s): tracepoint fields "
				"are not printed", path, msg[0] ? msg : strerror(-err));
		free(synth);
	}
	for (size_t i = 0; i < nr; i++)
		free((char *)refs[i].sys);
	free(refs);
resolver:
	/*
	 * perf script names kernel functions (%ps) only in file mode: in a
	 * pipe the tracing data arrives after it set up its resolver, and
	 * addresses print as numbers.
	 */
	if (tf->td && !pms_data_reader__is_pipe(r))
		pms_tracing_data__set_func_resolver(tf->td, trace_kernel_sym, pms_session__resolver(s));
}

/* The formatted payload after the event name, as perf prints it (nothing if it cannot be). */
static void trace_fmt__print(struct trace_fmt *tf, FILE *out, const struct pms_session_sample *ss,
			     uint64_t id)
{
	const struct pms_sample *smp = ss->sample;
	int n;

	if (!tf->td || !smp->raw_size)
		return;
	for (;;) {
		n = pms_tracing_data__format(tf->td, id, (int)ss->cpu, smp->raw, smp->raw_size, tf->buf,
					     tf->size);
		if (n < 0 || (size_t)n < tf->size)
			break;
		tf->size = (size_t)n + 1;
		tf->buf = xrealloc(tf->buf, tf->size);
	}
	if (n >= 0) {
		fwrite_unlocked(tf->buf, 1, (size_t)n, out);
		return;
	}
	if (!tf->failed++) {
		const char *why = n == -EOPNOTSUPP ? pms_tracing_data__why(tf->td, id) : NULL;

		snprintf(tf->first_why, sizeof(tf->first_why), "%s (sample at offset %#" PRIx64 ")",
			 why ? why :
			 n == -ENOENT ? "no format for its tracepoint id" :
			 n == -EBADMSG ? "the payload does not match its format" : strerror(-n),
			 ss->file_offset);
	}
}

static void trace_fmt__close(struct trace_fmt *tf, const char *path)
{
	if (tf->failed)
		warning("'%s': %" PRIu64 " tracepoint payload%s not printed; the first: %s", path,
			tf->failed, tf->failed == 1 ? "" : "s", tf->first_why);
	pms_tracing_data__free(tf->td);
	free(tf->buf);
}

/* The --show-*-events options as the record types the session returns beside samples. */
static uint64_t side_band_types(void)
{
	uint64_t t = 0;

	if (o.show_task)
		t |= 1ULL << PERF_RECORD_COMM | 1ULL << PERF_RECORD_FORK | 1ULL << PERF_RECORD_EXIT;
	if (o.show_mmap)
		t |= 1ULL << PERF_RECORD_MMAP | 1ULL << PERF_RECORD_MMAP2;
	if (o.show_switch)
		t |= 1ULL << PERF_RECORD_SWITCH | 1ULL << PERF_RECORD_SWITCH_CPU_WIDE;
	if (o.show_namespace)
		t |= 1ULL << PERF_RECORD_NAMESPACES;
	if (o.show_lost)
		t |= 1ULL << PERF_RECORD_LOST;
	if (o.show_bpf)
		t |= 1ULL << PERF_RECORD_KSYMBOL | 1ULL << PERF_RECORD_BPF_EVENT;
	if (o.show_cgroup)
		t |= 1ULL << PERF_RECORD_CGROUP;
	if (o.show_text_poke)
		t |= 1ULL << PERF_RECORD_TEXT_POKE;
	return t;
}

static bool in_name_list(const char *list, const char *name)
{
	size_t n = strlen(name);

	for (const char *p = list; name && *p;) {
		size_t len = strcspn(p, ",");

		if (len == n && !strncmp(p, name, n))
			return true;
		p += len;
		if (*p)
			p++;
	}
	return false;
}

/* -S and --dsos: the sample's IP in one of these functions / objects (path or base name) */
static bool wanted_symbol(const struct pms_session_sample *ss)
{
	const struct pms_frame *f = &ss->frames[0];

	if (o.symbols && !(f->res.sym && in_name_list(o.symbols, f->res.sym)))
		return false;
	if (o.dsos) {
		const char *dso = f->dso_path ? f->dso_path : f->res.dso;
		const char *base = dso ? strrchr(dso, '/') : NULL;

		if (!dso || (!in_name_list(o.dsos, dso) && !(base && in_name_list(o.dsos, base + 1))))
			return false;
	}
	return true;
}

/* --switch-on/--switch-off: the event named (as printed, or without its modifiers); -1 and said why if none */
static long find_event(struct pms_session *s, size_t nr_attrs, const char *which, const char *name)
{
	struct strbuf names = STRBUF_INIT;

	for (size_t i = 0; i < nr_attrs; i++) {
		const char *n = pms_session__event_name(s, i);

		if (n && !strcmp(n, name))
			return (long)i;
	}

	for (size_t i = 0; i < nr_attrs; i++)
		strbuf_addf(&names, "%s%s", i ? ", " : "", pms_session__event_name(s, i) ?: "?");
	error("switch-%s event not found (%s)", which, name);
	hint("the file's events: %s", strbuf_str(&names));
	strbuf_release(&names);
	return -1;
}

/* perf's evswitch__discard(): whether to drop this sample, moving the on/off state */
static bool switched_off(long on, long off, bool *discarding, size_t idx)
{
	if (on >= 0 && *discarding) {
		if ((size_t)on != idx)
			return true;
		*discarding = false;
		return !o.show_on_off;
	}
	if (off >= 0 && !*discarding && (size_t)off == idx) {
		*discarding = true;
		return !o.show_on_off;
	}
	return false;
}

static int run(int argc, char **argv)
{
	struct pms_session_opts sopts = { .sz = sizeof(sopts), .callchain = true };
	const struct pms_session_sample *ss;
	struct pms_session *s = NULL;
	struct pms_data_reader *r;
	uint64_t *evf;
	struct filters flt;
	struct trace_fmt tf = { 0 };
	struct fsel sel[T__NR] = { 0 };
	struct clock_data cd;
	struct srccode sc = { 0 };
	const char *path, *arch;
	bool use_callchain = false, want_trace = false, discarding = false;
	long sw_on = -1, sw_off = -1;
	FILE **dumps = NULL;
	char **dump_names = NULL;
	uint64_t *dump_samples = NULL;
	size_t nr_attrs, name_width = 0;
	int pos, rc, ret = 0, data_src_width = 0;
	FILE *out = stdout;
	static char outbuf[1 << 20];

	initial_time = previous_time = 0;
	pos = opt_parse(&cmd_script, &argc, argv, 0);
	if (pos < argc)
		usage_error(&cmd_script, "unexpected argument '%s'", argv[pos]);
	if (o.max_stack < 0)
		usage_error(&cmd_script, "--max-stack must be >= 1, not %d", o.max_stack);
	if (o.reltime && o.deltatime)
		usage_error(&cmd_script, "--reltime and --deltatime exclude each other");
	for (size_t i = 0; i < o.fields.nr; i++)
		if (parse_fields(o.fields.v[i], sel))
			return EXIT_USAGE;
	if (parse_filters(&flt)) {
		release_filters(&flt);
		return EXIT_USAGE;
	}
	path = o.input ? o.input : "perf.data";
	sopts.recover = o.recover;
	sopts.callchain = !o.hide_callchain;
	sopts.max_stack = o.max_stack > 0 ? (size_t)o.max_stack : 0;
	sopts.side_band = side_band_types();
	sopts.side_band_rounds = o.show_round;
	rc = data_input__open_session(&s, path, &sopts, DATA_INPUT_RECORD_OR_I);
	if (rc) {
		if (rc == -EBADMSG && !o.recover)
			note("--recover prints the samples before the damage");
		release_filters(&flt);
		return EXIT_RUNTIME;
	}
	r = pms_session__reader(s);
	arch = pms_data_reader__features(r)->arch;
	clock_data__read(&cd, r);
	nr_attrs = pms_data_reader__nr_attrs(r);
	evf = xcalloc(nr_attrs ? nr_attrs : 1, sizeof(*evf));
	for (size_t i = 0; i < nr_attrs; i++)
		if (pms_data_reader__attr(r, i)->sample_type & PERF_SAMPLE_CALLCHAIN)
			use_callchain = true;
	if (o.hide_callchain)
		use_callchain = false;
	for (size_t i = 0; i < nr_attrs; i++) {
		const struct perf_event_attr *a = pms_data_reader__attr(r, i);
		const struct fsel *fs = &sel[ftype_of(a)];
		uint64_t f = fs->replace ? fs->set : default_fields(a, use_callchain);
		uint64_t asked = fs->replace ? fs->set | fs->add : fs->add;

		f = (f | fs->add) & ~fs->del;
		/* perf ignores 'trace' for events other than tracepoints ("not valid for software events") */
		if (a->type != PERF_TYPE_TRACEPOINT) {
			f &= ~F_TRACE;
			asked &= ~F_TRACE;
		}
		for (size_t k = 0; k < NR_FIELDS; k++) {
			if (!(asked & field_names[k].field) || !field_names[k].sample_bit ||
			    (a->sample_type & field_names[k].sample_bit))
				continue;
			error("samples for '%s' event do not have %s attribute set; cannot print '%s' field",
			      pms_data_reader__attr_name(r, i) ?: "?", field_names[k].sample_name, field_names[k].name);
			ret = EXIT_RUNTIME;
			goto out;
		}
		if ((f & (F_BRSTACKINSN | F_BRSTACKINSNLEN)) &&
		    (!(a->sample_type & PERF_SAMPLE_BRANCH_STACK) || !(a->branch_sample_type & PERF_SAMPLE_BRANCH_ANY))) {
			error("-F brstackinsn: display of branch stack assembler requested, but the samples of '%s' "
			      "have no all-branch filter", pms_data_reader__attr_name(r, i) ?: "?");
			hint("record with 'perf record -b' (a PMU with a branch stack: Intel LBR, Arm BRBE)");
			ret = EXIT_RUNTIME;
			goto out;
		}
		if (f & (F_BRSTACKINSN | F_BRSTACKINSNLEN)) {
			error("-F brstackinsn: disassembling the branch stack's blocks is not implemented; "
			      "-F brstack,brstacksym print its branches");
			ret = EXIT_RUNTIME;
			goto out;
		}
		if ((f & F_TOD) && !cd.enabled) {
			error("can't provide 'tod' time, missing clock data in '%s'", path);
			hint("record with -k/--clockid (perf record -k CLOCK_MONOTONIC)");
			ret = EXIT_RUNTIME;
			goto out;
		}
		if ((f & F_SYMOFF) && !(f & F_SYM))
			f &= ~F_SYMOFF;
		evf[i] = f;
		if ((f & F_TRACE) && a->type == PERF_TYPE_TRACEPOINT)
			want_trace = true;
	}
	if ((o.switch_on && (sw_on = find_event(s, nr_attrs, "on", o.switch_on)) < 0) ||
	    (o.switch_off && (sw_off = find_event(s, nr_attrs, "off", o.switch_off)) < 0)) {
		ret = EXIT_USAGE;
		goto out;
	}
	discarding = sw_on >= 0;
	if (o.per_event_dump) {
		dumps = xcalloc(nr_attrs ? nr_attrs : 1, sizeof(*dumps));
		dump_names = xcalloc(nr_attrs ? nr_attrs : 1, sizeof(*dump_names));
		dump_samples = xcalloc(nr_attrs ? nr_attrs : 1, sizeof(*dump_samples));
		for (size_t i = 0; i < nr_attrs; i++) {
			struct strbuf fn = STRBUF_INIT;

			strbuf_addf(&fn, "%s.%s.dump", path, pms_session__event_name(s, i) ?: "unknown");
			dump_names[i] = xstrdup(strbuf_str(&fn));
			strbuf_release(&fn);
			dumps[i] = fopen(dump_names[i], "w");
			if (!dumps[i]) {
				error("cannot write '%s': %s", dump_names[i], strerror(errno));
				ret = EXIT_RUNTIME;
				goto out;
			}
		}
	}
	if (want_trace)
		trace_fmt__open(&tf, s, path);
	/* event names are right-aligned to the longest, as perf does */
	for (size_t i = 0; i < nr_attrs; i++) {
		const char *n = pms_session__event_name(s, i);
		size_t len = n ? strlen(n) : 0;

		if (len > name_width)
			name_width = len;
	}
	setvbuf(out, outbuf, _IOFBF, sizeof(outbuf));
	if (o.header || o.header_only) {
		struct strbuf hb = STRBUF_INIT;

		pms_data_header__text(r, path, &hb);
		output__put(out, &hb);
		if (o.header_only)
			goto done;
	}
	while ((rc = pms_session__next(s, &ss)) > 0) {
		uint64_t f = nr_attrs ? evf[ss->attr_idx] : 0;
		bool chain = use_callchain && (f & F_IP) &&
			     (ss->record ? pms_data_reader__attr(r, ss->attr_idx)->sample_type & PERF_SAMPLE_CALLCHAIN :
			      ss->has_callchain);
		size_t w = name_width;

		out = stdout;
		if (ss->record) {
			if (ss->record->type == PMS_RECORD_FINISHED_ROUND) {
				put_str(out, "PERF_RECORD_FINISHED_ROUND\n");
				continue;
			}
			if (flt.have_cpus && !pms_cpulist__contains(&flt.cpus, (int)ss->cpu))
				continue;
			print_start(out, ss, ss->record_comm, f, chain, ss->record->misc, ss->record->type, &cd);
			print_side_band(out, s, ss->record);
			continue;
		}
		if ((sw_on >= 0 || sw_off >= 0) && switched_off(sw_on, sw_off, &discarding, ss->attr_idx))
			continue;
		if (!wanted(&flt, ss) || ((o.symbols || o.dsos) && !wanted_symbol(ss)))
			continue;
		if (dumps) {
			out = dumps[ss->attr_idx];
			dump_samples[ss->attr_idx]++;
		}

		print_start(out, ss, ss->comm, f, chain, ss->sample->misc, PERF_RECORD_SAMPLE, &cd);
		if (f & F_PERIOD) {
			put_uint(out, ss->period, 10, 10, false, ' ');
			fputc_unlocked(' ', out);
		}
		if (f & F_EVENT) {
			put_padded(out, ss->event_name, (int)w, false);
			put_str(out, ": ");
		}
		if (f & F_FLAGS)  /* branch kinds of synthesized (AUX) samples: none here */
			fprintf(out, "  %-21s ", "");
		if (f & F_TRACE) /* tracepoints only (above) */
			trace_fmt__print(&tf, out, ss, pms_data_reader__attr(r, ss->attr_idx)->config);
		if (f & F_ADDR) {
			const struct perf_event_attr *a = pms_data_reader__attr(r, ss->attr_idx);
			struct pms_frame af;

			fprintf(out, "%16" PRIx64, ss->sample->addr);
			if (addr_has_symbol(a) && (f & (F_SYM | F_DSO)) &&
			    !pms_session__resolve_addr(s, ss->sample->addr, &af))
				print_sym(out, &af, f, 0);
		}
		if (f & F_DATA_SRC)
			print_data_src(out, ss->sample->data_src, &data_src_width);
		if (f & F_WEIGHT)
			fprintf(out, "%16" PRIu64, ss->sample->weight);
		if (f & F_INS_LAT)
			fprintf(out, "%16" PRIu16, ss->sample->weight_var2_w);
		if (f & F_IP) {
			bool stopped = false;

			if (chain) {
				fputc('\n', out);
				/* perf discards a chain with an invalid context marker */
				for (size_t k = 0; k < ss->nr_frames && !ss->bad_callchain && !stopped; k++) {
					const struct pms_frame *fr = &ss->frames[k];
					/* perf prints DWARF-unwound callers at the call instruction */
					uint64_t adj = ss->dwarf_unwound && fr->caller &&
						       fr->kind == PMS_FRAME_USER;

					/* --stop-bt: the chain ends after the first listed function */
					stopped = o.stop_bt && fr->res.sym && in_name_list(o.stop_bt, fr->res.sym);
					if (o.inline_frames && ss->dwarf_unwound && fr->kind == PMS_FRAME_USER &&
					    !(f & F_SRCLINE) &&
					    print_inlines(out, pms_session__resolver(s), fr, fr->map_addr - adj, adj, f))
						continue;
					fputc_unlocked('\t', out);
					put_uint(out, fr->map_addr - adj, 16, 16, false, ' ');
					print_sym(out, fr, f, adj);
					if (f & F_SRCLINE)
						print_srcline(out, pms_session__resolver(s), fr, true);
					fputc('\n', out);
				}
			} else {
				fputc_unlocked(' ', out);
				put_uint(out, ss->frames[0].ip, 16, 16, false, ' ');
				print_sym(out, &ss->frames[0], f, 0);
				if (f & F_SRCLINE)
					print_srcline(out, pms_session__resolver(s), &ss->frames[0], false);
			}
		}
		if (f & F_IREGS)
			print_regs(out, &ss->sample->regs_intr, arch);
		if (f & F_UREGS)
			print_regs(out, &ss->sample->regs_user, arch);
		if (f & (F_BRSTACK | F_BRSTACKSYM | F_BRSTACKOFF))
			print_brstack(out, s, ss, f);
		if (f & (F_INSN | F_INSNLEN))
			print_insn(out, &ss->frames[0], f);
		if (f & F_PHYS_ADDR)
			fprintf(out, "%16" PRIx64, ss->sample->phys_addr);
		if (f & (F_DATA_PAGE_SIZE | F_CODE_PAGE_SIZE)) {
			char ps[32];

			if (f & F_DATA_PAGE_SIZE)
				fprintf(out, " %s", page_size_name(ss->sample->data_page_size, ps, sizeof(ps)));
			if (f & F_CODE_PAGE_SIZE)
				fprintf(out, " %s", page_size_name(ss->sample->code_page_size, ps, sizeof(ps)));
		}
		fputc('\n', out);
		if (f & F_SRCCODE)
			srccode__print(&sc, out, pms_session__resolver(s), ss);
	}
	fflush(out);
	if (rc < 0) {
		const struct pms_data_error *e = pms_data_reader__error(r);

		error("'%s': %s", path, e->err ? e->msg : strerror(-rc));
		if (e->err)
			note("--recover prints the samples before the damage");
		ret = EXIT_RUNTIME;
	} else if (o.recover && pms_data_reader__error(r)->err) {
		warning("'%s': %s; samples after it are lost", path, pms_data_reader__error(r)->msg);
	}
	if (o.stats) {
		const struct pms_session_stats *st = pms_session__stats(s);

		fprintf(stderr, "samples: %" PRIu64 ", bad samples: %" PRIu64 ", lost events: %" PRIu64
			", dwarf samples: %" PRIu64 " (%" PRIu64 " not unwound)\n", st->samples,
			st->bad_samples, st->lost_events, st->dwarf_samples, st->dwarf_failed);
		for (int k = 0; k < PMS_UNRES__NR; k++)
			if (st->unresolved[k])
				fprintf(stderr, "unresolved leaf frames, %s: %" PRIu64 "\n",
					pms_unres_reason__describe(k), st->unresolved[k]);
	}
done:
	out = stdout;
	fflush(out);
out:
	for (size_t i = 0; dumps && i < nr_attrs; i++) {
		struct stat st;

		if (!dumps[i])
			continue;
		/* perf's summary line per file (perf's size leaves out what its last buffer held) */
		fflush(dumps[i]);
		if (!ret && !fstat(fileno(dumps[i]), &st))
			printf("[ perf script: Wrote %.3f MB %s (%" PRIu64 " samples) ]\n",
			       (double)st.st_size / 1024.0 / 1024.0, dump_names[i], dump_samples[i]);
		fclose(dumps[i]);
	}
	for (size_t i = 0; dump_names && i < nr_attrs; i++)
		free(dump_names[i]);
	free(dump_names);
	free(dumps);
	free(dump_samples);
	srccode__release(&sc);
	trace_fmt__close(&tf, path);
	release_filters(&flt);
	free(evf);
	pms_session__free(s);
	return ret;
}

PMS_COMMAND(script, "script",
	    "print the samples of a perf.data file as perf script text",
	    "pmuscope script [<options>]");
