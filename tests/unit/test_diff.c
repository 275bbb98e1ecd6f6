// SPDX-License-Identifier: MIT
// Unit tests of lib/export/diff: exact self/total deltas, recursion counted once, new/gone rows, identity by name + dso base name.
#include <criterion/criterion.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "export/diff.h"

static struct pms_stacks *tree(void)
{
	struct pms_stacks *st = pms_stacks__new(NULL);

	cr_assert_not_null(st);
	return st;
}

static uint32_t fr(struct pms_stacks *st, const char *name, const char *dso)
{
	struct pms_stack_frame f = { .name = name, .dso = dso, .kind = PMS_STACK_USER };
	int64_t id = pms_stacks__intern(st, &f);

	cr_assert_geq(id, 0);
	return (uint32_t)id;
}

/* path "main;run;alpha;leaf" (root first) of the given dso, weight samples (period = 1000 each). */
static void path(struct pms_stacks *st, const char *dso, const char *frames, uint64_t samples)
{
	uint32_t ids[16];
	size_t n = 0;
	char buf[256], *save = NULL;

	snprintf(buf, sizeof(buf), "%s", frames);
	for (char *w = strtok_r(buf, ";", &save); w; w = strtok_r(NULL, ";", &save))
		ids[n++] = fr(st, w, dso);
	cr_assert_eq(pms_stacks__add_path(st, ids, n, samples, samples * 1000), 0);
}

static const struct pms_diff_row *row(const struct pms_diff *d, const char *name, const char *dso)
{
	for (size_t i = 0; i < d->nr_rows; i++)
		if (!strcmp(d->rows[i].name, name) && !strcmp(d->rows[i].dso, dso))
			return &d->rows[i];
	return NULL;
}

#define near(a, b) cr_assert(fabs((a) - (b)) < 1e-9, "%s = %f, want %f", #a, (double)(a), (double)(b))

/* pms-shares at 50/30/20 against 30/50/20: alpha -20, bravo +20 points of total, leaf self unchanged. */
Test(diff, shares_exact)
{
	struct pms_stacks *a = tree(), *b = tree();
	struct pms_diff *d;
	const struct pms_diff_row *r;

	path(a, "/bin/app", "main;run;alpha;leaf", 50);
	path(a, "/bin/app", "main;run;bravo;leaf", 30);
	path(a, "/bin/app", "main;run;charlie;delta;leaf", 20);
	path(b, "/bin/app", "main;run;alpha;leaf", 60);
	path(b, "/bin/app", "main;run;bravo;leaf", 100);
	path(b, "/bin/app", "main;run;charlie;delta;leaf", 40);
	cr_assert_eq(pms_diff__new(&d, a, b, NULL), 0);
	cr_assert_eq(d->base_total, 100000);
	cr_assert_eq(d->new_total, 200000);
	cr_assert_eq(d->nr_rows, 7);
	r = row(d, "alpha", "app");
	cr_assert_not_null(r);
	near(r->base.total, 50);
	near(r->new_.total, 30);
	near(r->delta_total, -20);
	near(r->delta_self, 0);
	cr_assert_str_eq(pms_diff_row__change(d, r), "shrank");
	r = row(d, "bravo", "app");
	near(r->delta_total, 20);
	cr_assert_str_eq(pms_diff_row__change(d, r), "grew");
	r = row(d, "leaf", "app");
	near(r->base.self, 100);
	near(r->new_.self, 100);
	near(r->delta_total, 0);
	cr_assert_str_eq(pms_diff_row__change(d, r), "same");
	near(row(d, "delta", "app")->delta_total, 0);
	/* sorted by |delta total|: alpha and bravo (20 points, same peak share 50%) first, by name */
	cr_assert_str_eq(d->rows[0].name, "alpha");
	cr_assert_str_eq(d->rows[1].name, "bravo");
	pms_diff__free(d);
	pms_stacks__free(a);
	pms_stacks__free(b);
}

/* A recursive function counts once per sample in total, every leaf occurrence in self. */
Test(diff, recursion_once)
{
	struct pms_stacks *a = tree(), *b = tree();
	struct pms_diff *d;
	const struct pms_diff_row *r;

	path(a, "/bin/app", "main;rec;rec;rec", 10);
	path(a, "/bin/app", "main;other", 10);
	path(b, "/bin/app", "main;rec;x;rec", 10);
	cr_assert_eq(pms_diff__new(&d, a, b, NULL), 0);
	r = row(d, "rec", "app");
	near(r->base.total, 50);
	near(r->base.self, 50);
	near(r->new_.total, 100);
	near(r->new_.self, 100);
	near(r->delta_total, 50);
	r = row(d, "main", "app");
	near(r->base.total, 100);
	near(r->delta_total, 0);
	pms_diff__free(d);
	pms_stacks__free(a);
	pms_stacks__free(b);
}

Test(diff, only_one_side)
{
	struct pms_stacks *a = tree(), *b = tree();
	struct pms_diff *d;
	const struct pms_diff_row *r;

	path(a, "/bin/app", "main;old", 4);
	path(a, "/bin/app", "main;kept", 4);
	path(b, "/bin/app", "main;kept", 4);
	path(b, "/bin/app", "main;fresh", 12);
	cr_assert_eq(pms_diff__new(&d, a, b, NULL), 0);
	r = row(d, "old", "app");
	cr_assert(r->in_base && !r->in_new);
	near(r->delta_total, -50);
	cr_assert_str_eq(pms_diff_row__change(d, r), "gone");
	r = row(d, "fresh", "app");
	cr_assert(!r->in_base && r->in_new);
	near(r->new_.total, 75);
	near(r->delta_self, 75);
	cr_assert_str_eq(pms_diff_row__change(d, r), "new");
	r = row(d, "kept", "app");
	near(r->delta_total, -25);
	cr_assert_eq(d->rows[0].name, row(d, "fresh", "app")->name);
	pms_diff__free(d);
	pms_stacks__free(a);
	pms_stacks__free(b);
}

/* Same name in two objects: two rows; same object base name in two directories: one row. */
Test(diff, identity_name_and_dso)
{
	struct pms_stacks *a = tree(), *b = tree();
	struct pms_diff *d;

	path(a, "/usr/lib/libx.so", "main;init", 1);
	path(a, "/bin/app", "main;init", 1);
	path(b, "/opt/new/lib/libx.so", "main;init", 3);
	path(b, "/bin/app", "main;init", 1);
	cr_assert_eq(pms_diff__new(&d, a, b, NULL), 0);
	cr_assert_eq(d->nr_rows, 4); /* main and init in libx.so and app */
	near(row(d, "init", "libx.so")->delta_total, 25);
	near(row(d, "init", "app")->delta_total, -25);
	cr_assert(row(d, "init", "libx.so")->in_base);
	cr_assert_null(row(d, "init", "/usr/lib/libx.so"));
	pms_diff__free(d);
	pms_stacks__free(a);
	pms_stacks__free(b);
}

/* --sort self orders by the self delta; weights by samples when asked. */
Test(diff, sort_self_and_samples)
{
	struct pms_stacks *a = tree(), *b = tree();
	struct pms_diff_opts o = { .sz = sizeof(o), .weight = PMS_WEIGHT_SAMPLES, .sort = PMS_DIFF_BY_SELF };
	struct pms_diff *d;
	uint32_t ids[2];

	path(a, "/bin/app", "main;f", 5);
	path(a, "/bin/app", "main;g", 5);
	/* period and samples disagree: g's samples are heavy, f's period */
	ids[0] = fr(b, "main", "/bin/app");
	ids[1] = fr(b, "f", "/bin/app");
	cr_assert_eq(pms_stacks__add_path(b, ids, 2, 1, 9000), 0);
	ids[1] = fr(b, "g", "/bin/app");
	cr_assert_eq(pms_stacks__add_path(b, ids, 2, 9, 1000), 0);
	cr_assert_eq(pms_diff__new(&d, a, b, &o), 0);
	cr_assert_eq(d->base_total, 10);
	near(row(d, "g", "app")->delta_self, 40);
	near(row(d, "f", "app")->delta_self, -40);
	near(row(d, "main", "app")->delta_self, 0);
	cr_assert_str_eq(d->rows[2].name, "main");
	near(pms_diff_row__delta(d, row(d, "g", "app")), 40);
	pms_diff__free(d);
	o.weight = PMS_WEIGHT_PERIOD;
	cr_assert_eq(pms_diff__new(&d, a, b, &o), 0);
	near(row(d, "f", "app")->delta_self, 40);
	pms_diff__free(d);
	o.sz = 3;
	cr_assert_eq(pms_diff__new(&d, a, b, &o), -EINVAL);
	cr_assert_null(d);
	pms_stacks__free(a);
	pms_stacks__free(b);
}

/* Unresolved frames merge per object; pseudo process frames are not functions; empty trees work. */
Test(diff, unknown_pseudo_empty)
{
	struct pms_stacks *a = tree(), *b = tree();
	struct pms_stack_frame proc = { .name = "app", .kind = PMS_STACK_PROCESS, .pid = 7 };
	struct pms_stack_frame u1 = { .name = "0x7f0001", .dso = "/lib/libz.so", .kind = PMS_STACK_UNKNOWN };
	struct pms_stack_frame u2 = { .name = "0x7f0002", .dso = "/lib/libz.so", .kind = PMS_STACK_UNKNOWN };
	struct pms_diff *d;
	uint32_t ids[2];

	ids[0] = (uint32_t)pms_stacks__intern(a, &proc);
	ids[1] = (uint32_t)pms_stacks__intern(a, &u1);
	cr_assert_eq(pms_stacks__add_path(a, ids, 2, 2, 2), 0);
	ids[1] = (uint32_t)pms_stacks__intern(a, &u2);
	cr_assert_eq(pms_stacks__add_path(a, ids, 2, 2, 2), 0);
	cr_assert_eq(pms_diff__new(&d, a, b, NULL), 0);
	cr_assert_eq(d->nr_rows, 1);
	cr_assert_str_eq(d->rows[0].name, "[unknown]");
	cr_assert_str_eq(d->rows[0].dso, "libz.so");
	near(d->rows[0].base.self, 100);
	cr_assert_eq(d->new_total, 0);
	cr_assert_str_eq(pms_diff_row__change(d, &d->rows[0]), "gone");
	pms_diff__free(d);
	pms_stacks__free(a);
	pms_stacks__free(b);
}
