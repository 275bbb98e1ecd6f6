// SPDX-License-Identifier: MIT
// A live view's model: trees merged and decayed (perf top's 7/8), rows by sort keys with filters, and a row's call chains.
#include <criterion/criterion.h>
#include <errno.h>
#include <regex.h>
#include <string.h>

#include "aggregate/top.h"

struct ids {
	uint32_t app, app2, t11, t12, t21, main_, work, spin, syscall, other;
};

static uint32_t intern(struct pms_stacks *st, struct pms_stack_frame f)
{
	int64_t id = pms_stacks__intern(st, &f);

	cr_assert_geq(id, 0);
	return (uint32_t)id;
}

/*
 * app (pid 10): thread 11 main;work x6, main;work;syscall[k] x2; thread 12 main;spin x1
 * app (pid 20): thread 21 main;work x3
 */
static struct pms_stacks *fixture(struct ids *i)
{
	struct pms_stacks *st = pms_stacks__new(NULL);

	cr_assert_not_null(st);
	i->app = intern(st, (struct pms_stack_frame){ .kind = PMS_STACK_PROCESS, .name = "app", .pid = 10 });
	i->app2 = intern(st, (struct pms_stack_frame){ .kind = PMS_STACK_PROCESS, .name = "app", .pid = 20 });
	i->t11 = intern(st, (struct pms_stack_frame){ .kind = PMS_STACK_THREAD, .name = "app", .pid = 10, .tid = 11 });
	i->t12 = intern(st, (struct pms_stack_frame){ .kind = PMS_STACK_THREAD, .name = "app", .pid = 10, .tid = 12 });
	i->t21 = intern(st, (struct pms_stack_frame){ .kind = PMS_STACK_THREAD, .name = "app", .pid = 20, .tid = 21 });
	i->main_ = intern(st, (struct pms_stack_frame){ .kind = PMS_STACK_USER, .name = "main", .dso = "/bin/app" });
	i->work = intern(st, (struct pms_stack_frame){ .kind = PMS_STACK_USER, .name = "work", .dso = "/bin/app" });
	i->spin = intern(st, (struct pms_stack_frame){ .kind = PMS_STACK_USER, .name = "spin", .dso = "/lib/libspin.so" });
	i->syscall = intern(st, (struct pms_stack_frame){ .kind = PMS_STACK_KERNEL, .name = "do_syscall_64",
							  .dso = "[kernel.kallsyms]" });
	cr_assert_eq(pms_stacks__add_path(st, (uint32_t[]){ i->app, i->t11, i->main_, i->work }, 4, 6, 600), 0);
	cr_assert_eq(pms_stacks__add_path(st, (uint32_t[]){ i->app, i->t11, i->main_, i->work, i->syscall }, 5, 2, 200), 0);
	cr_assert_eq(pms_stacks__add_path(st, (uint32_t[]){ i->app, i->t12, i->main_, i->spin }, 4, 1, 100), 0);
	cr_assert_eq(pms_stacks__add_path(st, (uint32_t[]){ i->app2, i->t21, i->main_, i->work }, 4, 3, 300), 0);
	cr_assert_eq(pms_stacks__set_build_id(st, "/bin/app", "abcd"), 0);
	return st;
}

static const struct pms_top_row *find(const struct pms_top_rows *r, const char *sym)
{
	for (size_t i = 0; i < r->nr; i++)
		if (r->rows[i].sym && !strcmp(r->rows[i].sym, sym))
			return &r->rows[i];
	return NULL;
}

Test(top, keys_parse_as_perf_spells_them)
{
	enum pms_top_key k[PMS_TOP_MAX_KEYS];
	size_t nr;
	const char *bad = NULL;

	cr_assert_eq(pms_top_keys__parse("comm,dso,sym", k, &nr, &bad), 0);
	cr_assert_eq(nr, 3);
	cr_assert(k[0] == PMS_TOP_COMM && k[1] == PMS_TOP_DSO && k[2] == PMS_TOP_SYM);
	cr_assert_eq(pms_top_keys__parse("symbol,pid,sym", k, &nr, &bad), 0);
	cr_assert_eq(nr, 2, "a key given twice counts once");
	cr_assert_eq(pms_top_keys__parse("comm,cpu", k, &nr, &bad), -EINVAL);
	cr_assert_str_eq(bad, "cpu");
	cr_assert_eq(pms_top_keys__parse("", k, &nr, &bad), -EINVAL);
	cr_assert_str_eq(pms_top_key__name(PMS_TOP_DSO), "dso");
}

Test(top, rows_by_keys_heaviest_first)
{
	struct ids i;
	struct pms_stacks *st = fixture(&i);
	enum pms_top_key sym[] = { PMS_TOP_SYM }, pid_sym[] = { PMS_TOP_PID, PMS_TOP_SYM }, dso[] = { PMS_TOP_DSO };
	struct pms_top_rows r;

	cr_assert_eq(pms_top__rows(st, sym, 1, NULL, false, &r), 0);
	cr_assert_eq(r.nr, 3);
	cr_assert_str_eq(r.rows[0].sym, "work");
	cr_assert_eq(r.rows[0].samples, 9, "both processes' work");
	cr_assert_str_eq(r.rows[1].sym, "do_syscall_64");
	cr_assert_eq(r.rows[1].kind, PMS_STACK_KERNEL);
	cr_assert_eq(r.rows[1].samples, 2);
	cr_assert_eq(r.total_samples, 12);
	cr_assert_eq(r.shown_samples, 12);
	cr_assert_null(r.rows[0].comm, "comm is not a key here");
	pms_top_rows__release(&r);

	cr_assert_eq(pms_top__rows(st, pid_sym, 2, NULL, false, &r), 0);
	cr_assert_eq(r.nr, 4);
	cr_assert_eq(r.rows[0].pid, 10);
	cr_assert_eq(r.rows[0].samples, 6);
	cr_assert_eq(r.rows[1].pid, 20);
	cr_assert_eq(r.rows[1].samples, 3);
	pms_top_rows__release(&r);

	cr_assert_eq(pms_top__rows(st, dso, 1, NULL, true, &r), 0);
	cr_assert_str_eq(r.rows[0].dso, "/bin/app");
	cr_assert_eq(r.rows[0].period, 900);
	pms_top_rows__release(&r);
	pms_stacks__free(st);
}

Test(top, filters_leave_rows_out_and_say_how_much)
{
	struct ids i;
	struct pms_stacks *st = fixture(&i);
	enum pms_top_key sym[] = { PMS_TOP_SYM };
	struct pms_top_filter f = { .hide_kernel = true };
	struct pms_top_rows r;
	regex_t re;

	cr_assert_eq(pms_top__rows(st, sym, 1, &f, false, &r), 0);
	cr_assert_null(find(&r, "do_syscall_64"));
	cr_assert_eq(r.shown_samples, 10);
	cr_assert_eq(r.total_samples, 12);
	pms_top_rows__release(&r);

	f = (struct pms_top_filter){ .hide_user = true };
	cr_assert_eq(pms_top__rows(st, sym, 1, &f, false, &r), 0);
	cr_assert_eq(r.nr, 1);
	pms_top_rows__release(&r);

	f = (struct pms_top_filter){ .tid = 12 };
	cr_assert_eq(pms_top__rows(st, sym, 1, &f, false, &r), 0);
	cr_assert_eq(r.nr, 1);
	cr_assert_str_eq(r.rows[0].sym, "spin");
	pms_top_rows__release(&r);

	f = (struct pms_top_filter){ .pid = 20 };
	cr_assert_eq(pms_top__rows(st, sym, 1, &f, false, &r), 0);
	cr_assert_eq(r.shown_samples, 3);
	pms_top_rows__release(&r);

	f = (struct pms_top_filter){ .dso = "/lib/libspin.so" };
	cr_assert_eq(pms_top__rows(st, sym, 1, &f, false, &r), 0);
	cr_assert_eq(r.nr, 1);
	pms_top_rows__release(&r);

	cr_assert_eq(regcomp(&re, "^s", REG_EXTENDED | REG_NOSUB), 0);
	f = (struct pms_top_filter){ .sym = &re };
	cr_assert_eq(pms_top__rows(st, sym, 1, &f, false, &r), 0);
	cr_assert_eq(r.nr, 1);
	cr_assert_str_eq(r.rows[0].sym, "spin");
	pms_top_rows__release(&r);
	regfree(&re);
	pms_stacks__free(st);
}

Test(top, a_rows_chains_callee_and_caller_order)
{
	struct ids i;
	struct pms_stacks *st = fixture(&i), *ch;
	enum pms_top_key sym[] = { PMS_TOP_SYM };
	struct pms_top_rows r;
	const struct pms_stack_node *n;
	const struct pms_stack_frame *f;
	size_t nn, nf;

	cr_assert_eq(pms_top__rows(st, sym, 1, NULL, false, &r), 0);
	cr_assert_eq(pms_top__chains(st, sym, 1, NULL, find(&r, "work"), false, &ch), 0);
	n = pms_stacks__nodes(ch, &nn);
	f = pms_stacks__frames(ch, &nf);
	cr_assert_eq(n[0].total_samples, 9);
	cr_assert_str_eq(f[n[n[0].first_child].frame].name, "work", "callee order: the leaf first");
	cr_assert_eq(n[0].first_child && n[n[0].first_child].next_sibling, 0);
	cr_assert_str_eq(f[n[n[n[0].first_child].first_child].frame].name, "main");
	pms_stacks__free(ch);

	cr_assert_eq(pms_top__chains(st, sym, 1, NULL, find(&r, "do_syscall_64"), true, &ch), 0);
	n = pms_stacks__nodes(ch, &nn);
	f = pms_stacks__frames(ch, &nf);
	cr_assert_str_eq(f[n[n[0].first_child].frame].name, "main", "caller order: the outermost first");
	cr_assert_eq(nn, 4, "root, main, work, do_syscall_64: no process or thread frames");
	pms_stacks__free(ch);
	pms_top_rows__release(&r);
	pms_stacks__free(st);
}

Test(top, decay_by_seven_eighths_drops_what_reaches_zero)
{
	struct ids i;
	struct pms_stacks *st = fixture(&i), *dec = pms_stacks__new(NULL), *sum = pms_stacks__new(NULL);
	enum pms_top_key sym[] = { PMS_TOP_SYM };
	struct pms_top_rows r;

	cr_assert_eq(pms_stacks__add_tree(dec, st, 7, 8), 0);
	cr_assert_eq(pms_top__rows(dec, sym, 1, NULL, false, &r), 0);
	/* work: 6*7/8 = 5 and 3*7/8 = 2; syscall 2 -> 1; spin 1 -> 0 (gone, as perf's he_stat__decay) */
	cr_assert_eq(find(&r, "work")->samples, 7);
	cr_assert_eq(find(&r, "do_syscall_64")->samples, 1);
	cr_assert_null(find(&r, "spin"));
	cr_assert_eq(find(&r, "work")->period, 525 + 262);
	pms_top_rows__release(&r);
	cr_assert_str_eq(pms_stacks__build_id(dec, "/bin/app"), "abcd", "build-ids come along");

	/* merging twice at 1/1 doubles everything */
	cr_assert_eq(pms_stacks__add_tree(sum, st, 1, 1), 0);
	cr_assert_eq(pms_stacks__add_tree(sum, st, 1, 1), 0);
	cr_assert_eq(pms_stacks__nodes(sum, &(size_t){ 0 })[0].total_samples, 24);
	cr_assert_eq(pms_stacks__add_tree(sum, sum, 1, 1), -EINVAL);
	cr_assert_eq(pms_stacks__add_tree(sum, st, 1, 0), -EINVAL);
	pms_stacks__free(sum);
	pms_stacks__free(dec);
	pms_stacks__free(st);
}

Test(top, off_cpu_rows_skip_the_scheduler_or_go_to_the_user_call)
{
	struct pms_stacks *st = pms_stacks__new(NULL);
	enum pms_top_key sym[] = { PMS_TOP_SYM };
	struct pms_top_filter f = { .skip_sched = true };
	struct pms_top_rows r;
	struct pms_stacks *ch;
	uint32_t p = intern(st, (struct pms_stack_frame){ .kind = PMS_STACK_PROCESS, .name = "cat", .pid = 5 });
	uint32_t m = intern(st, (struct pms_stack_frame){ .kind = PMS_STACK_USER, .name = "main", .dso = "/bin/cat" });
	uint32_t rd = intern(st, (struct pms_stack_frame){ .kind = PMS_STACK_USER, .name = "read", .dso = "libc.so.6" });
	uint32_t k1 = intern(st, (struct pms_stack_frame){ .kind = PMS_STACK_KERNEL, .name = "pipe_read" });
	uint32_t k2 = intern(st, (struct pms_stack_frame){ .kind = PMS_STACK_KERNEL, .name = "schedule" });
	uint32_t k3 = intern(st, (struct pms_stack_frame){ .kind = PMS_STACK_KERNEL, .name = "__schedule" });
	uint32_t kt = intern(st, (struct pms_stack_frame){ .kind = PMS_STACK_KERNEL, .name = "worker_thread" });
	size_t nn;

	cr_assert_eq(pms_stacks__add_path(st, (uint32_t[]){ p, m, rd, k1, k2, k3 }, 6, 4, 4000), 0);
	/* a kernel thread: no user frame to go to */
	cr_assert_eq(pms_stacks__add_path(st, (uint32_t[]){ p, kt, k2, k3 }, 4, 1, 1000), 0);
	cr_assert_eq(pms_top__rows(st, sym, 1, &f, true, &r), 0);
	cr_assert_str_eq(r.rows[0].sym, "pipe_read", "where it chose to wait, not __schedule");
	cr_assert_str_eq(r.rows[1].sym, "worker_thread");
	cr_assert_eq(pms_top__chains(st, sym, 1, &f, &r.rows[0], false, &ch), 0);
	cr_assert_eq(pms_stacks__nodes(ch, &nn)[0].total_samples, 4);
	cr_assert_str_eq(pms_stacks__frames(ch, &nn)[pms_stacks__nodes(ch, &nn)[1].frame].name, "pipe_read",
			 "the chain starts at the row's leaf");
	pms_stacks__free(ch);
	pms_top_rows__release(&r);

	f.user_leaf = true;
	f.hide_kernel = true;
	cr_assert_eq(pms_top__rows(st, sym, 1, &f, true, &r), 0);
	cr_assert_eq(r.nr, 1, "the kernel thread has no user call: hidden with the kernel");
	cr_assert_str_eq(r.rows[0].sym, "read");
	cr_assert_eq(r.rows[0].period, 4000);
	pms_top_rows__release(&r);
	pms_stacks__free(st);
}
