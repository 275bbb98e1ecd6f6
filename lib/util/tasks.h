/* SPDX-License-Identifier: MIT */
/*
 * Processes and threads as procfs shows them now (<procfs>/<pid>/task,
 * <pid>/stat, comm): the targets of `stat -p/-t/--per-thread` and
 * `record -p/-t`.
 *
 * Invariants: the procfs root is pms_procfs_root() (tests point it at a
 * fixture); a task that exits while it is listed is skipped, never an
 * error; a zombie counts as gone (it runs no more); 0 or -errno.
 */
#ifndef PMS_UTIL_TASKS_H
#define PMS_UTIL_TASKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/*
 * Append the threads of process pid, in ascending tid order, to *tids
 * (grown as needed; *nr counts them). -ESRCH if it has none (gone),
 * -ENOMEM, or the -errno of opening its task directory.
 */
int pms_tasks__of_process(pid_t pid, pid_t **tids, size_t *nr);
/* Append every thread of every process. -ESRCH if none could be listed. */
int pms_tasks__all(pid_t **tids, size_t *nr);
/* Thread tid of process pid (pid == tid for a process) still runs: listed and not a zombie. */
bool pms_task__alive(pid_t pid, pid_t tid);
/* Its comm, malloc()ed, or NULL (gone, or ENOMEM). */
char *pms_task__comm(pid_t tid);
/* CPU time process pid has used, user + system, every thread (<pid>/stat utime + stime). 0 or -errno. */
int pms_process__cpu_ns(pid_t pid, uint64_t *ns);
/* CPU time of the whole machine since boot (<procfs>/stat "cpu"): busy and all (busy + idle + iowait). */
int pms_system__cpu_ns(uint64_t *busy_ns, uint64_t *all_ns);
/* Every process whose real uid is uid, ascending. -ESRCH when it has none. */
int pms_processes__of_user(uid_t uid, pid_t **pids, size_t *nr);

#endif
