// SPDX-License-Identifier: MIT
// zstd compression and streaming decompression for PERF_RECORD_COMPRESSED payloads.
#include <errno.h>
#include <stdlib.h>
#include <zstd.h>

#include "data/compress.h"

struct pms_zstd_enc {
	ZSTD_CCtx *cctx;
};

struct pms_zstd_dec {
	ZSTD_DStream *ds;
};

int pms_zstd_enc__new(struct pms_zstd_enc **out, int level)
{
	struct pms_zstd_enc *e = calloc(1, sizeof(*e));

	*out = NULL;
	if (!e)
		return -ENOMEM;
	e->cctx = ZSTD_createCCtx();
	if (!e->cctx) {
		free(e);
		return -ENOMEM;
	}
	if (level < 1)
		level = 1;
	if (level > ZSTD_maxCLevel())
		level = ZSTD_maxCLevel();
	if (ZSTD_isError(ZSTD_CCtx_setParameter(e->cctx, ZSTD_c_compressionLevel, level))) {
		pms_zstd_enc__free(e);
		return -EINVAL;
	}
	*out = e;
	return 0;
}

/*
 * One zstd stream for the whole file, flushed at each call (perf's way): later
 * buffers may reference earlier ones, which matters for --call-graph dwarf
 * stack copies (mostly the same bytes sample after sample), and everything up
 * to the last flush decodes if the recorder is killed.
 */
int pms_zstd_enc__flush(struct pms_zstd_enc *e, const void *src, size_t len, struct pms_bbuf *out)
{
	ZSTD_inBuffer in = { .src = src, .size = len, .pos = 0 };
	size_t chunk = ZSTD_compressBound(len) + ZSTD_CStreamOutSize();

	for (;;) {
		ZSTD_outBuffer o;
		size_t left;

		/* zstd writes the room itself: zeroing it first cost a third of a decode */
		pms_bbuf__reserve(out, chunk);
		if (out->oom)
			return -ENOMEM;
		o = (ZSTD_outBuffer){ .dst = out->p + out->len, .size = chunk, .pos = 0 };
		left = ZSTD_compressStream2(e->cctx, &o, &in, ZSTD_e_flush);
		out->len += o.pos;
		if (ZSTD_isError(left)) {
			/* The stream cannot continue after an error: later flushes fail too. */
			return -EIO;
		}
		if (left == 0)
			return 0;
	}
}

void pms_zstd_enc__free(struct pms_zstd_enc *e)
{
	if (!e)
		return;
	ZSTD_freeCCtx(e->cctx);
	free(e);
}

int pms_zstd_dec__new(struct pms_zstd_dec **out)
{
	struct pms_zstd_dec *d = calloc(1, sizeof(*d));

	*out = NULL;
	if (!d)
		return -ENOMEM;
	d->ds = ZSTD_createDStream();
	if (!d->ds || ZSTD_isError(ZSTD_initDStream(d->ds))) {
		pms_zstd_dec__free(d);
		return -ENOMEM;
	}
	*out = d;
	return 0;
}

int pms_zstd_dec__feed(struct pms_zstd_dec *d, const void *src, size_t len, struct pms_bbuf *out,
		       size_t max_bytes)
{
	ZSTD_inBuffer in = { .src = src, .size = len, .pos = 0 };
	size_t chunk = ZSTD_DStreamOutSize();

	/* Until the input is used up and the decoder stops filling whole chunks. */
	for (;;) {
		ZSTD_outBuffer o;
		size_t r;

		pms_bbuf__reserve(out, chunk);
		if (out->oom)
			return -ENOMEM;
		o = (ZSTD_outBuffer){ .dst = out->p + out->len, .size = chunk, .pos = 0 };
		r = ZSTD_decompressStream(d->ds, &o, &in);
		out->len += o.pos;
		if (ZSTD_isError(r)) {
			/* The stream is unusable after an error; restart it for later payloads. */
			ZSTD_initDStream(d->ds);
			return -EBADMSG;
		}
		if (out->len > max_bytes)
			return -E2BIG;
		if (in.pos == in.size && o.pos < o.size)
			break;
	}
	return 0;
}

void pms_zstd_dec__free(struct pms_zstd_dec *d)
{
	if (!d)
		return;
	ZSTD_freeDStream(d->ds);
	free(d);
}
