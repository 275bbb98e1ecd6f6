// SPDX-License-Identifier: MIT
// perf 6.1's `-vv` perf_event_attr dump, reproduced field by field so outputs can be diffed.
#include <inttypes.h>
#include <linux/perf_event.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "event/attr_print.h"

struct bit_name {
	uint64_t bit;
	const char *name;
};

/* perf prints flags in this order; bits it does not know are left out, as perf does. */
static const struct bit_name sample_bits[] = {
	{ PERF_SAMPLE_IP, "IP" }, { PERF_SAMPLE_TID, "TID" }, { PERF_SAMPLE_TIME, "TIME" },
	{ PERF_SAMPLE_ADDR, "ADDR" }, { PERF_SAMPLE_READ, "READ" }, { PERF_SAMPLE_CALLCHAIN, "CALLCHAIN" },
	{ PERF_SAMPLE_ID, "ID" }, { PERF_SAMPLE_CPU, "CPU" }, { PERF_SAMPLE_PERIOD, "PERIOD" },
	{ PERF_SAMPLE_STREAM_ID, "STREAM_ID" }, { PERF_SAMPLE_RAW, "RAW" },
	{ PERF_SAMPLE_BRANCH_STACK, "BRANCH_STACK" }, { PERF_SAMPLE_REGS_USER, "REGS_USER" },
	{ PERF_SAMPLE_STACK_USER, "STACK_USER" }, { PERF_SAMPLE_IDENTIFIER, "IDENTIFIER" },
	{ PERF_SAMPLE_REGS_INTR, "REGS_INTR" }, { PERF_SAMPLE_DATA_SRC, "DATA_SRC" },
	{ PERF_SAMPLE_WEIGHT, "WEIGHT" }, { PERF_SAMPLE_PHYS_ADDR, "PHYS_ADDR" }, { PERF_SAMPLE_AUX, "AUX" },
	{ PERF_SAMPLE_CGROUP, "CGROUP" }, { PERF_SAMPLE_DATA_PAGE_SIZE, "DATA_PAGE_SIZE" },
	{ PERF_SAMPLE_CODE_PAGE_SIZE, "CODE_PAGE_SIZE" }, { PERF_SAMPLE_WEIGHT_STRUCT, "WEIGHT_STRUCT" },
	{ 0, NULL },
};

static const struct bit_name branch_bits[] = {
	{ PERF_SAMPLE_BRANCH_USER, "USER" }, { PERF_SAMPLE_BRANCH_KERNEL, "KERNEL" },
	{ PERF_SAMPLE_BRANCH_HV, "HV" }, { PERF_SAMPLE_BRANCH_ANY, "ANY" },
	{ PERF_SAMPLE_BRANCH_ANY_CALL, "ANY_CALL" }, { PERF_SAMPLE_BRANCH_ANY_RETURN, "ANY_RETURN" },
	{ PERF_SAMPLE_BRANCH_IND_CALL, "IND_CALL" }, { PERF_SAMPLE_BRANCH_ABORT_TX, "ABORT_TX" },
	{ PERF_SAMPLE_BRANCH_IN_TX, "IN_TX" }, { PERF_SAMPLE_BRANCH_NO_TX, "NO_TX" },
	{ PERF_SAMPLE_BRANCH_COND, "COND" }, { PERF_SAMPLE_BRANCH_CALL_STACK, "CALL_STACK" },
	{ PERF_SAMPLE_BRANCH_IND_JUMP, "IND_JUMP" }, { PERF_SAMPLE_BRANCH_CALL, "CALL" },
	{ PERF_SAMPLE_BRANCH_NO_FLAGS, "NO_FLAGS" }, { PERF_SAMPLE_BRANCH_NO_CYCLES, "NO_CYCLES" },
	{ PERF_SAMPLE_BRANCH_TYPE_SAVE, "TYPE_SAVE" }, { PERF_SAMPLE_BRANCH_HW_INDEX, "HW_INDEX" },
#ifdef PERF_SAMPLE_BRANCH_PRIV_SAVE
	{ PERF_SAMPLE_BRANCH_PRIV_SAVE, "PRIV_SAVE" },
#else
	{ 1ULL << 18, "PRIV_SAVE" },
#endif
	{ 0, NULL },
};

static const struct bit_name read_bits[] = {
	{ PERF_FORMAT_TOTAL_TIME_ENABLED, "TOTAL_TIME_ENABLED" },
	{ PERF_FORMAT_TOTAL_TIME_RUNNING, "TOTAL_TIME_RUNNING" },
	{ PERF_FORMAT_ID, "ID" }, { PERF_FORMAT_GROUP, "GROUP" },
#ifdef PERF_FORMAT_LOST
	{ PERF_FORMAT_LOST, "LOST" },
#else
	{ 1ULL << 4, "LOST" },
#endif
	{ 0, NULL },
};

/*
 * Where the fields go: perf's -vv one per line, or evlist -v's one line
 * (perf's comma_fprintf(): ":" before the first field, "," before the others).
 */
struct sink {
	struct strbuf *sb;
	bool inline_;
	bool first;
};

static void line(struct sink *out, const char *name, const char *val)
{
	if (!out->inline_) {
		strbuf_addf(out->sb, "  %-32s %s\n", name, val);
		return;
	}
	strbuf_addf(out->sb, "%s %s: %s", out->first ? ":" : ",", name, val);
	out->first = false;
}

static void u(struct sink *out, const char *name, uint64_t v)
{
	char buf[32];

	if (!v)
		return;
	snprintf(buf, sizeof(buf), "%" PRIu64, v);
	line(out, name, buf);
}

static void x(struct sink *out, const char *name, uint64_t v)
{
	char buf[32];

	if (!v)
		return;
	snprintf(buf, sizeof(buf), "%#" PRIx64, v);
	line(out, name, buf);
}

static void bits(struct sink *out, const char *name, uint64_t v, const struct bit_name *tab)
{
	struct strbuf sb = STRBUF_INIT;
	size_t i;

	if (!v)
		return;
	for (i = 0; tab[i].name; i++)
		if (v & tab[i].bit)
			strbuf_addf(&sb, "%s%s", sb.len ? "|" : "", tab[i].name);
	line(out, name, strbuf_str(&sb));
	strbuf_release(&sb);
}

static void fields(const struct perf_event_attr *a, struct sink *out)
{
	char buf[32];

	u(out, "type", a->type);
	u(out, "size", a->size);
	x(out, "config", a->config);
	u(out, "{ sample_period, sample_freq }", a->sample_period);
	bits(out, "sample_type", a->sample_type, sample_bits);
	bits(out, "read_format", a->read_format, read_bits);

	u(out, "disabled", a->disabled);
	u(out, "inherit", a->inherit);
	u(out, "pinned", a->pinned);
	u(out, "exclusive", a->exclusive);
	u(out, "exclude_user", a->exclude_user);
	u(out, "exclude_kernel", a->exclude_kernel);
	u(out, "exclude_hv", a->exclude_hv);
	u(out, "exclude_idle", a->exclude_idle);
	u(out, "mmap", a->mmap);
	u(out, "comm", a->comm);
	u(out, "freq", a->freq);
	u(out, "inherit_stat", a->inherit_stat);
	u(out, "enable_on_exec", a->enable_on_exec);
	u(out, "task", a->task);
	u(out, "watermark", a->watermark);
	u(out, "precise_ip", a->precise_ip);
	u(out, "mmap_data", a->mmap_data);
	u(out, "sample_id_all", a->sample_id_all);
	u(out, "exclude_host", a->exclude_host);
	u(out, "exclude_guest", a->exclude_guest);
	u(out, "exclude_callchain_kernel", a->exclude_callchain_kernel);
	u(out, "exclude_callchain_user", a->exclude_callchain_user);
	u(out, "mmap2", a->mmap2);
	u(out, "comm_exec", a->comm_exec);
	u(out, "use_clockid", a->use_clockid);
	u(out, "context_switch", a->context_switch);
	u(out, "write_backward", a->write_backward);
	u(out, "namespaces", a->namespaces);
	u(out, "ksymbol", a->ksymbol);
	u(out, "bpf_event", a->bpf_event);
	u(out, "aux_output", a->aux_output);
	u(out, "cgroup", a->cgroup);
	u(out, "text_poke", a->text_poke);
	u(out, "build_id", a->build_id);
	u(out, "inherit_thread", a->inherit_thread);
	u(out, "remove_on_exec", a->remove_on_exec);
	u(out, "sigtrap", a->sigtrap);

	u(out, "{ wakeup_events, wakeup_watermark }", a->wakeup_events);
	u(out, "bp_type", a->bp_type);
	x(out, "{ bp_addr, config1 }", a->bp_addr);
	x(out, "{ bp_len, config2 }", a->bp_len);
	bits(out, "branch_sample_type", a->branch_sample_type, branch_bits);
	x(out, "sample_regs_user", a->sample_regs_user);
	u(out, "sample_stack_user", a->sample_stack_user);
	if (a->clockid) {
		snprintf(buf, sizeof(buf), "%" PRId64, (int64_t)a->clockid);
		line(out, "clockid", buf);
	}
	x(out, "sample_regs_intr", a->sample_regs_intr);
	u(out, "aux_watermark", a->aux_watermark);
	u(out, "sample_max_stack", a->sample_max_stack);
	u(out, "aux_sample_size", a->aux_sample_size);
	u(out, "sig_data", a->sig_data);
}

void pms_attr__format(const struct perf_event_attr *attr, struct strbuf *out)
{
	struct sink sink = { .sb = out };

	strbuf_adds(out, "perf_event_attr:\n");
	fields(attr, &sink);
}

void pms_attr__format_inline(const struct perf_event_attr *attr, struct strbuf *out)
{
	struct sink sink = { .sb = out, .inline_ = true, .first = true };

	fields(attr, &sink);
}
