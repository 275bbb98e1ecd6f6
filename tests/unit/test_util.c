// SPDX-License-Identifier: MIT
// Unit tests of lib/util: strings, cpu lists, suggestions, file readers, roots.
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "util/array.h"
#include "util/cpulist.h"
#include "util/fileio.h"
#include "util/idlist.h"
#include "util/idtab.h"
#include "util/strbuf.h"
#include "util/strsim.h"
#include "util/sysfs.h"

Test(util_strbuf, durations_as_people_read_them)
{
	static const struct {
		uint64_t ns;
		const char *want;
	} cases[] = {
		{ 0, "0 us" }, { 499, "0 us" }, { 850000, "850 us" }, { 999499, "999 us" },
		{ 999999, "1.0 ms" }, { 1000000, "1.0 ms" }, { 12345678, "12.3 ms" },
		{ 999949999, "999.9 ms" }, { 999999999, "1.000 s" },
		{ 1000000000, "1.000 s" }, { 61234000000ULL, "61.234 s" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct strbuf sb = STRBUF_INIT;

		strbuf_add_duration_ns(&sb, cases[i].ns);
		cr_expect_str_eq(strbuf_str(&sb), cases[i].want, "%llu ns", (unsigned long long)cases[i].ns);
		strbuf_release(&sb);
	}
}

Test(util_strbuf, appends_and_formats)
{
	struct strbuf sb = STRBUF_INIT;

	cr_assert_str_eq(strbuf_str(&sb), "");
	strbuf_adds(&sb, "cycles");
	strbuf_addch(&sb, ':');
	strbuf_addf(&sb, "%s/%d", "u", 42);
	cr_assert_str_eq(strbuf_str(&sb), "cycles:u/42");
	cr_assert_eq(sb.len, strlen("cycles:u/42"));
	strbuf_reset(&sb);
	cr_assert_str_eq(strbuf_str(&sb), "");
	for (int i = 0; i < 1000; i++)
		strbuf_addf(&sb, "%04d", i);
	cr_assert_eq(sb.len, 4000);
	cr_assert(!strncmp(sb.buf + 3996, "0999", 4));
	char *s = strbuf_detach(&sb);
	cr_assert_eq(strlen(s), 4000);
	cr_assert_null(sb.buf);
	free(s);
	strbuf_release(&sb);
}

Test(util_strbuf, detach_empty_gives_empty_string)
{
	struct strbuf sb = STRBUF_INIT;
	char *s = strbuf_detach(&sb);

	cr_assert_not_null(s);
	cr_assert_str_eq(s, "");
	free(s);
}

static void check_list(const char *s, const int *want, size_t n)
{
	struct pms_cpulist l;

	cr_assert_eq(pms_cpulist__parse(s, &l, NULL), 0, "parse '%s'", s);
	cr_assert_eq(l.nr, n, "'%s': %zu cpus, want %zu", s, l.nr, n);
	for (size_t i = 0; i < n; i++)
		cr_assert_eq(l.cpus[i], want[i], "'%s'[%zu]", s, i);
	pms_cpulist__release(&l);
}

Test(util_cpulist, kernel_and_user_forms)
{
	check_list("0", (int[]){ 0 }, 1);
	check_list("0-3\n", (int[]){ 0, 1, 2, 3 }, 4);
	check_list("0-1,8,10-11", (int[]){ 0, 1, 8, 10, 11 }, 5);
	check_list("3,1,2,1", (int[]){ 1, 2, 3 }, 3);
}

Test(util_cpulist, rejects_garbage_with_position)
{
	struct pms_cpulist l;
	size_t pos = 99;

	cr_assert_eq(pms_cpulist__parse("0-3,x", &l, &pos), -EINVAL);
	cr_assert_eq(pos, 4);
	cr_assert_eq(pms_cpulist__parse("3-1", &l, &pos), -EINVAL);
	cr_assert_eq(pms_cpulist__parse("", &l, &pos), -EINVAL);
	cr_assert_eq(pms_cpulist__parse("1,,2", &l, &pos), -EINVAL);
	cr_assert_eq(pms_cpulist__parse("-1", &l, &pos), -EINVAL);
	cr_assert_eq(pms_cpulist__parse("99999999", &l, &pos), -EINVAL);
	cr_assert_null(l.cpus);
}

Test(util_cpulist, contains)
{
	struct pms_cpulist l;

	cr_assert_eq(pms_cpulist__parse("0-1,8", &l, NULL), 0);
	cr_assert(pms_cpulist__contains(&l, 8));
	cr_assert(!pms_cpulist__contains(&l, 2));
	pms_cpulist__release(&l);
}

Test(util_fileio, write_all_creates_truncates_and_says_why_not)
{
	char dir[] = "/tmp/pms-fileio-XXXXXX", path[300], *back = NULL;
	size_t len = 0;

	cr_assert_not_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/out", dir);
	cr_assert_eq(pms_file__write_all(path, "a longer first text", 19), 0);
	cr_assert_eq(pms_file__write_all(path, "short", 5), 0);
	cr_assert_eq(pms_file__read_all(path, &back, &len), 0);
	cr_assert_eq(len, 5);
	cr_assert_eq(memcmp(back, "short", 5), 0);
	free(back);
	cr_assert_eq(pms_file__write_all(dir, "x", 1), -EISDIR);
	snprintf(path, sizeof(path), "%s/no/such/dir", dir);
	cr_assert_eq(pms_file__write_all(path, "x", 1), -ENOENT);
	cr_assert_eq(pms_file__write_all("/dev/full", "x", 1), -ENOSPC);
	snprintf(path, sizeof(path), "%s/out", dir);
	unlink(path);
	rmdir(dir);
}

/* Find key k (the caller's keys: keys[id]) under hash h, or insert it as id nr. */
static uint32_t idtab_find_or_add(struct pms_idtab *t, const uint32_t *keys, uint32_t *nr, uint32_t k, uint32_t h)
{
	size_t i;

	cr_assert_eq(pms_idtab__reserve(t), 0);
	cr_assert_leq((t->nr + 1) * 2, t->cap);
	for (i = pms_idtab__start(t, h); pms_idtab__used(t, i); i = pms_idtab__next(t, i))
		if (pms_idtab__hash(t, i) == h && keys[pms_idtab__id(t, i)] == k)
			return pms_idtab__id(t, i);
	pms_idtab__set(t, i, h, *nr);
	return (*nr)++;
}

Test(util_idtab, colliding_hashes_growth_and_release)
{
	static uint32_t keys[20000];
	struct pms_idtab t = { 0 };
	uint32_t nr = 0;

	/* seven hashes for 20000 keys: long probe runs, and growth many times over */
	for (uint32_t k = 0; k < 20000; k++) {
		keys[nr] = k * 3;
		cr_assert_eq(idtab_find_or_add(&t, keys, &nr, k * 3, k % 7), k);
	}
	cr_assert_eq(t.nr, 20000);
	for (uint32_t k = 0; k < 20000; k += 997)
		cr_assert_eq(idtab_find_or_add(&t, keys, &nr, k * 3, k % 7), k, "key %u found again", k);
	cr_assert_eq(nr, 20000, "nothing added twice");
	pms_idtab__release(&t);
	cr_assert_null(t.slots);
	cr_assert_eq(t.cap, 0);
	cr_assert_eq(t.nr, 0);
}

static bool key_is(const void *ctx, uint32_t id)
{
	const uint32_t *want = ctx;

	return id * 5 == *want; /* the keys of this test are 5 * id */
}

Test(util_idtab, probe_with_a_callback)
{
	struct pms_idtab t = { 0 };

	for (uint32_t id = 0; id < 3000; id++) {
		uint32_t key = id * 5;
		size_t slot;

		cr_assert_eq(pms_idtab__reserve(&t), 0);
		slot = pms_idtab__probe(&t, key % 11, key_is, &key);
		cr_assert_not(pms_idtab__used(&t, slot), "id %u not there yet", id);
		pms_idtab__set(&t, slot, key % 11, id);
	}
	for (uint32_t id = 0; id < 3000; id += 7) {
		uint32_t key = id * 5;
		size_t slot = pms_idtab__probe(&t, key % 11, key_is, &key);

		cr_assert(pms_idtab__used(&t, slot));
		cr_assert_eq(pms_idtab__id(&t, slot), id);
		cr_assert_eq(pms_idtab__hash(&t, slot), key % 11);
	}
	pms_idtab__release(&t);
}

Test(util_idlist, lists_in_order_with_duplicates)
{
	pid_t *ids;
	size_t nr;

	cr_assert_eq(pms_id_list__parse("12,34,12", 1, &ids, &nr), 0);
	cr_assert_eq(nr, 3);
	cr_assert_eq(ids[0], 12);
	cr_assert_eq(ids[1], 34);
	cr_assert_eq(ids[2], 12);
	free(ids);
	cr_assert_eq(pms_id_list__parse("2147483647", 1, &ids, &nr), 0);
	cr_assert_eq(ids[0], 2147483647);
	free(ids);
	/* pid 0 (the idle task) only where the caller allows it */
	cr_assert_eq(pms_id_list__parse("0,1", 0, &ids, &nr), 0);
	cr_assert_eq(nr, 2);
	free(ids);
}

Test(util_idlist, refuses_anything_else_and_leaves_nothing)
{
	static const char *const bad[] = {
		"", ",", "1,", ",1", "1,,2", "12x", "x", "-1", "+1", " 1", "1 ", "1-3",
		"2147483648", "99999999999999999999", "0",
	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		pid_t *ids = (pid_t *)1;
		size_t nr = 7;

		cr_assert_eq(pms_id_list__parse(bad[i], 1, &ids, &nr), -EINVAL, "'%s'", bad[i]);
		cr_assert_null(ids, "'%s'", bad[i]);
		cr_assert_eq(nr, 0, "'%s'", bad[i]);
	}
}

Test(util_strsim, distances)
{
	cr_assert_eq(pms_str__edit_distance("cache-misses", "cache-misses"), 0);
	cr_assert_eq(pms_str__edit_distance("cache-mises", "cache-misses"), 1);
	cr_assert_eq(pms_str__edit_distance("cyclse", "cycles"), 1, "transposition counts once");
	cr_assert_eq(pms_str__edit_distance("CYCLES", "cycles"), 0, "case-insensitive");
	cr_assert_eq(pms_str__edit_distance("", "abc"), 3);
}

Test(util_strsim, suggestions)
{
	static const char *const names[] = { "cycles", "instructions", "cache-misses", "cache-references",
					     "task-clock", "cpu-clock" };
	size_t n = sizeof(names) / sizeof(names[0]);

	cr_assert_str_eq(pms_str__suggest("cache-mises", names, n), "cache-misses");
	cr_assert_str_eq(pms_str__suggest("instrucions", names, n), "instructions");
	cr_assert_str_eq(pms_str__suggest("task-clok", names, n), "task-clock");
	cr_assert_str_eq(pms_str__suggest("cache-ref", names, n), "cache-references", "prefix");
	cr_assert_null(pms_str__suggest("zzzzzzzzzz", names, n));
	cr_assert_null(pms_str__suggest("", names, n));
}

static char tmpdir[] = "/tmp/pms-unit-XXXXXX";

static void write_file(const char *name, const char *content)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", tmpdir, name);
	f = fopen(path, "w");
	cr_assert_not_null(f);
	fputs(content, f);
	fclose(f);
}

static void mk_tmp(void)
{
	cr_assert_not_null(mkdtemp(tmpdir));
}

Test(util_fileio, reads_numbers_and_strings, .init = mk_tmp)
{
	char path[512], buf[16];
	uint64_t v;
	int i;

	write_file("hex", "0x1b7\n");
	write_file("dec", "42\n");
	write_file("neg", "-1\n");
	write_file("bad", "12abc\n");
	write_file("long", "0123456789abcdefghijklmnop\n");
	snprintf(path, sizeof(path), "%s/hex", tmpdir);
	cr_assert_eq(pms_file__read_u64(path, &v), 0);
	cr_assert_eq(v, 0x1b7);
	snprintf(path, sizeof(path), "%s/dec", tmpdir);
	cr_assert_eq(pms_file__read_u64(path, &v), 0);
	cr_assert_eq(v, 42);
	snprintf(path, sizeof(path), "%s/neg", tmpdir);
	cr_assert_eq(pms_file__read_u64(path, &v), -EINVAL, "u64 rejects negatives");
	cr_assert_eq(pms_file__read_int(path, &i), 0);
	cr_assert_eq(i, -1);
	snprintf(path, sizeof(path), "%s/bad", tmpdir);
	cr_assert_eq(pms_file__read_u64(path, &v), -EINVAL);
	snprintf(path, sizeof(path), "%s/long", tmpdir);
	cr_assert_eq(pms_file__read_str(path, buf, sizeof(buf)), 0);
	cr_assert_eq(strlen(buf), sizeof(buf) - 1, "truncated to the buffer");
	snprintf(path, sizeof(path), "%s/missing", tmpdir);
	cr_assert_eq(pms_file__read_u64(path, &v), -ENOENT);
	cr_assert_eq(pms_file__read_str(tmpdir, buf, sizeof(buf)), -EISDIR);
}

Test(util_fileio, read_all_grows, .init = mk_tmp)
{
	char path[512], *data = NULL;
	size_t len = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/big", tmpdir);
	f = fopen(path, "w");
	for (int i = 0; i < 10000; i++)
		fprintf(f, "line %d\n", i);
	fclose(f);
	cr_assert_eq(pms_file__read_all(path, &data, &len), 0);
	cr_assert_eq(len, strlen(data));
	cr_assert(strstr(data, "line 9999\n"));
	free(data);
}

Test(util_sysfs, roots_follow_environment)
{
	char buf[256];

	setenv("PMS_SYSFS_ROOT", "/fixture/sys", 1);
	setenv("PMS_PROCFS_ROOT", "/fixture/proc", 1);
	setenv("PMS_TRACEFS_ROOT", "/fixture/tracing", 1);
	cr_assert_eq(pms_pmu_dir__path(buf, sizeof(buf), "%s/type", "cpu"), 0);
	cr_assert_str_eq(buf, "/fixture/sys/bus/event_source/devices/cpu/type");
	cr_assert_eq(pms_procfs__path(buf, sizeof(buf), "sys/kernel/%s", "perf_event_paranoid"), 0);
	cr_assert_str_eq(buf, "/fixture/proc/sys/kernel/perf_event_paranoid");
	cr_assert_str_eq(pms_tracefs_root(), "/fixture/tracing");
	cr_assert_eq(pms_tracefs__mount(), -EPERM, "never mounts over a fixture");
	cr_assert_eq(pms_sysfs__path(buf, 8, "%s", "devices/system/cpu/online"), -ENAMETOOLONG);
	unsetenv("PMS_SYSFS_ROOT");
	cr_assert_eq(pms_sysfs__path(buf, sizeof(buf), "x"), 0);
	cr_assert_str_eq(buf, "/sys/x");
}

Test(util_array, reserve_doubles_and_keeps_data)
{
	int *a = NULL;
	size_t alloc = 0;

	cr_assert_eq(pms_array__reserve(&a, &alloc, 1, sizeof(*a)), 0);
	cr_assert_eq(alloc, 64);
	for (int i = 0; i < 64; i++)
		a[i] = i;
	cr_assert_eq(pms_array__reserve(&a, &alloc, 65, sizeof(*a)), 0);
	cr_assert_eq(alloc, 128);
	cr_assert_eq(a[63], 63);
	cr_assert_eq(pms_array__reserve(&a, &alloc, 100, sizeof(*a)), 0);
	cr_assert_eq(alloc, 128);
	/* a size that cannot be allocated fails and leaves the array as it was */
	cr_assert_eq(pms_array__reserve(&a, &alloc, SIZE_MAX / 2, sizeof(*a)), -ENOMEM);
	cr_assert_eq(alloc, 128);
	cr_assert_eq(a[0], 0);
	free(a);
}

/* The names in dir other than keep, joined by ' '. */
static void other_names(const char *dir, const char *keep, char *buf, size_t size)
{
	char cmd[512];
	FILE *p;
	size_t n;

	snprintf(cmd, sizeof(cmd), "ls -A '%s' | grep -vx '%s' | tr '\\n' ' '", dir, keep);
	p = popen(cmd, "r");
	cr_assert_not_null(p);
	n = fread(buf, 1, size - 1, p);
	buf[n] = 0;
	pclose(p);
}

Test(util_fileio, replace_is_all_or_nothing)
{
	char dir[] = "/tmp/pms-replace-XXXXXX", path[256], got[64], rest[256];
	struct pms_file_replace r;
	struct stat sb;

	cr_assert_not_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/out.bin", dir);
	cr_assert_eq(pms_file__write_all(path, "old", 3), 0);

	/* a failed write leaves the old file and no temporary behind */
	cr_assert_eq(pms_file_replace__begin(&r, path), 0);
	cr_assert_eq(strncmp(r.tmp, dir, strlen(dir)), 0, "the temporary file is beside its path: %s", r.tmp);
	cr_assert_eq(pms_fd__write_all(r.fd, "half", 4), 0);
	cr_assert_eq(pms_file_replace__end(&r, path, 0644, -EIO), -EIO);
	cr_assert_eq(pms_file__read_str(path, got, sizeof(got)), 0);
	cr_assert_str_eq(got, "old");
	other_names(dir, "out.bin", rest, sizeof(rest));
	cr_assert_str_eq(rest, "");

	/* a good one replaces it whole, with the mode asked for */
	cr_assert_eq(pms_file_replace__begin(&r, path), 0);
	cr_assert_eq(pms_fd__write_all(r.fd, "new", 3), 0);
	cr_assert_eq(pms_file_replace__end(&r, path, 0640, 0), 0);
	cr_assert_eq(pms_file__read_str(path, got, sizeof(got)), 0);
	cr_assert_str_eq(got, "new");
	cr_assert_eq(stat(path, &sb), 0);
	cr_assert_eq(sb.st_mode & 0777, 0640);
	other_names(dir, "out.bin", rest, sizeof(rest));
	cr_assert_str_eq(rest, "");

	/* a directory that does not exist: said at the start */
	snprintf(path, sizeof(path), "%s/none/out.bin", dir);
	cr_assert_eq(pms_file_replace__begin(&r, path), -ENOENT);
	cr_assert_eq(pms_file_replace__end(&r, path, 0644, -ENOENT), -ENOENT);
	snprintf(path, sizeof(path), "%s/out.bin", dir);
	unlink(path);
	rmdir(dir);
}
