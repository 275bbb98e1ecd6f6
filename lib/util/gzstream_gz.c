// SPDX-License-Identifier: MIT
// Streaming gzip to a file descriptor through zlib (left out of the static arm64 build; see gzstream_stub.c).
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "util/fileio.h"
#include "util/gzstream.h"

struct pms_gzstream {
	z_stream z;
	int fd;
	int err;
	unsigned char out[1 << 16];
};

int pms_gzstream__new(struct pms_gzstream **out, int fd, int level)
{
	struct pms_gzstream *s = calloc(1, sizeof(*s));

	*out = NULL;
	if (!s)
		return -ENOMEM;
	/* windowBits 15 + 16: a gzip header and trailer rather than a zlib one */
	if (deflateInit2(&s->z, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
		free(s);
		return -ENOMEM;
	}
	s->fd = fd;
	*out = s;
	return 0;
}

/* Run deflate on what is queued in s->z with flush, writing all output. */
static int pump(struct pms_gzstream *s, int flush)
{
	int rc;

	do {
		s->z.next_out = s->out;
		s->z.avail_out = sizeof(s->out);
		rc = deflate(&s->z, flush);
		if (rc == Z_STREAM_ERROR)
			return s->err = -EIO;
		if (sizeof(s->out) - s->z.avail_out) {
			int err = pms_fd__write_all(s->fd, s->out, sizeof(s->out) - s->z.avail_out);

			if (err)
				return s->err = err;
		}
	} while (s->z.avail_out == 0 || (flush == Z_FINISH && rc != Z_STREAM_END));
	return 0;
}

int pms_gzstream__write(struct pms_gzstream *s, const void *buf, size_t len)
{
	const unsigned char *p = buf;

	if (s->err)
		return s->err;
	while (len) {
		/* avail_in is 32-bit: feed huge buffers in slices */
		size_t n = len > (1u << 30) ? (1u << 30) : len;
		int err;

		s->z.next_in = (unsigned char *)(uintptr_t)p;
		s->z.avail_in = (uInt)n;
		err = pump(s, Z_NO_FLUSH);
		if (err)
			return err;
		p += n;
		len -= n;
	}
	return 0;
}

int pms_gzstream__finish(struct pms_gzstream *s)
{
	if (s->err)
		return s->err;
	s->z.next_in = NULL;
	s->z.avail_in = 0;
	return pump(s, Z_FINISH);
}

void pms_gzstream__free(struct pms_gzstream *s)
{
	if (!s)
		return;
	deflateEnd(&s->z);
	free(s);
}

int pms_gzstream__sink(void *z, const void *buf, size_t len)
{
	return pms_gzstream__write(z, buf, len);
}
