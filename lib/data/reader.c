// SPDX-License-Identifier: MIT
// perf.data reader: bounds-checked header, attrs, features and record iteration with zstd and recovery.
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "data/compress.h"
#include "data/data_priv.h"
#include "data/format.h"
#include "data/reader.h"
#include "util/print.h"

/* A decompressed backlog beyond this is treated as a decompression bomb. */
#define MAX_DECOMP_BYTES (256u << 20)

struct attr_ent {
	struct perf_event_attr attr;
	uint64_t *ids;
	size_t nr_ids;
};

struct id_map {
	uint64_t id;
	size_t idx;
};

struct pms_data_reader {
	const uint8_t *buf;
	size_t len;
	void *map;          /* mmap()ed file, or NULL */
	uint64_t dropped;   /* [0, dropped) of map given back by __drop_behind() */
	uint8_t *owned;     /* malloc()ed copy (stdin, non-regular files), or NULL */
	bool recover;
	bool pipe;
	bool scanned_to_eof;

	uint64_t data_start, data_end;
	uint64_t pos;       /* next top-level record */
	bool done;

	struct attr_ent *attrs;
	size_t nr_attrs;
	struct id_map *ids;
	size_t nr_ids;
	struct pms_data_features feat;

	struct pms_zstd_dec *dec;
	struct pms_bbuf dbuf; /* decompressed bytes not yet returned */
	size_t dpos;
	uint64_t comp_offset; /* offset of the last COMPRESSED record fed */

	uint64_t *scratch;    /* aligned copy of a misaligned record */
	/* raw feature payloads (file sections or pipe HEADER_FEATURE bodies), by bit */
	struct { uint64_t off, size; } raw_feat[PMS_FEAT_LAST];
	uint64_t has_feat[PMS_FEAT_LAST / 64]; /* the header's adds_features, or HEADER_FEATURE records seen */
	/* pipe mode: the HEADER_TRACING_DATA payload (file mode has the TRACING_DATA feature) */
	uint64_t tracing_off, tracing_size;
	/* recovery clamped the data section at EOF: said as damage once the records run out */
	bool clamped;
	uint64_t clamped_off, clamped_size;
	struct pms_data_error error;
	char warning[320];
};

__attribute__((format(printf, 4, 5)))
static int set_error(struct pms_data_reader *r, int err, uint64_t offset, const char *fmt, ...)
{
	va_list ap;

	r->error.err = err;
	r->error.offset = offset;
	va_start(ap, fmt);
	vsnprintf(r->error.msg, sizeof(r->error.msg), fmt, ap);
	va_end(ap);
	return err;
}

__attribute__((format(printf, 2, 3)))
static void set_warning(struct pms_data_reader *r, const char *fmt, ...)
{
	char msg[sizeof(r->warning)];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	pr_debug("perf.data: %s\n", msg);
	if (!r->warning[0])
		snprintf(r->warning, sizeof(r->warning), "%s", msg);
}

/* Is [off, off+size) inside the buffer? Overflow-safe. */
static bool in_file(const struct pms_data_reader *r, uint64_t off, uint64_t size)
{
	return off <= r->len && size <= r->len - off;
}

static int add_attr(struct pms_data_reader *r, const void *attr, size_t attr_bytes,
		    const uint8_t *ids, size_t nr_ids)
{
	struct attr_ent *n, *e;

	n = realloc(r->attrs, (r->nr_attrs + 1) * sizeof(*n));
	if (!n)
		return -ENOMEM;
	r->attrs = n;
	e = &n[r->nr_attrs];
	memset(e, 0, sizeof(*e));
	memcpy(&e->attr, attr, attr_bytes < sizeof(e->attr) ? attr_bytes : sizeof(e->attr));
	e->ids = malloc((nr_ids ? nr_ids : 1) * 8);
	if (!e->ids)
		return -ENOMEM;
	if (nr_ids)
		memcpy(e->ids, ids, nr_ids * 8);
	e->nr_ids = nr_ids;
	r->nr_attrs++;
	return 0;
}

static int cmp_id(const void *a, const void *b)
{
	const struct id_map *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

static int build_id_map(struct pms_data_reader *r)
{
	size_t n = 0, k = 0;

	for (size_t i = 0; i < r->nr_attrs; i++)
		n += r->attrs[i].nr_ids;
	free(r->ids);
	r->ids = malloc((n ? n : 1) * sizeof(*r->ids));
	if (!r->ids)
		return -ENOMEM;
	for (size_t i = 0; i < r->nr_attrs; i++)
		for (size_t j = 0; j < r->attrs[i].nr_ids; j++)
			r->ids[k++] = (struct id_map){ r->attrs[i].ids[j], i };
	qsort(r->ids, n, sizeof(*r->ids), cmp_id);
	r->nr_ids = n;
	return 0;
}

static int read_magic(struct pms_data_reader *r, uint64_t *hsize)
{
	uint64_t magic;

	if (r->len < 16)
		return set_error(r, -EINVAL, 0,
				 "file is %zu bytes, too short for a perf.data header (16 or 104 bytes)",
				 r->len);
	memcpy(&magic, r->buf, 8);
	memcpy(hsize, r->buf + 8, 8);
	if (!memcmp(r->buf, PMS_PERF_MAGIC, 8))
		return 0;
	if (magic == __builtin_bswap64(PMS_PERF_MAGIC_U64) && memcmp(r->buf, "2ELIFREP", 8) == 0)
		return set_error(r, -EPROTONOSUPPORT, 0,
				 "perf.data written on a machine of the other byte order; only "
				 "native-endian files are read");
	if (!memcmp(r->buf, "PERFFILE", 8))
		return set_error(r, -EPROTONOSUPPORT, 0,
				 "perf.data version 1 (magic PERFFILE) is not supported; convert it "
				 "with a newer perf");
	return set_error(r, -EINVAL, 0, "not a perf.data file (magic is not PERFILE2)");
}

/* Does a well-formed feature table (every listed section inside the file, after the table) start at the data offset? */
static bool empty_data_then_features(const struct pms_data_reader *r, const struct pms_file_header *h)
{
	uint64_t table = h->data.offset, end_of_table;
	size_t n = 0;

	for (unsigned bit = 0; bit < 256; bit++)
		n += (h->adds_features[bit / 64] >> (bit % 64)) & 1;
	end_of_table = table + n * 16;
	if (!n || end_of_table < table || !in_file(r, table, n * 16))
		return false;
	for (size_t i = 0; i < n; i++) {
		struct pms_file_section sec;

		memcpy(&sec, r->buf + table + i * 16, 16);
		if (sec.offset < end_of_table || !in_file(r, sec.offset, sec.size))
			return false;
	}
	return true;
}

static void parse_features(struct pms_data_reader *r, const struct pms_file_header *h)
{
	uint64_t table = h->data.offset + h->data.size;
	size_t slot = 0;

	/* there by the header's word, even where its section cannot be read */
	memcpy(r->has_feat, h->adds_features, sizeof(r->has_feat));
	for (unsigned bit = 0; bit < 256; bit++) {
		struct pms_file_section s;
		char msg[256] = "";
		int err;

		if (!((h->adds_features[bit / 64] >> (bit % 64)) & 1))
			continue;
		if (table < h->data.offset || !in_file(r, table + slot * 16, 16) ||
		    table + slot * 16 < table) {
			set_warning(r, "feature table at offset 0x%" PRIx64 " is past end of file; "
				    "metadata left out", table);
			return;
		}
		memcpy(&s, r->buf + table + slot * 16, 16);
		slot++;
		if (!in_file(r, s.offset, s.size)) {
			set_warning(r, "feature %s section [0x%" PRIx64 ", +0x%" PRIx64 ") is outside "
				    "the file; left out", pms_data_feature__name(bit) ?: "?", s.offset, s.size);
			continue;
		}
		r->raw_feat[bit].off = s.offset;
		r->raw_feat[bit].size = s.size;
		err = pms_data_feature__decode(&r->feat, bit, r->buf + s.offset, (size_t)s.size, msg,
					       sizeof(msg));
		if (err == -EBADMSG)
			set_warning(r, "feature %s at offset 0x%" PRIx64 ": %s; left out",
				    pms_data_feature__name(bit) ?: "?", s.offset, msg);
		else if (err && err != -ENOENT)
			set_warning(r, "feature %u: %s", bit, strerror(-err));
	}
}

static int open_file_mode(struct pms_data_reader *r, uint64_t hsize)
{
	struct pms_file_header h;
	uint64_t nr;

	if (hsize < sizeof(h))
		return set_error(r, -EBADMSG, 8, "header size %" PRIu64 " is neither 16 (pipe) nor 104",
				 hsize);
	if (r->len < sizeof(h))
		return set_error(r, -EBADMSG, 0, "truncated header: file is %zu bytes, header 104",
				 r->len);
	memcpy(&h, r->buf, sizeof(h));
	if (h.attr_size < PERF_ATTR_SIZE_VER0 + sizeof(struct pms_file_section) ||
	    h.attr_size > 65536)
		return set_error(r, -EBADMSG, 16, "attr entry size %" PRIu64 " is not plausible",
				 h.attr_size);
	if (h.attrs.size % h.attr_size)
		return set_error(r, -EBADMSG, 24,
				 "attrs section size %" PRIu64 " is not a multiple of the entry size %" PRIu64,
				 h.attrs.size, h.attr_size);
	if (!in_file(r, h.attrs.offset, h.attrs.size))
		return set_error(r, -EBADMSG, h.attrs.offset,
				 "attrs section [0x%" PRIx64 ", +0x%" PRIx64 ") extends past end of file "
				 "(0x%zx bytes)", h.attrs.offset, h.attrs.size, r->len);
	nr = h.attrs.size / h.attr_size;
	for (uint64_t i = 0; i < nr; i++) {
		uint64_t off = h.attrs.offset + i * h.attr_size;
		size_t attr_bytes = (size_t)h.attr_size - sizeof(struct pms_file_section);
		struct pms_file_section ids;
		int err;

		memcpy(&ids, r->buf + off + attr_bytes, sizeof(ids));
		if (!in_file(r, ids.offset, ids.size) || ids.size % 8) {
			if (!r->recover)
				return set_error(r, -EBADMSG, off + attr_bytes,
						 "ids of attr %" PRIu64 " [0x%" PRIx64 ", +0x%" PRIx64
						 ") are outside the file or not whole u64s",
						 i, ids.offset, ids.size);
			set_warning(r, "ids of attr %" PRIu64 " are damaged; ignored", i);
			ids.size = 0;
		}
		err = add_attr(r, r->buf + off, attr_bytes, ids.size ? r->buf + ids.offset : NULL,
			       (size_t)(ids.size / 8));
		if (err)
			return set_error(r, err, off, "out of memory");
	}
	if (h.data.offset < sizeof(h) || h.data.offset > r->len)
		return set_error(r, -EBADMSG, 40,
				 "data section offset 0x%" PRIx64 " is outside the file (0x%zx bytes)",
				 h.data.offset, r->len);
	r->data_start = h.data.offset;
	/*
	 * Data size 0: a writer killed before it finalized the header (records
	 * run to the end of the file; perf's header may already list features
	 * whose sections were never written), or a finished file without
	 * records, whose feature table then follows the empty data section.
	 */
	if (h.data.size == 0 && h.data.offset < r->len && !empty_data_then_features(r, &h)) {
		/* perf killed before finalizing: records run to end of file, no features. */
		r->scanned_to_eof = true;
		r->data_end = r->len;
		set_warning(r, "data size in the header is 0 (recorder killed?); reading records up "
			    "to end of file");
		return 0;
	}
	if (!in_file(r, h.data.offset, h.data.size)) {
		if (!r->recover)
			return set_error(r, -EBADMSG, 48,
					 "data section [0x%" PRIx64 ", +0x%" PRIx64 ") extends past end "
					 "of file (0x%zx bytes): file truncated", h.data.offset,
					 h.data.size, r->len);
		set_warning(r, "data section extends past end of file; reading to end of file");
		r->clamped = true;
		r->clamped_off = h.data.offset;
		r->clamped_size = h.data.size;
		r->data_end = r->len;
		return 0;
	}
	r->data_end = h.data.offset + h.data.size;
	parse_features(r, &h);
	return 0;
}

static int absorb_pipe_record(struct pms_data_reader *r, const uint8_t *p, size_t size,
			      uint64_t off)
{
	struct perf_event_header h;
	char msg[256] = "";
	int err = 0;

	memcpy(&h, p, sizeof(h));
	if (h.type == PMS_RECORD_HEADER_ATTR) {
		uint32_t asize;

		if (size < 8 + PERF_ATTR_SIZE_VER0)
			return set_error(r, -EBADMSG, off, "HEADER_ATTR record at offset 0x%" PRIx64
					 " is %zu bytes, too short for an attr", off, size);
		memcpy(&asize, p + 8 + offsetof(struct perf_event_attr, size), 4);
		if (!asize)
			asize = PERF_ATTR_SIZE_VER0;
		if (asize > size - 8 || (size - 8 - asize) % 8)
			return set_error(r, -EBADMSG, off, "HEADER_ATTR record at offset 0x%" PRIx64
					 " has attr size %u in %zu bytes", off, asize, size);
		err = add_attr(r, p + 8, asize, p + 8 + asize, (size - 8 - asize) / 8);
		if (!err)
			err = build_id_map(r);
	} else if (h.type == PMS_RECORD_HEADER_FEATURE) {
		uint64_t feat;

		if (size < 16)
			return 0;
		memcpy(&feat, p + 8, 8);
		if (feat >= 256)
			return 0;
		r->raw_feat[feat].off = off + 16;
		r->raw_feat[feat].size = size - 16;
		r->has_feat[feat / 64] |= 1ULL << (feat % 64);
		err = pms_data_feature__decode(&r->feat, (unsigned)feat, p + 16, size - 16, msg,
					       sizeof(msg));
		if (err == -EBADMSG || err == -ENOENT) {
			if (err == -EBADMSG)
				set_warning(r, "HEADER_FEATURE %s at offset 0x%" PRIx64 ": %s",
					    pms_data_feature__name((unsigned)feat) ?: "?", off, msg);
			err = 0;
		}
	} else if (h.type == PMS_RECORD_HEADER_BUILD_ID) {
		err = pms_data_feature__decode(&r->feat, PMS_FEAT_BUILD_ID, p, size, msg, sizeof(msg));
		if (err == -EBADMSG) {
			set_warning(r, "HEADER_BUILD_ID at offset 0x%" PRIx64 ": %s", off, msg);
			err = 0;
		}
	}
	if (err)
		return set_error(r, err, off, "%s", strerror(-err));
	return 0;
}

/*
 * Bytes that follow a record without being counted in its header.size: an
 * AUXTRACE record's AUX data (Intel PT, CoreSight), a pipe-mode
 * HEADER_TRACING_DATA record's tracing data. perf writes them right after
 * the record; a reader that does not step over them takes the payload for
 * records ("bad record size").
 */
static uint64_t trailing_payload(const struct perf_event_header *h, const uint8_t *p)
{
	uint64_t n = 0;

	if (h->type == PMS_RECORD_AUXTRACE && h->size >= 16) {
		memcpy(&n, p + 8, 8);
	} else if (h->type == PMS_RECORD_HEADER_TRACING_DATA && h->size >= 12) {
		uint32_t n32;

		memcpy(&n32, p + 8, 4);
		n = n32;
	}
	return n;
}

/* Pipe mode: attrs and features come as records; take them all in up front. */
static int prescan_pipe(struct pms_data_reader *r)
{
	uint64_t off = r->data_start;

	while (r->len - off >= 8) {
		struct perf_event_header h;
		int err;

		uint64_t extra;

		memcpy(&h, r->buf + off, sizeof(h));
		if (h.size < 8 || h.size > r->len - off)
			break; /* __next() reports it */
		if (h.type == PMS_RECORD_HEADER_ATTR || h.type == PMS_RECORD_HEADER_FEATURE ||
		    h.type == PMS_RECORD_HEADER_BUILD_ID) {
			err = absorb_pipe_record(r, r->buf + off, h.size, off);
			if (err && !r->recover)
				return err;
		}
		extra = trailing_payload(&h, r->buf + off);
		if (extra > r->len - off - h.size)
			break;
		if (h.type == PMS_RECORD_HEADER_TRACING_DATA && !r->tracing_size) {
			r->tracing_off = off + h.size;
			r->tracing_size = extra;
		}
		off += h.size + extra;
	}
	r->error = (struct pms_data_error){ 0 };
	return 0;
}

static int open_common(struct pms_data_reader *r, const struct pms_data_reader_opts *opts,
		       struct pms_data_error *err_out)
{
	uint64_t hsize = 0;
	int err;

	if (opts && opts->sz >= offsetof(struct pms_data_reader_opts, recover) + sizeof(bool))
		r->recover = opts->recover;
	err = read_magic(r, &hsize);
	if (!err && hsize == sizeof(struct pms_pipe_header)) {
		r->pipe = true;
		r->data_start = hsize;
		r->data_end = r->len;
		err = prescan_pipe(r);
	} else if (!err) {
		err = open_file_mode(r, hsize);
	}
	if (!err)
		err = build_id_map(r);
	if (err_out)
		*err_out = r->error;
	if (err)
		return err;
	r->error = (struct pms_data_error){ 0 };
	pms_data_reader__rewind(r);
	return 0;
}

static struct pms_data_reader *reader_alloc(void)
{
	struct pms_data_reader *r = calloc(1, sizeof(*r));

	if (!r)
		return NULL;
	r->scratch = malloc(PMS_RECORD_MAX_BYTES + 1);
	if (!r->scratch) {
		free(r);
		return NULL;
	}
	return r;
}

int pms_data_reader__open_mem(struct pms_data_reader **out, const void *buf, size_t len,
			      const struct pms_data_reader_opts *opts, struct pms_data_error *err_out)
{
	struct pms_data_reader *r;
	int err;

	*out = NULL;
	r = reader_alloc();
	if (!r)
		return -ENOMEM;
	r->buf = buf;
	r->len = buf ? len : 0;
	err = open_common(r, opts, err_out);
	if (err) {
		pms_data_reader__free(r);
		return err;
	}
	*out = r;
	return 0;
}

static int read_fd_all(int fd, uint8_t **out, size_t *len)
{
	size_t cap = 1 << 16, n = 0;
	uint8_t *p = malloc(cap);

	if (!p)
		return -ENOMEM;
	for (;;) {
		ssize_t got;

		if (n == cap) {
			uint8_t *q = realloc(p, cap * 2);

			if (!q) {
				free(p);
				return -ENOMEM;
			}
			p = q;
			cap *= 2;
		}
		got = read(fd, p + n, cap - n);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			int e = -errno;

			free(p);
			return e;
		}
		if (!got)
			break;
		n += (size_t)got;
	}
	*out = p;
	*len = n;
	return 0;
}

int pms_data_reader__open(struct pms_data_reader **out, const char *path,
			  const struct pms_data_reader_opts *opts, struct pms_data_error *err_out)
{
	struct pms_data_reader *r;
	struct stat st;
	int fd, err = 0;

	*out = NULL;
	if (err_out)
		*err_out = (struct pms_data_error){ 0 };
	if (!path)
		return -EINVAL;
	r = reader_alloc();
	if (!r)
		return -ENOMEM;
	fd = strcmp(path, "-") ? open(path, O_RDONLY | O_CLOEXEC) : STDIN_FILENO;
	if (fd < 0) {
		err = -errno;
		set_error(r, err, 0, "cannot open '%s': %s", path, strerror(-err));
		goto fail;
	}
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
		r->map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
		if (r->map == MAP_FAILED) {
			r->map = NULL;
			err = -errno;
		} else {
			r->buf = r->map;
			r->len = (size_t)st.st_size;
		}
	} else {
		err = read_fd_all(fd, &r->owned, &r->len);
		r->buf = r->owned;
	}
	if (fd != STDIN_FILENO)
		close(fd);
	if (err) {
		set_error(r, err, 0, "cannot read '%s': %s", path, strerror(-err));
		goto fail;
	}
	err = open_common(r, opts, err_out);
	if (err) {
		pms_data_reader__free(r);
		return err;
	}
	*out = r;
	return 0;
fail:
	if (err_out)
		*err_out = r->error;
	pms_data_reader__free(r);
	return err;
}

#define DROP_STEP_BYTES (1u << 20)
#define DROP_MARGIN_BYTES (1u << 20)

void pms_data_reader__drop_behind(struct pms_data_reader *r, uint64_t offset)
{
	long page = sysconf(_SC_PAGESIZE);
	uint64_t upto;

	if (!r->map || offset > r->len || offset < r->dropped + DROP_MARGIN_BYTES + DROP_STEP_BYTES)
		return;
	upto = (offset - DROP_MARGIN_BYTES) & ~(uint64_t)(page > 0 ? page - 1 : 4095);
	/* no MADV_SEQUENTIAL/DONTNEED on the file itself: the page cache stays warm for the next run */
	madvise((char *)r->map + r->dropped, (size_t)(upto - r->dropped), MADV_DONTNEED);
	r->dropped = upto;
}

void pms_data_reader__free(struct pms_data_reader *r)
{
	if (!r)
		return;
	if (r->map)
		munmap(r->map, r->len);
	free(r->owned);
	for (size_t i = 0; i < r->nr_attrs; i++)
		free(r->attrs[i].ids);
	free(r->attrs);
	free(r->ids);
	pms_data_features__release(&r->feat);
	pms_zstd_dec__free(r->dec);
	pms_bbuf__release(&r->dbuf);
	free(r->scratch);
	free(r);
}

void pms_data_reader__rewind(struct pms_data_reader *r)
{
	r->pos = r->data_start;
	r->done = false;
	r->dbuf.len = 0;
	r->dpos = 0;
	pms_zstd_dec__free(r->dec);
	r->dec = NULL;
	r->error = (struct pms_data_error){ 0 };
}

const struct pms_data_error *pms_data_reader__error(const struct pms_data_reader *r)
{
	return &r->error;
}

const char *pms_data_reader__warning(const struct pms_data_reader *r)
{
	return r->warning[0] ? r->warning : NULL;
}

bool pms_data_reader__is_pipe(const struct pms_data_reader *r)
{
	return r->pipe;
}

bool pms_data_reader__scanned_to_eof(const struct pms_data_reader *r)
{
	return r->scanned_to_eof;
}

void pms_data_reader__data_section(const struct pms_data_reader *r, uint64_t *offset,
				   uint64_t *size)
{
	if (offset)
		*offset = r->data_start;
	if (size)
		*size = r->data_end - r->data_start;
}

size_t pms_data_reader__nr_attrs(const struct pms_data_reader *r)
{
	return r->nr_attrs;
}

const struct perf_event_attr *pms_data_reader__attr(const struct pms_data_reader *r, size_t idx)
{
	return idx < r->nr_attrs ? &r->attrs[idx].attr : NULL;
}

const uint64_t *pms_data_reader__attr_ids(const struct pms_data_reader *r, size_t idx, size_t *nr)
{
	if (idx >= r->nr_attrs) {
		if (nr)
			*nr = 0;
		return NULL;
	}
	if (nr)
		*nr = r->attrs[idx].nr_ids;
	return r->attrs[idx].ids;
}

const char *pms_data_reader__attr_name(const struct pms_data_reader *r, size_t idx)
{
	if (idx >= r->nr_attrs || idx >= r->feat.nr_event_descs)
		return NULL;
	return r->feat.event_descs[idx].name;
}

int pms_data_reader__attr_of_id(const struct pms_data_reader *r, uint64_t id)
{
	struct id_map key = { .id = id }, *hit;

	hit = r->nr_ids ? bsearch(&key, r->ids, r->nr_ids, sizeof(key), cmp_id) : NULL;
	return hit ? (int)hit->idx : -ENOENT;
}

int pms_data_reader__record_attr(const struct pms_data_reader *r,
				 const struct perf_event_header *ev)
{
	const uint8_t *p = (const uint8_t *)ev;
	uint64_t st, id;
	size_t pos;

	if (r->nr_attrs == 1)
		return 0;
	if (!r->nr_attrs || ev->size < 16)
		return -ENOENT;
	st = r->attrs[0].attr.sample_type;
	if (ev->type == PERF_RECORD_SAMPLE) {
		if (st & PERF_SAMPLE_IDENTIFIER)
			pos = 8;
		else if (st & PERF_SAMPLE_ID)
			pos = 8 + 8 * (!!(st & PERF_SAMPLE_IP) + !!(st & PERF_SAMPLE_TID) +
				       !!(st & PERF_SAMPLE_TIME) + !!(st & PERF_SAMPLE_ADDR));
		else
			return -ENOENT;
	} else if (ev->type < PMS_RECORD_HEADER_ATTR && r->attrs[0].attr.sample_id_all) {
		size_t back;

		if (st & PERF_SAMPLE_IDENTIFIER)
			back = 8;
		else if (st & PERF_SAMPLE_ID)
			back = 8 * (1 + !!(st & PERF_SAMPLE_STREAM_ID) + !!(st & PERF_SAMPLE_CPU));
		else
			return -ENOENT;
		if (back > ev->size - 8u)
			return -ENOENT;
		pos = ev->size - back;
	} else {
		return -ENOENT;
	}
	if (pos + 8 > ev->size)
		return -ENOENT;
	memcpy(&id, p + pos, 8);
	return pms_data_reader__attr_of_id(r, id);
}

int pms_data_reader__feature_raw(const struct pms_data_reader *r, unsigned bit, const void **p,
				 size_t *size)
{
	uint64_t off = 0, n = 0;

	if (bit < PMS_FEAT_LAST) {
		off = r->raw_feat[bit].off;
		n = r->raw_feat[bit].size;
	}
	if (bit == PMS_FEAT_TRACING_DATA && !n) {
		off = r->tracing_off;
		n = r->tracing_size;
	}
	if (!n || !in_file(r, off, n))
		return -ENOENT;
	*p = r->buf + off;
	*size = (size_t)n;
	return 0;
}

bool pms_data_reader__has_feature(const struct pms_data_reader *r, unsigned bit)
{
	return bit < PMS_FEAT_LAST && (r->has_feat[bit / 64] >> (bit % 64)) & 1;
}

const struct pms_data_features *pms_data_reader__features(const struct pms_data_reader *r)
{
	return &r->feat;
}

/* Damage: strict mode fails, recovery mode ends the iteration; both keep the message. */
static int damaged(struct pms_data_reader *r)
{
	r->done = true;
	return r->recover ? 0 : r->error.err;
}

static const struct perf_event_header *aligned(struct pms_data_reader *r, const uint8_t *p,
					       size_t size)
{
	if (!((uintptr_t)p & 7))
		return (const void *)p;
	memcpy(r->scratch, p, size);
	return (const void *)r->scratch;
}

static int feed_compressed(struct pms_data_reader *r, const uint8_t *p, size_t size, uint64_t off)
{
	struct perf_event_header h;
	const uint8_t *payload = p + 8;
	size_t plen = size - 8;
	int err;

	memcpy(&h, p, sizeof(h));
	if (h.type == PMS_RECORD_COMPRESSED2) {
		uint64_t dsize;

		if (size < 16) {
			set_error(r, -EBADMSG, off, "COMPRESSED2 record at offset 0x%" PRIx64
				  " is %zu bytes, too short", off, size);
			return -EBADMSG;
		}
		memcpy(&dsize, p + 8, 8);
		payload = p + 16;
		plen = size - 16;
		if (dsize > plen) {
			set_error(r, -EBADMSG, off, "COMPRESSED2 record at offset 0x%" PRIx64
				  " claims %" PRIu64 " bytes of data in %zu", off, dsize, plen);
			return -EBADMSG;
		}
		plen = (size_t)dsize;
	}
	if (!r->dec) {
		err = pms_zstd_dec__new(&r->dec);
		if (err) {
			set_error(r, err, off, "compressed record at offset 0x%" PRIx64 ": %s", off,
				  err == -EOPNOTSUPP ? "this build has no zstd support" : strerror(-err));
			return err;
		}
	}
	/* Drop what was already returned before appending more. */
	if (r->dpos) {
		memmove(r->dbuf.p, r->dbuf.p + r->dpos, r->dbuf.len - r->dpos);
		r->dbuf.len -= r->dpos;
		r->dpos = 0;
	}
	r->comp_offset = off;
	err = pms_zstd_dec__feed(r->dec, payload, plen, &r->dbuf, MAX_DECOMP_BYTES);
	if (err) {
		set_error(r, err, off, "compressed record at offset 0x%" PRIx64 ": %s", off,
			  err == -EBADMSG ? "corrupt zstd data" :
			  err == -E2BIG ? "decompresses to more than 256 MiB" : strerror(-err));
		return err;
	}
	return 0;
}

/* The next whole record in the decompressed backlog: 1, 0 if none, <0 if damaged. */
static int next_inner(struct pms_data_reader *r, const struct perf_event_header **ev)
{
	struct perf_event_header h;
	size_t left = r->dbuf.len - r->dpos;

	if (left < sizeof(h))
		return 0;
	memcpy(&h, r->dbuf.p + r->dpos, sizeof(h));
	if (h.size < sizeof(h)) {
		set_error(r, -EBADMSG, r->comp_offset,
			  "bad record size %u (type %u) inside compressed data of the record at "
			  "offset 0x%" PRIx64, h.size, h.type, r->comp_offset);
		return -EBADMSG;
	}
	if (h.size > left)
		return 0;
	{
		uint64_t extra = trailing_payload(&h, r->dbuf.p + r->dpos);

		if (extra > left - h.size)
			return 0;
		*ev = aligned(r, r->dbuf.p + r->dpos, h.size);
		r->dpos += h.size + (size_t)extra;
	}
	return 1;
}

int pms_data_reader__next(struct pms_data_reader *r, const struct perf_event_header **ev,
			  uint64_t *offset)
{
	for (;;) {
		struct perf_event_header h;
		uint64_t left, off;
		int got;

		if (r->done)
			return r->recover || !r->error.err ? 0 : r->error.err;
		got = next_inner(r, ev);
		if (got < 0) {
			*ev = NULL;
			return damaged(r);
		}
		if (got) {
			if (offset)
				*offset = r->comp_offset;
			return 1;
		}
		off = r->pos;
		left = r->data_end - off;
		if (left == 0) {
			if (r->dbuf.len > r->dpos) {
				set_error(r, -EBADMSG, r->comp_offset,
					  "compressed data ends inside a record (%zu bytes left over "
					  "after the record at offset 0x%" PRIx64 ")",
					  r->dbuf.len - r->dpos, r->comp_offset);
				return damaged(r);
			}
			if (r->clamped) {
				set_error(r, -EBADMSG, r->len,
					  "data section [%#" PRIx64 ", +%#" PRIx64 ") extends past end of file at "
					  "offset %#zx: file truncated", r->clamped_off, r->clamped_size, r->len);
				return damaged(r);
			}
			r->done = true;
			return 0;
		}
		if (left < sizeof(h)) {
			set_error(r, -EBADMSG, off,
				  "truncated record header at offset 0x%" PRIx64 " (%" PRIu64
				  " bytes left, header is 8)", off, left);
			return damaged(r);
		}
		memcpy(&h, r->buf + off, sizeof(h));
		if (h.size < sizeof(h)) {
			set_error(r, -EBADMSG, off,
				  "bad record size %u at offset 0x%" PRIx64 " (type %u)", h.size, off,
				  h.type);
			return damaged(r);
		}
		if (h.size > left) {
			set_error(r, -EBADMSG, off,
				  "truncated record at offset 0x%" PRIx64 " (size %u, %" PRIu64
				  " bytes left)", off, h.size, left);
			return damaged(r);
		}
		{
			uint64_t extra = trailing_payload(&h, r->buf + off);

			if (extra > left - h.size) {
				set_error(r, -EBADMSG, off,
					  "%s record at offset 0x%" PRIx64 " is followed by %" PRIu64
					  " bytes of data, but only %" PRIu64 " are left",
					  h.type == PMS_RECORD_AUXTRACE ? "AUXTRACE" : "HEADER_TRACING_DATA", off,
					  extra, left - h.size);
				return damaged(r);
			}
			r->pos += h.size + extra;
		}
		if (h.type == PMS_RECORD_COMPRESSED || h.type == PMS_RECORD_COMPRESSED2) {
			if (feed_compressed(r, r->buf + off, h.size, off))
				return damaged(r);
			continue;
		}
		if (r->dbuf.len > r->dpos) {
			set_error(r, -EBADMSG, off,
				  "record at offset 0x%" PRIx64 " interrupts a record split across "
				  "compressed records", off);
			return damaged(r);
		}
		if (r->pipe && (h.type == PMS_RECORD_HEADER_ATTR || h.type == PMS_RECORD_HEADER_FEATURE))
			continue;
		*ev = aligned(r, r->buf + off, h.size);
		if (offset)
			*offset = off;
		return 1;
	}
}
