// SPDX-License-Identifier: MIT
// Sampling attrs as perf record configures them (evsel__config, evlist__config).
#include <linux/perf_event.h>

#include "event/sampling.h"

static void config_period(struct pms_evsel *e, const struct pms_sampling_opts *so)
{
	struct perf_event_attr *a = &e->attr;

	if (e->period_set || e->freq_set || !(so->period || so->freq || so->no_samples || !a->sample_period))
		return;
	if (so->no_samples) {
		/* perf's -n: a frequency event that never samples */
		a->freq = 1;
		a->sample_period = 0;
	} else if (so->period) {
		a->freq = 0;
		a->sample_period = so->period;
	} else {
		a->freq = 1;
		a->sample_freq = so->freq ? so->freq : 4000;
	}
}

/* What perf record's content options add to every event's samples and attr. */
static void config_contents(struct perf_event_attr *a, const struct pms_sampling_opts *so)
{
	if (so->sample_addr)
		a->sample_type |= PERF_SAMPLE_ADDR | PERF_SAMPLE_DATA_SRC;
	if (so->phys_addr)
		a->sample_type |= PERF_SAMPLE_PHYS_ADDR;
	if (so->data_page_size)
		a->sample_type |= PERF_SAMPLE_DATA_PAGE_SIZE;
	if (so->code_page_size)
		a->sample_type |= PERF_SAMPLE_CODE_PAGE_SIZE;
	if (so->weight)
		a->sample_type |= PERF_SAMPLE_WEIGHT_STRUCT;
	if (so->transaction)
		a->sample_type |= PERF_SAMPLE_TRANSACTION;
	if (so->raw)
		a->sample_type |= PERF_SAMPLE_RAW | PERF_SAMPLE_CPU;
	if (so->cgroup)
		a->sample_type |= PERF_SAMPLE_CGROUP;
	if (so->regs_user) {
		a->sample_type |= PERF_SAMPLE_REGS_USER;
		a->sample_regs_user |= so->regs_user;
	}
	if (so->regs_intr) {
		a->sample_type |= PERF_SAMPLE_REGS_INTR;
		a->sample_regs_intr = so->regs_intr;
	}
	if (so->branch_sample_type) {
		a->sample_type |= PERF_SAMPLE_BRANCH_STACK;
		a->branch_sample_type = so->branch_sample_type;
	}
	/* perf: the user's choice of level replaces the event's modifiers */
	if (so->all_user) {
		a->exclude_kernel = 1;
		a->exclude_user = 0;
	}
	if (so->all_kernel) {
		a->exclude_kernel = 0;
		a->exclude_user = 1;
	}
	if (so->use_clockid) {
		a->use_clockid = 1;
		a->clockid = so->clockid;
	}
	a->write_backward = so->write_backward;
	if (so->no_buffering) {
		a->watermark = 0;
		a->wakeup_events = 1;
	}
	if (so->cg.mode != PMS_CALL_GRAPH_NONE && so->kernel_callchains_only)
		a->exclude_callchain_user = 1;
	if (so->cg.mode != PMS_CALL_GRAPH_NONE && so->user_callchains_only)
		a->exclude_callchain_kernel = 1;
}

void pms_evlist__config_sampling(struct pms_evlist *list, const struct pms_sampling_opts *so)
{
	bool differ = false;

	for (size_t i = 0; i < list->nr; i++) {
		struct pms_evsel *e = &list->entries[i];
		struct perf_event_attr *a = &e->attr;

		a->size = sizeof(*a);
		config_period(e, so);
		/*
		 * On top of what the event asks for (a tracepoint: RAW|TIME|CPU|PERIOD,
		 * perf's evsel__newtp()). PERIOD only where it varies, as perf: a
		 * fixed period (-c) is the attr's, the same for every sample.
		 */
		a->sample_type |= PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME;
		if (so->no_time)
			a->sample_type &= ~(uint64_t)PERF_SAMPLE_TIME;
		if (a->freq || so->sample_period)
			a->sample_type |= PERF_SAMPLE_PERIOD;
		config_contents(a, so);
		if (so->cg.mode != PMS_CALL_GRAPH_NONE)
			a->sample_type |= PERF_SAMPLE_CALLCHAIN;
		if (so->cg.mode == PMS_CALL_GRAPH_DWARF) {
			/*
			 * perf's dwarf mode, bit for bit: the kernel chain only (the
			 * user part is unwound later from regs + stack), and data
			 * addresses (ADDR, DATA_SRC, mmap_data) for the unwinder.
			 */
			a->sample_type |= PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER | PERF_SAMPLE_ADDR |
					  PERF_SAMPLE_DATA_SRC;
			a->sample_regs_user |= pms_call_graph__dwarf_regs_user();
			a->sample_stack_user = so->cg.stack_bytes;
			a->exclude_callchain_user = 1;
		}
		if (so->system_wide || so->sample_cpu)
			a->sample_type |= PERF_SAMPLE_CPU;
		a->read_format = list->nr > 1 ? PERF_FORMAT_ID : 0;
		if (so->inherit_stat || so->running_time)
			a->read_format |= PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
		a->inherit_stat = so->inherit_stat;
		a->sample_id_all = 1;
		a->disabled = e->leader_idx == (int)i || e->leader_idx < 0;
		a->inherit = so->inherit;
		a->enable_on_exec = so->enable_on_exec && a->disabled;
		if (i == 0) {
			a->mmap = a->comm = a->task = a->mmap2 = a->comm_exec = 1;
			a->mmap_data = so->cg.mode == PMS_CALL_GRAPH_DWARF || so->sample_addr;
			a->context_switch = so->context_switch;
			a->namespaces = so->namespaces;
			a->cgroup = so->cgroup;
		}
	}
	if (list->nr < 2) {
		if (list->nr && so->sample_identifier)
			list->entries[0].attr.sample_type |= PERF_SAMPLE_IDENTIFIER;
		return;
	}
	for (size_t i = 1; i < list->nr; i++)
		differ |= list->entries[i].attr.sample_type != list->entries[0].attr.sample_type;
	for (size_t i = 0; i < list->nr; i++)
		list->entries[i].attr.sample_type |= differ || so->sample_identifier ? PERF_SAMPLE_IDENTIFIER : PERF_SAMPLE_ID;
}
