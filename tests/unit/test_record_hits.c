// SPDX-License-Identifier: MIT
// Unit tests of aggregate/record_hits (which objects have samples, for HEADER_BUILD_ID) and aggregate/record_synth (notes, modules).
#include <criterion/criterion.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aggregate/objects.h"
#include "aggregate/record_hits.h"
#include "aggregate/record_synth.h"
#include "data/writer.h"
#include "util/sysfs.h"

/* Was the object called name hit? -1 if unknown. */
static int hit_of(const struct pms_record_hits *h, const char *name)
{
	for (size_t i = 0; i < pms_record_hits__nr(h); i++) {
		bool hit, kernel;
		const char *n = pms_record_hits__name(h, i, &hit, &kernel);

		if (!strcmp(n, name))
			return hit;
	}
	return -1;
}

#define USER PERF_RECORD_MISC_USER
#define KERNEL PERF_RECORD_MISC_KERNEL

Test(record_hits, ip_marks_only_the_object_under_it)
{
	struct pms_record_hits *h = pms_record_hits__new();

	pms_record_hits__mmap(h, 10, 0x1000, 0x1000, "/bin/app");
	pms_record_hits__mmap(h, 10, 0x5000, 0x1000, "/lib/libc.so");
	pms_record_hits__sample(h, 10, USER, 0x1800, NULL, 0);
	pms_record_hits__sample(h, 10, USER, 0x9000, NULL, 0); /* unmapped */
	pms_record_hits__finish(h);
	cr_expect_eq(hit_of(h, "/bin/app"), 1);
	cr_expect_eq(hit_of(h, "/lib/libc.so"), 0);
	cr_expect_eq(hit_of(h, "[kernel.kallsyms]"), 0);
	/* the end of a map is outside it */
	pms_record_hits__sample(h, 10, USER, 0x6000, NULL, 0);
	pms_record_hits__finish(h);
	cr_expect_eq(hit_of(h, "/lib/libc.so"), 0);
	pms_record_hits__free(h);
}

Test(record_hits, kernel_and_modules)
{
	struct pms_record_hits *h = pms_record_hits__new();

	pms_record_hits__add_module(h, "[fake]", 0xffffffffc0000000ULL, 0x2000);
	pms_record_hits__add_module(h, "/lib/modules/x/other.ko", 0xffffffffc0010000ULL, 0x2000);
	pms_record_hits__sample(h, 1, KERNEL, 0xffffffffc0001000ULL, NULL, 0);
	cr_expect_eq(hit_of(h, "[fake]"), 1);
	cr_expect_eq(hit_of(h, "/lib/modules/x/other.ko"), 0);
	cr_expect_eq(hit_of(h, "[kernel.kallsyms]"), 0);
	pms_record_hits__sample(h, 1, KERNEL, 0xffffffff81000000ULL, NULL, 0);
	cr_expect_eq(hit_of(h, "[kernel.kallsyms]"), 1);
	pms_record_hits__free(h);
}

Test(record_hits, call_chain_entries_follow_context_markers)
{
	struct pms_record_hits *h = pms_record_hits__new();
	const uint64_t chain[] = {
		(uint64_t)PERF_CONTEXT_KERNEL, 0xffffffffc0000100ULL, 0xffffffff81000100ULL,
		(uint64_t)PERF_CONTEXT_USER, 0x1100, 0x5100,
	};

	pms_record_hits__add_module(h, "[mod]", 0xffffffffc0000000ULL, 0x1000);
	pms_record_hits__mmap(h, 7, 0x1000, 0x1000, "/bin/app");
	pms_record_hits__mmap(h, 7, 0x5000, 0x1000, "/lib/libc.so");
	pms_record_hits__mmap(h, 7, 0x8000, 0x1000, "/lib/libm.so");
	pms_record_hits__sample(h, 7, KERNEL, 0xffffffffc0000100ULL, chain, sizeof(chain) / sizeof(chain[0]));
	pms_record_hits__finish(h);
	cr_expect_eq(hit_of(h, "[mod]"), 1);
	cr_expect_eq(hit_of(h, "[kernel.kallsyms]"), 1);
	cr_expect_eq(hit_of(h, "/bin/app"), 1);
	cr_expect_eq(hit_of(h, "/lib/libc.so"), 1);
	cr_expect_eq(hit_of(h, "/lib/libm.so"), 0);
	pms_record_hits__free(h);
}

Test(record_hits, fork_copies_and_exec_clears)
{
	struct pms_record_hits *h = pms_record_hits__new();

	pms_record_hits__mmap(h, 100, 0x1000, 0x1000, "/bin/sh");
	pms_record_hits__fork(h, 200, 100);
	pms_record_hits__sample(h, 200, USER, 0x1100, NULL, 0);
	cr_expect_eq(hit_of(h, "/bin/sh"), 1);
	/* after exec, the child's old maps are gone: a sample there is not /bin/sh's */
	pms_record_hits__fork(h, 300, 100);
	pms_record_hits__exec(h, 300);
	pms_record_hits__mmap(h, 300, 0x7000, 0x1000, "/bin/true");
	pms_record_hits__sample(h, 300, USER, 0x7100, NULL, 0);
	cr_expect_eq(hit_of(h, "/bin/true"), 1);
	/* a new thread (pid == ppid) keeps its process's maps */
	pms_record_hits__fork(h, 300, 300);
	pms_record_hits__sample(h, 300, USER, 0x7200, NULL, 0);
	pms_record_hits__finish(h);
	cr_expect_eq(hit_of(h, "/bin/true"), 1);
	pms_record_hits__free(h);
}

Test(record_hits, exec_drops_the_inherited_maps)
{
	struct pms_record_hits *h = pms_record_hits__new();

	pms_record_hits__mmap(h, 100, 0x1000, 0x1000, "/bin/sh");
	pms_record_hits__fork(h, 300, 100);
	pms_record_hits__exec(h, 300);
	pms_record_hits__sample(h, 300, USER, 0x1100, NULL, 0);
	pms_record_hits__finish(h);
	cr_expect_eq(hit_of(h, "/bin/sh"), 0);
	pms_record_hits__free(h);
}

Test(record_hits, newer_map_shadows_older)
{
	struct pms_record_hits *h = pms_record_hits__new();

	pms_record_hits__mmap(h, 5, 0x1000, 0x4000, "/old.so");
	pms_record_hits__mmap(h, 5, 0x2000, 0x1000, "/new.so");
	pms_record_hits__sample(h, 5, USER, 0x2800, NULL, 0);
	pms_record_hits__finish(h);
	cr_expect_eq(hit_of(h, "/new.so"), 1);
	cr_expect_eq(hit_of(h, "/old.so"), 0);
	pms_record_hits__free(h);
}

Test(record_hits, sample_before_its_map_resolves_at_finish)
{
	struct pms_record_hits *h = pms_record_hits__new();

	/* the MMAP2 sits in another CPU's ring, drained after the sample */
	pms_record_hits__sample(h, 42, USER, 0x3100, NULL, 0);
	pms_record_hits__sample(h, 42, USER, 0x3100, NULL, 0); /* deduplicated */
	cr_expect_eq(hit_of(h, "/late.so"), -1);
	pms_record_hits__mmap(h, 42, 0x3000, 0x1000, "/late.so");
	cr_expect_eq(hit_of(h, "/late.so"), 0);
	pms_record_hits__finish(h);
	cr_expect_eq(hit_of(h, "/late.so"), 1);
	pms_record_hits__free(h);
}

Test(record_hits, many_processes_and_objects)
{
	struct pms_record_hits *h = pms_record_hits__new();
	char name[32];

	for (uint32_t pid = 1; pid <= 5000; pid++) {
		snprintf(name, sizeof(name), "/obj/%u", pid % 97);
		pms_record_hits__mmap(h, pid, 0x400000 + pid * 0x1000ULL, 0x1000, name);
	}
	for (uint32_t pid = 1; pid <= 5000; pid += 2)
		pms_record_hits__sample(h, pid, USER, 0x400000 + pid * 0x1000ULL + 8, NULL, 0);
	pms_record_hits__finish(h);
	cr_expect_eq(pms_record_hits__nr(h), 1 + 97);
	cr_expect_eq(hit_of(h, "/obj/1"), 1);  /* pid 1 */
	cr_expect_eq(hit_of(h, "/obj/2"), 1);  /* pid 99 */
	pms_record_hits__mmap(h, 9999, 0x900000, 0x1000, "/never");
	pms_record_hits__sample(h, 9998, USER, 0x900010, NULL, 0); /* another process at that address */
	pms_record_hits__finish(h);
	cr_expect_eq(hit_of(h, "/never"), 0);
	pms_record_hits__free(h);
}

Test(record_hits, pass_done_uses_the_maps_of_the_samples_time)
{
	struct pms_record_hits *h = pms_record_hits__new();

	pms_record_hits__sample(h, 42, USER, 0x3100, NULL, 0);
	pms_record_hits__mmap(h, 42, 0x3000, 0x1000, "/a.so");
	pms_record_hits__pass_done(h);
	cr_expect_eq(hit_of(h, "/a.so"), 1);
	/* a later exec maps something else there: it must not be marked */
	pms_record_hits__exec(h, 42);
	pms_record_hits__mmap(h, 42, 0x3000, 0x1000, "/b.so");
	pms_record_hits__finish(h);
	cr_expect_eq(hit_of(h, "/b.so"), 0);
	pms_record_hits__free(h);
}

Test(record_hits, unresolved_after_a_pass_waits_for_finish)
{
	struct pms_record_hits *h = pms_record_hits__new();

	pms_record_hits__sample(h, 9, USER, 0x5100, NULL, 0);
	pms_record_hits__pass_done(h);
	pms_record_hits__mmap(h, 9, 0x5000, 0x1000, "/slow.so");
	pms_record_hits__pass_done(h); /* already retried once: left for the end */
	cr_expect_eq(hit_of(h, "/slow.so"), 0);
	pms_record_hits__finish(h);
	cr_expect_eq(hit_of(h, "/slow.so"), 1);
	pms_record_hits__free(h);
}

/* ------------------------------------------ aggregate/record_synth.c -- */

#include <sys/stat.h>
#include <unistd.h>


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
	struct pms_record_synth out;
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
	out.hits = pms_record_hits__new();
	cr_assert_eq(pms_record_synth__modules(&out), 0);
	cr_expect_eq(pms_record_synth__status_field(77, "Tgid"), 70);
	cr_expect_eq(pms_record_synth__status_field(77, "PPid"), 1);
	cr_expect_eq(pms_record_synth__status_field(78, "Tgid"), -1);
	unsetenv("PMS_PROCFS_ROOT");
	/* the kernel, then the two loaded modules (the one at address 0 is skipped) */
	cr_assert_eq(pms_record_hits__nr(out.hits), 3);
	pms_record_hits__sample(out.hits, 5, PERF_RECORD_MISC_KERNEL, 0xffffffffc0301000ULL, NULL, 0);
	cr_expect_eq(hit_of(out.hits, "[mod_b]"), 1);
	cr_expect_eq(hit_of(out.hits, "[mod_a]"), 0);
	cr_expect_eq(pms_data_writer__close(w), 0);
	pms_data_writer__free(w);
	pms_record_hits__free(out.hits);
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
