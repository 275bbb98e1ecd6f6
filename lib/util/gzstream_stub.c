// SPDX-License-Identifier: MIT
// Streaming gzip without zlib (PMS_NO_HOST_LIBS builds): stored deflate blocks, valid for every gzip reader, just not smaller.
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/fileio.h"
#include "util/gzip_stored.h"
#include "util/gzstream.h"

#ifdef PMS_NO_HOST_LIBS
struct pms_gzstream {
	int fd;
	int err;
	uint32_t crc, size;
	size_t used;
	unsigned char block[PMS_GZIP_STORED_BLOCK_MAX]; /* one stored block's worth of input */
};

static int write_fd(struct pms_gzstream *s, const void *buf, size_t len)
{
	if (!s->err)
		s->err = pms_fd__write_all(s->fd, buf, len);
	return s->err;
}

static int put_block(struct pms_gzstream *s, bool final)
{
	unsigned char h[5];

	pms_gzip_stored__block_header(h, (uint16_t)s->used, final);
	if (write_fd(s, h, sizeof(h)) || write_fd(s, s->block, s->used))
		return s->err;
	s->used = 0;
	return 0;
}

int pms_gzstream__new(struct pms_gzstream **out, int fd, int level)
{
	struct pms_gzstream *s = calloc(1, sizeof(*s));

	(void)level;
	*out = NULL;
	if (!s)
		return -ENOMEM;
	s->fd = fd;
	write_fd(s, pms_gzip_stored__header, sizeof(pms_gzip_stored__header));
	*out = s;
	return 0;
}

int pms_gzstream__write(struct pms_gzstream *s, const void *buf, size_t len)
{
	const unsigned char *p = buf;

	s->crc = pms_gzip_stored__crc32(s->crc, p, len);
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
	pms_gzip_stored__trailer(trailer, s->crc, s->size);
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
