// SPDX-License-Identifier: MIT
// Threads and processes from procfs: listing, liveness, names.
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/array.h"
#include "util/fileio.h"
#include "util/sysfs.h"
#include "util/tasks.h"

static int cmp_pid(const void *a, const void *b)
{
	pid_t x = *(const pid_t *)a, y = *(const pid_t *)b;

	return (x > y) - (x < y);
}

/* A directory entry that names a task: a positive decimal number. */
static bool task_name(const char *name, pid_t *out)
{
	uint64_t v;

	if (name[0] == '.' || pms_str__to_u64(name, &v) || v == 0 || v > INT_MAX)
		return false;
	*out = (pid_t)v;
	return true;
}

int pms_tasks__of_process(pid_t pid, pid_t **tids, size_t *nr)
{
	char path[PATH_MAX];
	size_t first = *nr, cap = *nr;
	struct dirent *de;
	DIR *d;
	int err = 0;

	if (pms_procfs__path(path, sizeof(path), "%d/task", (int)pid))
		return -ENAMETOOLONG;
	d = opendir(path);
	if (!d)
		return errno == ENOENT ? -ESRCH : -errno;
	while ((de = readdir(d))) {
		pid_t tid;

		if (!task_name(de->d_name, &tid))
			continue;
		if (pms_array__reserve(tids, &cap, *nr + 1, sizeof(**tids))) {
			err = -ENOMEM;
			break;
		}
		(*tids)[(*nr)++] = tid;
	}
	closedir(d);
	if (err)
		return err;
	qsort(*tids + first, *nr - first, sizeof(**tids), cmp_pid);
	return *nr > first ? 0 : -ESRCH;
}

int pms_tasks__all(pid_t **tids, size_t *nr)
{
	DIR *d = opendir(pms_procfs_root());
	size_t first = *nr;
	struct dirent *de;

	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		pid_t pid;

		if (!task_name(de->d_name, &pid))
			continue;
		if (pms_tasks__of_process(pid, tids, nr) == -ENOMEM) {
			closedir(d);
			return -ENOMEM;
		}
		/* a process that just exited is skipped */
	}
	closedir(d);
	return *nr > first ? 0 : -ESRCH;
}

bool pms_task__alive(pid_t pid, pid_t tid)
{
	char path[PATH_MAX], buf[512];
	const char *paren;
	int err;

	if (pid == tid)
		err = pms_procfs__path(path, sizeof(path), "%d/stat", (int)pid);
	else
		err = pms_procfs__path(path, sizeof(path), "%d/task/%d/stat", (int)pid, (int)tid);
	if (err || pms_file__read_str(path, buf, sizeof(buf)))
		return false;
	paren = strrchr(buf, ')'); /* comm may hold spaces and parentheses */
	return !(paren && paren[1] == ' ' && (paren[2] == 'Z' || paren[2] == 'X'));
}

char *pms_task__comm(pid_t tid)
{
	char path[PATH_MAX], buf[64];

	if (pms_procfs__path(path, sizeof(path), "%d/comm", (int)tid) || pms_file__read_str(path, buf, sizeof(buf)))
		return NULL;
	return strdup(buf);
}

/* clock ticks (USER_HZ) to ns */
static uint64_t ticks_ns(uint64_t ticks)
{
	long hz = sysconf(_SC_CLK_TCK);

	return ticks * (1000000000ull / (uint64_t)(hz > 0 ? hz : 100));
}

int pms_process__cpu_ns(pid_t pid, uint64_t *ns)
{
	char path[PATH_MAX], buf[1024];
	unsigned long long utime, stime;
	const char *p;
	int err;

	if (pms_procfs__path(path, sizeof(path), "%d/stat", (int)pid))
		return -ENAMETOOLONG;
	err = pms_file__read_str(path, buf, sizeof(buf));
	if (err)
		return err == -ENOENT ? -ESRCH : err;
	/* after "(comm)": state is field 3, utime and stime fields 14 and 15 */
	p = strrchr(buf, ')');
	if (!p || sscanf(p + 1, " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu", &utime, &stime) != 2)
		return -EINVAL;
	*ns = ticks_ns(utime + stime);
	return 0;
}

int pms_system__cpu_ns(uint64_t *busy_ns, uint64_t *all_ns)
{
	char path[PATH_MAX], buf[512];
	unsigned long long v[8] = { 0 };
	int n, err;

	if (pms_procfs__path(path, sizeof(path), "stat"))
		return -ENAMETOOLONG;
	err = pms_file__read_str(path, buf, sizeof(buf));
	if (err)
		return err;
	/* cpu  user nice system idle iowait irq softirq steal */
	n = sscanf(buf, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6],
		   &v[7]);
	if (n < 4)
		return -EINVAL;
	*busy_ns = ticks_ns(v[0] + v[1] + v[2] + v[5] + v[6] + v[7]);
	*all_ns = *busy_ns + ticks_ns(v[3] + v[4]);
	return 0;
}

int pms_processes__of_user(uid_t uid, pid_t **pids, size_t *nr)
{
	DIR *d = opendir(pms_procfs_root());
	size_t first = *nr, cap = *nr;
	struct dirent *de;
	int err = 0;

	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		char path[PATH_MAX], buf[4096];
		const char *line;
		unsigned long real;
		pid_t pid;

		if (!task_name(de->d_name, &pid) || pms_procfs__path(path, sizeof(path), "%d/status", (int)pid) ||
		    pms_file__read_str(path, buf, sizeof(buf)))
			continue;
		line = strstr(buf, "\nUid:");
		if (!line || sscanf(line + 5, "%lu", &real) != 1 || real != (unsigned long)uid)
			continue;
		if (pms_array__reserve(pids, &cap, *nr + 1, sizeof(**pids))) {
			err = -ENOMEM;
			break;
		}
		(*pids)[(*nr)++] = pid;
	}
	closedir(d);
	if (err)
		return err;
	qsort(*pids + first, *nr - first, sizeof(**pids), cmp_pid);
	return *nr > first ? 0 : -ESRCH;
}
