// SPDX-License-Identifier: MIT
// Every real-world perf.data file of tests/fixtures/perfdata replayed through the session (under ASan+UBSan in unit-san): read whole, or stopped at the damage with its offset, never a crash.
#include <criterion/criterion.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aggregate/session.h"
#include "data/reader.h"
#include "util/fileio.h"

static const char *top_dir(void)
{
	const char *top = getenv("TOP");

	return top && *top ? top : ".";
}

/* Replay path with chains resolved; returns the sample count, *damaged tells whether it stopped early. */
static long replay(const char *path, bool *damaged, char *msg, size_t msg_size)
{
	struct pms_session_opts o = { .sz = sizeof(o), .recover = true, .callchain = true };
	struct pms_data_error e = { 0 };
	const struct pms_session_sample *ss;
	struct pms_session *s;
	long n = 0;
	int rc;

	/* no host symbols: the files are other machines' (and the replay must not depend on ours) */
	o.buildid_dir = "";
	*damaged = false;
	rc = pms_session__open(&s, path, &o, &e);
	if (rc) {
		*damaged = true;
		snprintf(msg, msg_size, "%s", e.msg);
		return -1;
	}
	while ((rc = pms_session__next(s, &ss)) > 0) {
		cr_assert_geq(ss->nr_frames, 1);
		cr_assert_not_null(ss->frames[0].res.dso);
		n++;
	}
	if (rc < 0 || pms_data_reader__error(pms_session__reader(s))->err) {
		*damaged = true;
		snprintf(msg, msg_size, "%s", pms_data_reader__error(pms_session__reader(s))->msg);
	}
	pms_session__free(s);
	return n;
}

Test(corpus, other_peoples_files_are_read_whole, .timeout = 300)
{
	char dir[4096], path[4400], msg[400];
	struct dirent *d;
	size_t files = 0;
	DIR *dp;

	snprintf(dir, sizeof(dir), "%s/tests/fixtures/perfdata/quipper", top_dir());
	dp = opendir(dir);
	cr_assert_not_null(dp, "%s", dir);
	while ((d = readdir(dp))) {
		bool damaged;
		long n;

		if (d->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, d->d_name);
		n = replay(path, &damaged, msg, sizeof(msg));
		files++;
		if (strstr(d->d_name, "corrupted")) {
			/* the one damaged file: stopped at the zero-sized record, with its offset */
			cr_expect(damaged && strstr(msg, "offset 0x"), "%s: %s", d->d_name, msg);
			continue;
		}
		cr_expect(!damaged, "%s: %s", d->d_name, msg);
		cr_expect_gt(n, 0, "%s: no samples", d->d_name);
	}
	closedir(dp);
	cr_expect_eq(files, 53);
}

Test(corpus, fuzzer_crash_inputs_are_refused_or_read_to_the_damage, .timeout = 120)
{
	char dir[4096], path[4400], msg[400];
	struct dirent *d;
	size_t files = 0, refused = 0;
	DIR *dp;

	snprintf(dir, sizeof(dir), "%s/tests/fixtures/perfdata/fuzz-crashes", top_dir());
	dp = opendir(dir);
	cr_assert_not_null(dp, "%s", dir);
	while ((d = readdir(dp))) {
		bool damaged;

		if (d->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, d->d_name);
		msg[0] = '\0';
		replay(path, &damaged, msg, sizeof(msg));
		files++;
		if (damaged) {
			refused++;
			cr_expect(msg[0], "%s: refused without a message", d->d_name);
		}
	}
	closedir(dp);
	cr_expect_eq(files, 21);
	/* all but the 24-byte pipe header that holds no record */
	cr_expect_eq(refused, 20);
}
