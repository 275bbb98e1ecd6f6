// SPDX-License-Identifier: MIT
// What the public API's files share: options structs, event strings, frames.
#include <errno.h>
#include <string.h>

#include "api/api_priv.h"
#include "util/print.h"
#include "util/strbuf.h"

int pms_api__copy_opts(void *dst, size_t dst_size, const void *src)
{
	size_t sz;

	memset(dst, 0, dst_size);
	if (!src)
		return 0;
	memcpy(&sz, src, sizeof(sz));
	if (sz < sizeof(size_t) || sz > dst_size)
		return -EINVAL;
	memcpy(dst, src, sz);
	return 0;
}

int pms_api__parse_events(const char *events, struct pms_evlist *list, struct pms_event_ctx *ctx)
{
	struct pms_parse_error perr = { 0 };
	int err = pms_evlist__parse(list, ctx, events, &perr);

	if (err) {
		struct strbuf sb = STRBUF_INIT;

		pms_parse_error__format(&perr, events, &sb);
		pr_warn("%s", sb.buf ? sb.buf : perr.msg);
		strbuf_release(&sb);
	}
	return err;
}

void pms_api__frame(const struct pms_resolved *r, uint64_t ip, enum pms_sample_frame_kind kind,
		    bool return_address, struct pms_sample_frame *out)
{
	*out = (struct pms_sample_frame){
		.ip = ip,
		.symbol = r->status == PMS_RES_OK ? r->sym : NULL,
		.symbol_offset = r->status == PMS_RES_OK ? r->sym_off : 0,
		.object = r->dso ? r->dso : "[unknown]",
		.kind = kind,
		.return_address = return_address,
	};
}
