// SPDX-License-Identifier: MIT
// Parsing -e strings for the CLI: error rendering and tracefs mounting on demand.
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"
#include "events.h"
#include "util/strbuf.h"
#include "util/sysfs.h"

static void print_parse_error(const struct pms_parse_error *perr, const char *str)
{
	struct strbuf sb = STRBUF_INIT;

	pms_parse_error__format(perr, str, &sb);
	fflush(stdout);
	fputs(strbuf_str(&sb), stderr);
	if (!sb.len || sb.buf[sb.len - 1] != '\n')
		fputc('\n', stderr);
	strbuf_release(&sb);
}

/* Only a string that can name a tracepoint is worth a mount. */
static bool may_need_tracefs(const char *str)
{
	return strchr(str, ':') && !pms_tracefs_root() && geteuid() == 0;
}

int cli_parse_events(struct pms_evlist *list, struct pms_event_ctx *ctx, const char *str)
{
	struct pms_parse_error perr;
	int ret;

	memset(&perr, 0, sizeof(perr));
	ret = pms_evlist__parse(list, ctx, str, &perr);
	if (ret == -ENOENT && may_need_tracefs(str)) {
		int err = pms_tracefs__mount();

		if (!err && pms_tracefs_root()) {
			note("tracefs was not mounted: mounted it on /sys/kernel/tracing");
			memset(&perr, 0, sizeof(perr));
			ret = pms_evlist__parse(list, ctx, str, &perr);
		}
	}
	if (ret)
		print_parse_error(&perr, str);
	return ret;
}
