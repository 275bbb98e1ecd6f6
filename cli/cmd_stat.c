// SPDX-License-Identifier: MIT
// pmuscope stat (placeholder until implemented in this session).
#include "cmd.h"

static int run(int argc, char **argv)
{
	opt_parse(&cmd_stat, &argc, argv, 0);
	return error("'stat' is not implemented yet"), EXIT_RUNTIME;
}

static const struct opt opts[] = { OPT_END() };

const struct pms_cmd cmd_stat = {
	.name = "stat",
	.summary = "stat",
	.usage = "pmuscope stat",
	.opts = opts,
	.run = run,
};
