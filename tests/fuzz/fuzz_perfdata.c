// SPDX-License-Identifier: MIT
// libFuzzer target: arbitrary bytes through the perf.data reader (strict and recovery), every record and accessor, and perf's header text.
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "data/features.h"
#include "data/header_text.h"
#include "data/reader.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void walk(const uint8_t *data, size_t size, bool recover)
{
	struct pms_data_reader_opts opts = { .sz = sizeof(opts), .recover = recover };
	const struct perf_event_header *ev;
	const struct pms_data_features *f;
	struct pms_data_reader *r;
	struct pms_data_error e;
	volatile size_t sink = 0;
	uint64_t off;

	if (pms_data_reader__open_mem(&r, data, size, &opts, &e)) {
		sink += strlen(e.msg);
		return;
	}
	for (size_t i = 0; i < pms_data_reader__nr_attrs(r); i++) {
		size_t nr;
		const uint64_t *ids = pms_data_reader__attr_ids(r, i, &nr);

		sink += pms_data_reader__attr(r, i)->sample_type;
		if (nr)
			sink += (size_t)pms_data_reader__attr_of_id(r, ids[nr - 1]);
		if (pms_data_reader__attr_name(r, i))
			sink += strlen(pms_data_reader__attr_name(r, i));
	}
	if (!recover) { /* the header text decodes PMU capabilities from the raw features */
		struct strbuf sb = STRBUF_INIT;

		pms_data_header__text(r, NULL, &sb);
		sink += sb.len;
		strbuf_release(&sb);
	}
	f = pms_data_reader__features(r);
	for (size_t i = 0; i < f->nr_build_ids; i++)
		sink += strlen(f->build_ids[i].filename);
	for (uint32_t i = 0; i < f->nr_cmdline; i++)
		sink += strlen(f->cmdline[i]);
	while (pms_data_reader__next(r, &ev, &off) == 1) {
		/* Touch the whole record: it must be inside memory we own. */
		const uint8_t *p = (const uint8_t *)ev;

		for (size_t k = 0; k < ev->size; k += 7)
			sink += p[k];
		sink += (size_t)pms_data_reader__record_attr(r, ev);
	}
	sink += strlen(pms_data_reader__error(r)->msg);
	pms_data_reader__free(r);
	(void)sink;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* A private copy, so a read past the input is caught exactly by ASan. */
	uint8_t *copy = malloc(size ? size : 1);

	if (!copy)
		return 0;
	memcpy(copy, data, size);
	walk(copy, size, false);
	walk(copy, size, true);
	free(copy);
	return 0;
}
