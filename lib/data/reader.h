/* SPDX-License-Identifier: MIT */
/*
 * perf.data reader for our files and perf's (native byte order; a file of
 * the other byte order is refused with -EPROTONOSUPPORT), in file or pipe
 * mode, from a path or a memory buffer.
 *
 * Invariants:
 * - Input is untrusted: every offset and size is checked against the bytes
 *   actually present before use; nothing is read out of bounds.
 * - Records come out whole, 8-byte aligned (copied when the file has them
 *   misaligned) and valid until the next call to __next() or __free().
 *   Records of unknown type are returned as they are (skip them by type).
 *   COMPRESSED records never come out: their inner records do, in order.
 *   HEADER_ATTR and HEADER_FEATURE records (pipe mode) are absorbed into
 *   the attrs and features.
 * - Damage stops iteration with an error naming the file offset. With
 *   opts.recover, __next() instead ends (returns 0) after the last whole
 *   record and the damage stays available from __error(); a data section
 *   that runs past EOF is clamped rather than refused, and said as damage
 *   (file truncated) once the records before EOF have come out.
 * - Payloads that follow a record outside its header.size (AUXTRACE AUX
 *   data, pipe-mode HEADER_TRACING_DATA) are stepped over.
 * - data.size == 0 with bytes after data.offset (perf killed before it
 *   finalized the header) is read by scanning to end of file.
 * - Feature sections are optional: a damaged one is left out (see
 *   __warning()), never fatal.
 */
#ifndef PMS_DATA_READER_H
#define PMS_DATA_READER_H

#include <linux/perf_event.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "data/features.h"

struct pms_data_reader;

struct pms_data_reader_opts {
	size_t sz;     /* sizeof(struct pms_data_reader_opts) */
	bool recover;  /* return what is valid before damage instead of failing */
};

struct pms_data_error {
	int err;         /* 0 when nothing went wrong */
	uint64_t offset; /* file offset the message is about */
	char msg[320];   /* "truncated record at offset 0x1f40 (size 64, 12 bytes left)" */
};

/*
 * Open path ("-" reads stdin to EOF). On failure *out is NULL and err (if
 * given) explains. Errors: -errno of open/read, -EINVAL not perf.data,
 * -EPROTONOSUPPORT other byte order or version 1, -EBADMSG damaged header or
 * attrs, -ENOMEM.
 */
int pms_data_reader__open(struct pms_data_reader **out, const char *path,
			  const struct pms_data_reader_opts *opts, struct pms_data_error *err);
/* Same on buf[0..len), which is borrowed and must outlive the reader. */
int pms_data_reader__open_mem(struct pms_data_reader **out, const void *buf, size_t len,
			      const struct pms_data_reader_opts *opts, struct pms_data_error *err);
void pms_data_reader__free(struct pms_data_reader *r);

/*
 * Next record: 1 and *ev set (borrowed), 0 at the end, -errno on damage
 * (details in __error()). *offset (optional) gets the record's file offset;
 * for records inside COMPRESSED ones, the offset of the COMPRESSED record
 * that finished them.
 */
int pms_data_reader__next(struct pms_data_reader *r, const struct perf_event_header **ev,
			  uint64_t *offset);
/*
 * A forward replay is past offset: give the mapped file's pages before it
 * (less a 1 MiB margin, in 1 MiB steps) back, so a 1M-sample file is not
 * resident whole. Always safe: a page touched again (a record queued for
 * time ordering, a feature section) faults back in from the page cache.
 * A no-op for buffers the reader did not map (stdin, __open_mem()).
 */
void pms_data_reader__drop_behind(struct pms_data_reader *r, uint64_t offset);
/* Start iterating from the beginning of the data section again. */
void pms_data_reader__rewind(struct pms_data_reader *r);
/* The damage found so far (err == 0 if none). Borrowed. */
const struct pms_data_error *pms_data_reader__error(const struct pms_data_reader *r);
/* The first non-fatal problem (damaged feature, clamped section...) or NULL. */
const char *pms_data_reader__warning(const struct pms_data_reader *r);

bool pms_data_reader__is_pipe(const struct pms_data_reader *r);
/* data.size was 0 and the data section was taken to run to end of file. */
bool pms_data_reader__scanned_to_eof(const struct pms_data_reader *r);
/* The data section as found: offset and size in the file (pipe: 16 and the rest). */
void pms_data_reader__data_section(const struct pms_data_reader *r, uint64_t *offset,
				   uint64_t *size);

size_t pms_data_reader__nr_attrs(const struct pms_data_reader *r);
/* Borrowed; zero-extended to our sizeof when the file's attrs are shorter. NULL if idx is out of range. */
const struct perf_event_attr *pms_data_reader__attr(const struct pms_data_reader *r, size_t idx);
const uint64_t *pms_data_reader__attr_ids(const struct pms_data_reader *r, size_t idx, size_t *nr);
/* The event name from HEADER_EVENT_DESC for attr idx, or NULL. */
const char *pms_data_reader__attr_name(const struct pms_data_reader *r, size_t idx);
/* Index of the attr that owns sample id, or -ENOENT. */
int pms_data_reader__attr_of_id(const struct pms_data_reader *r, uint64_t id);
/*
 * Index of the attr a record belongs to: 0 with a single attr, else found
 * through its ID/IDENTIFIER field (samples, or sample_id_all trailers).
 * -ENOENT when it cannot be told.
 */
int pms_data_reader__record_attr(const struct pms_data_reader *r,
				 const struct perf_event_header *ev);

/*
 * The raw bytes of feature bit (a file's feature section, or the body of a
 * pipe-mode HEADER_FEATURE record; for PMS_FEAT_TRACING_DATA also a
 * pipe-mode HEADER_TRACING_DATA payload), for features the reader does not
 * decode itself (tracing data, group descriptions). Borrowed until __free().
 * -ENOENT when the file has none.
 */
int pms_data_reader__feature_raw(const struct pms_data_reader *r, unsigned bit, const void **p,
				 size_t *size);

/*
 * Whether the file says it has feature bit (its header's feature bitmap,
 * or a pipe-mode HEADER_FEATURE record), decoded or not: perf's notion of
 * a feature being there, as its header text and "missing features" show.
 */
bool pms_data_reader__has_feature(const struct pms_data_reader *r, unsigned bit);

/* Borrowed; valid until __free(). */
const struct pms_data_features *pms_data_reader__features(const struct pms_data_reader *r);

#endif
