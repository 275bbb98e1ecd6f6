// SPDX-License-Identifier: MIT
// The held-before-exec workload: release, exec errors, statuses, abort, the child hook.
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util/workload.h"

static struct pms_workload run_to_end(char *const argv[], int *start_err)
{
	struct pms_workload w;

	cr_assert_eq(pms_workload__fork(&w, argv, NULL), 0);
	cr_assert_gt(w.pid, 0);
	*start_err = pms_workload__start(&w);
	cr_assert(pms_workload__reap(&w, true));
	pms_workload__release(&w);
	return w;
}

Test(workload, exit_codes_as_a_shell_reports_them)
{
	char *ok[] = { "true", NULL }, *three[] = { "sh", "-c", "exit 3", NULL },
	     *killed[] = { "sh", "-c", "kill -9 $$", NULL };
	struct pms_workload w;
	int e;

	w = run_to_end(ok, &e);
	cr_assert_eq(e, 0);
	cr_assert_eq(pms_workload__exit_code(&w), 0);
	w = run_to_end(three, &e);
	cr_assert_eq(e, 0);
	cr_assert_eq(pms_workload__exit_code(&w), 3);
	w = run_to_end(killed, &e);
	cr_assert_eq(e, 0);
	cr_assert_eq(pms_workload__exit_code(&w), 128 + SIGKILL);
	cr_assert_geq(w.rusage.ru_utime.tv_sec, 0);
}

Test(workload, exec_errors_come_back_as_errno)
{
	char *missing[] = { "pms-no-such-command-here", NULL }, *dir[] = { "/", NULL };
	struct pms_workload w;
	int e;

	w = run_to_end(missing, &e);
	cr_assert_eq(e, -ENOENT);
	cr_assert_eq(pms_workload__exit_code(&w), 127);
	w = run_to_end(dir, &e);
	cr_assert_eq(e, -EACCES);
	cr_assert_eq(pms_workload__exit_code(&w), 126);
}

Test(workload, nothing_runs_before_start_and_abort_kills_it)
{
	char path[] = "/tmp/pms-workload-XXXXXX";
	int fd = mkstemp(path);
	char script[256], *argv[] = { "sh", "-c", script, NULL };
	struct pms_workload w;
	struct stat st;

	cr_assert_geq(fd, 0);
	close(fd);
	unlink(path);
	snprintf(script, sizeof(script), "echo ran > %s", path);
	cr_assert_eq(pms_workload__fork(&w, argv, NULL), 0);
	usleep(20000);
	cr_assert_neq(stat(path, &st), 0, "the child ran before it was released");
	pms_workload__abort(&w);
	cr_assert(w.exited);
	cr_assert(WIFSIGNALED(w.status) && WTERMSIG(w.status) == SIGKILL);
	cr_assert_neq(stat(path, &st), 0);
	cr_assert_eq(w.go_fd, -1);
	cr_assert_eq(w.err_fd, -1);
	cr_assert_eq(pms_workload__start(&w), -EINVAL);
}

static int hook_fd = -1;

static void hook(void)
{
	if (write(hook_fd, "h", 1) < 0)
		_exit(99);
}

Test(workload, child_hook_and_stdout_to_stderr)
{
	int hp[2], errp[2], saved;
	char *argv[] = { "sh", "-c", "echo to-stdout", NULL };
	struct pms_workload_opts o = { .sz = sizeof(o), .stdout_to_stderr = true, .in_child = hook };
	struct pms_workload w;
	char buf[64] = { 0 };
	ssize_t n;

	cr_assert_eq(pipe(hp), 0);
	cr_assert_eq(pipe(errp), 0);
	hook_fd = hp[1];
	saved = dup(STDERR_FILENO);
	dup2(errp[1], STDERR_FILENO);
	cr_assert_eq(pms_workload__fork(&w, argv, &o), 0);
	dup2(saved, STDERR_FILENO);
	close(errp[1]);
	close(hp[1]);
	cr_assert_eq(read(hp[0], buf, 1), 1);
	cr_assert_eq(buf[0], 'h');
	cr_assert_eq(pms_workload__start(&w), 0);
	cr_assert_geq(w.pidfd, 100, "pidfd %d: kept out of the low numbers", w.pidfd);
	n = read(errp[0], buf, sizeof(buf) - 1);
	cr_assert_gt(n, 0);
	buf[n] = 0;
	cr_assert_str_eq(buf, "to-stdout\n");
	cr_assert(pms_workload__reap(&w, true));
	cr_assert_eq(pms_workload__exit_code(&w), 0);
	pms_workload__release(&w);
	cr_assert_eq(w.pidfd, -1);
}

Test(workload, runnable_is_execvp_lookup)
{
	char dir[] = "/tmp/pms-runnable-XXXXXX", file[300];
	int fd;

	cr_assert_eq(pms_workload__runnable("sh"), 0);
	cr_assert_eq(pms_workload__runnable("/bin/sh"), 0);
	cr_assert_eq(pms_workload__runnable("pms-no-such-command-here"), -ENOENT);
	cr_assert_eq(pms_workload__runnable("/nonexistent/sh"), -ENOENT);
	cr_assert_eq(pms_workload__runnable("/"), -EACCES);
	cr_assert_not_null(mkdtemp(dir));
	snprintf(file, sizeof(file), "%s/plain", dir);
	fd = open(file, O_CREAT | O_WRONLY, 0644);
	cr_assert_geq(fd, 0);
	close(fd);
	/* no x bit at all: not runnable, even for root */
	cr_assert_eq(pms_workload__runnable(file), -EACCES);
	unlink(file);
	rmdir(dir);
}

Test(workload, refuses_an_empty_command)
{
	char *argv[] = { NULL };
	struct pms_workload w;

	cr_assert_eq(pms_workload__fork(&w, argv, NULL), -EINVAL);
	cr_assert_eq(w.pid, -1);
	pms_workload__release(&w);
}
