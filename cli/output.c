// SPDX-License-Identifier: MIT
// Writing a command's output: finished documents to -o FILE or stdout, --format's exporters, key/value lines.
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"
#include "output.h"
#include "export/export.h"
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

const char *output__format_help(void)
{
	static char help[256];

	if (!help[0]) {
		struct strbuf sb = STRBUF_INIT;

		pms_exporter__names(&sb);
		snprintf(help, sizeof(help), "%s (default %s)", strbuf_str(&sb), pms_exporter__at(0)->name);
		strbuf_release(&sb);
	}
	return help;
}

const struct pms_exporter *output__format(const struct pms_cmd *cmd, const char *name)
{
	const struct pms_exporter *e = pms_exporter__find(name ? name : pms_exporter__at(0)->name);
	struct strbuf sb = STRBUF_INIT;

	if (e)
		return e;
	pms_exporter__names(&sb);
	usage_error(cmd, "--format: want %s, not '%s'", strbuf_str(&sb), name);
}

void output__kv(int key_width, const char *key, const char *fmt, ...)
{
	va_list ap;

	printf("  %-*s ", key_width, key);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}
