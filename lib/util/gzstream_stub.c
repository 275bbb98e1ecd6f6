// SPDX-License-Identifier: MIT
// Streaming gzip without zlib (PMS_NO_HOST_LIBS builds): stored deflate blocks, valid for every gzip reader, just not smaller.
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/gzstream.h"

#ifdef PMS_NO_HOST_LIBS
struct pms_gzstream {
	int fd;
	int err;
	uint32_t crc, size;
	size_t used;
	unsigned char block[65535]; /* one stored block's worth of input */
};

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

static int write_fd(struct pms_gzstream *s, const void *buf, size_t len)
{
	const unsigned char *p = buf;

	while (len && !s->err) {
		ssize_t n = write(s->fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			s->err = -errno;
		else {
			p += n;
			len -= (size_t)n;
		}
	}
	return s->err;
}

/* RFC 1951 stored block: BFINAL/BTYPE=00 byte, LEN, NLEN, then the bytes. */
static int put_block(struct pms_gzstream *s, bool final)
{
	uint16_t n = (uint16_t)s->used;
	unsigned char h[5] = { final ? 1 : 0, (unsigned char)(n & 0xff), (unsigned char)(n >> 8),
			       (unsigned char)(~n & 0xff), (unsigned char)((uint16_t)~n >> 8) };

	if (write_fd(s, h, sizeof(h)) || write_fd(s, s->block, s->used))
		return s->err;
	s->used = 0;
	return 0;
}

int pms_gzstream__new(struct pms_gzstream **out, int fd, int level)
{
	static const unsigned char header[10] = { 0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff };
	struct pms_gzstream *s = calloc(1, sizeof(*s));

	(void)level;
	*out = NULL;
	if (!s)
		return -ENOMEM;
	s->fd = fd;
	write_fd(s, header, sizeof(header));
	*out = s;
	return 0;
}

int pms_gzstream__write(struct pms_gzstream *s, const void *buf, size_t len)
{
	const unsigned char *p = buf;

	s->crc = crc32_update(s->crc, p, len);
	s->size += (uint32_t)len;
	while (len && !s->err) {
		size_t n = sizeof(s->block) - s->used;

		if (n > len)
			n = len;
		memcpy(s->block + s->used, p, n);
		s->used += n;
		p += n;
		len -= n;
		if (s->used == sizeof(s->block))
			put_block(s, false);
	}
	return s->err;
}

int pms_gzstream__finish(struct pms_gzstream *s)
{
	unsigned char trailer[8];

	if (put_block(s, true))
		return s->err;
	for (int i = 0; i < 4; i++) {
		trailer[i] = (unsigned char)(s->crc >> (8 * i));
		trailer[4 + i] = (unsigned char)(s->size >> (8 * i));
	}
	return write_fd(s, trailer, sizeof(trailer));
}

void pms_gzstream__free(struct pms_gzstream *s)
{
	free(s);
}

int pms_gzstream__sink(void *z, const void *buf, size_t len)
{
	return pms_gzstream__write(z, buf, len);
}
#endif
