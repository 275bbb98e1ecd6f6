// SPDX-License-Identifier: MIT
// In-process srcline benchmark for bench/symbol.sh: picks N deterministic pseudo-random addresses
// inside the function symbols of BIN, writes them (hex, one per line) to ADDRS, then times resolving
// all of them to function + file:line + inline frames through lib/symbol (one process, libdw).
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "symbol/demangle.h"
#include "symbol/dso.h"
#include "symbol/srcline.h"

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

int main(int argc, char **argv)
{
	struct pms_dso *dso;
	struct pms_srcline *sl;
	uint64_t *addrs, state = 0x9e3779b97f4a7c15ULL;
	size_t n, resolved = 0, frames_total = 0;
	double t0, t1;
	FILE *f;

	if (argc == 3 && argv[2][0] == '@') {
		/* Addresses given (e.g. perf script's sample IPs of a non-PIE binary). */
		unsigned long long a;
		size_t cap = 1024;

		f = fopen(argv[2] + 1, "r");
		addrs = malloc(cap * sizeof(*addrs));
		if (!f || !addrs)
			return 1;
		n = 0;
		while (fscanf(f, "%llx", &a) == 1) {
			if (n == cap) {
				cap *= 2;
				addrs = realloc(addrs, cap * sizeof(*addrs));
				if (!addrs)
					return 1;
			}
			addrs[n++] = a;
		}
		fclose(f);
		goto timed;
	}
	if (argc != 4) {
		fprintf(stderr, "usage: %s BIN N ADDRS-OUT | %s BIN @ADDRS-IN\n", argv[0], argv[0]);
		return 2;
	}
	n = strtoul(argv[2], NULL, 0);
	if (pms_dso__open(argv[1], &dso) || !dso->nr_syms) {
		fprintf(stderr, "cannot load symbols of %s\n", argv[1]);
		return 1;
	}
	addrs = calloc(n, sizeof(*addrs));
	f = fopen(argv[3], "w");
	if (!addrs || !f)
		return 1;
	for (size_t i = 0; i < n; i++) {
		const struct pms_sym *s;

		state ^= state << 13;
		state ^= state >> 7;
		state ^= state << 17;
		s = &dso->syms[state % dso->nr_syms];
		addrs[i] = s->start + (state >> 32) % s->size;
		fprintf(f, "0x%llx\n", (unsigned long long)addrs[i]);
	}
	fclose(f);
	pms_dso__free(dso);

timed:
	/* Timed: everything report would do for these addresses, from opening the file. */
	t0 = now_ms();
	if (pms_dso__open(argv[1], &dso) || pms_srcline__new(dso, &sl)) {
		fprintf(stderr, "no DWARF in %s\n", argv[1]);
		return 1;
	}
	for (size_t i = 0; i < n; i++) {
		const struct pms_srcline_frame *fr;
		const struct pms_sym *s = pms_dso__find_sym(dso, addrs[i]);
		size_t nr;

		if (s && pms_demangle__is_mangled(s->name))
			free(pms_demangle(s->name));
		if (!pms_srcline__lookup(sl, addrs[i], &fr, &nr)) {
			resolved++;
			frames_total += nr;
		}
	}
	t1 = now_ms();
	printf("%.3f %zu %zu\n", t1 - t0, resolved, frames_total);
	pms_srcline__free(sl);
	pms_dso__free(dso);
	free(addrs);
	return 0;
}
