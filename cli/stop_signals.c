// SPDX-License-Identifier: MIT
// Stop signals that end a run cleanly: forwarded to the workload, or a flag for commands without one.
#include <string.h>

#include "stop_signals.h"

static const int stop_sigs[] = { SIGINT, SIGTERM, SIGHUP };
static struct sigaction inherited[sizeof(stop_sigs) / sizeof(stop_sigs[0])];
static int installed;
static volatile sig_atomic_t forward_pid;

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

void stop_signals__forward(int sig, const siginfo_t *si, int requests)
{
	pid_t pid = (pid_t)forward_pid;

	if (pid <= 0)
		return;
	if (requests >= 3)
		kill(pid, SIGKILL);
	else if (si && si->si_code == SI_USER)
		kill(pid, sig);
}

/* In the forked workload, before exec: the stop signals back to what pmuscope inherited. */
static void restore_in_child(void)
{
	/* Forked before the handlers went in: the dispositions are still the inherited ones. */
	if (!installed)
		return;
	for (size_t i = 0; i < sizeof(stop_sigs) / sizeof(stop_sigs[0]); i++)
		signal(stop_sigs[i], inherited[i].sa_handler == SIG_IGN ? SIG_IGN : SIG_DFL);
}

int stop_signals__fork_workload(struct pms_workload *w, char *const argv[], bool stdout_to_stderr)
{
	struct pms_workload_opts o = {
		.sz = sizeof(o), .stdout_to_stderr = stdout_to_stderr, .in_child = restore_in_child,
	};
	int err = pms_workload__fork(w, argv, &o);

	if (!err)
		forward_pid = w->pid;
	return err;
}

bool stop_signals__reap_workload(struct pms_workload *w, bool block)
{
	bool reaped = pms_workload__reap(w, block);

	if (reaped && forward_pid == w->pid)
		forward_pid = 0;
	return reaped;
}

void stop_signals__abort_workload(struct pms_workload *w)
{
	pms_workload__abort(w);
	if (w->pid > 0 && forward_pid == w->pid)
		forward_pid = 0;
}

volatile sig_atomic_t stop_signals__requested;

static void set_requested(int sig, siginfo_t *si, void *uc)
{
	(void)sig, (void)si, (void)uc;
	stop_signals__requested = 1;
}

void stop_signals__install_flag(void)
{
	stop_signals__requested = 0;
	stop_signals__install(set_requested);
}
