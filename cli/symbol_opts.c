// SPDX-License-Identifier: MIT
// --symfs and --kallsyms, shared by the commands that name the addresses of a perf.data file.
#include "symbol_opts.h"

const char *symbol_opt_symfs, *symbol_opt_kallsyms;

void symbol_opts__apply(struct pms_session_opts *so)
{
	so->symfs = symbol_opt_symfs;
	so->kallsyms = symbol_opt_kallsyms;
}

void symbol_opts__reset(void)
{
	symbol_opt_symfs = symbol_opt_kallsyms = NULL;
}
