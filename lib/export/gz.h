/* SPDX-License-Identifier: MIT */
/*
 * gzip of a whole buffer for the pprof export: zlib on the host build
 * (pprof_gz.c), stored (uncompressed) deflate blocks in a valid gzip
 * member where zlib is absent (PMS_NO_HOST_LIBS, pprof_gz_stub.c).
 *
 * Invariants: out gets one complete gzip member (RFC 1952) appended, or
 * nothing usable and an error; in is never modified.
 */
#ifndef PMS_EXPORT_GZ_H
#define PMS_EXPORT_GZ_H

#include <stddef.h>

#include "util/strbuf.h"

/* 0, -ENOMEM, or -EIO when zlib fails. */
int pms_gzip__compress(const void *in, size_t len, struct strbuf *out);

#endif
