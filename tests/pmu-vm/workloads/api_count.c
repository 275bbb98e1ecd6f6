// SPDX-License-Identifier: MIT
// pmu-vm-libpmuscope
// Guest workload `api_count MODE N` through libpmuscope's public API only (<pmuscope/pmuscope.h>,
// the static aarch64 library): the real armv8_pmuv3 driver under QEMU icount, where user
// instruction counts are exact.
//   exact N   instructions:u around vm_loop(N), read by the user page and, from a second set
//             opened with no_user_page, by read(2):
//             "exact <user-page delta> <path> <read(2) delta> <path>"
//   nested N  regions outer { loop(N) inner { loop(2N) } } with instructions:u:
//             "nested <outer count> <inner count> <user-page reads> <syscall reads>"
//   mux N     12 x instructions:u in one set (more than the counters): per event
//             "mux <value> <scaled> <running %> <path>"
//   cost K [METER]  instructions of one user-page read and of one read(2) read (mean of K),
//             measured by a third set counting METER (default instructions:u; "instructions" to
//             include the kernel's part of read(2)) around them, minus an empty measurement:
//             "cost <per user-page read> <per read(2)> <meter path> <measured path>"
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pmuscope/pmuscope.h>

#include "loop.h"

static int diag(enum pms_print_level level, const char *fmt, va_list ap)
{
	return level > PMS_WARN ? 0 : vfprintf(stderr, fmt, ap);
}

static struct pms_count_set *open_set(const char *events, int no_user_page)
{
	struct pms_count_opts o = { .sz = sizeof(o), .no_user_page = no_user_page != 0 };
	struct pms_count_set *s = pms_count_set__open(events, &o);

	if (!s) {
		printf("error open %s: %s\n", events, pms_strerror(-errno));
		exit(1);
	}
	return s;
}

static const char *path_name(enum pms_read_path p)
{
	return p == PMS_READ_USER_PAGE ? "user-page" : "syscall";
}

static struct pms_count_value must_read(struct pms_count_set *s, size_t i)
{
	struct pms_count_value v;
	int err = pms_count_set__read(s, i, &v);

	if (err) {
		printf("error read: %s\n", pms_strerror(err));
		exit(1);
	}
	return v;
}

static int exact(unsigned long n)
{
	struct pms_count_set *up = open_set("instructions:u", 0), *sys = open_set("instructions:u", 1);
	struct pms_count_value u0, u1, s0, s1;

	pms_count_set__enable(up);
	pms_count_set__enable(sys);
	s0 = must_read(sys, 0);
	u0 = must_read(up, 0);
	vm_loop(n);
	u1 = must_read(up, 0);
	s1 = must_read(sys, 0);
	printf("exact %llu %s %llu %s\n", (unsigned long long)(u1.value - u0.value), path_name(u1.path),
	       (unsigned long long)(s1.value - s0.value), path_name(s1.path));
	pms_count_set__close(up);
	pms_count_set__close(sys);
	return 0;
}

struct nested_out {
	unsigned long long outer, inner, up, sys;
};

static int collect(const struct pms_region_result *r, void *arg)
{
	struct nested_out *o = arg;

	if (!strcmp(r->name, "outer"))
		o->outer = r->counts[0].value;
	else if (!strcmp(r->name, "inner"))
		o->inner = r->counts[0].value;
	o->up += r->user_page_reads;
	o->sys += r->syscall_reads;
	return 0;
}

static int nested(unsigned long n)
{
	struct pms_region_opts o = { .sz = sizeof(o), .events = "instructions:u" };
	struct nested_out out = { 0 };
	int err = pms_region__init(&o);

	if (err) {
		printf("error regions: %s\n", pms_strerror(err));
		return 1;
	}
	if (pms_region__begin("outer") || (vm_loop(n), 0) || pms_region__begin("inner") || (vm_loop(2 * n), 0) ||
	    pms_region__end("inner") || pms_region__end("outer")) {
		printf("error begin/end\n");
		return 1;
	}
	pms_region__foreach(collect, &out);
	printf("nested %llu %llu %llu %llu\n", out.outer, out.inner, out.up, out.sys);
	pms_region__finish();
	return 0;
}

static int mux(unsigned long n)
{
	char events[512] = "";
	struct pms_count_set *s;

	for (int i = 0; i < 12; i++)
		strcat(events, i ? ",instructions:u" : "instructions:u");
	s = open_set(events, 0);
	pms_count_set__enable(s);
	vm_loop(n);
	pms_count_set__disable(s);
	for (size_t i = 0; i < pms_count_set__nr_events(s); i++) {
		struct pms_count_value v = must_read(s, i);

		printf("mux %llu %.0f %.2f %s\n", (unsigned long long)v.value, v.scaled, v.running_pct,
		       path_name(v.path));
	}
	pms_count_set__close(s);
	return 0;
}

/* instructions of K reads each way, as the meter sees them, minus the meter reading itself */
static int cost(unsigned long k, const char *meter_event)
{
	struct pms_count_set *meter = open_set(meter_event, 0);
	struct pms_count_set *up = open_set("instructions:u", 0), *sys = open_set("instructions:u", 1);
	struct pms_count_value m0, m1, v;
	unsigned long long empty, per_up, per_sys;

	pms_count_set__enable(meter);
	pms_count_set__enable(up);
	pms_count_set__enable(sys);
	m0 = must_read(meter, 0);
	m1 = must_read(meter, 0);
	empty = m1.value - m0.value;
	m0 = must_read(meter, 0);
	for (unsigned long i = 0; i < k; i++)
		pms_count_set__read(up, 0, &v);
	m1 = must_read(meter, 0);
	if (v.path != PMS_READ_USER_PAGE) {
		printf("error cost: the measured reads took %s\n", path_name(v.path));
		return 1;
	}
	per_up = (m1.value - m0.value - empty) / k;
	m0 = must_read(meter, 0);
	for (unsigned long i = 0; i < k; i++)
		pms_count_set__read(sys, 0, &v);
	m1 = must_read(meter, 0);
	per_sys = (m1.value - m0.value - empty) / k;
	printf("cost %llu %llu %s %s\n", per_up, per_sys, path_name(m1.path), path_name(v.path));
	return 0;
}

int main(int argc, char **argv)
{
	unsigned long n;

	if (argc < 3 || argc > 4)
		return 2;
	pms_set_print(diag);
	n = strtoul(argv[2], NULL, 10);
	if (!strcmp(argv[1], "exact"))
		return exact(n);
	if (!strcmp(argv[1], "nested"))
		return nested(n);
	if (!strcmp(argv[1], "mux"))
		return mux(n);
	if (!strcmp(argv[1], "cost"))
		return cost(n ? n : 1, argc > 3 ? argv[3] : "instructions:u");
	return 2;
}
