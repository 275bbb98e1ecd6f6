// SPDX-License-Identifier: MIT
// A file's event groups as perf rebuilds them: from HEADER_GROUP_DESC, forced into one, or refused whole when the description does not fit.
#include <criterion/criterion.h>
#include <errno.h>
#include <linux/perf_event.h>
#include <stdlib.h>
#include <unistd.h>

#include "data/features.h"
#include "data/groups.h"
#include "data/writer.h"
#include "memfd_file.h"

struct group_spec {
	const char *name;
	uint32_t leader, nr;
};

/* A file of nr_attrs events and the group descriptions given; its reader in *r, its bytes in *buf. */
static void file_with_groups(size_t nr_attrs, const struct group_spec *gs, size_t nr_groups,
			     struct pms_data_reader **r, uint8_t **buf)
{
	struct pms_data_writer *w;
	struct perf_event_attr a = { .type = PERF_TYPE_SOFTWARE, .sample_type = PERF_SAMPLE_IP };
	int fd = new_memfd();
	size_t len;

	cr_assert_eq(pms_data_writer__open_fd(&w, fd, NULL), 0);
	for (size_t i = 0; i < nr_attrs; i++) {
		uint64_t id = 100 + i;

		a.config = i;
		cr_assert_eq(pms_data_writer__add_attr(w, &a, "ev", &id, 1), 0);
	}
	for (size_t i = 0; i < nr_groups; i++)
		cr_assert_eq(pms_data_features__add_group(pms_data_writer__features(w), gs[i].name, gs[i].leader,
							  gs[i].nr), 0);
	{
		/* one record: the attrs and data section are laid out at the first write */
		struct { struct perf_event_header h; uint64_t ip; } smp = {
			.h = { .type = PERF_RECORD_SAMPLE, .size = sizeof(smp) }, .ip = 0x1000,
		};

		cr_assert_eq(pms_data_writer__write(w, &smp, sizeof(smp)), 0);
	}
	cr_assert_eq(pms_data_writer__close(w), 0);
	pms_data_writer__free(w);
	*buf = slurp(fd, &len);
	close(fd);
	cr_assert_eq(pms_data_reader__open_mem(r, *buf, len, NULL, NULL), 0);
}

Test(data_groups, leaders_and_members_in_file_order)
{
	struct group_spec gs[] = { { "{anon_group}", 0, 2 }, { "named", 3, 2 } };
	struct pms_data_groups g;
	struct pms_data_reader *r;
	uint8_t *buf;

	file_with_groups(5, gs, 2, &r, &buf);
	cr_assert_eq(pms_data_groups__build(&g, r, false), 0);
	cr_assert_eq(g.nr, 5);
	cr_assert_eq(g.size[0], 2);
	cr_assert_eq(g.size[1], 0);
	cr_assert_eq(g.size[2], 1, "an event in no group is a group of one");
	cr_assert_eq(g.size[3], 2);
	cr_assert_eq(g.size[4], 0);
	cr_assert_null(g.name[0], "perf's {anon_group} has no name");
	cr_assert_str_eq(g.name[3], "named");
	cr_assert(g.any);
	cr_assert_not(g.forced);
	pms_data_groups__release(&g);
	pms_data_reader__free(r);
	free(buf);
}

Test(data_groups, forced_when_none_recorded)
{
	struct pms_data_groups g;
	struct pms_data_reader *r;
	uint8_t *buf;

	file_with_groups(3, NULL, 0, &r, &buf);
	cr_assert_eq(pms_data_groups__build(&g, r, false), 0);
	cr_assert_not(g.any);
	cr_assert_eq(g.size[0] + g.size[1] + g.size[2], 3);
	pms_data_groups__release(&g);
	cr_assert_eq(pms_data_groups__build(&g, r, true), 0);
	cr_assert(g.forced && g.any);
	cr_assert_eq(g.size[0], 3);
	cr_assert_eq(g.size[1], 0);
	pms_data_groups__release(&g);
	pms_data_reader__free(r);
	free(buf);
}

Test(data_groups, a_description_that_does_not_fit_is_refused_whole)
{
	/* the second leader sits inside the first group */
	struct group_spec gs[] = { { "a", 0, 3 }, { "b", 1, 2 } };
	struct pms_data_groups g;
	struct pms_data_reader *r;
	uint8_t *buf;

	file_with_groups(4, gs, 2, &r, &buf);
	cr_assert_eq(pms_data_groups__build(&g, r, true), -EBADMSG);
	for (size_t a = 0; a < g.nr; a++)
		cr_assert_eq(g.size[a], 1);
	cr_assert_not(g.any);
	pms_data_groups__release(&g);
	pms_data_reader__free(r);
	free(buf);
}
