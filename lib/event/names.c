// SPDX-License-Identifier: MIT
// The kernel's generic hardware, software and hw-cache event names in perf 6.1's spellings.
#include <linux/perf_event.h>
#include <linux/hw_breakpoint.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "event/names.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static const struct pms_event_name hw_names[] = {
	{ "cpu-cycles", "cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES,
	  "CPU core cycles (frequency scales with DVFS)" },
	{ "instructions", NULL, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS,
	  "instructions retired" },
	{ "cache-references", NULL, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_REFERENCES,
	  "cache accesses (LLC on Intel, L2 on AMD Zen, L1D on Arm)" },
	{ "cache-misses", NULL, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES,
	  "cache misses (LLC on Intel, L2 on AMD Zen, L1D refills on Arm)" },
	{ "branch-instructions", "branches", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS,
	  "branch instructions retired" },
	{ "branch-misses", NULL, PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES,
	  "mispredicted branches" },
	{ "bus-cycles", NULL, PERF_TYPE_HARDWARE, PERF_COUNT_HW_BUS_CYCLES,
	  "bus cycles (Intel: reference cycles)" },
	{ "stalled-cycles-frontend", "idle-cycles-frontend", PERF_TYPE_HARDWARE,
	  PERF_COUNT_HW_STALLED_CYCLES_FRONTEND, "cycles the frontend delivered no uops" },
	{ "stalled-cycles-backend", "idle-cycles-backend", PERF_TYPE_HARDWARE,
	  PERF_COUNT_HW_STALLED_CYCLES_BACKEND, "cycles the backend issued no uops" },
	{ "ref-cycles", NULL, PERF_TYPE_HARDWARE, PERF_COUNT_HW_REF_CPU_CYCLES,
	  "reference cycles at a constant rate, unaffected by frequency scaling" },
};

static const struct pms_event_name sw_names[] = {
	{ "cpu-clock", NULL, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK,
	  "high-resolution per-CPU timer (ns)" },
	{ "task-clock", NULL, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK,
	  "time the task ran on a CPU (ns)" },
	{ "page-faults", "faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS,
	  "page faults" },
	{ "context-switches", "cs", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES,
	  "context switches" },
	{ "cpu-migrations", "migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS,
	  "migrations of the task to another CPU" },
	{ "minor-faults", NULL, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MIN,
	  "page faults served without I/O" },
	{ "major-faults", NULL, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MAJ,
	  "page faults that needed I/O" },
	{ "alignment-faults", NULL, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_ALIGNMENT_FAULTS,
	  "unaligned accesses fixed up by the kernel" },
	{ "emulation-faults", NULL, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_EMULATION_FAULTS,
	  "instructions emulated by the kernel" },
	{ "dummy", NULL, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_DUMMY,
	  "counts nothing; carries side-band records" },
	{ "bpf-output", NULL, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_BPF_OUTPUT,
	  "samples written by BPF programs" },
	{ "cgroup-switches", NULL, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CGROUP_SWITCHES,
	  "context switches to a task in another cgroup" },
};

#define NO_ALIAS NULL
/* perf's evsel__hw_cache*[][] spellings: the first is canonical. */
static const char *const cache_types[PERF_COUNT_HW_CACHE_MAX][6] = {
	[PERF_COUNT_HW_CACHE_L1D]  = { "L1-dcache", "l1-d", "l1d", "L1-data", NO_ALIAS },
	[PERF_COUNT_HW_CACHE_L1I]  = { "L1-icache", "l1-i", "l1i", "L1-instruction", NO_ALIAS },
	[PERF_COUNT_HW_CACHE_LL]   = { "LLC", "L2", NO_ALIAS },
	[PERF_COUNT_HW_CACHE_DTLB] = { "dTLB", "d-tlb", "Data-TLB", NO_ALIAS },
	[PERF_COUNT_HW_CACHE_ITLB] = { "iTLB", "i-tlb", "Instruction-TLB", NO_ALIAS },
	[PERF_COUNT_HW_CACHE_BPU]  = { "branch", "branches", "bpu", "btb", "bpc", NO_ALIAS },
	[PERF_COUNT_HW_CACHE_NODE] = { "node", NO_ALIAS },
};

static const char *const cache_ops[PERF_COUNT_HW_CACHE_OP_MAX][5] = {
	[PERF_COUNT_HW_CACHE_OP_READ]     = { "load", "loads", "read", NO_ALIAS },
	[PERF_COUNT_HW_CACHE_OP_WRITE]    = { "store", "stores", "write", NO_ALIAS },
	[PERF_COUNT_HW_CACHE_OP_PREFETCH] = { "prefetch", "prefetches", "speculative-read",
					      "speculative-load", NO_ALIAS },
};

static const char *const cache_results[PERF_COUNT_HW_CACHE_RESULT_MAX][5] = {
	[PERF_COUNT_HW_CACHE_RESULT_ACCESS] = { "refs", "Reference", "ops", "access", NO_ALIAS },
	[PERF_COUNT_HW_CACHE_RESULT_MISS]   = { "misses", "miss", NO_ALIAS },
};

#define OPBIT(x) (1u << PERF_COUNT_HW_CACHE_OP_##x)
/* perf's evsel__hw_cache_stat: which ops make sense for which cache. */
static const unsigned cache_valid_ops[PERF_COUNT_HW_CACHE_MAX] = {
	[PERF_COUNT_HW_CACHE_L1D]  = OPBIT(READ) | OPBIT(WRITE) | OPBIT(PREFETCH),
	[PERF_COUNT_HW_CACHE_L1I]  = OPBIT(READ) | OPBIT(PREFETCH),
	[PERF_COUNT_HW_CACHE_LL]   = OPBIT(READ) | OPBIT(WRITE) | OPBIT(PREFETCH),
	[PERF_COUNT_HW_CACHE_DTLB] = OPBIT(READ) | OPBIT(WRITE) | OPBIT(PREFETCH),
	[PERF_COUNT_HW_CACHE_ITLB] = OPBIT(READ),
	[PERF_COUNT_HW_CACHE_BPU]  = OPBIT(READ),
	[PERF_COUNT_HW_CACHE_NODE] = OPBIT(READ) | OPBIT(WRITE) | OPBIT(PREFETCH),
};

const struct pms_event_name *pms_event_names__hardware(size_t *nr)
{
	*nr = ARRAY_SIZE(hw_names);
	return hw_names;
}

const struct pms_event_name *pms_event_names__software(size_t *nr)
{
	*nr = ARRAY_SIZE(sw_names);
	return sw_names;
}

bool pms_event_names__cache_op_valid(int type, int op)
{
	if (type < 0 || type >= PERF_COUNT_HW_CACHE_MAX || op < 0 || op >= PERF_COUNT_HW_CACHE_OP_MAX)
		return false;
	return cache_valid_ops[type] & (1u << op);
}

const char *const *pms_event_names__cache_spellings(int what, int idx)
{
	if (what == 0 && idx >= 0 && idx < PERF_COUNT_HW_CACHE_MAX)
		return cache_types[idx];
	if (what == 1 && idx >= 0 && idx < PERF_COUNT_HW_CACHE_OP_MAX)
		return cache_ops[idx];
	if (what == 2 && idx >= 0 && idx < PERF_COUNT_HW_CACHE_RESULT_MAX)
		return cache_results[idx];
	return NULL;
}

const struct pms_event_name *pms_event_names__find(const char *w, size_t len)
{
	static const struct {
		const struct pms_event_name *t;
		size_t n;
	} tabs[] = { { hw_names, ARRAY_SIZE(hw_names) }, { sw_names, ARRAY_SIZE(sw_names) } };
	size_t i, j;

	for (i = 0; i < ARRAY_SIZE(tabs); i++)
		for (j = 0; j < tabs[i].n; j++) {
			const struct pms_event_name *e = &tabs[i].t[j];

			/* first letters first: this runs for every event word the parser sees */
			if ((e->name[0] == w[0] && strncmp(e->name, w, len) == 0 && e->name[len] == '\0') ||
			    (e->alias && e->alias[0] == w[0] && strncmp(e->alias, w, len) == 0 &&
			     e->alias[len] == '\0'))
				return e;
		}
	return NULL;
}

/* 7 caches x 3 ops x 2 results at most. */
#define MAX_CACHE_NAMES (PERF_COUNT_HW_CACHE_MAX * PERF_COUNT_HW_CACHE_OP_MAX * PERF_COUNT_HW_CACHE_RESULT_MAX)
static struct pms_event_name cache_names[MAX_CACHE_NAMES];
static char cache_name_buf[MAX_CACHE_NAMES][48];
static size_t nr_cache_names;

static int cmp_name(const void *a, const void *b)
{
	return strcmp(((const struct pms_event_name *)a)->name, ((const struct pms_event_name *)b)->name);
}

static const char *cache_desc(int res)
{
	return res == PERF_COUNT_HW_CACHE_RESULT_MISS ? "legacy cache misses" : "legacy cache accesses";
}

const struct pms_event_name *pms_event_names__cache(size_t *nr)
{
	int t, op, res;

	if (!nr_cache_names) {
		size_t n = 0;

		for (t = 0; t < PERF_COUNT_HW_CACHE_MAX; t++)
			for (op = 0; op < PERF_COUNT_HW_CACHE_OP_MAX; op++) {
				if (!pms_event_names__cache_op_valid(t, op))
					continue;
				for (res = 0; res < PERF_COUNT_HW_CACHE_RESULT_MAX; res++) {
					/* perf: "<cache>-<op plural>" for accesses, "<cache>-<op>-misses" */
					if (res == PERF_COUNT_HW_CACHE_RESULT_ACCESS)
						snprintf(cache_name_buf[n], sizeof(cache_name_buf[n]), "%s-%s",
							 cache_types[t][0], cache_ops[op][1]);
					else
						snprintf(cache_name_buf[n], sizeof(cache_name_buf[n]), "%s-%s-%s",
							 cache_types[t][0], cache_ops[op][0], cache_results[res][0]);
					cache_names[n] = (struct pms_event_name){
						.name = cache_name_buf[n],
						.type = PERF_TYPE_HW_CACHE,
						.config = (uint64_t)t | (uint64_t)op << 8 | (uint64_t)res << 16,
						.desc = cache_desc(res),
					};
					n++;
				}
			}
		qsort(cache_names, n, sizeof(cache_names[0]), cmp_name);
		nr_cache_names = n;
	}
	*nr = nr_cache_names;
	return cache_names;
}

/*
 * perf's evsel__add_modifiers(): ":ukh" for the contexts counted when some
 * are excluded, "p" per precise_ip level, then "HG" when exclude_guest is not
 * what perf's parser would have set by default (1 with u/k/h or p, else 0).
 */
static size_t add_modifiers(const struct perf_event_attr *a, char *buf, size_t sz, size_t r)
{
	char mods[16];
	size_t n = 0;
	bool guest_default = false;

	if (a->exclude_kernel || a->exclude_user || a->exclude_hv) {
		if (!a->exclude_kernel)
			mods[n++] = 'k';
		if (!a->exclude_user)
			mods[n++] = 'u';
		if (!a->exclude_hv)
			mods[n++] = 'h';
		guest_default = true;
	}
	for (unsigned i = 0; i < a->precise_ip && i < 3; i++)
		mods[n++] = 'p';
	if (a->precise_ip)
		guest_default = true;
	if (a->exclude_host || a->exclude_guest == guest_default) {
		if (!a->exclude_host)
			mods[n++] = 'H';
		if (!a->exclude_guest)
			mods[n++] = 'G';
	}
	if (!n || r >= sz)
		return r;
	mods[n] = '\0';
	return r + (size_t)snprintf(buf + r, sz - r, ":%s", mods);
}

size_t pms_event_name__from_attr(const struct perf_event_attr *a, char *buf, size_t sz)
{
	const struct pms_event_name *tab = NULL;
	size_t nr = 0, r;

	if (!sz)
		return 0;
	buf[0] = '\0';
	switch (a->type) {
	case PERF_TYPE_HARDWARE:
		/* perf's short spellings: "cycles", "branches" */
		tab = pms_event_names__hardware(&nr);
		for (size_t i = 0; i < nr; i++)
			if (tab[i].config == a->config) {
				r = (size_t)snprintf(buf, sz, "%s", tab[i].alias && a->config != PERF_COUNT_HW_STALLED_CYCLES_FRONTEND &&
						  a->config != PERF_COUNT_HW_STALLED_CYCLES_BACKEND ? tab[i].alias : tab[i].name);
				return add_modifiers(a, buf, sz, r);
			}
		r = (size_t)snprintf(buf, sz, "unknown-hardware");
		return add_modifiers(a, buf, sz, r);
	case PERF_TYPE_SOFTWARE:
		tab = pms_event_names__software(&nr);
		for (size_t i = 0; i < nr; i++)
			if (tab[i].config == a->config) {
				r = (size_t)snprintf(buf, sz, "%s", tab[i].name);
				return add_modifiers(a, buf, sz, r);
			}
		r = (size_t)snprintf(buf, sz, "unknown-software");
		return add_modifiers(a, buf, sz, r);
	case PERF_TYPE_HW_CACHE:
		tab = pms_event_names__cache(&nr);
		for (size_t i = 0; i < nr; i++)
			if (tab[i].config == a->config) {
				r = (size_t)snprintf(buf, sz, "%s", tab[i].name);
				return add_modifiers(a, buf, sz, r);
			}
		r = (size_t)snprintf(buf, sz, "invalid-cache");
		return add_modifiers(a, buf, sz, r);
	case PERF_TYPE_RAW:
		/* perf 6.1 spelling (later perfs write "r1c2") */
		r = (size_t)snprintf(buf, sz, "raw 0x%llx", (unsigned long long)a->config);
		return add_modifiers(a, buf, sz, r);
	case PERF_TYPE_TRACEPOINT:
		return (size_t)snprintf(buf, sz, "unknown tracepoint");
	case PERF_TYPE_BREAKPOINT:
		r = (size_t)snprintf(buf, sz, "mem:0x%llx:%s%s%s", (unsigned long long)a->bp_addr,
				     a->bp_type & HW_BREAKPOINT_R ? "r" : "", a->bp_type & HW_BREAKPOINT_W ? "w" : "",
				     a->bp_type & HW_BREAKPOINT_X ? "x" : "");
		return add_modifiers(a, buf, sz, r);
	default:
		return (size_t)snprintf(buf, sz, "unknown attr type: %u", a->type);
	}
}
