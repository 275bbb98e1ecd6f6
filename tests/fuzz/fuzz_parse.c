// SPDX-License-Identifier: MIT
// libFuzzer target: event strings through pms_evlist__parse() on the vm, intel and hybrid sysfs fixtures.
#include <libgen.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "event/attr_print.h"
#include "event/event.h"
#include "event/pmu.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct pms_event_ctx *ctx_vm, *ctx_intel, *ctx_hybrid;

/* The fixtures relative to the repository root, or to build/fuzz/<binary>. */
static void fixture_path(char *buf, size_t size, const char *argv0, const char *rel)
{
	char tmp[4096];

	if (access(rel, F_OK) == 0) {
		snprintf(buf, size, "%s", rel);
		return;
	}
	snprintf(tmp, sizeof(tmp), "%s", argv0);
	snprintf(buf, size, "%s/../../%s", dirname(tmp), rel);
}

/* Every PMU is loaded while its fixture is current: loading is lazy and reads the environment. */
static struct pms_event_ctx *load(const char *root)
{
	struct pms_event_ctx *c;
	size_t nr;

	setenv("PMS_SYSFS_ROOT", root, 1);
	c = pms_event_ctx__new();
	if (!c)
		abort();
	pms_event_ctx__pmus(c, &nr);
	return c;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	char p[4096];

	(void)argc;
	fixture_path(p, sizeof(p), (*argv)[0], "tests/fixtures/tracefs/default");
	setenv("PMS_TRACEFS_ROOT", p, 1);
	fixture_path(p, sizeof(p), (*argv)[0], "tests/fixtures/sysfs/vm");
	ctx_vm = load(p);
	fixture_path(p, sizeof(p), (*argv)[0], "tests/fixtures/sysfs/intel");
	ctx_intel = load(p);
	fixture_path(p, sizeof(p), (*argv)[0], "tests/fixtures/sysfs/hybrid");
	ctx_hybrid = load(p);
	return 0;
}

static void one(struct pms_event_ctx *ctx, const char *s, size_t len)
{
	struct pms_evlist list = { 0 };
	struct pms_parse_error err;
	struct strbuf sb = STRBUF_INIT;
	size_t i;
	int rc;

	/* a first event, so that failures must leave an existing list untouched */
	if (pms_evlist__parse(&list, ctx, "cpu-clock", &err) != 0 || list.nr != 1)
		abort();
	rc = pms_evlist__parse(&list, ctx, s, &err);
	if (rc) {
		if (rc > 0 || err.err != rc || err.pos > len || list.nr != 1)
			abort();
		pms_parse_error__format(&err, s, &sb);
	} else {
		if (list.nr < 2)
			abort();
		for (i = 0; i < list.nr; i++) {
			const struct pms_evsel *e = &list.entries[i];

			if (e->leader_idx < 0 || (size_t)e->leader_idx > i || !e->name ||
			    e->attr.size != sizeof(struct perf_event_attr))
				abort();
			if (e->leader_idx == (int)i && e->nr_members &&
			    (size_t)e->leader_idx + (size_t)e->nr_members > list.nr)
				abort();
			pms_attr__format(&e->attr, &sb);
		}
	}
	strbuf_release(&sb);
	pms_evlist__release(&list);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);

	if (!s)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';
	one(ctx_vm, s, strlen(s));
	one(ctx_intel, s, strlen(s));
	one(ctx_hybrid, s, strlen(s));
	free(s);
	return 0;
}
