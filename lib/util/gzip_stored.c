// SPDX-License-Identifier: MIT
// Stored-block gzip pieces for builds without zlib (see gzip_stored.h).
#include "util/gzip_stored.h"

const unsigned char pms_gzip_stored__header[10] = { 0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff };

uint32_t pms_gzip_stored__crc32(uint32_t crc, const void *p, size_t n)
{
	static uint32_t table[256];
	const unsigned char *b = p;

	/* Built on first use: tiny, and these builds have no zlib table to borrow. */
	if (!table[1])
		for (uint32_t i = 0; i < 256; i++) {
			uint32_t c = i;

			for (int k = 0; k < 8; k++)
				c = c & 1 ? 0xedb88320u ^ (c >> 1) : c >> 1;
			table[i] = c;
		}
	crc = ~crc;
	while (n--)
		crc = table[(crc ^ *b++) & 0xff] ^ (crc >> 8);
	return ~crc;
}

void pms_gzip_stored__block_header(unsigned char out[5], uint16_t len, bool final)
{
	uint16_t nlen = (uint16_t)~len;

	out[0] = final ? 1 : 0;
	out[1] = (unsigned char)(len & 0xff);
	out[2] = (unsigned char)(len >> 8);
	out[3] = (unsigned char)(nlen & 0xff);
	out[4] = (unsigned char)(nlen >> 8);
}

void pms_gzip_stored__trailer(unsigned char out[8], uint32_t crc, uint32_t size)
{
	for (int i = 0; i < 4; i++) {
		out[i] = (unsigned char)(crc >> (8 * i));
		out[4 + i] = (unsigned char)(size >> (8 * i));
	}
}
