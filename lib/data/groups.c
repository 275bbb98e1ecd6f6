// SPDX-License-Identifier: MIT
// A perf.data file's event groups, rebuilt from HEADER_GROUP_DESC as perf does.
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "data/features.h"
#include "data/groups.h"

static void each_alone(struct pms_data_groups *g)
{
	for (size_t a = 0; a < g->nr; a++) {
		g->size[a] = 1;
		g->name[a] = NULL;
	}
}

/* Leaders at the described indexes, members after them in file order. False when that does not fit. */
static bool from_desc(struct pms_data_groups *g, const struct pms_data_features *ft)
{
	uint32_t i = 0, left = 0;

	for (size_t a = 0; a < g->nr; a++) {
		if (i < ft->nr_group_descs && a == ft->group_descs[i].leader_idx) {
			const struct pms_data_group_desc *d = &ft->group_descs[i++];

			if (left || !d->nr_members)
				return false; /* a leader inside the previous group */
			g->size[a] = d->nr_members;
			/* perf writes "{anon_group}" for a group without a name */
			g->name[a] = strcmp(d->name, "{anon_group}") ? d->name : NULL;
			left = d->nr_members - 1;
		} else if (left) {
			g->size[a] = 0;
			left--;
		}
	}
	return i == ft->nr_group_descs && !left;
}

int pms_data_groups__build(struct pms_data_groups *g, const struct pms_data_reader *rd, bool force)
{
	const struct pms_data_features *ft = pms_data_reader__features(rd);
	int ret = 0;

	memset(g, 0, sizeof(*g));
	g->nr = pms_data_reader__nr_attrs(rd);
	g->size = calloc(g->nr ? g->nr : 1, sizeof(*g->size));
	g->name = calloc(g->nr ? g->nr : 1, sizeof(*g->name));
	if (!g->size || !g->name) {
		pms_data_groups__release(g);
		return -ENOMEM;
	}
	each_alone(g);
	if (pms_data_features__has(ft, PMS_FEAT_GROUP_DESC) && ft->nr_group_descs) {
		if (!from_desc(g, ft)) {
			each_alone(g);
			ret = -EBADMSG;
		}
	} else if (force && g->nr > 1) {
		g->forced = true;
		g->size[0] = g->nr;
		for (size_t a = 1; a < g->nr; a++)
			g->size[a] = 0;
	}
	for (size_t a = 0; a < g->nr; a++)
		g->any |= g->size[a] > 1;
	return ret;
}

void pms_data_groups__release(struct pms_data_groups *g)
{
	free(g->size);
	free(g->name);
	memset(g, 0, sizeof(*g));
}
