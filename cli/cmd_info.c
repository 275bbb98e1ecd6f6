// SPDX-License-Identifier: MIT
// pmuscope info (placeholder until implemented in this session).
#include "cmd.h"

static int run(int argc, char **argv)
{
	opt_parse(&cmd_info, &argc, argv, 0);
	return error("'info' is not implemented yet"), EXIT_RUNTIME;
}

static const struct opt opts[] = { OPT_END() };

const struct pms_cmd cmd_info = {
	.name = "info",
	.summary = "info",
	.usage = "pmuscope info",
	.opts = opts,
	.run = run,
};
