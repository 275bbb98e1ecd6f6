// SPDX-License-Identifier: MIT
// Unit tests of lib/aggregate/inject: perf inject -b's copy of a file with the build-ids of the objects its samples hit.
#include <criterion/criterion.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "aggregate/inject.h"
#include "data/format.h"
#include "data/reader.h"
#include "data/writer.h"
#include "memfd_file.h"
#include "symbol/dso.h"

#define ST (PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD)

static const uint8_t id2[20] = { 0x22, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 0x22 };

static char exe[PATH_MAX];

/* A perf.data in memory, and a reader on it. */
struct mem {
	int fd;
	uint8_t *buf;
	size_t len;
	struct pms_data_reader *r;
};

static struct pms_data_writer *writer_on(int fd, bool pipe)
{
	struct pms_data_writer_opts wo = { .sz = sizeof(wo), .pipe = pipe };
	struct pms_data_writer *w;

	cr_assert_eq(pms_data_writer__open_fd(&w, fd, &wo), 0);
	return w;
}

static void finish(struct mem *m, struct pms_data_writer *w)
{
	struct pms_data_error e = { 0 };

	cr_assert_eq(pms_data_writer__close(w), 0);
	pms_data_writer__free(w);
	m->buf = slurp(m->fd, &m->len);
	close(m->fd);
	cr_assert_eq(pms_data_reader__open_mem(&m->r, m->buf, m->len, NULL, &e), 0, "%s", e.msg);
}

static void release(struct mem *m)
{
	pms_data_reader__free(m->r);
	free(m->buf);
}

static void sample(struct pms_data_writer *w, uint32_t pid, uint64_t time, uint64_t ip)
{
	uint64_t rec[5] = { 0, ip, (uint64_t)pid | (uint64_t)pid << 32, time, 1000 };
	struct perf_event_header *h = (struct perf_event_header *)rec;

	h->type = PERF_RECORD_SAMPLE;
	h->misc = PERF_RECORD_MISC_USER;
	h->size = sizeof(rec);
	cr_assert_eq(pms_data_writer__write(w, rec, sizeof(rec)), 0);
}

static void mmap2(struct pms_data_writer *w, uint32_t pid, uint64_t start, const char *path, uint64_t time)
{
	struct pms_data_mmap2 m = {
		.pid = pid, .tid = pid, .addr = start, .len = 0x1000, .prot = PROT_READ | PROT_EXEC,
		.flags = MAP_PRIVATE, .cpumode = PERF_RECORD_MISC_USER, .filename = path,
	};
	struct pms_data_sample_id sid = { .pid = pid, .tid = pid, .time = time };

	cr_assert_eq(pms_data_writer__mmap2(w, &m, &sid), 0);
}

/*
 * The input: this test binary (a real file with a build-id) and a missing
 * library hit, an unreadable object mapped but not hit, and one the
 * input's own table names and a sample hits. 3 records after the maps.
 */
static void make_input(struct mem *in, bool pipe)
{
	struct perf_event_attr a = {
		.type = PERF_TYPE_SOFTWARE, .config = PERF_COUNT_SW_CPU_CLOCK, .size = sizeof(a),
		.sample_type = ST, .sample_id_all = 1, .sample_period = 1000,
	};
	struct pms_data_writer *w;
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	cr_assert_gt(n, 0);
	exe[n] = '\0';
	in->fd = new_memfd();
	w = writer_on(in->fd, pipe);
	cr_assert_eq(pms_data_writer__add_attr(w, &a, "cpu-clock", NULL, 0), 0);
	cr_assert_eq(pms_data_features__set_str(pms_data_writer__features(w), PMS_FEAT_HOSTNAME, "inputhost"), 0);
	if (!pipe)
		cr_assert_eq(pms_data_features__add_build_id(pms_data_writer__features(w), "/in/table", id2, 20, -1,
							     PERF_RECORD_MISC_USER), 0);
	mmap2(w, 5, 0x1000, exe, 1);
	mmap2(w, 5, 0x3000, "/nonexistent/pms/lib.so", 2);
	mmap2(w, 5, 0x5000, "/nonexistent/pms/unhit.so", 3);
	mmap2(w, 5, 0x7000, "/in/table", 4);
	sample(w, 5, 10, 0x3100);
	sample(w, 5, 11, 0x1100);
	sample(w, 5, 12, 0x7100);
	finish(in, w);
}

static void inject(struct mem *in, struct mem *out, const struct pms_inject_opts *o, struct pms_inject_stats *st)
{
	struct pms_data_writer *w;

	out->fd = new_memfd();
	w = writer_on(out->fd, o->pipe);
	cr_assert_eq(pms_inject__build_ids(in->r, w, o, st, NULL, NULL), 0);
	finish(out, w);
}

Test(inject, file_gets_the_hit_objects_build_ids)
{
	struct pms_inject_opts o = { .sz = sizeof(o) };
	struct pms_inject_stats st;
	const struct pms_data_features *f;
	uint8_t want[PMS_BUILD_ID_MAX];
	int n;
	struct mem in, out;
	const struct perf_event_header *a, *b;
	int ra, rb;

	make_input(&in, false);
	inject(&in, &out, &o, &st);
	n = pms_build_id__read(exe, want, sizeof(want));
	cr_assert_gt(n, 0, "the test binary has a build-id");
	f = pms_data_reader__features(out.r);
	cr_assert_eq(f->nr_build_ids, 2, "the table's object and the test binary");
	/* the input's table first (kept as it was), then the replay's objects in map order */
	cr_expect_str_eq(f->build_ids[0].filename, "/in/table");
	cr_expect_arr_eq(f->build_ids[0].id, id2, 20);
	cr_expect_str_eq(f->build_ids[1].filename, exe);
	cr_expect_eq(f->build_ids[1].size, n);
	cr_expect_arr_eq(f->build_ids[1].id, want, (size_t)n);
	cr_expect_eq(st.nr_build_ids, 2);
	cr_expect_eq(st.nr_from_input, 1);
	cr_expect_eq(st.nr_missing, 1, "lib.so is hit, but not here");
	cr_expect_eq(st.nr_records, 7);
	cr_expect_str_eq(f->hostname, "inputhost", "features copied");
	cr_expect_str_eq(pms_data_reader__attr_name(out.r, 0), "cpu-clock");
	/* records: the same, in the same order */
	pms_data_reader__rewind(in.r);
	do {
		ra = pms_data_reader__next(in.r, &a, NULL);
		rb = pms_data_reader__next(out.r, &b, NULL);
		cr_assert_eq(ra, rb);
		if (ra == 1)
			cr_assert_eq(memcmp(a, b, a->size), 0, "record type %u", a->type);
	} while (ra == 1);
	release(&out);
	release(&in);
}

Test(inject, all_and_copy_only)
{
	struct pms_inject_opts all = { .sz = sizeof(all), .all = true };
	struct pms_inject_opts copy = { .sz = sizeof(copy), .copy_only = true };
	struct pms_inject_stats st;
	struct mem in, out;

	make_input(&in, false);
	inject(&in, &out, &all, &st);
	cr_expect_eq(st.nr_build_ids, 2);
	cr_expect_eq(st.nr_missing, 2, "lib.so and the unhit one, both missing here");
	release(&out);
	inject(&in, &out, &copy, &st);
	cr_expect_eq(st.nr_build_ids, 0);
	cr_expect_eq(pms_data_reader__features(out.r)->nr_build_ids, 1, "the input's table kept");
	release(&out);
	copy.pipe = true;
	inject(&in, &out, &copy, &st);
	cr_expect_eq(st.nr_build_ids, 1, "a stream gets the input's table as records");
	cr_expect_eq(pms_data_reader__features(out.r)->nr_build_ids, 1);
	cr_expect_str_eq(pms_data_reader__features(out.r)->build_ids[0].filename, "/in/table");
	release(&out);
	release(&in);
}

Test(inject, pipe_output_has_build_id_records_before_the_others)
{
	struct pms_inject_opts o = { .sz = sizeof(o), .pipe = true };
	struct pms_inject_stats st;
	const struct perf_event_header *ev;
	struct mem in, out;
	size_t i = 0, first_other = 0, nr_bid = 0;
	bool saw_exe = false;

	make_input(&in, true);
	inject(&in, &out, &o, &st);
	cr_expect(pms_data_reader__is_pipe(out.r));
	while (pms_data_reader__next(out.r, &ev, NULL) == 1) {
		if (ev->type == PMS_RECORD_HEADER_BUILD_ID) {
			cr_expect_eq(first_other, 0, "a build-id record after another record");
			saw_exe |= !strcmp((const char *)ev + 36, exe);
			nr_bid++;
		} else if (!first_other) {
			first_other = i + 1;
		}
		i++;
	}
	cr_expect_eq(nr_bid, 1);
	cr_expect(saw_exe);
	cr_expect_eq(st.nr_records, 7);
	release(&out);
	release(&in);
}

Test(inject, known_build_ids_parse)
{
	struct pms_known_build_id *k;
	const char *bad = NULL;
	size_t nr;

	cr_assert_eq(pms_inject__parse_known("2222 /in/table,00ff /a b", &k, &nr, &bad), 0);
	cr_assert_eq(nr, 2);
	cr_expect_str_eq(k[0].path, "/in/table");
	cr_expect_eq(k[0].size, 2);
	cr_expect_eq(k[0].id[0], 0x22);
	cr_expect_str_eq(k[1].path, "/a b", "a path may hold spaces");
	cr_expect_eq(k[1].id[1], 0xff);
	pms_inject__free_known(k, nr);
	cr_expect_eq(pms_inject__parse_known("2222 /x,zz /y", &k, &nr, &bad), -EINVAL);
	cr_expect_str_eq(bad, "zz /y");
	cr_expect_null(k);
	cr_expect_eq(pms_inject__parse_known("222 /x", &k, &nr, NULL), -EINVAL, "odd number of digits");
	cr_expect_eq(pms_inject__parse_known("2222", &k, &nr, NULL), -EINVAL, "no path");
	cr_expect_eq(pms_inject__parse_known("2222 ", &k, &nr, NULL), -EINVAL, "empty path");
	cr_expect_eq(pms_inject__parse_known("2222 /x,", &k, &nr, NULL), -EINVAL, "empty entry");
	cr_expect_eq(pms_inject__parse_known(
			     "000102030405060708090a0b0c0d0e0f1011121314 /x", &k, &nr, NULL), -EINVAL, "21 bytes");
}

/* A given build-id comes before the input's table and the file's own. */
Test(inject, known_build_ids_win)
{
	struct pms_known_build_id *k;
	struct pms_inject_opts o = { .sz = sizeof(o) };
	struct pms_inject_stats st;
	const struct pms_data_features *f;
	struct mem in, out;
	char spec[PATH_MAX + 64];
	size_t nr;

	make_input(&in, false);
	snprintf(spec, sizeof(spec), "33 /in/table,4444 %s,5555 /nonexistent/pms/lib.so", exe);
	cr_assert_eq(pms_inject__parse_known(spec, &k, &nr, NULL), 0);
	o.known = k;
	o.nr_known = nr;
	inject(&in, &out, &o, &st);
	f = pms_data_reader__features(out.r);
	cr_assert_eq(f->nr_build_ids, 3);
	cr_expect_str_eq(f->build_ids[0].filename, "/in/table");
	cr_expect_eq(f->build_ids[0].size, 1);
	cr_expect_eq(f->build_ids[0].id[0], 0x33);
	cr_expect_str_eq(f->build_ids[1].filename, exe);
	cr_expect_eq(f->build_ids[1].id[0], 0x44);
	cr_expect_str_eq(f->build_ids[2].filename, "/nonexistent/pms/lib.so");
	cr_expect_eq(st.nr_missing, 0);
	release(&out);
	release(&in);
	pms_inject__free_known(k, nr);
}
