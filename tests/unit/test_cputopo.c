// SPDX-License-Identifier: MIT
// Unit tests of the CPU topology reader and perf stat's aggregation units on a fixture sysfs.
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/cputopo.h"

#ifndef FIXTURES
#define FIXTURES "tests/fixtures"
#endif

static void use_topo(void)
{
	setenv("PMS_SYSFS_ROOT", FIXTURES "/sysfs/topo", 1);
}

static const int all[] = { 0, 1, 2, 3, 4, 5, 6, 7, 8 };

static void names(const struct pms_aggr_map *m, char *out, size_t size)
{
	out[0] = '\0';
	for (size_t u = 0; u < m->nr_units; u++) {
		char n[32];

		pms_aggr_map__name(m, u, n, sizeof(n));
		snprintf(out + strlen(out), size - strlen(out), "%s%s:%zu", u ? " " : "", n, m->nr_cpus[u]);
	}
}

Test(cputopo, reads_ids_and_node, .init = use_topo)
{
	struct pms_cpu_topo t;

	cr_assert_eq(pms_cpu_topo__read(7, &t), 0);
	cr_assert_eq(t.socket, 1);
	cr_assert_eq(t.die, 1);
	cr_assert_eq(t.core, 4);
	cr_assert_eq(t.node, 1);
	/* no die_id file (kernels before 5.2): die 0, as perf */
	cr_assert_eq(pms_cpu_topo__read(8, &t), 0);
	cr_assert_eq(t.die, 0);
	cr_assert_eq(t.core, 2);
	cr_assert_eq(pms_cpu_topo__read(9, &t), -ENOENT);
}

Test(cputopo, per_socket, .init = use_topo)
{
	struct pms_aggr_map m;
	char s[256];

	cr_assert_eq(pms_aggr_map__build(&m, PMS_AGGR_SOCKET, all, 9), 0);
	names(&m, s, sizeof(s));
	cr_assert_str_eq(s, "S0:5 S1:4");
	cr_assert_eq(m.unit_of[2], 1);
	cr_assert_eq(m.unit_of[8], 0);
	pms_aggr_map__release(&m);
}

Test(cputopo, per_die_and_core_sorted_by_id, .init = use_topo)
{
	struct pms_aggr_map m;
	char s[256];

	cr_assert_eq(pms_aggr_map__build(&m, PMS_AGGR_DIE, all, 9), 0);
	names(&m, s, sizeof(s));
	cr_assert_str_eq(s, "S0-D0:5 S1-D0:2 S1-D1:2");
	pms_aggr_map__release(&m);
	/* SMT siblings (cpu0 and cpu4) share a core; core ids repeat across dies */
	cr_assert_eq(pms_aggr_map__build(&m, PMS_AGGR_CORE, all, 9), 0);
	names(&m, s, sizeof(s));
	cr_assert_str_eq(s, "S0-D0-C0:2 S0-D0-C1:2 S0-D0-C2:1 S1-D0-C0:2 S1-D1-C0:1 S1-D1-C4:1");
	cr_assert_eq(m.unit_of[0], m.unit_of[4]);
	cr_assert_neq(m.unit_of[2], m.unit_of[3]);
	pms_aggr_map__release(&m);
}

Test(cputopo, per_node_and_a_cpu_subset, .init = use_topo)
{
	static const int some[] = { 3, 6, 1 };
	struct pms_aggr_map m;
	char s[256];

	cr_assert_eq(pms_aggr_map__build(&m, PMS_AGGR_NODE, all, 9), 0);
	names(&m, s, sizeof(s));
	cr_assert_str_eq(s, "N0:5 N1:4");
	pms_aggr_map__release(&m);
	/* -C 3,6,1: only the units of the listed CPUs */
	cr_assert_eq(pms_aggr_map__build(&m, PMS_AGGR_SOCKET, some, 3), 0);
	names(&m, s, sizeof(s));
	cr_assert_str_eq(s, "S0:1 S1:2");
	cr_assert_eq(m.unit_of[2], 0);
	pms_aggr_map__release(&m);
	cr_assert_str_eq(pms_aggr_mode__word(PMS_AGGR_CORE), "core");
}

Test(cputopo, unknown_cpu_fails_the_map, .init = use_topo)
{
	static const int bad[] = { 0, 42 };
	struct pms_aggr_map m;

	cr_assert_eq(pms_aggr_map__build(&m, PMS_AGGR_CORE, bad, 2), -ENOENT);
	cr_assert_null(m.units);
}
