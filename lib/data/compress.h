/* SPDX-License-Identifier: MIT */
/*
 * zstd streams for PERF_RECORD_COMPRESSED, in perf's layout: the writer
 * compresses every flushed buffer of whole records into one continuous zstd
 * stream, flushed after each buffer, and splits each flush's output over as
 * many COMPRESSED records as needed; the reader
 * feeds every COMPRESSED payload, in file order, to ONE decompression stream
 * and gets the inner records back (an inner record may straddle payloads).
 * Without host libraries (PMS_NO_HOST_LIBS) every function returns
 * -EOPNOTSUPP (compress_stub.c).
 */
#ifndef PMS_DATA_COMPRESS_H
#define PMS_DATA_COMPRESS_H

#include <stddef.h>
#include <stdint.h>

#include "data/data_priv.h"

struct pms_zstd_enc;
struct pms_zstd_dec;

int pms_zstd_enc__new(struct pms_zstd_enc **out, int level);
/* Compress src[0..len) as one complete frame appended to out. 0 or -errno. */
int pms_zstd_enc__flush(struct pms_zstd_enc *e, const void *src, size_t len, struct pms_bbuf *out);
void pms_zstd_enc__free(struct pms_zstd_enc *e);

int pms_zstd_dec__new(struct pms_zstd_dec **out);
/*
 * Decompress src[0..len) (the next chunk of the stream) and append the output
 * to out. -EBADMSG on corrupt input; -E2BIG if out would exceed max_bytes.
 */
int pms_zstd_dec__feed(struct pms_zstd_dec *d, const void *src, size_t len, struct pms_bbuf *out,
		       size_t max_bytes);
void pms_zstd_dec__free(struct pms_zstd_dec *d);

#endif
