/* SPDX-License-Identifier: MIT */
/*
 * SIGINT, SIGTERM and SIGHUP end a stat or record run cleanly, even when
 * they were ignored on entry (a background job of a script gets SIGINT
 * ignored, and `pmuscope record ... & kill -INT $!` must still stop it, as
 * with perf). The workload, though, starts with the dispositions pmuscope
 * inherited: under nohup it must ignore SIGHUP as it would without us.
 */
#ifndef PMS_CLI_STOP_SIGNALS_H
#define PMS_CLI_STOP_SIGNALS_H

#include <signal.h>

/* Remember the inherited dispositions, then catch the stop signals with handler. */
void stop_signals__install(void (*handler)(int, siginfo_t *, void *));

/* In a forked workload before exec: the stop signals back to what pmuscope inherited. */
void stop_signals__restore_in_child(void);

#endif
