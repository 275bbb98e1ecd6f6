// SPDX-License-Identifier: MIT
// pmuscope info: this machine's performance-monitoring capabilities on one screen, CPUID checked by probes.
#include <errno.h>
#include <stdarg.h>
#include <linux/perf_event.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"
#include "event/event.h"
#include "event/pmu.h"
#include "event/vendor.h"
#include "util/errname.h"
#include "util/json.h"
#include "output.h"
#include "perf_event/caps.h"
#include "perf_event/sys.h"
#include "util/cpuid.h"
#include "util/cpulist.h"
#include "util/fileio.h"
#include "util/strbuf.h"
#include "util/sysfs.h"

/* Every option's value: reset_opts() sets them all back to the defaults. */
static struct info_opts {
	bool json, no_probe, dump_cpuid;
} o;

static void reset_opts(void)
{
	o = (struct info_opts){ 0 };
}

/* Counter-probe limit: ARMv8 has at most 31 + cycle + instruction counters. */
#define COUNTER_PROBE_MAX 40

struct info {
	int cpuid_err;
	struct pms_cpuid_info ci;
	/* arm64: /proc/cpuinfo of cpu0 */
	bool have_arm;
	unsigned arm_impl, arm_part, arm_variant, arm_rev;
	enum pms_uarch uarch;
	int uarch_err;

	struct pms_event_ctx *ctx;
	const struct pms_pmu *const *pmus;
	size_t nr_pmus;
	int pmus_err;
	const struct pms_pmu *core;   /* the core PMU, NULL if none */

	struct pms_knobs k;
	bool root, cap_perfmon, cap_sys_admin, cap_bpf;
	const char *tracefs;

	bool probed;
	int hw_err;                   /* hardware cycles open */
	int cyc_err, gp_err;          /* counter probes ran? */
	struct pms_counter_probe cyc, gp;
	const char *gp_event;         /* the general-purpose-only event the gp probe used */
	char counters[160];           /* summary of the two probes, "" if not probed */
	int mmap_err;
	struct pms_mmap_caps mm;
	int bpf_err;

	char verdict[512];
};

static const char *arm_implementer(unsigned impl)
{
	switch (impl) {
	case 0x41: return "Arm";
	case 0x42: return "Broadcom";
	case 0x43: return "Cavium";
	case 0x46: return "Fujitsu";
	case 0x48: return "HiSilicon";
	case 0x4e: return "NVIDIA";
	case 0x50: return "APM";
	case 0x51: return "Qualcomm";
	case 0x61: return "Apple";
	case 0xc0: return "Ampere";
	default: return "unknown implementer";
	}
}

static const char *arm_part_name(unsigned impl, unsigned part)
{
	static const struct { unsigned part; const char *name; } arm[] = {
		{ 0xd03, "Cortex-A53" }, { 0xd04, "Cortex-A35" }, { 0xd05, "Cortex-A55" },
		{ 0xd07, "Cortex-A57" }, { 0xd08, "Cortex-A72" }, { 0xd09, "Cortex-A73" },
		{ 0xd0a, "Cortex-A75" }, { 0xd0b, "Cortex-A76" }, { 0xd0c, "Neoverse N1" },
		{ 0xd0d, "Cortex-A77" }, { 0xd40, "Neoverse V1" }, { 0xd41, "Cortex-A78" },
		{ 0xd46, "Cortex-A510" }, { 0xd47, "Cortex-A710" }, { 0xd48, "Cortex-X2" },
		{ 0xd49, "Neoverse N2" }, { 0xd4f, "Neoverse V2" }, { 0xd8e, "Neoverse N3" },
	};

	if (impl != 0x41)
		return NULL;
	for (size_t i = 0; i < sizeof(arm) / sizeof(arm[0]); i++)
		if (arm[i].part == part)
			return arm[i].name;
	return NULL;
}

/* "CPU part\t: 0xd0c" -> 0xd0c from the first processor block. */
static bool cpuinfo_field(const char *buf, const char *key, unsigned *out)
{
	const char *p = strstr(buf, key);
	char *end;
	unsigned long v;

	if (!p)
		return false;
	p = strchr(p, ':');
	if (!p)
		return false;
	v = strtoul(p + 1, &end, 0);
	if (end == p + 1)
		return false;
	*out = (unsigned)v;
	return true;
}

static void read_arm_cpu(struct info *in)
{
	char path[4096], *buf = NULL;

	if (pms_procfs__path(path, sizeof(path), "cpuinfo") || pms_file__read_all(path, &buf, NULL))
		return;
	in->have_arm = cpuinfo_field(buf, "CPU implementer", &in->arm_impl);
	if (in->have_arm) {
		cpuinfo_field(buf, "CPU part", &in->arm_part);
		cpuinfo_field(buf, "CPU variant", &in->arm_variant);
		cpuinfo_field(buf, "CPU revision", &in->arm_rev);
	}
	free(buf);
}

static bool is_core_pmu(const struct pms_pmu *p)
{
	return p->type == PERF_TYPE_RAW || !strcmp(p->name, "cpu") || !strcmp(p->name, "cpu_core") ||
	       !strncmp(p->name, "armv8", 5) || !strncmp(p->name, "armv9", 5);
}

static bool is_probe_err_priv(int err)
{
	return err == -EACCES || err == -EPERM;
}

static void compute_verdict(struct info *in)
{
	bool privileged = in->root || in->cap_perfmon || in->cap_sys_admin;
	bool vm = in->cpuid_err == 0 && in->ci.hypervisor;
	const char *np = in->probed ? "" : " (not probed)";

	if (in->probed && in->hw_err == 0) {
		if (in->counters[0])
			snprintf(in->verdict, sizeof(in->verdict), "hardware counters work: %s", in->counters);
		else if (in->cyc.nr > 0)
			snprintf(in->verdict, sizeof(in->verdict), "hardware counters work: %d cycles events run at once",
				 in->cyc.nr);
		else
			snprintf(in->verdict, sizeof(in->verdict), "hardware counters work");
		return;
	}
	if (in->probed && is_probe_err_priv(in->hw_err)) {
		snprintf(in->verdict, sizeof(in->verdict),
			 "hardware counters present but refused to this user (perf_event_paranoid %d): "
			 "run as root, grant CAP_PERFMON, or lower kernel.perf_event_paranoid", in->k.paranoid);
		return;
	}
	if (in->probed && in->hw_err != -ENOENT) {
		snprintf(in->verdict, sizeof(in->verdict), "hardware counters unusable: cycles fails with %s (%s)",
			 pms_errno__name(in->hw_err), pms_event__open_error_reason(&(struct perf_event_attr){ .type = PERF_TYPE_HARDWARE }, in->hw_err));
		return;
	}
	/* ENOENT, or not probed: decide from sysfs */
	if (in->core && !in->probed) {
		if (!privileged && in->k.paranoid != PMS_KNOB_ABSENT && in->k.paranoid >= 3)
			snprintf(in->verdict, sizeof(in->verdict),
				 "hardware counters present (core PMU '%s') but perf_event_open is denied to this "
				 "unprivileged user at perf_event_paranoid %d%s", in->core->name, in->k.paranoid, np);
		else
			snprintf(in->verdict, sizeof(in->verdict),
				 "hardware counters expected: core PMU '%s' is present%s", in->core->name, np);
		return;
	}
	if (in->core)
		snprintf(in->verdict, sizeof(in->verdict),
			 "no generic hardware events: the core PMU '%s' does not provide cycles (ENOENT): "
			 "use its raw events or software events", in->core->name);
	else if (vm)
		snprintf(in->verdict, sizeof(in->verdict),
			 "no hardware counters (virtual machine without a virtual PMU): software events will be used%s", np);
	else
		snprintf(in->verdict, sizeof(in->verdict),
			 "no hardware counters (no core PMU driver for this CPU): software events will be used%s", np);
}

/* What the two counter probes say together, in one honest phrase. */
static void summarize_counters(struct info *in)
{
	const struct pms_counter_probe *c = &in->cyc, *g = &in->gp;
	const char *more = c->hit_max || g->hit_max ? "at least " : "";

	if (in->cyc_err || c->nr == 0) {
		in->counters[0] = 0;
		return;
	}
	if (in->gp_err || g->nr == 0)
		snprintf(in->counters, sizeof(in->counters), "%s%d counters take cycles (probed; %s does not open)",
			 more, c->nr, in->gp_event);
	else if (c->nr == g->nr + 1)
		snprintf(in->counters, sizeof(in->counters), "%s%d general + cycle counter (probed)", more, g->nr);
	else if (c->nr > g->nr)
		snprintf(in->counters, sizeof(in->counters), "%s%d general + %d more that take only cycles (probed)",
			 more, g->nr, c->nr - g->nr);
	else if (in->k.nmi_watchdog > 0)
		snprintf(in->counters, sizeof(in->counters),
			 "%s%d general, none free for cycles only (probed; the NMI watchdog holds one)", more, g->nr);
	else
		snprintf(in->counters, sizeof(in->counters), "%s%d general, none dedicated to cycles (probed)", more,
			 g->nr);
}

static void gather(struct info *in)
{
	memset(in, 0, sizeof(*in));
	in->cpuid_err = pms_cpuid__read_info(&in->ci);
	if (in->cpuid_err)
		read_arm_cpu(in);
	in->uarch_err = pms_uarch__detect(&in->uarch);

	in->ctx = pms_event_ctx__new();
	if (!in->ctx) {
		in->pmus_err = -errno;
	} else {
		in->pmus = pms_event_ctx__pmus(in->ctx, &in->nr_pmus);
		if (!in->pmus) {
			in->pmus_err = errno ? -errno : -ENOENT;
			in->nr_pmus = 0;
		}
	}
	for (size_t i = 0; i < in->nr_pmus; i++)
		if (!in->core && is_core_pmu(in->pmus[i]))
			in->core = in->pmus[i];

	pms_knobs__read(&in->k);
	in->cap_perfmon = pms_caps__has(PMS_CAP_PERFMON);
	in->cap_sys_admin = pms_caps__has(PMS_CAP_SYS_ADMIN);
	in->cap_bpf = pms_caps__has(PMS_CAP_BPF);
	/* the fixture's CapEff decides in tests; the real uid otherwise */
	in->root = in->cap_sys_admin && !getenv("PMS_PROCFS_ROOT") ? geteuid() == 0 : false;
	in->tracefs = in->k.tracefs ? pms_tracefs_root() : NULL;

	in->probed = !o.no_probe && pms_caps__probing_meaningful();
	if (in->probed) {
		in->hw_err = pms_caps__probe_hw_cycles();
		if (!in->hw_err) {
			in->cyc_err = pms_caps__probe_nr_counters(PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES,
								  COUNTER_PROBE_MAX, &in->cyc);
			in->gp_event = "branch-instructions";
			in->gp_err = pms_caps__probe_nr_counters(PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS,
								 COUNTER_PROBE_MAX, &in->gp);
			/*
			 * Many ARM cores (and QEMU) lack the branch event; there instructions
			 * (INST_RETIRED) only take general counters. Not on x86, where
			 * instructions has a fixed counter of its own.
			 */
			if (!in->gp_err && in->gp.first_err && in->uarch == PMS_UARCH_ARMV8) {
				in->gp_event = "instructions";
				in->gp_err = pms_caps__probe_nr_counters(PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS,
									 COUNTER_PROBE_MAX, &in->gp);
			}
			summarize_counters(in);
		}
		in->mmap_err = pms_caps__probe_mmap(&in->mm);
		in->bpf_err = pms_caps__probe_bpf();
	}
	compute_verdict(in);
}

static void format_terms(const struct pms_pmu *p, struct strbuf *sb)
{
	static const char *const fields[] = { "config", "config1", "config2", "config3" };

	for (size_t i = 0; i < p->nr_formats; i++) {
		const struct pms_pmu_format *f = &p->formats[i];

		strbuf_addf(sb, "%s%s=%s:", i ? " " : "", f->name,
			    f->field >= 0 && f->field < 4 ? fields[f->field] : "config?");
		for (int r = 0; r < f->nr_ranges; r++) {
			if (f->ranges[r].lo == f->ranges[r].hi)
				strbuf_addf(sb, "%s%d", r ? "," : "", f->ranges[r].lo);
			else
				strbuf_addf(sb, "%s%d-%d", r ? "," : "", f->ranges[r].lo, f->ranges[r].hi);
		}
	}
}

/* Long uncore cpumasks ("0,8,16,...") would break the table: count them instead (JSON keeps the list). */
static const char *cpus_column(const char *cpus, char *buf, size_t size)
{
	struct pms_cpulist l;

	if (!cpus)
		return "-";
	if (strlen(cpus) <= 10 || pms_cpulist__parse(cpus, &l, NULL))
		return cpus;
	snprintf(buf, size, "%zu cpus", l.nr);
	pms_cpulist__release(&l);
	return buf;
}

static const char *yesno(bool b)
{
	return b ? "yes" : "no";
}

#define kv(...) output__kv(28, __VA_ARGS__)

static void knob_line(const char *key, int v, const char *unit, const char *words)
{
	if (v == PMS_KNOB_ABSENT)
		kv(key, "absent");
	else if (words)
		kv(key, "%d%s  (%s)", v, unit, words);
	else
		kv(key, "%d%s", v, unit);
}

static const char *err_or_ok(int err)
{
	return err ? pms_errno__name(err) : "ok";
}

static void counter_probe_text(const char *key, const struct pms_counter_probe *c, const char *what)
{
	if (c->first_err)
		kv(key, "%s does not open: %s", what, pms_errno__name(c->first_err));
	else if (c->hit_max)
		kv(key, "%d or more %s events at once", c->nr, what);
	else if (c->stop_err)
		kv(key, "%d %s events at once (a group of %d is refused: %s)", c->nr, what, c->nr + 1,
		   pms_errno__name(c->stop_err));
	else
		kv(key, "%d %s events at once (a group of %d never runs: counters held elsewhere)", c->nr, what,
		   c->nr + 1);
}

static void print_text(const struct info *in)
{
	const struct pms_cpuid_info *ci = &in->ci;

	printf("cpu:\n");
	if (!in->cpuid_err) {
		kv("vendor", "%s (family 0x%x, model 0x%x, stepping %u)", ci->vendor, ci->family, ci->model,
		   ci->stepping);
		if (ci->hypervisor)
			kv("hypervisor", "yes (%s)", ci->hv_vendor[0] ? ci->hv_vendor : "no signature");
		else
			kv("hypervisor", "no");
	} else if (in->have_arm) {
		const char *part = arm_part_name(in->arm_impl, in->arm_part);

		kv("implementer", "0x%02x (%s)", in->arm_impl, arm_implementer(in->arm_impl));
		kv("part", "0x%03x%s%s%s, variant 0x%x, revision %u", in->arm_part, part ? " (" : "",
		   part ? part : "", part ? ")" : "", in->arm_variant, in->arm_rev);
	} else {
		kv("vendor", "unknown (no CPUID: %s, no CPU implementer in cpuinfo)", pms_errno__name(in->cpuid_err));
	}
	kv("event maps", "%s", in->uarch_err ? "none (unknown CPU)" : pms_uarch__name(in->uarch));

	if (!in->cpuid_err && ci->has_arch_perfmon) {
		const struct pms_cpuid_arch_perfmon *a = &ci->arch;

		printf("intel CPUID.0AH:\n");
		kv("version", "%u", a->version);
		kv("general-purpose counters", "%u x %u bits", a->nr_gp, a->gp_width);
		if (a->version > 1)
			kv("fixed counters", "%u x %u bits%s", a->nr_fixed, a->fixed_width,
			   a->anythread_deprecated ? " (AnyThread deprecated)" : "");
		if (a->version >= 5)
			kv("fixed-counter bitmap", "0x%08x", a->fixed_bitmap);
		kv("architectural events", "EBX 0x%08x, vector length %u (a set bit means NOT available)", a->ebx,
		   a->ebx_length);
		for (unsigned i = 0; i < PMS_ARCH_EVENTS_MAX; i++) {
			unsigned ev = 0, um = 0;
			const char *name = pms_intel__arch_event(i, &ev, &um);
			const char *state;

			if (!name)
				continue;
			if (pms_cpuid__arch_event_available(a, i))
				state = "available";
			else if (i >= a->ebx_length)
				state = "not available (beyond the vector length)";
			else
				state = "not available (EBX bit set)";
			printf("    %u %-30s 0x%02x/0x%02x  %s\n", i, name, ev, um, state);
		}
	} else if (!in->cpuid_err && !strcmp(ci->vendor, "GenuineIntel")) {
		printf("intel CPUID.0AH:\n");
		kv("version", "0 (no architectural perfmon%s)", ci->hypervisor ? ": the hypervisor hides it" : "");
	}
	if (!in->cpuid_err && ci->is_amd) {
		const struct pms_cpuid_amd_perf *m = &ci->amd;

		printf("amd CPUID:\n");
		kv("0x80000001 ECX", "0x%08x", ci->ext1_ecx);
		kv("PerfCtrExtCore [23]", "%s", m->perfctr_core ? "yes (6 core counters)" : "no (legacy 4 counters, or hidden by a hypervisor)");
		kv("PerfCtrExtNB [24]", "%s", yesno(m->perfctr_nb));
		kv("PerfTsc [27]", "%s", yesno(m->perf_tsc));
		kv("PerfCtrExtLLC [28]", "%s", yesno(m->perfctr_llc));
		if (m->has_leaf_22) {
			kv("0x80000022 PerfMonV2", "%s", yesno(m->perfmon_v2));
			kv("core counters", "%u", m->nr_core);
			kv("LBR v2", "%s, stack %u, freeze %s", yesno(m->lbr_v2), m->lbr_v2_stack, yesno(m->lbr_pmc_freeze));
			kv("DF / UMC counters", "%u / %u (active UMC mask 0x%x)", m->nr_df, m->nr_umc, m->active_umc);
		} else {
			kv("0x80000022", "absent (max extended leaf 0x%08x): no PerfMonV2", ci->max_ext_leaf);
		}
	}

	if (in->pmus_err) {
		printf("pmus: cannot read the PMU directory: %s\n", strerror(-in->pmus_err));
	} else {
		printf("pmus (%zu):\n", in->nr_pmus);
		printf("  %-20s %5s  %-10s %6s  %s\n", "name", "type", "cpus", "events", "format");
		for (size_t i = 0; i < in->nr_pmus; i++) {
			const struct pms_pmu *p = in->pmus[i];
			struct strbuf sb = STRBUF_INIT;
			char cbuf[16];

			format_terms(p, &sb);
			printf("  %-20s %5u  %-10s %6zu  %s\n", p->name, p->type, cpus_column(p->cpus, cbuf, sizeof(cbuf)),
			       p->nr_aliases, sb.len ? strbuf_str(&sb) : "-");
			strbuf_release(&sb);
		}
	}

	printf("kernel knobs:\n");
	knob_line("perf_event_paranoid", in->k.paranoid, "",
		  in->k.paranoid == PMS_KNOB_ABSENT ? NULL : pms_paranoid__describe(in->k.paranoid));
	knob_line("perf_event_max_sample_rate", in->k.max_sample_rate, " Hz", NULL);
	knob_line("perf_cpu_time_max_percent", in->k.cpu_time_max_percent, " %",
		  in->k.cpu_time_max_percent == 0 ? "sampling-rate throttling disabled" : NULL);
	knob_line("perf_event_mlock_kb", in->k.mlock_kb, " KiB", "ring-buffer memory per user beyond RLIMIT_MEMLOCK");
	knob_line("perf_event_max_stack", in->k.max_stack, " frames", NULL);
	knob_line("nmi_watchdog", in->k.nmi_watchdog, "",
		  in->k.nmi_watchdog > 0 ? "holds one hardware counter on x86" : NULL);
	if (in->k.rdpmc != PMS_KNOB_ABSENT) {
		char key[96];

		snprintf(key, sizeof(key), "rdpmc (%s)", in->k.rdpmc_pmu);
		knob_line(key, in->k.rdpmc, "",
			  in->k.rdpmc == 0 ? "user-space rdpmc disabled" :
			  in->k.rdpmc == 1 ? "user-space rdpmc while an event is mmapped" : "user-space rdpmc always");
	} else {
		kv("rdpmc", "absent");
	}
	knob_line("perf_user_access (arm64)", in->k.perf_user_access, "",
		  in->k.perf_user_access == 1 ? "user-space counter reads allowed" :
		  in->k.perf_user_access == 0 ? "user-space counter reads disabled" : NULL);
	knob_line("unprivileged_bpf_disabled", in->k.unprivileged_bpf_disabled, "",
		  in->k.unprivileged_bpf_disabled == 0 ? "unprivileged BPF allowed" :
		  in->k.unprivileged_bpf_disabled > 0 ? "BPF needs CAP_BPF or root" : NULL);

	printf("privileges:\n");
	kv("CAP_PERFMON", "%s", yesno(in->cap_perfmon));
	kv("CAP_SYS_ADMIN", "%s", yesno(in->cap_sys_admin));
	kv("CAP_BPF", "%s", yesno(in->cap_bpf));

	printf("features:\n");
	kv("BTF", "%s", in->k.btf ? "yes (/sys/kernel/btf/vmlinux)" : "no");
	if (in->tracefs)
		kv("tracefs", "mounted at %s", in->tracefs);
	else
		kv("tracefs", "not mounted (as root: mount -t tracefs nodev /sys/kernel/tracing)");

	printf("probes:\n");
	if (!in->probed) {
		kv("(all)", "not probed");
	} else {
		kv("hardware cycles open", "%s", err_or_ok(in->hw_err));
		if (in->hw_err) {
			kv("", "%s", pms_event__open_error_reason(&(struct perf_event_attr){ .type = PERF_TYPE_HARDWARE },
								  in->hw_err));
		} else {
			counter_probe_text("counters (cycles)", &in->cyc, "cycles");
			counter_probe_text(!strcmp(in->gp_event, "instructions") ? "counters (instructions)" :
					   "counters (branches)", &in->gp, in->gp_event);
			if (in->counters[0])
				kv("counters", "%s", in->counters);
			if (!in->cpuid_err && ci->has_arch_perfmon)
				kv("CPUID.0AH says", "%u general-purpose + %u fixed", ci->arch.nr_gp, ci->arch.nr_fixed);
		}
		if (in->mmap_err)
			kv("mmap page", "%s", pms_errno__name(in->mmap_err));
		else
			kv("mmap page", "%s: cap_user_rdpmc=%d cap_user_time=%d cap_user_time_zero=%d pmc_width=%u",
			   in->mm.event, in->mm.cap_user_rdpmc, in->mm.cap_user_time, in->mm.cap_user_time_zero,
			   in->mm.pmc_width);
		kv("BPF socket filter", "%s", err_or_ok(in->bpf_err));
		if (in->hw_err == -ENOENT && !in->cpuid_err && ci->has_arch_perfmon && ci->arch.nr_gp)
			kv("note", "CPUID.0AH advertises %u counters but the kernel provides none", ci->arch.nr_gp);
		if (in->hw_err == -ENOENT && !in->cpuid_err && ci->is_amd && ci->amd.perfctr_core)
			kv("note", "CPUID advertises PerfCtrExtCore but the kernel provides no hardware events");
	}
	printf("verdict: %s\n", in->verdict);
}

static void counter_probe_json(struct pms_json *w, const char *key, const struct pms_counter_probe *c)
{
	pms_json__obj(w, key);
	pms_json__int(w, "at_once", c->nr);
	pms_json__bool(w, "hit_limit", c->hit_max);
	pms_json__str(w, "open_error", c->first_err ? pms_errno__name(c->first_err) : NULL);
	pms_json__str(w, "stop", c->hit_max ? NULL : c->stop_err ? pms_errno__name(c->stop_err) : "never ran");
	pms_json__end(w);
}

/* A knob this kernel does not have is null. */
static void json_knob(struct pms_json *w, const char *key, int val)
{
	if (val == PMS_KNOB_ABSENT)
		pms_json__null(w, key);
	else
		pms_json__int(w, key, val);
}

static void print_json(const struct info *in)
{
	const struct pms_cpuid_info *ci = &in->ci;
	struct pms_json w;
	struct strbuf jb = STRBUF_INIT;

	pms_json__init(&w, &jb, true);
	pms_json__obj(&w, NULL);
	pms_json__obj(&w, "cpu");
	if (!in->cpuid_err) {
		pms_json__str(&w, "vendor", ci->vendor);
		pms_json__uint(&w, "family", ci->family);
		pms_json__uint(&w, "model", ci->model);
		pms_json__uint(&w, "stepping", ci->stepping);
		pms_json__bool(&w, "hypervisor", ci->hypervisor);
		pms_json__str(&w, "hypervisor_vendor", ci->hv_vendor[0] ? ci->hv_vendor : NULL);
	} else if (in->have_arm) {
		pms_json__str(&w, "vendor", arm_implementer(in->arm_impl));
		pms_json__uint(&w, "implementer", in->arm_impl);
		pms_json__uint(&w, "part", in->arm_part);
		pms_json__str(&w, "part_name", arm_part_name(in->arm_impl, in->arm_part));
	} else {
		pms_json__null(&w, "vendor");
	}
	pms_json__str(&w, "event_maps", in->uarch_err ? NULL : pms_uarch__name(in->uarch));
	pms_json__end(&w);

	if (!in->cpuid_err && ci->has_arch_perfmon) {
		const struct pms_cpuid_arch_perfmon *a = &ci->arch;

		pms_json__obj(&w, "intel_0ah");
		pms_json__uint(&w, "version", a->version);
		pms_json__uint(&w, "gp_counters", a->nr_gp);
		pms_json__uint(&w, "gp_width", a->gp_width);
		pms_json__uint(&w, "fixed_counters", a->nr_fixed);
		pms_json__uint(&w, "fixed_width", a->fixed_width);
		pms_json__uint(&w, "ebx", a->ebx);
		pms_json__uint(&w, "ebx_length", a->ebx_length);
		pms_json__arr(&w, "arch_events");
		for (unsigned i = 0; i < PMS_ARCH_EVENTS_MAX; i++) {
			unsigned ev = 0, um = 0;
			const char *name = pms_intel__arch_event(i, &ev, &um);

			if (!name)
				continue;
			pms_json__obj(&w, NULL);
			pms_json__uint(&w, "bit", i);
			pms_json__str(&w, "name", name);
			pms_json__uint(&w, "event", ev);
			pms_json__uint(&w, "umask", um);
			pms_json__bool(&w, "available", pms_cpuid__arch_event_available(a, i));
			pms_json__end(&w);
		}
		pms_json__end(&w);
		pms_json__end(&w);
	}
	if (!in->cpuid_err && ci->is_amd) {
		pms_json__obj(&w, "amd");
		pms_json__bool(&w, "perfctr_core", ci->amd.perfctr_core);
		pms_json__bool(&w, "perfctr_nb", ci->amd.perfctr_nb);
		pms_json__bool(&w, "perf_tsc", ci->amd.perf_tsc);
		pms_json__bool(&w, "perfctr_llc", ci->amd.perfctr_llc);
		pms_json__bool(&w, "has_leaf_80000022", ci->amd.has_leaf_22);
		pms_json__bool(&w, "perfmon_v2", ci->amd.perfmon_v2);
		pms_json__uint(&w, "core_counters", ci->amd.nr_core);
		pms_json__uint(&w, "df_counters", ci->amd.nr_df);
		pms_json__uint(&w, "umc_counters", ci->amd.nr_umc);
		pms_json__bool(&w, "lbr_v2", ci->amd.lbr_v2);
		pms_json__uint(&w, "lbr_v2_stack", ci->amd.lbr_v2_stack);
		pms_json__end(&w);
	}

	pms_json__arr(&w, "pmus");
	for (size_t i = 0; i < in->nr_pmus; i++) {
		const struct pms_pmu *p = in->pmus[i];
		struct strbuf sb = STRBUF_INIT;

		format_terms(p, &sb);
		pms_json__obj(&w, NULL);
		pms_json__str(&w, "name", p->name);
		pms_json__uint(&w, "type", p->type);
		pms_json__str(&w, "cpus", p->cpus);
		pms_json__uint(&w, "events", p->nr_aliases);
		pms_json__str(&w, "format", strbuf_str(&sb));
		pms_json__end(&w);
		strbuf_release(&sb);
	}
	pms_json__end(&w);

	pms_json__obj(&w, "knobs");
	json_knob(&w, "perf_event_paranoid", in->k.paranoid);
	json_knob(&w, "perf_event_max_sample_rate", in->k.max_sample_rate);
	json_knob(&w, "perf_cpu_time_max_percent", in->k.cpu_time_max_percent);
	json_knob(&w, "perf_event_mlock_kb", in->k.mlock_kb);
	json_knob(&w, "perf_event_max_stack", in->k.max_stack);
	json_knob(&w, "nmi_watchdog", in->k.nmi_watchdog);
	json_knob(&w, "rdpmc", in->k.rdpmc);
	json_knob(&w, "perf_user_access", in->k.perf_user_access);
	json_knob(&w, "unprivileged_bpf_disabled", in->k.unprivileged_bpf_disabled);
	pms_json__end(&w);

	pms_json__obj(&w, "privileges");
	pms_json__bool(&w, "cap_perfmon", in->cap_perfmon);
	pms_json__bool(&w, "cap_sys_admin", in->cap_sys_admin);
	pms_json__bool(&w, "cap_bpf", in->cap_bpf);
	pms_json__end(&w);

	pms_json__obj(&w, "features");
	pms_json__bool(&w, "btf", in->k.btf);
	pms_json__str(&w, "tracefs", in->tracefs);
	pms_json__end(&w);

	if (in->probed) {
		pms_json__obj(&w, "probes");
		pms_json__str(&w, "hw_cycles", err_or_ok(in->hw_err));
		if (!in->hw_err) {
			counter_probe_json(&w, "counters_cycles", &in->cyc);
			counter_probe_json(&w, "counters_branches", &in->gp);
			pms_json__str(&w, "counters_general_event", in->gp_event);
			pms_json__str(&w, "counters", in->counters[0] ? in->counters : NULL);
		}
		pms_json__obj(&w, "mmap_page");
		pms_json__str(&w, "result", err_or_ok(in->mmap_err));
		if (!in->mmap_err) {
			pms_json__str(&w, "event", in->mm.event);
			pms_json__bool(&w, "cap_user_rdpmc", in->mm.cap_user_rdpmc);
			pms_json__bool(&w, "cap_user_time", in->mm.cap_user_time);
			pms_json__bool(&w, "cap_user_time_zero", in->mm.cap_user_time_zero);
			pms_json__uint(&w, "pmc_width", in->mm.pmc_width);
		}
		pms_json__end(&w);
		pms_json__str(&w, "bpf", err_or_ok(in->bpf_err));
		pms_json__end(&w);
	} else {
		pms_json__null(&w, "probes");
	}
	pms_json__str(&w, "verdict", in->verdict);
	pms_json__end(&w);
	pms_json__finish(&w);
	output__put(stdout, &jb);
}

/* This CPU's PMU leaves in PMS_CPUID_FILE format, to make new fixtures. */
static int dump_cpuid(void)
{
	static const uint32_t leaves[] = { 0, 1, 0xa, 0x40000000, 0x80000000, 0x80000001, 0x80000022 };
	struct pms_cpuid_regs r;
	int err;

	printf("# pmuscope info --dump-cpuid: leaf subleaf eax ebx ecx edx\n");
	for (size_t i = 0; i < sizeof(leaves) / sizeof(leaves[0]); i++) {
		err = pms_cpuid(leaves[i], 0, &r);
		if (err) {
			error("cannot read CPUID leaf 0x%x: %s", leaves[i],
			      err == -EOPNOTSUPP ? "this CPU has no CPUID" : strerror(-err));
			return EXIT_RUNTIME;
		}
		printf("0x%08x 0x0 0x%08x 0x%08x 0x%08x 0x%08x\n", leaves[i], r.eax, r.ebx, r.ecx, r.edx);
	}
	return 0;
}

static int run(int argc, char **argv)
{
	struct info in;
	int i;

	i = opt_parse(&cmd_info, &argc, argv, 0);
	if (i < argc)
		usage_error(&cmd_info, "unexpected argument '%s'", argv[i]);
	if (o.dump_cpuid)
		return dump_cpuid();
	gather(&in);
	if (o.json)
		print_json(&in);
	else
		print_text(&in);
	pms_event_ctx__free(in.ctx);
	return fflush(stdout) ? EXIT_RUNTIME : 0;
}

static const struct opt opts[] = {
	OPT_BOOL(0, "json", &o.json, "print one JSON object"),
	OPT_BOOL(0, "no-probe", &o.no_probe, "do not open events to confirm (also with PMS_SYSFS_ROOT or PMS_NO_PROBE=1)"),
	OPT_BOOL(0, "dump-cpuid", &o.dump_cpuid, "print this CPU's PMU leaves in PMS_CPUID_FILE format"),
	OPT_END(),
};

PMS_COMMAND(info, "info",
	    "show this machine's performance-monitoring capabilities",
	    "pmuscope info [--json] [--no-probe] [--dump-cpuid]");
