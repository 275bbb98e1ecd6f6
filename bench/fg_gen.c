// SPDX-License-Identifier: MIT
// Synthetic stacks tree with N distinct stacks written as a flame graph page: the size and page-load benchmark of bench/flamegraph.sh.
// Usage: fg_gen OUT.html N [min_width_percent]   (prints "stacks=N nodes=M samples=S bytes=B gen_ms=T")
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "aggregate/stacks.h"
#include "export/export.h"

static uint64_t rng = 0x9e3779b97f4a7c15ULL;

static uint32_t next(uint32_t n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint32_t)(rng % n);
}

int main(int argc, char **argv)
{
	struct pms_stacks *st;
	struct pms_flamegraph_opts o = { .sz = sizeof(o) };
	struct strbuf sb = STRBUF_INIT;
	struct timespec t0, t1;
	uint64_t total = 0;
	size_t nr_nodes = 0;
	long n;
	FILE *f;

	if (argc < 3 || (n = strtol(argv[2], NULL, 10)) <= 0) {
		fprintf(stderr, "usage: fg_gen OUT.html N [min_width_percent]\n");
		return 2;
	}
	if (argc > 3)
		o.min_width_fraction = strtod(argv[3], NULL) > 0 ? strtod(argv[3], NULL) / 100 : 1e-12;
	st = pms_stacks__new(NULL);
	if (!st)
		return 1;
	/*
	 * Stack k: a common trunk (process, main, dispatch), then k's digits in
	 * base 7 pick a function per level (so prefixes are shared the way a real
	 * program's call tree shares them), then a random tail of 0-11 frames.
	 * Weights fall off like a real profile: a few hot stacks, a long tail.
	 */
	for (long k = 0; k < n; k++) {
		uint32_t ids[64];
		size_t nr = 0;
		char name[64];
		struct pms_stack_frame fr = { .name = name, .dso = "/usr/bin/app", .kind = PMS_STACK_USER };
		uint64_t w;

		fr.kind = PMS_STACK_PROCESS;
		fr.dso = NULL;
		snprintf(name, sizeof(name), "app");
		ids[nr++] = (uint32_t)pms_stacks__intern(st, &fr);
		fr.kind = PMS_STACK_USER;
		fr.dso = "/usr/bin/app";
		snprintf(name, sizeof(name), "main");
		ids[nr++] = (uint32_t)pms_stacks__intern(st, &fr);
		snprintf(name, sizeof(name), "dispatch_loop");
		ids[nr++] = (uint32_t)pms_stacks__intern(st, &fr);
		for (long v = k, lvl = 0; lvl < 7; v /= 7, lvl++) {
			snprintf(name, sizeof(name), "module%ld::handler_%ld", lvl, v % 7 + 7 * lvl);
			ids[nr++] = (uint32_t)pms_stacks__intern(st, &fr);
		}
		for (uint32_t t = next(12); t; t--) {
			bool kern = t < 3 && next(4) == 0;

			fr.kind = kern ? PMS_STACK_KERNEL : PMS_STACK_USER;
			fr.dso = kern ? "[kernel.kallsyms]" : "/usr/lib/x86_64-linux-gnu/libc.so.6";
			snprintf(name, sizeof(name), kern ? "do_syscall_%u" : "std_function_%u", next(400));
			ids[nr++] = (uint32_t)pms_stacks__intern(st, &fr);
		}
		w = 1 + next(16) + (uint64_t)(20000.0 / (1.0 + (double)next((uint32_t)n)));
		total += w;
		if (pms_stacks__add_path(st, ids, nr, w, w * 250000))
			return 1;
	}
	pms_stacks__sort(st, PMS_STACKS_BY_NAME);
	pms_stacks__nodes(st, &nr_nodes);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (pms_flamegraph__html(st, &o, &sb))
		return 1;
	clock_gettime(CLOCK_MONOTONIC, &t1);
	f = fopen(argv[1], "w");
	if (!f || fwrite(sb.buf, 1, sb.len, f) != sb.len || fclose(f))
		return 1;
	printf("stacks=%ld nodes=%zu samples=%llu bytes=%zu gen_ms=%.0f\n", n, nr_nodes - 1,
	       (unsigned long long)total, sb.len,
	       (double)(t1.tv_sec - t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - t0.tv_nsec) / 1e6);
	strbuf_release(&sb);
	pms_stacks__free(st);
	return 0;
}
