// SPDX-License-Identifier: MIT
// Kernel perf knobs, effective capabilities and open/mmap/BPF capability probes.
#include <errno.h>
#include <linux/bpf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "perf_event/caps.h"
#include "perf_event/sys.h"
#include "util/fileio.h"
#include "util/sysfs.h"

/* Signed: perf_event_paranoid is -1 on opened-up machines. */
static int read_knob(const char *path)
{
	char buf[64], *end;
	long v;

	if (pms_file__read_str(path, buf, sizeof(buf)))
		return PMS_KNOB_ABSENT;
	errno = 0;
	v = strtol(buf, &end, 10);
	if (errno || end == buf || *end || v < -2147483647L || v > 2147483647L)
		return PMS_KNOB_ABSENT;
	return (int)v;
}

int pms_knob__sysctl(const char *name)
{
	char path[4096];

	if (pms_procfs__path(path, sizeof(path), "sys/kernel/%s", name))
		return PMS_KNOB_ABSENT;
	return read_knob(path);
}

static void read_rdpmc(struct pms_knobs *k)
{
	/* core PMU names: "cpu" (x86), "cpu_core"/"cpu_atom" (hybrid) */
	static const char *const pmus[] = { "cpu", "cpu_core", "cpu_atom" };
	char path[4096];
	int v;

	k->rdpmc = PMS_KNOB_ABSENT;
	k->rdpmc_pmu[0] = '\0';
	for (size_t i = 0; i < sizeof(pmus) / sizeof(pmus[0]); i++) {
		if (pms_pmu_dir__path(path, sizeof(path), "%s/rdpmc", pmus[i]))
			continue;
		v = read_knob(path);
		if (v != PMS_KNOB_ABSENT) {
			k->rdpmc = v;
			snprintf(k->rdpmc_pmu, sizeof(k->rdpmc_pmu), "%s", pmus[i]);
			return;
		}
	}
}

void pms_knobs__read(struct pms_knobs *k)
{
	char path[4096];
	struct stat st;

	memset(k, 0, sizeof(*k));
	k->paranoid = pms_knob__sysctl("perf_event_paranoid");
	k->max_sample_rate = pms_knob__sysctl("perf_event_max_sample_rate");
	k->cpu_time_max_percent = pms_knob__sysctl("perf_cpu_time_max_percent");
	k->mlock_kb = pms_knob__sysctl("perf_event_mlock_kb");
	k->max_stack = pms_knob__sysctl("perf_event_max_stack");
	k->unprivileged_bpf_disabled = pms_knob__sysctl("unprivileged_bpf_disabled");
	k->perf_user_access = pms_knob__sysctl("perf_user_access");
	k->nmi_watchdog = pms_knob__sysctl("nmi_watchdog");
	read_rdpmc(k);
	k->btf = pms_sysfs__path(path, sizeof(path), "kernel/btf/vmlinux") == 0 && stat(path, &st) == 0;
	/* $PMS_TRACEFS_ROOT is returned even when it does not exist */
	k->tracefs = pms_tracefs_root() && snprintf(path, sizeof(path), "%s/events", pms_tracefs_root()) > 0 &&
		     stat(path, &st) == 0;
}

const char *pms_paranoid__describe(int level)
{
	if (level < -1)
		return "unknown level";
	switch (level) {
	case -1:
		return "no restrictions: unprivileged users may profile anything, including kernel and CPU-wide";
	case 0:
		return "unprivileged users may profile their own processes and CPU-wide, user and kernel (no raw tracepoint data)";
	case 1:
		return "unprivileged users may profile their own processes, user and kernel; no CPU-wide events";
	case 2:
		return "unprivileged users may profile their own processes in user space only (exclude_kernel)";
	default:
		return "perf_event_open is denied to unprivileged users (Debian/Android level >= 3)";
	}
}

bool pms_caps__probing_meaningful(void)
{
	const char *np = getenv("PMS_NO_PROBE");

	if (np && *np && strcmp(np, "0"))
		return false;
	return getenv("PMS_SYSFS_ROOT") == NULL;
}

bool pms_caps__has(int cap)
{
	char path[4096], *buf = NULL, *p;
	unsigned long long eff;
	bool has = false;

	if (cap < 0 || cap > 63 || pms_procfs__path(path, sizeof(path), "self/status"))
		return false;
	if (pms_file__read_all(path, &buf, NULL))
		return false;
	p = strstr(buf, "\nCapEff:");
	if (p) {
		errno = 0;
		eff = strtoull(p + 8, NULL, 16);
		has = !errno && ((eff >> cap) & 1);
	}
	free(buf);
	return has;
}

static int open_self(uint32_t type, uint64_t config)
{
	struct perf_event_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = type;
	attr.config = config;
	attr.disabled = 1;
	attr.exclude_kernel = 1; /* allowed at paranoid 2 */
	attr.exclude_hv = 1;
	return pms_sys__perf_event_open(&attr, 0, -1, -1, 0);
}

int pms_caps__probe_hw_cycles(void)
{
	int fd = open_self(PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES);

	if (fd < 0)
		return fd;
	close(fd);
	return 0;
}

int pms_caps__probe_bpf(void)
{
	/* r0 = 0; exit: the smallest program the verifier accepts */
	struct bpf_insn insns[2] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = 0, .imm = 0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	union bpf_attr attr;
	long fd;

	memset(&attr, 0, sizeof(attr));
	attr.prog_type = BPF_PROG_TYPE_SOCKET_FILTER;
	attr.insns = (uint64_t)(uintptr_t)insns;
	attr.insn_cnt = 2;
	attr.license = (uint64_t)(uintptr_t)"GPL";
	fd = syscall(SYS_bpf, BPF_PROG_LOAD, &attr, sizeof(attr));
	if (fd < 0)
		return -errno;
	close((int)fd);
	return 0;
}

static int mmap_probe_one(uint32_t type, uint64_t config, struct pms_mmap_caps *out)
{
	long page = sysconf(_SC_PAGESIZE);
	struct perf_event_mmap_page *pg;
	volatile unsigned long spin = 0;
	int fd = open_self(type, config);
	void *map;

	if (fd < 0)
		return fd;
	map = mmap(NULL, (size_t)page, PROT_READ, MAP_SHARED, fd, 0);
	if (map == MAP_FAILED) {
		int err = -errno;

		close(fd);
		return err;
	}
	pg = map;
	/* the kernel fills the page when the event is scheduled in */
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	for (int i = 0; i < 100000; i++)
		spin += (unsigned long)i;
	out->cap_user_rdpmc = pg->cap_user_rdpmc;
	out->cap_user_time = pg->cap_user_time;
	out->cap_user_time_zero = pg->cap_user_time_zero;
	out->cap_user_time_short = pg->cap_user_time_short;
	out->pmc_width = pg->pmc_width;
	out->index = pg->index;
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	munmap(map, (size_t)page);
	close(fd);
	return 0;
}

int pms_caps__probe_mmap(struct pms_mmap_caps *out)
{
	int err;

	memset(out, 0, sizeof(*out));
	err = mmap_probe_one(PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, out);
	if (!err) {
		snprintf(out->event, sizeof(out->event), "cycles");
		return 0;
	}
	err = mmap_probe_one(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, out);
	if (!err)
		snprintf(out->event, sizeof(out->event), "task-clock");
	return err;
}

/* Open a group of n identical events; fds[] receives them. 0 or -errno (nothing left open). */
static int open_group(uint32_t type, uint64_t config, int n, int *fds)
{
	struct perf_event_attr attr;
	int i;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = type;
	attr.config = config;
	attr.exclude_kernel = 1; /* allowed at paranoid 2 */
	attr.exclude_hv = 1;
	attr.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED |
			   PERF_FORMAT_TOTAL_TIME_RUNNING;
	for (i = 0; i < n; i++) {
		attr.disabled = i == 0;
		fds[i] = pms_sys__perf_event_open(&attr, 0, -1, i ? fds[0] : -1, 0);
		if (fds[i] < 0) {
			int err = fds[i];

			while (i-- > 0)
				close(fds[i]);
			return err;
		}
	}
	return 0;
}

/* Enable the group, run a little, and tell whether it was ever scheduled. */
static bool group_ran(int leader)
{
	/* nr, time_enabled, time_running, then one value per member */
	uint64_t buf[3 + 128];
	volatile unsigned long spin = 0;
	ssize_t got;

	if (ioctl(leader, PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP))
		return false;
	for (int i = 0; i < 200000; i++)
		spin += (unsigned long)i;
	ioctl(leader, PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP);
	got = read(leader, buf, sizeof(buf));
	return got >= (ssize_t)(3 * sizeof(uint64_t)) && buf[2] > 0;
}

int pms_caps__probe_nr_counters(uint32_t type, uint64_t config, int max, struct pms_counter_probe *out)
{
	int fds[128];

	if (!out || max < 1 || max > 128)
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	for (int n = 1; n <= max; n++) {
		int err = open_group(type, config, n, fds);
		bool ran;

		if (err) {
			if (n == 1)
				out->first_err = err;
			out->stop_err = err;
			return 0;
		}
		ran = group_ran(fds[0]);
		for (int i = n - 1; i >= 0; i--)
			close(fds[i]);
		if (!ran) {
			out->stop_err = 0;
			return 0;
		}
		out->nr = n;
	}
	out->hit_max = true;
	return 0;
}
