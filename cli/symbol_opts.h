/* SPDX-License-Identifier: MIT */
/*
 * The options every command that names addresses of a perf.data file takes
 * (report, script, export, flamegraph, diff), with perf's spellings: where
 * files and kernel symbols are looked for. One definition, so they read the
 * same everywhere.
 */
#ifndef PMS_CLI_SYMBOL_OPTS_H
#define PMS_CLI_SYMBOL_OPTS_H

#include "opt.h"
#include "aggregate/session.h"

extern const char *symbol_opt_symfs, *symbol_opt_kallsyms;

#define OPTS_SYMBOLS                                                                                          \
	OPT_STRING(0, "symfs", &symbol_opt_symfs, "<dir>",                                                    \
		   "look files up under <dir> first (also a build-id cache tree, as unpacked from an archive)"), \
	OPT_STRING(0, "kallsyms", &symbol_opt_kallsyms, "<file>", "name kernel addresses with this kallsyms file")

/* Copy what was given into the session options (borrowed strings). */
void symbol_opts__apply(struct pms_session_opts *so);
/* Forget them (commands run more than once in one process: tests). */
void symbol_opts__reset(void);

#endif
