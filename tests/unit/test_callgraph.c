// SPDX-License-Identifier: MIT
// --call-graph values as perf takes them, one parser for record and profile.
#include <criterion/criterion.h>
#include <errno.h>

#include "event/callgraph.h"

Test(call_graph, modes_and_sizes)
{
	struct pms_call_graph cg;

	cr_assert_eq(pms_call_graph__parse("fp", 1, 65528, &cg), 0);
	cr_assert_eq(cg.mode, PMS_CALL_GRAPH_FP);
	cr_assert_eq(cg.stack_bytes, 0);
	cr_assert_eq(pms_call_graph__parse("dwarf", 1, 65528, &cg), 0);
	cr_assert_eq(cg.mode, PMS_CALL_GRAPH_DWARF);
	cr_assert_eq(cg.stack_bytes, PMS_CALL_GRAPH_DWARF_STACK_DEFAULT);
	cr_assert_eq(pms_call_graph__parse("dwarf,4096", 1, 65528, &cg), 0);
	cr_assert_eq(cg.stack_bytes, 4096);
	/* rounded up to 8, as the kernel wants; hex as perf's strtoul(.., 0) */
	cr_assert_eq(pms_call_graph__parse("dwarf,1", 1, 65528, &cg), 0);
	cr_assert_eq(cg.stack_bytes, 8);
	cr_assert_eq(pms_call_graph__parse("dwarf,0x100", 1, 65528, &cg), 0);
	cr_assert_eq(cg.stack_bytes, 256);
	cr_assert_eq(pms_call_graph__parse("dwarf,65527", 1, 65528, &cg), 0);
	cr_assert_eq(cg.stack_bytes, 65528);
}

Test(call_graph, refusals_say_which)
{
	static const char *const bad_mode[] = { "", "bogus", "FP", "fp,8", "dwarf8", "dwarfx", NULL };
	static const char *const bad_size[] = { "dwarf,", "dwarf,0", "dwarf,65529", "dwarf,8k", "dwarf,-8",
						"dwarf, 8", "dwarf,+8", "dwarf,99999999999999999999", NULL };
	struct pms_call_graph cg;

	for (size_t i = 0; bad_mode[i]; i++)
		cr_assert_eq(pms_call_graph__parse(bad_mode[i], 1, 65528, &cg), -EINVAL, "'%s'", bad_mode[i]);
	for (size_t i = 0; bad_size[i]; i++)
		cr_assert_eq(pms_call_graph__parse(bad_size[i], 1, 65528, &cg), -ERANGE, "'%s'", bad_size[i]);
	cr_assert_eq(pms_call_graph__parse("lbr", 1, 65528, &cg), -EOPNOTSUPP);
	cr_assert_eq(pms_call_graph__parse(NULL, 1, 65528, &cg), -EINVAL);
	cr_assert_eq(cg.mode, PMS_CALL_GRAPH_NONE);
	/* the consumer's own limits: profile's BPF copy holds 256..16384 bytes */
	cr_assert_eq(pms_call_graph__parse("dwarf,128", 256, 16384, &cg), -ERANGE);
	cr_assert_eq(pms_call_graph__parse("dwarf,16385", 256, 16384, &cg), -ERANGE);
	cr_assert_eq(pms_call_graph__parse("dwarf,16384", 256, 16384, &cg), 0);
	/* a limit that is no multiple of 8 is not overshot by the rounding */
	cr_assert_eq(pms_call_graph__parse("dwarf,1001", 1, 1002, &cg), -ERANGE);
}
