/* SPDX-License-Identifier: MIT */
/*
 * A subcommand: one cli/cmd_<name>.c defines `const struct pms_cmd cmd_<name>`
 * and cli/commands.def lists it once. Exit codes (docs/exit-codes.md):
 *   0 success, 1 runtime failure, 2 bad event specification,
 *   126/127 command not executable/found, 128 fatal (die), 129 usage error;
 *   stat/record return the workload's own exit status (128+N for signal N).
 */
#ifndef PMS_CLI_CMD_H
#define PMS_CLI_CMD_H

#include "opt.h"

#define EXIT_RUNTIME 1
#define EXIT_BAD_EVENT 2
#define EXIT_NOEXEC 126
#define EXIT_NOTFOUND 127
#define EXIT_FATAL 128
#define EXIT_USAGE 129

struct pms_cmd {
	const char *name;
	const char *summary;      /* one line for `pmuscope help` */
	const char *usage;        /* "pmuscope stat [<options>] [--] <command> [<args>]" */
	const struct opt *opts;   /* table ending in OPT_END() */
	int (*run)(int argc, char **argv); /* argv[0] is the command name */
	/*
	 * Sets every option back to its default and frees what options own;
	 * main calls it before and after run(), so a run starts from the
	 * defaults whatever ran before in the process. NULL: no options.
	 */
	void (*reset)(void);
};

/*
 * The definition that ends each cmd_<name>.c: the command's entry, with the
 * file's own option table `opts`, `run` and `reset_opts`.
 */
#define PMS_COMMAND(ident, cmd_name, one_line, usage_line)                                           \
	const struct pms_cmd cmd_##ident = { .name = (cmd_name), .summary = (one_line), .usage = (usage_line), \
					     .opts = opts, .run = run, .reset = reset_opts }

#define CMD(n) extern const struct pms_cmd cmd_##n;
#include "commands.def"
#undef CMD

/* The whole command line as main() got it (record's HEADER_CMDLINE, as perf's). */
extern int pms_cli_argc;
extern char **pms_cli_argv;

/* Every command, in commands.def order; NULL-terminated. */
extern const struct pms_cmd *const pms_commands[];

/* Messages: "pmuscope: error: ...", "warning: ", "note: ", "hint: ". error() returns -1; die() exits 128. */
__attribute__((format(printf, 1, 2))) int error(const char *fmt, ...);
__attribute__((format(printf, 1, 2))) void warning(const char *fmt, ...);
__attribute__((format(printf, 1, 2))) void note(const char *fmt, ...);
/* "pmuscope: hint: ...": what the user can do about the message before it. */
__attribute__((format(printf, 1, 2))) void hint(const char *fmt, ...);
__attribute__((format(printf, 1, 2), noreturn)) void die(const char *fmt, ...);
/* Usage error for cmd: message, usage line, exit 129. */
__attribute__((format(printf, 2, 3), noreturn)) void usage_error(const struct pms_cmd *cmd, const char *fmt, ...);

/* "s" unless n is 1: "1 sample", "2 samples". */
static inline const char *plural(unsigned long long n)
{
	return n == 1 ? "" : "s";
}

/* Allocation that dies on OOM: the CLI cannot do anything useful without memory. */
void *xmalloc(size_t n);
void *xcalloc(size_t nmemb, size_t n);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);

/* -v count set by main's global options (pmuscope -v <cmd>). */
extern int verbose;

#endif
