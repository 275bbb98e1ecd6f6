// SPDX-License-Identifier: MIT
// gzip through zlib for the pprof export (left out of the static arm64 build; see pprof_gz_stub.c).
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <zlib.h>

#include "export/gz.h"

int pms_gzip__compress(const void *in, size_t len, struct strbuf *out)
{
	z_stream z;
	unsigned char buf[65536];
	int rc;

	int wbits = 9, mem_level;

	/*
	 * A window no larger than the input compresses it as well, and small
	 * inputs (a /metrics page) then need under 128 KiB of zlib state:
	 * malloc serves that from the heap rather than mapping fresh pages at
	 * every call.
	 */
	while (wbits < 15 && ((size_t)1 << wbits) < len)
		wbits++;
	mem_level = wbits < 15 ? wbits - 7 : 8;
	memset(&z, 0, sizeof(z));
	/* windowBits + 16: a gzip header and trailer rather than a zlib one */
	if (deflateInit2(&z, 6, Z_DEFLATED, wbits + 16, mem_level, Z_DEFAULT_STRATEGY) != Z_OK)
		return -ENOMEM;
	z.next_in = (unsigned char *)(uintptr_t)in;
	do {
		/* avail_in is 32-bit: feed huge buffers in slices */
		if (!z.avail_in && len) {
			size_t n = len > (1u << 30) ? (1u << 30) : len;

			z.avail_in = (uInt)n;
			len -= n;
		}
		z.next_out = buf;
		z.avail_out = sizeof(buf);
		rc = deflate(&z, len || z.avail_in > 0 ? Z_NO_FLUSH : Z_FINISH);
		if (rc == Z_STREAM_ERROR) {
			deflateEnd(&z);
			return -EIO;
		}
		strbuf_add(out, (const char *)buf, sizeof(buf) - z.avail_out);
	} while (rc != Z_STREAM_END);
	deflateEnd(&z);
	return out->oom ? -ENOMEM : 0;
}
