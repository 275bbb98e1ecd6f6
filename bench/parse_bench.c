// SPDX-License-Identifier: MIT
// ns per event-string encode: pms_evlist__parse() vs libpfm4's pfm_get_os_event_encoding(), same process.
#include <perfmon/pfmlib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "event/event.h"
#include "event/pmu.h"

/*
 * pfmlib_perf_event.h brings its own copy of the perf_event uapi, which
 * clashes with <linux/perf_event.h>; this is its documented argument layout.
 */
typedef struct {
	struct perf_event_attr *attr;
	char **fstr;
	size_t size;
	int idx;
	int cpu;
	int flags;
	int pad0;
} pfm_perf_encode_arg_t;

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

/* Loading is lazy and reads $PMS_SYSFS_ROOT, so each context is loaded fully while its root is set. */
static struct pms_event_ctx *load(const char *root)
{
	struct pms_event_ctx *c;
	size_t nr;

	if (root)
		setenv("PMS_SYSFS_ROOT", root, 1);
	else
		unsetenv("PMS_SYSFS_ROOT");
	c = pms_event_ctx__new();
	if (!c) {
		perror("pms_event_ctx__new");
		exit(1);
	}
	pms_event_ctx__pmus(c, &nr);
	return c;
}

static double time_ours(struct pms_event_ctx *ctx, const char *s, int iters)
{
	struct pms_parse_error err;
	double t0, best = 1e30;

	for (int rep = 0; rep < 5; rep++) {
		t0 = now_ns();
		for (int i = 0; i < iters; i++) {
			struct pms_evlist l = { 0 };

			if (pms_evlist__parse(&l, ctx, s, &err)) {
				fprintf(stderr, "parse '%s' failed: %s\n", s, err.msg);
				exit(1);
			}
			pms_evlist__release(&l);
		}
		double t = (now_ns() - t0) / iters;
		if (t < best)
			best = t;
	}
	return best;
}

/* The first of the '|'-separated libpfm4 spellings this machine's libpfm4 encodes, into buf; NULL if none. */
static const char *pfm_peer(const char *alts, char *buf, size_t size)
{
	char copy[512], *save, *tok;

	snprintf(copy, sizeof(copy), "%s", alts);
	for (tok = strtok_r(copy, "|", &save); tok; tok = strtok_r(NULL, "|", &save)) {
		struct perf_event_attr attr;
		pfm_perf_encode_arg_t arg;

		memset(&attr, 0, sizeof(attr));
		memset(&arg, 0, sizeof(arg));
		arg.attr = &attr;
		arg.size = sizeof(arg);
		if (pfm_get_os_event_encoding(tok, PFM_PLM0 | PFM_PLM3, PFM_OS_PERF_EVENT_EXT, &arg) == PFM_SUCCESS) {
			snprintf(buf, size, "%s", tok);
			return buf;
		}
	}
	return NULL;
}

/* libpfm4 encodes one event per call; a group of n costs n calls. */
static double time_pfm(const char *spec, int iters)
{
	char buf[256], *save, *tok;
	double t0, best = 1e30;

	for (int rep = 0; rep < 5; rep++) {
		t0 = now_ns();
		for (int i = 0; i < iters; i++) {
			snprintf(buf, sizeof(buf), "%s", spec);
			for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
				struct perf_event_attr attr;
				pfm_perf_encode_arg_t arg;
				int r;

				memset(&attr, 0, sizeof(attr));
				memset(&arg, 0, sizeof(arg));
				arg.attr = &attr;
				arg.size = sizeof(arg);
				r = pfm_get_os_event_encoding(tok, PFM_PLM0 | PFM_PLM3, PFM_OS_PERF_EVENT_EXT, &arg);
				if (r != PFM_SUCCESS) {
					fprintf(stderr, "libpfm4 '%s': %s\n", tok, pfm_strerror(r));
					exit(1);
				}
			}
		}
		double t = (now_ns() - t0) / iters;
		if (t < best)
			best = t;
	}
	return best;
}

int main(int argc, char **argv)
{
	/* pmuscope string, libpfm4 equivalent (NULL: libpfm4 has no such syntax), which context */
	static const struct { const char *ours, *pfm; int intel; } cases[] = {
		{ "cycles", "cycles", 0 },
		{ "cache-misses:u", "perf::cache-misses:u", 0 },
		{ "{cycles,instructions}:S", "cycles,instructions", 0 },
		{ "L1-dcache-load-misses", "perf::L1-DCACHE-LOAD-MISSES", 0 },
		{ "r1234", "perf_raw::r1234", 0 },
		/* the same raw encoding: a named core event where libpfm4 detects this CPU's PMU, else its
		   perf_raw PMU (always there); the first that encodes here is the peer */
		{ "cpu/event=0x3c,umask=0/", "amd64_fam19h_zen3::RETIRED_INSTRUCTIONS|ix86arch::UNHALTED_CORE_CYCLES|perf_raw::r003c", 1 },
		{ "msr/tsc/", NULL, 0 },
		{ "sched:sched_switch", NULL, 0 },
		{ "uncore_imc_0/cas_count_read/", NULL, 1 },
	};
	const char *fixtures = argc > 1 ? argv[1] : "tests/fixtures";
	int iters = argc > 2 ? atoi(argv[2]) : 20000;
	char intel_root[4096], tracefs[4096];
	struct pms_event_ctx *real, *intel;
	double sum_ours = 0, sum_pfm = 0, t0, init_ours = 1e30, init_pfm = 1e30;
	int n_common = 0, have_pfm;

	snprintf(intel_root, sizeof(intel_root), "%s/sysfs/intel", fixtures);
	snprintf(tracefs, sizeof(tracefs), "%s/tracefs/default", fixtures);
	setenv("PMS_TRACEFS_ROOT", tracefs, 1); /* tracefs may not be mounted; a fixture costs the same reads */

	/* cold init: context + the first encode that loads the core PMU's formats and aliases */
	for (int rep = 0; rep < 20; rep++) {
		struct pms_evlist l = { 0 };
		struct pms_parse_error err;
		struct pms_event_ctx *c;

		setenv("PMS_SYSFS_ROOT", intel_root, 1);
		t0 = now_ns();
		c = pms_event_ctx__new();
		if (!c || pms_evlist__parse(&l, c, "cpu/event=0x3c,umask=0/", &err)) {
			fprintf(stderr, "init failed\n");
			return 1;
		}
		double t = now_ns() - t0;
		pms_evlist__release(&l);
		pms_event_ctx__free(c);
		if (t < init_ours)
			init_ours = t;
	}
	have_pfm = pfm_initialize() == PFM_SUCCESS;
	for (int rep = 0; have_pfm && rep < 20; rep++) {
		pfm_terminate();
		t0 = now_ns();
		if (pfm_initialize() != PFM_SUCCESS)
			return 1;
		double t = now_ns() - t0;
		if (t < init_pfm)
			init_pfm = t;
	}

	real = load(NULL);
	intel = load(intel_root);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		double o = time_ours(cases[i].intel ? intel : real, cases[i].ours, iters);
		char peer_buf[128];
		const char *peer = cases[i].pfm && have_pfm ? pfm_peer(cases[i].pfm, peer_buf, sizeof(peer_buf)) : NULL;

		if (cases[i].pfm && have_pfm && !peer) {
			printf("  %-30s pmuscope %6.0f ns   libpfm4    n/a (none of %s encodes here)\n", cases[i].ours, o,
			       cases[i].pfm);
		} else if (peer) {
			double p = time_pfm(peer, iters);

			printf("  %-30s pmuscope %6.0f ns   libpfm4 %6.0f ns  (%s)\n", cases[i].ours, o, p, peer);
			sum_ours += o;
			sum_pfm += p;
			n_common++;
		} else {
			printf("  %-30s pmuscope %6.0f ns   libpfm4    n/a\n", cases[i].ours, o);
		}
	}
	if (n_common)
		printf("parse: pmuscope %.0f ns, libpfm4 %.0f ns, ratio %.2fx\n", sum_ours / n_common,
		       sum_pfm / n_common, sum_ours / sum_pfm);
	if (have_pfm)
		printf("init: pmuscope %.1f us, libpfm4 %.1f us, ratio %.2fx\n", init_ours / 1e3, init_pfm / 1e3,
		       init_ours / init_pfm);
	else
		printf("init: pmuscope %.1f us, libpfm4 n/a\n", init_ours / 1e3);
	pms_event_ctx__free(real);
	pms_event_ctx__free(intel);
	return 0;
}
