/* SPDX-License-Identifier: MIT */
/*
 * The command a measurement runs (`stat -- cmd`, `record -- cmd`): forked
 * first, held before exec while the counters are opened on its pid (with
 * enable_on_exec they start at its exec, not at our fork), then released.
 * What exec said comes back through a close-on-exec pipe, so "no such
 * command" is an error we can word, not an exit status to guess from.
 *
 * Not thread-safe; one workload per struct. No function prints or exits
 * (the forked child leaves with _exit: 127 if the command was not found,
 * 126 if it could not run, as a shell does).
 */
#ifndef PMS_UTIL_WORKLOAD_H
#define PMS_UTIL_WORKLOAD_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/resource.h>
#include <sys/types.h>

struct pms_workload {
	pid_t pid;              /* > 0 once forked */
	int pidfd;              /* after start: readable when the child exits; -1 without pidfd_open */
	bool exited;            /* reaped: status and rusage are valid */
	int status;             /* wait(2) status */
	struct rusage rusage;   /* the child's own, once reaped */
	int go_fd, err_fd;      /* private: the release and exec-error pipes */
};

struct pms_workload_opts {
	size_t sz;              /* sizeof(struct pms_workload_opts) */
	/* The child's stdout goes to stderr (ours is the data stream, as with record -o -). */
	bool stdout_to_stderr;
	/*
	 * Called in the child right after fork, before it waits to be released:
	 * e.g. to put back signal dispositions the parent changed. SIGINT,
	 * SIGTERM and SIGHUP are blocked until after it, so a handler of the
	 * parent's never runs in the child. Async-signal-safe calls only.
	 */
	void (*in_child)(void);
};

/*
 * execvp's lookup without running anything, so a typo costs no kernel work
 * before the fork: 0 if argv0 would run, else -ENOENT or -EACCES.
 */
int pms_workload__runnable(const char *argv0);

/* Fork the child, held before exec. 0, or -errno (w->pid stays -1). */
int pms_workload__fork(struct pms_workload *w, char *const argv[], const struct pms_workload_opts *opts);
/*
 * Release the child: 0 once it has exec'ed, else -errno of the failed exec
 * (the child has then exited; reap it). Never raises SIGPIPE in the caller.
 */
int pms_workload__start(struct pms_workload *w);
/* Reap the child if it has exited (block: wait for it). True once reaped. */
bool pms_workload__reap(struct pms_workload *w, bool block);
/* Kill a child that was never released (the counters failed) and reap it. */
void pms_workload__abort(struct pms_workload *w);
/* Close what is left open. The child, if still running, is left alone. */
void pms_workload__release(struct pms_workload *w);
/* The child's status as a shell reports it: its exit code, or 128 + signal. */
int pms_workload__exit_code(const struct pms_workload *w);

#endif
