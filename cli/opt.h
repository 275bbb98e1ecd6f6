/* SPDX-License-Identifier: MIT */
/*
 * Table-driven option parsing. One table per command drives parsing, -h and
 * usage errors. Supports -abc bundles, -oVAL, -o VAL, --long=VAL, --long VAL,
 * --no-<bool>, and "--". Parsing stops at the first non-option when
 * OPT_STOP_AT_NON_OPTION is given (stat/record: the workload follows).
 */
#ifndef PMS_CLI_OPT_H
#define PMS_CLI_OPT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

enum opt_type {
	OPT_T_END,
	OPT_T_BOOL,     /* bool *; --no-x sets false */
	OPT_T_COUNT,    /* int *; each occurrence adds one (-v -v) */
	OPT_T_INT,      /* int * */
	OPT_T_U64,      /* uint64_t * */
	OPT_T_DOUBLE,   /* double * */
	OPT_T_STRING,   /* const char ** (points into argv) */
	OPT_T_STRINGS,  /* struct opt_strings *: each occurrence appends (-e a -e b) */
	OPT_T_CALLBACK, /* cb(opt, arg) with arg NULL for flags without value */
	OPT_T_GROUP,    /* a heading in -h output */
	OPT_T_REFUSED,  /* a perf option that cannot work here: help says why, and so does using it */
};

/* The values of a repeatable option, in order (pointers into argv). */
struct opt_strings {
	const char **v;
	size_t nr;
};
void opt_strings__release(struct opt_strings *l);

struct opt;
typedef int (*opt_cb)(const struct opt *opt, const char *arg);

struct opt {
	enum opt_type type;
	char short_name;
	const char *long_name;
	void *value;
	const char *argh;   /* name of the value in help: "<events>" */
	const char *help;
	opt_cb cb;
	int flags;
	const char *(*help_fn)(void);  /* help built at run time (from a library table); else help */
};

#define OPT_NOARG 1  /* callback takes no value */
#define OPT_OPTARG 2 /* the value is optional: only as --long=VAL or -xVAL (perf's PARSE_OPT_OPTARG); absent = NULL */

#define OPT_END() { .type = OPT_T_END }
#define OPT_GROUP(h) { .type = OPT_T_GROUP, .help = (h) }
#define OPT_BOOL(s, l, v, h) { .type = OPT_T_BOOL, .short_name = (s), .long_name = (l), .value = (v), .help = (h) }
#define OPT_COUNT(s, l, v, h) { .type = OPT_T_COUNT, .short_name = (s), .long_name = (l), .value = (v), .help = (h) }
#define OPT_INT(s, l, v, a, h) { .type = OPT_T_INT, .short_name = (s), .long_name = (l), .value = (v), .argh = (a), .help = (h) }
#define OPT_U64(s, l, v, a, h) { .type = OPT_T_U64, .short_name = (s), .long_name = (l), .value = (v), .argh = (a), .help = (h) }
#define OPT_DOUBLE(s, l, v, a, h) { .type = OPT_T_DOUBLE, .short_name = (s), .long_name = (l), .value = (v), .argh = (a), .help = (h) }
#define OPT_STRING(s, l, v, a, h) { .type = OPT_T_STRING, .short_name = (s), .long_name = (l), .value = (v), .argh = (a), .help = (h) }
#define OPT_STRINGS(s, l, v, a, h) { .type = OPT_T_STRINGS, .short_name = (s), .long_name = (l), .value = (v), .argh = (a), .help = (h) }
/* A string option whose help text help_fn builds (e.g. the list of export formats). */
#define OPT_STRING_HELP_FN(s, l, v, a, fn) { .type = OPT_T_STRING, .short_name = (s), .long_name = (l), .value = (v), .argh = (a), .help_fn = (fn) }
#define OPT_CALLBACK(s, l, a, h, f) { .type = OPT_T_CALLBACK, .short_name = (s), .long_name = (l), .argh = (a), .help = (h), .cb = (f) }
#define OPT_CALLBACK_NOARG(s, l, h, f) { .type = OPT_T_CALLBACK, .short_name = (s), .long_name = (l), .help = (h), .cb = (f), .flags = OPT_NOARG }
/* perf's optional values: "--switch-output" calls f(opt, NULL), "--switch-output=10s" f(opt, "10s") */
#define OPT_CALLBACK_OPTARG(s, l, a, h, f) { .type = OPT_T_CALLBACK, .short_name = (s), .long_name = (l), .argh = (a), .help = (h), .cb = (f), .flags = OPT_OPTARG }
/*
 * A perf option that cannot work here, whatever the machine (not a hardware
 * feature missing on this one: that is found out when the option runs).
 * Parsed with its value when a is non-NULL, then refused: "error: option
 * '--xed' is not supported: <why>", exit 129. -h lists it under its reason.
 */
#define OPT_REFUSED(s, l, a, why) { .type = OPT_T_REFUSED, .short_name = (s), .long_name = (l), .argh = (a), .help = (why) }

#define OPT_STOP_AT_NON_OPTION 1

struct pms_cmd;
/*
 * Parse argv[1..*argc-1]; returns the index of the first argument that is
 * not an option (*argc if none). Positionals are moved behind the options;
 * a "--" is removed (and *argc decremented). -h/--help prints usage to stdout and exits 0; a bad
 * option prints the error plus usage to stderr and exits 129. A callback
 * returning nonzero is a usage error too (it should print its own reason).
 */
int opt_parse(const struct pms_cmd *cmd, int *argc, char **argv, int flags);
/*
 * The hidden --list-opts (as perf's): every option of cmd, one per line as
 * "-a --all-cpus", "--stdio" or "-x", refused ones included; for shell
 * completion and the perf compatibility test.
 */
void opt_list_opts(const struct pms_cmd *cmd, FILE *f);
void opt_print_usage(const struct pms_cmd *cmd, FILE *f);
/*
 * A -p/-t/--pid/--tid value (pms_id_list__parse: min_id 1 for live targets,
 * 0 for filters over a recording), with the same message in every command.
 * A bad list is a usage error (exit 129); *ids is the caller's to free.
 */
struct pms_call_graph;
/*
 * A --call-graph value (pms_call_graph__parse, dwarf sizes in [min, max]
 * bytes), with the same messages in every command; a bad one is a usage error.
 */
void opt_parse_call_graph(const struct pms_cmd *cmd, const char *text, uint32_t min_stack_bytes,
		    uint32_t max_stack_bytes, struct pms_call_graph *out);
void opt_parse_id_list(const struct pms_cmd *cmd, const char *opt_name, const char *text, int min_id,
		 pid_t **ids, size_t *nr);

#endif
