/* SPDX-License-Identifier: MIT */
/*
 * What every command that reads a perf.data file says when it cannot open
 * it: one wording, so `report`, `script`, `export`, ... fail alike.
 */
#ifndef PMS_CLI_DATA_INPUT_H
#define PMS_CLI_DATA_INPUT_H

#include "aggregate/session.h"
#include "data/reader.h"

/*
 * Print the error for err (-errno from opening path; derr as the reader
 * filled it). how_to_get_one, when not NULL, ends the missing-file message
 * in parentheses ("record one with `pmuscope record`, or name it with -i").
 */
void data_input__open_error(const char *path, int err, const struct pms_data_error *derr,
			    const char *how_to_get_one);

/*
 * Open path as a session, with --symfs and --kallsyms of the command line
 * set in so. On failure the error is printed (as data_input__open_error())
 * and -errno returned.
 */
int data_input__open_session(struct pms_session **out, const char *path, struct pms_session_opts *so,
			     const char *how_to_get_one);

/*
 * perf's ownership check before reading path: a file that neither the
 * caller nor root owns is refused unless force (-f). 0, or -1 with the
 * error printed. A file that cannot be looked at is left to the opener.
 */
int data_input__check_owner(const char *path, bool force);

/* The usual how_to_get_one of a command that takes -i. */
#define DATA_INPUT_RECORD_OR_I "record one with `pmuscope record`, or name it with -i"

#endif
