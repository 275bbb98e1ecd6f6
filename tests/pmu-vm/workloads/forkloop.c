// SPDX-License-Identifier: MIT
// Guest workload `forkloop N K`: forks K children, each running N iterations of the loop of
// loop.h; the parent only waits. So the parent's own count does not depend on N and each
// child's is 4*N plus a constant: inherited counting is exactly testable.
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>
#include "loop.h"

int main(int argc, char **argv)
{
	unsigned long n, k;
	int status, bad = 0;

	if (argc != 3)
		return 2;
	n = strtoul(argv[1], NULL, 10);
	k = strtoul(argv[2], NULL, 10);
	for (unsigned long i = 0; i < k; i++) {
		pid_t pid = fork();

		if (pid < 0)
			return 1;
		if (pid == 0)
			_exit(vm_loop(n) == 1 ? 3 : 0);
		/* One child at a time: the same order of events on every run. */
		if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
			bad = 1;
	}
	return bad;
}
