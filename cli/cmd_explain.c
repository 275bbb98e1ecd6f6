// SPDX-License-Identifier: MIT
// pmuscope explain (placeholder until implemented in this session).
#include "cmd.h"

static int run(int argc, char **argv)
{
	opt_parse(&cmd_explain, &argc, argv, 0);
	return error("'explain' is not implemented yet"), EXIT_RUNTIME;
}

static const struct opt opts[] = { OPT_END() };

const struct pms_cmd cmd_explain = {
	.name = "explain",
	.summary = "explain",
	.usage = "pmuscope explain",
	.opts = opts,
	.run = run,
};
