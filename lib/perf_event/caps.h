/* SPDX-License-Identifier: MIT */
/*
 * The kernel's perf knobs and capability probes: sysctls under
 * <procfs>/sys/kernel, rdpmc/perf_user_access, BTF, BPF, tracefs, our
 * effective capabilities, and what an opened event's mmap page advertises.
 *
 * Invariants: every file is read through util/sysfs.h roots (fixture trees
 * work); a knob that is absent reads as PMS_KNOB_ABSENT (paranoid may
 * legitimately be -1), never as 0; probes open real
 * events/programs and close them before returning.
 */
#ifndef PMS_PERF_EVENT_CAPS_H
#define PMS_PERF_EVENT_CAPS_H

#include <stdbool.h>
#include <stdint.h>

#define PMS_KNOB_ABSENT (-2147483647 - 1) /* INT_MIN */

struct pms_knobs {
	int paranoid;                 /* kernel/perf_event_paranoid */
	int max_sample_rate;          /* kernel/perf_event_max_sample_rate (Hz) */
	int cpu_time_max_percent;     /* kernel/perf_cpu_time_max_percent */
	int mlock_kb;                 /* kernel/perf_event_mlock_kb */
	int max_stack;                /* kernel/perf_event_max_stack */
	int unprivileged_bpf_disabled;/* kernel/unprivileged_bpf_disabled */
	int perf_user_access;         /* arm64 kernel/perf_user_access */
	int nmi_watchdog;             /* kernel/nmi_watchdog: on x86 it holds one hardware counter */
	int rdpmc;                    /* <pmu>/rdpmc of the first core PMU that has it */
	char rdpmc_pmu[64];           /* which PMU rdpmc came from ("cpu", "cpu_core") */
	bool btf;                     /* <sysfs>/kernel/btf/vmlinux exists */
	bool tracefs;                 /* tracefs mounted (util/sysfs.h) */
};

/* One knob, <procfs>/sys/kernel/<name> ("perf_user_access"), or PMS_KNOB_ABSENT. */
int pms_knob__sysctl(const char *name);
/* Fill *k; absent or unparsable knobs are PMS_KNOB_ABSENT. Never fails. */
void pms_knobs__read(struct pms_knobs *k);
/* What an unprivileged user may do at this paranoid level, in words. */
const char *pms_paranoid__describe(int level);

/* Linux capability numbers we care about (uapi values). */
#define PMS_CAP_SYS_ADMIN 21
#define PMS_CAP_PERFMON 38
#define PMS_CAP_BPF 39
/* Is `cap` in this process's effective set (<procfs>/self/status CapEff)? */
bool pms_caps__has(int cap);

/*
 * Whether probing (opening real events to see what this kernel accepts)
 * means anything: not when sysfs is a fixture tree (PMS_SYSFS_ROOT), whose
 * events this kernel does not have, nor when PMS_NO_PROBE is set to
 * anything but 0 (tests that must not depend on the machine).
 */
bool pms_caps__probing_meaningful(void);

/* Open PERF_TYPE_HARDWARE cycles (user only): 0, or -errno (-ENOENT: no hardware PMU). */
int pms_caps__probe_hw_cycles(void);

/* Load a two-instruction socket filter: 0, or -errno (EPERM: not allowed). */
int pms_caps__probe_bpf(void);

/* What perf_event_mmap_page of an opened, enabled event says. */
struct pms_mmap_caps {
	char event[32];          /* which event was opened: "cycles" or "task-clock" */
	bool cap_user_rdpmc;
	bool cap_user_time;
	bool cap_user_time_zero;
	bool cap_user_time_short;
	uint16_t pmc_width;
	uint32_t index;          /* hardware counter + 1, 0 when rdpmc is unusable */
};
/*
 * Try hardware cycles first (rdpmc only makes sense there), else
 * task-clock. 0 or the -errno of the last failed step.
 */
int pms_caps__probe_mmap(struct pms_mmap_caps *out);

/*
 * How many events of one kind the PMU runs at once: the kernel has no file
 * for the number of counters, so open groups of n identical events
 * (user-only, on this thread), n = 1, 2, ... max, until the kernel refuses
 * the group at open (it validates that a group fits the counters) or the
 * group never gets time_running > 0 (a counter is held elsewhere, e.g. by
 * the NMI watchdog). Use cycles to count the cycle/fixed counter too, and
 * an event only general-purpose counters take (branch-instructions) for
 * those alone.
 */
struct pms_counter_probe {
	int nr;                 /* largest n that opened and ran; 0 if even one did not */
	int stop_err;           /* why n+1 failed: -errno of the open, or 0 when it opened but never ran */
	int first_err;          /* -errno when a single event does not open (nr == 0), else 0 */
	bool hit_max;           /* n reached max without failing */
};
/* 0 (see *out), or -EINVAL for bad arguments. */
int pms_caps__probe_nr_counters(uint32_t type, uint64_t config, int max, struct pms_counter_probe *out);

#endif
