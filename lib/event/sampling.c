// SPDX-License-Identifier: MIT
// Sampling attrs as perf record configures them (evsel__config, evlist__config).
#include <linux/perf_event.h>

#include "event/sampling.h"

static void config_period(struct pms_evsel *e, const struct pms_sampling_opts *so)
{
	struct perf_event_attr *a = &e->attr;

	if (e->period_set || e->freq_set || !(so->period || so->freq || !a->sample_period))
		return;
	if (so->period) {
		a->freq = 0;
		a->sample_period = so->period;
	} else {
		a->freq = 1;
		a->sample_freq = so->freq ? so->freq : 4000;
	}
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
		if (a->freq)
			a->sample_type |= PERF_SAMPLE_PERIOD;
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
			a->sample_regs_user = pms_call_graph__dwarf_regs_user();
			a->sample_stack_user = so->cg.stack_bytes;
			a->exclude_callchain_user = 1;
		}
		if (so->system_wide)
			a->sample_type |= PERF_SAMPLE_CPU;
		a->read_format = list->nr > 1 ? PERF_FORMAT_ID : 0;
		a->sample_id_all = 1;
		a->disabled = e->leader_idx == (int)i || e->leader_idx < 0;
		a->inherit = so->inherit;
		a->enable_on_exec = so->enable_on_exec && a->disabled;
		if (i == 0) {
			a->mmap = a->comm = a->task = a->mmap2 = a->comm_exec = 1;
			a->mmap_data = so->cg.mode == PMS_CALL_GRAPH_DWARF;
		}
	}
	if (list->nr < 2)
		return;
	for (size_t i = 1; i < list->nr; i++)
		differ |= list->entries[i].attr.sample_type != list->entries[0].attr.sample_type;
	for (size_t i = 0; i < list->nr; i++)
		list->entries[i].attr.sample_type |= differ ? PERF_SAMPLE_IDENTIFIER : PERF_SAMPLE_ID;
}
