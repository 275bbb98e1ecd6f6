/* SPDX-License-Identifier: MIT */
/*
 * Reading perf.data files (pmuscope's or Linux perf's, file or pipe mode,
 * from this machine or another) into symbolized samples, and the profile
 * (stack tree) that `report` and `export` compute from them.
 *
 *   struct pms_perf_data *d = pms_perf_data__open("perf.data", NULL);
 *   const struct pms_sample_info *s;
 *   while (pms_perf_data__next(d, &s) == 1)
 *           printf("%s %u %s\n", s->comm, s->tid, s->frames[0].symbol);
 *   pms_perf_data__close(d);
 *
 * Symbols come from the files the recording names, checked against their
 * recorded build-ids (a rebuilt binary is never used to name old
 * addresses), then the build-id cache and debuginfod; kernel addresses are
 * named only with the recorded kernel's symbols. What cannot be named says
 * so: symbol NULL and object "[unknown]" or the object's path.
 *
 * Ownership: everything a sample points to stays valid until the next
 * pms_perf_data__next() call; strings of objects, symbols and comms until
 * pms_perf_data__close(). Thread-safety: one handle per thread.
 */
#ifndef PMUSCOPE_PERF_DATA_H
#define PMUSCOPE_PERF_DATA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <pmuscope/pmuscope.h>

#ifdef __cplusplus
extern "C" {
#endif

struct pms_perf_data;

enum pms_sample_frame_kind {
	PMS_SAMPLE_FRAME_USER = 0,
	PMS_SAMPLE_FRAME_KERNEL = 1,
	PMS_SAMPLE_FRAME_JIT = 2,   /* named through /tmp/perf-PID.map */
	PMS_SAMPLE_FRAME_GUEST = 3, /* a virtual machine's address: not named */
};

struct pms_sample_frame {
	uint64_t ip;            /* as sampled, or the return address for callers */
	const char *symbol;     /* demangled, without parameters as perf prints it; NULL if unknown */
	uint64_t symbol_offset; /* from the symbol's start (at ip - 1 for return addresses, as perf) */
	const char *object;     /* file path, "[kernel.kallsyms]", "[ext4]", "[jit]" or "[unknown]" */
	enum pms_sample_frame_kind kind;
	bool return_address;    /* a caller frame (looked up at ip - 1) */
};

struct pms_sample_info {
	const char *event;      /* "cpu-clock", "sched:sched_switch", ... */
	const char *comm;       /* thread name at the sample's time */
	uint32_t pid, tid;
	uint32_t cpu;           /* (uint32_t)-1 when not recorded */
	uint64_t time_ns;       /* perf clock; 0 when not recorded */
	uint64_t period;        /* events (or ns for the clocks) this sample stands for */
	size_t nr_frames;       /* >= 1 */
	const struct pms_sample_frame *frames; /* [0] is the sampled IP, then each caller */
};

struct pms_perf_data_opts {
	size_t sz;              /* sizeof(struct pms_perf_data_opts) */
	bool no_callchain;      /* only the sampled IP per sample (faster) */
	bool recover;           /* stop quietly at damage, keeping the samples before it */
	const char *symfs;      /* perf's --symfs: look binaries up under this directory first */
	const char *kallsyms;   /* perf's --kallsyms: the recorded kernel's symbols */
};

/*
 * Open path ("-" reads a pipe-mode stream from stdin). NULL and errno:
 * ENOENT, EACCES, EINVAL (not a perf.data file, or damaged: the
 * diagnostics callback gets the file offset and why), ENOMEM.
 */
PMS_API struct pms_perf_data *pms_perf_data__open(const char *path, const struct pms_perf_data_opts *opts);
PMS_API void pms_perf_data__close(struct pms_perf_data *d);
/* Next sample in time order: 1 with *out set, 0 at the end, -errno on damage (see recover). */
PMS_API int pms_perf_data__next(struct pms_perf_data *d, const struct pms_sample_info **out);
/*
 * Name addr in process pid of the recording, with its maps as of the
 * sample last read by __next() (the file's own process state, not this
 * machine's), then the recorded kernel's. 0 with *out filled (symbol NULL
 * when unknown; strings live until __close()), -EINVAL for bad arguments.
 */
PMS_API int pms_perf_data__symbolize(struct pms_perf_data *d, uint32_t pid, uint64_t addr,
				     struct pms_sample_frame *out);
/* Samples lost by the kernel while recording (PERF_RECORD_LOST*), complete after __next() gave 0. */
PMS_API uint64_t pms_perf_data__lost(const struct pms_perf_data *d);

/*
 * A stack tree: the samples of a perf.data file merged by call chain, the
 * data behind report, flame graphs and every export format.
 */
struct pms_stack_tree;

struct pms_stack_tree_opts {
	size_t sz;              /* sizeof(struct pms_stack_tree_opts) */
	const char *event;      /* only this event's samples; NULL: all */
	bool inline_frames;     /* inlined functions (DWARF) as frames of their own */
	const char *symfs;
	const char *kallsyms;
};

/* NULL and errno as pms_perf_data__open(). */
PMS_API struct pms_stack_tree *pms_stack_tree__from_perf_data(const char *path, const struct pms_stack_tree_opts *opts);
PMS_API void pms_stack_tree__free(struct pms_stack_tree *p);
PMS_API uint64_t pms_stack_tree__samples(const struct pms_stack_tree *p);

/*
 * Write the tree in format ("folded", "pprof", "speedscope", "chrome",
 * "json", "flamegraph", "svg": the names `pmuscope export --format` takes)
 * to path. 0, -ENOENT for an unknown format, or -errno.
 */
PMS_API int pms_stack_tree__write(struct pms_stack_tree *p, const char *format, const char *path);

struct pms_stack_tree_function {
	const char *name;       /* symbol, or the address in hex when unknown */
	const char *object;
	uint64_t self_samples;  /* samples with this function as the leaf */
	uint64_t total_samples; /* samples with it anywhere on the stack (counted once per sample) */
	uint64_t self_period, total_period;
};

typedef int (*pms_stack_tree_function_fn)(const struct pms_stack_tree_function *fn, void *arg);
/*
 * Every function with samples, most self samples first (then most total,
 * then name). A non-zero return from fn stops the walk and is returned.
 */
PMS_API int pms_stack_tree__foreach_function(struct pms_stack_tree *p, pms_stack_tree_function_fn fn, void *arg);

/*
 * Symbolizing addresses of a live process, as a profiler that saw them in
 * a stack would: its mappings as they are now, the mapped files' symbols
 * (and separate debug files), the running kernel's for kernel addresses.
 */
struct pms_symbolizer;

/* A snapshot of pid's address space (now). NULL and errno (ESRCH, EACCES, ENOMEM). */
PMS_API struct pms_symbolizer *pms_symbolizer__new(pid_t pid);
PMS_API void pms_symbolizer__free(struct pms_symbolizer *s);
/*
 * Name addr (kernel addresses too). 0 with *out filled (symbol NULL when no
 * symbol covers it; its strings live until __free()), or -errno.
 * return_address: look up addr - 1, as for a caller frame.
 */
PMS_API int pms_symbolizer__lookup(struct pms_symbolizer *s, uint64_t addr, bool return_address,
				   struct pms_sample_frame *out);

#ifdef __cplusplus
}
#endif

#endif /* PMUSCOPE_PERF_DATA_H */
