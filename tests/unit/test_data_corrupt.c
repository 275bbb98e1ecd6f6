// SPDX-License-Identifier: MIT
// Unit tests of lib/data's reader on damaged input: offset-naming errors, recovery, killed files, odd attr sizes.
#include <criterion/criterion.h>
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "data/format.h"
#include "data/reader.h"
#include "data/writer.h"

struct smp {
	struct perf_event_header h;
	uint64_t ip;
	uint32_t pid, tid;
	uint64_t time;
};

static const struct pms_data_reader_opts strict = { .sz = sizeof(strict) };
static const struct pms_data_reader_opts recover = { .sz = sizeof(recover), .recover = true };

/* A finalized (or only flushed) file: one attr, nr 32-byte samples, hostname feature. */
static uint8_t *small_file(int nr, bool finalize, int level, size_t *len, uint64_t *data_off)
{
	struct pms_data_writer_opts o = { .sz = sizeof(o), .compress_level = level };
	struct perf_event_attr a = { .type = PERF_TYPE_SOFTWARE,
				     .sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME };
	uint64_t ids[] = { 7 };
	struct pms_data_writer *w;
	int fd = memfd_create("pms-data-corrupt", 0);
	uint8_t *buf;
	off_t end;

	cr_assert_geq(fd, 0);
	cr_assert_eq(pms_data_writer__open_fd(&w, fd, &o), 0);
	cr_assert_eq(pms_data_writer__add_attr(w, &a, "cpu-clock", ids, 1), 0);
	cr_assert_eq(pms_data_features__set_str(pms_data_writer__features(w), PMS_FEAT_HOSTNAME, "box"), 0);
	cr_assert_eq(pms_data_features__set_str(pms_data_writer__features(w), PMS_FEAT_ARCH, "x86_64"), 0);
	for (int i = 0; i < nr; i++) {
		struct smp s = { { PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER, sizeof(s) }, 0x1000 + (uint64_t)i, 1, 1, (uint64_t)i };

		cr_assert_eq(pms_data_writer__write(w, &s, sizeof(s)), 0);
	}
	cr_assert_eq(finalize ? pms_data_writer__close(w) : pms_data_writer__flush(w), 0);
	pms_data_writer__free(w);
	end = lseek(fd, 0, SEEK_END);
	buf = malloc((size_t)end);
	cr_assert_eq(pread(fd, buf, (size_t)end, 0), end);
	close(fd);
	*len = (size_t)end;
	memcpy(data_off, buf + offsetof(struct pms_file_header, data.offset), 8);
	return buf;
}

static int count(struct pms_data_reader *r, int *rc)
{
	const struct perf_event_header *ev;
	int n = 0;

	while ((*rc = pms_data_reader__next(r, &ev, NULL)) == 1)
		n++;
	return n;
}

Test(data_corrupt, truncated_record_names_offset)
{
	size_t len;
	uint64_t d;
	uint8_t *buf = small_file(3, true, 0, &len, &d);
	uint64_t third = d + 2 * sizeof(struct smp);
	struct pms_data_reader *r;
	char want[128];
	uint16_t big = 64;
	int rc;

	memcpy(buf + third + 6, &big, 2);
	cr_assert_eq(pms_data_reader__open_mem(&r, buf, len, &strict, NULL), 0);
	cr_assert_eq(count(r, &rc), 2);
	cr_assert_eq(rc, -EBADMSG);
	snprintf(want, sizeof(want), "truncated record at offset 0x%llx (size 64, 32 bytes left)",
		 (unsigned long long)third);
	cr_assert_str_eq(pms_data_reader__error(r)->msg, want);
	cr_assert_eq(pms_data_reader__error(r)->offset, third);
	pms_data_reader__free(r);

	cr_assert_eq(pms_data_reader__open_mem(&r, buf, len, &recover, NULL), 0);
	cr_assert_eq(count(r, &rc), 2);
	cr_assert_eq(rc, 0, "recovery ends cleanly");
	cr_assert_str_eq(pms_data_reader__error(r)->msg, want);
	pms_data_reader__free(r);
	free(buf);
}

Test(data_corrupt, zero_size_record)
{
	size_t len;
	uint64_t d;
	uint8_t *buf = small_file(3, true, 0, &len, &d);
	struct pms_data_reader *r;
	char want[128];
	uint16_t zero = 0;
	int rc;

	memcpy(buf + d + sizeof(struct smp) + 6, &zero, 2);
	cr_assert_eq(pms_data_reader__open_mem(&r, buf, len, &strict, NULL), 0);
	cr_assert_eq(count(r, &rc), 1);
	cr_assert_eq(rc, -EBADMSG);
	snprintf(want, sizeof(want), "bad record size 0 at offset 0x%llx (type 9)", (unsigned long long)(d + sizeof(struct smp)));
	cr_assert_str_eq(pms_data_reader__error(r)->msg, want);
	pms_data_reader__free(r);
	free(buf);
}

Test(data_corrupt, bad_headers)
{
	uint8_t buf[128] = "PERFILE2";
	struct pms_data_reader *r;
	struct pms_data_error e;
	uint64_t v = 104;

	cr_assert_eq(pms_data_reader__open_mem(&r, buf, 10, &strict, &e), -EINVAL);
	cr_assert_null(r);
	cr_assert(strstr(e.msg, "too short"), "%s", e.msg);
	memcpy(buf, "2ELIFREP", 8);
	cr_assert_eq(pms_data_reader__open_mem(&r, buf, sizeof(buf), &strict, &e), -EPROTONOSUPPORT);
	cr_assert(strstr(e.msg, "byte order"), "%s", e.msg);
	memcpy(buf, "PERFFILE", 8);
	cr_assert_eq(pms_data_reader__open_mem(&r, buf, sizeof(buf), &strict, &e), -EPROTONOSUPPORT);
	memcpy(buf, "ELF\x7f....", 8);
	cr_assert_eq(pms_data_reader__open_mem(&r, buf, sizeof(buf), &strict, &e), -EINVAL);
	cr_assert(strstr(e.msg, "not a perf.data file"), "%s", e.msg);
	memcpy(buf, "PERFILE2", 8);
	memcpy(buf + 8, &v, 8);
	cr_assert_eq(pms_data_reader__open_mem(&r, buf, 60, &strict, &e), -EBADMSG);
	cr_assert(strstr(e.msg, "truncated header"), "%s", e.msg);
	v = 50;
	memcpy(buf + 8, &v, 8);
	cr_assert_eq(pms_data_reader__open_mem(&r, buf, sizeof(buf), &strict, &e), -EBADMSG);
	/* attr_size 0 */
	v = 104;
	memcpy(buf + 8, &v, 8);
	cr_assert_eq(pms_data_reader__open_mem(&r, buf, sizeof(buf), &strict, &e), -EBADMSG);
	cr_assert(strstr(e.msg, "attr entry size 0"), "%s", e.msg);
}

Test(data_corrupt, data_past_eof_strict_and_recover)
{
	size_t len;
	uint64_t d;
	uint8_t *buf = small_file(10, true, 0, &len, &d);
	size_t cut = d + 5 * sizeof(struct smp) + 10;
	struct pms_data_reader *r;
	struct pms_data_error e;
	int rc;

	cr_assert_eq(pms_data_reader__open_mem(&r, buf, cut, &strict, &e), -EBADMSG);
	cr_assert(strstr(e.msg, "extends past end of file"), "%s", e.msg);
	cr_assert_eq(pms_data_reader__open_mem(&r, buf, cut, &recover, &e), 0);
	cr_assert_not_null(pms_data_reader__warning(r));
	cr_assert_eq(count(r, &rc), 5);
	cr_assert_eq(rc, 0);
	cr_assert(strstr(pms_data_reader__error(r)->msg, "truncated record at offset"), "%s",
		  pms_data_reader__error(r)->msg);
	pms_data_reader__free(r);
	free(buf);
}

Test(data_corrupt, zero_data_size_scans_to_eof)
{
	size_t len;
	uint64_t d, zero = 0;
	uint8_t *buf = small_file(10, false, 0, &len, &d);
	struct pms_data_reader *r;
	int rc;

	memcpy(buf + offsetof(struct pms_file_header, data.size), &zero, 8);
	cr_assert_eq(pms_data_reader__open_mem(&r, buf, len, &strict, NULL), 0);
	cr_assert(pms_data_reader__scanned_to_eof(r));
	cr_assert(strstr(pms_data_reader__warning(r), "data size in the header is 0"));
	cr_assert_eq(count(r, &rc), 10);
	cr_assert_eq(rc, 0);
	pms_data_reader__free(r);
	free(buf);
}

/* A finished file without records (inject of an input with none) is empty, not "killed": its features follow. */
Test(data_corrupt, finished_file_without_records_is_empty)
{
	size_t len;
	uint64_t d;
	uint8_t *buf = small_file(0, true, 0, &len, &d);
	struct pms_data_reader *r;
	int rc;

	cr_assert_eq(pms_data_reader__open_mem(&r, buf, len, &strict, NULL), 0);
	cr_assert_not(pms_data_reader__scanned_to_eof(r), "the features are not records");
	cr_assert_null(pms_data_reader__warning(r));
	cr_assert_eq(count(r, &rc), 0);
	cr_assert_eq(rc, 0);
	pms_data_reader__free(r);
	free(buf);
}

/*
 * perf killed: its header already lists features (written at the start) but
 * says data size 0, and records run to the end; they are not a feature table.
 */
Test(data_corrupt, zero_data_size_with_features_listed_scans_to_eof)
{
	size_t len;
	uint64_t d, dsize, zero = 0;
	uint8_t *buf = small_file(10, true, 0, &len, &d);
	struct pms_data_reader *r;
	int rc;

	memcpy(&dsize, buf + offsetof(struct pms_file_header, data.size), 8);
	memcpy(buf + offsetof(struct pms_file_header, data.size), &zero, 8);
	cr_assert_eq(pms_data_reader__open_mem(&r, buf, (size_t)(d + dsize), &strict, NULL), 0);
	cr_assert(pms_data_reader__scanned_to_eof(r));
	cr_assert_eq(count(r, &rc), 10);
	cr_assert_eq(rc, 0);
	pms_data_reader__free(r);
	free(buf);
}

Test(data_corrupt, old_and_new_attr_sizes)
{
	/* Hand-built: attr_size 64+16 (PERF_ATTR_SIZE_VER0), then one of 128+8+16 (a newer, bigger attr). */
	for (int variant = 0; variant < 2; variant++) {
		size_t asz = variant ? sizeof(struct perf_event_attr) + 8 : PERF_ATTR_SIZE_VER0;
		uint8_t buf[512] = { 0 };
		struct pms_file_header h = { .size = 104, .attr_size = asz + 16 };
		struct perf_event_attr a = { .type = 1, .config = 3, .sample_type = PERF_SAMPLE_IP, .size = (uint32_t)asz };
		struct pms_file_section ids = { 104, 8 };
		struct perf_event_header ev = { PERF_RECORD_SAMPLE, 0, 16 };
		uint64_t id = 5, ip = 0x1234;
		struct pms_data_reader *r;
		struct pms_data_error e;
		size_t off = 104 + 8 + asz + 16;
		int rc;

		memcpy(h.magic, "PERFILE2", 8);
		h.attrs = (struct pms_file_section){ 112, asz + 16 };
		h.data = (struct pms_file_section){ off, 16 };
		memcpy(buf, &h, sizeof(h));
		memcpy(buf + 104, &id, 8);
		memcpy(buf + 112, &a, asz < sizeof(a) ? asz : sizeof(a));
		memcpy(buf + 112 + asz, &ids, sizeof(ids));
		memcpy(buf + off, &ev, 8);
		memcpy(buf + off + 8, &ip, 8);
		cr_assert_eq(pms_data_reader__open_mem(&r, buf, off + 16, &strict, &e), 0, "%s", e.msg);
		cr_assert_eq(pms_data_reader__nr_attrs(r), 1);
		cr_assert_eq(pms_data_reader__attr(r, 0)->config, 3);
		cr_assert_eq(pms_data_reader__attr(r, 0)->sample_type, PERF_SAMPLE_IP);
		cr_assert_eq(pms_data_reader__attr(r, 0)->sample_regs_intr, 0, "zero-extended");
		cr_assert_eq(pms_data_reader__attr_of_id(r, 5), 0);
		cr_assert_eq(count(r, &rc), 1);
		cr_assert_eq(rc, 0);
		pms_data_reader__free(r);
	}
}

Test(data_corrupt, attrs_and_ids_out_of_bounds)
{
	size_t len;
	uint64_t d, v;
	uint8_t *buf = small_file(2, true, 0, &len, &d);
	struct pms_data_reader *r;
	struct pms_data_error e;
	uint64_t attrs_off;

	/* ids section of attr 0 points past EOF. */
	memcpy(&attrs_off, buf + offsetof(struct pms_file_header, attrs.offset), 8);
	v = len + 100;
	memcpy(buf + attrs_off + sizeof(struct perf_event_attr), &v, 8);
	cr_assert_eq(pms_data_reader__open_mem(&r, buf, len, &strict, &e), -EBADMSG);
	cr_assert(strstr(e.msg, "ids of attr 0"), "%s", e.msg);
	cr_assert_eq(pms_data_reader__open_mem(&r, buf, len, &recover, &e), 0);
	cr_assert(strstr(pms_data_reader__warning(r), "ids of attr 0"));
	pms_data_reader__free(r);
	/* attrs section size not a multiple of attr_size */
	v = 145;
	memcpy(buf + offsetof(struct pms_file_header, attrs.size), &v, 8);
	cr_assert_eq(pms_data_reader__open_mem(&r, buf, len, &recover, &e), -EBADMSG);
	cr_assert(strstr(e.msg, "not a multiple"), "%s", e.msg);
	free(buf);
}

Test(data_corrupt, damaged_feature_is_left_out)
{
	size_t len;
	uint64_t d, dsize;
	uint8_t *buf = small_file(2, true, 0, &len, &d);
	struct pms_data_reader *r;
	struct pms_file_section hostname;
	uint32_t huge = 100000;

	memcpy(&dsize, buf + offsetof(struct pms_file_header, data.size), 8);
	/* First feature section is HOSTNAME (bit 3), then ARCH (bit 6). */
	memcpy(&hostname, buf + d + dsize, sizeof(hostname));
	memcpy(buf + hostname.offset, &huge, 4);
	cr_assert_eq(pms_data_reader__open_mem(&r, buf, len, &strict, NULL), 0);
	cr_assert_null(pms_data_reader__features(r)->hostname);
	cr_assert_str_eq(pms_data_reader__features(r)->arch, "x86_64");
	cr_assert(strstr(pms_data_reader__warning(r), "HOSTNAME"), "%s", pms_data_reader__warning(r));
	pms_data_reader__free(r);
	free(buf);
}

Test(data_corrupt, corrupt_zstd_names_record)
{
	size_t len;
	uint64_t d;
	uint8_t *buf = small_file(200, true, 3, &len, &d);
	struct pms_data_reader *r;
	struct perf_event_header h;
	char want[96];
	int rc;

	memcpy(&h, buf + d, 8);
	cr_assert_eq(h.type, PMS_RECORD_COMPRESSED);
	for (int i = 8; i < h.size; i++)
		buf[d + (size_t)i] ^= 0x5a;
	cr_assert_eq(pms_data_reader__open_mem(&r, buf, len, &strict, NULL), 0);
	cr_assert_eq(count(r, &rc), 0);
	cr_assert_eq(rc, -EBADMSG);
	snprintf(want, sizeof(want), "compressed record at offset 0x%llx: corrupt zstd data", (unsigned long long)d);
	cr_assert_str_eq(pms_data_reader__error(r)->msg, want);
	pms_data_reader__free(r);
	free(buf);
}

/* Every prefix and many bit flips: never a crash (the sanitizer build checks the bounds). */
Test(data_corrupt, prefixes_and_flips_never_crash)
{
	for (int level = 0; level <= 3; level += 3) {
		size_t len;
		uint64_t d;
		uint8_t *buf = small_file(40, true, level, &len, &d);
		uint8_t *copy = malloc(len);
		uint32_t seed = 42;

		for (size_t cut = 0; cut <= len; cut++) {
			for (int mode = 0; mode < 2; mode++) {
				struct pms_data_reader *r;
				int rc;

				memcpy(copy, buf, cut);
				if (pms_data_reader__open_mem(&r, copy, cut, mode ? &recover : &strict, NULL))
					continue;
				count(r, &rc);
				pms_data_reader__free(r);
			}
		}
		for (int i = 0; i < 3000; i++) {
			struct pms_data_reader *r;
			int rc;

			memcpy(copy, buf, len);
			for (int k = 0; k < 4; k++) {
				seed = seed * 1103515245 + 12345;
				copy[(seed >> 8) % len] ^= (uint8_t)(1u << ((seed >> 4) % 8));
			}
			if (pms_data_reader__open_mem(&r, copy, len, &recover, NULL))
				continue;
			count(r, &rc);
			pms_data_reader__free(r);
		}
		free(copy);
		free(buf);
	}
}
