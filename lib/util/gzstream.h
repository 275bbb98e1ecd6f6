/* SPDX-License-Identifier: MIT */
/*
 * A gzip stream written to a file descriptor piece by piece (an archive of
 * objects that do not fit in memory at once): zlib on host builds
 * (gzstream_gz.c), stored deflate blocks where zlib is absent
 * (PMS_NO_HOST_LIBS, gzstream_stub.c) -- valid gzip either way.
 *
 * Invariants: the fd is borrowed (never closed); after __finish() the fd
 * holds one complete gzip member (RFC 1952) of every byte given to
 * __write(); the first error sticks and is returned by every later call.
 */
#ifndef PMS_UTIL_GZSTREAM_H
#define PMS_UTIL_GZSTREAM_H

#include <stddef.h>

struct pms_gzstream;

/* level 1..9 (zlib's); 0 or -ENOMEM. */
int pms_gzstream__new(struct pms_gzstream **out, int fd, int level);
int pms_gzstream__write(struct pms_gzstream *z, const void *buf, size_t len);
/* Flush and write the trailer. 0 or -errno (-EIO when zlib fails). */
int pms_gzstream__finish(struct pms_gzstream *z);
/* Accepts NULL; does not finish. */
void pms_gzstream__free(struct pms_gzstream *z);
/* The same as a pms_tar_sink (ctx is the stream). */
int pms_gzstream__sink(void *z, const void *buf, size_t len);

#endif
