/* SPDX-License-Identifier: MIT */
/*
 * Internals shared by the perf.data writer and reader: a growable byte
 * buffer with a sticky out-of-memory flag, and the feature payload codec.
 * Invariant: a bbuf with oom set never grows again; callers check once.
 */
#ifndef PMS_DATA_PRIV_H
#define PMS_DATA_PRIV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "data/features.h"

struct pms_bbuf {
	uint8_t *p;
	size_t len;
	size_t cap;
	bool oom;
};

void pms_bbuf__add(struct pms_bbuf *b, const void *src, size_t n);
void pms_bbuf__add_zero(struct pms_bbuf *b, size_t n);
/* Room for n more bytes at p + len, not written (a decoder fills it); len unchanged. */
void pms_bbuf__reserve(struct pms_bbuf *b, size_t n);
void pms_bbuf__add_u32(struct pms_bbuf *b, uint32_t v);
void pms_bbuf__add_u64(struct pms_bbuf *b, uint64_t v);
/* perf's string: u32 padded length, the bytes, NUL padding to 64. */
void pms_bbuf__add_pstr(struct pms_bbuf *b, const char *s);
void pms_bbuf__release(struct pms_bbuf *b);

/*
 * Append feature `bit`'s payload from f (and, for EVENT_DESC, descs) to out.
 * -ENOENT when we do not write that feature, -ENOMEM.
 */
int pms_data_feature__encode(const struct pms_data_features *f, unsigned bit,
			     const struct pms_data_event_desc *descs, uint32_t nr_descs,
			     struct pms_bbuf *out);
/*
 * Parse feature `bit`'s payload p[0..len) into f and set its bit. Untrusted
 * input: every length is checked. -EBADMSG with a message in err (offsets
 * relative to p), -ENOENT for a feature we do not parse, -ENOMEM.
 */
int pms_data_feature__decode(struct pms_data_features *f, unsigned bit, const uint8_t *p,
			     size_t len, char *err, size_t err_size);

#endif
