// SPDX-License-Identifier: MIT
// Unit tests of lib/util/tasks on a made-up procfs (PMS_PROCFS_ROOT): thread lists in tid order,
// processes that vanish, zombies, comm, and this process through the real /proc.
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/tasks.h"

static char root[64];

static void put(const char *rel, const char *text)
{
	char path[256], dir[256], *slash;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	snprintf(dir, sizeof(dir), "%s", path);
	for (slash = strchr(dir + strlen(root) + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
		*slash = 0;
		mkdir(dir, 0755);
		*slash = '/';
	}
	if (!text) {
		mkdir(path, 0755);
		return;
	}
	f = fopen(path, "w");
	cr_assert_not_null(f, "%s", path);
	fputs(text, f);
	fclose(f);
}

static void setup(void)
{
	snprintf(root, sizeof(root), "/tmp/pms-tasks-XXXXXX");
	cr_assert_not_null(mkdtemp(root));
	/* process 40 with threads 40, 43, 41; process 7 a zombie; 99 has no task dir left */
	put("40/task/43/stat", "43 (worker (x)) S 1");
	put("40/task/40/stat", "40 (main) R 1");
	put("40/task/41/stat", "41 (zomb) Z 1");
	put("40/task/self-ish", "not a task");
	put("40/stat", "40 (a) b) c) S 1");
	put("40/comm", "demo\n");
	put("7/task/7/stat", "7 (z) Z 1");
	put("7/stat", "7 (z) Z 1");
	put("99", NULL);
	put("sys", NULL);
	setenv("PMS_PROCFS_ROOT", root, 1);
}

static void teardown(void)
{
	char cmd[128];

	unsetenv("PMS_PROCFS_ROOT");
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	cr_assert_eq(system(cmd), 0);
}

Test(util_tasks, threads_in_tid_order, .init = setup, .fini = teardown)
{
	pid_t *tids = NULL;
	size_t nr = 0;

	cr_assert_eq(pms_tasks__of_process(40, &tids, &nr), 0);
	cr_assert_eq(nr, 3);
	cr_assert_eq(tids[0], 40);
	cr_assert_eq(tids[1], 41);
	cr_assert_eq(tids[2], 43);
	cr_assert_eq(pms_tasks__of_process(99, &tids, &nr), -ESRCH, "no task directory: gone");
	cr_assert_eq(pms_tasks__of_process(12345, &tids, &nr), -ESRCH);
	cr_assert_eq(nr, 3, "failures append nothing");
	free(tids);
	tids = NULL;
	nr = 0;
	cr_assert_eq(pms_tasks__all(&tids, &nr), 0);
	cr_assert_eq(nr, 4, "40's three and 7's one");
	free(tids);
}

Test(util_tasks, alive_zombie_and_comm, .init = setup, .fini = teardown)
{
	char *c;

	cr_assert(pms_task__alive(40, 40), "comm with ') ' inside still parses");
	cr_assert(pms_task__alive(40, 43));
	cr_assert_not(pms_task__alive(40, 41), "a zombie thread runs no more");
	cr_assert_not(pms_task__alive(7, 7));
	cr_assert_not(pms_task__alive(12345, 12345));
	c = pms_task__comm(40);
	cr_assert_str_eq(c, "demo");
	free(c);
	cr_assert_null(pms_task__comm(12345));
}

Test(util_tasks, this_process)
{
	pid_t *tids = NULL;
	size_t nr = 0;

	cr_assert_eq(pms_tasks__of_process(getpid(), &tids, &nr), 0);
	cr_assert_geq(nr, 1);
	cr_assert_eq(tids[0], getpid(), "the main thread has the lowest tid");
	cr_assert(pms_task__alive(getpid(), getpid()));
	free(tids);
}

Test(util_tasks, cpu_times_and_users, .init = setup, .fini = teardown)
{
	long hz = sysconf(_SC_CLK_TCK);
	uint64_t ns = 0, busy = 0, all = 0;
	pid_t *pids = NULL;
	size_t nr = 0;

	/* after "(comm)": state, 10 fields, then utime 250 and stime 50 ticks; comm holds ") " */
	put("50/stat", "50 (a) b) S 1 50 50 0 -1 4194560 100 0 0 0 250 50 0 0 20 0 1 0 100 0 0");
	put("50/status", "Name:\ta\nUmask:\t0022\nState:\tS\nUid:\t1000\t1000\t1000\t1000\n");
	put("51/status", "Name:\tb\nUid:\t0\t0\t0\t0\n");
	put("52/status", "Name:\tc\nUid:\t1000\t1000\t1000\t1000\n");
	put("stat", "cpu  100 20 30 400 50 5 5 0 0 0\ncpu0 1 2 3 4 5 6 7 8 9 10\n");
	cr_assert_eq(pms_process__cpu_ns(50, &ns), 0);
	cr_assert_eq(ns, 300ull * (1000000000ull / (uint64_t)hz));
	cr_assert_eq(pms_process__cpu_ns(404, &ns), -ESRCH);
	cr_assert_eq(pms_system__cpu_ns(&busy, &all), 0);
	cr_assert_eq(busy, 160ull * (1000000000ull / (uint64_t)hz), "user+nice+system+irq+softirq+steal");
	cr_assert_eq(all, 610ull * (1000000000ull / (uint64_t)hz), "and idle+iowait");
	cr_assert_eq(pms_processes__of_user(1000, &pids, &nr), 0);
	cr_assert_eq(nr, 2);
	cr_assert_eq(pids[0], 50);
	cr_assert_eq(pids[1], 52);
	cr_assert_eq(pms_processes__of_user(4242, &pids, &nr), -ESRCH);
	free(pids);
}
