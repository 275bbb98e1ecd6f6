// SPDX-License-Identifier: MIT
// Unit tests of lib/aggregate/objects: the objects a recording references, as record marks them and as perf buildid-list replays a file.
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "aggregate/objects.h"
#include "data/reader.h"
#include "data/writer.h"
#include "memfd_file.h"

#define ST (PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD)
#define USER PERF_RECORD_MISC_USER
#define KERNEL PERF_RECORD_MISC_KERNEL

static const uint8_t id1[20] = { 0x11, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0x11 };
static const uint8_t id2[20] = { 0x22, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 0x22 };
static const uint8_t id3[16] = { 0x33, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 0x33 };

/* ------------------------------------------------------ the live table -- */

static int idx(const struct pms_objects *o, const char *name)
{
	return pms_objects__find(o, PMS_MACHINE_HOST, name);
}

static bool hit(const struct pms_objects *o, const char *name)
{
	int i = idx(o, name);

	cr_assert_geq(i, 0, "no object %s", name);
	return pms_objects__at(o, (size_t)i)->hit;
}

Test(objects, call_chains_count_only_when_asked)
{
	struct pms_objects_opts ip_only = { .sz = sizeof(ip_only) };
	struct pms_objects_opts chains = { .sz = sizeof(chains), .callchains = true };
	const uint64_t chain[] = { (uint64_t)PERF_CONTEXT_USER, 0x1100, 0x5100 };

	for (int pass = 0; pass < 2; pass++) {
		struct pms_objects *o;
		int app, libc;

		cr_assert_eq(pms_objects__new(&o, pass ? &chains : &ip_only), 0);
		app = pms_objects__findnew(o, PMS_MACHINE_HOST, "/bin/app", false);
		libc = pms_objects__findnew(o, PMS_MACHINE_HOST, "/lib/libc.so", false);
		cr_assert_eq(pms_objects__mmap(o, 7, 0x1000, 0x1000, (size_t)app), 0);
		cr_assert_eq(pms_objects__mmap(o, 7, 0x5000, 0x1000, (size_t)libc), 0);
		cr_assert_eq(pms_objects__sample(o, 7, USER, 0x1100, chain, 3), 0);
		cr_expect(hit(o, "/bin/app"));
		cr_expect_eq(hit(o, "/lib/libc.so"), pass == 1);
		pms_objects__free(o);
	}
}

Test(objects, names_are_unique_per_machine_and_creation_order_is_kept)
{
	struct pms_objects *o;

	cr_assert_eq(pms_objects__new(&o, NULL), 0);
	cr_expect_eq(pms_objects__findnew(o, PMS_MACHINE_HOST, "/a", false), 0);
	cr_expect_eq(pms_objects__findnew(o, PMS_MACHINE_HOST, "/b", false), 1);
	cr_expect_eq(pms_objects__findnew(o, 0, "/a", false), 2, "a guest's /a is another object");
	cr_expect_eq(pms_objects__findnew(o, PMS_MACHINE_HOST, "/a", true), 0);
	cr_expect(pms_objects__at(o, 0)->kernel, "a kernel reference makes it kernel-side");
	cr_expect_eq(pms_objects__find(o, PMS_MACHINE_HOST, "/c"), -ENOENT);
	/* many names: the index grows */
	for (int i = 0; i < 3000; i++) {
		char n[32];

		snprintf(n, sizeof(n), "/lib/l%d.so", i);
		cr_assert_eq(pms_objects__findnew(o, PMS_MACHINE_HOST, n, false), 3 + i);
	}
	cr_expect_eq(pms_objects__find(o, PMS_MACHINE_HOST, "/lib/l1234.so"), 3 + 1234);
	cr_expect_eq(pms_objects__nr(o), 3003);
	pms_objects__set_build_id(o, 1, id3, 16);
	cr_expect_eq(pms_objects__at(o, 1)->build_id_size, 16);
	cr_expect_null(pms_objects__at(o, 3003));
	pms_objects__free(o);
}

Test(objects, the_smallest_kernel_map_wins)
{
	struct pms_objects *o;
	int k, m;

	cr_assert_eq(pms_objects__new(&o, NULL), 0);
	k = pms_objects__findnew(o, PMS_MACHINE_HOST, "[kernel.kallsyms]", true);
	m = pms_objects__findnew(o, PMS_MACHINE_HOST, "[mod]", true);
	/* a module inside a kernel map that runs to the top of the address space */
	cr_assert_eq(pms_objects__kernel_map(o, (size_t)m, 0xffffffffc0000000ULL, 0x2000), 0);
	cr_assert_eq(pms_objects__kernel_map(o, (size_t)k, 0xffffffff81000000ULL, UINT64_MAX), 0);
	cr_assert_eq(pms_objects__sample(o, 1, KERNEL, 0xffffffffc0000100ULL, NULL, 0), 0);
	cr_expect(hit(o, "[mod]"));
	cr_expect(!hit(o, "[kernel.kallsyms]"));
	/* below every kernel map: nothing */
	cr_assert_eq(pms_objects__sample(o, 1, KERNEL, 0x1000, NULL, 0), 0);
	cr_expect(!hit(o, "[kernel.kallsyms]"));
	cr_assert_eq(pms_objects__sample(o, 1, KERNEL, 0xffffffff81000010ULL, NULL, 0), 0);
	cr_expect(hit(o, "[kernel.kallsyms]"));
	cr_expect_eq(pms_objects__kernel_map(o, 99, 0, 1), -EINVAL);
	pms_objects__free(o);
}

Test(objects, exec_clears_only_when_asked_and_exit_always)
{
	struct pms_objects_opts kernel_view = { .sz = sizeof(kernel_view), .exec_clears = true };

	for (int pass = 0; pass < 2; pass++) {
		struct pms_objects *o;
		int sh;

		cr_assert_eq(pms_objects__new(&o, pass ? &kernel_view : NULL), 0);
		sh = pms_objects__findnew(o, PMS_MACHINE_HOST, "/bin/sh", false);
		cr_assert_eq(pms_objects__mmap(o, 5, 0x1000, 0x1000, (size_t)sh), 0);
		pms_objects__exec(o, 5);
		cr_assert_eq(pms_objects__sample(o, 5, USER, 0x1100, NULL, 0), 0);
		cr_expect_eq(hit(o, "/bin/sh"), pass == 0, "perf's replay keeps maps across exec");
		pms_objects__free(o);
	}
	{
		struct pms_objects *o;
		int sh;

		cr_assert_eq(pms_objects__new(&o, NULL), 0);
		sh = pms_objects__findnew(o, PMS_MACHINE_HOST, "/bin/sh", false);
		cr_assert_eq(pms_objects__mmap(o, 5, 0x1000, 0x1000, (size_t)sh), 0);
		/* fork without clone (perf's synthesized forks), then with */
		cr_assert_eq(pms_objects__fork(o, 6, 5, false), 0);
		cr_assert_eq(pms_objects__sample(o, 6, USER, 0x1100, NULL, 0), 0);
		cr_expect(!hit(o, "/bin/sh"));
		cr_assert_eq(pms_objects__fork(o, 7, 5, true), 0);
		pms_objects__exit(o, 5);
		cr_assert_eq(pms_objects__sample(o, 5, USER, 0x1100, NULL, 0), 0);
		cr_expect(!hit(o, "/bin/sh"), "the exited process has no maps");
		cr_assert_eq(pms_objects__sample(o, 7, USER, 0x1100, NULL, 0), 0);
		cr_expect(hit(o, "/bin/sh"), "its child kept a copy");
		pms_objects__free(o);
	}
}

/* ------------------------------------------------------------- replay -- */

struct file {
	int fd;
	struct pms_data_writer *w;
	uint8_t *buf;
	size_t len;
	struct pms_data_reader *r;
};

static void file_open(struct file *f, bool pipe)
{
	struct perf_event_attr a = {
		.type = PERF_TYPE_SOFTWARE, .config = PERF_COUNT_SW_CPU_CLOCK, .size = sizeof(a),
		.sample_type = ST, .sample_id_all = 1, .sample_period = 1000,
	};
	struct pms_data_writer_opts wo = { .sz = sizeof(wo), .pipe = pipe };

	memset(f, 0, sizeof(*f));
	f->fd = memfd_create("pms-objects-test", 0);
	cr_assert_geq(f->fd, 0);
	cr_assert_eq(pms_data_writer__open_fd(&f->w, f->fd, &wo), 0);
	cr_assert_eq(pms_data_writer__add_attr(f->w, &a, "cpu-clock", NULL, 0), 0);
}

static void file_close(struct file *f)
{
	struct pms_data_error e = { 0 };
	cr_assert_eq(pms_data_writer__close(f->w), 0);
	pms_data_writer__free(f->w);
	f->buf = slurp(f->fd, &f->len);
	close(f->fd);
	cr_assert_eq(pms_data_reader__open_mem(&f->r, f->buf, f->len, NULL, &e), 0, "%s", e.msg);
}

static void file_free(struct file *f)
{
	pms_data_reader__free(f->r);
	free(f->buf);
}

static struct pms_data_sample_id at(uint32_t pid, uint64_t time)
{
	return (struct pms_data_sample_id){ .pid = pid, .tid = pid, .time = time };
}

static void sample(struct file *f, uint16_t misc, uint32_t pid, uint64_t time, uint64_t ip)
{
	uint64_t rec[5] = { 0, ip, (uint64_t)pid | (uint64_t)pid << 32, time, 1000 };
	struct perf_event_header *h = (struct perf_event_header *)rec;

	h->type = PERF_RECORD_SAMPLE;
	h->misc = misc;
	h->size = sizeof(rec);
	cr_assert_eq(pms_data_writer__write(f->w, rec, sizeof(rec)), 0);
}

static void mmap2(struct file *f, uint32_t pid, uint64_t start, const char *path, uint64_t time)
{
	struct pms_data_mmap2 m = {
		.pid = pid, .tid = pid, .addr = start, .len = 0x1000, .prot = PROT_READ | PROT_EXEC,
		.flags = MAP_PRIVATE, .cpumode = USER, .filename = path,
	};
	struct pms_data_sample_id sid = at(pid, time);

	cr_assert_eq(pms_data_writer__mmap2(f->w, &m, &sid), 0);
}

static void kmap(struct file *f, uint64_t start, uint64_t len, const char *name)
{
	struct pms_data_sample_id sid = at((uint32_t)-1, 0);

	cr_assert_eq(pms_data_writer__mmap(f->w, (uint32_t)-1, 0, start, len, 0, KERNEL, name, &sid), 0);
}

/* A FORK with perf's synthesized flag or not (the writer has no misc argument). */
static void fork_rec(struct file *f, uint32_t pid, uint32_t ppid, uint64_t time, bool synthesized)
{
	uint64_t rec[6];
	struct perf_event_header *h = (struct perf_event_header *)rec;
	uint32_t ids[4] = { pid, ppid, pid, ppid };

	memset(rec, 0, sizeof(rec));
	h->type = PERF_RECORD_FORK;
	h->misc = synthesized ? (1u << 13) : 0;
	h->size = sizeof(rec);
	memcpy(&rec[1], ids, 16);
	rec[3] = time;
	rec[4] = (uint64_t)pid | (uint64_t)pid << 32; /* sample_id: pid/tid, time */
	rec[5] = time;
	cr_assert_eq(pms_data_writer__write(f->w, rec, sizeof(rec)), 0);
}

static void table(struct file *f, const char *name, const uint8_t *id, size_t n, int32_t pid, uint16_t cpumode)
{
	cr_assert_eq(pms_data_features__add_build_id(pms_data_writer__features(f->w), name, id, n, pid, cpumode), 0);
}

/* "<hex or blank> name" lines of what buildid-list prints, joined with '|'. */
static char *listing(struct pms_data_reader *r, bool with_hits)
{
	static char out[4096];
	struct pms_objects *o;
	bool only = false;
	size_t len = 0;

	cr_assert_eq(pms_objects__from_file(r, with_hits, &o, &only), 0);
	out[0] = 0;
	for (size_t i = 0; i < pms_objects__nr(o); i++) {
		const struct pms_object *ob = pms_objects__at(o, i);

		if (only && !ob->hit)
			continue;
		len += (size_t)snprintf(out + len, sizeof(out) - len, "%s%02x%s", len ? "|" : "",
					ob->build_id_size ? ob->build_id[0] : 0, ob->name);
	}
	pms_objects__free(o);
	return out;
}

Test(objects, the_table_as_perf_lists_it)
{
	struct file f;

	file_open(&f, false);
	table(&f, "[kernel.kallsyms]", id1, 20, -1, KERNEL);
	table(&f, "/guest/lib.so", id2, 20, 7, PERF_RECORD_MISC_GUEST_USER);
	table(&f, "/usr/bin/app", id2, 20, -1, USER);
	table(&f, "/usr/bin/app", id3, 16, -1, USER); /* the last build-id of a name wins */
	table(&f, "/odd", id1, 20, -1, PERF_RECORD_MISC_HYPERVISOR); /* perf skips other cpumodes */
	table(&f, "/guest/kernel", id1, 20, 0, PERF_RECORD_MISC_GUEST_KERNEL);
	sample(&f, USER, 1, 10, 0x1000);
	file_close(&f);
	/* host first, then guests by pid; creation order inside each */
	cr_expect_str_eq(listing(f.r, false), "11[kernel.kallsyms]|33/usr/bin/app|11/guest/kernel|22/guest/lib.so");
	file_free(&f);
}

Test(objects, hits_come_from_a_replay_in_perfs_order)
{
	struct file f;

	file_open(&f, false);
	table(&f, "[kernel.kallsyms]", id1, 20, -1, KERNEL);
	table(&f, "/usr/lib/libc.so.6", id2, 20, -1, USER);
	table(&f, "/lib/modules/6.1/kernel/x/snd-hda-intel.ko", id3, 16, -1, KERNEL);
	kmap(&f, 0xffffffff81000000ULL, 0x1000000, "[kernel.kallsyms]_text");
	kmap(&f, 0xffffffffc0000000ULL, 0x4000, "[snd_hda_intel]");
	fork_rec(&f, 100, 1, 0, true);
	mmap2(&f, 100, 0x400000, "/usr/bin/app", 0);
	mmap2(&f, 100, 0x7f0000, "//anon", 0);
	/* one round: CPU 1's ring first, with a sample older than CPU 0's MMAP of its library */
	sample(&f, USER, 100, 30, 0x500100);
	mmap2(&f, 100, 0x500000, "/usr/lib/libc.so.6", 20);
	sample(&f, USER, 100, 10, 0x600100); /* before its map existed: perf marks nothing */
	mmap2(&f, 100, 0x600000, "/usr/lib/libm.so.6", 25);
	pms_data_writer__finished_round(f.w);
	sample(&f, USER, 100, 40, 0x7f0010);
	sample(&f, KERNEL, 100, 50, 0xffffffffc0000100ULL);
	sample(&f, KERNEL, 100, 60, 0xffffffff81000100ULL);
	pms_data_writer__finished_round(f.w);
	file_close(&f);
	cr_expect_str_eq(listing(f.r, false), "11[kernel.kallsyms]|22/usr/lib/libc.so.6|33/lib/modules/6.1/kernel/x/snd-hda-intel.ko");
	/* the module's MMAP named it "[snd_hda_intel]": found by module name, as perf finds it */
	cr_expect_str_eq(listing(f.r, true), "11[kernel.kallsyms]|22/usr/lib/libc.so.6|33/lib/modules/6.1/kernel/x/snd-hda-intel.ko|00/tmp/perf-100.map");
	file_free(&f);
}

Test(objects, kernel_forks_copy_maps_and_synthesized_ones_do_not)
{
	struct file f;

	file_open(&f, false);
	kmap(&f, 0xffffffff81000000ULL, 0x1000000, "[kernel.kallsyms]_text");
	mmap2(&f, 1, 0x400000, "/sbin/init", 0);
	fork_rec(&f, 2, 1, 5, true);          /* a running task, synthesized: its maps come as MMAPs */
	fork_rec(&f, 3, 1, 6, false);         /* a real fork: the child has init's maps */
	sample(&f, USER, 2, 10, 0x400100);
	file_close(&f);
	cr_expect_str_eq(listing(f.r, true), "");
	file_free(&f);

	file_open(&f, false);
	mmap2(&f, 1, 0x400000, "/sbin/init", 0);
	fork_rec(&f, 3, 1, 6, false);
	sample(&f, USER, 3, 10, 0x400100);
	file_close(&f);
	/* no build-id table: perf lists the hit objects, without ids */
	cr_expect_str_eq(listing(f.r, false), "00/sbin/init");
	file_free(&f);
}

Test(objects, a_pipe_stream_takes_build_ids_from_its_records)
{
	struct file f;
	char *l;

	file_open(&f, true);
	kmap(&f, 0xffffffff81000000ULL, 0x1000000, "[kernel.kallsyms]_text");
	mmap2(&f, 9, 0x400000, "/usr/bin/app", 0);
	mmap2(&f, 9, 0x500000, "/usr/lib/libc.so.6", 0);
	sample(&f, USER, 9, 10, 0x400100);
	sample(&f, KERNEL, 9, 20, 0xffffffff81000100ULL);
	/* the writer sends HEADER_BUILD_ID records at close, as perf's pipe mode */
	table(&f, "/usr/bin/app", id2, 20, -1, USER);
	table(&f, "/usr/lib/libc.so.6", id1, 20, -1, USER);
	file_close(&f);
	cr_assert(pms_data_reader__is_pipe(f.r));
	/* perf cannot know a stream's features when it decides: hit objects only */
	l = listing(f.r, false);
	cr_expect_str_eq(l, "00[kernel.kallsyms]|22/usr/bin/app");
	file_free(&f);
}
