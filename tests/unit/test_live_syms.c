// SPDX-License-Identifier: MIT
// Live processes' symbols: image snapshots (this process, a gone one), frames cached per image, pointers that stay put.
#include <criterion/criterion.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "aggregate/live_syms.h"
#include "symbol/maps.h"

__attribute__((noinline, used)) int live_syms_marker(int x);
__attribute__((noinline, used)) int live_syms_marker(int x)
{
	return x * 3 + 1;
}

/* A pid that existed and is gone (reaped). */
static pid_t gone_pid(void)
{
	pid_t p = fork();

	cr_assert_geq(p, 0);
	if (p == 0)
		_exit(0);
	cr_assert_eq(waitpid(p, NULL, 0), p);
	return p;
}

static const char *frame_name(struct pms_stacks *st, uint32_t id)
{
	size_t nr;
	const struct pms_stack_frame *f = pms_stacks__frames(st, &nr);

	cr_assert_lt(id, nr);
	return f[id].name;
}

Test(live_syms, snapshots_this_process_and_names_its_functions)
{
	struct pms_resolver *res = pms_resolver__new();
	struct pms_live_syms *ls = pms_live_syms__new(res);
	struct pms_stacks *st = pms_stacks__new(NULL);
	struct pms_live_image *img, *again;
	uint64_t ip = (uint64_t)(uintptr_t)&live_syms_marker;
	uint32_t a, b, c;

	cr_assert(res && ls && st);
	img = pms_live_syms__announce(ls, (uint32_t)getpid(), 0);
	cr_assert_not_null(img);
	cr_assert_not_null(img->maps, "our own maps must be readable");
	cr_assert_null(img->root, "we see our own files");
	cr_assert_eq(pms_live_syms__stats(ls)->snapshots, 1);
	again = pms_live_syms__image(ls, (uint32_t)getpid(), 0);
	cr_assert_eq(again, img);
	cr_assert_eq(pms_live_syms__stats(ls)->late, 0, "a known image is not read again");

	/* the leaf is looked up at ip, a return address at ip - 1 (the function's first byte: before it) */
	cr_assert_eq(pms_live_syms__user_frame(ls, st, img, ip, true, &a), 0);
	cr_assert_str_eq(frame_name(st, a), "live_syms_marker");
	cr_assert_eq(pms_live_syms__user_frame(ls, st, img, ip + 1, false, &b), 0);
	cr_assert_str_eq(frame_name(st, b), "live_syms_marker");
	cr_assert_eq(pms_live_syms__user_frame(ls, st, img, ip, true, &c), 0);
	cr_assert_eq(c, a, "cached");
	{
		struct pms_resolved r;
		const struct pms_map *m;

		cr_assert_eq(pms_live_syms__resolve_user(ls, img, ip, true, &r, &m), 0);
		cr_assert_not_null(m);
		cr_assert_eq(r.status, PMS_RES_OK);
		cr_assert_str_eq(r.sym, "live_syms_marker");
		/* no mapping covers address 8: nothing resolved, no map */
		cr_assert_eq(pms_live_syms__resolve_user(ls, img, 8, true, &r, &m), 0);
		cr_assert_null(m);
		cr_assert_eq(pms_live_syms__user_frame(ls, st, img, 8, true, &c), 0);
		cr_assert_str_eq(frame_name(st, c), "[unknown]");
	}
	/* a new tree: the ids of the old one are forgotten */
	pms_stacks__free(st);
	st = pms_stacks__new(NULL);
	pms_live_syms__new_tree(ls);
	cr_assert_eq(pms_live_syms__user_frame(ls, st, img, 8, true, &c), 0);
	cr_assert_str_eq(frame_name(st, c), "[unknown]");
	pms_stacks__free(st);
	pms_live_syms__free(ls);
	pms_resolver__free(res);
}

Test(live_syms, gone_processes_are_missed_and_images_stay_put)
{
	struct pms_resolver *res = pms_resolver__new();
	struct pms_live_syms *ls = pms_live_syms__new(res);
	struct pms_stacks *st = pms_stacks__new(NULL);
	uint32_t gone = (uint32_t)gone_pid(), f1, f2;
	struct pms_live_image *first, *img;

	cr_assert(res && ls && st);
	first = pms_live_syms__image(ls, gone, 0);
	cr_assert_not_null(first);
	cr_assert_null(first->maps);
	cr_assert_eq(pms_live_syms__stats(ls)->missed, 1);
	cr_assert_eq(pms_live_syms__user_frame(ls, st, first, 0x1000, true, &f1), 0);
	/* hundreds more images grow the table: the first keeps its address and its cached frames */
	for (uint32_t e = 1; e <= 600; e++) {
		img = pms_live_syms__announce(ls, gone, e);
		cr_assert_not_null(img);
		cr_assert_eq(img->exec_id, e);
	}
	cr_assert_eq(pms_live_syms__stats(ls)->missed, 601);
	cr_assert_eq(pms_live_syms__image(ls, gone, 0), first);
	cr_assert_eq(first->tgid, gone);
	cr_assert_eq(first->exec_id, 0);
	cr_assert_eq(pms_live_syms__user_frame(ls, st, first, 0x1000, true, &f2), 0);
	cr_assert_eq(f2, f1);
	cr_assert_null(pms_live_syms__unwinder(ls, first), "no maps, no unwinder");
	pms_stacks__free(st);
	pms_live_syms__free(ls);
	pms_resolver__free(res);
}

Test(live_syms, gone_and_replaced_images_let_go)
{
	struct pms_resolver *res = pms_resolver__new();
	struct pms_live_syms *ls = pms_live_syms__new(res);
	struct pms_live_image *me, *me_after_exec, *child;
	int go[2];
	pid_t p;

	cr_assert(res && ls);
	cr_assert_eq(pipe(go), 0);
	p = fork();
	cr_assert_geq(p, 0);
	if (p == 0) {
		char c;

		close(go[1]);
		(void)!read(go[0], &c, 1); /* until the parent has snapshotted us */
		_exit(0);
	}
	close(go[0]);
	child = pms_live_syms__announce(ls, (uint32_t)p, 0);
	cr_assert_not_null(child);
	cr_assert_not_null(child->maps, "read while the child lives");
	me = pms_live_syms__announce(ls, (uint32_t)getpid(), 0);
	cr_assert_eq(pms_live_syms__release_gone(ls), 0, "both live");
	close(go[1]);
	cr_assert_eq(waitpid(p, NULL, 0), p);
	cr_assert_eq(pms_live_syms__release_gone(ls), 1);
	cr_assert_null(child->maps, "the exited child's mappings are let go");
	cr_assert_eq(child->tgid, (uint32_t)p, "the image itself stays");
	cr_assert_not_null(me->maps);
	/* an exec: the image before it goes, the new one stays */
	me_after_exec = pms_live_syms__announce(ls, (uint32_t)getpid(), 1);
	cr_assert_eq(pms_live_syms__release_gone(ls), 1);
	cr_assert_null(me->maps);
	cr_assert_not_null(me_after_exec->maps);
	cr_assert_eq(pms_live_syms__stats(ls)->released, 2);
	cr_assert_eq(pms_live_syms__image(ls, (uint32_t)p, 0), child, "known, not read again");
	/* one call later the shells go: a long run does not keep one per process that ever ran */
	cr_assert_eq(pms_live_syms__release_gone(ls), 0);
	cr_assert_eq(pms_live_syms__stats(ls)->forgotten, 1, "the child's shell (released a call ago)");
	cr_assert_eq(pms_live_syms__release_gone(ls), 0);
	cr_assert_eq(pms_live_syms__stats(ls)->forgotten, 2, "and the image before the exec");
	cr_assert_not_null(me_after_exec->maps, "live images keep their snapshot through the renumbering");
	cr_assert_eq(pms_live_syms__image(ls, (uint32_t)getpid(), 1), me_after_exec, "still found by its key");
	child = pms_live_syms__image(ls, (uint32_t)p, 0);
	cr_assert_not_null(child);
	cr_assert_null(child->maps, "a late sample of the forgotten child: read again, gone, nothing named");
	pms_live_syms__free(ls);
	pms_resolver__free(res);
}
