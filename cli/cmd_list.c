// SPDX-License-Identifier: MIT
// pmuscope list (placeholder until implemented in this session).
#include "cmd.h"

static int run(int argc, char **argv)
{
	opt_parse(&cmd_list, &argc, argv, 0);
	return error("'list' is not implemented yet"), EXIT_RUNTIME;
}

static const struct opt opts[] = { OPT_END() };

const struct pms_cmd cmd_list = {
	.name = "list",
	.summary = "list",
	.usage = "pmuscope list",
	.opts = opts,
	.run = run,
};
