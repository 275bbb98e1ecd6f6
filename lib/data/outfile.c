// SPDX-License-Identifier: MIT
// A recording's output file: a temporary name until the recording starts, then perf's .old rotation and a rename.
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "data/outfile.h"

int pms_data_outfile__create(struct pms_data_outfile *o, const char *path)
{
	const char *slash = strrchr(path, '/');
	struct stat st;
	int err;

	memset(o, 0, sizeof(*o));
	o->fd = -1;
	if (!*path)
		return -ENOENT;
	o->path = strdup(path);
	if (!o->path)
		return -ENOMEM;
	if (!stat(path, &st) && !S_ISREG(st.st_mode)) {
		if (S_ISDIR(st.st_mode)) {
			err = -EISDIR;
			goto fail;
		}
		/* /dev/null, a FIFO: nothing to protect or rotate, write to it as it is */
		o->fd = open(path, O_RDWR | O_CLOEXEC);
		if (o->fd < 0) {
			err = -errno;
			goto fail;
		}
		return 0;
	}
	/* refuse now what would make the rotation fail once the recording runs (perf's --dir leftovers) */
	if (!stat(path, &st) && st.st_size > 0) {
		char *old;
		struct stat ost;
		bool blocked;

		if (asprintf(&old, "%s.old", path) < 0) {
			err = -ENOMEM;
			goto fail;
		}
		blocked = !lstat(old, &ost) && S_ISDIR(ost.st_mode);
		free(old);
		if (blocked) {
			err = -ENOTEMPTY;
			goto fail;
		}
	}
	/* a hidden name beside the final one: rename() needs the same file system */
	if (asprintf(&o->tmp, "%.*s.%s.XXXXXX", slash ? (int)(slash - path + 1) : 0, path, slash ? slash + 1 : path) <
	    0) {
		o->tmp = NULL;
		err = -ENOMEM;
		goto fail;
	}
	o->fd = mkostemp(o->tmp, O_CLOEXEC);
	if (o->fd < 0) {
		err = -errno;
		goto fail;
	}
	return 0;
fail:
	free(o->tmp);
	free(o->path);
	memset(o, 0, sizeof(*o));
	o->fd = -1;
	return err;
}

/* <path>.old := <path>, keeping <path> where the file system allows hard links. */
static int rotate(const char *path, const char *old, bool *renamed)
{
	*renamed = false;
	if (unlink(old) && errno != ENOENT)
		return -errno;
	if (!link(path, old))
		return 0;
	if (errno != EPERM && errno != EOPNOTSUPP && errno != EMLINK && errno != ENOSYS)
		return -errno;
	if (rename(path, old))
		return -errno;
	*renamed = true;
	return 0;
}

int pms_data_outfile__commit(struct pms_data_outfile *o, bool *rotated)
{
	struct stat st;
	char *old = NULL;
	bool renamed = false;
	int err = 0;

	if (rotated)
		*rotated = false;
	if (!o->tmp)
		return 0;
	/* perf rotates a previous file only when it has something in it */
	if (!stat(o->path, &st) && st.st_size > 0) {
		if (asprintf(&old, "%s.old", o->path) < 0)
			return -ENOMEM;
		err = rotate(o->path, old, &renamed);
		if (err) {
			free(old);
			return err;
		}
		if (rotated)
			*rotated = true;
	}
	if (rename(o->tmp, o->path)) {
		err = -errno;
		/* put the previous file back where it was */
		if (renamed)
			rename(old, o->path);
		free(old);
		return err;
	}
	free(old);
	free(o->tmp);
	o->tmp = NULL;
	return 0;
}

void pms_data_outfile__abort(struct pms_data_outfile *o)
{
	if (!o->path)
		return; /* never created (a zeroed struct's fd 0 is not ours) */
	if (o->tmp) {
		unlink(o->tmp);
		free(o->tmp);
		o->tmp = NULL;
	}
	if (o->fd >= 0)
		close(o->fd);
	o->fd = -1;
}

void pms_data_outfile__release(struct pms_data_outfile *o)
{
	if (!o->path)
		return;
	pms_data_outfile__abort(o);
	free(o->path);
	o->path = NULL;
}
