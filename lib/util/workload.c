// SPDX-License-Identifier: MIT
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "util/fileio.h"
#include "util/workload.h"

/* A shell's statuses for a command it could not find or not run. */
#define CHILD_NOT_FOUND 127
#define CHILD_CANNOT_RUN 126

int pms_workload__runnable(const char *argv0)
{
	const char *path = getenv("PATH");
	int err = -ENOENT;
	struct stat st;

	if (strchr(argv0, '/')) {
		if (stat(argv0, &st))
			return -errno;
		if (S_ISDIR(st.st_mode) || access(argv0, X_OK))
			return -EACCES;
		return 0;
	}
	if (!path)
		path = "/usr/local/bin:/bin:/usr/bin";
	while (*path) {
		const char *colon = strchr(path, ':');
		size_t len = colon ? (size_t)(colon - path) : strlen(path);
		char full[PATH_MAX];

		if (snprintf(full, sizeof(full), "%.*s/%s", (int)len, len ? path : ".", argv0) < (int)sizeof(full) &&
		    stat(full, &st) == 0) {
			if (!S_ISDIR(st.st_mode) && access(full, X_OK) == 0)
				return 0;
			err = -EACCES;
		}
		if (!colon)
			break;
		path = colon + 1;
	}
	return err;
}

static void child_run(int go_fd, int err_fd, char *const argv[], bool stdout_to_stderr)
{
	char c;
	ssize_t n;
	int e;

	if (stdout_to_stderr && dup2(STDERR_FILENO, STDOUT_FILENO) < 0)
		_exit(CHILD_CANNOT_RUN);
	do
		n = read(go_fd, &c, 1);
	while (n < 0 && errno == EINTR);
	if (n != 1)
		_exit(CHILD_NOT_FOUND); /* the parent gave up before releasing us */
	execvp(argv[0], argv);
	e = errno;
	if (write(err_fd, &e, sizeof(e)) < 0)
		_exit(CHILD_CANNOT_RUN);
	_exit(e == ENOENT ? CHILD_NOT_FOUND : CHILD_CANNOT_RUN);
}

int pms_workload__fork(struct pms_workload *w, char *const argv[], const struct pms_workload_opts *opts)
{
	bool to_stderr = opts && opts->sz > offsetof(struct pms_workload_opts, stdout_to_stderr) &&
			 opts->stdout_to_stderr;
	void (*in_child)(void) = opts && opts->sz > offsetof(struct pms_workload_opts, in_child) ?
				 opts->in_child : NULL;
	sigset_t stop_set, old_set;
	int go[2], er[2], err;

	memset(w, 0, sizeof(*w));
	w->pid = -1;
	w->pidfd = w->go_fd = w->err_fd = -1;
	if (!argv || !argv[0])
		return -EINVAL;
	if (pipe2(go, O_CLOEXEC))
		return -errno;
	if (pipe2(er, O_CLOEXEC)) {
		err = -errno;
		close(go[0]);
		close(go[1]);
		return err;
	}
	/*
	 * Stop signals stay blocked across fork so none reaches the child's
	 * copy of the parent's handler: once in_child has put back the
	 * dispositions, a pending ^C acts on the child as it would without us.
	 */
	sigemptyset(&stop_set);
	sigaddset(&stop_set, SIGINT);
	sigaddset(&stop_set, SIGTERM);
	sigaddset(&stop_set, SIGHUP);
	sigprocmask(SIG_BLOCK, &stop_set, &old_set);
	w->pid = fork();
	if (w->pid == 0) {
		if (in_child)
			in_child();
		sigprocmask(SIG_SETMASK, &old_set, NULL);
		close(go[1]);
		close(er[0]);
		child_run(go[0], er[1], argv, to_stderr);
	}
	err = w->pid < 0 ? -errno : 0;
	close(go[0]);
	close(er[1]);
	if (err) {
		close(go[1]);
		close(er[0]);
		w->pid = -1;
	} else {
		w->go_fd = pms_fd__move_high(go[1]);
		w->err_fd = pms_fd__move_high(er[0]);
	}
	sigprocmask(SIG_SETMASK, &old_set, NULL);
	return err;
}

int pms_workload__start(struct pms_workload *w)
{
	sigset_t pipe_set, old_set;
	struct timespec zero = { 0, 0 };
	ssize_t n;
	int e = 0;

	if (w->pid <= 0 || w->go_fd < 0)
		return -EINVAL;
	/* a child killed before exec (a ^C right now) must not SIGPIPE us */
	sigemptyset(&pipe_set);
	sigaddset(&pipe_set, SIGPIPE);
	sigprocmask(SIG_BLOCK, &pipe_set, &old_set);
	if (write(w->go_fd, "g", 1) != 1 && errno == EPIPE)
		sigtimedwait(&pipe_set, NULL, &zero);
	sigprocmask(SIG_SETMASK, &old_set, NULL);
	close(w->go_fd);
	w->go_fd = -1;
	do
		n = read(w->err_fd, &e, sizeof(e));
	while (n < 0 && errno == EINTR);
	close(w->err_fd);
	w->err_fd = -1;
	if (n == (ssize_t)sizeof(e))
		return -(e ? e : ENOEXEC);
	w->pidfd = (int)syscall(SYS_pidfd_open, w->pid, 0);
	if (w->pidfd >= 0)
		w->pidfd = pms_fd__move_high(w->pidfd);
	return 0;
}

bool pms_workload__reap(struct pms_workload *w, bool block)
{
	int st;
	pid_t r;

	if (w->exited || w->pid <= 0)
		return w->exited;
	do
		r = wait4(w->pid, &st, block ? 0 : WNOHANG, &w->rusage);
	while (r < 0 && errno == EINTR && block);
	if (r == w->pid) {
		w->exited = true;
		w->status = st;
	}
	return w->exited;
}

void pms_workload__abort(struct pms_workload *w)
{
	if (w->pid <= 0)
		return;
	/*
	 * Kill before closing the release pipe: a child still waiting on it
	 * reads EOF at the close and would exit on its own, racing the kill.
	 */
	if (!w->exited)
		kill(w->pid, SIGKILL);
	if (w->go_fd >= 0)
		close(w->go_fd);
	w->go_fd = -1;
	pms_workload__reap(w, true);
	pms_workload__release(w);
}

void pms_workload__release(struct pms_workload *w)
{
	int *fds[] = { &w->go_fd, &w->err_fd, &w->pidfd };

	for (size_t i = 0; i < sizeof(fds) / sizeof(fds[0]); i++) {
		if (*fds[i] >= 0)
			close(*fds[i]);
		*fds[i] = -1;
	}
}

int pms_workload__exit_code(const struct pms_workload *w)
{
	if (WIFEXITED(w->status))
		return WEXITSTATUS(w->status);
	if (WIFSIGNALED(w->status))
		return 128 + WTERMSIG(w->status);
	return -1;
}
