// SPDX-License-Identifier: MIT
// Compression stubs for builds without host libraries (no zstd): everything is -EOPNOTSUPP.
#include <errno.h>

#include "data/compress.h"

#ifdef PMS_NO_HOST_LIBS
int pms_zstd_enc__new(struct pms_zstd_enc **out, int level)
{
	(void)level;
	*out = NULL;
	return -EOPNOTSUPP;
}

int pms_zstd_enc__flush(struct pms_zstd_enc *e, const void *src, size_t len, struct pms_bbuf *out)
{
	(void)e, (void)src, (void)len, (void)out;
	return -EOPNOTSUPP;
}

void pms_zstd_enc__free(struct pms_zstd_enc *e)
{
	(void)e;
}

int pms_zstd_dec__new(struct pms_zstd_dec **out)
{
	*out = NULL;
	return -EOPNOTSUPP;
}

int pms_zstd_dec__feed(struct pms_zstd_dec *d, const void *src, size_t len, struct pms_bbuf *out,
		       size_t max_bytes)
{
	(void)d, (void)src, (void)len, (void)out, (void)max_bytes;
	return -EOPNOTSUPP;
}

void pms_zstd_dec__free(struct pms_zstd_dec *d)
{
	(void)d;
}
#else
/* ISO C wants at least one declaration per translation unit. */
typedef int pms_compress_stub_unused;
#endif
