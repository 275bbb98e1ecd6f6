// SPDX-License-Identifier: MIT
// gzip without zlib (PMS_NO_HOST_LIBS builds): stored deflate blocks, valid for every gzip reader, just not smaller.
#include <errno.h>
#include <stdint.h>

#include "export/gz.h"

#ifdef PMS_NO_HOST_LIBS
static uint32_t crc32_update(uint32_t crc, const unsigned char *p, size_t n)
{
	static uint32_t table[256];

	if (!table[1])
		for (uint32_t i = 0; i < 256; i++) {
			uint32_t c = i;

			for (int k = 0; k < 8; k++)
				c = c & 1 ? 0xedb88320u ^ (c >> 1) : c >> 1;
			table[i] = c;
		}
	crc = ~crc;
	while (n--)
		crc = table[(crc ^ *p++) & 0xff] ^ (crc >> 8);
	return ~crc;
}

static void put_le32(struct strbuf *out, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		strbuf_addch(out, (char)(v >> (8 * i)));
}

int pms_gzip__compress(const void *in, size_t len, struct strbuf *out)
{
	static const char header[10] = { 0x1f, (char)0x8b, 8, 0, 0, 0, 0, 0, 0, (char)0xff };
	const unsigned char *p = in;
	size_t left = len;

	strbuf_add(out, header, sizeof(header));
	do {
		/* RFC 1951 stored block: BFINAL/BTYPE=00 byte, LEN, NLEN, then the bytes */
		uint16_t n = left > 65535 ? 65535 : (uint16_t)left;

		strbuf_addch(out, left <= 65535 ? 1 : 0);
		strbuf_addch(out, (char)(n & 0xff));
		strbuf_addch(out, (char)(n >> 8));
		strbuf_addch(out, (char)(~n & 0xff));
		strbuf_addch(out, (char)((uint16_t)~n >> 8));
		strbuf_add(out, (const char *)p, n);
		p += n;
		left -= n;
	} while (left);
	put_le32(out, crc32_update(0, in, len));
	put_le32(out, (uint32_t)len);
	return out->oom ? -ENOMEM : 0;
}
#endif
