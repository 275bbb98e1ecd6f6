// SPDX-License-Identifier: MIT
// Opening a perf.data file the way every command that reads one does, with one wording when it cannot be opened.
#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd.h"
#include "data_input.h"
#include "symbol_opts.h"

void data_input__open_error(const char *path, int err, const struct pms_data_error *derr,
			    const char *how_to_get_one)
{
	const char *why = derr && derr->msg[0] ? derr->msg : NULL;

	if (err == -ENOENT && how_to_get_one)
		error("cannot open '%s': no such file (%s)", path, how_to_get_one);
	else if (err == -ENOENT)
		error("cannot open '%s': no such file", path);
	else if (err == -EINVAL && why && !strncmp(why, "not a perf.data file", 20))
		error("'%s': %s", path, why); /* the reader already said it */
	else if (err == -EINVAL)
		error("'%s' is not a perf.data file%s%s", path, why ? ": " : "", why ? why : "");
	else
		error("'%s': %s", path, why ? why : strerror(-err));
}

int data_input__open_session(struct pms_session **out, const char *path, struct pms_session_opts *so,
			     const char *how_to_get_one)
{
	struct pms_data_error derr;
	int err;

	memset(&derr, 0, sizeof(derr));
	symbol_opts__apply(so);
	err = pms_session__open(out, path, so, &derr);
	if (err)
		data_input__open_error(path, err, &derr, how_to_get_one);
	return err;
}

int data_input__check_owner(const char *path, bool force)
{
	struct stat st;

	/* perf's check: someone else's file is read only when asked (-f) */
	if (force || !strcmp(path, "-") || stat(path, &st) || !st.st_uid || st.st_uid == geteuid())
		return 0;
	return error("'%s' is not owned by you or root (read it anyway with -f)", path);
}
