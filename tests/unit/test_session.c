// SPDX-License-Identifier: MIT
// Unit tests of lib/aggregate/session: perf.data files built in memory, replayed into threads, maps and symbolized frames.
#include <criterion/criterion.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "aggregate/session.h"
#include "data/features.h"
#include "data/reader.h"
#include "data/writer.h"
#include "symbol/buildid_cache.h"
#include "symbol/dso.h"
#include "symbol/maps.h"
#include "memfd_file.h"

/* Functions of this binary whose runtime addresses the synthetic samples use. */
__attribute__((noinline, used)) int session_fx_alpha(int x);
__attribute__((noinline, used)) int session_fx_bravo(int x);
__attribute__((noinline, used)) int session_fx_alpha(int x)
{
	return x * 3 + 1;
}

__attribute__((noinline, used)) int session_fx_bravo(int x)
{
	return session_fx_alpha(x) * 5;
}

#define ST_BASE (PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD)
#define KIP 0xffffffff81000080ULL  /* secondary_startup_64+0x10 in tests/fixtures/symbol/kallsyms.txt */

struct file {
	int fd;
	struct pms_data_writer *w;
	uint64_t st;
	uint8_t *buf;
	size_t len;
};

/* The executable mapping of this test binary: where session_fx_* live. */
struct selfmap {
	uint64_t start, len, pgoff;
	char path[4096];
};

static void self_map(struct selfmap *sm)
{
	struct pms_maps *maps;
	const struct pms_map *m;

	cr_assert_eq(pms_maps__read_pid(0, &maps), 0);
	m = pms_maps__find(maps, (uint64_t)(uintptr_t)&session_fx_alpha);
	cr_assert_not_null(m);
	sm->start = m->start;
	sm->len = m->end - m->start;
	sm->pgoff = m->pgoff;
	snprintf(sm->path, sizeof(sm->path), "%s", m->path);
	pms_maps__free(maps);
}

static uint64_t fx(int (*f)(int))
{
	return (uint64_t)(uintptr_t)f;
}

/* The name of this binary's symbol covering runtime address ip, or NULL (static storage). */
static const char *sym_covering(const struct selfmap *sm, uint64_t ip)
{
	static char name[256];
	struct pms_dso *dso;
	const struct pms_sym *sym;
	uint64_t vaddr;
	const char *found = NULL;

	cr_assert_eq(pms_dso__open(sm->path, &dso), 0);
	if (!pms_dso__map_ip(dso, sm->start, sm->pgoff, ip, &vaddr) && (sym = pms_dso__find_sym(dso, vaddr))) {
		snprintf(name, sizeof(name), "%s", sym->name);
		found = name;
	}
	pms_dso__free(dso);
	return found;
}

static void file_open(struct file *f, uint64_t sample_type, const char *name, uint64_t period, bool freq)
{
	struct perf_event_attr a = {
		.type = PERF_TYPE_SOFTWARE, .config = PERF_COUNT_SW_CPU_CLOCK, .size = sizeof(a),
		.sample_type = sample_type, .sample_id_all = 1, .sample_period = period, .freq = freq,
	};

	memset(f, 0, sizeof(*f));
	f->fd = memfd_create("pms-session-test", 0);
	cr_assert_geq(f->fd, 0);
	f->st = sample_type;
	cr_assert_eq(pms_data_writer__open_fd(&f->w, f->fd, NULL), 0);
	cr_assert_eq(pms_data_writer__add_attr(f->w, &a, name, NULL, 0), 0);
}

static void file_close(struct file *f)
{
	cr_assert_eq(pms_data_writer__close(f->w), 0);
	pms_data_writer__free(f->w);
	f->buf = slurp(f->fd, &f->len);
	close(f->fd);
}

static struct pms_data_sample_id sid_at(uint32_t pid, uint32_t tid, uint64_t time)
{
	return (struct pms_data_sample_id){ .pid = pid, .tid = tid, .time = time };
}

/* A SAMPLE in the layout of f->st (IP, TID, TIME, CPU, PERIOD, [CALLCHAIN]). */
static void sample(struct file *f, uint16_t misc, uint32_t pid, uint32_t tid, uint64_t time, uint64_t ip,
		   const uint64_t *chain, size_t nr)
{
	uint64_t rec[64];
	size_t n = 1;
	struct perf_event_header *h = (struct perf_event_header *)rec;

	if (f->st & PERF_SAMPLE_IP)
		rec[n++] = ip;
	if (f->st & PERF_SAMPLE_TID)
		rec[n++] = (uint64_t)pid | (uint64_t)tid << 32;
	if (f->st & PERF_SAMPLE_TIME)
		rec[n++] = time;
	if (f->st & PERF_SAMPLE_CPU)
		rec[n++] = 1;
	if (f->st & PERF_SAMPLE_PERIOD)
		rec[n++] = 1000;
	if (f->st & PERF_SAMPLE_CALLCHAIN) {
		rec[n++] = nr;
		for (size_t i = 0; i < nr; i++)
			rec[n++] = chain[i];
	}
	h->type = PERF_RECORD_SAMPLE;
	h->misc = misc;
	h->size = (uint16_t)(n * 8);
	cr_assert_eq(pms_data_writer__write(f->w, rec, n * 8), 0);
}

static void mmap2(struct file *f, uint32_t pid, uint64_t start, uint64_t len, uint64_t pgoff, const char *path,
		  const uint8_t *build_id, uint64_t time)
{
	struct pms_data_mmap2 m = {
		.pid = pid, .tid = pid, .addr = start, .len = len, .pgoff = pgoff,
		.prot = PROT_READ | PROT_EXEC, .flags = MAP_PRIVATE, .cpumode = PERF_RECORD_MISC_USER,
		.build_id = build_id, .build_id_size = build_id ? 20 : 0, .filename = path,
	};
	struct pms_data_sample_id sid = sid_at(pid, pid, time);

	cr_assert_eq(pms_data_writer__mmap2(f->w, &m, &sid), 0);
}

static void comm(struct file *f, uint32_t pid, uint32_t tid, const char *name, bool exec, uint64_t time)
{
	struct pms_data_sample_id sid = sid_at(pid, tid, time);

	cr_assert_eq(pms_data_writer__comm(f->w, pid, tid, name, exec, &sid), 0);
}

static void fork_(struct file *f, uint32_t pid, uint32_t ppid, uint32_t tid, uint32_t ptid, uint64_t time)
{
	struct pms_data_sample_id sid = sid_at(pid, tid, time);

	cr_assert_eq(pms_data_writer__fork(f->w, pid, ppid, tid, ptid, time, &sid), 0);
}

/* The kernel map perf synthesizes: "[kernel.kallsyms]<reloc>" at pid -1, pgoff = reloc's address. */
static void kernel_map(struct file *f, uint64_t start, uint64_t len, const char *reloc)
{
	char name[64];
	struct pms_data_sample_id sid = sid_at((uint32_t)-1, (uint32_t)-1, 0);

	snprintf(name, sizeof(name), "[kernel.kallsyms]%s", reloc);
	cr_assert_eq(pms_data_writer__mmap(f->w, (uint32_t)-1, (uint32_t)-1, start, len, start,
					   PERF_RECORD_MISC_KERNEL, name, &sid), 0);
}

/* A module map as perf synthesizes it: pid -1, the module's path. */
static void module_map(struct file *f, uint64_t start, uint64_t len, const char *path)
{
	struct pms_data_sample_id sid = sid_at((uint32_t)-1, (uint32_t)-1, 0);

	cr_assert_eq(pms_data_writer__mmap(f->w, (uint32_t)-1, (uint32_t)-1, start, len, 0,
					   PERF_RECORD_MISC_KERNEL, path, &sid), 0);
}

/* The recording's kernel build-id, as perf writes it in HEADER_BUILD_ID. */
static void kernel_build_id(struct file *f, const uint8_t *id)
{
	cr_assert_eq(pms_data_features__add_build_id(pms_data_writer__features(f->w), "[kernel.kallsyms]", id, 20, -1,
						     PERF_RECORD_MISC_KERNEL), 0);
}

/* <root>/kernel/notes holding one NT_GNU_BUILD_ID note, as /sys/kernel/notes does. */
static void write_notes(const char *root, const uint8_t *id)
{
	char path[4096];
	uint32_t hdr[3] = { 4, 20, 3 };
	FILE *fp;

	snprintf(path, sizeof(path), "%s/kernel", root);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/kernel/notes", root);
	fp = fopen(path, "w");
	cr_assert_not_null(fp);
	fwrite(hdr, sizeof(hdr), 1, fp);
	fwrite("GNU", 4, 1, fp);
	fwrite(id, 20, 1, fp);
	fclose(fp);
}

static const uint8_t kbid[20] = { 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x99, 0xaa,
				  0xbb, 0xcc, 0xdd, 0xee, 0xff, 0x01, 0x02, 0x03, 0x04, 0x05 };
static const uint8_t other_kbid[20] = { 0xde, 0xad };

static struct pms_session *open_session(struct file *f, bool callchain)
{
	struct pms_session_opts o = { .sz = sizeof(o), .callchain = callchain };
	struct pms_data_error e = { 0 };
	struct pms_session *s;

	cr_assert_eq(pms_session__open_mem(&s, f->buf, f->len, &o, &e), 0, "%s", e.msg);
	return s;
}

static const struct pms_session_sample *next(struct pms_session *s)
{
	const struct pms_session_sample *ss = NULL;
	int rc = pms_session__next(s, &ss);

	cr_assert_eq(rc, 1, "expected a sample, got %d", rc);
	return ss;
}

static void expect_end(struct pms_session *s)
{
	const struct pms_session_sample *ss;

	cr_assert_eq(pms_session__next(s, &ss), 0);
}

static const char *sym(const struct pms_frame *f)
{
	return f->res.sym ? f->res.sym : "(null)";
}

Test(session, comm_and_maps_follow_fork_exec_and_threads)
{
	struct selfmap sm;
	struct file f;
	struct pms_session *s;
	const struct pms_session_sample *ss;
	uint64_t a = fx(session_fx_alpha) + 2;

	self_map(&sm);
	file_open(&f, ST_BASE, "cpu-clock", 4000, true);
	comm(&f, 100, 100, "parent", false, 1);
	mmap2(&f, 100, sm.start, sm.len, sm.pgoff, sm.path, NULL, 2);
	fork_(&f, 200, 100, 200, 100, 3);              /* a new process: copies the maps */
	fork_(&f, 100, 100, 101, 100, 4);              /* a thread: shares them */
	mmap2(&f, 100, 0x10000000, 0x1000, 0, sm.path, NULL, 5); /* after the fork: parent only */
	sample(&f, PERF_RECORD_MISC_USER, 200, 200, 10, a, NULL, 0);
	sample(&f, PERF_RECORD_MISC_USER, 100, 101, 11, a, NULL, 0);
	sample(&f, PERF_RECORD_MISC_USER, 200, 200, 12, 0x10000010, NULL, 0);
	sample(&f, PERF_RECORD_MISC_USER, 100, 100, 13, 0x10000010, NULL, 0);
	comm(&f, 200, 200, "child", true, 14);
	sample(&f, PERF_RECORD_MISC_USER, 200, 200, 15, a, NULL, 0);
	/* the new program's mapping over the old one */
	mmap2(&f, 200, sm.start, sm.len, sm.pgoff, "/new/program", NULL, 16);
	sample(&f, PERF_RECORD_MISC_USER, 200, 200, 17, a, NULL, 0);
	sample(&f, PERF_RECORD_MISC_USER, 300, 300, 18, a, NULL, 0); /* never seen */
	file_close(&f);

	s = open_session(&f, true);
	ss = next(s);
	cr_assert_str_eq(ss->comm, "parent");
	cr_assert_eq(ss->pid, 200);
	cr_assert_eq(ss->nr_frames, 1);
	cr_assert_str_eq(sym(&ss->frames[0]), "session_fx_alpha");
	cr_assert_eq(ss->frames[0].res.sym_off, 2);
	cr_assert_str_eq(ss->frames[0].res.dso, sm.path);
	cr_assert_eq(ss->frames[0].kind, PMS_FRAME_USER);
	cr_assert_not(ss->has_callchain);
	ss = next(s);
	cr_assert_str_eq(ss->comm, "parent");
	cr_assert_eq(ss->tid, 101);
	cr_assert_str_eq(sym(&ss->frames[0]), "session_fx_alpha");
	ss = next(s);
	cr_assert_str_eq(ss->frames[0].res.dso, "[unknown]", "the child must not see the parent's later map");
	ss = next(s);
	cr_assert_str_eq(ss->frames[0].res.dso, sm.path);
	ss = next(s);
	cr_assert_str_eq(ss->comm, "child");
	/* as perf: the old mappings stay until the new program's cover them (a sample
	 * inside execve returns to the old program's call) */
	cr_assert_str_eq(ss->frames[0].res.dso, sm.path, "exec kept the maps copied at fork");
	ss = next(s);
	cr_assert_str_eq(ss->comm, "child");
	cr_assert_str_eq(ss->frames[0].res.dso, "/new/program", "the new mapping replaced the old one");
	ss = next(s);
	cr_assert_str_eq(ss->comm, ":300");
	cr_assert_str_eq(ss->frames[0].res.dso, "[unknown]");
	expect_end(s);
	cr_assert_eq(pms_session__stats(s)->samples, 7);
	cr_assert_eq(pms_session__stats(s)->unresolved[PMS_UNRES_NO_MAP], 2);
	cr_assert_eq(pms_session__stats(s)->records_by_type[PERF_RECORD_FORK], 2);
	cr_assert_eq(pms_session__stats(s)->records_by_type[PERF_RECORD_COMM], 2);
	pms_session__free(s);
	free(f.buf);
}

Test(session, newer_maps_override_older_ones)
{
	struct selfmap sm;
	struct file f;
	struct pms_session *s;
	const struct pms_session_sample *ss;
	uint64_t a = fx(session_fx_alpha) + 1, P = 0x1000, base = 0x20000000;

	self_map(&sm);
	file_open(&f, ST_BASE, "cpu-clock", 4000, true);
	mmap2(&f, 100, sm.start, sm.len, sm.pgoff, "/nonexistent/old.so", NULL, 1);
	sample(&f, PERF_RECORD_MISC_USER, 100, 100, 2, a, NULL, 0);
	mmap2(&f, 100, sm.start, sm.len, sm.pgoff, sm.path, NULL, 3);
	sample(&f, PERF_RECORD_MISC_USER, 100, 100, 4, a, NULL, 0);
	/* a new map in the middle of an old one keeps the old head and tail */
	mmap2(&f, 100, base, 3 * P, 0, "/nonexistent/x.so", NULL, 5);
	mmap2(&f, 100, base + P, P, 0, "/nonexistent/y.so", NULL, 6);
	sample(&f, PERF_RECORD_MISC_USER, 100, 100, 7, base + 10, NULL, 0);
	sample(&f, PERF_RECORD_MISC_USER, 100, 100, 8, base + P + 10, NULL, 0);
	sample(&f, PERF_RECORD_MISC_USER, 100, 100, 9, base + 2 * P + 10, NULL, 0);
	file_close(&f);

	s = open_session(&f, true);
	ss = next(s);
	cr_assert_str_eq(ss->frames[0].res.dso, "/nonexistent/old.so");
	cr_assert_eq(ss->frames[0].res.status, PMS_RES_NO_FILE);
	ss = next(s);
	cr_assert_str_eq(ss->frames[0].res.dso, sm.path);
	cr_assert_str_eq(sym(&ss->frames[0]), "session_fx_alpha");
	ss = next(s);
	cr_assert_str_eq(ss->frames[0].res.dso, "/nonexistent/x.so");
	cr_assert_eq(ss->frames[0].map_addr, 10);
	ss = next(s);
	cr_assert_str_eq(ss->frames[0].res.dso, "/nonexistent/y.so");
	cr_assert_eq(ss->frames[0].map_addr, 10);
	ss = next(s);
	cr_assert_str_eq(ss->frames[0].res.dso, "/nonexistent/x.so");
	cr_assert_eq(ss->frames[0].map_addr, 2 * P + 10, "the tail keeps its file offset");
	expect_end(s);
	cr_assert_eq(pms_session__stats(s)->unresolved[PMS_UNRES_NO_FILE], 4);
	pms_session__free(s);
	free(f.buf);
}

Test(session, samples_come_out_in_time_order_across_rounds)
{
	struct file f;
	struct pms_session *s;
	const struct pms_session_sample *ss;
	uint64_t want[] = { 10, 20, 25, 30, 40, 50, 60 };
	const char *comm_want[] = { "old", "old", "old", "old", "new", "new", "new" };

	file_open(&f, ST_BASE, "cpu-clock", 4000, true);
	comm(&f, 100, 100, "old", false, 1);
	/* round 1: two CPU rings drained one after the other */
	sample(&f, PERF_RECORD_MISC_USER, 100, 100, 10, 0x1000, NULL, 0);
	sample(&f, PERF_RECORD_MISC_USER, 100, 100, 30, 0x1000, NULL, 0);
	sample(&f, PERF_RECORD_MISC_USER, 100, 100, 20, 0x1000, NULL, 0);
	sample(&f, PERF_RECORD_MISC_USER, 100, 100, 40, 0x1000, NULL, 0);
	comm(&f, 100, 100, "new", true, 35);   /* written after the t=40 sample */
	cr_assert_eq(pms_data_writer__finished_round(f.w), 0);
	/* round 2: a late CPU still has t=25, before the end of round 1 */
	sample(&f, PERF_RECORD_MISC_USER, 100, 100, 60, 0x1000, NULL, 0);
	sample(&f, PERF_RECORD_MISC_USER, 100, 100, 25, 0x1000, NULL, 0);
	cr_assert_eq(pms_data_writer__finished_round(f.w), 0);
	sample(&f, PERF_RECORD_MISC_USER, 100, 100, 50, 0x1000, NULL, 0);
	file_close(&f);

	s = open_session(&f, true);
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		ss = next(s);
		cr_assert_eq(ss->time_ns, want[i], "sample %zu: time %lu, want %lu", i,
			     (unsigned long)ss->time_ns, (unsigned long)want[i]);
		cr_assert_str_eq(ss->comm, comm_want[i], "sample at %lu", (unsigned long)want[i]);
	}
	expect_end(s);
	cr_assert_eq(pms_session__stats(s)->time_first_ns, 10);
	cr_assert_eq(pms_session__stats(s)->time_last_ns, 60);
	cr_assert_eq(pms_session__stats(s)->records_by_type[68], 2);
	pms_session__free(s);
	free(f.buf);
}

Test(session, whole_file_is_ordered_without_rounds)
{
	struct file f;
	struct pms_session *s;
	uint64_t prev = 0;

	file_open(&f, ST_BASE, "cpu-clock", 4000, true);
	/* enough records to span several 4 MiB pool chunks */
	for (int i = 0; i < 200000; i++)
		sample(&f, PERF_RECORD_MISC_USER, 1, 1, (uint64_t)((i * 7919) % 200000) + 1, 0x1000, NULL, 0);
	file_close(&f);
	s = open_session(&f, false);
	for (int i = 0; i < 200000; i++) {
		const struct pms_session_sample *ss = next(s);

		cr_assert_gt(ss->time_ns, prev);
		prev = ss->time_ns;
	}
	expect_end(s);
	pms_session__free(s);
	free(f.buf);
}

Test(session, file_order_without_time)
{
	struct file f;
	struct pms_session *s;

	file_open(&f, PERF_SAMPLE_IP | PERF_SAMPLE_TID, "cpu-clock", 4000, false);
	sample(&f, PERF_RECORD_MISC_USER, 1, 1, 0, 0x3000, NULL, 0);
	sample(&f, PERF_RECORD_MISC_USER, 1, 1, 0, 0x1000, NULL, 0);
	file_close(&f);
	s = open_session(&f, true);
	cr_assert_eq(next(s)->frames[0].ip, 0x3000);
	{
		const struct pms_session_sample *ss = next(s);

		cr_assert_eq(ss->frames[0].ip, 0x1000);
		cr_assert_eq(ss->time_ns, 0);
		cr_assert_eq(ss->cpu, (uint32_t)-1);
		cr_assert_eq(ss->period, 4000, "a fixed-period event counts its period");
	}
	expect_end(s);
	pms_session__free(s);
	free(f.buf);
}

Test(session, callchain_markers_kinds_and_return_addresses)
{
	struct selfmap sm;
	struct file f;
	struct pms_session *s;
	const struct pms_session_sample *ss;
	char root[] = "/tmp/pms-session-XXXXXX", cmd[8192];
	const char *top = getenv("TOP");
	uint64_t a = fx(session_fx_alpha), b = fx(session_fx_bravo);
	uint64_t chain[] = {
		PERF_CONTEXT_KERNEL, KIP, KIP + 0x20,
		PERF_CONTEXT_USER, a + 4, a + 1, b,
	};
	uint64_t user_chain[] = { PERF_CONTEXT_USER, a + 4, b + 3 };
	uint64_t guest_chain[] = { PERF_CONTEXT_GUEST_KERNEL, 0xffffffff81000000ULL };
	/* a bogus user return address in the marker range (seen from real fp walks) */
	uint64_t bad_chain[] = { PERF_CONTEXT_USER, a + 4, b + 3, 0xffffffffffffff08ULL, b + 3 };

	self_map(&sm);
	cr_assert_not_null(mkdtemp(root));
	snprintf(cmd, sizeof(cmd), "cp '%s/tests/fixtures/symbol/kallsyms.txt' '%s/kallsyms'",
		 top && *top ? top : ".", root);
	cr_assert_eq(system(cmd), 0);
	setenv("PMS_PROCFS_ROOT", root, 1);
	/* the fixture kernel is the running one: same build-id in <sysfs>/kernel/notes */
	write_notes(root, kbid);
	setenv("PMS_SYSFS_ROOT", root, 1);

	file_open(&f, ST_BASE | PERF_SAMPLE_CALLCHAIN, "cpu-clock", 4000, true);
	kernel_build_id(&f, kbid);
	kernel_map(&f, 0xffffffff81000000ULL, 0x3000, "_stext");
	mmap2(&f, 100, sm.start, sm.len, sm.pgoff, sm.path, NULL, 1);
	sample(&f, PERF_RECORD_MISC_KERNEL, 100, 100, 10, KIP, chain, 7);
	sample(&f, PERF_RECORD_MISC_USER, 100, 100, 11, a + 4, user_chain, 3);
	sample(&f, PERF_RECORD_MISC_GUEST_KERNEL, 100, 100, 12, 0xffffffff81000000ULL, guest_chain, 2);
	sample(&f, PERF_RECORD_MISC_USER, 100, 100, 13, a + 4, bad_chain, 5);
	file_close(&f);

	s = open_session(&f, true);
	ss = next(s);
	cr_assert(ss->has_callchain);
	cr_assert_eq(ss->nr_frames, 5, "markers dropped, the IP once: %zu", ss->nr_frames);
	cr_assert_eq(ss->frames[0].ip, KIP);
	cr_assert_eq(ss->frames[0].kind, PMS_FRAME_KERNEL);
	cr_assert_str_eq(sym(&ss->frames[0]), "secondary_startup_64");
	cr_assert_str_eq(ss->frames[0].res.dso, "[kernel.kallsyms]");
	cr_assert_not(ss->frames[0].caller);
	cr_assert_eq(ss->frames[1].kind, PMS_FRAME_KERNEL);
	cr_assert(ss->frames[1].caller);
	/* the first user entry is where user mode was left: exact, not a return address */
	cr_assert_eq(ss->frames[2].kind, PMS_FRAME_USER);
	cr_assert_eq(ss->frames[2].ip, a + 4);
	cr_assert_not(ss->frames[2].caller);
	cr_assert_str_eq(sym(&ss->frames[2]), "session_fx_alpha");
	cr_assert_eq(ss->frames[2].res.sym_off, 4);
	/* return address a+1 is looked up at a, reported as a+1 */
	cr_assert(ss->frames[3].caller);
	cr_assert_eq(ss->frames[3].ip, a + 1);
	cr_assert_str_eq(sym(&ss->frames[3]), "session_fx_alpha");
	cr_assert_eq(ss->frames[3].res.sym_off, 1);
	/*
	 * A return address at a function's first byte belongs to the function
	 * whose last byte comes before it (a call that ends it); where no
	 * function covers that byte (alignment padding) it was no call's: it is
	 * named by what it points at, as perf names it.
	 */
	cr_assert_eq(ss->frames[4].ip, b);
	{
		const char *before = sym_covering(&sm, b - 1);

		cr_assert_str_eq(sym(&ss->frames[4]), before ? before : "session_fx_bravo");
	}
	cr_assert_eq(ss->frames[4].map_addr, b - sm.start + sm.pgoff);

	ss = next(s);
	cr_assert_eq(ss->nr_frames, 2);
	cr_assert_str_eq(sym(&ss->frames[0]), "session_fx_alpha");
	cr_assert_str_eq(sym(&ss->frames[1]), "session_fx_bravo");
	cr_assert_eq(ss->frames[1].res.sym_off, 3);

	ss = next(s);
	cr_assert_eq(ss->frames[0].kind, PMS_FRAME_GUEST);
	cr_assert_str_eq(ss->frames[0].res.dso, "[unknown]");
	cr_assert_not(ss->bad_callchain);

	ss = next(s);
	cr_assert(ss->bad_callchain);
	cr_assert_eq(ss->nr_frames, 2, "cut at the invalid marker: %zu", ss->nr_frames);
	expect_end(s);
	cr_assert_eq(pms_session__stats(s)->bad_callchains, 1);
	pms_session__free(s);

	/* frames[0] only when the caller does not want chains, and max_stack caps them */
	s = open_session(&f, false);
	cr_assert_eq(next(s)->nr_frames, 1);
	pms_session__free(s);
	{
		struct pms_session_opts o = { .sz = sizeof(o), .callchain = true, .max_stack = 3 };

		cr_assert_eq(pms_session__open_mem(&s, f.buf, f.len, &o, NULL), 0);
		cr_assert_eq(next(s)->nr_frames, 3);
		pms_session__free(s);
	}
	unsetenv("PMS_PROCFS_ROOT");
	unsetenv("PMS_SYSFS_ROOT");
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	cr_assert_eq(system(cmd), 0);
	free(f.buf);
}

Test(session, rebuilt_binary_is_stale_never_misnamed)
{
	struct selfmap sm;
	struct file f;
	struct pms_session *s;
	const struct pms_session_sample *ss;
	uint8_t wrong[20];
	uint64_t a = fx(session_fx_alpha) + 2;

	memset(wrong, 0x5a, sizeof(wrong));
	self_map(&sm);
	/* MMAP2 carrying a build-id */
	file_open(&f, ST_BASE, "cpu-clock", 4000, true);
	mmap2(&f, 100, sm.start, sm.len, sm.pgoff, sm.path, wrong, 1);
	sample(&f, PERF_RECORD_MISC_USER, 100, 100, 2, a, NULL, 0);
	file_close(&f);
	s = open_session(&f, true);
	ss = next(s);
	cr_assert_eq(ss->frames[0].res.status, PMS_RES_STALE);
	cr_assert_null(ss->frames[0].res.sym);
	expect_end(s);
	cr_assert_eq(pms_session__stats(s)->unresolved[PMS_UNRES_STALE], 1);
	pms_session__free(s);
	free(f.buf);

	/* HEADER_BUILD_ID (pid -1: any process) matched by path */
	file_open(&f, ST_BASE, "cpu-clock", 4000, true);
	cr_assert_eq(pms_data_features__add_build_id(pms_data_writer__features(f.w), sm.path, wrong, 20, -1,
						     PERF_RECORD_MISC_USER), 0);
	mmap2(&f, 100, sm.start, sm.len, sm.pgoff, sm.path, NULL, 1);
	sample(&f, PERF_RECORD_MISC_USER, 100, 100, 2, a, NULL, 0);
	sample(&f, PERF_RECORD_MISC_USER, 100, 100, 3, a, NULL, 0);
	file_close(&f);
	s = open_session(&f, true);
	cr_assert_eq(next(s)->frames[0].res.status, PMS_RES_STALE);
	cr_assert_eq(next(s)->frames[0].res.status, PMS_RES_STALE);
	expect_end(s);
	cr_assert_eq(pms_session__stats(s)->unresolved[PMS_UNRES_STALE], 2);
	{
		const char *path, *found;
		size_t n;

		cr_assert_eq(pms_resolver__stale(pms_session__resolver(s), 0, &path, &n, &found), 0);
		cr_assert_str_eq(path, sm.path);
		cr_assert_eq(n, 2);
	}
	pms_session__free(s);
	free(f.buf);
}

Test(session, jit_maps_for_anonymous_code)
{
	struct file f;
	struct pms_session *s;
	const struct pms_session_sample *ss;
	char dir[4096];
	const char *top = getenv("TOP");

	snprintf(dir, sizeof(dir), "%s/tests/fixtures/symbol", top && *top ? top : ".");
	setenv("PMS_JITMAP_DIR", dir, 1);
	file_open(&f, ST_BASE, "cpu-clock", 4000, true);
	mmap2(&f, 4242, 0x7f0000000000ULL, 0x10000, 0, "//anon", NULL, 1);
	mmap2(&f, 4242, 0x7f0000100000ULL, 0x10000, 0, "/memfd:code (deleted)", NULL, 1);
	sample(&f, PERF_RECORD_MISC_USER, 4242, 4242, 2, 0x7f0000001010ULL, NULL, 0);
	sample(&f, PERF_RECORD_MISC_USER, 4242, 4242, 3, 0x7f0000009000ULL, NULL, 0);
	sample(&f, PERF_RECORD_MISC_USER, 4242, 4242, 4, 0x7f0000100010ULL, NULL, 0);
	file_close(&f);
	s = open_session(&f, true);
	ss = next(s);
	cr_assert_eq(ss->frames[0].kind, PMS_FRAME_JIT);
	cr_assert_str_eq(sym(&ss->frames[0]), "LazyCompile:*fib /app/fib.js:3");
	cr_assert_str_eq(ss->frames[0].res.dso, "/tmp/perf-4242.map");
	cr_assert_eq(ss->frames[0].map_addr, 0x7f0000001010ULL, "perf prints JIT addresses as they are");
	ss = next(s);
	cr_assert_eq(ss->frames[0].kind, PMS_FRAME_JIT);
	cr_assert_null(ss->frames[0].res.sym);
	cr_assert_str_eq(ss->frames[0].res.dso, "/tmp/perf-4242.map");
	ss = next(s);
	cr_assert_str_eq(ss->frames[0].res.dso, "/memfd:code (deleted)", "perf keeps memfd names");
	cr_assert_eq(ss->frames[0].map_addr, 0x10);
	expect_end(s);
	unsetenv("PMS_JITMAP_DIR");
	pms_session__free(s);
	free(f.buf);
}

Test(session, bad_samples_are_skipped_and_counted)
{
	struct file f;
	struct pms_session *s;
	uint64_t junk[4] = { 0 };
	struct perf_event_header *h = (struct perf_event_header *)junk;

	file_open(&f, ST_BASE, "my-event", 4000, true);
	sample(&f, PERF_RECORD_MISC_USER, 1, 1, 1, 0x1000, NULL, 0);
	h->type = PERF_RECORD_SAMPLE;
	h->size = sizeof(junk); /* too short for IP|TID|TIME|CPU|PERIOD */
	cr_assert_eq(pms_data_writer__write(f.w, junk, sizeof(junk)), 0);
	sample(&f, PERF_RECORD_MISC_USER, 1, 1, 3, 0x2000, NULL, 0);
	file_close(&f);
	s = open_session(&f, true);
	cr_assert_str_eq(next(s)->event_name, "my-event");
	cr_assert_eq(next(s)->frames[0].ip, 0x2000);
	expect_end(s);
	cr_assert_eq(pms_session__stats(s)->bad_samples, 1);
	cr_assert_eq(pms_session__stats(s)->samples, 2);
	pms_session__free(s);
	free(f.buf);
}

Test(session, damage_strict_and_recover)
{
	struct file f;
	struct pms_session *s;
	struct pms_session_opts o = { .sz = sizeof(o), .recover = true };
	const struct pms_session_sample *ss;
	struct pms_data_error e = { 0 };
	int n = 0, rc;

	file_open(&f, ST_BASE, "cpu-clock", 4000, true);
	for (int i = 0; i < 10; i++)
		sample(&f, PERF_RECORD_MISC_USER, 1, 1, (uint64_t)i + 1, 0x1000, NULL, 0);
	cr_assert_eq(pms_data_writer__flush(f.w), 0);
	pms_data_writer__free(f.w);   /* a recorder killed after its flush */
	{
		off_t end = lseek(f.fd, 0, SEEK_END);

		cr_assert_eq(ftruncate(f.fd, end - 20), 0); /* and a torn last record */
		f.len = (size_t)end - 20;
		f.buf = malloc(f.len);
		cr_assert_eq(pread(f.fd, f.buf, f.len, 0), (ssize_t)f.len);
		close(f.fd);
	}
	rc = pms_session__open_mem(&s, f.buf, f.len, NULL, &e);
	if (rc == 0) {
		while ((rc = pms_session__next(s, &ss)) > 0)
			n++;
		cr_assert_lt(rc, 0, "strict mode reports the damage");
		cr_assert_eq(n, 9, "the whole records before it still come out: %d", n);
		pms_session__free(s);
	}
	cr_assert_eq(pms_session__open_mem(&s, f.buf, f.len, &o, &e), 0, "%s", e.msg);
	n = 0;
	while ((rc = pms_session__next(s, &ss)) > 0)
		n++;
	cr_assert_eq(rc, 0);
	cr_assert_eq(n, 9);
	cr_assert_neq(pms_data_reader__error(pms_session__reader(s))->err, 0);
	pms_session__free(s);
	free(f.buf);
}

Test(session, missing_file_and_not_perf_data)
{
	struct pms_session *s = (void *)1;
	struct pms_data_error e = { 0 };
	char junk[256] = "this is not a perf.data file";

	cr_assert_eq(pms_session__open(&s, "/nonexistent/perf.data", NULL, &e), -ENOENT);
	cr_assert_null(s);
	cr_assert_lt(pms_session__open_mem(&s, junk, sizeof(junk), NULL, &e), 0);
	cr_assert_null(s);
	pms_session__free(NULL);
	cr_assert_str_eq(pms_unres_reason__describe(PMS_UNRES_STALE), "binary rebuilt");
}

#if defined(__x86_64__)
#include <pthread.h>

#define DW_STACK 8192

struct dw_snap {
	uint64_t regs[8], mask;
	uint8_t stack[DW_STACK];
	size_t stack_size;
	uint8_t *stack_top;
	int work;
};

/* our own live stack crosses ASan redzones by design (the kernel copies raw bytes too) */
__attribute__((no_sanitize_address, noinline)) static void dw_copy(uint8_t *dst, const uint8_t *src, size_t n)
{
	for (size_t i = 0; i < n; i++)
		dst[i] = ((const volatile uint8_t *)src)[i];
}

__attribute__((noinline)) static void session_dw_capture(struct dw_snap *s)
{
	uint64_t sp, bx, bp, ip, r12, r13, r14, r15;
	size_t avail;

	__asm__ volatile("leaq 0(%%rip), %0\n\t"
			 "movq %%rsp, %1\n\t"
			 "movq %%rbp, %2\n\t"
			 "movq %%rbx, %3\n\t"
			 "movq %%r12, %4\n\t"
			 "movq %%r13, %5\n\t"
			 "movq %%r14, %6\n\t"
			 "movq %%r15, %7\n\t"
			 : "=&r"(ip), "=m"(sp), "=m"(bp), "=m"(bx), "=m"(r12), "=m"(r13), "=m"(r14), "=m"(r15)
			 :
			 : "memory");
	/* perf's x86 register numbers: BX=1 BP=6 SP=7 IP=8 R12..R15=20..23, values in bit order */
	s->mask = 1ULL << 1 | 1ULL << 6 | 1ULL << 7 | 1ULL << 8 | 0xfULL << 20;
	{
		uint64_t v[] = { bx, bp, sp, ip, r12, r13, r14, r15 };

		memcpy(s->regs, v, sizeof(v));
	}
	avail = (size_t)(s->stack_top - (uint8_t *)(uintptr_t)sp);
	s->stack_size = avail < DW_STACK ? avail : DW_STACK;
	dw_copy(s->stack, (const uint8_t *)(uintptr_t)sp, s->stack_size);
}

__attribute__((noinline)) static void session_dw_c(struct dw_snap *s)
{
	session_dw_capture(s);
	s->work += 3;
	__asm__ volatile("" ::: "memory");
}

__attribute__((noinline)) static void session_dw_b(struct dw_snap *s)
{
	session_dw_c(s);
	s->work += 2;
	__asm__ volatile("" ::: "memory");
}

__attribute__((noinline)) static void session_dw_a(struct dw_snap *s)
{
	session_dw_b(s);
	s->work += 1;
	__asm__ volatile("" ::: "memory");
}

static void *dw_thread(void *arg)
{
	struct dw_snap *s = arg;
	pthread_attr_t attr;
	void *lo;
	size_t size;

	cr_assert_eq(pthread_getattr_np(pthread_self(), &attr), 0);
	cr_assert_eq(pthread_attr_getstack(&attr, &lo, &size), 0);
	pthread_attr_destroy(&attr);
	s->stack_top = (uint8_t *)lo + size;
	session_dw_a(s);
	return NULL;
}

/* A --call-graph dwarf SAMPLE: IP|TID|TIME|CALLCHAIN|REGS_USER|STACK_USER. */
static void dw_sample(struct file *f, uint16_t misc, uint64_t ip, const uint64_t *chain, size_t nr,
		      const struct dw_snap *sn)
{
	static uint64_t rec[(DW_STACK + 512) / 8];
	size_t n = 1;
	struct perf_event_header *h = (struct perf_event_header *)rec;

	rec[n++] = ip;
	rec[n++] = 100ULL | 100ULL << 32;
	rec[n++] = 10;
	rec[n++] = nr;
	for (size_t i = 0; i < nr; i++)
		rec[n++] = chain[i];
	rec[n++] = PERF_SAMPLE_REGS_ABI_64;
	for (size_t i = 0; i < 8; i++)
		rec[n++] = sn->regs[i];
	rec[n++] = DW_STACK;
	memset(&rec[n], 0, DW_STACK);
	memcpy(&rec[n], sn->stack, sn->stack_size);
	n += DW_STACK / 8;
	rec[n++] = sn->stack_size;
	h->type = PERF_RECORD_SAMPLE;
	h->misc = misc;
	h->size = (uint16_t)(n * 8);
	cr_assert_eq(pms_data_writer__write(f->w, rec, n * 8), 0);
}

Test(session, dwarf_samples_unwind_user_stack_after_kernel_part)
{
	static struct dw_snap sn;
	struct perf_event_attr a = {
		.type = PERF_TYPE_SOFTWARE, .config = PERF_COUNT_SW_CPU_CLOCK, .size = sizeof(a),
		.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CALLCHAIN |
			       PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER,
		.sample_id_all = 1, .sample_period = 1000,
	};
	uint64_t kchain[] = { PERF_CONTEXT_KERNEL, KIP, KIP + 0x20 };
	struct pms_maps *maps;
	struct file f;
	struct pms_session *s;
	const struct pms_session_sample *ss;
	pthread_t t;
	const char *want[] = { "session_dw_capture", "session_dw_c", "session_dw_b", "session_dw_a", "dw_thread" };

	cr_assert_eq(pthread_create(&t, NULL, dw_thread, &sn), 0);
	cr_assert_eq(pthread_join(t, NULL), 0);
	a.sample_regs_user = sn.mask;
	a.sample_stack_user = DW_STACK;
	memset(&f, 0, sizeof(f));
	f.fd = memfd_create("pms-session-dwarf", 0);
	cr_assert_geq(f.fd, 0);
	cr_assert_eq(pms_data_writer__open_fd(&f.w, f.fd, NULL), 0);
	cr_assert_eq(pms_data_writer__add_attr(f.w, &a, "cpu-clock", NULL, 0), 0);
	cr_assert_eq(pms_maps__read_pid(0, &maps), 0);
	for (size_t i = 0; i < maps->nr; i++)
		if (pms_map__is_exec(&maps->maps[i]) && maps->maps[i].path[0] == '/')
			mmap2(&f, 100, maps->maps[i].start, maps->maps[i].end - maps->maps[i].start,
			      maps->maps[i].pgoff, maps->maps[i].path, NULL, 1);
	pms_maps__free(maps);
	dw_sample(&f, PERF_RECORD_MISC_USER, sn.regs[3], NULL, 0, &sn);
	dw_sample(&f, PERF_RECORD_MISC_KERNEL, KIP, kchain, 3, &sn);
	file_close(&f);

	s = open_session(&f, true);
	ss = next(s);
	cr_assert(ss->has_callchain);
	cr_assert(ss->dwarf_unwound);
	cr_assert_geq(ss->nr_frames, 5, "only %zu frames", ss->nr_frames);
	for (size_t i = 0; i < 5; i++)
		cr_assert_str_eq(sym(&ss->frames[i]), want[i], "frame %zu", i);
	cr_assert_not(ss->frames[0].caller);
	cr_assert(ss->frames[1].caller);

	ss = next(s);
	cr_assert_eq(ss->frames[0].kind, PMS_FRAME_KERNEL);
	cr_assert_eq(ss->frames[1].kind, PMS_FRAME_KERNEL);
	cr_assert_eq(ss->frames[2].kind, PMS_FRAME_USER, "the kernel part first, then the unwound user stack");
	cr_assert_not(ss->frames[2].caller, "where user mode was left is exact");
	for (size_t i = 0; i < 5; i++)
		cr_assert_str_eq(sym(&ss->frames[2 + i]), want[i], "frame %zu", 2 + i);
	expect_end(s);
	cr_assert_eq(pms_session__stats(s)->dwarf_samples, 2);
	cr_assert_eq(pms_session__stats(s)->dwarf_failed, 0);
	pms_session__free(s);
	free(f.buf);
}
#endif

/* ---- the recording's kernel: named only with symbols that belong to it ---- */

struct kroot {
	char dir[64];
};

/* A fake machine: <dir>/kallsyms, <dir>/modules, <dir>/kernel/notes = kbid, an empty cache. */
static void kroot_setup(struct kroot *k)
{
	const char *top = getenv("TOP");
	char cmd[8192];

	snprintf(k->dir, sizeof(k->dir), "/tmp/pms-kernel-XXXXXX");
	cr_assert_not_null(mkdtemp(k->dir));
	snprintf(cmd, sizeof(cmd),
		 "cp '%1$s/tests/fixtures/symbol/kallsyms.txt' '%2$s/kallsyms' && "
		 "cp '%1$s/tests/fixtures/symbol/modules.txt' '%2$s/modules' && mkdir '%2$s/cache'",
		 top && *top ? top : ".", k->dir);
	cr_assert_eq(system(cmd), 0);
	write_notes(k->dir, kbid);
	setenv("PMS_PROCFS_ROOT", k->dir, 1);
	setenv("PMS_SYSFS_ROOT", k->dir, 1);
	snprintf(cmd, sizeof(cmd), "%s/cache", k->dir);
	setenv("PMS_BUILDID_DIR", cmd, 1);
}

static void kroot_done(struct kroot *k)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", k->dir);
	cr_expect_eq(system(cmd), 0);
}

/* One kernel sample at ip of a file with a kernel map [start, start+len) named after reloc. */
static const struct pms_session_sample *kernel_sample(struct file *f, struct pms_session **s, const uint8_t *bid,
						       uint64_t start, uint64_t len, const char *reloc, uint64_t ip)
{
	file_open(f, ST_BASE, "cpu-clock", 4000, true);
	if (bid)
		kernel_build_id(f, bid);
	if (reloc)
		kernel_map(f, start, len, reloc);
	sample(f, PERF_RECORD_MISC_KERNEL, 1, 1, 10, ip, NULL, 0);
	file_close(f);
	*s = open_session(f, false);
	return next(*s);
}

Test(session, kernel_of_another_build_id_stays_an_address_until_the_cache_has_it)
{
	struct kroot k;
	struct file f;
	struct pms_session *s;
	const struct pms_session_sample *ss;
	struct pms_kernel_info ki;
	char cache[256], src[256];

	kroot_setup(&k);
	ss = kernel_sample(&f, &s, other_kbid, 0xffffffff81000000ULL, 0x3000, "_stext", KIP);
	cr_expect_null(ss->frames[0].res.sym, "named with a kernel that is not the recording's");
	cr_expect_eq(ss->frames[0].res.status, PMS_RES_NO_KERNEL);
	cr_expect_str_eq(ss->frames[0].res.dso, "[kernel.kallsyms]");
	cr_expect_eq(ss->frames[0].res.addr, KIP);
	expect_end(s);
	cr_expect_eq(pms_session__stats(s)->unresolved[PMS_UNRES_NO_KERNEL], 1);
	pms_resolver__kernel_info(pms_session__resolver(s), &ki);
	cr_expect_eq(ki.source, PMS_KSRC_NONE);
	cr_expect(strstr(ki.why, "another build-id") && strstr(ki.why, "dead0000"), "%s", ki.why);
	pms_session__free(s);

	/* the recording's kallsyms in the build-id cache names it */
	snprintf(cache, sizeof(cache), "%s/cache", k.dir);
	snprintf(src, sizeof(src), "%s/kallsyms", k.dir);
	cr_assert_eq(pms_buildid_cache__add_file(cache, "[kernel.kallsyms]", other_kbid, 20, "kallsyms", src, NULL), 0);
	s = open_session(&f, false);
	ss = next(s);
	cr_expect_str_eq(sym(&ss->frames[0]), "secondary_startup_64");
	cr_expect_eq(ss->frames[0].res.sym_off, 0x10);
	pms_resolver__kernel_info(pms_session__resolver(s), &ki);
	cr_expect_eq(ki.source, PMS_KSRC_CACHE);
	pms_session__free(s);
	free(f.buf);

	/* no kernel map in the file (recorded without kernel access): perf says [unknown] */
	ss = kernel_sample(&f, &s, kbid, 0, 0, NULL, KIP);
	cr_expect_str_eq(ss->frames[0].res.dso, "[unknown]");
	cr_expect_null(ss->frames[0].res.sym);
	expect_end(s);
	cr_expect_eq(pms_session__stats(s)->unresolved[PMS_UNRES_NO_MAP], 1);
	pms_session__free(s);
	free(f.buf);
	kroot_done(&k);
}

Test(session, same_kernel_after_a_reboot_moves_by_the_kaslr_offset)
{
	struct kroot k;
	struct file f;
	struct pms_session *s;
	const struct pms_session_sample *ss;
	struct pms_kernel_info ki;
	const uint64_t slide = 0x12000000;

	kroot_setup(&k);
	/* recorded at another boot: the same build-id, the kernel 0x12000000 higher */
	ss = kernel_sample(&f, &s, kbid, 0xffffffff81000000ULL + slide, 0x3000, "_stext", KIP + slide);
	cr_expect_str_eq(sym(&ss->frames[0]), "secondary_startup_64");
	cr_expect_eq(ss->frames[0].res.sym_off, 0x10);
	cr_expect_eq(ss->frames[0].res.addr, KIP + slide);
	pms_resolver__kernel_info(pms_session__resolver(s), &ki);
	cr_expect_eq(ki.source, PMS_KSRC_RUNNING);
	cr_expect_eq(ki.delta, (int64_t)slide);
	pms_session__free(s);
	free(f.buf);
	kroot_done(&k);
}

Test(session, without_a_build_id_only_an_identical_kernel_map_names_it)
{
	struct kroot k;
	struct file f;
	struct pms_session *s;
	const struct pms_session_sample *ss;

	kroot_setup(&k);
	/* pipe-mode files carry no build-id: [_stext, _etext) of this kernel exactly */
	ss = kernel_sample(&f, &s, NULL, 0xffffffff81000000ULL, 0x3000, "_stext", KIP);
	cr_expect_str_eq(sym(&ss->frames[0]), "secondary_startup_64");
	pms_session__free(s);
	free(f.buf);
	/* the same start (no KASLR is common) but another end: another kernel */
	ss = kernel_sample(&f, &s, NULL, 0xffffffff81000000ULL, 0x1f000000, "_stext", KIP);
	cr_expect_null(ss->frames[0].res.sym);
	cr_expect_eq(ss->frames[0].res.status, PMS_RES_NO_KERNEL);
	pms_session__free(s);
	free(f.buf);
	/* old perf: a kernel map from 0 with the reloc address in pgoff */
	ss = kernel_sample(&f, &s, NULL, 0, 0xffffffff9fffffffULL, "_stext", KIP);
	cr_expect_null(ss->frames[0].res.sym);
	cr_expect_str_eq(ss->frames[0].res.dso, "[kernel.kallsyms]");
	pms_session__free(s);
	free(f.buf);
	kroot_done(&k);
}

Test(session, modules_get_perfs_names_and_relative_addresses)
{
	struct kroot k;
	struct file f;
	struct pms_session *s;
	const struct pms_session_sample *ss;

	kroot_setup(&k);
	file_open(&f, ST_BASE, "cpu-clock", 4000, true);
	kernel_build_id(&f, kbid);
	kernel_map(&f, 0xffffffff81000000ULL, 0x3000, "_stext");
	module_map(&f, 0xffffffffc0a00000ULL, 0x10000, "/lib/modules/6.1.0/kernel/fs/ext4/ext4.ko");
	module_map(&f, 0xffffffffc0c00000ULL, 0x1000, "/lib/modules/6.1.0/kernel/drivers/i2c/busses/i2c-piix4.ko.xz");
	module_map(&f, 0xffffffffc0d00000ULL, 0x1000, "[sb_edac]");
	sample(&f, PERF_RECORD_MISC_KERNEL, 1, 1, 10, 0xffffffffc0a02010ULL, NULL, 0);
	sample(&f, PERF_RECORD_MISC_KERNEL, 1, 1, 11, 0xffffffffc0c00123ULL, NULL, 0);
	sample(&f, PERF_RECORD_MISC_KERNEL, 1, 1, 12, 0xffffffffc0d00042ULL, NULL, 0);
	/* between the kernel and the modules: no map */
	sample(&f, PERF_RECORD_MISC_KERNEL, 1, 1, 13, 0xffffffffa0000000ULL, NULL, 0);
	file_close(&f);
	s = open_session(&f, false);
	ss = next(s);
	cr_expect_str_eq(ss->frames[0].res.dso, "[ext4]");
	cr_expect_str_eq(sym(&ss->frames[0]), "ext4_mount");
	cr_expect_eq(ss->frames[0].res.sym_off, 0x10);
	ss = next(s);
	cr_expect_str_eq(ss->frames[0].res.dso, "[i2c_piix4]");
	cr_expect_null(ss->frames[0].res.sym);
	cr_expect_eq(ss->frames[0].res.addr, 0x123, "module-relative, as perf prints it: %#llx",
		     (unsigned long long)ss->frames[0].res.addr);
	ss = next(s);
	cr_expect_str_eq(ss->frames[0].res.dso, "[sb_edac]");
	cr_expect_eq(ss->frames[0].res.addr, 0x42);
	ss = next(s);
	cr_expect_str_eq(ss->frames[0].res.dso, "[unknown]");
	expect_end(s);
	pms_session__free(s);
	free(f.buf);

	/* ext4 sits elsewhere now: this boot's module symbols do not name the recording */
	file_open(&f, ST_BASE, "cpu-clock", 4000, true);
	kernel_build_id(&f, kbid);
	kernel_map(&f, 0xffffffff81000000ULL, 0x3000, "_stext");
	module_map(&f, 0xffffffffc0e00000ULL, 0x10000, "/lib/modules/6.1.0/kernel/fs/ext4/ext4.ko");
	sample(&f, PERF_RECORD_MISC_KERNEL, 1, 1, 10, 0xffffffffc0e02010ULL, NULL, 0);
	file_close(&f);
	s = open_session(&f, false);
	ss = next(s);
	cr_expect_str_eq(ss->frames[0].res.dso, "[ext4]");
	cr_expect_null(ss->frames[0].res.sym);
	cr_expect_eq(ss->frames[0].res.addr, 0x2010);
	pms_session__free(s);
	free(f.buf);
	kroot_done(&k);
}

Test(session, user_addresses_of_missing_files_are_relative_to_their_mapping)
{
	struct file f;
	struct pms_session *s;
	const struct pms_session_sample *ss;
	static const uint8_t bid[20] = { 1, 2, 3 };

	file_open(&f, ST_BASE, "cpu-clock", 4000, true);
	mmap2(&f, 100, 0x7f0000000000ULL, 0x10000, 0x3000, "/no/such/libgone.so", bid, 1);
	mmap2(&f, 100, 0x7f1000000000ULL, 0x10000, 0x1000, "/no/such/other.so", NULL, 1);
	sample(&f, PERF_RECORD_MISC_USER, 100, 100, 10, 0x7f0000000123ULL, NULL, 0);
	sample(&f, PERF_RECORD_MISC_USER, 100, 100, 11, 0x7f1000000456ULL, NULL, 0);
	file_close(&f);
	s = open_session(&f, false);
	ss = next(s);
	cr_expect_eq(ss->frames[0].res.status, PMS_RES_NO_FILE, "missing, not rebuilt");
	cr_expect_eq(ss->frames[0].res.addr, 0x3123);
	ss = next(s);
	cr_expect_eq(ss->frames[0].res.addr, 0x1456);
	expect_end(s);
	cr_expect_eq(pms_session__stats(s)->unresolved[PMS_UNRES_NO_FILE], 2);
	cr_expect_eq(pms_session__stats(s)->unresolved[PMS_UNRES_STALE], 0);
	pms_session__free(s);
	free(f.buf);
}

Test(session, the_running_kernels_init_text_is_named_as_perf_names_it_from_kcore)
{
	struct kroot k;
	struct file f;
	struct pms_session *s;
	const struct pms_session_sample *ss;
	char cmd[256];

	kroot_setup(&k);
	/* init text lies past _etext, outside the recorded kernel map [_stext, _etext) */
	snprintf(cmd, sizeof(cmd), "echo 'ffffffff81004000 T start_kernel' >>'%s/kallsyms'", k.dir);
	cr_assert_eq(system(cmd), 0);
	ss = kernel_sample(&f, &s, kbid, 0xffffffff81000000ULL, 0x3000, "_stext", 0xffffffff81004010ULL);
	cr_expect_str_eq(sym(&ss->frames[0]), "start_kernel");
	cr_expect_str_eq(ss->frames[0].res.dso, "[kernel.kallsyms]");
	pms_session__free(s);
	free(f.buf);
	/* another kernel's file: the same address belongs to no map */
	ss = kernel_sample(&f, &s, other_kbid, 0xffffffff81000000ULL, 0x3000, "_stext", 0xffffffff81004010ULL);
	cr_expect_str_eq(ss->frames[0].res.dso, "[unknown]");
	pms_session__free(s);
	free(f.buf);
	kroot_done(&k);
}

/* A PERF_RECORD_KSYMBOL with the trailer of ST_BASE's sample_id_all (TID, TIME, CPU). */
static void ksymbol(struct file *f, uint64_t addr, uint32_t len, uint16_t flags, const char *name, uint64_t time)
{
	uint64_t rec[32] = { 0 };
	struct perf_event_header *h = (struct perf_event_header *)rec;
	uint8_t *p = (uint8_t *)rec + 8;
	size_t nlen = strlen(name) + 1, off;
	uint16_t type = PERF_RECORD_KSYMBOL_TYPE_BPF;

	memcpy(p, &addr, 8);
	memcpy(p + 8, &len, 4);
	memcpy(p + 12, &type, 2);
	memcpy(p + 14, &flags, 2);
	memcpy(p + 16, name, nlen);
	off = 8 + ((16 + nlen + 7) & ~(size_t)7);
	rec[off / 8] = 1 | (uint64_t)1 << 32; /* pid, tid */
	rec[off / 8 + 1] = time;
	rec[off / 8 + 2] = 0;                 /* cpu */
	h->type = PERF_RECORD_KSYMBOL;
	h->misc = PERF_RECORD_MISC_KERNEL;
	h->size = (uint16_t)(off + 24);
	cr_assert_eq(pms_data_writer__write(f->w, rec, h->size), 0);
}

/*
 * BPF programs and trampolines as perf names them (machine__process_ksymbol_*()):
 * outside every kernel map the range is its own object named after the
 * symbol; inside the kernel map the symbol names that range; unregistered,
 * it is forgotten.
 */
Test(session, ksymbol_ranges_are_named_after_their_symbol)
{
	struct kroot k;
	struct file f;
	struct pms_session *s;
	const struct pms_session_sample *ss;

	kroot_setup(&k);
	file_open(&f, ST_BASE, "cpu-clock", 4000, true);
	kernel_build_id(&f, kbid);
	kernel_map(&f, 0xffffffff81000000ULL, 0x3000, "_stext");
	ksymbol(&f, 0xffffffffc0100000ULL, 0x80, 0, "bpf_prog_6deef7357e7b4530_sd_fw_ingress", 1);
	ksymbol(&f, 0xffffffff81002400ULL, 0x40, 0, "bpf_trampoline_6442", 2);
	sample(&f, PERF_RECORD_MISC_KERNEL, 1, 1, 10, 0xffffffffc0100044ULL, NULL, 0);
	sample(&f, PERF_RECORD_MISC_KERNEL, 1, 1, 11, 0xffffffff81002410ULL, NULL, 0);
	ksymbol(&f, 0xffffffffc0100000ULL, 0x80, PERF_RECORD_KSYMBOL_FLAGS_UNREGISTER, "bpf_prog_6deef7357e7b4530_sd_fw_ingress", 12);
	ksymbol(&f, 0xffffffff81002400ULL, 0x40, PERF_RECORD_KSYMBOL_FLAGS_UNREGISTER, "bpf_trampoline_6442", 13);
	sample(&f, PERF_RECORD_MISC_KERNEL, 1, 1, 14, 0xffffffffc0100044ULL, NULL, 0);
	sample(&f, PERF_RECORD_MISC_KERNEL, 1, 1, 15, 0xffffffff81002410ULL, NULL, 0);
	file_close(&f);
	s = open_session(&f, false);
	ss = next(s);
	cr_expect_str_eq(ss->frames[0].res.dso, "bpf_prog_6deef7357e7b4530_sd_fw_ingress");
	cr_expect_str_eq(sym(&ss->frames[0]), "bpf_prog_6deef7357e7b4530_sd_fw_ingress");
	cr_expect_eq(ss->frames[0].res.sym_off, 0x44);
	ss = next(s);
	cr_expect_str_eq(ss->frames[0].res.dso, "[kernel.kallsyms]");
	cr_expect_str_eq(sym(&ss->frames[0]), "bpf_trampoline_6442");
	cr_expect_eq(ss->frames[0].res.sym_off, 0x10);
	ss = next(s);
	cr_expect_str_eq(ss->frames[0].res.dso, "[unknown]", "the program is gone");
	ss = next(s);
	cr_expect_str_eq(ss->frames[0].res.dso, "[kernel.kallsyms]");
	cr_expect_str_neq(sym(&ss->frames[0]), "bpf_trampoline_6442", "the kernel's own symbols again");
	expect_end(s);
	pms_session__free(s);
	free(f.buf);
	kroot_done(&k);
}

/*
 * A chain longer than max_stack: perf keeps the entries nearest the sample
 * when it walks from the leaf (script, callee graphs), the outermost ones
 * when it walks from the root (children mode, caller graphs); there the
 * chain's own copy of the sampled IP is the first to go.
 */
Test(session, max_stack_keeps_the_end_perf_walks_from)
{
	const uint64_t ip = 0x400100;
	const uint64_t chain[] = { PERF_CONTEXT_USER, ip, 0x401001, 0x401002, 0x401003, 0x401004, 0x401005, 0x401006 };
	struct file f;
	const struct pms_session_sample *ss;
	struct pms_session *s;

	file_open(&f, ST_BASE | PERF_SAMPLE_CALLCHAIN, "cpu-clock", 4000, true);
	sample(&f, PERF_RECORD_MISC_USER, 1, 1, 10, ip, chain, sizeof(chain) / sizeof(chain[0]));
	file_close(&f);
	for (int from_root = 0; from_root < 2; from_root++) {
		struct pms_session_opts o = { .sz = sizeof(o), .callchain = true, .max_stack = 4,
					      .max_stack_from_root = from_root };
		struct pms_data_error e = { 0 };

		cr_assert_eq(pms_session__open_mem(&s, f.buf, f.len, &o, &e), 0, "%s", e.msg);
		ss = next(s);
		cr_assert_eq(ss->frames[0].ip, ip, "the sampled IP stays");
		if (!from_root) {
			cr_assert_eq(ss->nr_frames, 4);
			cr_expect_eq(ss->frames[1].ip, 0x401001);
			cr_expect_eq(ss->frames[3].ip, 0x401003);
			cr_expect_not(ss->leaf_cut);
		} else {
			/* 7 entries, the IP's copy among them: the outermost 4 */
			cr_assert_eq(ss->nr_frames, 5);
			cr_expect_eq(ss->frames[1].ip, 0x401003);
			cr_expect_eq(ss->frames[4].ip, 0x401006);
			cr_expect(ss->leaf_cut);
		}
		pms_session__free(s);
	}
	free(f.buf);
}

static struct pms_session *open_side_band(struct file *f, uint64_t types, bool rounds)
{
	struct pms_session_opts o = { .sz = sizeof(o), .side_band = types, .side_band_rounds = rounds };
	struct pms_data_error e = { 0 };
	struct pms_session *s;

	cr_assert_eq(pms_session__open_mem(&s, f->buf, f->len, &o, &e), 0, "%s", e.msg);
	return s;
}

Test(session, side_band_records_come_in_time_order_with_the_samples)
{
	struct file f;
	struct pms_session *s;
	const struct pms_session_sample *ss;

	file_open(&f, ST_BASE, "cpu-clock", 4000, true);
	sample(&f, PERF_RECORD_MISC_USER, 100, 100, 30, 0x1000, NULL, 0);
	comm(&f, 100, 100, "app", true, 20);
	fork_(&f, 100, 100, 101, 100, 25);
	cr_assert_eq(pms_data_writer__finished_round(f.w), 0);
	mmap2(&f, 100, 0x10000000, 0x1000, 0, "/bin/app", NULL, 40);
	file_close(&f);

	s = open_side_band(&f, 1ULL << PERF_RECORD_COMM | 1ULL << PERF_RECORD_FORK, false);
	ss = next(s);
	cr_assert_not_null(ss->record);
	cr_assert_eq(ss->record->type, PERF_RECORD_COMM);
	cr_assert_str_eq(ss->record->comm.comm, "app");
	cr_assert_str_eq(ss->record_comm, "app", "the thread is named by the COMM it is about");
	cr_assert_eq(ss->time_ns, 20);
	ss = next(s);
	cr_assert_eq(ss->record->type, PERF_RECORD_FORK);
	cr_assert_str_eq(ss->record_comm, "app", "the child has its parent's name");
	cr_assert_eq(ss->time_ns, 25);
	ss = next(s);
	cr_assert_null(ss->record, "then the sample at t=30");
	cr_assert_eq(ss->time_ns, 30);
	expect_end(s);   /* MMAP2 was not asked for */
	pms_session__free(s);

	/* rounds: everything in file order, the round where it was written */
	s = open_side_band(&f, 1ULL << PERF_RECORD_COMM, true);
	ss = next(s);
	cr_assert_null(ss->record);
	cr_assert_eq(ss->time_ns, 30);
	ss = next(s);
	cr_assert_eq(ss->record->type, PERF_RECORD_COMM);
	ss = next(s);
	cr_assert_eq(ss->record->type, 68 /* FINISHED_ROUND */);
	expect_end(s);
	pms_session__free(s);
	free(f.buf);
}

Test(session, fork_passes_on_only_a_name_a_comm_gave)
{
	struct file f;
	struct pms_session *s;
	const struct pms_session_sample *ss;

	file_open(&f, ST_BASE, "cpu-clock", 4000, true);
	sample(&f, PERF_RECORD_MISC_USER, 300, 300, 1, 0x1000, NULL, 0); /* 300 exists, unnamed */
	fork_(&f, 301, 300, 301, 300, 2);
	fork_(&f, 1, 0, 1, 0, 3);                    /* from the idle task */
	sample(&f, PERF_RECORD_MISC_USER, 301, 301, 4, 0x1000, NULL, 0);
	sample(&f, PERF_RECORD_MISC_USER, 1, 1, 5, 0x1000, NULL, 0);
	file_close(&f);

	s = open_session(&f, false);
	ss = next(s);
	cr_assert_str_eq(ss->comm, ":300");
	ss = next(s);
	cr_assert_str_eq(ss->comm, ":301", "perf does not lend an unnamed parent's ':300'");
	ss = next(s);
	cr_assert_str_eq(ss->comm, "swapper");
	expect_end(s);
	pms_session__free(s);
	free(f.buf);
}

/* A PERF_RECORD_READ (read_format 0: the value alone) with the sample_id trailer of IP|TID|TIME. */
static void read_rec(struct file *f, uint32_t pid, uint32_t tid, uint64_t value, uint64_t time)
{
	uint64_t rec[5];
	struct perf_event_header *h = (struct perf_event_header *)rec;

	h->type = PERF_RECORD_READ;
	h->misc = 0;
	h->size = sizeof(rec);
	rec[1] = (uint64_t)pid | (uint64_t)tid << 32;
	rec[2] = value;
	rec[3] = (uint64_t)pid | (uint64_t)tid << 32;
	rec[4] = time;
	cr_assert_eq(pms_data_writer__write(f->w, rec, sizeof(rec)), 0);
}

/* perf report -T's numbers: READ values summed per thread and event, in the order first met. */
Test(session, read_records_sum_per_thread)
{
	struct file f;
	struct pms_session *s;
	const struct pms_session_sample *ss;
	const struct pms_session_read *r;

	file_open(&f, PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME, "cpu-clock", 1000, false);
	read_rec(&f, 10, 12, 500, 100);
	read_rec(&f, 10, 11, 70, 200);
	read_rec(&f, 10, 12, 25, 300);
	file_close(&f);
	s = open_session(&f, false);
	cr_assert_eq(pms_session__next(s, &ss), 0);
	cr_assert_eq(pms_session__nr_reads(s), 2);
	r = pms_session__read(s, 0);
	cr_assert(r);
	cr_assert_eq(r->pid, 10);
	cr_assert_eq(r->tid, 12, "first met first");
	cr_assert_eq(r->attr_idx, 0);
	cr_assert_eq(r->value, 525, "two records of one thread add up");
	r = pms_session__read(s, 1);
	cr_assert_eq(r->tid, 11);
	cr_assert_eq(r->value, 70);
	cr_assert_null(pms_session__read(s, 2));
	pms_session__free(s);
	free(f.buf);
}
