// SPDX-License-Identifier: MIT
// Unit tests of perf_event/counter: tool bits, scaling, group-read decoding, aggregation, stats, metrics.
#include <criterion/criterion.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "perf_event/counter.h"

static void add_ev(struct pms_evlist *l, const char *name, uint32_t type, uint64_t config, int leader,
		   int nr_members)
{
	struct pms_evsel *e;

	l->entries = realloc(l->entries, (l->nr + 1) * sizeof(*l->entries));
	cr_assert_not_null(l->entries);
	e = &l->entries[l->nr];
	memset(e, 0, sizeof(*e));
	e->attr.type = type;
	e->attr.size = sizeof(e->attr);
	e->attr.config = config;
	e->attr.exclude_guest = 1;
	e->name = strdup(name);
	e->leader_idx = leader;
	e->nr_members = nr_members;
	e->scale = 1.0;
	l->nr++;
}

static void free_list(struct pms_evlist *l)
{
	for (size_t i = 0; i < l->nr; i++)
		free(l->entries[i].name);
	free(l->entries);
}

/* cpu-clock, {task-clock, page-faults} as perf stat opens them for a command */
Test(counter_attr, perf_stat_tool_bits_for_command)
{
	struct pms_evlist l = { 0 };
	struct pms_counter_opts o = { .enable_on_exec = true };
	struct pms_counters *cs;
	pid_t child = 1234;
	const uint64_t plain = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;

	add_ev(&l, "cpu-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK, 0, 1);
	add_ev(&l, "task-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, 1, 2);
	add_ev(&l, "page-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS, 1, 0);
	cs = pms_counters__new(&l, NULL, 0, &child, 1, &o);
	cr_assert_not_null(cs);
	cr_assert_eq(cs->nr, 3);
	cr_assert_eq(cs->nr_cpus, 1);
	cr_assert_eq(cs->cpus[0], -1);
	cr_assert_eq(cs->threads[0], 1234);

	cr_assert_eq(cs->c[0].attr.read_format, plain);
	cr_assert_eq(cs->c[0].attr.sample_type, PERF_SAMPLE_IDENTIFIER);
	cr_assert_eq(cs->c[0].attr.disabled, 1);
	cr_assert_eq(cs->c[0].attr.enable_on_exec, 1);
	cr_assert_eq(cs->c[0].attr.inherit, 1);
	cr_assert_eq(cs->c[0].attr.exclude_guest, 1, "parser bits are kept");

	cr_assert_eq(cs->c[1].attr.read_format, plain | PERF_FORMAT_ID | PERF_FORMAT_GROUP);
	cr_assert_eq(cs->c[1].attr.disabled, 1);
	cr_assert_eq(cs->c[1].attr.enable_on_exec, 1);
	cr_assert_eq(cs->c[1].nr_members, 2);

	cr_assert_eq(cs->c[2].attr.read_format, plain | PERF_FORMAT_ID | PERF_FORMAT_GROUP);
	cr_assert_eq(cs->c[2].attr.disabled, 0, "members follow their leader");
	cr_assert_eq(cs->c[2].attr.enable_on_exec, 0);
	cr_assert_eq(cs->c[2].leader, 1);
	cr_assert_eq(cs->c[2].fds[0], -1);

	cr_assert_str_eq(cs->c[0].unit, "msec");
	cr_assert_float_eq(cs->c[0].scale, 1e-6, 1e-12);
	cr_assert_str_eq(cs->c[2].unit, "");
	cr_assert_float_eq(cs->c[2].scale, 1.0, 1e-12);
	pms_counters__free(cs);
	free_list(&l);
}

Test(counter_attr, system_wide_and_no_inherit)
{
	struct pms_evlist l = { 0 };
	struct pms_counter_opts o = { .no_inherit = true };
	int cpus[] = { 0, 1, 3 };
	struct pms_counters *cs;

	add_ev(&l, "cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, 0, 1);
	cs = pms_counters__new(&l, cpus, 3, NULL, 0, &o);
	cr_assert_not_null(cs);
	cr_assert_eq(cs->nr_cpus, 3);
	cr_assert_eq(cs->nr_threads, 1);
	cr_assert_eq(cs->threads[0], -1);
	cr_assert_eq(cs->cpus[2], 3);
	cr_assert_eq(cs->c[0].attr.inherit, 0);
	cr_assert_eq(cs->c[0].attr.enable_on_exec, 0, "no workload exec to wait for");
	cr_assert_eq(cs->c[0].attr.disabled, 1);
	for (int s = 0; s < 3; s++)
		cr_assert_eq(cs->c[0].fds[s], -1);
	pms_counters__free(cs);
	free_list(&l);
}

Test(counter_attr, bad_arguments)
{
	cr_assert_null(pms_counters__new(NULL, NULL, 0, NULL, 0, NULL));
	pms_counters__free(NULL);
	cr_assert_eq(pms_counters__open(NULL, NULL, NULL), -EINVAL);
}

Test(counter_scale, not_multiplexed_is_exact)
{
	struct pms_count c = { 1000, 500, 500 };
	double v;

	cr_assert(pms_count__scaled(&c, false, &v));
	cr_assert_float_eq(v, 1000.0, 1e-9);
	cr_assert_float_eq(pms_count__running_pct(&c), 100.0, 1e-9);
}

Test(counter_scale, multiplexed_scales_up_and_rounds)
{
	struct pms_count c = { 1001, 300, 100 };
	double v;

	cr_assert(pms_count__scaled(&c, false, &v));
	cr_assert_float_eq(v, 3003.0, 1e-9);
	c = (struct pms_count){ 10, 3, 2 }; /* 15 exactly */
	cr_assert(pms_count__scaled(&c, false, &v));
	cr_assert_float_eq(v, 15.0, 1e-9);
	c = (struct pms_count){ 7, 3, 2 }; /* 10.5 -> 11 */
	cr_assert(pms_count__scaled(&c, false, &v));
	cr_assert_float_eq(v, 11.0, 1e-9);
	cr_assert_float_eq(pms_count__running_pct(&c), 100.0 * 2 / 3, 1e-9);
}

Test(counter_scale, no_scale_keeps_raw)
{
	struct pms_count c = { 1001, 300, 100 };
	double v;

	cr_assert(pms_count__scaled(&c, true, &v));
	cr_assert_float_eq(v, 1001.0, 1e-9);
}

Test(counter_scale, never_ran_is_unknown_not_zero)
{
	struct pms_count c = { 0, 12300000, 0 };
	struct pms_count z = { 0, 0, 0 };
	double v = 42;

	cr_assert_not(pms_count__scaled(&c, false, &v));
	cr_assert_not(pms_count__scaled(&c, true, &v));
	cr_assert(pms_counter__never_scheduled(&c));
	cr_assert_not(pms_counter__never_scheduled(&z), "not enabled at all is not 'never scheduled'");
	cr_assert_float_eq(pms_count__running_pct(&z), 100.0, 1e-9);
	cr_assert_float_eq(pms_count__running_pct(&c), 0.0, 1e-9);
}

Test(counter_scale, delta_and_add)
{
	struct pms_count a = { 100, 50, 40 }, b = { 30, 20, 40 }, d;
	struct pms_count acc = { 1, 2, 3 };

	d = pms_count__delta(&a, &b);
	cr_assert_eq(d.val, 70);
	cr_assert_eq(d.ena, 30);
	cr_assert_eq(d.run, 0);
	d = pms_count__delta(&b, &a);
	cr_assert_eq(d.val, 0, "clamped, never wraps");
	pms_count__add(&acc, &a);
	cr_assert_eq(acc.val, 101);
	cr_assert_eq(acc.ena, 52);
	cr_assert_eq(acc.run, 43);
}

Test(counter_group, decode_by_id)
{
	/* nr, ena, run, {value, id}... ; the member with id 9 did not open */
	uint64_t buf[] = { 3, 1000, 500, 11, 7, 22, 8, 33, 10 };
	uint64_t ids[] = { 8, 7, 9, 10 };
	struct pms_count out[4] = { { 0, 0, 0 }, { 0, 0, 0 }, { 99, 1, 1 }, { 0, 0, 0 } };

	cr_assert_eq(pms_group_read__decode(buf, 9, ids, 4, out), 0);
	cr_assert_eq(out[0].val, 22);
	cr_assert_eq(out[1].val, 11);
	cr_assert_eq(out[2].val, 99, "missing ids keep their count");
	cr_assert_eq(out[3].val, 33);
	cr_assert_eq(out[0].ena, 1000);
	cr_assert_eq(out[3].run, 500);
}

Test(counter_group, decode_rejects_short_buffers)
{
	uint64_t buf[] = { 5, 1000, 500, 11, 7 };
	uint64_t ids[] = { 7 };
	struct pms_count out[1] = { { 0, 0, 0 } };

	cr_assert_eq(pms_group_read__decode(buf, 5, ids, 1, out), -EINVAL);
	cr_assert_eq(pms_group_read__decode(buf, 2, ids, 1, out), -EINVAL);
	cr_assert_eq(pms_group_read__decode(NULL, 0, ids, 1, out), -EINVAL);
	cr_assert_eq(out[0].val, 0);
}

Test(counter_aggr, sum_over_cpus_and_threads)
{
	struct pms_evlist l = { 0 };
	int cpus[] = { 0, 1 };
	pid_t tids[] = { 10, 11, 12 };
	struct pms_counters *cs;
	struct pms_count s;

	add_ev(&l, "page-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS, 0, 1);
	cs = pms_counters__new(&l, cpus, 2, tids, 3, NULL);
	cr_assert_not_null(cs);
	for (int ci = 0; ci < 2; ci++)
		for (int ti = 0; ti < 3; ti++) {
			size_t slot = (size_t)ci * 3 + (size_t)ti;

			cs->c[0].counts[slot] = (struct pms_count){ (uint64_t)(100 * ci + ti), 10, 5 };
			cs->c[0].prev[slot] = (struct pms_count){ 1, 4, 2 };
		}
	s = pms_counter__sum(&cs->c[0], cs, -1, -1, false);
	cr_assert_eq(s.val, 0 + 1 + 2 + 100 + 101 + 102);
	cr_assert_eq(s.ena, 60);
	cr_assert_eq(s.run, 30);
	s = pms_counter__sum(&cs->c[0], cs, 1, -1, false);
	cr_assert_eq(s.val, 303);
	s = pms_counter__sum(&cs->c[0], cs, -1, 2, false);
	cr_assert_eq(s.val, 104);
	s = pms_counter__sum(&cs->c[0], cs, 0, 1, true);
	cr_assert_eq(s.val, 0, "delta 1 - 1");
	cr_assert_eq(s.ena, 6);
	cr_assert_eq(s.run, 3);
	pms_counters__free(cs);
	free_list(&l);
}

Test(counter_stats, mean_and_standard_error)
{
	struct pms_stats s = { 0, 0, 0 };

	pms_stats__update(&s, 1);
	cr_assert_float_eq(pms_stats__stddev_mean(&s), 0.0, 1e-12, "one run has no spread");
	pms_stats__update(&s, 2);
	pms_stats__update(&s, 3);
	cr_assert_float_eq(s.mean, 2.0, 1e-12);
	/* sample variance 1, standard error sqrt(1/3) */
	cr_assert_float_eq(pms_stats__stddev_mean(&s), sqrt(1.0 / 3.0), 1e-12);
	cr_assert_float_eq(pms_stats__rel_pct(&s), 100.0 * sqrt(1.0 / 3.0) / 2.0, 1e-9);
}

Test(counter_stats, zero_mean_has_no_percentage)
{
	struct pms_stats s = { 0, 0, 0 };

	pms_stats__update(&s, -1);
	pms_stats__update(&s, 1);
	cr_assert_float_eq(pms_stats__rel_pct(&s), 0.0, 1e-12);
}

static enum pms_metric_kind kind(uint32_t type, uint64_t config)
{
	struct perf_event_attr a;

	memset(&a, 0, sizeof(a));
	a.type = type;
	a.config = config;
	return pms_attr__metric_kind(&a);
}

Test(counter_metric, kinds)
{
	cr_assert_eq(kind(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK), PMS_MK_CLOCK);
	cr_assert_eq(kind(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK), PMS_MK_CLOCK);
	cr_assert_eq(kind(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS), PMS_MK_OTHER);
	cr_assert_eq(kind(PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES), PMS_MK_CYCLES);
	cr_assert_eq(kind(PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS | (8ULL << 32)), PMS_MK_INSTRUCTIONS,
		     "hybrid PMU type in the high bits");
	cr_assert_eq(kind(PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES), PMS_MK_BRANCH_MISSES);
	cr_assert_eq(kind(PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES), PMS_MK_CACHE_MISSES);
	cr_assert_eq(kind(PERF_TYPE_RAW, PERF_COUNT_HW_CPU_CYCLES), PMS_MK_OTHER);
}

Test(counter_metric, cpus_utilized_and_rates)
{
	struct pms_metric_ctx m;
	struct pms_metric r;

	memset(&m, 0, sizeof(m));
	m.elapsed_ns = 2e6;
	pms_metric_ctx__add(&m, PMS_MK_CLOCK, 0, 1e6);
	pms_metric_ctx__add(&m, PMS_MK_CLOCK, 0, 3e6); /* perf averages the clocks */

	pms_metric__compute(&m, PMS_MK_CLOCK, 0, 1e6, &r);
	cr_assert(r.valid);
	cr_assert_float_eq(r.value, 0.5, 1e-12);
	cr_assert_str_eq(r.unit, "CPUs utilized");
	cr_assert_str_eq(r.fmt, "%8.3f");

	pms_metric__compute(&m, PMS_MK_OTHER, 0, 100, &r); /* 100 / 2 ms = 50 K/sec */
	cr_assert(r.valid);
	cr_assert_float_eq(r.value, 50.0, 1e-9);
	cr_assert_str_eq(r.unit, "K/sec");
	pms_metric__compute(&m, PMS_MK_OTHER, 0, 1, &r);
	cr_assert_float_eq(r.value, 500.0, 1e-9);
	cr_assert_str_eq(r.unit, "/sec");
	pms_metric__compute(&m, PMS_MK_OTHER, 0, 0, &r);
	cr_assert_float_eq(r.value, 0.0, 1e-9);
	cr_assert_str_eq(r.unit, "/sec");
	pms_metric__compute(&m, PMS_MK_OTHER, 0, 4e6, &r);
	cr_assert_str_eq(r.unit, "G/sec");
	cr_assert_float_eq(r.value, 2.0, 1e-9);
	pms_metric__compute(&m, PMS_MK_OTHER, 0, 4e3, &r);
	cr_assert_str_eq(r.unit, "M/sec");
}

Test(counter_metric, hardware_ratios_need_their_inputs)
{
	struct pms_metric_ctx m;
	struct pms_metric r;

	memset(&m, 0, sizeof(m));
	m.elapsed_ns = 1e9;
	pms_metric__compute(&m, PMS_MK_INSTRUCTIONS, 0, 1000, &r);
	cr_assert_not(r.valid, "no cycles, no IPC");
	pms_metric__compute(&m, PMS_MK_CYCLES, 0, 1000, &r);
	cr_assert_not(r.valid, "no clock, no GHz");
	pms_metric__compute(&m, PMS_MK_OTHER, 0, 1000, &r);
	cr_assert_not(r.valid, "no clock, no rate");

	pms_metric_ctx__add(&m, PMS_MK_CLOCK, 0, 5e8);
	pms_metric_ctx__add(&m, PMS_MK_CYCLES, 0, 1e9);
	pms_metric_ctx__add(&m, PMS_MK_BRANCHES, 0, 2e8);
	pms_metric_ctx__add(&m, PMS_MK_CACHE_REFS, 0, 1e6);
	pms_metric__compute(&m, PMS_MK_INSTRUCTIONS, 0, 2.5e9, &r);
	cr_assert(r.valid);
	cr_assert_float_eq(r.value, 2.5, 1e-12);
	cr_assert_str_eq(r.unit, "insn per cycle");
	pms_metric__compute(&m, PMS_MK_CYCLES, 0, 1e9, &r);
	cr_assert_float_eq(r.value, 2.0, 1e-12);
	cr_assert_str_eq(r.unit, "GHz");
	pms_metric__compute(&m, PMS_MK_BRANCH_MISSES, 0, 2e6, &r);
	cr_assert_float_eq(r.value, 1.0, 1e-12);
	cr_assert_str_eq(r.unit, "of all branches");
	pms_metric__compute(&m, PMS_MK_CACHE_MISSES, 0, 2.5e5, &r);
	cr_assert_float_eq(r.value, 25.0, 1e-12);
	cr_assert_str_eq(r.unit, "of all cache refs");
	pms_metric__compute(&m, PMS_MK_BRANCHES, 0, 2e8, &r);
	cr_assert_str_eq(r.unit, "M/sec");
	cr_assert_float_eq(r.value, 400.0, 1e-9);
}

Test(counter_metric, perf_pairs_by_privilege_context_and_averages_duplicates)
{
	struct perf_event_attr user = { .exclude_kernel = 1, .exclude_hv = 1 };
	struct perf_event_attr all = { 0 };
	int u = pms_attr__metric_context(&user), a = pms_attr__metric_context(&all);
	struct pms_metric_ctx m;
	struct pms_metric r;

	cr_assert_neq(u, a);
	memset(&m, 0, sizeof(m));
	m.elapsed_ns = 1e9;
	/* cycles:u twice: perf's IPC divides by their mean, not their sum */
	pms_metric_ctx__add(&m, PMS_MK_CYCLES, u, 1000);
	pms_metric_ctx__add(&m, PMS_MK_CYCLES, u, 1000);
	pms_metric__compute(&m, PMS_MK_INSTRUCTIONS, u, 1000, &r);
	cr_assert(r.valid);
	cr_assert_float_eq(r.value, 1.0, 1e-12);
	/* instructions (kernel included) has no cycles of its context: no IPC */
	pms_metric__compute(&m, PMS_MK_INSTRUCTIONS, a, 1000, &r);
	cr_assert_not(r.valid);
	/* page-faults:u next to a plain task-clock: no rate, as perf */
	pms_metric_ctx__add(&m, PMS_MK_CLOCK, a, 1e6);
	pms_metric__compute(&m, PMS_MK_OTHER, u, 10, &r);
	cr_assert_not(r.valid);
	pms_metric__compute(&m, PMS_MK_OTHER, a, 10, &r);
	cr_assert(r.valid);
	cr_assert_float_eq(r.value, 10.0, 1e-9);
	cr_assert_str_eq(r.unit, "K/sec");
}

Test(counter_attr, pmu_cpus_restrict_cpu_wide_slots)
{
	struct pms_evlist l = { 0 };
	int cpus[] = { 0, 1, 2, 3 };
	struct pms_counters *cs;

	add_ev(&l, "uncore", 20, 0x1, 0, 1);
	add_ev(&l, "task-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, 1, 1);
	l.entries[0].pmu_cpus = strdup("0,2");
	cs = pms_counters__new(&l, cpus, 4, NULL, 0, NULL);
	cr_assert_not_null(cs);
	cr_assert_eq(cs->c[0].nr_pmu_cpus, 2);
	cr_assert_eq(cs->c[0].pmu_cpus[1], 2);
	cr_assert_null(cs->c[1].pmu_cpus);
	pms_counters__free(cs);
	free(l.entries[0].pmu_cpus);
	free_list(&l);
}

/* -M's table: every metric is num/den of one context, and a missing or zero input is named, never 0 */
Test(metric_defs, compute_and_missing_inputs)
{
	struct pms_metric_ctx m;
	enum pms_metric_kind missing = PMS_MK_OTHER;
	double v = -1;
	size_t nr;
	const struct pms_metric_def *defs = pms_metric_defs(&nr);

	cr_assert_geq(nr, 8);
	for (size_t i = 0; i < nr; i++) /* every name is found, case-insensitively */
		cr_assert_eq(pms_metric_def__find(defs[i].name), &defs[i]);
	cr_assert_not_null(pms_metric_def__find("ipc"));
	cr_assert_null(pms_metric_def__find("nope"));

	memset(&m, 0, sizeof(m));
	m.elapsed_ns = 2e6;
	pms_metric_ctx__add(&m, PMS_MK_CYCLES, 0, 2000);
	pms_metric_ctx__add(&m, PMS_MK_INSTRUCTIONS, 0, 1000);
	pms_metric_ctx__add(&m, PMS_MK_CLOCK, 0, 1e6);
	pms_metric_ctx__add(&m, PMS_MK_INSTRUCTIONS, 2, 5000); /* :u, another context */
	cr_assert_eq(pms_metric_def__compute(pms_metric_def__find("IPC"), &m, 0, &v, &missing), 0);
	cr_assert_float_eq(v, 0.5, 1e-9);
	cr_assert_eq(pms_metric_def__compute(pms_metric_def__find("CPI"), &m, 0, &v, &missing), 0);
	cr_assert_float_eq(v, 2.0, 1e-9);
	cr_assert_eq(pms_metric_def__compute(pms_metric_def__find("GHz"), &m, 0, &v, &missing), 0);
	cr_assert_float_eq(v, 0.002, 1e-12);
	cr_assert_eq(pms_metric_def__compute(pms_metric_def__find("CPUs_utilized"), &m, 0, &v, &missing), 0);
	cr_assert_float_eq(v, 0.5, 1e-9);
	/* instructions:u has no cycles:u: the missing input is named */
	cr_assert_eq(pms_metric_def__compute(pms_metric_def__find("IPC"), &m, 2, &v, &missing), -ENOENT);
	cr_assert_eq(missing, PMS_MK_CYCLES);
	cr_assert_str_eq(pms_metric_kind__name(missing), "cycles");
	/* branches counted 0: a zero denominator is reported, not a 0 % rate */
	pms_metric_ctx__add(&m, PMS_MK_BRANCHES, 0, 0);
	pms_metric_ctx__add(&m, PMS_MK_BRANCH_MISSES, 0, 0);
	cr_assert_eq(pms_metric_def__compute(pms_metric_def__find("branch_miss_rate"), &m, 0, &v, &missing), -ENOENT);
	cr_assert_eq(missing, PMS_MK_BRANCHES);
	/* stall shares: percent of cycles */
	pms_metric_ctx__add(&m, PMS_MK_STALLED_FRONTEND, 0, 500);
	cr_assert_eq(pms_metric_def__compute(pms_metric_def__find("frontend_stalls"), &m, 0, &v, &missing), 0);
	cr_assert_float_eq(v, 25.0, 1e-9);
	cr_assert_eq(pms_metric_def__compute(pms_metric_def__find("backend_stalls"), &m, 0, &v, &missing), -ENOENT);
	cr_assert_eq(missing, PMS_MK_STALLED_BACKEND);
}

Test(metric_defs, stall_kinds_and_shadow_metric)
{
	struct perf_event_attr a = { .type = PERF_TYPE_HARDWARE, .config = PERF_COUNT_HW_STALLED_CYCLES_FRONTEND };
	struct pms_metric_ctx m;
	struct pms_metric r;

	cr_assert_eq(pms_attr__metric_kind(&a), PMS_MK_STALLED_FRONTEND);
	a.config = PERF_COUNT_HW_STALLED_CYCLES_BACKEND;
	cr_assert_eq(pms_attr__metric_kind(&a), PMS_MK_STALLED_BACKEND);
	memset(&m, 0, sizeof(m));
	pms_metric_ctx__add(&m, PMS_MK_CYCLES, 0, 1000);
	pms_metric__compute(&m, PMS_MK_STALLED_BACKEND, 0, 300, &r);
	cr_assert(r.valid);
	cr_assert_float_eq(r.value, 30.0, 1e-9);
	cr_assert_str_eq(r.unit, "backend cycles idle"); /* perf's shadow metric */
}
