// SPDX-License-Identifier: MIT
// pmuscope explain: the perf_event_attr an event string becomes, field by field, and what it counts in hardware.
#include <errno.h>
#include <linux/hw_breakpoint.h>
#include <linux/perf_event.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"
#include "events.h"
#include "event/attr_print.h"
#include "event/event.h"
#include "event/names.h"
#include "event/pmu.h"
#include "event/vendor.h"
#include "perf_event/caps.h"
#include "util/errname.h"
#include "util/json.h"
#include "output.h"
#include "perf_event/sys.h"
#include "util/strbuf.h"

/* Every option's value: reset_opts() sets them all back to the defaults. */
static struct explain_opts {
	const char *vendor;
	bool no_probe, json;
} o;

static void reset_opts(void)
{
	o = (struct explain_opts){ 0 };
}

/* The vendor maps `--vendor all` walks, one per distinct kernel table. */
static const enum pms_uarch all_uarchs[] = {
	PMS_UARCH_INTEL, PMS_UARCH_AMD_LEGACY, PMS_UARCH_ZEN1, PMS_UARCH_ZEN2, PMS_UARCH_ZEN4, PMS_UARCH_ARMV8,
};
#define NR_ALL_UARCHS (sizeof(all_uarchs) / sizeof(all_uarchs[0]))

struct vsel {
	bool all;               /* --vendor all */
	enum pms_uarch u;       /* PMS_UARCH_NONE: unknown */
	const char *source;     /* "CPUID", "--vendor", ... */
};

/* Output sink: text lines, or JSON via the writer (one of the two is used). */
struct out {
	struct pms_json *w;           /* NULL for text */
};

static const char *uarch_short(enum pms_uarch u)
{
	switch (u) {
	case PMS_UARCH_INTEL: return "intel";
	case PMS_UARCH_AMD_LEGACY: return "amd-legacy (K7..16h)";
	case PMS_UARCH_ZEN1: return "zen1";
	case PMS_UARCH_ZEN2: return "zen2/zen3";
	case PMS_UARCH_ZEN4: return "zen4 and later";
	case PMS_UARCH_ARMV8: return "arm64 (PMUv3)";
	default: return "unknown";
	}
}

/* "  key   value": explain's keys are attr field names, up to 32 columns */
#define line(...) output__kv(32, __VA_ARGS__)

static const char *sw_id_name(uint64_t c)
{
	static const char *const n[] = {
		"PERF_COUNT_SW_CPU_CLOCK", "PERF_COUNT_SW_TASK_CLOCK", "PERF_COUNT_SW_PAGE_FAULTS",
		"PERF_COUNT_SW_CONTEXT_SWITCHES", "PERF_COUNT_SW_CPU_MIGRATIONS", "PERF_COUNT_SW_PAGE_FAULTS_MIN",
		"PERF_COUNT_SW_PAGE_FAULTS_MAJ", "PERF_COUNT_SW_ALIGNMENT_FAULTS", "PERF_COUNT_SW_EMULATION_FAULTS",
		"PERF_COUNT_SW_DUMMY", "PERF_COUNT_SW_BPF_OUTPUT", "PERF_COUNT_SW_CGROUP_SWITCHES",
	};

	return c < sizeof(n) / sizeof(n[0]) ? n[c] : NULL;
}

static const struct pms_event_name *find_named(const struct pms_event_name *t, size_t nr, uint32_t type, uint64_t config)
{
	for (size_t i = 0; i < nr; i++)
		if (t[i].type == type && t[i].config == config)
			return &t[i];
	return NULL;
}

static const char *type_name(uint32_t type)
{
	switch (type) {
	case PERF_TYPE_HARDWARE: return "PERF_TYPE_HARDWARE";
	case PERF_TYPE_SOFTWARE: return "PERF_TYPE_SOFTWARE";
	case PERF_TYPE_TRACEPOINT: return "PERF_TYPE_TRACEPOINT";
	case PERF_TYPE_HW_CACHE: return "PERF_TYPE_HW_CACHE";
	case PERF_TYPE_RAW: return "PERF_TYPE_RAW";
	case PERF_TYPE_BREAKPOINT: return "PERF_TYPE_BREAKPOINT";
	default: return NULL;
	}
}

static bool is_arm_pmu(const char *pmu)
{
	return pmu && (!strncmp(pmu, "armv8", 5) || !strncmp(pmu, "armv9", 5));
}

static bool is_x86_core_pmu(const char *pmu)
{
	return pmu && (!strcmp(pmu, "cpu") || !strcmp(pmu, "cpu_core") || !strcmp(pmu, "cpu_atom"));
}

/* Which decoding applies to a raw config of this event: ARM for armv8 PMUs, else the chosen vendor. */
static enum pms_uarch raw_uarch(const struct pms_evsel *e, const struct vsel *v)
{
	if (is_arm_pmu(e->pmu_name))
		return PMS_UARCH_ARMV8;
	if (is_x86_core_pmu(e->pmu_name) && pms_uarch__vendor(v->u) == PMS_VENDOR_ARM64)
		return PMS_UARCH_NONE;
	return v->u;
}

static bool is_core_raw(const struct pms_evsel *e)
{
	return e->attr.type == PERF_TYPE_RAW || is_arm_pmu(e->pmu_name) || is_x86_core_pmu(e->pmu_name);
}

/* ---- the attr, annotated ---- */

static void print_format_terms(const struct pms_pmu *p, const struct perf_event_attr *a)
{
	static const char *const fields[] = { "config", "config1", "config2", "config3" };

	for (size_t i = 0; i < p->nr_formats; i++) {
		const struct pms_pmu_format *f = &p->formats[i];
		struct strbuf key = STRBUF_INIT, bits = STRBUF_INIT;
		uint64_t val = pms_pmu_format__extract(f, a);

		for (int r = 0; r < f->nr_ranges; r++) {
			if (f->ranges[r].lo == f->ranges[r].hi)
				strbuf_addf(&bits, "%s%d", r ? "," : "", f->ranges[r].lo);
			else
				strbuf_addf(&bits, "%s%d-%d", r ? "," : "", f->ranges[r].lo, f->ranges[r].hi);
		}
		strbuf_addf(&key, "  %s", f->name);
		line(strbuf_str(&key), "0x%llx  (format %s:%s)", (unsigned long long)val,
		     f->field >= 0 && f->field < 4 ? fields[f->field] : "config?", strbuf_str(&bits));
		strbuf_release(&key);
		strbuf_release(&bits);
	}
}

static void print_modifiers(const struct perf_event_attr *a)
{
	if (a->exclude_user)
		line("exclude_user", "1 = user mode (ring 3 / EL0) is not counted (modifier k or h)");
	if (a->exclude_kernel)
		line("exclude_kernel", "1 = kernel mode (ring 0 / EL1) is not counted (modifier u or h)");
	if (a->exclude_hv)
		line("exclude_hv", "1 = the hypervisor (EL2) is not counted (set with u or k)");
	if (a->exclude_idle)
		line("exclude_idle", "1 = not counted while the CPU idles (modifier I)");
	if (a->exclude_host)
		line("exclude_host", "1 = the host is not counted, only KVM guests (modifier G)");
	if (a->exclude_guest)
		line("exclude_guest", "1 = not counted while a KVM guest runs (modifier H; perf's default)");
	if (a->precise_ip)
		line("precise_ip", "%u = %s (modifier %.*s)", a->precise_ip,
		     a->precise_ip == 1 ? "constant skid requested" :
		     a->precise_ip == 2 ? "zero skid requested (PEBS / IBS)" : "zero skid required (PEBS / IBS)",
		     (int)a->precise_ip, "ppp");
	if (a->pinned)
		line("pinned", "1 = always on a counter, or in error state (modifier D)");
	if (a->exclusive)
		line("exclusive", "1 = the only group on the PMU while it runs (modifier e)");
	if (a->freq && a->sample_freq)
		line("sample_freq", "%llu = sample about %llu times a second", (unsigned long long)a->sample_freq,
		     (unsigned long long)a->sample_freq);
	else if (a->sample_period)
		line("sample_period", "%llu = a sample every %llu events (record; stat counts and ignores it)",
		     (unsigned long long)a->sample_period, (unsigned long long)a->sample_period);
}

static void print_decoded(struct pms_event_ctx *ctx, const struct pms_evsel *e)
{
	const struct perf_event_attr *a = &e->attr;
	const struct pms_pmu *pmu = NULL;
	const char *tn = type_name(a->type);
	size_t nr;

	printf("decoded:\n");
	if (a->type > PERF_TYPE_BREAKPOINT || a->type == PERF_TYPE_RAW)
		pmu = pms_event_ctx__pmu_by_type(ctx, a->type);
	if (tn)
		line("type", "%u = %s%s%s", a->type, tn, a->type == PERF_TYPE_RAW && pmu ? ", the core PMU " : "",
		     a->type == PERF_TYPE_RAW && pmu ? pmu->name : "");
	else
		line("type", "%u = sysfs PMU '%s'", a->type, pmu ? pmu->name : e->pmu_name ? e->pmu_name : "?");

	switch (a->type) {
	case PERF_TYPE_HARDWARE: {
		const struct pms_event_name *t = pms_event_names__hardware(&nr);
		const struct pms_event_name *n = find_named(t, nr, a->type, a->config & 0xffffffffULL);
		const char *id = pms_hw_id__name((unsigned)(a->config & 0xffffffffULL));

		line("config", "0x%llx = %s%s%s%s", (unsigned long long)a->config, id ? id : "unknown generic id",
		     n ? " (" : "", n ? n->name : "", n ? ")" : "");
		if (a->config >> 32)
			line("", "bits 63:32 = %llu: the PMU type of a hybrid CPU's core PMU",
			     (unsigned long long)(a->config >> 32));
		if (n)
			line("", "generic: %s; the CPU's PMU driver picks the raw event (see 'meaning')", n->desc);
		break;
	}
	case PERF_TYPE_SOFTWARE: {
		const struct pms_event_name *t = pms_event_names__software(&nr);
		const struct pms_event_name *n = find_named(t, nr, a->type, a->config);
		const char *id = sw_id_name(a->config);

		line("config", "0x%llx = %s%s%s%s", (unsigned long long)a->config, id ? id : "unknown software id",
		     n ? " (" : "", n ? n->name : "", n ? ")" : "");
		if (n)
			line("", "%s: counted by the kernel, no hardware counter involved", n->desc);
		break;
	}
	case PERF_TYPE_HW_CACHE: {
		unsigned c = a->config & 0xff, op = (a->config >> 8) & 0xff, res = (a->config >> 16) & 0xff;
		const char *cn = pms_hw_cache__name(c), *on = pms_hw_cache_op__name(op);
		const char *rn = pms_hw_cache_result__name(res);

		line("config", "0x%llx = cache %u (%s) | op %u (%s) << 8 | result %u (%s) << 16",
		     (unsigned long long)a->config, c, cn ? cn : "?", op, on ? on : "?", res, rn ? rn : "?");
		break;
	}
	case PERF_TYPE_TRACEPOINT:
		line("config", "%llu = tracepoint id of %s (from tracefs)", (unsigned long long)a->config, e->name);
		break;
	case PERF_TYPE_BREAKPOINT: {
		static const char *const bpt[] = { "empty", "R", "W", "RW", "X" };

		line("bp_type", "%u = %s", a->bp_type, a->bp_type < 5 ? bpt[a->bp_type] : "?");
		line("bp_addr", "0x%llx", (unsigned long long)a->bp_addr);
		line("bp_len", "%llu byte%s", (unsigned long long)a->bp_len, a->bp_len == 1 ? "" : "s");
		break;
	}
	default:
		line("config", "0x%llx%s", (unsigned long long)a->config, pmu && pmu->nr_formats ? ", by format term:" : "");
		if (pmu)
			print_format_terms(pmu, a);
		if (a->config1)
			line("config1", "0x%llx", (unsigned long long)a->config1);
		if (a->config2)
			line("config2", "0x%llx", (unsigned long long)a->config2);
		break;
	}
	print_modifiers(a);
}

/* ---- what it means in hardware ---- */

static void print_armv8_event(unsigned code, const char *prefix)
{
	const char *desc = NULL;
	const char *n = pms_armv8__event_name(code, &desc);

	if (n)
		line(prefix, "0x%02x %s: %s", code, n, desc);
	else if (code >= 0x4000 && code < 0x4040)
		line(prefix, "0x%04x: a PMUv3.1+ common event this table does not name", code);
	else
		line(prefix, "0x%02x: an IMPLEMENTATION DEFINED event (see the core's TRM)", code);
}

/* A known name for an Intel/AMD (event, umask) pair: the generic map entries and Intel's architectural events. */
static const char *x86_known_name(enum pms_uarch u, uint64_t config)
{
	struct pms_vendor_event ve;
	uint64_t mask = pms_uarch__vendor(u) == PMS_VENDOR_AMD ? 0xf0000ffffULL : 0xffffULL;

	for (unsigned id = 0; pms_hw_id__name(id); id++)
		if (!pms_vendor__generic(u, id, &ve) && !ve.status && (ve.config & mask) == (config & mask) &&
		    !(config & 0xff000000ULL))
			return ve.hw_name;
	return NULL;
}

/* What the kernel will program for the fields it takes from the attr rather than from config. */
static bool programmed(const char *field, const struct perf_event_attr *a, uint64_t *val, const char **why)
{
	if (!strcmp(field, "usr")) {
		*val = !a->exclude_user;
		*why = a->exclude_user ? "exclude_user=1" : "exclude_user=0";
	} else if (!strcmp(field, "os")) {
		*val = !a->exclude_kernel;
		*why = a->exclude_kernel ? "exclude_kernel=1" : "exclude_kernel=0";
	} else if (!strcmp(field, "int")) {
		*val = 1;
		*why = "the x86 driver always sets it";
	} else if (!strcmp(field, "en")) {
		*val = 1;
		*why = "set while the event is scheduled";
	} else if (!strcmp(field, "pc")) {
		*val = 0;
		*why = "masked out";
	} else if (!strcmp(field, "hostonly")) {
		*val = a->exclude_guest && !a->exclude_host;
		*why = a->exclude_guest ? "exclude_guest=1" : "exclude_guest=0";
	} else if (!strcmp(field, "guestonly")) {
		*val = a->exclude_host && !a->exclude_guest;
		*why = a->exclude_host ? "exclude_host=1" : "exclude_host=0";
	} else {
		return false;
	}
	return true;
}

static void print_register(enum pms_uarch u, uint64_t config, const struct perf_event_attr *a)
{
	struct pms_reg_field f[PMS_REG_FIELDS_MAX];
	int n;

	if (pms_uarch__vendor(u) == PMS_VENDOR_ARM64) {
		line("PMEVTYPER<n>_EL0.evtCount", "bits 15:0 of config:");
		print_armv8_event((unsigned)(config & 0xffff), "  event");
		line("  filters", "U (EL0) %s, P (EL1) %s, NSH (EL2) %s: from exclude_user/kernel/hv",
		     a->exclude_user ? "excluded" : "counted", a->exclude_kernel ? "excluded" : "counted",
		     a->exclude_hv ? "excluded" : "counted");
		return;
	}
	n = pms_vendor__decode_config(u, config, f, PMS_REG_FIELDS_MAX);
	if (n <= 0)
		return;
	if (pms_uarch__vendor(u) == PMS_VENDOR_INTEL)
		printf("  IA32_PERFEVTSELx fields of config 0x%llx (Intel):\n", (unsigned long long)config);
	else
		printf("  PERF_CTL fields of config 0x%llx (AMD):\n", (unsigned long long)config);
	for (int i = 0; i < n; i++) {
		char bits[32], key[48];
		uint64_t pv;
		const char *why;

		if (f[i].lo == f[i].hi)
			snprintf(bits, sizeof(bits), "[%d]", f[i].lo);
		else if (f[i].lo2 >= 0)
			snprintf(bits, sizeof(bits), "[%d:%d,%d:%d]", f[i].hi2, f[i].lo2, f[i].hi, f[i].lo);
		else
			snprintf(bits, sizeof(bits), "[%d:%d]", f[i].hi, f[i].lo);
		snprintf(key, sizeof(key), "    %-9s %s", f[i].name, bits);
		if (programmed(f[i].name, a, &pv, &why))
			line(key, "%-6s %s -> programmed %llu (%s)", f[i].value ? "1" : "0", f[i].desc,
			     (unsigned long long)pv, why);
		else if (f[i].hi - f[i].lo >= 3 || f[i].lo2 >= 0)
			line(key, "0x%-4llx %s", (unsigned long long)f[i].value, f[i].desc);
		else
			line(key, "%-6llu %s", (unsigned long long)f[i].value, f[i].desc);
	}
	{
		const char *known = x86_known_name(u, config);

		if (known)
			line("  known as", "%s", known);
	}
}

static void print_vendor_event(const char *what, enum pms_uarch u, const struct pms_vendor_event *ve,
			       const struct perf_event_attr *a)
{
	if (ve->status == -ENOENT) {
		line(what, "not supported: the kernel's %s map has 0 here (open fails with ENOENT)", pms_uarch__name(u));
		return;
	}
	if (ve->status == -EINVAL) {
		line(what, "invalid: the kernel's %s map has -1 here (open fails with EINVAL)", pms_uarch__name(u));
		return;
	}
	if (pms_uarch__vendor(u) == PMS_VENDOR_ARM64)
		line(what, "0x%02llx %s: %s", (unsigned long long)ve->config, ve->hw_name, ve->meaning);
	else
		line(what, "0x%llx %s: %s", (unsigned long long)ve->config, ve->hw_name, ve->meaning);
	if (a && pms_uarch__vendor(u) != PMS_VENDOR_ARM64)
		print_register(u, ve->config, a);
	if (a && pms_uarch__vendor(u) == PMS_VENDOR_ARM64)
		line("", "mapped only if the CPU implements event 0x%02llx (PMCEID0/1_EL0), else ENOENT",
		     (unsigned long long)ve->config);
}

static int generic_lookup(enum pms_uarch u, const struct perf_event_attr *a, struct pms_vendor_event *ve)
{
	if (a->type == PERF_TYPE_HARDWARE)
		return pms_vendor__generic(u, (unsigned)(a->config & 0xffffffffULL), ve);
	return pms_vendor__cache(u, a->config & 0xff, (a->config >> 8) & 0xff, (a->config >> 16) & 0xff, ve);
}

/* arch/x86/events/msr.c: the config is an index into its MSR table. */
static const char *msr_meaning(uint64_t config)
{
	static const char *const m[] = {
		"TSC: the time-stamp counter (constant rate)",
		"IA32_APERF: actual-performance clock, cycles at the real frequency while in C0",
		"IA32_MPERF: maximum-performance clock, cycles at the base frequency while in C0",
		"MSR_PPERF: productive performance cycles (not stalled on memory)",
		"MSR_SMI_COUNT: system management interrupts taken",
		"MSR_F15H_PTSC: AMD performance time-stamp counter",
		"MSR_F17H_IRPERF: AMD instructions retired (free-running)",
		"IA32_THERM_STATUS: digital thermal readout",
	};

	return config < sizeof(m) / sizeof(m[0]) ? m[config] : NULL;
}

static void print_meaning(const struct pms_evsel *e, const struct vsel *v)
{
	const struct perf_event_attr *a = &e->attr;
	struct pms_vendor_event ve;

	if (a->type == PERF_TYPE_HARDWARE || a->type == PERF_TYPE_HW_CACHE) {
		if (v->all) {
			printf("meaning, per kernel map:\n");
			for (size_t i = 0; i < NR_ALL_UARCHS; i++) {
				if (generic_lookup(all_uarchs[i], a, &ve)) {
					line(uarch_short(all_uarchs[i]), "out of range: the kernel rejects it (EINVAL)");
					continue;
				}
				print_vendor_event(uarch_short(all_uarchs[i]), all_uarchs[i], &ve, NULL);
			}
			if (a->type == PERF_TYPE_HARDWARE &&
			    pms_vendor__trap_note(PMS_UARCH_INTEL, (unsigned)a->config))
				printf("note: the same name counts different caches on each vendor\n");
			return;
		}
		if (v->u == PMS_UARCH_NONE) {
			printf("meaning: unknown CPU vendor; use --vendor intel|amd|arm64, or --vendor all\n");
			return;
		}
		printf("meaning on %s (%s):\n", pms_uarch__name(v->u), v->source);
		if (generic_lookup(v->u, a, &ve)) {
			line(e->name, "out of range: the kernel rejects it (EINVAL)");
			return;
		}
		print_vendor_event(e->name, v->u, &ve, a);
		if (a->type == PERF_TYPE_HARDWARE) {
			const char *note = pms_vendor__trap_note(v->u, (unsigned)a->config);

			if (note)
				printf("note: %s\n", note);
		}
		if (a->type == PERF_TYPE_HW_CACHE && pms_uarch__vendor(v->u) == PMS_VENDOR_INTEL)
			printf("note: the Intel hw-cache table differs per model; this is Skylake's\n");
		return;
	}
	if (is_core_raw(e)) {
		enum pms_uarch u = raw_uarch(e, v);

		if (v->all && !is_arm_pmu(e->pmu_name)) {
			printf("meaning, per register layout:\n");
			print_register(PMS_UARCH_INTEL, a->config, a);
			print_register(PMS_UARCH_ZEN2, a->config, a);
			print_register(PMS_UARCH_ARMV8, a->config, a);
			return;
		}
		if (u == PMS_UARCH_NONE) {
			printf("meaning: unknown CPU vendor; use --vendor intel|amd|arm64 to decode the raw config\n");
			return;
		}
		printf("meaning on %s (%s):\n", pms_uarch__name(u), is_arm_pmu(e->pmu_name) ? "ARM PMU" : v->source);
		print_register(u, a->config, a);
		if (pms_uarch__vendor(u) != PMS_VENDOR_ARM64)
			printf("note: usr/os/int/en come from the attr, not from config: the kernel masks them out of a raw config\n");
		return;
	}
	switch (a->type) {
	case PERF_TYPE_SOFTWARE:
		printf("meaning: a software event, counted by the kernel on every CPU vendor alike\n");
		break;
	case PERF_TYPE_TRACEPOINT:
		printf("meaning: counts each time the kernel passes the tracepoint %s\n", e->name);
		break;
	case PERF_TYPE_BREAKPOINT:
		printf("meaning: counts accesses that hit a debug-register watchpoint\n");
		break;
	default:
		if (e->pmu_name && !strcmp(e->pmu_name, "msr") && msr_meaning(a->config)) {
			printf("meaning: %s (x86 'msr' PMU: free-running MSR read at start and stop, no counter used)\n",
			       msr_meaning(a->config));
			break;
		}
		printf("meaning: event of the sysfs PMU '%s'; its terms are listed above\n",
		       e->pmu_name ? e->pmu_name : "?");
		break;
	}
	if (e->scale != 1.0 || e->unit[0])
		printf("note: counts are shown multiplied by %.10g%s%s (sysfs .scale/.unit), as perf does\n", e->scale,
		       e->unit[0] ? " in " : "", e->unit);
}

static void print_here(const struct pms_evsel *e, bool probing)
{
	struct perf_event_attr a = e->attr;
	int err;

	if (!probing) {
		printf("here: not probed (%s)\n", o.no_probe ? "--no-probe" : "fixture or PMS_NO_PROBE");
		return;
	}
	a.sample_period = 0;
	a.sample_type = 0;
	a.freq = 0;
	err = pms_event__probe(&a);
	if (err && a.exclude_guest) {
		a.exclude_guest = 0;
		if (!pms_event__probe(&a)) {
			printf("here: opens on this machine (without exclude_guest, as perf falls back)\n");
			return;
		}
	}
	if (!err)
		printf("here: opens on this machine\n");
	else
		printf("here: does not open (%s): %s\n", pms_errno__name(err), pms_event__open_error_reason(&e->attr, err));
}

/*
 * A group opens only if its members can share one context and, on most PMUs,
 * pass validate_group() at open, which single-event probes cannot tell (some
 * drivers accept an oversized group that then never runs).
 * Returns 0, or the -errno of the member at *bad.
 */
static int probe_group(const struct pms_evlist *list, size_t leader, size_t *bad)
{
	int fds[64], n = 0, err = 0;
	int nr = list->entries[leader].nr_members;

	/* as parsed; then user-only (refused for privileges); then without exclude_guest, as perf falls back */
	for (int variant = 0; variant <= 2; variant++) {
		err = 0;
		for (int k = 0; k < nr && k < 64; k++) {
			struct perf_event_attr a = list->entries[leader + (size_t)k].attr;
			int fd;

			a.size = sizeof(a);
			a.sample_period = 0;
			a.sample_type = 0;
			a.freq = 0;
			a.disabled = k == 0;
			if (variant == 1)
				a.exclude_kernel = a.exclude_hv = 1;
			if (variant == 2)
				a.exclude_guest = 0;
			fd = pms_sys__perf_event_open(&a, 0, -1, k ? fds[0] : -1, 0);
			if (fd < 0) {
				err = fd;
				*bad = leader + (size_t)k;
				break;
			}
			fds[n++] = fd;
		}
		while (n)
			close(fds[--n]);
		if (!err || err == -ENOENT)
			break;
	}
	return err;
}

static void print_groups(const struct pms_evlist *list, bool probing)
{
	for (size_t k = 0; probing && k < list->nr; k++) {
		const struct pms_evsel *e = &list->entries[k];
		size_t bad = k;
		int err;

		if (e->nr_members < 2 || e->leader_idx != (int)k)
			continue;
		err = probe_group(list, k, &bad);
		if (!err)
			printf("\ngroup here: the %d events of %s's group open together (a group too big for the counters "
			       "may still open, and then never runs)\n", e->nr_members, e->name);
		else
			printf("\ngroup here: %s's group of %d does not open: %s fails with %s%s\n", e->name,
			       e->nr_members, list->entries[bad].name, pms_errno__name(err),
			       err == -EINVAL ? " (more events than the PMU can count at once, or members of different PMUs)" : "");
	}
}

/* ---- JSON ---- */

static void json_event(struct pms_json *w, struct pms_event_ctx *ctx, const struct pms_evsel *e, const struct vsel *v,
		       bool probing)
{
	const struct perf_event_attr *a = &e->attr;
	struct strbuf sb = STRBUF_INIT;
	struct pms_vendor_event ve;
	const struct pms_pmu *pmu = NULL;
	char hex[32];

	pms_json__obj(w, NULL);
	pms_json__str(w, "event", e->name);
	pms_json__str(w, "pmu", e->pmu_name);
	pms_json__uint(w, "type", a->type);
	pms_json__str(w, "type_name", type_name(a->type));
	snprintf(hex, sizeof(hex), "0x%llx", (unsigned long long)a->config);
	pms_json__str(w, "config", hex);
	snprintf(hex, sizeof(hex), "0x%llx", (unsigned long long)a->config1);
	pms_json__str(w, "config1", hex);
	snprintf(hex, sizeof(hex), "0x%llx", (unsigned long long)a->config2);
	pms_json__str(w, "config2", hex);
	pms_attr__format(a, &sb);
	pms_json__str(w, "attr_text", strbuf_str(&sb));
	strbuf_release(&sb);
	pms_json__obj(w, "modifiers");
	pms_json__bool(w, "exclude_user", a->exclude_user);
	pms_json__bool(w, "exclude_kernel", a->exclude_kernel);
	pms_json__bool(w, "exclude_hv", a->exclude_hv);
	pms_json__bool(w, "exclude_idle", a->exclude_idle);
	pms_json__bool(w, "exclude_host", a->exclude_host);
	pms_json__bool(w, "exclude_guest", a->exclude_guest);
	pms_json__uint(w, "precise_ip", a->precise_ip);
	pms_json__end(w);
	if (a->type > PERF_TYPE_BREAKPOINT || a->type == PERF_TYPE_RAW)
		pmu = pms_event_ctx__pmu_by_type(ctx, a->type);
	if (pmu && pmu->nr_formats) {
		pms_json__obj(w, "terms");
		for (size_t i = 0; i < pmu->nr_formats; i++)
			pms_json__uint(w, pmu->formats[i].name, pms_pmu_format__extract(&pmu->formats[i], a));
		pms_json__end(w);
	}
	pms_json__arr(w, "mappings");
	if (a->type == PERF_TYPE_HARDWARE || a->type == PERF_TYPE_HW_CACHE) {
		for (size_t i = 0; i < NR_ALL_UARCHS; i++) {
			enum pms_uarch u = all_uarchs[i];

			if (!v->all && u != v->u)
				continue;
			pms_json__obj(w, NULL);
			pms_json__str(w, "map", pms_uarch__name(u));
			if (generic_lookup(u, a, &ve) || ve.status) {
				pms_json__null(w, "config");
				pms_json__str(w, "status", ve.status == -ENOENT ? "not supported" : "invalid");
			} else {
				snprintf(hex, sizeof(hex), "0x%llx", (unsigned long long)ve.config);
				pms_json__str(w, "config", hex);
				pms_json__str(w, "hw_name", ve.hw_name);
				pms_json__str(w, "meaning", ve.meaning);
			}
			pms_json__str(w, "note", a->type == PERF_TYPE_HARDWARE ? pms_vendor__trap_note(u, (unsigned)a->config) : NULL);
			pms_json__end(w);
		}
	}
	pms_json__end(w);
	if (is_core_raw(e)) {
		enum pms_uarch u = raw_uarch(e, v);
		struct pms_reg_field f[PMS_REG_FIELDS_MAX];
		int n = u == PMS_UARCH_NONE ? -1 : pms_vendor__decode_config(u, a->config, f, PMS_REG_FIELDS_MAX);

		if (u == PMS_UARCH_ARMV8) {
			const char *desc = NULL, *name = pms_armv8__event_name((unsigned)(a->config & 0xffff), &desc);

			pms_json__obj(w, "armv8_event");
			pms_json__uint(w, "code", a->config & 0xffff);
			pms_json__str(w, "name", name);
			pms_json__str(w, "description", desc);
			pms_json__end(w);
		}
		if (n > 0) {
			pms_json__arr(w, "register");
			for (int i = 0; i < n; i++) {
				uint64_t pv;
				const char *why;

				pms_json__obj(w, NULL);
				pms_json__str(w, "field", f[i].name);
				pms_json__uint(w, "value", f[i].value);
				if (programmed(f[i].name, a, &pv, &why))
					pms_json__uint(w, "programmed", pv);
				pms_json__str(w, "description", f[i].desc);
				pms_json__end(w);
			}
			pms_json__end(w);
		}
	}
	if (probing) {
		struct perf_event_attr pa = *a;
		int err;

		pa.sample_period = 0;
		pa.sample_type = 0;
		pa.freq = 0;
		err = pms_event__probe(&pa);
		if (err && pa.exclude_guest) {
			pa.exclude_guest = 0;
			if (!pms_event__probe(&pa))
				err = 0;
		}
		pms_json__obj(w, "here");
		pms_json__bool(w, "opens", !err);
		pms_json__str(w, "error", err ? pms_errno__name(err) : NULL);
		pms_json__str(w, "reason", err ? pms_event__open_error_reason(a, err) : NULL);
		pms_json__end(w);
	} else {
		pms_json__null(w, "here");
	}
	pms_json__end(w);
}

static void choose_vendor(struct vsel *v)
{
	memset(v, 0, sizeof(*v));
	if (o.vendor) {
		if (!strcmp(o.vendor, "all")) {
			v->all = true;
			v->source = "--vendor all";
			return;
		}
		if (pms_uarch__parse(o.vendor, &v->u))
			usage_error(&cmd_explain, "unknown vendor '%s' (%s, all)", o.vendor, pms_uarch__names(", "));
		v->source = "--vendor";
		return;
	}
	if (pms_uarch__detect(&v->u))
		v->u = PMS_UARCH_NONE;
	v->source = pms_uarch__vendor(v->u) == PMS_VENDOR_ARM64 ? "this CPU, from cpuinfo" : "this CPU, from CPUID";
}

static int run(int argc, char **argv)
{
	struct pms_evlist list = { 0 };
	struct pms_event_ctx *ctx;
	struct vsel v;
	bool probing;
	const char *str;
	int i;

	i = opt_parse(&cmd_explain, &argc, argv, 0);
	probing = !o.no_probe && pms_caps__probing_meaningful();
	if (i >= argc)
		usage_error(&cmd_explain, "which event? e.g. 'pmuscope explain cache-misses'");
	if (i + 1 < argc)
		usage_error(&cmd_explain, "one event string at a time (use commas for several events)");
	str = argv[i];
	choose_vendor(&v);
	ctx = pms_event_ctx__new();
	if (!ctx)
		return error("cannot read the PMU directory: %s", strerror(errno)), EXIT_RUNTIME;
	if (cli_parse_events(&list, ctx, str)) {
		pms_event_ctx__free(ctx);
		return EXIT_BAD_EVENT;
	}

	if (o.json) {
		struct pms_json w;
		struct strbuf jb = STRBUF_INIT;

		pms_json__init(&w, &jb, true);
		pms_json__arr(&w, NULL);
		for (size_t k = 0; k < list.nr; k++)
			json_event(&w, ctx, &list.entries[k], &v, probing);
		pms_json__end(&w);
		pms_json__finish(&w);
		output__put(stdout, &jb);
	} else {
		for (size_t k = 0; k < list.nr; k++) {
			const struct pms_evsel *e = &list.entries[k];
			struct strbuf sb = STRBUF_INIT;

			if (k)
				putchar('\n');
			if (e->pmu_name && (e->attr.type >= PERF_TYPE_MAX || e->attr.type == PERF_TYPE_RAW))
				printf("event: %s (PMU %s)\n", e->name, e->pmu_name);
			else
				printf("event: %s\n", e->name);
			if (e->nr_members > 1)
				printf("group: leader of %d events\n", e->nr_members);
			else if (e->leader_idx != (int)k)
				printf("group: member of %s's group\n", list.entries[e->leader_idx].name);
			pms_attr__format(&e->attr, &sb);
			fputs(strbuf_str(&sb), stdout);
			strbuf_release(&sb);
			print_decoded(ctx, e);
			print_meaning(e, &v);
			print_here(e, probing);
		}
		print_groups(&list, probing);
	}
	pms_evlist__release(&list);
	pms_event_ctx__free(ctx);
	return fflush(stdout) ? EXIT_RUNTIME : 0;
}

static const char *vendor_help(void)
{
	static char help[320];

	snprintf(help, sizeof(help), "explain for %s or all (default: this CPU)", pms_uarch__names("|"));
	return help;
}

static const struct opt opts[] = {
	OPT_STRING_HELP_FN(0, "vendor", &o.vendor, "<v>", vendor_help),
	OPT_BOOL(0, "no-probe", &o.no_probe, "do not open the event to say whether it works here"),
	OPT_BOOL(0, "json", &o.json, "print a JSON array with one object per event"),
	OPT_END(),
};

PMS_COMMAND(explain, "explain",
	    "show the perf_event_attr of an event and what it counts in hardware",
	    "pmuscope explain [--vendor <v>] [--no-probe] [--json] <event>");
