// SPDX-License-Identifier: MIT
#include <string.h>

#include "stop_signals.h"

static const int stop_sigs[] = { SIGINT, SIGTERM, SIGHUP };
static struct sigaction inherited[sizeof(stop_sigs) / sizeof(stop_sigs[0])];
static int installed;

void stop_signals__install(void (*handler)(int, siginfo_t *, void *))
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = handler;
	sa.sa_flags = SA_SIGINFO; /* no SA_RESTART: poll() must wake up */
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(stop_sigs) / sizeof(stop_sigs[0]); i++) {
		if (sigaction(stop_sigs[i], NULL, &inherited[i]) != 0)
			inherited[i].sa_handler = SIG_DFL;
		sigaction(stop_sigs[i], &sa, NULL);
	}
	installed = 1;
}

void stop_signals__restore_in_child(void)
{
	/* Forked before the handlers went in: the dispositions are still the inherited ones. */
	if (!installed)
		return;
	for (size_t i = 0; i < sizeof(stop_sigs) / sizeof(stop_sigs[0]); i++)
		signal(stop_sigs[i], inherited[i].sa_handler == SIG_IGN ? SIG_IGN : SIG_DFL);
}
