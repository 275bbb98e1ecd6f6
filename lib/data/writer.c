// SPDX-License-Identifier: MIT
// perf.data writer: header and attrs up front, buffered (optionally zstd-compressed) records, features at close.
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "data/compress.h"
#include "data/data_priv.h"
#include "data/format.h"
#include "data/writer.h"
#include "util/fileio.h"

#define DEFAULT_BUFFER_BYTES (256u * 1024)
#define MIN_BUFFER_BYTES (64u * 1024)

struct attr_ent {
	struct perf_event_attr attr;
	char *name;
	uint64_t *ids;
	size_t nr_ids;
};

struct pms_data_writer {
	int fd;
	bool own_fd;
	bool pipe;
	bool committed;
	bool closed;
	int err; /* sticky: after a failed write the file layout is unknown */

	struct attr_ent *attrs;
	size_t nr_attrs;
	struct pms_data_features feat;

	uint8_t *buf;
	size_t buf_len;
	size_t buf_cap;

	struct pms_zstd_enc *enc;
	int level;
	struct pms_bbuf zbuf;
	uint64_t raw_bytes; /* bytes of records before compression */

	uint64_t attrs_offset;
	uint64_t data_offset;
	uint64_t data_size;
	bool checkpointed; /* the header points at a checkpoint feature table (below) */
	/* TRACING_DATA written once before the data section (file mode), for the checkpoints */
	uint64_t td_offset, td_size;
	uint64_t nr_records;

	bool time_ok;       /* every attr samples TIME at the same position */
	size_t time_off;    /* offset of the TIME field in a SAMPLE record */
	bool time_seen;
	uint64_t time_first, time_last;
};

static int pwrite_full(int fd, const void *p, size_t n, uint64_t off)
{
	const uint8_t *c = p;

	while (n) {
		ssize_t r = pwrite(fd, c, n, (off_t)off);

		if (r < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		c += r;
		n -= (size_t)r;
		off += (uint64_t)r;
	}
	return 0;
}

int pms_data_writer__open_fd(struct pms_data_writer **out, int fd,
			     const struct pms_data_writer_opts *opts)
{
	struct pms_data_writer *w;
	size_t cap = DEFAULT_BUFFER_BYTES;
	int err;

	*out = NULL;
	if (fd < 0)
		return -EBADF;
	w = calloc(1, sizeof(*w));
	if (!w)
		return -ENOMEM;
	w->fd = fd;
	if (opts && opts->sz >= offsetof(struct pms_data_writer_opts, pipe) + sizeof(opts->pipe)) {
		if (opts->buffer_bytes)
			cap = opts->buffer_bytes < MIN_BUFFER_BYTES ? MIN_BUFFER_BYTES : opts->buffer_bytes;
		w->level = opts->compress_level;
		w->pipe = opts->pipe;
	} else if (opts && opts->sz) {
		free(w);
		return -EINVAL;
	}
	if (!w->pipe && lseek(fd, 0, SEEK_CUR) < 0) {
		free(w);
		return -ESPIPE;
	}
	w->buf = malloc(cap);
	if (!w->buf) {
		free(w);
		return -ENOMEM;
	}
	w->buf_cap = cap;
	if (w->level > 0) {
		err = pms_zstd_enc__new(&w->enc, w->level);
		if (err) {
			pms_data_writer__free(w);
			return err;
		}
	}
	*out = w;
	return 0;
}

int pms_data_writer__open(struct pms_data_writer **out, const char *path,
			  const struct pms_data_writer_opts *opts)
{
	struct pms_data_writer_opts o = { .sz = sizeof(o) };
	int fd, err;

	*out = NULL;
	if (!path)
		return -EINVAL;
	if (opts && opts->sz) {
		if (opts->sz > sizeof(o))
			return -EINVAL;
		memcpy(&o, opts, opts->sz);
		o.sz = sizeof(o);
	}
	if (!strcmp(path, "-")) {
		o.pipe = true;
		return pms_data_writer__open_fd(out, STDOUT_FILENO, &o);
	}
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0)
		return -errno;
	err = pms_data_writer__open_fd(out, fd, &o);
	if (err) {
		close(fd);
		unlink(path);
		return err;
	}
	(*out)->own_fd = true;
	return 0;
}

int pms_data_writer__add_attr(struct pms_data_writer *w, const struct perf_event_attr *attr,
			      const char *name, const uint64_t *ids, size_t nr_ids)
{
	struct attr_ent *n, *e;

	if (w->committed || w->closed)
		return -EBUSY;
	if (!attr || (nr_ids && !ids) || nr_ids > (PMS_RECORD_MAX_BYTES - 8 - sizeof(*attr)) / 8)
		return -EINVAL;
	n = realloc(w->attrs, (w->nr_attrs + 1) * sizeof(*n));
	if (!n)
		return -ENOMEM;
	w->attrs = n;
	e = &n[w->nr_attrs];
	memset(e, 0, sizeof(*e));
	e->attr = *attr;
	/* perf stops reading EVENT_DESC at an attr with size 0, and reads attrs by their size. */
	e->attr.size = sizeof(e->attr);
	e->name = strdup(name ? name : "");
	e->ids = malloc((nr_ids ? nr_ids : 1) * sizeof(uint64_t));
	if (!e->name || !e->ids) {
		free(e->name);
		free(e->ids);
		return -ENOMEM;
	}
	if (nr_ids)
		memcpy(e->ids, ids, nr_ids * sizeof(uint64_t));
	e->nr_ids = nr_ids;
	w->nr_attrs++;
	return 0;
}

struct pms_data_features *pms_data_writer__features(struct pms_data_writer *w)
{
	return &w->feat;
}

uint64_t pms_data_writer__data_bytes(const struct pms_data_writer *w)
{
	return w->data_size;
}

uint64_t pms_data_writer__nr_records(const struct pms_data_writer *w)
{
	return w->nr_records;
}

/*
 * Where SAMPLE records keep their TIME: the same place in every event's
 * samples when all sample TIME and agree on the fields before it
 * (IDENTIFIER, IP, TID), even if they differ after it (a tracepoint's
 * CPU|RAW beside a cpu-clock).
 */
static void setup_time(struct pms_data_writer *w)
{
	const uint64_t before = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME;
	uint64_t st;

	w->time_ok = w->nr_attrs > 0;
	for (size_t i = 0; i < w->nr_attrs; i++)
		if ((w->attrs[i].attr.sample_type & before) != (w->attrs[0].attr.sample_type & before))
			w->time_ok = false;
	if (!w->time_ok)
		return;
	st = w->attrs[0].attr.sample_type;
	if (!(st & PERF_SAMPLE_TIME)) {
		w->time_ok = false;
		return;
	}
	w->time_off = sizeof(struct perf_event_header) + 8 * (!!(st & PERF_SAMPLE_IDENTIFIER) +
							      !!(st & PERF_SAMPLE_IP) +
							      !!(st & PERF_SAMPLE_TID));
}

static void file_header(const struct pms_data_writer *w, struct pms_file_header *h,
			uint64_t attrs_offset)
{
	memset(h, 0, sizeof(*h));
	memcpy(h->magic, PMS_PERF_MAGIC, 8);
	h->size = sizeof(*h);
	h->attr_size = sizeof(struct perf_event_attr) + sizeof(struct pms_file_section);
	h->attrs.offset = attrs_offset;
	h->attrs.size = w->nr_attrs * h->attr_size;
	h->data.offset = w->data_offset;
	h->data.size = w->data_size;
}

/*
 * Pipe mode's tracing data, as perf's perf_event__synthesize_tracing_data()
 * writes it: a 16-byte PERF_RECORD_HEADER_TRACING_DATA record whose u32
 * says how many bytes follow it (outside its header.size), then the
 * container padded with zeros to 8 bytes. perf reads the container through
 * and checks that the padded size matches.
 */
static void add_tracing_record(const struct pms_data_writer *w, struct pms_bbuf *b)
{
	const struct pms_data_raw_feature *td = pms_data_features__raw(&w->feat, PMS_FEAT_TRACING_DATA);
	struct perf_event_header h = { .type = PMS_RECORD_HEADER_TRACING_DATA, .size = 16 };
	size_t padded;

	if (!td || !pms_data_features__has(&w->feat, PMS_FEAT_TRACING_DATA))
		return;
	padded = (td->size + 7) & ~(size_t)7;
	pms_bbuf__add(b, &h, sizeof(h));
	pms_bbuf__add_u32(b, (uint32_t)padded);
	pms_bbuf__add_u32(b, 0);
	pms_bbuf__add(b, td->bytes, td->size);
	pms_bbuf__add_zero(b, padded - td->size);
}

static int commit_pipe(struct pms_data_writer *w)
{
	struct pms_pipe_header ph = { .size = sizeof(ph) };
	struct pms_bbuf b = { 0 };
	int err;

	memcpy(ph.magic, PMS_PERF_MAGIC, 8);
	pms_bbuf__add(&b, &ph, sizeof(ph));
	for (size_t i = 0; i < w->nr_attrs; i++) {
		struct perf_event_header h = {
			.type = PMS_RECORD_HEADER_ATTR,
			.size = (uint16_t)(8 + sizeof(struct perf_event_attr) + 8 * w->attrs[i].nr_ids),
		};

		pms_bbuf__add(&b, &h, sizeof(h));
		pms_bbuf__add(&b, &w->attrs[i].attr, sizeof(w->attrs[i].attr));
		pms_bbuf__add(&b, w->attrs[i].ids, 8 * w->attrs[i].nr_ids);
	}
	/* Build-ids are only known at the end; they follow as HEADER_BUILD_ID records. */
	for (unsigned bit = 1; bit < PMS_FEAT_LAST; bit++) {
		struct perf_event_header h = { .type = PMS_RECORD_HEADER_FEATURE };
		uint64_t feat_id = bit;
		size_t start = b.len;

		/* tracing data is a record of its own (below), as perf sends it */
		if (bit == PMS_FEAT_BUILD_ID || bit == PMS_FEAT_SAMPLE_TIME || bit == PMS_FEAT_TRACING_DATA ||
		    bit == PMS_FEAT_EVENT_DESC || !pms_data_features__has(&w->feat, bit))
			continue;
		pms_bbuf__add(&b, &h, sizeof(h));
		pms_bbuf__add_u64(&b, feat_id);
		if (pms_data_feature__encode(&w->feat, bit, NULL, 0, &b)) {
			b.len = start;
			continue;
		}
		if (b.oom || b.len - start > PMS_RECORD_MAX_BYTES) {
			b.len = start;
			continue;
		}
		h.size = (uint16_t)(b.len - start);
		memcpy(b.p + start, &h, sizeof(h));
	}
	add_tracing_record(w, &b);
	if (b.oom) {
		pms_bbuf__release(&b);
		return -ENOMEM;
	}
	err = pms_fd__write_all(w->fd, b.p, b.len);
	if (!err)
		w->data_size += b.len - sizeof(ph);
	pms_bbuf__release(&b);
	return err;
}

/* Lay out ids, attrs and an empty data section, and write the header. */
static int commit(struct pms_data_writer *w)
{
	struct pms_bbuf b = { 0 };
	struct pms_file_header h;
	uint64_t attrs_offset;
	int err;

	if (w->committed)
		return 0;
	setup_time(w);
	if (w->enc) {
		/* perf sizes its decompression buffer from this; pipe mode sends it up front. */
		w->feat.comp_version = 0;
		w->feat.comp_type = PMS_COMP_ZSTD;
		w->feat.comp_level = (uint32_t)w->level;
		w->feat.comp_mmap_len = (uint32_t)w->buf_cap;
		pms_data_features__set_bit(&w->feat, PMS_FEAT_COMPRESSED);
	}
	if (w->pipe) {
		err = commit_pipe(w);
		if (!err)
			w->committed = true;
		return err;
	}
	pms_bbuf__add_zero(&b, sizeof(h));
	for (size_t i = 0; i < w->nr_attrs; i++)
		pms_bbuf__add(&b, w->attrs[i].ids, 8 * w->attrs[i].nr_ids);
	attrs_offset = b.len;
	{
		uint64_t ids_off = sizeof(h);

		for (size_t i = 0; i < w->nr_attrs; i++) {
			struct pms_file_section s = { ids_off, 8 * w->attrs[i].nr_ids };

			pms_bbuf__add(&b, &w->attrs[i].attr, sizeof(w->attrs[i].attr));
			pms_bbuf__add(&b, &s, sizeof(s));
			ids_off += s.size;
		}
	}
	/*
	 * perf refuses a tracepoint file without its tracing data, and
	 * features come only at close: put the tracing data here, once, so the
	 * checkpoint after each flush can point at it (a few bytes, not the
	 * whole container again) and a killed recorder's file still opens.
	 */
	{
		const struct pms_data_raw_feature *td = pms_data_features__raw(&w->feat, PMS_FEAT_TRACING_DATA);

		if (td && td->size) {
			pms_bbuf__add_zero(&b, ((b.len + 7) & ~(size_t)7) - b.len);
			w->td_offset = b.len;
			w->td_size = td->size;
			pms_bbuf__add(&b, td->bytes, td->size);
			pms_bbuf__add_zero(&b, ((b.len + 7) & ~(size_t)7) - b.len);
		}
	}
	if (b.oom) {
		pms_bbuf__release(&b);
		return -ENOMEM;
	}
	w->attrs_offset = attrs_offset;
	w->data_offset = b.len;
	w->data_size = 0;
	file_header(w, &h, attrs_offset);
	memcpy(b.p, &h, sizeof(h));
	err = pwrite_full(w->fd, b.p, b.len, 0);
	pms_bbuf__release(&b);
	if (!err)
		w->committed = true;
	return err;
}

/* Compress the buffer into COMPRESSED records (a record's size is a u16). */
static int wrap_compressed(struct pms_data_writer *w, struct pms_bbuf *out)
{
	size_t max_payload = PMS_RECORD_MAX_BYTES - sizeof(struct perf_event_header);
	struct pms_bbuf frame = { 0 };
	int err = pms_zstd_enc__flush(w->enc, w->buf, w->buf_len, &frame);

	if (err) {
		pms_bbuf__release(&frame);
		return err;
	}
	for (size_t off = 0; off < frame.len; off += max_payload) {
		size_t n = frame.len - off < max_payload ? frame.len - off : max_payload;
		struct perf_event_header h = {
			.type = PMS_RECORD_COMPRESSED,
			.size = (uint16_t)(sizeof(h) + n),
		};

		pms_bbuf__add(out, &h, sizeof(h));
		pms_bbuf__add(out, frame.p + off, n);
	}
	pms_bbuf__release(&frame);
	return out->oom ? -ENOMEM : 0;
}

/* Feature bits off before anything overwrites the table they point at. */
static int retract_checkpoint(struct pms_data_writer *w)
{
	uint64_t zero[4] = { 0 };
	int err;

	if (!w->checkpointed)
		return 0;
	err = pwrite_full(w->fd, zero, sizeof(zero), offsetof(struct pms_file_header, adds_features));
	if (!err)
		w->checkpointed = false;
	return err;
}

/*
 * What perf cannot read the file without, kept true between flushes: after
 * each flush, a feature table after the data and the header pointing at it,
 * in one pwrite of the header. COMPRESSED (perf sizes its decompression
 * buffer from it) and TRACING_DATA (perf refuses tracepoint events without
 * it; its payload sits before the data section since commit()). A file
 * that is never closed therefore still opens in perf.
 */
static bool wants_checkpoint(const struct pms_data_writer *w)
{
	return w->enc || w->td_size;
}

static int checkpoint(struct pms_data_writer *w)
{
	struct pms_data_features one = { 0 };
	struct pms_bbuf b = { 0 };
	struct pms_file_section s;
	struct pms_file_header h;
	uint64_t table = w->data_offset + w->data_size;
	size_t nr = !!w->td_size + !!w->enc;
	int err = 0;

	file_header(w, &h, w->attrs_offset);
	/* sections in ascending bit order, as perf reads them: TRACING_DATA (1), COMPRESSED (27) */
	if (w->td_size) {
		s.offset = w->td_offset;
		s.size = w->td_size;
		pms_bbuf__add(&b, &s, sizeof(s));
		h.adds_features[PMS_FEAT_TRACING_DATA / 64] |= 1ULL << (PMS_FEAT_TRACING_DATA % 64);
	}
	if (w->enc) {
		one.comp_type = PMS_COMP_ZSTD;
		one.comp_level = (uint32_t)w->level;
		one.comp_mmap_len = (uint32_t)w->buf_cap;
		s.offset = table + nr * sizeof(s);
		s.size = 5 * sizeof(uint32_t);
		pms_bbuf__add(&b, &s, sizeof(s));
		err = pms_data_feature__encode(&one, PMS_FEAT_COMPRESSED, NULL, 0, &b);
		h.adds_features[PMS_FEAT_COMPRESSED / 64] |= 1ULL << (PMS_FEAT_COMPRESSED % 64);
	}
	if (!err && b.oom)
		err = -ENOMEM;
	if (!err)
		err = pwrite_full(w->fd, b.p, b.len, table);
	pms_bbuf__release(&b);
	if (err)
		return err;
	err = pwrite_full(w->fd, &h, sizeof(h), 0);
	if (!err)
		w->checkpointed = true;
	return err;
}

int pms_data_writer__flush(struct pms_data_writer *w)
{
	const uint8_t *p = w->buf;
	size_t n = w->buf_len;
	int err;

	if (w->err)
		return w->err;
	if (w->closed)
		return -EBADF;
	if ((err = commit(w)))
		goto fail;
	if (!n)
		return 0;
	if (w->enc) {
		w->zbuf.len = 0;
		if ((err = wrap_compressed(w, &w->zbuf)))
			goto fail;
		p = w->zbuf.p;
		n = w->zbuf.len;
	}
	if (w->pipe) {
		err = pms_fd__write_all(w->fd, p, n);
		if (err)
			goto fail;
		w->data_size += n;
	} else {
		/* Data first, then the size that covers it: never claim unwritten bytes. */
		if ((err = retract_checkpoint(w)))
			goto fail;
		err = pwrite_full(w->fd, p, n, w->data_offset + w->data_size);
		if (err)
			goto fail;
		w->data_size += n;
		if (wants_checkpoint(w))
			err = checkpoint(w);
		else
			err = pwrite_full(w->fd, &w->data_size, sizeof(w->data_size),
					  offsetof(struct pms_file_header, data.size));
		if (err)
			goto fail;
	}
	w->buf_len = 0;
	return 0;
fail:
	w->err = err;
	return err;
}

int pms_data_writer__write(struct pms_data_writer *w, const void *rec, size_t size)
{
	struct perf_event_header h;
	int err;

	if (w->err)
		return w->err;
	if (w->closed)
		return -EBADF;
	if (!rec || size < sizeof(h) || size > PMS_RECORD_MAX_BYTES)
		return -EINVAL;
	memcpy(&h, rec, sizeof(h));
	if (h.size != size)
		return -EINVAL;
	if (!w->committed && (err = commit(w))) {
		w->err = err;
		return err;
	}
	if (size > w->buf_cap - w->buf_len && (err = pms_data_writer__flush(w)))
		return err;
	memcpy(w->buf + w->buf_len, rec, size);
	w->buf_len += size;
	w->nr_records++;
	w->raw_bytes += size;
	if (h.type == PERF_RECORD_SAMPLE && w->time_ok && size >= w->time_off + 8) {
		uint64_t t;

		memcpy(&t, (const uint8_t *)rec + w->time_off, 8);
		if (!w->time_seen || t < w->time_first)
			w->time_first = t;
		if (!w->time_seen || t > w->time_last)
			w->time_last = t;
		w->time_seen = true;
	}
	return 0;
}

/* A HEADER_BUILD_ID record: the same body as a BUILD_ID feature entry. */
static void add_build_id_record(struct pms_bbuf *b, const struct pms_data_build_id *bid)
{
	struct pms_data_features one = { 0 };
	size_t start = b->len;

	one.build_ids = (struct pms_data_build_id *)bid;
	one.nr_build_ids = 1;
	pms_data_feature__encode(&one, PMS_FEAT_BUILD_ID, NULL, 0, b);
	if (!b->oom) {
		struct perf_event_header *h = (void *)(b->p + start);

		h->type = PMS_RECORD_HEADER_BUILD_ID;
	}
}

int pms_data_writer__build_id_record(struct pms_data_writer *w, const struct pms_data_build_id *bid)
{
	struct pms_bbuf b = { 0 };
	int err;

	add_build_id_record(&b, bid);
	err = b.oom ? -ENOMEM : pms_data_writer__write(w, b.p, b.len);
	pms_bbuf__release(&b);
	return err;
}

static int close_pipe(struct pms_data_writer *w)
{
	struct pms_bbuf b = { 0 };
	int err;

	if (pms_data_features__has(&w->feat, PMS_FEAT_BUILD_ID))
		for (size_t i = 0; i < w->feat.nr_build_ids; i++)
			add_build_id_record(&b, &w->feat.build_ids[i]);
	if (b.oom) {
		pms_bbuf__release(&b);
		return -ENOMEM;
	}
	err = pms_fd__write_all(w->fd, b.p, b.len);
	w->data_size += b.len;
	pms_bbuf__release(&b);
	return err;
}

int pms_data_writer__close(struct pms_data_writer *w)
{
	struct pms_bbuf table = { 0 }, payload = { 0 };
	struct pms_data_event_desc *descs = NULL;
	struct pms_file_header h;
	uint64_t feat_offset;
	size_t nr_feat = 0;
	int err;

	if ((err = pms_data_writer__flush(w)))
		return err;
	if (w->pipe) {
		err = close_pipe(w);
		w->closed = true;
		return err;
	}
	if (w->time_seen && !pms_data_features__has(&w->feat, PMS_FEAT_SAMPLE_TIME)) {
		w->feat.sample_time_first_ns = w->time_first;
		w->feat.sample_time_last_ns = w->time_last;
		pms_data_features__set_bit(&w->feat, PMS_FEAT_SAMPLE_TIME);
	}
	if (w->enc)
		w->feat.comp_ratio = w->data_size ? (uint32_t)(w->raw_bytes / w->data_size) : 0;
	if (w->nr_attrs) {
		descs = calloc(w->nr_attrs, sizeof(*descs));
		if (!descs)
			return -ENOMEM;
		for (size_t i = 0; i < w->nr_attrs; i++) {
			descs[i].attr = w->attrs[i].attr;
			descs[i].name = w->attrs[i].name;
			descs[i].ids = w->attrs[i].ids;
			descs[i].nr_ids = (uint32_t)w->attrs[i].nr_ids;
		}
		pms_data_features__set_bit(&w->feat, PMS_FEAT_EVENT_DESC);
	}
	for (unsigned bit = 1; bit < PMS_FEAT_LAST; bit++) {
		struct pms_bbuf probe = { 0 };

		if (!pms_data_features__has(&w->feat, bit))
			continue;
		/* Only features we can encode get a table slot. */
		if (pms_data_feature__encode(&w->feat, bit, descs, (uint32_t)w->nr_attrs, &probe) == 0)
			nr_feat++;
		else
			w->feat.present[bit / 64] &= ~(1ULL << (bit % 64));
		pms_bbuf__release(&probe);
	}
	if ((err = retract_checkpoint(w)))
		goto out;
	feat_offset = w->data_offset + w->data_size;
	{
		uint64_t pay_off = feat_offset + nr_feat * sizeof(struct pms_file_section);

		for (unsigned bit = 1; bit < PMS_FEAT_LAST; bit++) {
			struct pms_file_section s;
			size_t start = payload.len;

			if (!pms_data_features__has(&w->feat, bit))
				continue;
			if (bit == PMS_FEAT_TRACING_DATA && w->td_size) {
				/* already in the file, before the data */
				s.offset = w->td_offset;
				s.size = w->td_size;
				pms_bbuf__add(&table, &s, sizeof(s));
				continue;
			}
			err = pms_data_feature__encode(&w->feat, bit, descs, (uint32_t)w->nr_attrs, &payload);
			if (err)
				goto out;
			s.offset = pay_off + start;
			s.size = payload.len - start;
			pms_bbuf__add(&table, &s, sizeof(s));
		}
	}
	if (table.oom || payload.oom) {
		err = -ENOMEM;
		goto out;
	}
	/* Features first, the header that points at them last. */
	if ((err = pwrite_full(w->fd, table.p, table.len, feat_offset)) ||
	    (err = pwrite_full(w->fd, payload.p, payload.len, feat_offset + table.len)))
		goto out;
	file_header(w, &h, w->attrs_offset);
	memcpy(h.adds_features, w->feat.present, sizeof(h.adds_features));
	err = pwrite_full(w->fd, &h, sizeof(h), 0);
	if (!err && ftruncate(w->fd, (off_t)(feat_offset + table.len + payload.len)) < 0)
		err = -errno;
out:
	free(descs);
	pms_bbuf__release(&table);
	pms_bbuf__release(&payload);
	if (err)
		w->err = err;
	else
		w->closed = true;
	return err;
}

void pms_data_writer__free(struct pms_data_writer *w)
{
	if (!w)
		return;
	if (w->own_fd)
		close(w->fd);
	for (size_t i = 0; i < w->nr_attrs; i++) {
		free(w->attrs[i].name);
		free(w->attrs[i].ids);
	}
	free(w->attrs);
	pms_data_features__release(&w->feat);
	free(w->buf);
	pms_zstd_enc__free(w->enc);
	pms_bbuf__release(&w->zbuf);
	free(w);
}

/* ---- synthesized records ---- */

static void add_sample_id(const struct pms_data_writer *w, struct pms_bbuf *b, uint32_t pid,
			  uint32_t tid, const struct pms_data_sample_id *sid)
{
	struct pms_data_sample_id d = { .pid = pid, .tid = tid };
	uint64_t st;

	if (!w->nr_attrs || !w->attrs[0].attr.sample_id_all)
		return;
	if (sid)
		d = *sid;
	st = w->attrs[0].attr.sample_type;
	if (st & PERF_SAMPLE_TID) {
		pms_bbuf__add_u32(b, d.pid);
		pms_bbuf__add_u32(b, d.tid);
	}
	if (st & PERF_SAMPLE_TIME)
		pms_bbuf__add_u64(b, d.time);
	if (st & PERF_SAMPLE_ID)
		pms_bbuf__add_u64(b, d.id);
	if (st & PERF_SAMPLE_STREAM_ID)
		pms_bbuf__add_u64(b, d.stream_id);
	if (st & PERF_SAMPLE_CPU) {
		pms_bbuf__add_u32(b, d.cpu);
		pms_bbuf__add_u32(b, 0);
	}
	if (st & PERF_SAMPLE_IDENTIFIER)
		pms_bbuf__add_u64(b, d.id);
}

/* NUL-terminated string padded to 8 bytes, as the kernel emits names. */
static void add_name8(struct pms_bbuf *b, const char *s)
{
	size_t n = strlen(s) + 1;

	pms_bbuf__add(b, s, n);
	pms_bbuf__add_zero(b, ((n + 7) & ~(size_t)7) - n);
}

static int emit(struct pms_data_writer *w, struct pms_bbuf *b, uint32_t type, uint16_t misc)
{
	struct perf_event_header h = { .type = type, .misc = misc };
	int err;

	if (b->oom) {
		pms_bbuf__release(b);
		return -ENOMEM;
	}
	if (b->len > PMS_RECORD_MAX_BYTES) {
		pms_bbuf__release(b);
		return -ENAMETOOLONG;
	}
	h.size = (uint16_t)b->len;
	memcpy(b->p, &h, sizeof(h));
	err = pms_data_writer__write(w, b->p, b->len);
	pms_bbuf__release(b);
	return err;
}

int pms_data_writer__comm(struct pms_data_writer *w, uint32_t pid, uint32_t tid, const char *comm,
			  bool exec, const struct pms_data_sample_id *sid)
{
	struct pms_bbuf b = { 0 };

	if (!comm)
		return -EINVAL;
	pms_bbuf__add_zero(&b, sizeof(struct perf_event_header));
	pms_bbuf__add_u32(&b, pid);
	pms_bbuf__add_u32(&b, tid);
	add_name8(&b, comm);
	add_sample_id(w, &b, pid, tid, sid);
	return emit(w, &b, PERF_RECORD_COMM, exec ? PERF_RECORD_MISC_COMM_EXEC : 0);
}

int pms_data_writer__mmap2(struct pms_data_writer *w, const struct pms_data_mmap2 *m,
			   const struct pms_data_sample_id *sid)
{
	struct pms_bbuf b = { 0 };
	uint16_t misc;

	if (!m || !m->filename || (m->build_id && m->build_id_size > PMS_BUILD_ID_MAX))
		return -EINVAL;
	misc = m->cpumode ? m->cpumode : PERF_RECORD_MISC_USER;
	pms_bbuf__add_zero(&b, sizeof(struct perf_event_header));
	pms_bbuf__add_u32(&b, m->pid);
	pms_bbuf__add_u32(&b, m->tid);
	pms_bbuf__add_u64(&b, m->addr);
	pms_bbuf__add_u64(&b, m->len);
	pms_bbuf__add_u64(&b, m->pgoff);
	if (m->build_id) {
		uint8_t id[24] = { 0 };

		id[0] = m->build_id_size;
		memcpy(id + 4, m->build_id, m->build_id_size);
		pms_bbuf__add(&b, id, sizeof(id));
		misc |= PERF_RECORD_MISC_MMAP_BUILD_ID;
	} else {
		pms_bbuf__add_u32(&b, m->maj);
		pms_bbuf__add_u32(&b, m->min);
		pms_bbuf__add_u64(&b, m->ino);
		pms_bbuf__add_u64(&b, m->ino_generation);
	}
	pms_bbuf__add_u32(&b, m->prot);
	pms_bbuf__add_u32(&b, m->flags);
	add_name8(&b, m->filename);
	add_sample_id(w, &b, m->pid, m->tid, sid);
	return emit(w, &b, PERF_RECORD_MMAP2, misc);
}

int pms_data_writer__mmap(struct pms_data_writer *w, uint32_t pid, uint32_t tid, uint64_t addr,
			  uint64_t len, uint64_t pgoff, uint16_t cpumode, const char *filename,
			  const struct pms_data_sample_id *sid)
{
	struct pms_bbuf b = { 0 };

	if (!filename)
		return -EINVAL;
	pms_bbuf__add_zero(&b, sizeof(struct perf_event_header));
	pms_bbuf__add_u32(&b, pid);
	pms_bbuf__add_u32(&b, tid);
	pms_bbuf__add_u64(&b, addr);
	pms_bbuf__add_u64(&b, len);
	pms_bbuf__add_u64(&b, pgoff);
	add_name8(&b, filename);
	add_sample_id(w, &b, pid, tid, sid);
	return emit(w, &b, PERF_RECORD_MMAP, cpumode ? cpumode : PERF_RECORD_MISC_USER);
}

static int task(struct pms_data_writer *w, uint32_t type, uint32_t pid, uint32_t ppid,
		uint32_t tid, uint32_t ptid, uint64_t time_ns, const struct pms_data_sample_id *sid)
{
	struct pms_bbuf b = { 0 };

	pms_bbuf__add_zero(&b, sizeof(struct perf_event_header));
	pms_bbuf__add_u32(&b, pid);
	pms_bbuf__add_u32(&b, ppid);
	pms_bbuf__add_u32(&b, tid);
	pms_bbuf__add_u32(&b, ptid);
	pms_bbuf__add_u64(&b, time_ns);
	add_sample_id(w, &b, pid, tid, sid);
	return emit(w, &b, type, 0);
}

int pms_data_writer__fork(struct pms_data_writer *w, uint32_t pid, uint32_t ppid, uint32_t tid,
			  uint32_t ptid, uint64_t time_ns, const struct pms_data_sample_id *sid)
{
	return task(w, PERF_RECORD_FORK, pid, ppid, tid, ptid, time_ns, sid);
}

int pms_data_writer__exit(struct pms_data_writer *w, uint32_t pid, uint32_t ppid, uint32_t tid,
			  uint32_t ptid, uint64_t time_ns, const struct pms_data_sample_id *sid)
{
	return task(w, PERF_RECORD_EXIT, pid, ppid, tid, ptid, time_ns, sid);
}

int pms_data_writer__finished_round(struct pms_data_writer *w)
{
	struct perf_event_header h = { .type = PMS_RECORD_FINISHED_ROUND, .size = sizeof(h) };

	return pms_data_writer__write(w, &h, sizeof(h));
}
