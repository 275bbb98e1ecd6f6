// SPDX-License-Identifier: MIT
// Unit tests of ring/ring over synthetic rings (wrap-around, tail publishing, corruption) and perf_event/mmap sizing.
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "perf_event/mmap.h"
#include "ring/ring.h"
#include "ring_build.h"

#define PAGE 4096u

/* A fake mapping: metadata page + data area, and a writer that acts like the kernel. */
struct fake {
	unsigned char *mem;
	struct perf_event_mmap_page *meta;
	size_t data_size;
};

static void fake_init(struct fake *f, size_t data_size)
{
	cr_assert_eq(posix_memalign((void **)&f->mem, PAGE, PAGE + data_size), 0);
	memset(f->mem, 0xee, PAGE + data_size);
	f->meta = (struct perf_event_mmap_page *)(void *)f->mem;
	memset(f->meta, 0, sizeof(*f->meta));
	f->data_size = data_size;
}

/* Append one record of `size` bytes (multiple of 8) with a recognisable body; 0 if it does not fit. */
static int fake_write(struct fake *f, uint32_t type, uint16_t size, uint8_t fill)
{
	uint64_t head = f->meta->data_head, tail = f->meta->data_tail, i;
	struct perf_event_header h = { .type = type, .misc = 0, .size = size };
	unsigned char *data = f->mem + PAGE;

	if (f->data_size - (head - tail) < size)
		return 0;
	for (i = 0; i < size; i++) {
		unsigned char byte = i < sizeof(h) ? ((unsigned char *)&h)[i] : (unsigned char)(fill + i);

		data[(head + i) & (f->data_size - 1)] = byte;
	}
	__atomic_store_n(&f->meta->data_head, head + size, __ATOMIC_RELEASE);
	return 1;
}

static void check_body(const struct perf_event_header *h, uint8_t fill)
{
	const unsigned char *p = (const unsigned char *)h;
	size_t i;

	for (i = sizeof(*h); i < h->size; i++)
		cr_assert_eq(p[i], (unsigned char)(fill + i), "byte %zu", i);
}

Test(ring_buffer, empty_ring_and_bad_sizes)
{
	struct fake f;
	struct pms_ring r;
	const struct perf_event_header *h;

	fake_init(&f, 256);
	cr_assert_eq(pms_ring__init(&r, f.mem, PAGE, 255), -EINVAL);
	cr_assert_eq(pms_ring__init(&r, f.mem, PAGE, 4), -EINVAL);
	cr_assert_eq(pms_ring__init(&r, NULL, PAGE, 256), -EINVAL);
	pms_ring__exit(&r);
	cr_assert_eq(pms_ring__init(&r, f.mem, PAGE, 256), 0);
	cr_assert_eq(pms_ring__start(&r), 0);
	cr_assert_eq(pms_ring__next(&r, &h), 0);
	cr_assert_eq(pms_ring__drain(&r, NULL, NULL), 0);
	pms_ring__exit(&r);
	pms_ring__exit(&r);
	free(f.mem);
}

Test(ring_buffer, meta_page_offsets_win)
{
	struct fake f;
	struct pms_ring r;

	fake_init(&f, 512);
	f.meta->data_offset = PAGE;
	f.meta->data_size = 512;
	cr_assert_eq(pms_ring__init(&r, f.mem, PAGE, 64), 0);
	cr_assert_eq(r.size_bytes, 512u);
	cr_assert(r.data == f.mem + PAGE);
	pms_ring__exit(&r);
	free(f.mem);
}

static int count_cb(const struct perf_event_header *h, void *arg)
{
	uint64_t *seq = arg;

	cr_assert_eq(h->type, 100 + (*seq % 7));
	cr_assert_eq(h->size % 8, 0);
	check_body(h, (uint8_t)*seq);
	(*seq)++;
	return 0;
}

Test(ring_buffer, wraps_many_times_with_split_records)
{
	static const uint16_t sizes[] = { 8, 24, 40, 16, 56, 72, 32, 120 };
	uint64_t written = 0, read = 0, bytes = 0;
	struct fake f;
	struct pms_ring r;
	int round;

	fake_init(&f, 256);
	cr_assert_eq(pms_ring__init(&r, f.mem, PAGE, 256), 0);
	for (round = 0; round < 500; round++) {
		int n = 0;

		/* Fill until full, varying sizes so records straddle the end. */
		while (fake_write(&f, 100 + (uint32_t)(written % 7), sizes[(written + (uint64_t)round) % 8],
				  (uint8_t)written)) {
			bytes += sizes[(written + (uint64_t)round) % 8];
			written++;
			if (++n == 1 + round % 5)
				break;
		}
		cr_assert_geq(pms_ring__drain(&r, count_cb, &read), 0);
		cr_assert_eq(read, written);
		cr_assert_eq(f.meta->data_tail, f.meta->data_head);
	}
	cr_assert_eq(r.nr_records, written);
	cr_assert_eq(r.nr_bytes, bytes);
	cr_assert_gt(r.nr_wrapped, 10u);
	cr_assert_eq(r.nr_bad_bytes, 0u);
	cr_assert_gt(f.meta->data_head, 100u * 256u);
	pms_ring__exit(&r);
	free(f.mem);
}

Test(ring_buffer, tail_is_published_only_at_done)
{
	const struct perf_event_header *h;
	struct fake f;
	struct pms_ring r;

	fake_init(&f, 256);
	cr_assert_eq(pms_ring__init(&r, f.mem, PAGE, 256), 0);
	cr_assert(fake_write(&f, 1, 16, 0));
	cr_assert(fake_write(&f, 2, 16, 0));
	cr_assert_eq(pms_ring__start(&r), 32);
	cr_assert_eq(pms_ring__next(&r, &h), 1);
	cr_assert_eq(h->type, 1u);
	cr_assert_eq(f.meta->data_tail, 0u);
	/* A record written during the pass waits for the next pass. */
	cr_assert(fake_write(&f, 3, 16, 0));
	cr_assert_eq(pms_ring__next(&r, &h), 1);
	cr_assert_eq(pms_ring__next(&r, &h), 0);
	pms_ring__done(&r);
	cr_assert_eq(f.meta->data_tail, 32u);
	cr_assert_eq(pms_ring__start(&r), 16);
	cr_assert_eq(pms_ring__next(&r, &h), 1);
	cr_assert_eq(h->type, 3u);
	pms_ring__done(&r);
	pms_ring__exit(&r);
	free(f.mem);
}

static int stop_cb(const struct perf_event_header *h, void *arg)
{
	(void)h;
	return ++*(int *)arg == 2 ? 42 : 0;
}

Test(ring_buffer, callback_stops_drain)
{
	struct fake f;
	struct pms_ring r;
	int calls = 0;

	fake_init(&f, 256);
	cr_assert_eq(pms_ring__init(&r, f.mem, PAGE, 256), 0);
	for (int i = 0; i < 4; i++)
		cr_assert(fake_write(&f, 1, 16, 0));
	cr_assert_eq(pms_ring__drain(&r, stop_cb, &calls), 42);
	cr_assert_eq(f.meta->data_tail, 32u);
	cr_assert_eq(pms_ring__drain(&r, NULL, NULL), 2);
	pms_ring__exit(&r);
	free(f.mem);
}

Test(ring_buffer, corrupt_headers_discard_the_pass)
{
	const struct perf_event_header *h;
	struct fake f;
	struct pms_ring r;

	fake_init(&f, 256);
	cr_assert_eq(pms_ring__init(&r, f.mem, PAGE, 256), 0);
	/* size 0 would loop forever in a naive reader. */
	cr_assert(fake_write(&f, 1, 16, 0));
	memset(f.mem + PAGE + 6, 0, 2);
	cr_assert_eq(pms_ring__drain(&r, NULL, NULL), -EBADMSG);
	cr_assert_eq(f.meta->data_tail, 16u);
	cr_assert_eq(r.nr_bad_bytes, 16u);
	/* size larger than what head covers. */
	cr_assert(fake_write(&f, 1, 16, 0));
	memcpy(f.mem + PAGE + 16 + 6, &(uint16_t){ 64 }, 2);
	cr_assert_eq(pms_ring__start(&r), 16);
	cr_assert_eq(pms_ring__next(&r, &h), -EBADMSG);
	cr_assert_eq(f.meta->data_tail, 32u);
	/* head running more than a ring ahead of tail. */
	f.meta->data_head = 32 + 257;
	cr_assert_eq(pms_ring__start(&r), -EBADMSG);
	cr_assert_eq(f.meta->data_tail, 32u + 257u);
	/* A fragment shorter than a header. */
	f.meta->data_head += 4;
	cr_assert_eq(pms_ring__drain(&r, NULL, NULL), -EBADMSG);
	cr_assert_eq(f.meta->data_tail, f.meta->data_head);
	pms_ring__exit(&r);
	free(f.mem);
}

Test(ring_buffer, max_size_record_split)
{
	const struct perf_event_header *h;
	struct fake f;
	struct pms_ring r;

	fake_init(&f, 1u << 17);
	cr_assert_eq(pms_ring__init(&r, f.mem, PAGE, 1u << 17), 0);
	f.meta->data_head = f.meta->data_tail = (1u << 17) - 8;
	r.head = r.tail = f.meta->data_tail;
	cr_assert(fake_write(&f, 9, 65528, 3));
	cr_assert_eq(pms_ring__start(&r), 65528);
	cr_assert_eq(pms_ring__next(&r, &h), 1);
	cr_assert(h == (const void *)r.scratch);
	cr_assert_eq(h->size, 65528u);
	check_body(h, 3);
	pms_ring__done(&r);
	pms_ring__exit(&r);
	free(f.mem);
}

Test(ring_mmap, parse_pages_like_perf)
{
	unsigned pages = 0;
	bool rounded = false;

	cr_assert_eq(pms_mmap__parse_pages("128", &pages, &rounded), 0);
	cr_assert_eq(pages, 128u);
	cr_assert(!rounded);
	cr_assert_eq(pms_mmap__parse_pages("100", &pages, &rounded), 0);
	cr_assert_eq(pages, 128u);
	cr_assert(rounded);
	cr_assert_eq(pms_mmap__parse_pages("1", &pages, &rounded), 0);
	cr_assert_eq(pages, 1u);
	if (pms_mmap__page_size() == 4096) {
		cr_assert_eq(pms_mmap__parse_pages("512K", &pages, &rounded), 0);
		cr_assert_eq(pages, 128u);
		cr_assert_eq(pms_mmap__parse_pages("1M", &pages, NULL), 0);
		cr_assert_eq(pages, 256u);
		cr_assert_eq(pms_mmap__parse_pages("20k", &pages, &rounded), 0);
		cr_assert_eq(pages, 8u);
		cr_assert(rounded);
		cr_assert_eq(pms_mmap__parse_pages("4096B", &pages, &rounded), 0);
		cr_assert_eq(pages, 1u);
		cr_assert(!rounded);
		cr_assert_eq(pms_mmap__parse_pages("100B", &pages, &rounded), 0);
		cr_assert_eq(pages, 1u);
		cr_assert(rounded);
		cr_assert_eq(pms_mmap__parse_pages("4097b", &pages, &rounded), 0);
		cr_assert_eq(pages, 2u);
		cr_assert(rounded);
	}
	cr_assert_eq(pms_mmap__parse_pages("0", &pages, NULL), -EINVAL);
	cr_assert_eq(pms_mmap__parse_pages("", &pages, NULL), -EINVAL);
	cr_assert_eq(pms_mmap__parse_pages("-4", &pages, NULL), -EINVAL);
	cr_assert_eq(pms_mmap__parse_pages("12X", &pages, NULL), -EINVAL);
	cr_assert_eq(pms_mmap__parse_pages("12KB", &pages, NULL), -EINVAL);
	cr_assert_eq(pms_mmap__parse_pages("99999999999999", &pages, NULL), -ERANGE);
	cr_assert_eq(pms_mmap__parse_pages("99999999999999999999", &pages, NULL), -ERANGE);
	cr_assert_eq(pms_mmap__parse_pages("99999999999G", &pages, NULL), -ERANGE);
}

Test(ring_mmap, default_pages_from_mlock_kb)
{
	char dir[] = "/tmp/pms-ring-XXXXXX";
	char path[512];
	unsigned pages = 0;
	FILE *fp;

	cr_assert_not_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/sys", dir);
	cr_assert_eq(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/sys/kernel", dir);
	cr_assert_eq(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/sys/kernel/perf_event_mlock_kb", dir);
	fp = fopen(path, "w");
	cr_assert_not_null(fp);
	fprintf(fp, "516\n");
	fclose(fp);
	setenv("PMS_PROCFS_ROOT", dir, 1);
	cr_assert_eq(pms_mmap__default_pages(&pages), 0);
	if (pms_mmap__page_size() == 4096)
		cr_assert_eq(pages, 128u);
	fp = fopen(path, "w");
	fprintf(fp, "2052\n");   /* 2 MB + a page: 512 data pages */
	fclose(fp);
	cr_assert_eq(pms_mmap__default_pages(&pages), 0);
	if (pms_mmap__page_size() == 4096)
		cr_assert_eq(pages, 512u);
	fp = fopen(path, "w");
	fprintf(fp, "1000\n");   /* rounds down: 996 kB -> 249 -> 128 pages */
	fclose(fp);
	cr_assert_eq(pms_mmap__default_pages(&pages), 0);
	if (pms_mmap__page_size() == 4096)
		cr_assert_eq(pages, 128u);
	unsetenv("PMS_PROCFS_ROOT");
	remove(path);
	snprintf(path, sizeof(path), "%s/sys/kernel", dir);
	rmdir(path);
	snprintf(path, sizeof(path), "%s/sys", dir);
	rmdir(path);
	rmdir(dir);
}

Test(ring_mmap, map_rejects_bad_args_and_explains_eperm)
{
	struct pms_mmap m;
	char buf[512];

	cr_assert_eq(pms_mmap__map(&m, 0, 3), -EINVAL);
	cr_assert_null(m.base);
	cr_assert_eq(pms_mmap__map(&m, -1, 4), -EINVAL);
	pms_mmap__unmap(&m);
	pms_mmap__unmap(NULL);
	pms_mmap__error_reason(-EPERM, 128, buf, sizeof(buf));
	cr_assert_not_null(strstr(buf, "516 kB"), "%s", buf);
	cr_assert_not_null(strstr(buf, "perf_event_mlock_kb"), "%s", buf);
	cr_assert_not_null(strstr(buf, "RLIMIT_MEMLOCK"), "%s", buf);
	cr_assert_not_null(strstr(buf, "-m"), "%s", buf);
	pms_mmap__error_reason(EINVAL, 3, buf, sizeof(buf));
	cr_assert_not_null(strstr(buf, "power of two"), "%s", buf);
}

Test(ring_buffer, init_mmap_checks_meta_offsets_against_the_mapping)
{
	struct pms_mmap m = { .fd = -1, .page_size_bytes = PAGE, .nr_data_pages = 1, .len_bytes = 2 * PAGE };
	struct pms_ring r;
	unsigned char *mem;

	cr_assert_eq(posix_memalign((void **)&mem, PAGE, 2 * PAGE), 0);
	memset(mem, 0, 2 * PAGE);
	m.base = mem;
	cr_assert_eq(pms_ring__init_mmap(&r, &m), 0);
	cr_assert_eq(r.size_bytes, PAGE);
	pms_ring__exit(&r);
	((struct perf_event_mmap_page *)(void *)mem)->data_offset = PAGE;
	((struct perf_event_mmap_page *)(void *)mem)->data_size = 2 * PAGE;
	cr_assert_eq(pms_ring__init_mmap(&r, &m), -EINVAL);
	((struct perf_event_mmap_page *)(void *)mem)->data_offset = 8;
	((struct perf_event_mmap_page *)(void *)mem)->data_size = PAGE;
	cr_assert_eq(pms_ring__init_mmap(&r, &m), -EINVAL);
	m.base = NULL;
	cr_assert_eq(pms_ring__init_mmap(&r, &m), -EINVAL);
	cr_assert_eq(pms_ring__init_mmap(&r, NULL), -EINVAL);
	free(mem);
}

/* The kernel's write_backward: head moves down, each record sits at the new head. */
static void fake_write_backward(struct fake *f, uint32_t type, uint16_t size, uint8_t fill)
{
	uint64_t head = f->meta->data_head - size, i;
	struct perf_event_header h = { .type = type, .misc = 0, .size = size };
	unsigned char *data = f->mem + PAGE;

	for (i = 0; i < size; i++) {
		unsigned char byte = i < sizeof(h) ? ((unsigned char *)&h)[i] : (unsigned char)(fill + i);

		data[(head + i) & (f->data_size - 1)] = byte;
	}
	__atomic_store_n(&f->meta->data_head, head, __ATOMIC_RELEASE);
}

struct backward_seen {
	uint32_t types[64];
	int n;
};

static int backward_cb(const struct perf_event_header *h, void *arg)
{
	struct backward_seen *seen = arg;

	check_body(h, (uint8_t)h->type);
	seen->types[seen->n++] = h->type;
	return 0;
}

Test(ring_buffer, overwrite_ring_read_newest_first)
{
	static const uint16_t sizes[] = { 24, 40, 16, 56, 32 };
	struct backward_seen seen = { .n = 0 };
	struct fake f;
	struct pms_ring r;
	uint64_t total = 0;
	uint32_t t;
	int i, expect;

	fake_init(&f, 256);
	memset(f.mem + PAGE, 0, 256);
	cr_assert_eq(pms_ring__init(&r, f.mem, PAGE, 256), 0);
	/* Not full yet: 3 records, then a zero header ends the walk. */
	for (t = 1; t <= 3; t++)
		fake_write_backward(&f, t, sizes[t % 5], (uint8_t)t);
	cr_assert_eq(pms_ring__read_backward(&r, backward_cb, &seen), 3);
	cr_assert_eq(seen.types[0], 3u);
	cr_assert_eq(seen.types[2], 1u);
	/* Overwritten many times: newest first, as many whole records as fit. */
	for (t = 4; t <= 40; t++)
		fake_write_backward(&f, t, sizes[t % 5], (uint8_t)t);
	seen.n = 0;
	for (expect = 0, t = 40; t >= 1; t--, expect++) {
		if (total + sizes[t % 5] > 256)
			break;
		total += sizes[t % 5];
	}
	cr_assert_eq(pms_ring__read_backward(&r, backward_cb, &seen), expect);
	for (i = 0; i < seen.n; i++)
		cr_assert_eq(seen.types[i], 40u - (uint32_t)i);
	/* Nothing was consumed: reading again gives the same. */
	cr_assert_eq(pms_ring__read_backward(&r, NULL, NULL), expect);
	/* A broken header. */
	memset(f.mem + PAGE + (f.meta->data_head & 255) + 6, 0, 1);
	memset(f.mem + PAGE + (f.meta->data_head & 255) + 6, 3, 1);
	cr_assert_eq(pms_ring__read_backward(&r, NULL, NULL), -EBADMSG);
	pms_ring__exit(&r);
	free(f.mem);
}

Test(ring_buffer, overwrite_ring_read_since_last_read)
{
	static const uint16_t sizes[] = { 24, 40, 16, 56, 32 };
	struct backward_seen seen = { .n = 0 };
	struct fake f;
	struct pms_ring r;
	uint64_t prev_head, since = 0;
	uint32_t t;

	fake_init(&f, 256);
	memset(f.mem + PAGE, 0, 256);
	cr_assert_eq(pms_ring__init(&r, f.mem, PAGE, 256), 0);
	for (t = 1; t <= 3; t++)
		fake_write_backward(&f, t, sizes[t % 5], (uint8_t)t);
	prev_head = f.meta->data_head;
	/* two more: a read bounded by the previous head gives just those, newest first */
	for (t = 4; t <= 5; t++) {
		fake_write_backward(&f, t, sizes[t % 5], (uint8_t)t);
		since += sizes[t % 5];
	}
	cr_assert_eq(prev_head - f.meta->data_head, since);
	cr_assert_eq(pms_ring__read_backward_max(&r, prev_head - f.meta->data_head, backward_cb, &seen), 2);
	cr_assert_eq(seen.types[0], 5u);
	cr_assert_eq(seen.types[1], 4u);
	/* nothing new: nothing read */
	cr_assert_eq(pms_ring__read_backward_max(&r, 0, NULL, NULL), 0);
	/* more than a ring since: bounded by the ring */
	cr_assert_eq(pms_ring__read_backward_max(&r, 1u << 20, NULL, NULL), pms_ring__read_backward(&r, NULL, NULL));
	pms_ring__exit(&r);
	free(f.mem);
}
