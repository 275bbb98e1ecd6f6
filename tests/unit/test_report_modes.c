// SPDX-License-Identifier: MIT
// Unit tests of what report's branch mode and group view read from perf.data: HEADER_GROUP_DESC and HEADER_BRANCH_STACK decoding (untrusted payloads) and the two real-world files that have them.
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data/data_priv.h"
#include "data/features.h"
#include "data/reader.h"

static const char *top_dir(void)
{
	const char *top = getenv("TOP");

	return top && *top ? top : ".";
}

/* perf's write_group_desc(): u32 nr, then per group a string, u32 leader_idx, u32 nr_members. */
static void put_group(struct pms_bbuf *b, const char *name, uint32_t leader, uint32_t nr)
{
	pms_bbuf__add_pstr(b, name);
	pms_bbuf__add_u32(b, leader);
	pms_bbuf__add_u32(b, nr);
}

Test(group_desc, decodes_perf_layout)
{
	struct pms_bbuf b = { 0 };
	struct pms_data_features f;
	char err[256] = "";

	memset(&f, 0, sizeof(f));
	pms_bbuf__add_u32(&b, 2);
	put_group(&b, "{anon_group}", 0, 2);
	put_group(&b, "mygroup", 3, 3);
	cr_assert_not(b.oom);
	cr_assert_eq(pms_data_feature__decode(&f, PMS_FEAT_GROUP_DESC, b.p, b.len, err, sizeof(err)), 0, "%s", err);
	cr_assert(pms_data_features__has(&f, PMS_FEAT_GROUP_DESC));
	cr_assert_eq(f.nr_group_descs, 2);
	cr_assert_str_eq(f.group_descs[0].name, "{anon_group}");
	cr_assert_eq(f.group_descs[0].leader_idx, 0);
	cr_assert_eq(f.group_descs[0].nr_members, 2);
	cr_assert_str_eq(f.group_descs[1].name, "mygroup");
	cr_assert_eq(f.group_descs[1].leader_idx, 3);
	cr_assert_eq(f.group_descs[1].nr_members, 3);
	/* a second one (a pipe may repeat a feature) replaces the first */
	cr_assert_eq(pms_data_feature__decode(&f, PMS_FEAT_GROUP_DESC, b.p, b.len, err, sizeof(err)), 0);
	cr_assert_eq(f.nr_group_descs, 2);
	pms_data_features__release(&f);
	pms_bbuf__release(&b);
}

Test(group_desc, encode_round_trip)
{
	struct pms_data_features f, g;
	struct pms_bbuf b = { 0 };
	char err[256] = "";

	memset(&f, 0, sizeof(f));
	memset(&g, 0, sizeof(g));
	cr_assert_eq(pms_data_features__add_group(&f, "{anon_group}", 1, 2), 0);
	cr_assert_eq(pms_data_features__add_group(&f, NULL, 1, 2), -EINVAL);
	cr_assert(pms_data_features__has(&f, PMS_FEAT_GROUP_DESC));
	cr_assert_eq(pms_data_feature__encode(&f, PMS_FEAT_GROUP_DESC, NULL, 0, &b), 0);
	/* u32 count + (u32 length + 64 padded bytes + 2 u32) */
	cr_assert_eq(b.len, 4 + 4 + 64 + 8);
	cr_assert_eq(pms_data_feature__decode(&g, PMS_FEAT_GROUP_DESC, b.p, b.len, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(g.nr_group_descs, 1);
	cr_assert_str_eq(g.group_descs[0].name, "{anon_group}");
	cr_assert_eq(g.group_descs[0].leader_idx, 1);
	cr_assert_eq(g.group_descs[0].nr_members, 2);
	pms_data_features__release(&f);
	pms_data_features__release(&g);
	pms_bbuf__release(&b);
}

Test(group_desc, damaged_payloads_refused_whole)
{
	struct pms_bbuf b = { 0 };
	struct pms_data_features f;
	char err[256] = "";

	memset(&f, 0, sizeof(f));
	/* a count no payload can hold */
	pms_bbuf__add_u32(&b, 0x40000000);
	put_group(&b, "{anon_group}", 0, 2);
	cr_assert_eq(pms_data_feature__decode(&f, PMS_FEAT_GROUP_DESC, b.p, b.len, err, sizeof(err)), -EBADMSG);
	cr_assert(strstr(err, "GROUP_DESC"), "%s", err);
	cr_assert_not(pms_data_features__has(&f, PMS_FEAT_GROUP_DESC));
	cr_assert_eq(f.nr_group_descs, 0);
	/* cut inside the second group: nothing is kept, not half a list */
	b.len = 0;
	pms_bbuf__add_u32(&b, 2);
	put_group(&b, "{anon_group}", 0, 2);
	put_group(&b, "x", 2, 2);
	for (size_t cut = 0; cut < b.len; cut++) {
		err[0] = 0;
		cr_assert_eq(pms_data_feature__decode(&f, PMS_FEAT_GROUP_DESC, b.p, cut, err, sizeof(err)), -EBADMSG,
			     "cut at %zu", cut);
		cr_assert_not(pms_data_features__has(&f, PMS_FEAT_GROUP_DESC));
		cr_assert_eq(f.nr_group_descs, 0);
		cr_assert_null(f.group_descs);
	}
	/* a string length past the end */
	b.len = 0;
	pms_bbuf__add_u32(&b, 1);
	pms_bbuf__add_u32(&b, 0xfffffff0);
	pms_bbuf__add_u32(&b, 0);
	pms_bbuf__add_u32(&b, 2);
	cr_assert_eq(pms_data_feature__decode(&f, PMS_FEAT_GROUP_DESC, b.p, b.len, err, sizeof(err)), -EBADMSG);
	pms_data_features__release(&f);
	pms_bbuf__release(&b);
}

Test(branch_stack, bit_without_payload)
{
	struct pms_data_features f;
	struct pms_bbuf b = { 0 };
	char err[64];

	memset(&f, 0, sizeof(f));
	cr_assert_eq(pms_data_feature__decode(&f, PMS_FEAT_BRANCH_STACK, (const uint8_t *)"", 0, err, sizeof(err)), 0);
	cr_assert(pms_data_features__has(&f, PMS_FEAT_BRANCH_STACK));
	cr_assert_eq(pms_data_feature__encode(&f, PMS_FEAT_BRANCH_STACK, NULL, 0, &b), 0);
	cr_assert_eq(b.len, 0, "perf writes the feature with an empty section");
	pms_data_features__release(&f);
	pms_bbuf__release(&b);
}

static struct pms_data_reader *open_fixture(const char *name)
{
	char path[4096];
	struct pms_data_reader_opts o = { .sz = sizeof(o), .recover = true };
	struct pms_data_error e = { 0 };
	struct pms_data_reader *r;

	snprintf(path, sizeof(path), "%s/tests/fixtures/perfdata/quipper/%s", top_dir(), name);
	cr_assert_eq(pms_data_reader__open(&r, path, &o, &e), 0, "%s: %s", path, e.msg);
	return r;
}

Test(report_files, perf_group_desc_file_and_pipe)
{
	const char *const names[] = { "perf.data.group_desc-4.14", "perf.data.piped.header_feautres_group_desc-6.8" };

	for (size_t i = 0; i < 2; i++) {
		struct pms_data_reader *r = open_fixture(names[i]);
		const struct pms_data_features *f = pms_data_reader__features(r);

		/* perf record -e '{a,b}': one anonymous group of the two events */
		cr_assert(pms_data_features__has(f, PMS_FEAT_GROUP_DESC), "%s", names[i]);
		cr_assert_eq(f->nr_group_descs, 1);
		cr_assert_str_eq(f->group_descs[0].name, "{anon_group}");
		cr_assert_eq(f->group_descs[0].leader_idx, 0);
		cr_assert_eq(f->group_descs[0].nr_members, 2);
		cr_assert_eq(pms_data_reader__nr_attrs(r), 2);
		cr_assert_not(pms_data_features__has(f, PMS_FEAT_BRANCH_STACK));
		pms_data_reader__free(r);
	}
}

Test(report_files, perf_branch_stack_file)
{
	struct pms_data_reader *r = open_fixture("perf.data.branch-4.14");
	const struct pms_data_features *f = pms_data_reader__features(r);

	/* perf record -b: the bit, and every sample with PERF_SAMPLE_BRANCH_STACK */
	cr_assert(pms_data_features__has(f, PMS_FEAT_BRANCH_STACK));
	cr_assert_not(pms_data_features__has(f, PMS_FEAT_GROUP_DESC));
	cr_assert(pms_data_reader__attr(r, 0)->sample_type & PERF_SAMPLE_BRANCH_STACK);
	pms_data_reader__free(r);
}
