// SPDX-License-Identifier: MIT
// Writes the perf.data fixtures of the script_* CLI cases (kernel, JIT, unmapped and unknown-thread frames).
// Rebuild: cc -Ilib -Iinclude tests/cli/cases/script_fixture.c build/libpmuscope.a -lelf -ldw -liberty -lz -lzstd \
//          -o /tmp/mkfx && /tmp/mkfx tests/cli/cases/script_chain.data tests/cli/cases/script_flat.data
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "data/writer.h"

#define KIP 0xffffffff81000080ULL  /* secondary_startup_64+0x10 in tests/fixtures/symbol/kallsyms.txt */
/* the build-id of the fixture kernel: tests/fixtures/symbol/sysfs/kernel/notes says the same */
static const uint8_t kernel_bid[20] = { 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x99, 0xaa,
					0xbb, 0xcc, 0xdd, 0xee, 0xff, 0x01, 0x02, 0x03, 0x04, 0x05 };

static struct pms_data_writer *w;
static uint64_t st;

static void die_if(int err, const char *what)
{
	if (err) {
		fprintf(stderr, "%s: %d\n", what, err);
		exit(1);
	}
}

static void sample(uint16_t misc, uint32_t pid, uint32_t tid, uint64_t time, uint64_t ip, const uint64_t *chain,
		   size_t nr)
{
	uint64_t rec[32];
	size_t n = 1;
	struct perf_event_header *h = (struct perf_event_header *)rec;

	rec[n++] = ip;
	rec[n++] = (uint64_t)pid | (uint64_t)tid << 32;
	rec[n++] = time;
	rec[n++] = 250000;
	if (st & PERF_SAMPLE_CALLCHAIN) {
		rec[n++] = nr;
		for (size_t i = 0; i < nr; i++)
			rec[n++] = chain[i];
	}
	h->type = PERF_RECORD_SAMPLE;
	h->misc = misc;
	h->size = (uint16_t)(n * 8);
	die_if(pms_data_writer__write(w, rec, n * 8), "sample");
}

static void write_file(const char *path, bool callchain)
{
	struct perf_event_attr a = {
		.type = PERF_TYPE_SOFTWARE, .config = PERF_COUNT_SW_CPU_CLOCK, .size = sizeof(a),
		.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD,
		.sample_id_all = 1, .sample_freq = 4000, .freq = 1,
	};
	struct pms_data_mmap2 jit = {
		.pid = 4242, .tid = 4242, .addr = 0x7f0000000000ULL, .len = 0x10000, .prot = PROT_READ | PROT_EXEC,
		.flags = MAP_PRIVATE, .cpumode = PERF_RECORD_MISC_USER, .filename = "//anon",
	};
	struct pms_data_mmap2 lib = jit;
	struct pms_data_sample_id sid = { .pid = 4242, .tid = 4242, .time = 1000000000ULL };
	uint64_t k[] = { PERF_CONTEXT_KERNEL, KIP, KIP + 0x20, PERF_CONTEXT_USER, 0x7f0000001010ULL, 0x400123 };
	uint64_t u[] = { PERF_CONTEXT_USER, 0x7f0000002010ULL, 0x400456, 0x500000 };
	uint64_t x[] = { PERF_CONTEXT_USER, 0x1000 };

	if (callchain)
		a.sample_type |= PERF_SAMPLE_CALLCHAIN;
	st = a.sample_type;
	lib.addr = 0x400000;
	lib.filename = "/nonexistent/libapp.so";
	die_if(pms_data_writer__open(&w, path, NULL), "open");
	die_if(pms_data_writer__add_attr(w, &a, "cpu-clock", NULL, 0), "attr");
	/* the kernel as perf describes it: its build-id and its map from _stext */
	die_if(pms_data_features__add_build_id(pms_data_writer__features(w), "[kernel.kallsyms]", kernel_bid, 20, -1,
					       PERF_RECORD_MISC_KERNEL), "build-id");
	{
		struct pms_data_sample_id ksid = { .pid = (uint32_t)-1, .tid = (uint32_t)-1, .time = 0 };

		die_if(pms_data_writer__mmap(w, (uint32_t)-1, (uint32_t)-1, 0xffffffff81000000ULL, 0x3000,
					     0xffffffff81000000ULL, PERF_RECORD_MISC_KERNEL, "[kernel.kallsyms]_stext", &ksid),
		       "kernel mmap");
	}
	die_if(pms_data_writer__comm(w, 4242, 4242, "jsapp", false, &sid), "comm");
	die_if(pms_data_writer__mmap2(w, &jit, &sid), "mmap2");
	die_if(pms_data_writer__mmap2(w, &lib, &sid), "mmap2");
	sample(PERF_RECORD_MISC_KERNEL, 4242, 4242, 1234567891234ULL, KIP, k, 6);
	sample(PERF_RECORD_MISC_USER, 4242, 4242, 1234568891234ULL, 0x7f0000002010ULL, u, 4);
	sample(PERF_RECORD_MISC_USER, 77, 77, 1234569891234ULL, 0x1000, x, 2);
	die_if(pms_data_writer__close(w), "close");
	pms_data_writer__free(w);
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: %s chain.data flat.data\n", argv[0]);
		return 2;
	}
	write_file(argv[1], true);
	write_file(argv[2], false);
	return 0;
}
