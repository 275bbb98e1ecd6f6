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
#include "data/header_text.h"
#include "data/reader.h"
#include "data/tracing_data.h"
#include "ring/data_src.h"
#include "symbol/resolver.h"
#include "util/cpulist.h"
#include "util/strbuf.h"

enum field {
	F_COMM = 1 << 0,
	F_TID = 1 << 1,
	F_PID = 1 << 2,
	F_TIME = 1 << 3,
	F_CPU = 1 << 4,
	F_EVENT = 1 << 5,
	F_IP = 1 << 6,
	F_SYM = 1 << 7,
	F_SYMOFF = 1 << 8,
	F_DSO = 1 << 9,
	F_PERIOD = 1 << 10,
	F_TRACE = 1 << 11,
	F_ADDR = 1 << 12,
	F_SRCLINE = 1 << 13,
	F_DATA_SRC = 1 << 14,
	F_WEIGHT = 1 << 15,
	F_INS_LAT = 1 << 16,
	F_PHYS_ADDR = 1 << 17,
	F_DATA_PAGE_SIZE = 1 << 18,
	F_CODE_PAGE_SIZE = 1 << 19,
};

static const struct {
	const char *name;
	unsigned field;
	uint64_t sample_bit;  /* the sample_type bit the field needs, 0: none */
	const char *sample_name;
} field_names[] = {
	{ "comm", F_COMM, 0, NULL },
	{ "tid", F_TID, PERF_SAMPLE_TID, "TID" },
	{ "pid", F_PID, PERF_SAMPLE_TID, "TID" },
	{ "time", F_TIME, PERF_SAMPLE_TIME, "TIME" },
	{ "cpu", F_CPU, PERF_SAMPLE_CPU, "CPU" },
	{ "event", F_EVENT, 0, NULL },
	{ "ip", F_IP, PERF_SAMPLE_IP, "IP" },
	{ "sym", F_SYM, 0, NULL },
	{ "symoff", F_SYMOFF, 0, NULL },
	{ "dso", F_DSO, 0, NULL },
	{ "period", F_PERIOD, 0, NULL },  /* perf prints attr.sample_period without PERIOD */
	{ "addr", F_ADDR, PERF_SAMPLE_ADDR, "ADDR" },
	{ "data_src", F_DATA_SRC, PERF_SAMPLE_DATA_SRC, "DATA_SRC" },
	{ "weight", F_WEIGHT, PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT, "WEIGHT" },
	{ "ins_lat", F_INS_LAT, PERF_SAMPLE_WEIGHT_STRUCT, "WEIGHT_STRUCT" },
	{ "phys_addr", F_PHYS_ADDR, PERF_SAMPLE_PHYS_ADDR, "PHYS_ADDR" },
	{ "data_page_size", F_DATA_PAGE_SIZE, PERF_SAMPLE_DATA_PAGE_SIZE, "DATA_PAGE_SIZE" },
	{ "code_page_size", F_CODE_PAGE_SIZE, PERF_SAMPLE_CODE_PAGE_SIZE, "CODE_PAGE_SIZE" },
	{ "srcline", F_SRCLINE, 0, NULL },
	{ "trace", F_TRACE, PERF_SAMPLE_RAW, "RAW" },
};

#define DEFAULT_FIELDS (F_COMM | F_TID | F_CPU | F_TIME | F_EVENT | F_IP | F_SYM | F_SYMOFF | F_DSO | F_PERIOD)
#define DEFAULT_TRACE_FIELDS (F_COMM | F_TID | F_CPU | F_TIME | F_EVENT | F_TRACE)
/* perf's defaults for PERF_TYPE_RAW events (memory sampling: mem-loads, ldlat events) */
#define DEFAULT_RAW_FIELDS (DEFAULT_FIELDS | F_ADDR | F_DATA_SRC | F_WEIGHT | F_PHYS_ADDR | F_DATA_PAGE_SIZE | \
			    F_CODE_PAGE_SIZE | F_INS_LAT)
#define FIELD_LIST "comm,tid,pid,time,cpu,event,ip,sym,symoff,dso,period,addr,data_src,weight,ins_lat," \
		   "phys_addr,data_page_size,code_page_size,srcline,trace"

/* Every option's value: reset_opts() sets them all back to the defaults. */
static struct script_opts {
	const char *input;
	const char *fields;
	bool header, ns, hide_callchain, recover, stats, inline_frames;
	int max_stack;
	const char *pids, *tids, *comms, *cpus, *time;
} o;

static const struct opt opts[] = {
	OPT_STRING('i', "input", &o.input, "<file>", "input file (default perf.data, - for stdin)"),
	OPT_STRING('F', "fields", &o.fields, "<fields>",
		   FIELD_LIST "; +f adds, -f removes"),
	OPT_BOOL(0, "header", &o.header, "print the file's metadata (# lines) first"),
	OPT_BOOL(0, "ns", &o.ns, "timestamps in nanoseconds"),
	OPT_BOOL('G', "hide-call-graph", &o.hide_callchain, "print only the sampled IP, not the call chain"),
	OPT_INT(0, "max-stack", &o.max_stack, "<n>", "frames printed per call chain (default 127)"),
	OPT_BOOL(0, "inline", &o.inline_frames, "show inlined functions of DWARF-unwound frames (default; --no-inline)"),
	OPT_STRING(0, "pid", &o.pids, "<pids>", "only samples of these processes (comma-separated)"),
	OPT_STRING(0, "tid", &o.tids, "<tids>", "only samples of these threads (comma-separated)"),
	OPT_STRING(0, "comms", &o.comms, "<names>", "only samples of threads with these names (comma-separated)"),
	OPT_STRING('C', "cpu", &o.cpus, "<cpus>", "only samples taken on these CPUs (0-3,8)"),
	OPT_STRING(0, "time", &o.time, "<start,end>", "only samples in [start, end] seconds (either may be empty)"),
	OPT_BOOL(0, "recover", &o.recover, "print the samples before damage in a truncated or corrupt file"),
	OPT_BOOL(0, "stats", &o.stats, "after the samples, print record counts and unresolved frames to stderr"),
	OPTS_SYMBOLS,
	OPT_END(),
};

/* Forget the options of a previous run (commands run more than once in one process: tests). */
static void reset_opts(void)
{
	symbol_opts__reset();
	o = (struct script_opts){ .inline_frames = true };
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

/* Per event: which fields print. */
struct evfields {
	unsigned fields;
	bool user_set;
};

static int parse_fields(const char *spec, unsigned *set, unsigned *add, unsigned *del, bool *replace)
{
	char *copy = xstrdup(spec), *save = NULL;
	int err = 0;

	*set = *add = *del = 0;
	*replace = false;
	for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char mode = 0;
		unsigned f = 0;

		if (*tok == '+' || *tok == '-')
			mode = *tok++;
		for (size_t i = 0; i < sizeof(field_names) / sizeof(field_names[0]); i++)
			if (!strcmp(tok, field_names[i].name))
				f = field_names[i].field;
		if (!f) {
			struct strbuf valid = STRBUF_INIT;

			for (size_t i = 0; i < sizeof(field_names) / sizeof(field_names[0]); i++)
				strbuf_addf(&valid, "%s%s", i ? ", " : "", field_names[i].name);
			error("unknown field '%s' in -F (valid: %s)", tok, strbuf_str(&valid));
			strbuf_release(&valid);
			err = -1;
			break;
		}
		if (mode == '+')
			*add |= f;
		else if (mode == '-')
			*del |= f;
		else {
			*set |= f;
			*replace = true;
		}
	}
	free(copy);
	return err;
}

static unsigned default_fields(const struct perf_event_attr *a, bool use_callchain)
{
	unsigned f = a->type == PERF_TYPE_TRACEPOINT ? DEFAULT_TRACE_FIELDS :
		     a->type == PERF_TYPE_RAW ? DEFAULT_RAW_FIELDS : DEFAULT_FIELDS;

	if (a->type == PERF_TYPE_TRACEPOINT && use_callchain && (a->sample_type & PERF_SAMPLE_CALLCHAIN))
		f |= F_IP | F_SYM | F_SYMOFF | F_DSO;
	/* perf drops default fields the samples cannot fill */
	for (size_t i = 0; i < sizeof(field_names) / sizeof(field_names[0]); i++)
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

static void print_time(FILE *out, uint64_t t)
{
	uint64_t secs = t / 1000000000ULL, ns = t % 1000000000ULL;

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

static void print_sym(FILE *out, const struct pms_frame *f, unsigned fields, uint64_t adj)
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
			  uint64_t adj, unsigned fields)
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

static int run(int argc, char **argv)
{
	struct pms_session_opts sopts = { .sz = sizeof(sopts), .callchain = true };
	const struct pms_session_sample *ss;
	struct pms_session *s = NULL;
	struct pms_data_reader *r;
	struct evfields *evf;
	struct filters flt;
	struct trace_fmt tf = { 0 };
	const char *path;
	unsigned fset = 0, fadd = 0, fdel = 0;
	bool replace = false, use_callchain = false, want_trace = false;
	size_t nr_attrs, name_width = 0;
	int pos, rc, ret = 0, data_src_width = 0;
	FILE *out = stdout;
	static char outbuf[1 << 20];

	pos = opt_parse(&cmd_script, &argc, argv, 0);
	if (pos < argc)
		usage_error(&cmd_script, "unexpected argument '%s'", argv[pos]);
	if (o.max_stack < 0)
		usage_error(&cmd_script, "--max-stack must be >= 1, not %d", o.max_stack);
	if (o.fields && parse_fields(o.fields, &fset, &fadd, &fdel, &replace))
		return EXIT_USAGE;
	if (parse_filters(&flt)) {
		release_filters(&flt);
		return EXIT_USAGE;
	}
	path = o.input ? o.input : "perf.data";
	sopts.recover = o.recover;
	sopts.callchain = !o.hide_callchain;
	sopts.max_stack = o.max_stack > 0 ? (size_t)o.max_stack : 0;
	rc = data_input__open_session(&s, path, &sopts, DATA_INPUT_RECORD_OR_I);
	if (rc) {
		if (rc == -EBADMSG && !o.recover)
			note("--recover prints the samples before the damage");
		release_filters(&flt);
		return EXIT_RUNTIME;
	}
	r = pms_session__reader(s);
	nr_attrs = pms_data_reader__nr_attrs(r);
	evf = xcalloc(nr_attrs ? nr_attrs : 1, sizeof(*evf));
	for (size_t i = 0; i < nr_attrs; i++) {
		const struct perf_event_attr *a = pms_data_reader__attr(r, i);
		const char *name = pms_data_reader__attr_name(r, i);

		if (a->sample_type & PERF_SAMPLE_CALLCHAIN)
			use_callchain = true;
		(void)name;
	}
	if (o.hide_callchain)
		use_callchain = false;
	for (size_t i = 0; i < nr_attrs; i++) {
		const struct perf_event_attr *a = pms_data_reader__attr(r, i);
		unsigned f = replace ? fset : default_fields(a, use_callchain);

		f = (f | fadd) & ~fdel;
		/* perf ignores 'trace' for events other than tracepoints ("not valid for software events") */
		if (a->type != PERF_TYPE_TRACEPOINT)
			f &= ~F_TRACE;
		if (replace || fadd) {
			unsigned asked = (replace ? fset | fadd : fadd) &
					 (a->type == PERF_TYPE_TRACEPOINT ? ~0u : ~(unsigned)F_TRACE);

			for (size_t k = 0; k < sizeof(field_names) / sizeof(field_names[0]); k++) {
				if (!(asked & field_names[k].field) || !field_names[k].sample_bit ||
				    (a->sample_type & field_names[k].sample_bit))
					continue;
				error("samples for '%s' event do not have %s attribute set; cannot print "
				      "'%s' field", pms_data_reader__attr_name(r, i) ?: "?",
				      field_names[k].sample_name, field_names[k].name);
				ret = EXIT_RUNTIME;
				goto out;
			}
		}
		if ((f & F_SYMOFF) && !(f & F_SYM))
			f &= ~F_SYMOFF;
		evf[i].fields = f;
		if ((f & F_TRACE) && a->type == PERF_TYPE_TRACEPOINT)
			want_trace = true;
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
	if (o.header) {
		struct strbuf hb = STRBUF_INIT;

		pms_data_header__text(r, path, &hb);
		output__put(out, &hb);
	}
	while ((rc = pms_session__next(s, &ss)) > 0) {
		unsigned f = evf[ss->attr_idx].fields;
		bool chain = use_callchain && ss->has_callchain && (f & F_IP);
		size_t w = name_width;

		if (!wanted(&flt, ss))
			continue;

		if (f & F_COMM) {
			put_padded(out, ss->comm, chain ? 0 : 16, false);
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
			put_uint(out, ss->cpu, 10, 3, false, '0');
			put_str(out, "] ");
		}
		if (f & F_TIME)
			print_time(out, ss->time_ns);
		if (f & F_PERIOD) {
			put_uint(out, ss->period, 10, 10, false, ' ');
			fputc_unlocked(' ', out);
		}
		if (f & F_EVENT) {
			put_padded(out, ss->event_name, (int)w, false);
			put_str(out, ": ");
		}
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
			if (chain) {
				fputc('\n', out);
				/* perf discards a chain with an invalid context marker */
				for (size_t k = 0; k < ss->nr_frames && !ss->bad_callchain; k++) {
					const struct pms_frame *fr = &ss->frames[k];
					/* perf prints DWARF-unwound callers at the call instruction */
					uint64_t adj = ss->dwarf_unwound && fr->caller &&
						       fr->kind == PMS_FRAME_USER;

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
out:
	trace_fmt__close(&tf, path);
	release_filters(&flt);
	free(evf);
	pms_session__free(s);
	return ret;
}

PMS_COMMAND(script, "script",
	    "print the samples of a perf.data file as perf script text",
	    "pmuscope script [<options>]");
