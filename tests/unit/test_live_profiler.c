// SPDX-License-Identifier: MIT
// Unit tests of lib/live/profiler without BPF: samples as the sampler hands them over, named from this process's own maps, merged into trees that are cut and counted.
#include <criterion/criterion.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "live/profiler.h"

__attribute__((noinline, used)) int profiler_outer(int x);
__attribute__((noinline, used)) int profiler_leaf(int x);
__attribute__((noinline, used)) int profiler_outer(int x)
{
	return x * 5 + 2;
}
__attribute__((noinline, used)) int profiler_leaf(int x)
{
	return x * 7 + 3;
}

static struct pf_key key_of(uint32_t tgid, const char *comm, uint32_t flags)
{
	struct pf_key k = { .tgid = tgid, .pid = tgid, .flags = flags };

	strncpy(k.comm, comm, sizeof(k.comm) - 1);
	return k;
}

/* The names along the heaviest path from the root, joined by ';'. */
static void heaviest_path(struct pms_stacks *st, char *buf, size_t size)
{
	size_t nn, nf, len = 0;
	const struct pms_stack_node *n = pms_stacks__nodes(st, &nn);
	const struct pms_stack_frame *f = pms_stacks__frames(st, &nf);

	buf[0] = 0;
	pms_stacks__sort(st, PMS_STACKS_BY_WEIGHT);
	for (uint32_t c = n[0].first_child; c; c = n[c].first_child)
		len += (size_t)snprintf(buf + len, size - len, "%s%s", len ? ";" : "", f[n[c].frame].name);
}

static struct pms_profiler *builder(enum pms_stacks_root root, bool kernel_only)
{
	struct pms_profiler_opts o = { .sz = sizeof(o), .root = root, .kernel_only = kernel_only, .period_ns = 1000 };
	struct pms_profiler *pr = pms_profiler__new(&o);

	cr_assert_not_null(pr);
	return pr;
}

Test(live_profiler, user_stacks_named_from_the_live_process)
{
	struct pms_profiler *pr = builder(PMS_STACKS_ROOT_COMM, false);
	struct pf_key k = key_of((uint32_t)getpid(), "unit", 0);
	/* leaf first, as bpf_get_stack() gives them: the leaf's own address, then a return address inside the caller */
	__u64 user[2] = { (uintptr_t)&profiler_leaf, (uintptr_t)&profiler_outer + 1 };
	struct pms_profile_sample s = { .key = &k, .count = 4, .user = user, .nr_user = 2 };
	const struct pms_stack_node *n;
	char path[256];
	size_t nn;

	cr_assert_eq(pms_profiler__announce(pr, k.tgid, 0), 0);
	cr_assert_eq(pms_profiler__add_sample(pr, &s), 0);
	s.streamed = true;
	s.count = 1;
	cr_assert_eq(pms_profiler__add_sample(pr, &s), 0);
	heaviest_path(pms_profiler__tree(pr), path, sizeof(path));
	cr_assert_str_eq(path, "unit;profiler_outer;profiler_leaf");
	n = pms_stacks__nodes(pms_profiler__tree(pr), &nn);
	cr_assert_eq(n[0].total_samples, 5);
	cr_assert_eq(n[0].total_period, 5000, "period_ns per sample");
	cr_assert_eq(pms_profiler__counts(pr)->samples, 5);
	cr_assert_eq(pms_profiler__counts(pr)->streamed, 1);
	cr_assert_eq(pms_profiler__syms_stats(pr)->snapshots, 1);
	cr_assert_eq(pms_profiler__syms_stats(pr)->late, 0, "announced before its first sample");
	pms_profiler__free(pr);
}

Test(live_profiler, lost_user_stacks_said_unless_only_kernel_stacks_were_asked)
{
	struct pf_key k = key_of(1, "lost", PF_F_USER_LOST);
	struct pms_profile_sample s = { .key = &k, .count = 2, .missing_kernel = true };
	struct pms_profiler *pr = builder(PMS_STACKS_ROOT_COMM, false);
	char path[256];

	cr_assert_eq(pms_profiler__add_sample(pr, &s), 0);
	heaviest_path(pms_profiler__tree(pr), path, sizeof(path));
	cr_assert_str_eq(path, "lost;[user stack lost]");
	cr_assert_eq(pms_profiler__counts(pr)->evicted, 2, "a key whose stack was cleared is counted");
	pms_profiler__free(pr);

	pr = builder(PMS_STACKS_ROOT_COMM, true);
	cr_assert_eq(pms_profiler__add_sample(pr, &s), 0);
	heaviest_path(pms_profiler__tree(pr), path, sizeof(path));
	cr_assert_str_eq(path, "lost", "-K: no user stack was wanted, none is missing");
	pms_profiler__free(pr);
}

Test(live_profiler, pid_roots_split_processes_of_one_name)
{
	struct pms_profiler *pr = builder(PMS_STACKS_ROOT_PID, true);
	struct pf_key a = key_of(100, "worker", 0), b = key_of(200, "worker", 0);
	struct pms_profile_sample sa = { .key = &a, .count = 3 }, sb = { .key = &b, .count = 1 };
	const struct pms_stack_node *n;
	const struct pms_stack_frame *f;
	size_t nn, nf, roots = 0;

	cr_assert_eq(pms_profiler__add_sample(pr, &sa), 0);
	cr_assert_eq(pms_profiler__add_sample(pr, &sb), 0);
	n = pms_stacks__nodes(pms_profiler__tree(pr), &nn);
	f = pms_stacks__frames(pms_profiler__tree(pr), &nf);
	for (uint32_t c = n[0].first_child; c; c = n[c].next_sibling, roots++) {
		cr_assert_eq(f[n[c].frame].kind, PMS_STACK_PROCESS);
		cr_assert_str_eq(f[n[c].frame].name, "worker");
		cr_assert_eq(n[c].total_samples, f[n[c].frame].pid == 100 ? 3 : 1);
	}
	cr_assert_eq(roots, 2);
	pms_profiler__free(pr);
}

Test(live_profiler, cut_hands_the_tree_over_and_starts_an_empty_one)
{
	struct pms_profiler *pr = builder(PMS_STACKS_ROOT_COMM, true);
	struct pf_key k = key_of(1, "cut", 0);
	struct pms_profile_sample s = { .key = &k, .count = 6 };
	struct pms_stacks *first, *second;
	size_t nn;

	cr_assert_eq(pms_profiler__add_sample(pr, &s), 0);
	cr_assert_eq(pms_profiler__cut(pr, &first), 0);
	cr_assert_neq(first, pms_profiler__tree(pr));
	cr_assert_eq(pms_stacks__nodes(first, &nn)[0].total_samples, 6);
	cr_assert_eq(pms_stacks__nodes(pms_profiler__tree(pr), &nn)[0].total_samples, 0);
	s.count = 1;
	cr_assert_eq(pms_profiler__add_sample(pr, &s), 0);
	cr_assert_eq(pms_profiler__cut(pr, &second), 0);
	cr_assert_eq(pms_stacks__nodes(second, &nn)[0].total_samples, 1);
	cr_assert_eq(pms_profiler__counts(pr)->cuts, 2);
	cr_assert_eq(pms_profiler__counts(pr)->samples, 7, "counts run on across cuts");
	pms_stacks__free(first);
	pms_stacks__free(second);
	pms_profiler__free(pr);
}

Test(live_profiler, without_a_sampler_and_with_bad_options)
{
	struct pms_profiler_opts bad = { .sz = 3 };
	struct pms_profiler_opts other = { .sz = sizeof(other), .root = (enum pms_stacks_root)42 };
	struct pms_profiler *pr = pms_profiler__new(NULL);

	cr_assert_not_null(pr);
	cr_assert_null(pms_profiler__sampler(pr));
	cr_assert_eq(pms_profiler__poll(pr, 0), -EINVAL);
	cr_assert_eq(pms_profiler__stop(pr), 0);
	cr_assert_not(pms_profiler__just_switched(pr));
	pms_profiler__free(pr);
	pms_profiler__free(NULL);
	errno = 0;
	cr_assert_null(pms_profiler__new(&bad));
	cr_assert_eq(errno, EINVAL);
	cr_assert_null(pms_profiler__new(&other), "no such root");
}
