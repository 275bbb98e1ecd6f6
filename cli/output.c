// SPDX-License-Identifier: MIT
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"
#include "output.h"
#include "util/fileio.h"

int output__write(const char *path, const struct strbuf *sb)
{
	bool to_stdout = !path || !strcmp(path, "-");
	const char *data = sb->buf ? sb->buf : "";
	int err;

	if (to_stdout)
		err = fflush(stdout) ? -errno : pms_fd__write_all(STDOUT_FILENO, data, sb->len);
	else
		err = pms_file__write_all(path, data, sb->len);
	if (!err)
		return 0;
	error("cannot write '%s': %s", to_stdout ? "standard output" : path, strerror(-err));
	return -1;
}

void output__put(FILE *f, struct strbuf *sb)
{
	if (sb->oom)
		die("out of memory");
	if (sb->len)
		fwrite(sb->buf, 1, sb->len, f);
	strbuf_release(sb);
}
