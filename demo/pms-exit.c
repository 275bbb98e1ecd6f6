// SPDX-License-Identifier: MIT
// Ends in a chosen way, to check that a tool running it passes the status on.
// Usage: pms-exit [-w ms] [-s signal | code]: sleep ms first (default 0), then
// kill itself with the signal or exit with the code (default 0).
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static long num(const char *s)
{
	char *end;
	long v = strtol(s, &end, 10);

	if (end == s || *end || v < 0) {
		fprintf(stderr, "pms-exit: bad number '%s'\n", s);
		exit(2);
	}
	return v;
}

int main(int argc, char **argv)
{
	long wait_ms = 0, sig = 0, code = 0;
	int i;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-w") && i + 1 < argc)
			wait_ms = num(argv[++i]);
		else if (!strcmp(argv[i], "-s") && i + 1 < argc)
			sig = num(argv[++i]);
		else
			code = num(argv[i]);
	}
	if (wait_ms) {
		struct timespec ts = { wait_ms / 1000, (wait_ms % 1000) * 1000000L };

		/* restart on EINTR would hide a signal test's intent: stop early */
		nanosleep(&ts, NULL);
	}
	if (sig) {
		signal((int)sig, SIG_DFL);
		raise((int)sig);
		/* a signal that does not kill (e.g. SIGCHLD): say so */
		fprintf(stderr, "pms-exit: still alive after signal %ld\n", sig);
		return 1;
	}
	return (int)code;
}
