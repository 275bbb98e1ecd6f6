/* SPDX-License-Identifier: MIT */
/*
 * The always-on agent's engine: per-CPU (and per-cgroup) counters and a
 * continuous on-CPU profile, kept in a bounded history of one-second
 * windows, served as Prometheus text (/metrics) and as gzipped pprof for
 * the last N seconds (the Go /debug/pprof/profile pull protocol that Parca
 * and Grafana Alloy scrape). The HTTP server is the caller's (the CLI's
 * libmicrohttpd front): this is what a library user embeds.
 *
 * Invariants:
 *  - Threads: one thread drives the sampler (__poll(), __drop_privileges()
 *    hooks); any number of others may call __metrics(), __profile(),
 *    __note_request() and __health() at once (they take the agent's locks,
 *    never for longer than one merge or one read of the counters), so a
 *    slow scraper never stalls sampling.
 *  - Bounded: at most opts.history_s windows and opts.max_nodes tree nodes
 *    over all of them (the oldest windows go first, their samples counted as
 *    evicted), at most opts.max_processes process descriptions (the least
 *    recently sampled go first).
 *  - Every sample the sampler took is accounted for: in a window, dropped by
 *    the kernel side (ring or maps full), or evicted from the history.
 *  - Counters that do not open here are listed with the reason, never shown
 *    as zero.
 *  - 0 or -errno (NULL + errno for pointers); diagnostics in err buffers;
 *    nothing is printed.
 */
#ifndef PMS_AGENT_AGENT_H
#define PMS_AGENT_AGENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/strbuf.h"

/* perf stat's default set for a CPU-wide target and the hw-cache basics: what opens of them is counted. */
#define PMS_AGENT_DEFAULT_EVENTS                                                                   \
	"cpu-clock,context-switches,cpu-migrations,page-faults,cycles,instructions,branches,"     \
	"branch-misses,cache-references,cache-misses,L1-dcache-loads,L1-dcache-load-misses,"      \
	"LLC-loads,LLC-load-misses"

struct pms_agent_opts {
	size_t sz;                  /* sizeof(struct pms_agent_opts) */
	const char *events;         /* event list as `stat -e` takes it; NULL: PMS_AGENT_DEFAULT_EVENTS */
	const char *const *cgroups; /* cgroup v2 paths (relative to its root, pms_cgroup__v2_root(), or absolute) counted
				       on their own (perf's cgroup mode) */
	size_t nr_cgroups;
	unsigned freq_hz;           /* on-CPU samples per second per CPU; 0: 19 (Parca's prime) */
	unsigned history_s;         /* seconds of profile kept for /debug/pprof/profile; 0: 60 */
	size_t max_nodes;           /* tree nodes over the whole history; 0: 500000 */
	size_t max_processes;       /* process descriptions kept for labels; 0: 4096 */
	size_t max_files;           /* object files whose symbols are kept beyond the last second's; 0: 64 */
	bool off_cpu;               /* also run the off-CPU sampler (time blocked, by stack) */
	bool no_profile;            /* counters only */
	bool no_counters;           /* profiles only */
};

struct pms_agent;

/*
 * Open the counters and start the samplers (needs the privileges perf
 * events and BPF need). NULL + errno with a reason in err: a counter set
 * where nothing opens, a sampler that loads neither through BPF nor the
 * ring buffer, a cgroup that cannot be opened, a bad event list.
 */
struct pms_agent *pms_agent__new(const struct pms_agent_opts *opts, char *err, size_t err_size);
/* Stops the samplers and frees everything. Accepts NULL. No other thread may use it any more. */
void pms_agent__free(struct pms_agent *a);

/*
 * The sampler thread's work: wait up to timeout_ms for samples, cut a
 * window every second. 0, -EINTR when a signal came, or -errno.
 */
int pms_agent__poll(struct pms_agent *a, int timeout_ms);

/*
 * Everything that needs privileges is done: read the kernel's symbols now
 * and, when keep_caps is not 0, raise those capabilities (kept permitted
 * by the caller's drop) around each /proc read of the sampler thread.
 */
int pms_agent__prepare_drop(struct pms_agent *a, uint64_t keep_caps);

/* Prometheus text format 0.0.4 of every counter and of the agent's health, appended to out. */
int pms_agent__metrics(struct pms_agent *a, struct strbuf *out);

struct pms_agent_query {
	size_t sz;              /* sizeof(struct pms_agent_query) */
	unsigned seconds;       /* the last N seconds; 0: 30 (Go's default) */
	bool off_cpu;           /* the off-CPU profile (opts.off_cpu) */
	uint32_t pid;           /* only this process; 0: all */
	const char *comm;       /* only processes of this command name; NULL: all */
	const char *cgroup;     /* only processes whose cgroup path contains this; NULL: all */
};

/*
 * gzipped profile.proto of the windows that end within the last
 * q->seconds, filtered, with labels per sample (comm, pid, executable,
 * build_id, cgroup, container_id, systemd_unit). -ERANGE with err when
 * seconds exceeds the history, -ENOENT when the profile asked for is not
 * running (off-CPU without opts.off_cpu, or no_profile).
 */
int pms_agent__profile(struct pms_agent *a, const struct pms_agent_query *q, struct strbuf *out, char *err,
		       size_t err_size);

/* The HTTP front's request log for /metrics: one request to path class `path`, its status and duration. */
int pms_agent__note_request(struct pms_agent *a, const char *path, unsigned status, uint64_t duration_ns);

/* The agent's own accounting (what /metrics shows under pmuscope_agent_*). */
struct pms_agent_health {
	uint64_t samples_taken;      /* by the sampler */
	uint64_t samples_profiled;   /* put in windows */
	uint64_t dropped_ring, dropped_maps; /* dropped whole by the kernel side */
	uint64_t user_stacks_lost, kernel_stacks_lost, truncated;
	uint64_t samples_evicted;    /* in windows dropped early to stay under max_nodes */
	uint64_t windows, windows_evicted;
	uint64_t nodes;              /* tree nodes held now */
	uint64_t unsymbolized;       /* samples whose leaf frame has no symbol */
	uint64_t processes, processes_evicted;
	uint64_t counters_open, counters_unsupported;
	bool ring_fallback;          /* sampling through perf's ring buffer: BPF did not load */
	char sampler_note[200];      /* why, when ring_fallback */
};
void pms_agent__health(struct pms_agent *a, struct pms_agent_health *out);

/* The cgroup v2 path of a /proc/PID/cgroup text ("0::/system.slice/x.service" -> "/system.slice/x.service"). */
int pms_cgroup__path_of(const char *proc_cgroup, char *out, size_t size);
/*
 * Labels of a cgroup path: the container id (64 hex digits of a docker,
 * containerd, cri-o or podman scope) and the systemd unit (the last
 * *.service, *.scope, *.socket or *.mount element). Empty strings when none.
 */
void pms_cgroup__labels(const char *path, char *container_id, size_t cid_size, char *unit, size_t unit_size);

#endif
