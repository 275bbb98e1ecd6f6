/* SPDX-License-Identifier: MIT */
/*
 * `stat` output: options shared with cmd_stat.c and the printers of the
 * human table, CSV and JSON (documents and JSON Lines for -I).
 *
 * Invariants: everything the measurement produced goes to `out->f`
 * (stderr, or the -o file); warnings and notes go to stderr only and, in
 * JSON, into the document's "warnings" array; a printer is only called with
 * a complete reading (never a half-read counter set).
 */
#ifndef PMS_CLI_STAT_PRINT_H
#define PMS_CLI_STAT_PRINT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "perf_event/counter.h"
#include "util/cputopo.h"
#include "util/strbuf.h"

enum stat_target {
	ST_COMMAND,  /* forked workload only */
	ST_PID,
	ST_TID,
	ST_SYSTEM,   /* -a */
	ST_CPUS,     /* -C */
};

enum stat_aggr {
	AGGR_GLOBAL,
	AGGR_CPU,     /* -A */
	AGGR_THREAD,  /* --per-thread */
	AGGR_TOPO,    /* --per-socket/die/core/node: the units of stat_out.amap */
};

struct stat_cfg {
	enum stat_target target;
	enum stat_aggr aggr;
	const char *target_str;  /* -p/-t/-C argument */
	char **argv;             /* workload, NULL if none */
	int argc;
	bool no_scale;
	bool json;
	const char *csv_sep;     /* -x, NULL for the table */
	int repeat;              /* -r: runs asked for, >= 1 */
	int runs;                /* runs that finished (fewer than repeat when interrupted) */
	int interval_ms;         /* 0: no -I */
};

/* Per-event statistics over -r runs. */
struct stat_rstat {
	struct pms_stats st;
	struct pms_count sum;    /* ena/run summed over runs */
	int nr_counted;
};

struct stat_out {
	FILE *f;
	const struct stat_cfg *cfg;
	int interval_lines;      /* -I: the column header repeats every 25 */
	char **comms;            /* per thread slot, for --per-thread */
	const struct pms_aggr_map *amap; /* AGGR_TOPO: the unit of each CPU slot */
	const char *thousands_sep;       /* -B: the locale's separator, NULL for none */
	bool interval_clear;     /* --interval-clear */
	bool summary;            /* --summary: the totals after -I */
	bool csv_summary;        /* --summary -x: the "summary" column (perf's default) */
	bool quiet;              /* --quiet: print no counts */
	const char **cgroup_of;  /* -G/--for-each-cgroup: each counter's cgroup name, NULL for none */
	const struct pms_metric_def **metrics; /* -M, in the order asked */
	size_t nr_metrics;
	bool metric_only;        /* --metric-only: the metrics, no event rows */
	int metric_lines;        /* --metric-only -I: the header repeats every 25 */
	double *run_ns;          /* --table: each -r run's elapsed time, NULL without */
	size_t nr_run_ns;
	char **warnings;         /* JSON: the warning texts, for the document's "warnings" */
	size_t nr_warnings;
	bool hw_note_done;
	/* tool events' values for the reading being printed, by enum pms_tool_event; < 0: unknown */
	double tool_ns[4];
};

/* Per-run facts the summary shows. */
struct stat_run_info {
	double elapsed_ns;
	double user_ns, sys_ns;
	bool have_rusage;
	int exit_status;         /* -1 when there is no workload */
	bool interrupted;
};

/* Aggregation units of a reading: 1, the CPUs (-A), the threads (--per-thread) or the topology units. */
size_t stat_nr_units(const struct stat_out *o, const struct pms_counters *cs);
/* Counter c summed over aggregation unit u (delta: since the previous read). */
struct pms_count stat_unit_sum(const struct stat_out *o, const struct pms_counters *cs,
			       const struct pms_counter *c, size_t u, bool delta);
/*
 * The final table/CSV/JSON of one run (rstat NULL) or of -r runs (rstat
 * [counter * stat_nr_units() + unit], elapsed stats in wall).
 */
void stat_print_final(struct stat_out *o, const struct pms_counters *cs,
		      const struct stat_run_info *ri, const struct stat_rstat *rstat,
		      const struct pms_stats *wall);
/* One -I interval: deltas since the previous read; ts_ns since the start. */
void stat_print_interval(struct stat_out *o, const struct pms_counters *cs, uint64_t ts_ns,
			 double interval_ns);
/*
 * Warn on stderr (and record for JSON) about groups that never ran and
 * events this machine cannot count. Call once, on the final counts.
 */
void stat_check_counts(struct stat_out *o, const struct pms_counters *cs);
/* Value of a tool event (duration_time, user_time, system_time) for this run, < 0 if unknown. */
double stat_tool_value(const struct stat_run_info *ri, enum pms_tool_event t);
/* Record a warning for JSON and print it on stderr. */
__attribute__((format(printf, 2, 3)))
void stat_warn(struct stat_out *o, const char *fmt, ...);
/* JSON Lines (-I --json): the warnings as one last line, so none is lost; nothing without warnings. */
void stat_print_warnings_line(struct stat_out *o);
void stat_out__release_warnings(struct stat_out *o);

#endif
