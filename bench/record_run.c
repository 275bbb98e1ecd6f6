// SPDX-License-Identifier: MIT
// Runs a command and writes its wall time and CPU time (itself + everything it reaped) to a file, for bench/record.sh.
// Usage: record_run OUT -- cmd args...   OUT gets "wall_ns user_us sys_us"; exit status is the command's.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static long long tv_us(struct timeval tv)
{
	return (long long)tv.tv_sec * 1000000LL + tv.tv_usec;
}

int main(int argc, char **argv)
{
	struct rusage ru, self;
	long long t0, t1;
	int status;
	pid_t pid;
	FILE *f;

	if (argc < 4 || strcmp(argv[2], "--")) {
		fprintf(stderr, "usage: record_run OUT -- cmd args...\n");
		return 2;
	}
	t0 = now_ns();
	pid = fork();
	if (pid < 0)
		return 1;
	if (pid == 0) {
		execvp(argv[3], argv + 3);
		_exit(127);
	}
	if (wait4(pid, &status, 0, &ru) != pid)
		return 1;
	t1 = now_ns();
	getrusage(RUSAGE_SELF, &self);
	f = fopen(argv[1], "w");
	if (!f)
		return 1;
	fprintf(f, "%lld %lld %lld\n", t1 - t0, tv_us(ru.ru_utime) + tv_us(self.ru_utime),
		tv_us(ru.ru_stime) + tv_us(self.ru_stime));
	fclose(f);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
