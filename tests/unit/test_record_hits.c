// SPDX-License-Identifier: MIT
// Unit tests of cli/record_hits (which objects have samples, for HEADER_BUILD_ID) and cli/record_synth (notes, modules).
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

/*
 * The CLI is not linked into the unit binary: compile the unit under test
 * into this file, with its allocation helpers renamed so they cannot clash
 * with another test doing the same.
 */
#define xmalloc record_hits_test_xmalloc
#define xcalloc record_hits_test_xcalloc
#define xrealloc record_hits_test_xrealloc
#define xstrdup record_hits_test_xstrdup
#include "../../cli/record_hits.c"

void *xmalloc(size_t n)
{
	void *p = malloc(n);

	cr_assert_not_null(p);
	return p;
}

void *xcalloc(size_t nmemb, size_t n)
{
	void *p = calloc(nmemb, n);

	cr_assert_not_null(p);
	return p;
}

void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n);
	cr_assert_not_null(p);
	return p;
}

char *xstrdup(const char *s)
{
	char *p = strdup(s);

	cr_assert_not_null(p);
	return p;
}

/* Was the object called name hit? -1 if unknown. */
static int hit_of(const struct rec_hits *h, const char *name)
{
	for (size_t i = 0; i < rec_hits__nr(h); i++) {
		bool hit, kernel;
		const char *n = rec_hits__name(h, i, &hit, &kernel);

		if (!strcmp(n, name))
			return hit;
	}
	return -1;
}

#define USER PERF_RECORD_MISC_USER
#define KERNEL PERF_RECORD_MISC_KERNEL

Test(record_hits, ip_marks_only_the_object_under_it)
{
	struct rec_hits *h = rec_hits__new();

	rec_hits__mmap(h, 10, 0x1000, 0x1000, "/bin/app");
	rec_hits__mmap(h, 10, 0x5000, 0x1000, "/lib/libc.so");
	rec_hits__sample(h, 10, USER, 0x1800, NULL, 0);
	rec_hits__sample(h, 10, USER, 0x9000, NULL, 0); /* unmapped */
	rec_hits__finish(h);
	cr_expect_eq(hit_of(h, "/bin/app"), 1);
	cr_expect_eq(hit_of(h, "/lib/libc.so"), 0);
	cr_expect_eq(hit_of(h, "[kernel.kallsyms]"), 0);
	/* the end of a map is outside it */
	rec_hits__sample(h, 10, USER, 0x6000, NULL, 0);
	rec_hits__finish(h);
	cr_expect_eq(hit_of(h, "/lib/libc.so"), 0);
	rec_hits__free(h);
}

Test(record_hits, kernel_and_modules)
{
	struct rec_hits *h = rec_hits__new();

	rec_hits__add_module(h, "[fake]", 0xffffffffc0000000ULL, 0x2000);
	rec_hits__add_module(h, "/lib/modules/x/other.ko", 0xffffffffc0010000ULL, 0x2000);
	rec_hits__sample(h, 1, KERNEL, 0xffffffffc0001000ULL, NULL, 0);
	cr_expect_eq(hit_of(h, "[fake]"), 1);
	cr_expect_eq(hit_of(h, "/lib/modules/x/other.ko"), 0);
	cr_expect_eq(hit_of(h, "[kernel.kallsyms]"), 0);
	rec_hits__sample(h, 1, KERNEL, 0xffffffff81000000ULL, NULL, 0);
	cr_expect_eq(hit_of(h, "[kernel.kallsyms]"), 1);
	rec_hits__free(h);
}

Test(record_hits, call_chain_entries_follow_context_markers)
{
	struct rec_hits *h = rec_hits__new();
	const uint64_t chain[] = {
		(uint64_t)PERF_CONTEXT_KERNEL, 0xffffffffc0000100ULL, 0xffffffff81000100ULL,
		(uint64_t)PERF_CONTEXT_USER, 0x1100, 0x5100,
	};

	rec_hits__add_module(h, "[mod]", 0xffffffffc0000000ULL, 0x1000);
	rec_hits__mmap(h, 7, 0x1000, 0x1000, "/bin/app");
	rec_hits__mmap(h, 7, 0x5000, 0x1000, "/lib/libc.so");
	rec_hits__mmap(h, 7, 0x8000, 0x1000, "/lib/libm.so");
	rec_hits__sample(h, 7, KERNEL, 0xffffffffc0000100ULL, chain, sizeof(chain) / sizeof(chain[0]));
	rec_hits__finish(h);
	cr_expect_eq(hit_of(h, "[mod]"), 1);
	cr_expect_eq(hit_of(h, "[kernel.kallsyms]"), 1);
	cr_expect_eq(hit_of(h, "/bin/app"), 1);
	cr_expect_eq(hit_of(h, "/lib/libc.so"), 1);
	cr_expect_eq(hit_of(h, "/lib/libm.so"), 0);
	rec_hits__free(h);
}

Test(record_hits, fork_copies_and_exec_clears)
{
	struct rec_hits *h = rec_hits__new();

	rec_hits__mmap(h, 100, 0x1000, 0x1000, "/bin/sh");
	rec_hits__fork(h, 200, 100);
	rec_hits__sample(h, 200, USER, 0x1100, NULL, 0);
	cr_expect_eq(hit_of(h, "/bin/sh"), 1);
	/* after exec, the child's old maps are gone: a sample there is not /bin/sh's */
	rec_hits__fork(h, 300, 100);
	rec_hits__exec(h, 300);
	rec_hits__mmap(h, 300, 0x7000, 0x1000, "/bin/true");
	rec_hits__sample(h, 300, USER, 0x7100, NULL, 0);
	cr_expect_eq(hit_of(h, "/bin/true"), 1);
	/* a new thread (pid == ppid) keeps its process's maps */
	rec_hits__fork(h, 300, 300);
	rec_hits__sample(h, 300, USER, 0x7200, NULL, 0);
	rec_hits__finish(h);
	cr_expect_eq(hit_of(h, "/bin/true"), 1);
	rec_hits__free(h);
}

Test(record_hits, exec_drops_the_inherited_maps)
{
	struct rec_hits *h = rec_hits__new();

	rec_hits__mmap(h, 100, 0x1000, 0x1000, "/bin/sh");
	rec_hits__fork(h, 300, 100);
	rec_hits__exec(h, 300);
	rec_hits__sample(h, 300, USER, 0x1100, NULL, 0);
	rec_hits__finish(h);
	cr_expect_eq(hit_of(h, "/bin/sh"), 0);
	rec_hits__free(h);
}

Test(record_hits, newer_map_shadows_older)
{
	struct rec_hits *h = rec_hits__new();

	rec_hits__mmap(h, 5, 0x1000, 0x4000, "/old.so");
	rec_hits__mmap(h, 5, 0x2000, 0x1000, "/new.so");
	rec_hits__sample(h, 5, USER, 0x2800, NULL, 0);
	rec_hits__finish(h);
	cr_expect_eq(hit_of(h, "/new.so"), 1);
	cr_expect_eq(hit_of(h, "/old.so"), 0);
	rec_hits__free(h);
}

Test(record_hits, sample_before_its_map_resolves_at_finish)
{
	struct rec_hits *h = rec_hits__new();

	/* the MMAP2 sits in another CPU's ring, drained after the sample */
	rec_hits__sample(h, 42, USER, 0x3100, NULL, 0);
	rec_hits__sample(h, 42, USER, 0x3100, NULL, 0); /* deduplicated */
	cr_expect_eq(hit_of(h, "/late.so"), -1);
	rec_hits__mmap(h, 42, 0x3000, 0x1000, "/late.so");
	cr_expect_eq(hit_of(h, "/late.so"), 0);
	rec_hits__finish(h);
	cr_expect_eq(hit_of(h, "/late.so"), 1);
	rec_hits__free(h);
}

Test(record_hits, many_processes_and_objects)
{
	struct rec_hits *h = rec_hits__new();
	char name[32];

	for (uint32_t pid = 1; pid <= 5000; pid++) {
		snprintf(name, sizeof(name), "/obj/%u", pid % 97);
		rec_hits__mmap(h, pid, 0x400000 + pid * 0x1000ULL, 0x1000, name);
	}
	for (uint32_t pid = 1; pid <= 5000; pid += 2)
		rec_hits__sample(h, pid, USER, 0x400000 + pid * 0x1000ULL + 8, NULL, 0);
	rec_hits__finish(h);
	cr_expect_eq(rec_hits__nr(h), 1 + 97);
	cr_expect_eq(hit_of(h, "/obj/1"), 1);  /* pid 1 */
	cr_expect_eq(hit_of(h, "/obj/2"), 1);  /* pid 99 */
	rec_hits__mmap(h, 9999, 0x900000, 0x1000, "/never");
	rec_hits__sample(h, 9998, USER, 0x900010, NULL, 0); /* another process at that address */
	rec_hits__finish(h);
	cr_expect_eq(hit_of(h, "/never"), 0);
	rec_hits__free(h);
}

Test(record_hits, pass_done_uses_the_maps_of_the_samples_time)
{
	struct rec_hits *h = rec_hits__new();

	rec_hits__sample(h, 42, USER, 0x3100, NULL, 0);
	rec_hits__mmap(h, 42, 0x3000, 0x1000, "/a.so");
	rec_hits__pass_done(h);
	cr_expect_eq(hit_of(h, "/a.so"), 1);
	/* a later exec maps something else there: it must not be marked */
	rec_hits__exec(h, 42);
	rec_hits__mmap(h, 42, 0x3000, 0x1000, "/b.so");
	rec_hits__finish(h);
	cr_expect_eq(hit_of(h, "/b.so"), 0);
	rec_hits__free(h);
}

Test(record_hits, unresolved_after_a_pass_waits_for_finish)
{
	struct rec_hits *h = rec_hits__new();

	rec_hits__sample(h, 9, USER, 0x5100, NULL, 0);
	rec_hits__pass_done(h);
	rec_hits__mmap(h, 9, 0x5000, 0x1000, "/slow.so");
	rec_hits__pass_done(h); /* already retried once: left for the end */
	cr_expect_eq(hit_of(h, "/slow.so"), 0);
	rec_hits__finish(h);
	cr_expect_eq(hit_of(h, "/slow.so"), 1);
	rec_hits__free(h);
}

/* ------------------------------------------------ cli/record_synth.c -- */

#include <sys/stat.h>
#include <unistd.h>

#include "../../cli/record_synth.c"

/* Write a file under dir, creating its directories. */
static void put_file(const char *dir, const char *rel, const char *text)
{
	char path[PATH_MAX];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	for (char *s = path + strlen(dir) + 1; (s = strchr(s, '/')); s++) {
		*s = 0;
		mkdir(path, 0755);
		*s = '/';
	}
	f = fopen(path, "w");
	cr_assert_not_null(f);
	fputs(text, f);
	fclose(f);
}

Test(record_synth, modules_from_proc_feed_the_hits_table)
{
	char dir[] = "/tmp/pms-synth-XXXXXX", data[PATH_MAX];
	struct rec_out out;
	struct pms_data_writer *w;

	cr_assert_not_null(mkdtemp(dir));
	put_file(dir, "modules", "mod_a 16384 0 - Live 0xffffffffc0200000\n"
				 "mod_b 8192 1 mod_a, Live 0xffffffffc0300000 (E)\n"
				 "gone 4096 0 - Unloading 0x0000000000000000\n");
	put_file(dir, "sys/kernel/osrelease", "0.0-unit\n");
	put_file(dir, "77/status", "Name:\tx\nTgid:\t70\nPPid:\t1\n");
	setenv("PMS_PROCFS_ROOT", dir, 1);
	snprintf(data, sizeof(data), "%s/out.data", dir);
	cr_assert_eq(pms_data_writer__open(&w, data, NULL), 0);
	out.w = w;
	out.hits = rec_hits__new();
	rec_synth__modules(&out);
	cr_expect_eq(rec_synth__status_field(77, "Tgid"), 70);
	cr_expect_eq(rec_synth__status_field(77, "PPid"), 1);
	cr_expect_eq(rec_synth__status_field(78, "Tgid"), -1);
	unsetenv("PMS_PROCFS_ROOT");
	/* the kernel, then the two loaded modules (the one at address 0 is skipped) */
	cr_assert_eq(rec_hits__nr(out.hits), 3);
	rec_hits__sample(out.hits, 5, PERF_RECORD_MISC_KERNEL, 0xffffffffc0301000ULL, NULL, 0);
	cr_expect_eq(hit_of(out.hits, "[mod_b]"), 1);
	cr_expect_eq(hit_of(out.hits, "[mod_a]"), 0);
	cr_expect_eq(pms_data_writer__close(w), 0);
	pms_data_writer__free(w);
	rec_hits__free(out.hits);
	unlink(data);
	{
		static const char *const rel[] = { "modules", "sys/kernel/osrelease", "77/status",
						   "sys/kernel", "sys", "77", "" };
		char path[PATH_MAX];

		for (size_t i = 0; i < sizeof(rel) / sizeof(rel[0]); i++) {
			snprintf(path, sizeof(path), "%s/%s", dir, rel[i]);
			if (remove(path))
				cr_log_warn("cannot remove %s", path);
		}
	}
}
