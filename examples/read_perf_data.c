// SPDX-License-Identifier: MIT
// Read a perf.data file (recorded by perf or pmuscope, here or elsewhere):
// samples per event and per command, the functions with most samples, and
// optionally the stack tree in an export format.
//
//   cc read_perf_data.c $(pkg-config --cflags --libs pmuscope) -o read_perf_data
//   ./read_perf_data perf.data [format out-file]     (format: folded, pprof, speedscope, ...)
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pmuscope/pmuscope.h>

#define TOP 10

static int print_diag(enum pms_print_level level, const char *fmt, va_list ap)
{
	return level > PMS_WARN ? 0 : vfprintf(stderr, fmt, ap);
}

struct tally {
	char name[64];
	uint64_t samples;
};

static void count(struct tally *t, size_t *nr, size_t max, const char *name)
{
	for (size_t i = 0; i < *nr; i++) {
		if (!strcmp(t[i].name, name)) {
			t[i].samples++;
			return;
		}
	}
	if (*nr < max) {
		snprintf(t[*nr].name, sizeof(t[*nr].name), "%s", name);
		t[(*nr)++].samples = 1;
	}
}

static int print_function(const struct pms_stack_tree_function *f, void *arg)
{
	int *left = arg;

	printf("  %8" PRIu64 " self %8" PRIu64 " total  %s (%s)\n", f->self_samples, f->total_samples, f->name,
	       f->object ? f->object : "");
	return --*left == 0; /* stop after TOP */
}

int main(int argc, char **argv)
{
	struct tally events[16], comms[64];
	size_t nr_events = 0, nr_comms = 0;
	const struct pms_sample_info *s;
	struct pms_perf_data *d;
	struct pms_stack_tree *tree;
	uint64_t samples = 0, with_symbol = 0;
	int ret, left = TOP;

	if (argc != 2 && argc != 4) {
		fprintf(stderr, "usage: %s perf.data [format out-file]\n", argv[0]);
		return 2;
	}
	pms_set_print(print_diag);
	d = pms_perf_data__open(argv[1], NULL);
	if (!d) {
		fprintf(stderr, "%s: %s\n", argv[1], pms_strerror(-errno));
		return 1;
	}
	while ((ret = pms_perf_data__next(d, &s)) == 1) {
		samples++;
		with_symbol += s->frames[0].symbol != NULL;
		count(events, &nr_events, 16, s->event);
		count(comms, &nr_comms, 64, s->comm);
	}
	if (ret < 0)
		fprintf(stderr, "%s: stopped early: %s\n", argv[1], pms_strerror(ret));
	printf("samples %" PRIu64 " named %" PRIu64 " lost %" PRIu64 "\n", samples, with_symbol,
	       pms_perf_data__lost(d));
	for (size_t i = 0; i < nr_events; i++)
		printf("event %s %" PRIu64 "\n", events[i].name, events[i].samples);
	for (size_t i = 0; i < nr_comms; i++)
		printf("comm %s %" PRIu64 "\n", comms[i].name, comms[i].samples);
	pms_perf_data__close(d);

	tree = pms_stack_tree__from_perf_data(argv[1], NULL);
	if (!tree) {
		fprintf(stderr, "%s: %s\n", argv[1], pms_strerror(-errno));
		return 1;
	}
	printf("top functions of %" PRIu64 " samples:\n", pms_stack_tree__samples(tree));
	pms_stack_tree__foreach_function(tree, print_function, &left);
	if (argc == 4) {
		int err = pms_stack_tree__write(tree, argv[2], argv[3]);

		if (err) {
			fprintf(stderr, "%s: %s\n", argv[3], pms_strerror(err));
			pms_stack_tree__free(tree);
			return 1;
		}
	}
	pms_stack_tree__free(tree);
	return ret < 0;
}
