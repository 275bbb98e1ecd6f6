// SPDX-License-Identifier: MIT
// Unit tests of lib/data/outfile (a previous recording survives until the new one starts; perf's .old rotation) and lib/data/ordered (perf's ordered events).
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "data/ordered.h"
#include "data/outfile.h"
#include "util/fileio.h"

static char dir[64];

static void make_dir(void)
{
	snprintf(dir, sizeof(dir), "/tmp/pms-outfile-XXXXXX");
	cr_assert_not_null(mkdtemp(dir));
}

static void rm_dir(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	cr_expect_eq(system(cmd), 0);
}

TestSuite(outfile, .init = make_dir, .fini = rm_dir);

static void put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	cr_assert_not_null(f);
	fputs(text, f);
	fclose(f);
}

/* The file's text, or "<none>". */
static char *text_of(const char *path, char *buf, size_t size)
{
	char *t;
	size_t len;

	if (pms_file__read_all(path, &t, &len)) {
		snprintf(buf, size, "<none>");
		return buf;
	}
	snprintf(buf, size, "%s", t);
	free(t);
	return buf;
}

/* Entries of dir other than "." and "..". */
static int nr_entries(void)
{
	char cmd[128];
	FILE *p;
	int n = -1;

	snprintf(cmd, sizeof(cmd), "ls -A '%s' | wc -l", dir);
	p = popen(cmd, "r");
	cr_assert_not_null(p);
	cr_assert_eq(fscanf(p, "%d", &n), 1);
	pclose(p);
	return n;
}

Test(outfile, the_previous_file_stays_until_commit_then_becomes_old)
{
	struct pms_data_outfile o;
	char path[PATH_MAX], old[PATH_MAX], buf[64];
	struct stat st;
	bool rotated = false;

	snprintf(path, sizeof(path), "%s/perf.data", dir);
	snprintf(old, sizeof(old), "%s/perf.data.old", dir);
	put(path, "previous");
	put(old, "older");
	cr_assert_eq(pms_data_outfile__create(&o, path), 0);
	cr_assert_eq(write(o.fd, "new", 3), 3);
	/* written, not yet started: readers still see the previous recording */
	cr_expect_str_eq(text_of(path, buf, sizeof(buf)), "previous");
	cr_expect_str_eq(text_of(old, buf, sizeof(buf)), "older");
	cr_expect_eq(fstat(o.fd, &st), 0);
	cr_expect_eq(st.st_mode & 0777, 0600, "perf.data is private, as perf creates it");
	cr_assert_eq(pms_data_outfile__commit(&o, &rotated), 0);
	cr_expect(rotated);
	cr_expect_str_eq(text_of(path, buf, sizeof(buf)), "new");
	cr_expect_str_eq(text_of(old, buf, sizeof(buf)), "previous");
	/* the writer goes on through the same fd */
	cr_assert_eq(write(o.fd, "er", 2), 2);
	cr_expect_str_eq(text_of(path, buf, sizeof(buf)), "newer");
	cr_expect_eq(pms_data_outfile__commit(&o, &rotated), 0, "a second commit does nothing");
	cr_expect(!rotated);
	pms_data_outfile__release(&o);
	cr_expect_eq(nr_entries(), 2, "no temporary file left");
}

Test(outfile, abort_leaves_everything_as_it_was)
{
	struct pms_data_outfile o;
	char path[PATH_MAX], buf[64];

	snprintf(path, sizeof(path), "%s/other.data", dir);
	put(path, "keep me");
	cr_assert_eq(pms_data_outfile__create(&o, path), 0);
	cr_assert_eq(write(o.fd, "half", 4), 4);
	pms_data_outfile__abort(&o);
	pms_data_outfile__release(&o);
	cr_expect_str_eq(text_of(path, buf, sizeof(buf)), "keep me");
	cr_expect_eq(nr_entries(), 1, "only the previous file");

	/* release without commit is an abort too */
	cr_assert_eq(pms_data_outfile__create(&o, path), 0);
	pms_data_outfile__release(&o);
	cr_expect_eq(nr_entries(), 1);
	/* a zeroed struct is fine to release (its fd 0 is not ours) */
	memset(&o, 0, sizeof(o));
	pms_data_outfile__release(&o);
	cr_expect_neq(fcntl(0, F_GETFD), -1, "stdin still open");
}

Test(outfile, empty_or_absent_previous_files_are_not_rotated)
{
	struct pms_data_outfile o;
	char path[PATH_MAX], old[PATH_MAX], buf[64];
	bool rotated = true;

	snprintf(path, sizeof(path), "%s/perf.data", dir);
	snprintf(old, sizeof(old), "%s/perf.data.old", dir);
	cr_assert_eq(pms_data_outfile__create(&o, path), 0);
	cr_assert_eq(pms_data_outfile__commit(&o, &rotated), 0);
	cr_expect(!rotated);
	pms_data_outfile__release(&o);
	/* perf rotates only a file with something in it */
	put(old, "older");
	cr_assert_eq(pms_data_outfile__create(&o, path), 0);
	cr_assert_eq(pms_data_outfile__commit(&o, &rotated), 0);
	cr_expect(!rotated);
	cr_expect_str_eq(text_of(old, buf, sizeof(buf)), "older");
	pms_data_outfile__release(&o);
}

Test(outfile, special_files_are_written_in_place_and_directories_refused)
{
	struct pms_data_outfile o;
	char sub[PATH_MAX];
	bool rotated = true;

	cr_assert_eq(pms_data_outfile__create(&o, "/dev/null"), 0);
	cr_expect_null(o.tmp);
	cr_expect_eq(write(o.fd, "x", 1), 1);
	cr_assert_eq(pms_data_outfile__commit(&o, &rotated), 0);
	cr_expect(!rotated);
	pms_data_outfile__release(&o);
	cr_expect_eq(access("/dev/null.old", F_OK), -1);

	snprintf(sub, sizeof(sub), "%s/d", dir);
	mkdir(sub, 0755);
	cr_expect_eq(pms_data_outfile__create(&o, sub), -EISDIR);
	snprintf(sub, sizeof(sub), "%s/no/such/dir/perf.data", dir);
	cr_expect_eq(pms_data_outfile__create(&o, sub), -ENOENT);
	cr_expect_eq(pms_data_outfile__create(&o, ""), -ENOENT);
}

Test(outfile, a_relative_name_gets_its_temporary_file_beside_it)
{
	struct pms_data_outfile o;
	char cwd[PATH_MAX], buf[64];

	cr_assert_not_null(getcwd(cwd, sizeof(cwd)));
	cr_assert_eq(chdir(dir), 0);
	put("perf.data", "previous");
	cr_assert_eq(pms_data_outfile__create(&o, "perf.data"), 0);
	cr_expect_eq(strncmp(o.tmp, ".perf.data.", 11), 0, "%s", o.tmp);
	cr_assert_eq(pms_data_outfile__commit(&o, NULL), 0);
	pms_data_outfile__release(&o);
	cr_expect_str_eq(text_of("perf.data.old", buf, sizeof(buf)), "previous");
	cr_assert_eq(chdir(cwd), 0);
}

/* -------------------------------------------------------------- ordered -- */

/* A record whose header.misc carries a tag (which record it was). */
static struct perf_event_header rec(uint16_t tag)
{
	return (struct perf_event_header){ .type = PERF_RECORD_SAMPLE, .misc = tag, .size = 8 };
}

/* Pop everything due into tags[]; returns how many. */
static size_t pop_all(struct pms_ordered *q, uint16_t *tags, size_t max)
{
	const struct perf_event_header *h;
	size_t n = 0;
	int tag;

	while (pms_ordered__pop(q, &h, &tag, NULL) > 0) {
		cr_assert_lt(n, max);
		cr_expect_eq(tag, h->misc * 10, "the caller's tag comes back with its record");
		tags[n++] = h->misc;
	}
	return n;
}

static void push(struct pms_ordered *q, uint16_t tag, uint64_t time)
{
	struct perf_event_header h = rec(tag);

	cr_assert_eq(pms_ordered__push(q, &h, time, tag * 10, 0), 0);
}

Test(ordered, rounds_release_what_the_previous_round_had_seen)
{
	struct pms_ordered *q;
	uint16_t t[16];
	size_t n;

	cr_assert_eq(pms_ordered__new(&q), 0);
	/* round 1: two CPUs' rings, each in order, interleaved in time */
	push(q, 1, 100);
	push(q, 2, 300);
	push(q, 3, 200);
	push(q, 4, 250);
	pms_ordered__round(q);
	cr_expect_eq(pop_all(q, t, 16), 0, "the first round releases nothing: a later ring may still hold older records");
	/* round 2: one record older than round 1's newest */
	push(q, 5, 280);
	push(q, 6, 400);
	pms_ordered__round(q);
	n = pop_all(q, t, 16);
	cr_assert_eq(n, 5, "everything up to 300 (round 1's newest)");
	cr_expect_eq(t[0], 1);
	cr_expect_eq(t[1], 3);
	cr_expect_eq(t[2], 4);
	cr_expect_eq(t[3], 5);
	cr_expect_eq(t[4], 2);
	cr_expect_eq(pms_ordered__nr(q), 1);
	pms_ordered__flush_all(q);
	n = pop_all(q, t, 16);
	cr_assert_eq(n, 1);
	cr_expect_eq(t[0], 6);
	cr_expect_eq(pms_ordered__nr(q), 0);
	pms_ordered__free(q);
}

Test(ordered, equal_times_keep_arrival_order_and_late_records_still_come_out)
{
	struct pms_ordered *q;
	uint16_t t[16];

	cr_assert_eq(pms_ordered__new(&q), 0);
	push(q, 1, 50);
	push(q, 2, 50);
	push(q, 3, 10);
	push(q, 4, 50);
	pms_ordered__flush_all(q);
	cr_assert_eq(pop_all(q, t, 16), 4);
	cr_expect_eq(t[0], 3);
	cr_expect_eq(t[1], 1);
	cr_expect_eq(t[2], 2);
	cr_expect_eq(t[3], 4);
	/* after a flush, an older record is still delivered (perf counts it as out of order) */
	push(q, 5, 5);
	pms_ordered__flush_all(q);
	cr_assert_eq(pop_all(q, t, 16), 1);
	cr_expect_eq(t[0], 5);
	pms_ordered__free(q);
}

Test(ordered, released_but_unpopped_records_stay_first)
{
	struct pms_ordered *q;
	const struct perf_event_header *h;
	uint16_t t[16];
	int tag;

	cr_assert_eq(pms_ordered__new(&q), 0);
	push(q, 1, 10);
	push(q, 2, 20);
	pms_ordered__round(q);
	push(q, 3, 30);
	pms_ordered__round(q); /* releases <= 20 */
	cr_assert_eq(pms_ordered__pop(q, &h, &tag, NULL), 1);
	cr_expect_eq(h->misc, 1);
	push(q, 4, 15);
	pms_ordered__round(q); /* releases <= 30 */
	cr_assert_eq(pop_all(q, t, 16), 3);
	cr_expect_eq(t[0], 2);
	cr_expect_eq(t[1], 4);
	cr_expect_eq(t[2], 3);
	pms_ordered__free(q);
}

Test(outfile, a_directory_where_the_old_file_goes_is_refused_before_anything_starts)
{
	struct pms_data_outfile o;
	char path[PATH_MAX], old[PATH_MAX];

	snprintf(path, sizeof(path), "%s/perf.data", dir);
	snprintf(old, sizeof(old), "%s/perf.data.old", dir);
	put(path, "previous");
	cr_assert_eq(mkdir(old, 0755), 0);
	cr_expect_eq(pms_data_outfile__create(&o, path), -ENOTEMPTY);
	cr_expect_eq(nr_entries(), 2, "no temporary file");
	/* an empty previous file is not rotated: nothing in the way */
	put(path, "");
	cr_assert_eq(pms_data_outfile__create(&o, path), 0);
	cr_assert_eq(pms_data_outfile__commit(&o, NULL), 0);
	pms_data_outfile__release(&o);
}
