// SPDX-License-Identifier: MIT
// pms_attr__format() against attr dumps captured from perf 6.1 `stat -vv` / `record -vv` on the dev VM.
#include <criterion/criterion.h>
#include <linux/perf_event.h>
#include <string.h>

#include "event/attr_print.h"

static void expect_dump(const struct perf_event_attr *a, const char *want)
{
	struct strbuf sb = STRBUF_INIT;

	pms_attr__format(a, &sb);
	cr_expect_str_eq(strbuf_str(&sb), want);
	strbuf_release(&sb);
}

/* perf stat -vv -e '{task-clock,cs}:u' true: the leader */
Test(event_attr_print, stat_group_leader)
{
	struct perf_event_attr a = { 0 };

	a.type = PERF_TYPE_SOFTWARE;
	a.size = 128;
	a.config = PERF_COUNT_SW_TASK_CLOCK;
	a.sample_type = PERF_SAMPLE_IDENTIFIER;
	a.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING | PERF_FORMAT_ID |
			PERF_FORMAT_GROUP;
	a.disabled = 1;
	a.inherit = 1;
	a.exclude_kernel = 1;
	a.exclude_hv = 1;
	a.enable_on_exec = 1;
	a.exclude_guest = 1;
	expect_dump(&a, "perf_event_attr:\n"
			"  type                             1\n"
			"  size                             128\n"
			"  config                           0x1\n"
			"  sample_type                      IDENTIFIER\n"
			"  read_format                      TOTAL_TIME_ENABLED|TOTAL_TIME_RUNNING|ID|GROUP\n"
			"  disabled                         1\n"
			"  inherit                          1\n"
			"  exclude_kernel                   1\n"
			"  exclude_hv                       1\n"
			"  enable_on_exec                   1\n"
			"  exclude_guest                    1\n");
}

/* perf stat -vv -e cycles true: type 0 and config 0 are not printed */
Test(event_attr_print, zero_fields_are_omitted)
{
	struct perf_event_attr a = { 0 };

	a.size = 128;
	a.exclude_guest = 1;
	expect_dump(&a, "perf_event_attr:\n"
			"  size                             128\n"
			"  exclude_guest                    1\n");
}

/* perf record -vv -e cpu-clock/period=1000/ true */
Test(event_attr_print, record_sampling_event)
{
	struct perf_event_attr a = { 0 };

	a.type = 1;
	a.size = 128;
	a.sample_period = 1000;
	a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME;
	a.read_format = PERF_FORMAT_ID | (1ULL << 4); /* LOST */
	a.disabled = a.inherit = a.mmap = a.comm = a.enable_on_exec = a.task = a.sample_id_all = 1;
	a.exclude_guest = a.mmap2 = a.comm_exec = a.ksymbol = a.bpf_event = 1;
	expect_dump(&a, "perf_event_attr:\n"
			"  type                             1\n"
			"  size                             128\n"
			"  { sample_period, sample_freq }   1000\n"
			"  sample_type                      IP|TID|TIME\n"
			"  read_format                      ID|LOST\n"
			"  disabled                         1\n"
			"  inherit                          1\n"
			"  mmap                             1\n"
			"  comm                             1\n"
			"  enable_on_exec                   1\n"
			"  task                             1\n"
			"  sample_id_all                    1\n"
			"  exclude_guest                    1\n"
			"  mmap2                            1\n"
			"  comm_exec                        1\n"
			"  ksymbol                          1\n"
			"  bpf_event                        1\n");
}

/* perf record -vv: the side-band dummy event, and config1/config2 as perf names them */
Test(event_attr_print, unions_and_late_fields)
{
	struct perf_event_attr a = { 0 };

	a.type = 1;
	a.size = 128;
	a.config = PERF_COUNT_SW_DUMMY;
	a.watermark = 1;
	a.sample_id_all = 1;
	a.bpf_event = 1;
	a.wakeup_watermark = 1;
	a.config1 = 1;
	a.config2 = 3;
	expect_dump(&a, "perf_event_attr:\n"
			"  type                             1\n"
			"  size                             128\n"
			"  config                           0x9\n"
			"  watermark                        1\n"
			"  sample_id_all                    1\n"
			"  bpf_event                        1\n"
			"  { wakeup_events, wakeup_watermark } 1\n"
			"  { bp_addr, config1 }             0x1\n"
			"  { bp_len, config2 }              0x3\n");
}

Test(event_attr_print, flags_branch_regs_clock)
{
	struct perf_event_attr a = { 0 };
	struct strbuf sb = STRBUF_INIT;

	a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_PERIOD | PERF_SAMPLE_RAW |
			PERF_SAMPLE_BRANCH_STACK | PERF_SAMPLE_WEIGHT_STRUCT;
	a.branch_sample_type = PERF_SAMPLE_BRANCH_USER | PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_HW_INDEX;
	a.precise_ip = 3;
	a.freq = 1;
	a.sample_freq = 4000;
	a.use_clockid = 1;
	a.clockid = 1;
	a.sample_regs_user = 0xff0fff;
	a.sample_stack_user = 8192;
	a.sample_max_stack = 127;
	pms_attr__format(&a, &sb);
	cr_expect(strstr(strbuf_str(&sb), "  sample_type                      IP|CALLCHAIN|PERIOD|RAW|BRANCH_STACK|"
					  "WEIGHT_STRUCT\n"));
	cr_expect(strstr(strbuf_str(&sb), "  branch_sample_type               USER|ANY|HW_INDEX\n"));
	cr_expect(strstr(strbuf_str(&sb), "  { sample_period, sample_freq }   4000\n"));
	cr_expect(strstr(strbuf_str(&sb), "  freq                             1\n"));
	cr_expect(strstr(strbuf_str(&sb), "  precise_ip                       3\n"));
	cr_expect(strstr(strbuf_str(&sb), "  sample_regs_user                 0xff0fff\n"));
	cr_expect(strstr(strbuf_str(&sb), "  sample_stack_user                8192\n  clockid                          1\n"));
	cr_expect(strstr(strbuf_str(&sb), "  sample_max_stack                 127\n"));
	/* perf's order: freq before enable_on_exec ... precise_ip after watermark */
	cr_expect(strstr(strbuf_str(&sb), "freq") < strstr(strbuf_str(&sb), "precise_ip"));
	cr_expect(strstr(strbuf_str(&sb), "use_clockid") < strstr(strbuf_str(&sb), "branch_sample_type"));
	strbuf_release(&sb);
}

/* perf evlist -v, a group member of perf record -e '{cpu-clock,task-clock:u}' -c 100003 (perf 6.1 here) */
Test(event_attr_print, evlist_inline_form)
{
	struct perf_event_attr a = { 0 };
	struct strbuf sb = STRBUF_INIT;

	a.type = PERF_TYPE_SOFTWARE;
	a.size = 128;
	a.config = PERF_COUNT_SW_TASK_CLOCK;
	a.sample_period = 100003;
	a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID;
	a.read_format = PERF_FORMAT_ID | (1ULL << 4);
	a.inherit = 1;
	a.exclude_kernel = 1;
	a.exclude_hv = 1;
	a.sample_id_all = 1;
	a.exclude_guest = 1;
	strbuf_adds(&sb, "task-clock:u");
	pms_attr__format_inline(&a, &sb);
	cr_expect_str_eq(strbuf_str(&sb),
			 "task-clock:u: type: 1, size: 128, config: 0x1, { sample_period, sample_freq }: 100003, "
			 "sample_type: IP|TID|TIME|ID, read_format: ID|LOST, inherit: 1, exclude_kernel: 1, "
			 "exclude_hv: 1, sample_id_all: 1, exclude_guest: 1");
	strbuf_release(&sb);
}
