/* SPDX-License-Identifier: MIT */
/*
 * The event groups of a perf.data file as perf rebuilds them from
 * HEADER_GROUP_DESC (process_group_desc(): a group's members are the events
 * that follow its leader in file order), or, forced, every event in one
 * group led by the first (perf's evlist__force_leader()): what report's
 * and annotate's group views show side by side.
 *
 * Invariants:
 *  - size[] and name[] have one entry per attr of the file; an event in no
 *    group is a group of one (size 1).
 *  - A description that does not fit the file's events is refused whole
 *    (perf's "invalid group desc"): every event on its own, -EBADMSG.
 */
#ifndef PMS_DATA_GROUPS_H
#define PMS_DATA_GROUPS_H

#include <stdbool.h>
#include <stddef.h>

#include "data/reader.h"

struct pms_data_groups {
	size_t nr;            /* the file's attrs */
	size_t *size;         /* per attr: for a leader, its group's size; 0 for a member */
	const char **name;    /* per attr: a leader's recorded name (borrowed from the reader), NULL when anonymous */
	bool forced;          /* one group of every event, asked for */
	bool any;             /* at least one group of two events or more */
};

/*
 * The groups of rd's file; force: all events as one group when the file
 * records none. 0, -EBADMSG (a description that does not fit: every event
 * on its own, usable), or -ENOMEM. Release with __release().
 */
int pms_data_groups__build(struct pms_data_groups *g, const struct pms_data_reader *rd, bool force);
void pms_data_groups__release(struct pms_data_groups *g);

#endif
