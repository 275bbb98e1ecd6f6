// SPDX-License-Identifier: MIT
// Unit tests of feature payloads given as bytes (pms_data_features__set_raw): HEADER_TRACING_DATA in file and pipe mode, as perf writes it, and SAMPLE_TIME with events of different sample layouts.
#include <criterion/criterion.h>
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "data/features.h"
#include "data/format.h"
#include "data/reader.h"
#include "data/writer.h"
#include "memfd_file.h"

/* A tracepoint sample: IP|TID|TIME|CPU|PERIOD|RAW with a 12-byte payload (+4 for the size). */
struct tp_sample {
	struct perf_event_header h;
	uint64_t ip;
	uint32_t pid, tid;
	uint64_t time;
	uint32_t cpu, res;
	uint64_t period;
	uint32_t raw_size;
	uint8_t raw[12];
};

#define TP_ST (PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | \
	       PERF_SAMPLE_RAW)

/* 13 bytes: not a multiple of 8, so the pipe record needs padding */
static const char blob[] = "\027\010\104tracing0.6";

static struct pms_data_writer *writer(int fd, bool pipe)
{
	struct pms_data_writer_opts o = { .sz = sizeof(o), .pipe = pipe };
	struct perf_event_attr a = { .type = PERF_TYPE_TRACEPOINT, .size = sizeof(a), .config = 372,
				     .sample_period = 1, .sample_type = TP_ST, .sample_id_all = 1 };
	struct pms_data_writer *w;

	cr_assert_eq(pms_data_writer__open_fd(&w, fd, &o), 0);
	cr_assert_eq(pms_data_writer__add_attr(w, &a, "sched:sched_switch", NULL, 0), 0);
	cr_assert_eq(pms_data_features__set_str(pms_data_writer__features(w), PMS_FEAT_HOSTNAME, "h"), 0);
	cr_assert_eq(pms_data_features__set_raw(pms_data_writer__features(w), PMS_FEAT_TRACING_DATA, blob,
						sizeof(blob) - 1), 0);
	return w;
}

static void write_sample(struct pms_data_writer *w, uint64_t time)
{
	struct tp_sample s = {
		.h = { .type = PERF_RECORD_SAMPLE, .misc = PERF_RECORD_MISC_KERNEL, .size = sizeof(s) },
		.ip = 0xffffffff81000000ULL, .pid = 1, .tid = 1, .time = time, .period = 1, .raw_size = 12,
	};

	cr_assert_eq(pms_data_writer__write(w, &s, sizeof(s)), 0);
}

Test(raw_feature, file_mode_writes_the_bytes_as_the_section)
{
	int fd = new_memfd();
	struct pms_data_writer *w = writer(fd, false);
	struct pms_data_reader *r;
	const void *p;
	uint8_t *buf;
	size_t len, n;

	write_sample(w, 100);
	cr_assert_eq(pms_data_writer__close(w), 0);
	pms_data_writer__free(w);
	buf = slurp(fd, &len);
	cr_assert_eq(pms_data_reader__open_mem(&r, buf, len, NULL, NULL), 0);
	/* the header's feature bit (the reader keeps only features it decodes in its struct) */
	cr_assert(buf[offsetof(struct pms_file_header, adds_features)] & (1u << PMS_FEAT_TRACING_DATA));
	cr_assert_eq(pms_data_reader__feature_raw(r, PMS_FEAT_TRACING_DATA, &p, &n), 0);
	cr_expect_eq(n, sizeof(blob) - 1, "the section is the container, unpadded, as perf writes it");
	cr_expect_eq(memcmp(p, blob, n), 0);
	/* the structured features still go out beside it */
	cr_expect_str_eq(pms_data_reader__features(r)->hostname, "h");
	pms_data_reader__free(r);
	free(buf);
	close(fd);
}

Test(raw_feature, pipe_mode_sends_perfs_tracing_data_record)
{
	int fd = new_memfd();
	struct pms_data_writer *w = writer(fd, true);
	struct pms_data_reader *r;
	const struct perf_event_header *ev;
	const void *p;
	uint8_t *buf;
	size_t len, n, off = 16;
	uint32_t size, pad;
	int found = 0, nsamples = 0;

	write_sample(w, 100);
	cr_assert_eq(pms_data_writer__close(w), 0);
	pms_data_writer__free(w);
	buf = slurp(fd, &len);
	/* walk the stream: one 16-byte record, u32 padded size, u32 0, the bytes, zeros to 8 */
	while (off + 8 <= len) {
		struct perf_event_header h;

		memcpy(&h, buf + off, sizeof(h));
		cr_assert_geq(h.size, 8);
		if (h.type == PMS_RECORD_HEADER_TRACING_DATA) {
			found++;
			cr_expect_eq(h.size, 16);
			memcpy(&size, buf + off + 8, 4);
			memcpy(&pad, buf + off + 12, 4);
			cr_expect_eq(size, 16, "13 bytes padded to 8");
			cr_expect_eq(pad, 0);
			cr_expect_eq(memcmp(buf + off + 16, blob, sizeof(blob) - 1), 0);
			cr_expect_eq(buf[off + 16 + 13] | buf[off + 16 + 14] | buf[off + 16 + 15], 0);
			off += size;
		}
		off += h.size;
	}
	cr_expect_eq(off, len);
	cr_expect_eq(found, 1);
	cr_assert_eq(pms_data_reader__open_mem(&r, buf, len, NULL, NULL), 0);
	cr_assert_eq(pms_data_reader__feature_raw(r, PMS_FEAT_TRACING_DATA, &p, &n), 0);
	cr_expect_eq(memcmp(p, blob, sizeof(blob) - 1), 0);
	cr_expect_str_eq(pms_data_reader__features(r)->hostname, "h");
	while (pms_data_reader__next(r, &ev, NULL) > 0)
		nsamples += ev->type == PERF_RECORD_SAMPLE;
	cr_expect_eq(nsamples, 1, "the reader steps over the tracing data to the sample");
	pms_data_reader__free(r);
	free(buf);
	close(fd);
}

Test(raw_feature, set_raw_replaces_and_checks)
{
	struct pms_data_features f = { 0 };
	const struct pms_data_raw_feature *raw;

	cr_expect_eq(pms_data_features__set_raw(&f, 0, "x", 1), -EINVAL);
	cr_expect_eq(pms_data_features__set_raw(&f, PMS_FEAT_LAST, "x", 1), -EINVAL);
	cr_expect_eq(pms_data_features__set_raw(&f, PMS_FEAT_TRACING_DATA, NULL, 4), -EINVAL);
	cr_expect_null(pms_data_features__raw(&f, PMS_FEAT_TRACING_DATA));
	cr_expect_not(pms_data_features__has(&f, PMS_FEAT_TRACING_DATA));
	cr_assert_eq(pms_data_features__set_raw(&f, PMS_FEAT_TRACING_DATA, "abc", 3), 0);
	cr_assert_eq(pms_data_features__set_raw(&f, PMS_FEAT_TRACING_DATA, "defgh", 5), 0);
	raw = pms_data_features__raw(&f, PMS_FEAT_TRACING_DATA);
	cr_assert_not_null(raw);
	cr_expect_eq(raw->size, 5);
	cr_expect_eq(memcmp(raw->bytes, "defgh", 5), 0);
	cr_expect_eq(f.nr_raw, 1);
	cr_expect(pms_data_features__has(&f, PMS_FEAT_TRACING_DATA));
	pms_data_features__release(&f);
	cr_expect_eq(f.nr_raw, 0);
}

/* A tracepoint beside a cpu-clock: different layouts after TIME, the same before it. */
Test(raw_feature, sample_time_with_different_sample_types)
{
	struct pms_data_writer_opts o = { .sz = sizeof(o) };
	struct perf_event_attr tp = { .type = PERF_TYPE_TRACEPOINT, .size = sizeof(tp), .config = 372,
				      .sample_type = TP_ST | PERF_SAMPLE_IDENTIFIER, .sample_id_all = 1 };
	struct perf_event_attr clk = { .type = PERF_TYPE_SOFTWARE, .size = sizeof(clk),
				       .sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |
						      PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD,
				       .sample_id_all = 1 };
	struct {
		struct perf_event_header h;
		uint64_t id, ip;
		uint32_t pid, tid;
		uint64_t time, period;
	} s = { .h = { .type = PERF_RECORD_SAMPLE, .size = sizeof(s) }, .id = 2, .time = 700, .period = 1 };
	struct pms_data_writer *w;
	struct pms_data_reader *r;
	uint64_t id1 = 1, id2 = 2;
	int fd = new_memfd();
	uint8_t *buf;
	size_t len;

	cr_assert_eq(pms_data_writer__open_fd(&w, fd, &o), 0);
	cr_assert_eq(pms_data_writer__add_attr(w, &tp, "sched:sched_switch", &id1, 1), 0);
	cr_assert_eq(pms_data_writer__add_attr(w, &clk, "cpu-clock", &id2, 1), 0);
	cr_assert_eq(pms_data_writer__write(w, &s, sizeof(s)), 0);
	s.time = 300;
	cr_assert_eq(pms_data_writer__write(w, &s, sizeof(s)), 0);
	cr_assert_eq(pms_data_writer__close(w), 0);
	pms_data_writer__free(w);
	buf = slurp(fd, &len);
	cr_assert_eq(pms_data_reader__open_mem(&r, buf, len, NULL, NULL), 0);
	cr_expect(pms_data_features__has(pms_data_reader__features(r), PMS_FEAT_SAMPLE_TIME));
	cr_expect_eq(pms_data_reader__features(r)->sample_time_first_ns, 300);
	cr_expect_eq(pms_data_reader__features(r)->sample_time_last_ns, 700);
	pms_data_reader__free(r);
	free(buf);
	close(fd);
}

/*
 * A recorder killed after a flush: the tracing data is already in the file
 * (before the data) and the checkpoint table after the data points at it,
 * so perf, which refuses tracepoint events without it, still reads the file.
 */
static void killed_after_flush(int level)
{
	struct pms_data_writer_opts o = { .sz = sizeof(o), .compress_level = level };
	struct perf_event_attr a = { .type = PERF_TYPE_TRACEPOINT, .size = sizeof(a), .config = 372,
				     .sample_period = 1, .sample_type = TP_ST, .sample_id_all = 1 };
	const struct perf_event_header *ev;
	struct pms_data_writer *w;
	struct pms_data_reader *r;
	struct pms_file_header h;
	const void *p;
	int fd = new_memfd(), nsamples = 0, err;
	uint8_t *buf;
	size_t len, n;

	err = pms_data_writer__open_fd(&w, fd, &o);
	if (err == -EOPNOTSUPP) {
		close(fd);
		return; /* a build without zstd */
	}
	cr_assert_eq(err, 0);
	cr_assert_eq(pms_data_writer__add_attr(w, &a, "sched:sched_switch", NULL, 0), 0);
	cr_assert_eq(pms_data_features__set_raw(pms_data_writer__features(w), PMS_FEAT_TRACING_DATA, blob,
						sizeof(blob) - 1), 0);
	for (int i = 0; i < 3; i++) {
		write_sample(w, 100 + (uint64_t)i);
		cr_assert_eq(pms_data_writer__flush(w), 0);
	}
	write_sample(w, 200); /* buffered, lost with the recorder */
	pms_data_writer__free(w);
	buf = slurp(fd, &len);
	memcpy(&h, buf, sizeof(h));
	cr_expect(h.adds_features[0] & (1ULL << PMS_FEAT_TRACING_DATA));
	cr_expect_eq(!!(h.adds_features[0] & (1ULL << PMS_FEAT_COMPRESSED)), level > 0);
	cr_assert_eq(pms_data_reader__open_mem(&r, buf, len, NULL, NULL), 0);
	cr_assert_eq(pms_data_reader__feature_raw(r, PMS_FEAT_TRACING_DATA, &p, &n), 0);
	cr_expect_eq(n, sizeof(blob) - 1);
	cr_expect_eq(memcmp(p, blob, n), 0);
	cr_expect_lt(h.attrs.offset + h.attrs.size, h.data.offset, "the tracing data sits before the data");
	while (pms_data_reader__next(r, &ev, NULL) > 0)
		nsamples += ev->type == PERF_RECORD_SAMPLE;
	cr_expect_eq(nsamples, 3, "the flushed samples, not the buffered one");
	pms_data_reader__free(r);
	free(buf);
	close(fd);
}

Test(raw_feature, killed_tracepoint_recording_keeps_its_tracing_data)
{
	killed_after_flush(0);
}

Test(raw_feature, killed_compressed_tracepoint_recording_keeps_both)
{
	killed_after_flush(3);
}
