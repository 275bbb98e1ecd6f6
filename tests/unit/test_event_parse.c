// SPDX-License-Identifier: MIT
// Event-string parser on the sysfs/tracefs fixtures: names, cache matrix, raw, pmu terms, modifiers, groups.
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "event/event.h"
#include "event/pmu.h"

static struct pms_event_ctx *ctx;
static struct pms_evlist list;
static struct pms_parse_error perr;

static void use(const char *fixture)
{
	char path[256];

	snprintf(path, sizeof(path), "tests/fixtures/sysfs/%s", fixture);
	setenv("PMS_SYSFS_ROOT", path, 1);
	setenv("PMS_TRACEFS_ROOT", "tests/fixtures/tracefs/default", 1);
	pms_event_ctx__free(ctx);
	ctx = pms_event_ctx__new();
	cr_assert_not_null(ctx);
}

static void teardown(void)
{
	pms_evlist__release(&list);
	pms_event_ctx__free(ctx);
	ctx = NULL;
}

static int parse(const char *s)
{
	return pms_evlist__parse(&list, ctx, s, &perr);
}

static const struct perf_event_attr *ok1(const char *s)
{
	size_t before = list.nr;
	int err = parse(s);

	cr_assert_eq(err, 0, "'%s' failed: %s (%s) at %zu", s, perr.msg, perr.hint, perr.pos);
	cr_assert_eq(list.nr, before + 1, "'%s' gave %zu events", s, list.nr - before);
	return &list.entries[before].attr;
}

static void fixture_vm(void) { use("vm"); }
static void fixture_intel(void) { use("intel"); }
static void fixture_amd(void) { use("amd"); }
static void fixture_arm64(void) { use("arm64"); }

TestSuite(event_parse, .init = fixture_vm, .fini = teardown);
TestSuite(event_parse_intel, .init = fixture_intel, .fini = teardown);
TestSuite(event_parse_amd, .init = fixture_amd, .fini = teardown);
TestSuite(event_parse_arm64, .init = fixture_arm64, .fini = teardown);
TestSuite(event_parse_err, .init = fixture_vm, .fini = teardown);

Test(event_parse, hardware_names_and_aliases)
{
	static const struct { const char *s; uint64_t config; } t[] = {
		{ "cycles", PERF_COUNT_HW_CPU_CYCLES }, { "cpu-cycles", PERF_COUNT_HW_CPU_CYCLES },
		{ "instructions", PERF_COUNT_HW_INSTRUCTIONS },
		{ "cache-references", PERF_COUNT_HW_CACHE_REFERENCES },
		{ "cache-misses", PERF_COUNT_HW_CACHE_MISSES },
		{ "branches", PERF_COUNT_HW_BRANCH_INSTRUCTIONS },
		{ "branch-instructions", PERF_COUNT_HW_BRANCH_INSTRUCTIONS },
		{ "branch-misses", PERF_COUNT_HW_BRANCH_MISSES }, { "bus-cycles", PERF_COUNT_HW_BUS_CYCLES },
		{ "stalled-cycles-frontend", PERF_COUNT_HW_STALLED_CYCLES_FRONTEND },
		{ "idle-cycles-frontend", PERF_COUNT_HW_STALLED_CYCLES_FRONTEND },
		{ "stalled-cycles-backend", PERF_COUNT_HW_STALLED_CYCLES_BACKEND },
		{ "ref-cycles", PERF_COUNT_HW_REF_CPU_CYCLES },
	};

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		const struct perf_event_attr *a = ok1(t[i].s);

		cr_expect_eq(a->type, PERF_TYPE_HARDWARE, "%s", t[i].s);
		cr_expect_eq(a->config, t[i].config, "%s", t[i].s);
		cr_expect_eq(a->size, sizeof(struct perf_event_attr));
		cr_expect_eq(a->exclude_guest, 1, "perf's default exclude_guest for %s", t[i].s);
		cr_expect_eq(a->exclude_user + a->exclude_kernel + a->exclude_hv, 0);
	}
	cr_expect_str_eq(list.entries[0].name, "cycles");
}

Test(event_parse, software_names_and_aliases)
{
	static const struct { const char *s; uint64_t config; } t[] = {
		{ "cpu-clock", PERF_COUNT_SW_CPU_CLOCK }, { "task-clock", PERF_COUNT_SW_TASK_CLOCK },
		{ "page-faults", PERF_COUNT_SW_PAGE_FAULTS }, { "faults", PERF_COUNT_SW_PAGE_FAULTS },
		{ "minor-faults", PERF_COUNT_SW_PAGE_FAULTS_MIN }, { "major-faults", PERF_COUNT_SW_PAGE_FAULTS_MAJ },
		{ "context-switches", PERF_COUNT_SW_CONTEXT_SWITCHES }, { "cs", PERF_COUNT_SW_CONTEXT_SWITCHES },
		{ "cpu-migrations", PERF_COUNT_SW_CPU_MIGRATIONS }, { "migrations", PERF_COUNT_SW_CPU_MIGRATIONS },
		{ "alignment-faults", PERF_COUNT_SW_ALIGNMENT_FAULTS },
		{ "emulation-faults", PERF_COUNT_SW_EMULATION_FAULTS }, { "dummy", PERF_COUNT_SW_DUMMY },
		{ "bpf-output", PERF_COUNT_SW_BPF_OUTPUT }, { "cgroup-switches", PERF_COUNT_SW_CGROUP_SWITCHES },
	};

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		const struct perf_event_attr *a = ok1(t[i].s);

		cr_expect_eq(a->type, PERF_TYPE_SOFTWARE, "%s", t[i].s);
		cr_expect_eq(a->config, t[i].config, "%s", t[i].s);
		cr_expect_str_eq(list.entries[list.nr - 1].pmu_name, "software");
	}
}

#define CACHE(t, o, r) ((uint64_t)PERF_COUNT_HW_CACHE_##t | (uint64_t)PERF_COUNT_HW_CACHE_OP_##o << 8 | \
			(uint64_t)PERF_COUNT_HW_CACHE_RESULT_##r << 16)

Test(event_parse, cache_matrix_spellings)
{
	static const struct { const char *s; uint64_t config; } t[] = {
		{ "L1-dcache-loads", CACHE(L1D, READ, ACCESS) },
		{ "L1-dcache-load-misses", CACHE(L1D, READ, MISS) },
		{ "L1-dcache-stores", CACHE(L1D, WRITE, ACCESS) },
		{ "L1-dcache-store-misses", CACHE(L1D, WRITE, MISS) },
		{ "L1-dcache-prefetches", CACHE(L1D, PREFETCH, ACCESS) },
		{ "L1-dcache-prefetch-misses", CACHE(L1D, PREFETCH, MISS) },
		{ "L1-icache-loads", CACHE(L1I, READ, ACCESS) },
		{ "L1-icache-load-misses", CACHE(L1I, READ, MISS) },
		{ "LLC-loads", CACHE(LL, READ, ACCESS) }, { "LLC-load-misses", CACHE(LL, READ, MISS) },
		{ "LLC-stores", CACHE(LL, WRITE, ACCESS) }, { "LLC-store-misses", CACHE(LL, WRITE, MISS) },
		{ "LLC-prefetches", CACHE(LL, PREFETCH, ACCESS) },
		{ "dTLB-loads", CACHE(DTLB, READ, ACCESS) }, { "dTLB-load-misses", CACHE(DTLB, READ, MISS) },
		{ "dTLB-stores", CACHE(DTLB, WRITE, ACCESS) }, { "dTLB-store-misses", CACHE(DTLB, WRITE, MISS) },
		{ "iTLB-loads", CACHE(ITLB, READ, ACCESS) }, { "iTLB-load-misses", CACHE(ITLB, READ, MISS) },
		{ "branch-loads", CACHE(BPU, READ, ACCESS) }, { "branch-load-misses", CACHE(BPU, READ, MISS) },
		{ "node-loads", CACHE(NODE, READ, ACCESS) }, { "node-load-misses", CACHE(NODE, READ, MISS) },
		{ "node-stores", CACHE(NODE, WRITE, ACCESS) }, { "node-prefetch-misses", CACHE(NODE, PREFETCH, MISS) },
		/* alternative spellings from perf's tables */
		{ "l1d-loads", CACHE(L1D, READ, ACCESS) }, { "L1-data-read-miss", CACHE(L1D, READ, MISS) },
		{ "l1-d-speculative-read", CACHE(L1D, PREFETCH, ACCESS) },
		{ "l1i-load-misses", CACHE(L1I, READ, MISS) }, { "L2-loads", CACHE(LL, READ, ACCESS) },
		{ "Data-TLB-write-misses", CACHE(DTLB, WRITE, MISS) },
		{ "Instruction-TLB-loads", CACHE(ITLB, READ, ACCESS) },
		{ "bpu-load-misses", CACHE(BPU, READ, MISS) }, { "btb-loads", CACHE(BPU, READ, ACCESS) },
		/* perf's fallbacks: no op means read, no result means access; result first also works */
		{ "LLC", CACHE(LL, READ, ACCESS) }, { "L1-dcache-misses", CACHE(L1D, READ, MISS) },
		{ "dTLB-misses-stores", CACHE(DTLB, WRITE, MISS) },
		{ "L1-dcache-load-refs", CACHE(L1D, READ, ACCESS) },
	};

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		const struct perf_event_attr *a = ok1(t[i].s);

		cr_expect_eq(a->type, PERF_TYPE_HW_CACHE, "%s", t[i].s);
		cr_expect_eq(a->config, t[i].config, "%s: %#llx", t[i].s, (unsigned long long)a->config);
		cr_expect_str_eq(list.entries[list.nr - 1].name, t[i].s);
	}
}

Test(event_parse, cache_invalid_op_rejected)
{
	cr_expect_eq(parse("iTLB-stores"), -EINVAL);
	cr_expect_eq(perr.pos, 0);
	cr_expect_eq(parse("branch-prefetches"), -EINVAL);
	cr_expect_eq(parse("L1-icache-stores"), -EINVAL);
	cr_expect_eq(list.nr, 0);
}

Test(event_parse, cache_events_with_modifiers)
{
	const struct perf_event_attr *a = ok1("L1-dcache-load-misses:u");

	cr_expect_eq(a->exclude_kernel, 1);
	cr_expect_str_eq(list.entries[0].name, "L1-dcache-load-misses", "perf names cache events without mods");
}

Test(event_parse, raw_events)
{
	const struct perf_event_attr *a = ok1("r1234");

	cr_expect_eq(a->type, PERF_TYPE_RAW);
	cr_expect_eq(a->config, 0x1234);
	a = ok1("rABCD:u");
	cr_expect_eq(a->config, 0xabcd);
	cr_expect_eq(a->exclude_kernel, 1);
	cr_expect_str_eq(list.entries[1].name, "rABCD:u");
	a = ok1("rffffffffffffffff");
	cr_expect_eq(a->config, ~0ULL);
	cr_expect_eq(parse("r1ffffffffffffffff"), -ERANGE);
	/* "r0x12" is not raw hex in perf; it is an unknown name */
	cr_expect_eq(parse("r0x12"), -ENOENT);
	a = ok1("r3c/name=raw,period=7/");
	cr_expect_eq(a->config, 0x3c);
	cr_expect_eq(a->sample_period, 7);
	cr_expect_str_eq(list.entries[list.nr - 1].name, "raw");
}

Test(event_parse, modifiers_first_of_ukh_excludes_others)
{
	const struct perf_event_attr *a;

	a = ok1("cpu-clock:u");
	cr_expect(a->exclude_kernel && a->exclude_hv && !a->exclude_user && a->exclude_guest);
	a = ok1("cpu-clock:k");
	cr_expect(a->exclude_user && a->exclude_hv && !a->exclude_kernel);
	cr_expect_eq(a->exclude_guest, 0, "perf: modifiers other than u/p reset exclude_guest");
	a = ok1("cpu-clock:h");
	cr_expect(a->exclude_user && a->exclude_kernel && !a->exclude_hv);
	a = ok1("cpu-clock:uk");
	cr_expect(!a->exclude_user && !a->exclude_kernel && a->exclude_hv && a->exclude_guest);
	a = ok1("cpu-clock:ukh");
	cr_expect(!a->exclude_user && !a->exclude_kernel && !a->exclude_hv);
}

Test(event_parse, modifiers_guest_host_precise_and_flags)
{
	const struct perf_event_attr *a;

	a = ok1("cpu-clock:G");
	cr_expect(a->exclude_host && !a->exclude_guest);
	a = ok1("cpu-clock:H");
	cr_expect(!a->exclude_host && a->exclude_guest);
	a = ok1("cpu-clock:uG");
	cr_expect(a->exclude_host && !a->exclude_guest && a->exclude_kernel);
	a = ok1("cpu-clock:p");
	cr_expect(a->precise_ip == 1 && a->exclude_guest);
	a = ok1("cpu-clock:pp");
	cr_expect_eq(a->precise_ip, 2);
	a = ok1("cpu-clock:ppp");
	cr_expect_eq(a->precise_ip, 3);
	a = ok1("cpu-clock:upp");
	cr_expect(a->precise_ip == 2 && a->exclude_kernel);
	a = ok1("cpu-clock:P");
	cr_expect(list.entries[list.nr - 1].precise_max && a->precise_ip == 0 && !a->exclude_guest);
	a = ok1("cpu-clock:S");
	cr_expect(list.entries[list.nr - 1].sample_read);
	a = ok1("cpu-clock:D");
	cr_expect_eq(a->pinned, 1);
	a = ok1("cpu-clock:I");
	cr_expect_eq(a->exclude_idle, 1);
	a = ok1("cpu-clock:e");
	cr_expect_eq(a->exclusive, 1);
	ok1("cpu-clock:W");
	cr_expect(list.entries[list.nr - 1].weak_group);
	a = ok1("cpu-clock:b");
	cr_expect_eq(a->exclude_guest, 0);
	a = ok1("cpu-clock:");
	cr_expect_eq(a->exclude_guest, 1, "an empty modifier list changes nothing");
}

Test(event_parse, modifier_errors)
{
	cr_expect_eq(parse("cpu-clock:uu"), -EINVAL);
	cr_expect_eq(perr.pos, 11);
	cr_expect_eq(parse("cpu-clock:pppp"), -EINVAL);
	cr_expect_eq(parse("cpu-clock:R"), -EINVAL);
	cr_expect_eq(perr.pos, 10);
	cr_expect(strstr(perr.msg, "'R'"));
	cr_expect_eq(parse("cpu-clock:u:k"), -EINVAL);
	cr_expect_eq(perr.pos, 11);
	cr_expect_eq(list.nr, 0);
}

Test(event_parse, comma_lists_and_repeated_calls_append)
{
	cr_assert_eq(parse("cpu-clock,task-clock"), 0);
	cr_assert_eq(parse("cs, faults"), 0);
	cr_assert_eq(list.nr, 4);
	cr_expect_eq(list.entries[3].attr.config, PERF_COUNT_SW_PAGE_FAULTS);
	for (int i = 0; i < 4; i++) {
		cr_expect_eq(list.entries[i].leader_idx, i);
		cr_expect_eq(list.entries[i].nr_members, 0);
	}
	/* a failing call leaves the list untouched */
	cr_expect_neq(parse("cpu-clock,bogus-event"), 0);
	cr_expect_eq(list.nr, 4);
}

Test(event_parse, groups_and_group_modifiers)
{
	cr_assert_eq(parse("cs,{cpu-clock:k,cs}:u"), 0);
	cr_assert_eq(list.nr, 3);
	cr_expect_eq(list.entries[1].leader_idx, 1);
	cr_expect_eq(list.entries[2].leader_idx, 1);
	cr_expect_eq(list.entries[1].nr_members, 2);
	cr_expect_eq(list.entries[2].nr_members, 0);
	/* perf: the group's u only re-includes user on top of the member's own k */
	cr_expect(!list.entries[1].attr.exclude_user && !list.entries[1].attr.exclude_kernel &&
		  list.entries[1].attr.exclude_hv && list.entries[1].attr.exclude_guest);
	cr_expect(!list.entries[2].attr.exclude_user && list.entries[2].attr.exclude_kernel);
	cr_expect_str_eq(list.entries[1].name, "cpu-clock:k");
	/* repeated -e with another group: leaders index the whole list */
	cr_assert_eq(parse("{task-clock,faults}:W"), 0);
	cr_expect_eq(list.entries[4].leader_idx, 3);
	cr_expect(list.entries[3].weak_group && list.entries[4].weak_group);
}

Test(event_parse, group_guest_host_and_pinned_semantics)
{
	cr_assert_eq(parse("{cpu-clock,cs:G}:H"), 0);
	cr_expect(list.entries[0].attr.exclude_guest && !list.entries[0].attr.exclude_host);
	cr_expect(!list.entries[1].attr.exclude_guest && !list.entries[1].attr.exclude_host);
	cr_assert_eq(parse("{cs,cpu-clock}:D"), 0);
	cr_expect_eq(list.entries[2].attr.pinned, 1, "group D pins the leader");
	cr_expect_eq(list.entries[3].attr.pinned, 0, "and only the leader");
	cr_assert_eq(parse("{cs,cpu-clock}:p"), 0);
	cr_expect(list.entries[4].attr.precise_ip == 1 && list.entries[5].attr.precise_ip == 1);
}

Test(event_parse, group_errors)
{
	cr_expect_eq(parse("{cpu-clock,cs"), -EINVAL);
	cr_expect_eq(perr.pos, 13);
	cr_expect_eq(parse("{cpu-clock,{cs}}"), -EINVAL);
	cr_expect_eq(perr.pos, 11);
	cr_expect_eq(parse("{}"), -EINVAL);
	cr_expect_eq(perr.pos, 1);
	cr_expect_eq(parse("cpu-clock,,cs"), -EINVAL);
	cr_expect_eq(perr.pos, 10);
	cr_expect_eq(parse("cpu-clock}"), -EINVAL);
	cr_expect_eq(parse("{cpu-clock,cs}:"), -EINVAL);
	cr_expect_eq(perr.pos, 15);
	cr_expect_eq(parse(""), -EINVAL);
	cr_expect_eq(list.nr, 0);
}

Test(event_parse, pmu_alias_forms_on_vm)
{
	const struct perf_event_attr *a = ok1("msr/tsc/");

	cr_expect_eq(a->type, 9);
	cr_expect_eq(a->config, 0);
	cr_expect_str_eq(list.entries[0].name, "msr/tsc/");
	cr_expect_str_eq(list.entries[0].pmu_name, "msr");
	a = ok1("tsc");
	cr_expect_eq(a->type, 9, "a bare alias resolves to the PMU that has it, as perf");
	cr_expect_str_eq(list.entries[1].name, "tsc");
	a = ok1("tsc:u");
	cr_expect_eq(a->exclude_kernel, 1);
	a = ok1("msr/tsc/u");
	cr_expect_eq(a->exclude_kernel, 1);
	a = ok1("msr/tsc,period=1000/");
	cr_expect_eq(a->sample_period, 1000);
	cr_expect(list.entries[list.nr - 1].period_set);
	a = ok1("msr/event=0x0,name=mytsc/");
	cr_expect_str_eq(list.entries[list.nr - 1].name, "mytsc");
	a = ok1("msr//");
	cr_expect_eq(a->config, 0);
	a = ok1("msr/tsc,freq=100/");
	cr_expect(a->freq == 1 && a->sample_freq == 100 && list.entries[list.nr - 1].freq_set);
}

Test(event_parse, pmu_terms_accumulate_like_perf)
{
	const struct perf_event_attr *a;

	a = ok1("msr/event=0x1,event=0x2/");
	cr_expect_eq(a->config, 0x3, "perf 6.1 ORs repeated format terms");
	a = ok1("msr/config=1,event=0x2/");
	cr_expect_eq(a->config, 0x3);
	a = ok1("msr/event=0x2,config=1/");
	cr_expect_eq(a->config, 0x3, "config= is applied before format terms");
	a = ok1("msr/config=1,config=4/");
	cr_expect_eq(a->config, 0x4);
	a = ok1("msr/event/");
	cr_expect_eq(a->config, 1, "a bare term means 1");
	a = ok1("msr/config1=1,config2=3/");
	cr_expect(a->config1 == 1 && a->config2 == 3);
	a = ok1("software/config=3/u");
	cr_expect(a->type == PERF_TYPE_SOFTWARE && a->config == 3 && a->exclude_kernel);
	a = ok1("uprobe/retprobe,ref_ctr_offset=0x10/");
	cr_expect_eq(a->config, 1 | (0x10ULL << 32));
	a = ok1("msr/ event=7 , name=spaced /");
	cr_expect_eq(a->config, 7);
}

Test(event_parse, legacy_names_take_terms)
{
	const struct perf_event_attr *a;

	a = ok1("cpu-clock/period=1000/");
	cr_expect(a->type == PERF_TYPE_SOFTWARE && a->sample_period == 1000);
	cr_expect_str_eq(list.entries[0].name, "cpu-clock/period=1000/");
	a = ok1("task-clock/config=3/");
	cr_expect_eq(a->config, 3);
	a = ok1("cpu-clock/name=foo,period=5/u");
	cr_expect_str_eq(list.entries[2].name, "foo");
	cr_expect_eq(a->exclude_kernel, 1);
	a = ok1("L1-dcache-loads/name=l1/");
	cr_expect_eq(a->type, PERF_TYPE_HW_CACHE);
	cr_expect_str_eq(list.entries[3].name, "l1");
	cr_expect_eq(parse("cpu-clock/event=1/"), -EINVAL);
	cr_expect_eq(perr.pos, 10);
}

Test(event_parse, pmu_term_errors)
{
	cr_expect_eq(parse("msr/tsx/"), -EINVAL);
	cr_expect_eq(perr.pos, 4);
	cr_expect(strstr(perr.msg, "unknown term 'tsx' for pmu 'msr'"));
	cr_expect(strstr(perr.hint, "did you mean 'tsc'?"));
	cr_expect(strstr(perr.hint, "valid terms: event,config,config1,config2,name,period"));
	cr_expect_eq(parse("uprobe/retprobe=2/"), -ERANGE);
	cr_expect_eq(perr.pos, 7);
	cr_expect_eq(parse("uprobe/ref_ctr_offset=0x100000000/"), -ERANGE);
	cr_expect_eq(parse("msr/event=0x10000000000000000/"), -ERANGE);
	cr_expect_eq(parse("msr/event=12a/"), -EINVAL);
	cr_expect_eq(parse("msr/event=0x/"), -EINVAL);
	cr_expect_eq(parse("msr/event=1"), -EINVAL);
	cr_expect_eq(parse("msr/tsc,tsc/"), -EINVAL);
	cr_expect_eq(perr.pos, 8);
	cr_expect_eq(parse("msr/tsc/:u"), -EINVAL);
	cr_expect_eq(perr.pos, 8);
	cr_expect(strstr(perr.hint, "msr/tsc/u"));
	cr_expect_eq(parse("software/cpu-clock/"), -EINVAL);
	cr_expect_eq(parse("msr/name/"), -EINVAL);
	cr_expect_eq(parse("cpu-clock/call-graph=dwarf/"), -EOPNOTSUPP);
	cr_expect_eq(perr.pos, 10);
	cr_expect(strstr(perr.msg, "perf's term 'call-graph' is not supported"));
	cr_expect_eq(parse("msr/tsc,no-inherit/"), -EOPNOTSUPP);
	cr_expect_eq(parse("msr/max-stack=3/"), -EOPNOTSUPP);
	cr_expect_eq(list.nr, 0);
}

Test(event_parse, unknown_pmu_lists_pmus)
{
	cr_expect_eq(parse("foo/bar/"), -ENOENT);
	cr_expect_eq(perr.pos, 0);
	cr_expect(strstr(perr.msg, "unknown PMU 'foo'"));
	cr_expect(strstr(perr.hint, "PMUs on this machine: breakpoint, msr, software, tracepoint, uprobe"),
		  "hint: %s", perr.hint);
	cr_expect_eq(parse("cpu-clock,mrs/tsc/"), -ENOENT);
	cr_expect_eq(perr.pos, 10);
	cr_expect(strstr(perr.hint, "did you mean 'msr'?"), "hint: %s", perr.hint);
}

Test(event_parse, unknown_event_suggests)
{
	cr_expect_eq(parse("cache-mises"), -ENOENT);
	cr_expect_eq(perr.pos, 0);
	cr_expect_str_eq(perr.hint, "did you mean 'cache-misses'?");
	cr_expect_eq(parse("cs,instructons:u"), -ENOENT);
	cr_expect_eq(perr.pos, 3);
	cr_expect_str_eq(perr.hint, "did you mean 'instructions'?");
	cr_expect_eq(parse("L1-dcache-load-mises"), -ENOENT);
	cr_expect_str_eq(perr.hint, "did you mean 'L1-dcache-load-misses'?");
	cr_expect_eq(parse("tssc"), -ENOENT);
	cr_expect_str_eq(perr.hint, "did you mean 'tsc'?");
	cr_expect_eq(parse("zzzzzzzzzzzzzz"), -ENOENT);
	cr_expect_eq(strstr(perr.hint, "did you mean"), NULL);
}

Test(event_parse, tracepoints)
{
	const struct perf_event_attr *a = ok1("sched:sched_switch");

	cr_expect_eq(a->type, PERF_TYPE_TRACEPOINT);
	cr_expect_eq(a->config, 372);
	cr_expect(list.entries[0].is_tracepoint);
	cr_expect_str_eq(list.entries[0].name, "sched:sched_switch");
	cr_expect_str_eq(list.entries[0].pmu_name, "tracepoint");
	a = ok1("sched:sched_switch:u");
	cr_expect_eq(a->exclude_kernel, 1);
	cr_expect_str_eq(list.entries[1].name, "sched:sched_switch");
	a = ok1("raw_syscalls:sys_enter");
	cr_expect_eq(a->config, 443);
	cr_assert_eq(parse("sched:sched_process_*"), 0);
	cr_expect_eq(list.nr, 6, "three sched_process_* tracepoints");
	cr_expect_str_eq(list.entries[3].name, "sched:sched_process_exec");
	cr_expect_str_eq(list.entries[4].name, "sched:sched_process_fork", "glob matches in id order, as perf");
	cr_expect_str_eq(list.entries[5].name, "sched:sched_process_exit");
	for (int i = 0; i < 6; i++)
		cr_expect_eq(list.entries[i].leader_idx, i);
	cr_assert_eq(parse("{sched:sched_switch,sched:sched_wakeup}:k"), 0);
	cr_expect_eq(list.entries[7].leader_idx, 6);
	cr_expect_eq(list.entries[7].attr.config, 374);
}

Test(event_parse, tracepoint_errors)
{
	cr_expect_eq(parse("sched:sched_swich"), -ENOENT);
	cr_expect_eq(perr.pos, 0);
	cr_expect_str_eq(perr.hint, "did you mean 'sched:sched_switch'?");
	cr_expect_eq(parse("nope:sched_switch"), -ENOENT);
	cr_expect_eq(parse("sched:nomatch_*"), -ENOENT);
	cr_expect_eq(parse("../..:id"), -ENOENT);
	setenv("PMS_TRACEFS_ROOT", "", 1);
	/* with no override and nothing mounted the hint says how to mount; with a mount, it parses */
	if (access("/sys/kernel/tracing/events", F_OK) && access("/sys/kernel/debug/tracing/events", F_OK)) {
		cr_expect_eq(parse("sched:sched_switch"), -ENOENT);
		cr_expect(strstr(perr.hint, "mount -t tracefs nodev /sys/kernel/tracing"));
	}
}

Test(event_parse_intel, cpu_pmu_formats_and_aliases)
{
	const struct perf_event_attr *a;
	struct pms_evsel *e;

	a = ok1("cpu/event=0x3c,umask=0x1,edge,inv,cmask=2,any,pc/");
	cr_expect_eq(a->type, 4);
	cr_expect_eq(a->config, 0x3c | 0x1 << 8 | 1 << 18 | 1 << 23 | 2ULL << 24 | 1 << 21 | 1 << 19);
	a = ok1("cpu/event=0xcd,umask=0x1,ldlat=3/pp");
	cr_expect(a->config1 == 3 && a->precise_ip == 2);
	a = ok1("cpu/mem-loads/");
	cr_expect(a->config == (0xcd | 0x1 << 8) && a->config1 == 3);
	a = ok1("cpu/mem-loads,ldlat=0x10/");
	cr_expect_eq(a->config1, 0x13, "alias terms first, then the user's, ORed as perf does");
	a = ok1("cpu/offcore_rsp=0x10003c0091,event=0xb7,umask=1/");
	cr_expect_eq(a->config1, 0x10003c0091ULL);
	a = ok1("cpu/frontend=0x400406/");
	cr_expect_eq(a->config1, 0x400406);
	cr_expect_eq(parse("cpu/frontend=0x1000000/"), -ERANGE);
	a = ok1("cpu/cpu-cycles/");
	cr_expect_eq(a->config, 0x3c);
	a = ok1("cpu/instructions,period=100003/u");
	cr_expect(a->config == 0xc0 && a->sample_period == 100003 && a->exclude_kernel);
	a = ok1("cpu/CACHE-MISSES/");
	cr_expect_eq(a->config, 0x2e | 0x41 << 8, "aliases match case-insensitively, as perf");
	a = ok1("cpu/topdown-recovery-bubbles/");
	e = &list.entries[list.nr - 1];
	cr_expect_eq(a->config, 0x0d | 0x03 << 8 | 1ULL << 24);
	cr_expect_float_eq(e->scale, 2.0, 1e-9);
	cr_expect_str_eq(e->pmu_name, "cpu");
	a = ok1("cycles-ct");
	cr_expect_eq(a->config, 0x3c | 1ULL << 32 | 1ULL << 33);
	a = ok1("cycles");
	cr_expect_eq(a->type, PERF_TYPE_HARDWARE, "legacy names win over sysfs aliases");
	cr_expect_str_eq(list.entries[list.nr - 1].pmu_name, "cpu");
	a = ok1("mem-loads:pp");
	cr_expect(a->type == 4 && a->precise_ip == 2);
}

Test(event_parse_intel, uncore_scale_unit_and_cpus)
{
	const struct perf_event_attr *a = ok1("uncore_imc_0/cas_count_read/");
	struct pms_evsel *e = &list.entries[0];

	cr_expect_eq(a->type, 15);
	cr_expect_eq(a->config, 0x04 | 0x03 << 8);
	cr_expect_float_eq(e->scale, 6.103515625e-5, 1e-15);
	cr_expect_str_eq(e->unit, "MiB");
	cr_expect_str_eq(e->pmu_cpus, "0");
	a = ok1("power/energy-pkg/");
	cr_expect_str_eq(list.entries[1].unit, "Joules");
	/* a bare alias that several PMUs have opens on each of them */
	cr_assert_eq(parse("clockticks"), 0);
	cr_assert_eq(list.nr, 4);
	cr_expect_str_eq(list.entries[2].pmu_name, "uncore_cbox_0");
	cr_expect_str_eq(list.entries[3].pmu_name, "uncore_imc_0");
	cr_expect_eq(list.entries[2].attr.config, 0x100);
	cr_expect_eq(list.entries[3].attr.config, 0);
	cr_expect_eq(parse("uncore_cbox_0/cmask=32/"), -ERANGE);
	a = ok1("msr/tsc/");
	cr_expect_eq(a->type, 12);
	a = ok1("uncore_imc_0/event=0x4,thresh=0xff/");
	cr_expect_eq(a->config, 0x4 | 0xffULL << 24);
}

Test(event_parse_intel, unknown_term_hint_lists_formats)
{
	cr_expect_eq(parse("cpu/evnt=0x3c/"), -EINVAL);
	cr_expect_eq(perr.pos, 4);
	cr_expect(strstr(perr.hint, "did you mean 'event'?"), "%s", perr.hint);
	cr_expect(strstr(perr.hint, "valid terms: any,cmask,edge,event,frontend,in_tx,in_tx_cp,inv,ldlat,"
			 "offcore_rsp,pc,umask,config,config1,config2"), "%s", perr.hint);
}

Test(event_parse_amd, multi_range_event_format)
{
	const struct perf_event_attr *a = ok1("cpu/event=0x1c0,umask=0x2/");

	cr_expect_eq(a->config, 0xc0 | 0x2 << 8 | 0x1ULL << 32);
	a = ok1("cpu/event=0xfff/");
	cr_expect_eq(a->config, 0xff | 0xfULL << 32);
	cr_expect_eq(parse("cpu/event=0x1000/"), -ERANGE);
	a = ok1("amd_df/event=0x7ff,umask=0x38/");
	cr_expect_eq(a->config, 0xff | 0x7ULL << 32 | 0x38 << 8);
	a = ok1("amd_df/event=0x3fff/");
	cr_expect_eq(a->config, 0xff | 0xfULL << 32 | 0x3ULL << 59);
	cr_expect_str_eq(list.entries[list.nr - 1].pmu_cpus, "0,64");
	a = ok1("amd_l3/event=0x4,umask=0xff,slicemask=0xf,threadmask=0xff/");
	cr_expect_eq(a->config, 0x4 | 0xff << 8 | 0xfULL << 48 | 0xffULL << 56);
	a = ok1("ibs_op/cnt_ctl/");
	cr_expect_eq(a->type, 9);
	cr_expect_eq(a->config, 1 << 19);
	a = ok1("r5300c0");
	cr_expect_eq(a->config, 0x5300c0);
}

Test(event_parse_arm64, pmuv3_events)
{
	const struct perf_event_attr *a = ok1("armv8_pmuv3_0/cpu_cycles/");

	cr_expect_eq(a->type, 8);
	cr_expect_eq(a->config, 0x11);
	cr_expect_str_eq(list.entries[0].pmu_cpus, "0-3");
	a = ok1("inst_retired:u");
	cr_expect(a->type == 8 && a->config == 8 && a->exclude_kernel);
	a = ok1("armv8_pmuv3_0/event=0x11,long/");
	cr_expect(a->config == 0x11 && a->config1 == 1);
	a = ok1("arm_spe_0/ts_enable=1,load_filter=1,min_latency=20/");
	cr_expect(a->config == (1 | 1ULL << 33) && a->config2 == 20);
	a = ok1("cycles");
	cr_expect_str_eq(list.entries[list.nr - 1].pmu_name, "armv8_pmuv3_0");
	cr_expect_eq(parse("armv8_pmuv3_0/event=0x10000/"), -ERANGE);
}

Test(event_parse_err, format_layout)
{
	struct strbuf sb = STRBUF_INIT;

	cr_assert_eq(parse("cycles,cache-mises"), -ENOENT);
	pms_parse_error__format(&perr, "cycles,cache-mises", &sb);
	cr_expect_str_eq(strbuf_str(&sb),
			 "event syntax error: 'cycles,cache-mises'\n"
			 "                            ^___ unknown event 'cache-mises'\n"
			 "did you mean 'cache-misses'?\n");
	strbuf_release(&sb);
	cr_assert_eq(parse("cpu-clock:uX"), -EINVAL);
	pms_parse_error__format(&perr, "cpu-clock:uX", &sb);
	cr_expect_str_eq(strbuf_str(&sb),
			 "event syntax error: 'cpu-clock:uX'\n"
			 "                                ^___ unknown modifier 'X'\n"
			 "modifiers are u k h G H I p pp ppp P S D e W b\n");
	strbuf_release(&sb);
}

Test(event_parse_err, ctx_without_sysfs)
{
	setenv("PMS_SYSFS_ROOT", "/nonexistent", 1);
	pms_event_ctx__free(ctx);
	ctx = pms_event_ctx__new();
	cr_assert_not_null(ctx);
	ok1("cycles:u");
	ok1("cpu-clock");
	cr_expect_eq(parse("msr/tsc/"), -ENOENT);
	cr_expect(strstr(perr.hint, "none"));
	/* a NULL context still parses legacy names */
	cr_expect_eq(pms_evlist__parse(&list, NULL, "instructions", &perr), 0);
	cr_expect_eq(pms_evlist__parse(&list, NULL, "tsc", &perr), -ENOENT);
	cr_expect_eq(pms_evlist__parse(&list, ctx, "cs", NULL), 0);
	cr_expect_eq(pms_evlist__parse(&list, ctx, "bogus", NULL), -ENOENT);
}

Test(event_parse, breakpoints)
{
	const struct perf_event_attr *a = ok1("mem:0x1000");

	cr_expect_eq(a->type, PERF_TYPE_BREAKPOINT);
	cr_expect(a->bp_addr == 0x1000 && a->bp_type == 3 && a->bp_len == 4 && a->sample_period == 1);
	cr_expect_str_eq(list.entries[0].pmu_name, "breakpoint");
	a = ok1("mem:0x1000/8");
	cr_expect_eq(a->bp_len, 8);
	cr_expect_str_eq(list.entries[1].name, "mem:0x1000", "perf drops the length from the name");
	a = ok1("mem:0x1000:x");
	cr_expect(a->bp_type == 4 && a->bp_len == sizeof(long));
	a = ok1("mem:4096:rw:u");
	cr_expect(a->bp_addr == 4096 && a->bp_type == 3 && a->exclude_kernel);
	cr_expect_str_eq(list.entries[3].name, "mem:4096:rw:u");
	a = ok1("mem:0x10/2:w");
	cr_expect(a->bp_type == 2 && a->bp_len == 2);
	cr_expect_eq(parse("mem:0x10/3"), -EINVAL);
	cr_expect_eq(perr.pos, 9);
	cr_expect_eq(parse("mem:0x10:rr"), -EINVAL);
	cr_expect_eq(parse("mem:0x10:rx"), -EINVAL);
	cr_expect_eq(parse("mem:zz"), -ENOENT, "not a breakpoint: an unknown tracepoint-like name");
}

Test(event_parse, tracepoint_sampling_defaults)
{
	const struct perf_event_attr *a = ok1("sched:sched_wakeup");

	cr_expect_eq(a->sample_type, PERF_SAMPLE_RAW | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD);
	cr_expect_eq(a->sample_period, 1);
	a = ok1("cpu-clock");
	cr_expect(a->sample_type == 0 && a->sample_period == 0);
}

Test(event_parse, tool_events)
{
	const struct perf_event_attr *a = ok1("duration_time");

	cr_expect(a->type == PERF_TYPE_SOFTWARE && a->config == PERF_COUNT_SW_DUMMY);
	cr_expect_eq(list.entries[0].tool_event, PMS_TOOL_DURATION_TIME);
	ok1("user_time");
	cr_expect_eq(list.entries[1].tool_event, PMS_TOOL_USER_TIME);
	ok1("system_time");
	cr_expect_eq(list.entries[2].tool_event, PMS_TOOL_SYSTEM_TIME);
	ok1("cpu-clock");
	cr_expect_eq(list.entries[3].tool_event, PMS_TOOL_NONE);
	cr_expect_eq(parse("duration_tim"), -ENOENT);
	cr_expect_str_eq(perr.hint, "did you mean 'duration_time'?");
}

Test(event_parse_err, unreadable_pmu_is_not_unknown)
{
	char dir[] = "/tmp/pms-ev-XXXXXX", cmd[512], path[256];
	FILE *f;

	cr_assert_not_null(mkdtemp(dir));
	/* msr/type is a directory; bad/type holds garbage */
	snprintf(cmd, sizeof(cmd), "mkdir -p %s/bus/event_source/devices/msr/type %s/bus/event_source/devices/bad",
		 dir, dir);
	cr_assert_eq(system(cmd), 0);
	snprintf(path, sizeof(path), "%s/bus/event_source/devices/bad/type", dir);
	f = fopen(path, "w");
	cr_assert_not_null(f);
	fputs("garbage\n", f);
	fclose(f);
	setenv("PMS_SYSFS_ROOT", dir, 1);
	pms_event_ctx__free(ctx);
	ctx = pms_event_ctx__new();
	cr_expect_eq(parse("msr/tsc/"), -EISDIR);
	cr_expect(strstr(perr.msg, "PMU 'msr': cannot read its sysfs type file"), "%s", perr.msg);
	cr_expect(strstr(perr.hint, "/msr/type"));
	cr_expect_eq(parse("bad/event=1/"), -EINVAL);
	cr_expect(strstr(perr.msg, "malformed"), "%s", perr.msg);
	cr_expect_eq(parse("nosuch/event=1/"), -ENOENT);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	cr_expect_eq(system(cmd), 0);
}

Test(event_parse, names_keep_blanks_like_perf)
{
	cr_assert_eq(parse("cpu-clock, cs"), 0);
	cr_expect_str_eq(list.entries[0].name, "cpu-clock");
	cr_expect_str_eq(list.entries[1].name, " cs");
	cr_assert_eq(parse("{ task-clock,faults }:u"), 0);
	cr_expect_str_eq(list.entries[2].name, " task-clock");
	cr_expect_str_eq(list.entries[3].name, "faults ");
	cr_expect_eq(list.entries[3].attr.exclude_kernel, 1);
}

static void fixture_hybrid(void) { use("hybrid"); }
TestSuite(event_parse_hybrid, .init = fixture_hybrid, .fini = teardown);

Test(event_parse_hybrid, legacy_events_open_per_core_type)
{
	cr_assert_eq(parse("cycles:u"), 0);
	cr_assert_eq(list.nr, 2);
	cr_expect_eq(list.entries[0].attr.type, PERF_TYPE_HARDWARE);
	cr_expect_eq(list.entries[0].attr.config, 4ULL << 32, "cpu_core's type in config[63:32]");
	cr_expect_eq(list.entries[1].attr.config, 10ULL << 32);
	cr_expect(list.entries[0].attr.exclude_kernel && list.entries[1].attr.exclude_kernel);
	cr_expect_str_eq(list.entries[0].name, "cpu_core/cycles:u/");
	cr_expect_str_eq(list.entries[1].name, "cpu_atom/cycles:u/");
	cr_expect_str_eq(list.entries[1].pmu_cpus, "8-15");
	cr_expect_eq(list.entries[1].leader_idx, 1);
	cr_assert_eq(parse("LLC-load-misses"), 0);
	cr_expect_eq(list.entries[3].attr.config, 10ULL << 32 | 0x10002);
	cr_assert_eq(parse("r1234"), 0);
	cr_expect(list.entries[4].attr.type == 4 && list.entries[5].attr.type == 10);
	cr_expect_eq(list.entries[5].attr.config, 0x1234);
	/* software events are not per core type */
	cr_assert_eq(parse("cpu-clock"), 0);
	cr_expect_eq(list.nr, 7);
}

Test(event_parse_hybrid, one_core_type_by_pmu_name)
{
	const struct perf_event_attr *a = ok1("cpu_core/cycles/");

	cr_expect(a->type == PERF_TYPE_HARDWARE && a->config == 4ULL << 32);
	a = ok1("cpu_atom/L1-dcache-loads/k");
	cr_expect(a->type == PERF_TYPE_HW_CACHE && a->config == 10ULL << 32 && a->exclude_user);
	a = ok1("cpu_atom/event=0xc0/");
	cr_expect(a->type == 10 && a->config == 0xc0);
	a = ok1("cpu_core/topdown-retiring/");
	cr_expect(a->type == 4 && a->config == 0x8000);
	cr_assert_eq(parse("topdown-retiring"), 0, "a bare alias both PMUs have opens on both");
	cr_expect_eq(list.nr, 6);
	cr_expect_eq(list.entries[4].attr.config, 0xc2);
	cr_expect_eq(parse("cpu_core/cycles=2/"), -EINVAL);
	cr_expect_eq(parse("cpu_core/cyclez/"), -EINVAL);
}

Test(event_parse_hybrid, uncore_instances_by_prefix)
{
	cr_assert_eq(parse("imc_free_running/data_read/"), 0, "%s", perr.msg);
	cr_assert_eq(list.nr, 2);
	cr_expect_str_eq(list.entries[0].pmu_name, "uncore_imc_free_running_0");
	cr_expect_str_eq(list.entries[1].pmu_name, "uncore_imc_free_running_1");
	cr_expect(list.entries[0].attr.type == 12 && list.entries[1].attr.type == 13);
	cr_expect_eq(list.entries[1].attr.config, 0x20ff);
	cr_expect_str_eq(list.entries[1].unit, "MiB");
	cr_expect_str_eq(list.entries[1].name, "imc_free_running/data_read/");
	cr_assert_eq(parse("uncore_cbox/clockticks/u"), 0);
	cr_expect_eq(list.nr, 4);
	cr_expect_eq(list.entries[3].attr.exclude_kernel, 1);
	cr_assert_eq(parse("cbox_1/event=1/"), 0);
	cr_expect_eq(list.nr, 5);
	cr_expect_str_eq(list.entries[4].pmu_name, "uncore_cbox_1");
	cr_assert_eq(parse("uncore_cbox_*/umask=2/"), 0);
	cr_expect_eq(list.nr, 7);
	/* the suffix after the prefix must be [_]digits, as perf_pmu__valid_suffix() wants */
	cr_expect_eq(parse("imc/data_read/"), -ENOENT);
	cr_expect_eq(parse("cbox/cmask=0x30/"), -ERANGE);
	cr_expect_eq(parse("cbox/bogus/"), -EINVAL);
	cr_expect(strstr(perr.msg, "unknown term 'bogus' for pmu 'uncore_cbox_0'"));
	cr_expect_eq(list.nr, 7);
}
