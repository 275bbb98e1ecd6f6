// SPDX-License-Identifier: MIT
// libFuzzer target: arbitrary bytes through inject -b (the replay, the copy into a file and into a stream), the copies read back.
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "aggregate/inject.h"
#include "data/reader.h"
#include "data/writer.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* What inject wrote must read back whole: the copy of a readable input is readable. */
static void read_back(int fd)
{
	const struct perf_event_header *ev;
	struct pms_data_reader *r;
	struct pms_data_error e;
	off_t end = lseek(fd, 0, SEEK_END);
	uint8_t *buf;
	int got;

	if (end <= 0 || !(buf = malloc((size_t)end)))
		return;
	if (pread(fd, buf, (size_t)end, 0) != end) {
		free(buf);
		return;
	}
	if (pms_data_reader__open_mem(&r, buf, (size_t)end, NULL, &e))
		abort();
	while ((got = pms_data_reader__next(r, &ev, NULL)) == 1)
		;
	if (got < 0)
		abort();
	pms_data_reader__free(r);
	free(buf);
}

static void inject(struct pms_data_reader *r, bool pipe, bool all)
{
	struct pms_data_writer_opts wo = { .sz = sizeof(wo), .pipe = pipe };
	struct pms_inject_opts io = { .sz = sizeof(io), .pipe = pipe, .all = all };
	struct pms_data_writer *w;
	int fd = memfd_create("pms-fuzz-inject", 0);
	int err;

	if (fd < 0)
		return;
	if (!pms_data_writer__open_fd(&w, fd, &wo)) {
		err = pms_inject__build_ids(r, w, &io, NULL, NULL, NULL);
		if (!err)
			err = pms_data_writer__close(w);
		pms_data_writer__free(w);
		if (!err)
			read_back(fd);
	}
	close(fd);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* A private copy, so a read past the input is caught exactly by ASan. */
	uint8_t *copy = malloc(size ? size : 1);
	struct pms_data_reader *r;
	struct pms_data_error e;

	if (!copy)
		return 0;
	memcpy(copy, data, size);
	if (!pms_data_reader__open_mem(&r, copy, size, NULL, &e)) {
		inject(r, false, size & 1);
		inject(r, true, false);
		pms_data_reader__free(r);
	}
	free(copy);
	return 0;
}
