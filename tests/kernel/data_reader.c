// SPDX-License-Identifier: MIT
// Test program for tests/kernel/test_data.sh: reads a perf.data file with lib/data and prints counts.
//
// usage: data_reader [--recover] FILE
// Prints "samples=N records=N attrs=N scanned_to_eof=0|1" and then, one per
// line, "hostname=...", "osrelease=...", "event0=<name>", "buildids=N",
// "warning=..." and "error=..." when there are any. Exit 0, or 1 when the
// file could not be read to its end.
#include <stdio.h>
#include <string.h>

#include "data/reader.h"

int main(int argc, char **argv)
{
	struct pms_data_reader_opts opts = { .sz = sizeof(opts) };
	struct pms_data_reader *r;
	struct pms_data_error e;
	const struct perf_event_header *ev;
	const struct pms_data_features *f;
	unsigned long samples = 0, records = 0;
	const char *path = NULL;
	int err;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--recover"))
			opts.recover = true;
		else
			path = argv[i];
	}
	if (!path) {
		fprintf(stderr, "usage: %s [--recover] FILE\n", argv[0]);
		return 2;
	}
	err = pms_data_reader__open(&r, path, &opts, &e);
	if (err) {
		printf("error=%s\n", e.msg);
		return 1;
	}
	while ((err = pms_data_reader__next(r, &ev, NULL)) == 1) {
		records++;
		if (ev->type == PERF_RECORD_SAMPLE)
			samples++;
	}
	f = pms_data_reader__features(r);
	printf("samples=%lu records=%lu attrs=%zu scanned_to_eof=%d\n", samples, records,
	       pms_data_reader__nr_attrs(r), pms_data_reader__scanned_to_eof(r));
	if (f->hostname)
		printf("hostname=%s\n", f->hostname);
	if (f->osrelease)
		printf("osrelease=%s\n", f->osrelease);
	for (size_t i = 0; i < pms_data_reader__nr_attrs(r); i++)
		if (pms_data_reader__attr_name(r, i))
			printf("event%zu=%s\n", i, pms_data_reader__attr_name(r, i));
	printf("buildids=%zu\n", f->nr_build_ids);
	for (uint32_t i = 0; i < f->nr_pmu_mappings; i++)
		printf("pmu=%s=%u\n", f->pmu_mappings[i].name, f->pmu_mappings[i].type);
	if (pms_data_reader__warning(r))
		printf("warning=%s\n", pms_data_reader__warning(r));
	if (pms_data_reader__error(r)->err)
		printf("error=%s\n", pms_data_reader__error(r)->msg);
	pms_data_reader__free(r);
	return err < 0 ? 1 : 0;
}
