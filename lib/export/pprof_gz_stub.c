// SPDX-License-Identifier: MIT
// gzip without zlib (PMS_NO_HOST_LIBS builds): stored deflate blocks, valid for every gzip reader, just not smaller.
#include <errno.h>
#include <stdint.h>

#include "export/gz.h"
#include "util/gzip_stored.h"

#ifdef PMS_NO_HOST_LIBS
int pms_gzip__compress(const void *in, size_t len, struct strbuf *out)
{
	const unsigned char *p = in;
	size_t left = len;
	unsigned char piece[8];

	strbuf_add(out, (const char *)pms_gzip_stored__header, sizeof(pms_gzip_stored__header));
	do {
		uint16_t n = left > PMS_GZIP_STORED_BLOCK_MAX ? PMS_GZIP_STORED_BLOCK_MAX : (uint16_t)left;

		pms_gzip_stored__block_header(piece, n, left <= PMS_GZIP_STORED_BLOCK_MAX);
		strbuf_add(out, (const char *)piece, 5);
		strbuf_add(out, (const char *)p, n);
		p += n;
		left -= n;
	} while (left);
	pms_gzip_stored__trailer(piece, pms_gzip_stored__crc32(0, in, len), (uint32_t)len);
	strbuf_add(out, (const char *)piece, sizeof(piece));
	return out->oom ? -ENOMEM : 0;
}
#endif
