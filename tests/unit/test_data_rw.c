// SPDX-License-Identifier: MIT
// Unit tests of lib/data: perf.data write/read round trips (plain, zstd, pipe), crash leftovers, damage, features.
#include <criterion/criterion.h>
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "data/features.h"
#include "data/format.h"
#include "data/header_text.h"
#include "data/reader.h"
#include "data/writer.h"
#include "memfd_file.h"

/* A sample with sample_type IDENTIFIER|IP|TID|TIME|PERIOD. */
struct sample {
	struct perf_event_header h;
	uint64_t id;
	uint64_t ip;
	uint32_t pid, tid;
	uint64_t time;
	uint64_t period;
};

#define ST (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD)

static struct sample mk_sample(uint64_t id, int i)
{
	struct sample s = {
		.h = { .type = PERF_RECORD_SAMPLE, .misc = PERF_RECORD_MISC_USER, .size = sizeof(s) },
		.id = id,
		.ip = 0x401000 + (uint64_t)i * 16,
		.pid = 77, .tid = 78,
		.time = 5000 + (uint64_t)i,
		.period = 100,
	};
	return s;
}

static void add_two_attrs(struct pms_data_writer *w)
{
	struct perf_event_attr a = { .type = PERF_TYPE_SOFTWARE, .config = PERF_COUNT_SW_CPU_CLOCK,
				     .sample_period = 4000, .sample_type = ST, .sample_id_all = 1 };
	uint64_t ids_a[] = { 11, 12 }, ids_b[] = { 21, 22, 23 };

	cr_assert_eq(pms_data_writer__add_attr(w, &a, "cpu-clock", ids_a, 2), 0);
	a.config = PERF_COUNT_SW_TASK_CLOCK;
	cr_assert_eq(pms_data_writer__add_attr(w, &a, "task-clock", ids_b, 3), 0);
}

static void fill_features(struct pms_data_features *f)
{
	char *argv[] = { "pmuscope", "record", "--", "./a b" };
	uint8_t id1[20], id2[16];

	for (int i = 0; i < 20; i++)
		id1[i] = (uint8_t)(0xa0 + i);
	for (int i = 0; i < 16; i++)
		id2[i] = (uint8_t)i;
	cr_assert_eq(pms_data_features__set_str(f, PMS_FEAT_HOSTNAME, "box"), 0);
	cr_assert_eq(pms_data_features__set_str(f, PMS_FEAT_OSRELEASE, "6.1.0-test"), 0);
	cr_assert_eq(pms_data_features__set_str(f, PMS_FEAT_VERSION, "pmuscope 0.1.0"), 0);
	cr_assert_eq(pms_data_features__set_str(f, PMS_FEAT_ARCH, "x86_64"), 0);
	cr_assert_eq(pms_data_features__set_str(f, PMS_FEAT_CPUDESC, "AMD EPYC 7B13 64-Core Processor"), 0);
	cr_assert_eq(pms_data_features__set_str(f, PMS_FEAT_CPUID, "AuthenticAMD,25,1,1"), 0);
	f->nr_cpus_avail = 4;
	f->nr_cpus_online = 2;
	pms_data_features__set_bit(f, PMS_FEAT_NRCPUS);
	f->total_mem_kb = 24682416;
	pms_data_features__set_bit(f, PMS_FEAT_TOTAL_MEM);
	cr_assert_eq(pms_data_features__set_cmdline(f, 4, argv), 0);
	cr_assert_eq(pms_data_features__add_build_id(f, "/usr/bin/a", id1, 20, -1, PERF_RECORD_MISC_USER), 0);
	cr_assert_eq(pms_data_features__add_build_id(f, "[kernel.kallsyms]", id2, 16, -1, PERF_RECORD_MISC_KERNEL), 0);
	cr_assert_eq(pms_data_features__add_pmu(f, 4, "cpu"), 0);
	cr_assert_eq(pms_data_features__add_pmu(f, 1, "software"), 0);
	/* 4 CPUs avail, topology known for 3: the 4th is written as -1. */
	f->core_siblings.s = calloc(1, sizeof(char *));
	f->core_siblings.s[0] = strdup("0-2");
	f->core_siblings.nr = 1;
	f->thread_siblings.s = calloc(2, sizeof(char *));
	f->thread_siblings.s[0] = strdup("0-1");
	f->thread_siblings.s[1] = strdup("2");
	f->thread_siblings.nr = 2;
	f->cpus = calloc(3, sizeof(*f->cpus));
	for (int i = 0; i < 3; i++)
		f->cpus[i] = (struct pms_data_cpu_topo){ .core_id = i / 2, .socket_id = 0, .die_id = 0 };
	f->nr_cpus = 3;
	pms_data_features__set_bit(f, PMS_FEAT_CPU_TOPOLOGY);
}

/* Writes the standard test file to a memfd; returns its bytes. */
static uint8_t *write_standard(const struct pms_data_writer_opts *opts, int nr_samples, size_t *len,
			       bool finalize)
{
	struct pms_data_writer *w;
	struct pms_data_mmap2 m = { .pid = 77, .tid = 77, .addr = 0x400000, .len = 0x2000,
				    .pgoff = 0, .prot = 5, .flags = 2, .filename = "/usr/bin/a" };
	int fd = new_memfd();
	uint8_t *buf;

	cr_assert_eq(pms_data_writer__open_fd(&w, fd, opts), 0);
	add_two_attrs(w);
	fill_features(pms_data_writer__features(w));
	cr_assert_eq(pms_data_writer__comm(w, 77, 78, "worker", true, NULL), 0);
	cr_assert_eq(pms_data_writer__mmap2(w, &m, NULL), 0);
	cr_assert_eq(pms_data_writer__fork(w, 77, 1, 78, 1, 4000, NULL), 0);
	for (int i = 0; i < nr_samples; i++) {
		struct sample s = mk_sample(i % 5 < 2 ? 11 + (uint64_t)(i % 2) : 21 + (uint64_t)(i % 3), i);

		cr_assert_eq(pms_data_writer__write(w, &s, sizeof(s)), 0);
		if (i % 100 == 99)
			cr_assert_eq(pms_data_writer__finished_round(w), 0);
	}
	cr_assert_eq(pms_data_writer__exit(w, 77, 1, 78, 1, 9000, NULL), 0);
	if (finalize)
		cr_assert_eq(pms_data_writer__close(w), 0);
	else
		cr_assert_eq(pms_data_writer__flush(w), 0);
	pms_data_writer__free(w);
	buf = slurp(fd, len);
	close(fd);
	return buf;
}

static const struct pms_data_reader_opts strict = { .sz = sizeof(strict) };
static const struct pms_data_reader_opts recover = { .sz = sizeof(recover), .recover = true };

/* Iterate everything; checks the sequence the standard writer produced. */
static void check_standard_records(struct pms_data_reader *r, int nr_samples)
{
	const struct perf_event_header *ev;
	int i = 0, n = 0, rounds = 0, rc;
	uint32_t expect_head[] = { PERF_RECORD_COMM, PERF_RECORD_MMAP2, PERF_RECORD_FORK };

	while ((rc = pms_data_reader__next(r, &ev, NULL)) == 1) {
		cr_assert_eq((uintptr_t)ev % 8, 0, "record not aligned");
		if (n < 3) {
			cr_assert_eq(ev->type, expect_head[n], "record %d type %u", n, ev->type);
		} else if (ev->type == PERF_RECORD_SAMPLE) {
			struct sample want = mk_sample(i % 5 < 2 ? 11 + (uint64_t)(i % 2) : 21 + (uint64_t)(i % 3), i);

			cr_assert_eq(ev->size, sizeof(want));
			cr_assert_eq(memcmp(ev, &want, sizeof(want)), 0, "sample %d differs", i);
			cr_assert_eq(pms_data_reader__record_attr(r, ev), i % 5 < 2 ? 0 : 1);
			i++;
		} else if (ev->type == PMS_RECORD_FINISHED_ROUND) {
			rounds++;
		} else {
			cr_assert_eq(ev->type, PERF_RECORD_EXIT);
		}
		if (n == 0) {
			const char *comm = (const char *)ev + 16;

			cr_assert_str_eq(comm, "worker");
			cr_assert(ev->misc & PERF_RECORD_MISC_COMM_EXEC);
			/* sample_id_all trailer: TID, TIME, IDENTIFIER after the 8-byte padded name. */
			cr_assert_eq(ev->size, 8 + 8 + 8 + 8 + 8 + 8);
		}
		n++;
	}
	cr_assert_eq(rc, 0, "next: %d %s", rc, pms_data_reader__error(r)->msg);
	cr_assert_eq(i, nr_samples);
	cr_assert_eq(rounds, nr_samples / 100);
}

static void check_standard_features(const struct pms_data_features *f)
{
	cr_assert_str_eq(f->hostname, "box");
	cr_assert_str_eq(f->osrelease, "6.1.0-test");
	cr_assert_str_eq(f->version, "pmuscope 0.1.0");
	cr_assert_str_eq(f->arch, "x86_64");
	cr_assert_str_eq(f->cpudesc, "AMD EPYC 7B13 64-Core Processor");
	cr_assert_str_eq(f->cpuid, "AuthenticAMD,25,1,1");
	cr_assert_eq(f->nr_cpus_avail, 4);
	cr_assert_eq(f->nr_cpus_online, 2);
	cr_assert_eq(f->total_mem_kb, 24682416);
	cr_assert_eq(f->nr_cmdline, 4);
	cr_assert_str_eq(f->cmdline[1], "record");
	cr_assert_str_eq(f->cmdline[3], "./a b");
	cr_assert_eq(f->nr_build_ids, 2);
	cr_assert_str_eq(f->build_ids[0].filename, "/usr/bin/a");
	cr_assert_eq(f->build_ids[0].size, 20);
	cr_assert_eq(f->build_ids[0].id[19], 0xa0 + 19);
	cr_assert_eq(f->build_ids[0].pid, -1);
	cr_assert_eq(f->build_ids[0].cpumode, PERF_RECORD_MISC_USER);
	cr_assert_str_eq(f->build_ids[1].filename, "[kernel.kallsyms]");
	cr_assert_eq(f->build_ids[1].size, 16);
	cr_assert_eq(f->build_ids[1].cpumode, PERF_RECORD_MISC_KERNEL);
	cr_assert_eq(f->nr_pmu_mappings, 2);
	cr_assert_eq(f->pmu_mappings[0].type, 4);
	cr_assert_str_eq(f->pmu_mappings[0].name, "cpu");
	cr_assert_str_eq(f->pmu_mappings[1].name, "software");
	cr_assert(pms_data_features__has(f, PMS_FEAT_CPU_TOPOLOGY));
	cr_assert_eq(f->core_siblings.nr, 1);
	cr_assert_str_eq(f->thread_siblings.s[1], "2");
	cr_assert_eq(f->nr_cpus, 4);
	cr_assert_eq(f->cpus[2].core_id, 1);
	cr_assert_eq(f->cpus[3].core_id, -1);
	cr_assert_eq(f->cpus[3].socket_id, -1);
}

Test(data_rw, round_trip_attrs_records_features)
{
	size_t len;
	uint8_t *buf = write_standard(NULL, 1000, &len, true);
	struct pms_data_reader *r;
	struct pms_data_error e;
	const struct pms_data_features *f;
	size_t nr;
	const uint64_t *ids;

	cr_assert_eq(memcmp(buf, "PERFILE2", 8), 0);
	cr_assert_eq(pms_data_reader__open_mem(&r, buf, len, &strict, &e), 0, "%s", e.msg);
	cr_assert_not(pms_data_reader__is_pipe(r));
	cr_assert_eq(pms_data_reader__nr_attrs(r), 2);
	cr_assert_eq(pms_data_reader__attr(r, 1)->config, PERF_COUNT_SW_TASK_CLOCK);
	cr_assert_eq(pms_data_reader__attr(r, 0)->sample_type, ST);
	cr_assert_eq(pms_data_reader__attr(r, 0)->size, sizeof(struct perf_event_attr));
	cr_assert_null(pms_data_reader__attr(r, 2));
	ids = pms_data_reader__attr_ids(r, 1, &nr);
	cr_assert_eq(nr, 3);
	cr_assert_eq(ids[2], 23);
	cr_assert_eq(pms_data_reader__attr_of_id(r, 12), 0);
	cr_assert_eq(pms_data_reader__attr_of_id(r, 22), 1);
	cr_assert_eq(pms_data_reader__attr_of_id(r, 99), -ENOENT);
	cr_assert_str_eq(pms_data_reader__attr_name(r, 0), "cpu-clock");
	cr_assert_str_eq(pms_data_reader__attr_name(r, 1), "task-clock");
	f = pms_data_reader__features(r);
	check_standard_features(f);
	cr_assert(pms_data_features__has(f, PMS_FEAT_SAMPLE_TIME));
	cr_assert_eq(f->sample_time_first_ns, 5000);
	cr_assert_eq(f->sample_time_last_ns, 5999);
	cr_assert_eq(f->nr_event_descs, 2);
	cr_assert_eq(f->event_descs[1].nr_ids, 3);
	cr_assert_null(pms_data_reader__warning(r));
	check_standard_records(r, 1000);
	/* Rewind gives the same sequence again. */
	pms_data_reader__rewind(r);
	check_standard_records(r, 1000);
	pms_data_reader__free(r);
	free(buf);
}

Test(data_rw, compressed_round_trip_spans_records)
{
	struct pms_data_writer_opts o = { .sz = sizeof(o), .compress_level = 1, .buffer_bytes = 64 << 10 };
	size_t len, plain_len;
	uint8_t *buf = write_standard(&o, 5000, &len, true);
	uint8_t *plain = write_standard(NULL, 5000, &plain_len, true);
	struct pms_data_reader *r;
	struct pms_data_error e;
	const struct pms_data_features *f;

	cr_assert_lt(len, plain_len / 4, "compressed %zu vs plain %zu", len, plain_len);
	cr_assert_eq(pms_data_reader__open_mem(&r, buf, len, &strict, &e), 0, "%s", e.msg);
	f = pms_data_reader__features(r);
	cr_assert(pms_data_features__has(f, PMS_FEAT_COMPRESSED));
	cr_assert_eq(f->comp_type, PMS_COMP_ZSTD);
	cr_assert_eq(f->comp_mmap_len, 64 << 10);
	check_standard_records(r, 5000);
	pms_data_reader__free(r);
	free(buf);
	free(plain);
}

Test(data_rw, incompressible_frame_splits_over_compressed_records)
{
	struct pms_data_writer_opts o = { .sz = sizeof(o), .compress_level = 1, .buffer_bytes = 512 << 10 };
	struct pms_data_writer *w;
	struct perf_event_attr a = { .type = PERF_TYPE_SOFTWARE, .sample_type = PERF_SAMPLE_RAW };
	struct pms_data_reader *r;
	const struct perf_event_header *ev;
	uint8_t rec[4000], *buf;
	uint32_t seed = 1;
	size_t len, nr_comp = 0;
	uint64_t data_off;
	int fd = new_memfd(), n = 0;

	cr_assert_eq(pms_data_writer__open_fd(&w, fd, &o), 0);
	cr_assert_eq(pms_data_writer__add_attr(w, &a, "raw", NULL, 0), 0);
	for (int i = 0; i < 300; i++) {
		struct perf_event_header h = { .type = PERF_RECORD_SAMPLE, .size = sizeof(rec) };

		for (size_t k = 0; k < sizeof(rec); k++) {
			seed = seed * 1103515245 + 12345;
			rec[k] = (uint8_t)(seed >> 16);
		}
		memcpy(rec, &h, sizeof(h));
		memcpy(rec + 8, &i, sizeof(i));
		cr_assert_eq(pms_data_writer__write(w, rec, sizeof(rec)), 0);
	}
	cr_assert_eq(pms_data_writer__close(w), 0);
	pms_data_writer__free(w);
	buf = slurp(fd, &len);
	close(fd);
	/* Count the top-level COMPRESSED records: one frame of 512 KiB needs 9 or more. */
	memcpy(&data_off, buf + offsetof(struct pms_file_header, data.offset), 8);
	for (size_t off = data_off; off + 8 <= len;) {
		struct perf_event_header h;

		memcpy(&h, buf + off, 8);
		if (h.type != PMS_RECORD_COMPRESSED)
			break;
		nr_comp++;
		off += h.size;
	}
	cr_assert_geq(nr_comp, 9, "only %zu COMPRESSED records", nr_comp);
	cr_assert_eq(pms_data_reader__open_mem(&r, buf, len, &strict, NULL), 0);
	while (pms_data_reader__next(r, &ev, NULL) == 1) {
		int idx;

		cr_assert_eq(ev->size, sizeof(rec));
		memcpy(&idx, (const uint8_t *)ev + 8, sizeof(idx));
		cr_assert_eq(idx, n);
		n++;
	}
	cr_assert_eq(n, 300, "%s", pms_data_reader__error(r)->msg);
	pms_data_reader__free(r);
	free(buf);
}

Test(data_rw, pipe_mode_round_trip)
{
	struct pms_data_writer_opts o = { .sz = sizeof(o), .pipe = true };
	size_t len;
	uint8_t *buf = write_standard(&o, 300, &len, true);
	struct pms_data_reader *r;
	struct pms_data_error e;
	uint64_t size;

	memcpy(&size, buf + 8, 8);
	cr_assert_eq(size, 16);
	cr_assert_eq(pms_data_reader__open_mem(&r, buf, len, &strict, &e), 0, "%s", e.msg);
	cr_assert(pms_data_reader__is_pipe(r));
	cr_assert_eq(pms_data_reader__nr_attrs(r), 2);
	cr_assert_eq(pms_data_reader__attr_of_id(r, 23), 1);
	check_standard_features(pms_data_reader__features(r));
	{
		const struct perf_event_header *ev;
		int samples = 0, bid = 0;

		while (pms_data_reader__next(r, &ev, NULL) == 1) {
			samples += ev->type == PERF_RECORD_SAMPLE;
			bid += ev->type == PMS_RECORD_HEADER_BUILD_ID;
			cr_assert_neq(ev->type, PMS_RECORD_HEADER_ATTR);
			cr_assert_neq(ev->type, PMS_RECORD_HEADER_FEATURE);
		}
		cr_assert_eq(samples, 300);
		cr_assert_eq(bid, 2);
	}
	pms_data_reader__free(r);
	free(buf);
}

Test(data_rw, unfinished_writer_leaves_readable_file)
{
	size_t len;
	uint8_t *buf = write_standard(NULL, 700, &len, false);
	struct pms_data_reader *r;
	struct pms_data_error e;
	uint64_t feat[4];

	memcpy(feat, buf + 72, sizeof(feat));
	cr_assert_eq(feat[0] | feat[1] | feat[2] | feat[3], 0, "features before close");
	cr_assert_eq(pms_data_reader__open_mem(&r, buf, len, &strict, &e), 0, "%s", e.msg);
	cr_assert_not(pms_data_reader__scanned_to_eof(r));
	check_standard_records(r, 700);
	cr_assert_null(pms_data_reader__features(r)->hostname);
	pms_data_reader__free(r);
	free(buf);
}

Test(data_rw, unflushed_records_are_not_claimed)
{
	struct pms_data_writer *w;
	struct perf_event_attr a = { .type = PERF_TYPE_SOFTWARE, .sample_type = ST };
	struct pms_data_reader *r;
	const struct perf_event_header *ev;
	uint8_t *buf;
	size_t len;
	int fd = new_memfd(), n = 0;

	cr_assert_eq(pms_data_writer__open_fd(&w, fd, NULL), 0);
	cr_assert_eq(pms_data_writer__add_attr(w, &a, "x", NULL, 0), 0);
	for (int i = 0; i < 10; i++) {
		struct sample s = mk_sample(0, i);

		cr_assert_eq(pms_data_writer__write(w, &s, sizeof(s)), 0);
		if (i == 5)
			cr_assert_eq(pms_data_writer__flush(w), 0);
	}
	cr_assert_eq(pms_data_writer__nr_records(w), 10);
	cr_assert_eq(pms_data_writer__data_bytes(w), 6 * sizeof(struct sample));
	buf = slurp(fd, &len); /* as a SIGKILL would leave it: 4 records still in memory */
	cr_assert_eq(pms_data_reader__open_mem(&r, buf, len, &strict, NULL), 0);
	while (pms_data_reader__next(r, &ev, NULL) == 1)
		n++;
	cr_assert_eq(n, 6);
	cr_assert_eq(pms_data_reader__error(r)->err, 0);
	pms_data_reader__free(r);
	pms_data_writer__free(w);
	close(fd);
	free(buf);
}

Test(data_rw, writer_rejects_misuse)
{
	struct pms_data_writer *w;
	struct perf_event_attr a = { .type = PERF_TYPE_SOFTWARE };
	struct perf_event_header h = { .type = PERF_RECORD_SAMPLE, .size = 16 };
	uint8_t rec[16] = { 0 };
	int fd = new_memfd(), p[2];

	cr_assert_eq(pms_data_writer__open_fd(&w, fd, NULL), 0);
	memcpy(rec, &h, sizeof(h));
	cr_assert_eq(pms_data_writer__write(w, rec, 12), -EINVAL, "size mismatch");
	cr_assert_eq(pms_data_writer__write(w, rec, 4), -EINVAL);
	cr_assert_eq(pms_data_writer__write(w, rec, 16), 0);
	cr_assert_eq(pms_data_writer__add_attr(w, &a, "late", NULL, 0), -EBUSY);
	cr_assert_eq(pms_data_writer__close(w), 0);
	cr_assert_eq(pms_data_writer__write(w, rec, 16), -EBADF);
	pms_data_writer__free(w);
	pms_data_writer__free(NULL);
	close(fd);
	cr_assert_eq(pipe(p), 0);
	cr_assert_eq(pms_data_writer__open_fd(&w, p[1], NULL), -ESPIPE);
	cr_assert_null(w);
	close(p[0]);
	close(p[1]);
}

Test(data_rw, host_features)
{
	struct pms_data_features f = { 0 };
	char *argv[] = { "x", "y" };

	cr_assert_eq(pms_data_features__from_host(&f, 2, argv), 0);
	cr_assert(pms_data_features__has(&f, PMS_FEAT_HOSTNAME));
	cr_assert(pms_data_features__has(&f, PMS_FEAT_OSRELEASE));
	cr_assert(pms_data_features__has(&f, PMS_FEAT_NRCPUS));
	cr_assert_geq(f.nr_cpus_online, 1);
	cr_assert_eq(f.nr_cmdline, 2);
	cr_assert_str_eq(pms_data_feature__name(PMS_FEAT_CPUID), "CPUID");
	pms_data_features__release(&f);
	pms_data_features__release(&f);
	pms_data_features__release(NULL);
}

Test(data_rw, synthesized_record_layouts)
{
	struct pms_data_writer *w;
	struct perf_event_attr a = { .type = PERF_TYPE_SOFTWARE, .sample_id_all = 1,
				     .sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID |
						    PERF_SAMPLE_CPU };
	uint8_t bid[20];
	struct pms_data_mmap2 m = { .pid = 9, .tid = 10, .addr = 0x7000, .len = 0x3000, .pgoff = 0x1000,
				    .prot = 5, .flags = 2, .build_id = bid, .build_id_size = 20,
				    .filename = "/lib/libc.so.6" };
	struct pms_data_sample_id sid = { .pid = 9, .tid = 10, .time = 123, .id = 44, .cpu = 1 };
	struct pms_data_reader *r;
	const struct perf_event_header *ev;
	const uint8_t *p;
	uint64_t u64;
	uint32_t u32;
	uint8_t *buf;
	size_t len;
	int fd = new_memfd();

	for (int i = 0; i < 20; i++)
		bid[i] = (uint8_t)(i + 1);
	cr_assert_eq(pms_data_writer__open_fd(&w, fd, NULL), 0);
	cr_assert_eq(pms_data_writer__add_attr(w, &a, "x", NULL, 0), 0);
	cr_assert_eq(pms_data_writer__mmap2(w, &m, &sid), 0);
	cr_assert_eq(pms_data_writer__mmap(w, (uint32_t)-1, 0, 0xffffffff81000000ULL, 0x1000000, 0,
					   PERF_RECORD_MISC_KERNEL, "[kernel.kallsyms]_text", NULL), 0);
	cr_assert_eq(pms_data_writer__close(w), 0);
	pms_data_writer__free(w);
	buf = slurp(fd, &len);
	close(fd);
	cr_assert_eq(pms_data_reader__open_mem(&r, buf, len, NULL, NULL), 0);
	cr_assert_eq(pms_data_reader__next(r, &ev, NULL), 1);
	p = (const uint8_t *)ev;
	cr_assert_eq(ev->type, PERF_RECORD_MMAP2);
	cr_assert_eq(ev->misc, PERF_RECORD_MISC_USER | PERF_RECORD_MISC_MMAP_BUILD_ID);
	/* header 8, pid/tid 8, addr/len/pgoff 24, build-id block 24, prot/flags 8, name 16, trailer 32 */
	cr_assert_eq(ev->size, 8 + 8 + 24 + 24 + 8 + 16 + 32);
	cr_assert_eq(p[40], 20, "build_id_size");
	cr_assert_eq(memcmp(p + 44, bid, 20), 0);
	cr_assert_str_eq((const char *)p + 72, "/lib/libc.so.6");
	memcpy(&u64, p + 88 + 8, 8);
	cr_assert_eq(u64, 123, "trailer time");
	memcpy(&u64, p + 88 + 16, 8);
	cr_assert_eq(u64, 44, "trailer id");
	memcpy(&u32, p + 88 + 24, 4);
	cr_assert_eq(u32, 1, "trailer cpu");
	cr_assert_eq(pms_data_reader__next(r, &ev, NULL), 1);
	cr_assert_eq(ev->type, PERF_RECORD_MMAP);
	cr_assert_eq(ev->misc, PERF_RECORD_MISC_KERNEL);
	cr_assert_str_eq((const char *)ev + 40, "[kernel.kallsyms]_text");
	cr_assert_eq(pms_data_reader__next(r, &ev, NULL), 0);
	pms_data_reader__free(r);
	free(buf);
}

/* perf's header text (report --header-only, script --header) of the standard file, both modes. */
Test(data_rw, header_text_as_perf_prints_it)
{
	struct pms_data_writer_opts file_o = { .sz = sizeof(file_o) }, pipe_o = { .sz = sizeof(pipe_o), .pipe = true };
	struct strbuf sb = STRBUF_INIT;
	struct pms_data_reader *r;
	struct pms_data_error e;
	size_t len;
	uint8_t *buf = write_standard(&file_o, 10, &len, true);
	const char *t;

	cr_assert_eq(pms_data_reader__open_mem(&r, buf, len, &strict, &e), 0, "%s", e.msg);
	pms_data_header__text(r, NULL, &sb);
	t = strbuf_str(&sb);
	cr_assert(!strncmp(t, "# ========\n# header version : 1\n# data offset    : ",
			   strlen("# ========\n# header version : 1\n# data offset    : ")), "%s", t);
	cr_assert_not_null(strstr(t, "# hostname : box\n# os release : 6.1.0-test\n# perf version : pmuscope 0.1.0\n"
				     "# arch : x86_64\n# nrcpus online : 2\n# nrcpus avail : 4\n"), "%s", t);
	cr_assert_not_null(strstr(t, "# cmdline : pmuscope record -- ./a b \n"), "%s", t);
	cr_assert_not_null(strstr(t, "# event : name = cpu-clock, , id = { 11, 12 }, type = 1, size = "), "%s", t);
	cr_assert_not_null(strstr(t, "# event : name = task-clock, , id = { 21, 22, 23 }, type = 1,"), "%s", t);
	cr_assert_not_null(strstr(t, "# CPU_TOPOLOGY info available, use -I to display\n"
				     "# pmu mappings: cpu = 4, software = 1\n"), "%s", t);
	/* every feature perf 6.1 knows and the file lacks, in bit order, then the closing lines */
	cr_assert_not_null(strstr(t, "# missing features: TRACING_DATA NUMA_TOPOLOGY BRANCH_STACK "), "%s", t);
	cr_assert_not_null(strstr(t, " HYBRID_TOPOLOGY PMU_CAPS \n# ========\n#\n"), "%s", t);
	cr_assert_null(strstr(t, " BUILD_ID "), "%s", t);
	pms_data_reader__free(r);
	free(buf);

	strbuf_reset(&sb);
	buf = write_standard(&pipe_o, 10, &len, true);
	cr_assert_eq(pms_data_reader__open_mem(&r, buf, len, &strict, &e), 0, "%s", e.msg);
	pms_data_header__text(r, "-", &sb);
	t = strbuf_str(&sb);
	/* a stream: no sections (zeros), the block closed at once, features after it, none missing */
	{
		const char *head = "# ========\n# header version : 1\n# data offset    : 0\n# data size      : 0\n"
				   "# feat offset    : 0\n# ========\n#\n# hostname : box\n";

		cr_assert(!strncmp(t, head, strlen(head)), "%s", t);
	}
	cr_assert_null(strstr(t, "missing features"), "%s", t);
	pms_data_reader__free(r);
	free(buf);
	strbuf_release(&sb);
}
