// SPDX-License-Identifier: MIT
// Public-API tests of perf.data reading (include/pmuscope/perf_data.h) on a file recorded by
// someone else with perf (tests/fixtures/perfdata/quipper): per-event sample counts as perf script
// gives them, the stack tree's totals and an export, and the errors of files that are not perf.data.
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <pmuscope/pmuscope.h>

#define FIXTURE "tests/fixtures/perfdata/quipper/multi-event-single-process.perf.data"

Test(api_perf_data, samples_as_perf_script_counts_them)
{
	struct pms_perf_data *d = pms_perf_data__open(FIXTURE, NULL);
	const struct pms_sample_info *s;
	unsigned long cpu_clock = 0, task_clock = 0, other = 0;
	int ret;

	cr_assert_not_null(d, "%s: %s (run from the source tree)", FIXTURE, strerror(errno));
	while ((ret = pms_perf_data__next(d, &s)) == 1) {
		struct pms_sample_frame f;

		cr_assert_geq(s->nr_frames, 1);
		cr_assert_not_null(s->frames[0].object);
		/* the sampled IP named again through the file's process, at this point of the replay */
		cr_assert_eq(pms_perf_data__symbolize(d, s->pid, s->frames[0].ip, &f), 0);
		cr_assert_str_eq(f.object, s->frames[0].object);
		cr_assert((!f.symbol && !s->frames[0].symbol) ||
			  (f.symbol && s->frames[0].symbol && !strcmp(f.symbol, s->frames[0].symbol)));
		cr_assert_eq(f.symbol_offset, s->frames[0].symbol_offset);
		if (!strcmp(s->event, "cpu-clock"))
			cpu_clock++;
		else if (!strcmp(s->event, "task-clock"))
			task_clock++;
		else
			other++;
	}
	cr_assert_eq(ret, 0);
	/* perf script -F event | sort | uniq -c (perf 6.1) */
	cr_assert_eq(cpu_clock, 19789);
	cr_assert_eq(task_clock, 19428);
	cr_assert_eq(other, 0);
	cr_assert_eq(pms_perf_data__lost(d), 0);
	pms_perf_data__close(d);
}

static int sum_self(const struct pms_stack_tree_function *f, void *arg)
{
	*(uint64_t *)arg += f->self_samples;
	return 0;
}

Test(api_perf_data, stack_tree_functions_and_export)
{
	struct pms_stack_tree_opts o = { .sz = sizeof(o), .event = "task-clock" };
	struct pms_stack_tree *t = pms_stack_tree__from_perf_data(FIXTURE, &o);
	char path[] = "/tmp/pms-api-folded-XXXXXX";
	uint64_t self = 0, folded = 0;
	char line[4096];
	FILE *f;
	int fd;

	cr_assert_not_null(t, "%s", strerror(errno));
	cr_assert_eq(pms_stack_tree__samples(t), 19428);
	cr_assert_eq(pms_stack_tree__foreach_function(t, sum_self, &self), 0);
	cr_assert_eq(self, 19428, "every sample has exactly one leaf");
	fd = mkstemp(path);
	cr_assert_geq(fd, 0);
	close(fd);
	cr_assert_eq(pms_stack_tree__write(t, "nosuchformat", path), -ENOENT);
	cr_assert_eq(pms_stack_tree__write(t, "folded", path), 0);
	f = fopen(path, "r");
	cr_assert_not_null(f);
	while (fgets(line, sizeof(line), f)) {
		char *sp = strrchr(line, ' ');

		cr_assert_not_null(sp, "folded line: %s", line);
		folded += strtoull(sp + 1, NULL, 10);
	}
	fclose(f);
	unlink(path);
	cr_assert_eq(folded, 19428, "folded stacks sum to the samples");
	pms_stack_tree__free(t);
}

Test(api_perf_data, not_perf_data)
{
	char path[] = "/tmp/pms-api-notdata-XXXXXX";
	int fd = mkstemp(path);

	cr_assert_geq(fd, 0);
	cr_assert_eq(write(fd, "this is not a perf.data file at all, not even close", 51), 51);
	close(fd);
	errno = 0;
	cr_assert_null(pms_perf_data__open(path, NULL));
	cr_assert_eq(errno, EINVAL);
	unlink(path);
	cr_assert_null(pms_perf_data__open("/nonexistent/perf.data", NULL));
	cr_assert_eq(errno, ENOENT);
	struct pms_perf_data_opts bad = { .sz = 1 };
	cr_assert_null(pms_perf_data__open(FIXTURE, &bad));
	cr_assert_eq(errno, EINVAL);
}
