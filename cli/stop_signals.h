/* SPDX-License-Identifier: MIT */
/*
 * SIGINT, SIGTERM and SIGHUP end a stat or record run cleanly, even when
 * they were ignored on entry (a background job of a script gets SIGINT
 * ignored, and `pmuscope record ... & kill -INT $!` must still stop it, as
 * with perf). The workload, though, starts with the dispositions pmuscope
 * inherited: under nohup it must ignore SIGHUP as it would without us.
 *
 * A stop signal sent with kill(2) is passed on to the workload (a
 * terminal's ^C reached it already, being in our process group); the third
 * stop request kills it, so a workload that ignores them cannot hold us.
 */
#ifndef PMS_CLI_STOP_SIGNALS_H
#define PMS_CLI_STOP_SIGNALS_H

#include <signal.h>
#include <stdbool.h>

#include "util/workload.h"

/* Remember the inherited dispositions, then catch the stop signals with handler. */
void stop_signals__install(void (*handler)(int, siginfo_t *, void *));

/*
 * For a command without a workload (profile, top): catch the stop signals
 * and set stop_signals__requested, which its loop reads.
 */
extern volatile sig_atomic_t stop_signals__requested;
void stop_signals__install_flag(void);

/* From the handler: pass sig on to the workload as described above (requests counts this one). */
void stop_signals__forward(int sig, const siginfo_t *si, int requests);

/*
 * The workload's life with the signals above: forked with the inherited
 * dispositions, forwarded to until it is reaped. The same returns as
 * pms_workload__fork / __reap; abort kills a child never released.
 */
int stop_signals__fork_workload(struct pms_workload *w, char *const argv[], bool stdout_to_stderr);
bool stop_signals__reap_workload(struct pms_workload *w, bool block);
void stop_signals__abort_workload(struct pms_workload *w);

#endif
