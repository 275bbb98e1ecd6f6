/* SPDX-License-Identifier: MIT */
/*
 * The output file of a recording, replaced only once the recording has
 * really started: written under a temporary name in the same directory
 * from the first byte, then renamed into place by __commit() (the previous
 * file, when not empty, kept as <path>.old, as perf rotates it), while the
 * writer keeps the same fd. A recording that fails before (an event that
 * does not open, a command that does not exist) leaves the previous file
 * as it was.
 *
 * Invariants:
 *  - <path> always exists (when it existed): the old file is hard-linked to
 *    <path>.old and the new one renamed over <path> in one step; only
 *    where hard links are refused is the old file renamed instead, which
 *    leaves a moment without <path>.
 *  - A path that is not a regular file (/dev/null, a FIFO) is written in
 *    place, with no temporary name and no rotation; a directory is refused.
 *  - Nothing prints; 0 or -errno.
 */
#ifndef PMS_DATA_OUTFILE_H
#define PMS_DATA_OUTFILE_H

#include <stdbool.h>

struct pms_data_outfile {
	int fd;     /* write here from __create() on (owned) */
	char *path; /* the final name */
	char *tmp;  /* the temporary name until __commit(); NULL when writing in place */
};

/*
 * Open the output for path (mode 0600, as perf creates perf.data). -EISDIR
 * for a directory; -ENOTEMPTY when a non-empty path would have to be
 * rotated onto a directory called <path>.old.
 */
int pms_data_outfile__create(struct pms_data_outfile *o, const char *path);
/*
 * Put the output in place: rotate a non-empty previous <path> to
 * <path>.old (*rotated says so; optional), then rename the temporary file
 * to <path>. A second call does nothing. On failure the temporary file is
 * still there for __abort().
 */
int pms_data_outfile__commit(struct pms_data_outfile *o, bool *rotated);
/* Give up before __commit(): remove the temporary file; the previous <path> is untouched. Closes fd. */
void pms_data_outfile__abort(struct pms_data_outfile *o);
/* Close fd and free; an uncommitted temporary file is removed. Accepts a zeroed struct. */
void pms_data_outfile__release(struct pms_data_outfile *o);

#endif
