// SPDX-License-Identifier: MIT
// Sampling attrs as perf record sets them: periods and their precedence, sample bits, ID vs IDENTIFIER, leaders, side-band bits.
#include <criterion/criterion.h>
#include <linux/perf_event.h>

#include "event/sampling.h"

static struct pms_evsel sw(int leader_idx)
{
	struct pms_evsel e = { .leader_idx = leader_idx, .name = "cpu-clock" };

	e.attr.type = PERF_TYPE_SOFTWARE;
	e.attr.config = PERF_COUNT_SW_CPU_CLOCK;
	return e;
}

Test(event_sampling, frequency_by_default_and_period_when_asked)
{
	struct pms_evsel ev[1] = { sw(0) };
	struct pms_evlist l = { .entries = ev, .nr = 1 };
	struct pms_sampling_opts so = { 0 };

	pms_evlist__config_sampling(&l, &so);
	cr_assert_eq(ev[0].attr.freq, 1);
	cr_assert_eq(ev[0].attr.sample_freq, 4000, "perf's default rate");
	cr_assert_eq(ev[0].attr.sample_type, PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD);
	cr_assert_eq(ev[0].attr.read_format, 0);
	cr_assert(ev[0].attr.disabled && ev[0].attr.sample_id_all);
	cr_assert(ev[0].attr.mmap && ev[0].attr.mmap2 && ev[0].attr.comm && ev[0].attr.task && ev[0].attr.comm_exec);

	ev[0] = sw(0);
	so.period = 100000;
	so.system_wide = true;
	pms_evlist__config_sampling(&l, &so);
	cr_assert_eq(ev[0].attr.freq, 0);
	cr_assert_eq(ev[0].attr.sample_period, 100000);
	cr_assert_eq(ev[0].attr.sample_type, PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU,
		     "a fixed period is the attr's: no PERIOD in samples");
}

Test(event_sampling, the_events_own_period_wins)
{
	struct pms_evsel ev[2] = { sw(0), sw(1) };
	struct pms_evlist l = { .entries = ev, .nr = 2 };
	struct pms_sampling_opts so = { .freq = 99 };

	/* period=5000 term */
	ev[0].attr.sample_period = 5000;
	ev[0].period_set = true;
	/* a tracepoint's own period 1 */
	ev[1].attr.type = PERF_TYPE_TRACEPOINT;
	ev[1].attr.sample_period = 1;
	ev[1].attr.sample_type = PERF_SAMPLE_RAW;
	pms_evlist__config_sampling(&l, &so);
	cr_assert_eq(ev[0].attr.sample_period, 5000);
	cr_assert_eq(ev[0].attr.freq, 0);
	cr_assert_eq(ev[1].attr.freq, 1, "-F given: it replaces the tracepoint's period");
	cr_assert_eq(ev[1].attr.sample_freq, 99);

	ev[1].attr.freq = 0;
	ev[1].attr.sample_period = 1;
	so.freq = 0;
	pms_evlist__config_sampling(&l, &so);
	cr_assert_eq(ev[1].attr.freq, 0, "no -F/-c: the tracepoint keeps every hit");
	cr_assert_eq(ev[1].attr.sample_period, 1);
}

Test(event_sampling, several_events_say_which_took_a_sample)
{
	struct pms_evsel ev[3] = { sw(0), sw(0), sw(2) };
	struct pms_evlist l = { .entries = ev, .nr = 3 };
	struct pms_sampling_opts so = { .inherit = true, .enable_on_exec = true };

	ev[0].nr_members = 2;
	pms_evlist__config_sampling(&l, &so);
	for (int i = 0; i < 3; i++) {
		cr_assert(ev[i].attr.sample_type & PERF_SAMPLE_ID);
		cr_assert_not(ev[i].attr.sample_type & PERF_SAMPLE_IDENTIFIER);
		cr_assert_eq(ev[i].attr.read_format, PERF_FORMAT_ID);
		cr_assert(ev[i].attr.inherit);
	}
	cr_assert(ev[0].attr.disabled && ev[0].attr.enable_on_exec);
	cr_assert(!ev[1].attr.disabled && !ev[1].attr.enable_on_exec, "a member follows its leader");
	cr_assert(ev[2].attr.disabled && ev[2].attr.enable_on_exec);
	cr_assert(ev[0].attr.mmap && !ev[1].attr.mmap && !ev[2].attr.mmap, "side band once");

	/* layouts that differ: IDENTIFIER, so a reader finds the event before the layout */
	ev[0] = sw(0);
	ev[1] = sw(1);
	ev[2] = sw(2);
	ev[2].attr.sample_type = PERF_SAMPLE_RAW;
	pms_evlist__config_sampling(&l, &so);
	for (int i = 0; i < 3; i++)
		cr_assert(ev[i].attr.sample_type & PERF_SAMPLE_IDENTIFIER);
}

Test(event_sampling, dwarf_call_graphs_as_perf_asks)
{
	struct pms_evsel ev[1] = { sw(0) };
	struct pms_evlist l = { .entries = ev, .nr = 1 };
	struct pms_sampling_opts so = { .cg = { .mode = PMS_CALL_GRAPH_DWARF, .stack_bytes = 4096 } };

	if (!pms_call_graph__dwarf_regs_user())
		cr_skip_test("no DWARF register set for this architecture");
	pms_evlist__config_sampling(&l, &so);
	cr_assert(ev[0].attr.sample_type & PERF_SAMPLE_CALLCHAIN);
	cr_assert(ev[0].attr.sample_type & PERF_SAMPLE_REGS_USER);
	cr_assert(ev[0].attr.sample_type & PERF_SAMPLE_STACK_USER);
	cr_assert_eq(ev[0].attr.sample_stack_user, 4096);
	cr_assert(ev[0].attr.exclude_callchain_user, "the user part is unwound from the copy");
	cr_assert(ev[0].attr.mmap_data);
}

/* perf record's content options, bit for bit as perf 6.1's files show them (perf evlist -v) */
Test(event_sampling, record_options_set_perfs_bits)
{
	struct pms_evsel ev[1] = { sw(0) };
	struct pms_evlist l = { .entries = ev, .nr = 1 };
	struct pms_sampling_opts so = { .sample_addr = true, .sample_cpu = true, .phys_addr = true,
					.data_page_size = true, .code_page_size = true, .weight = true,
					.inherit_stat = true, .regs_user = 0x103, .regs_intr = 0xff0fff,
					.context_switch = true, .namespaces = true, .cgroup = true };
	const struct perf_event_attr *a = &ev[0].attr;

	pms_evlist__config_sampling(&l, &so);
	cr_assert_eq(a->sample_type, PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD |
					     PERF_SAMPLE_ADDR | PERF_SAMPLE_DATA_SRC | PERF_SAMPLE_CPU |
					     PERF_SAMPLE_PHYS_ADDR | PERF_SAMPLE_DATA_PAGE_SIZE |
					     PERF_SAMPLE_CODE_PAGE_SIZE | PERF_SAMPLE_WEIGHT_STRUCT |
					     PERF_SAMPLE_REGS_USER | PERF_SAMPLE_REGS_INTR | PERF_SAMPLE_CGROUP);
	cr_assert_eq(a->read_format, PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING,
		     "-s reads carry the times, as perf's");
	cr_assert(a->inherit_stat);
	cr_assert(a->mmap_data, "-d: the maps of data too");
	cr_assert_eq(a->sample_regs_user, 0x103);
	cr_assert_eq(a->sample_regs_intr, 0xff0fff);
	cr_assert(a->context_switch && a->namespaces && a->cgroup);
}

Test(event_sampling, timestamps_periods_levels_and_clocks)
{
	struct pms_evsel ev[1] = { sw(0) };
	struct pms_evlist l = { .entries = ev, .nr = 1 };
	struct pms_sampling_opts so = { .period = 1000, .no_time = true, .sample_period = true, .all_user = true,
					.use_clockid = true, .clockid = 1, .sample_identifier = true };
	const struct perf_event_attr *a = &ev[0].attr;

	ev[0].attr.exclude_user = 1; /* an event's :k yields to --all-user, as in perf */
	pms_evlist__config_sampling(&l, &so);
	cr_assert_eq(a->sample_type, PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_PERIOD | PERF_SAMPLE_IDENTIFIER,
		     "--no-timestamp drops TIME, -P keeps PERIOD with -c, --sample-identifier with one event");
	cr_assert(a->exclude_kernel && !a->exclude_user);
	cr_assert(a->use_clockid);
	cr_assert_eq(a->clockid, 1);

	ev[0] = sw(0);
	so = (struct pms_sampling_opts){ .no_samples = true, .all_kernel = true };
	pms_evlist__config_sampling(&l, &so);
	cr_assert(a->freq, "-n: a frequency event that never samples, as perf's");
	cr_assert_eq(a->sample_period, 0);
	cr_assert(!a->exclude_kernel && a->exclude_user);
}

Test(event_sampling, branch_stacks_buffering_and_callchain_halves)
{
	struct pms_evsel ev[1] = { sw(0) };
	struct pms_evlist l = { .entries = ev, .nr = 1 };
	struct pms_sampling_opts so = { .branch_sample_type = PERF_SAMPLE_BRANCH_ANY, .no_buffering = true,
					.cg = { .mode = PMS_CALL_GRAPH_FP }, .kernel_callchains_only = true };
	const struct perf_event_attr *a = &ev[0].attr;

	pms_evlist__config_sampling(&l, &so);
	cr_assert(a->sample_type & PERF_SAMPLE_BRANCH_STACK);
	cr_assert_eq(a->branch_sample_type, PERF_SAMPLE_BRANCH_ANY);
	cr_assert_eq(a->wakeup_events, 1);
	cr_assert(!a->watermark);
	cr_assert(a->exclude_callchain_user && !a->exclude_callchain_kernel);

	ev[0] = sw(0);
	so = (struct pms_sampling_opts){ .user_callchains_only = true };
	pms_evlist__config_sampling(&l, &so);
	cr_assert(!a->exclude_callchain_kernel, "without call chains the halves mean nothing");
}
