// SPDX-License-Identifier: MIT
// Test program for tests/kernel/test_data.sh: writes a synthetic perf.data profile of a binary with lib/data.
//
// usage: data_writer OUT BINARY HOT_ADDR WARM_ADDR [-z] [--kill N] [--pipe]
// 1000 cpu-clock samples, 3 in hot for 1 in warm, after COMM + MMAP2 of the
// binary's executable segment and with its real build-id. --kill N flushes
// after N samples, buffers a few more and _exit()s without finalizing, as a
// SIGKILLed recorder would.
#include <elf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "data/features.h"
#include "data/writer.h"
#include "util/fileio.h"

#define BASE 0x555555554000ULL

struct sample {
	struct perf_event_header h;
	uint64_t ip;
	uint32_t pid, tid;
	uint64_t time;
	uint64_t period;
};

static int elf_info(const char *path, uint64_t *vaddr, uint64_t *off, uint64_t *len, uint8_t *id,
		    size_t *id_len)
{
	char *buf;
	size_t n;
	const Elf64_Ehdr *eh;

	if (pms_file__read_all(path, &buf, &n) || n < sizeof(*eh))
		return -1;
	eh = (const void *)buf;
	*id_len = 0;
	*len = 0;
	for (int i = 0; i < eh->e_phnum; i++) {
		const Elf64_Phdr *ph = (const void *)(buf + eh->e_phoff + (size_t)i * eh->e_phentsize);

		if ((size_t)((const char *)(ph + 1) - buf) > n)
			break;
		if (ph->p_type == PT_LOAD && (ph->p_flags & PF_X)) {
			*vaddr = ph->p_vaddr & ~0xfffULL;
			*off = ph->p_offset & ~0xfffULL;
			*len = ((ph->p_vaddr + ph->p_memsz + 0xfff) & ~0xfffULL) - *vaddr;
		}
		if (ph->p_type == PT_NOTE && ph->p_offset + ph->p_filesz <= n) {
			size_t p = ph->p_offset, end = ph->p_offset + ph->p_filesz;

			while (p + sizeof(Elf64_Nhdr) <= end) {
				const Elf64_Nhdr *nh = (const void *)(buf + p);
				size_t name = p + sizeof(*nh), desc = name + ((nh->n_namesz + 3) & ~3u);

				if (nh->n_type == NT_GNU_BUILD_ID && nh->n_descsz <= 20 &&
				    desc + nh->n_descsz <= end) {
					memcpy(id, buf + desc, nh->n_descsz);
					*id_len = nh->n_descsz;
				}
				p = desc + ((nh->n_descsz + 3) & ~3u);
			}
		}
	}
	free(buf);
	return *len ? 0 : -1;
}

int main(int argc, char **argv)
{
	struct pms_data_writer_opts opts = { .sz = sizeof(opts) };
	struct perf_event_attr attr = {
		.type = PERF_TYPE_SOFTWARE,
		.size = sizeof(attr),
		.config = PERF_COUNT_SW_CPU_CLOCK,
		.sample_period = 1000000,
		.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD,
		.sample_id_all = 1,
		.exclude_kernel = 1,
		.disabled = 1,
		.enable_on_exec = 1,
	};
	struct pms_data_writer *w;
	uint64_t vaddr, off, len, hot, warm;
	uint8_t id[20];
	size_t id_len;
	int kill_after = -1, err;
	const uint32_t pid = 4242;

	if (argc < 5) {
		fprintf(stderr, "usage: %s OUT BINARY HOT_ADDR WARM_ADDR [-z] [--kill N] [--pipe]\n", argv[0]);
		return 2;
	}
	hot = strtoull(argv[3], NULL, 16);
	warm = strtoull(argv[4], NULL, 16);
	for (int i = 5; i < argc; i++) {
		if (!strcmp(argv[i], "-z"))
			opts.compress_level = 3;
		else if (!strcmp(argv[i], "--pipe"))
			opts.pipe = true;
		else if (!strcmp(argv[i], "--kill") && i + 1 < argc)
			kill_after = atoi(argv[++i]); /* test program, not lib */
	}
	if (elf_info(argv[2], &vaddr, &off, &len, id, &id_len)) {
		fprintf(stderr, "cannot read ELF program headers of %s\n", argv[2]);
		return 1;
	}
	err = pms_data_writer__open(&w, argv[1], &opts);
	if (err) {
		fprintf(stderr, "open %s: %s\n", argv[1], strerror(-err));
		return 1;
	}
	err = pms_data_writer__add_attr(w, &attr, "cpu-clock:u", NULL, 0);
	err = err ?: pms_data_features__from_host(pms_data_writer__features(w), argc, argv);
	if (!err && id_len)
		err = pms_data_features__add_build_id(pms_data_writer__features(w), argv[2], id, id_len,
						      -1, PERF_RECORD_MISC_USER);
	err = err ?: pms_data_writer__comm(w, pid, pid, "pms-demo", true, NULL);
	if (!err) {
		struct pms_data_mmap2 m = {
			.pid = pid, .tid = pid, .addr = BASE + vaddr, .len = len, .pgoff = off,
			.prot = 5 /* r-x */, .flags = 2 /* MAP_PRIVATE */, .filename = argv[2],
		};

		err = pms_data_writer__mmap2(w, &m, NULL);
	}
	for (int i = 0; i < 1000 && !err; i++) {
		struct sample s = {
			.h = { .type = PERF_RECORD_SAMPLE, .misc = PERF_RECORD_MISC_USER, .size = sizeof(s) },
			.ip = BASE + (i % 4 == 3 ? warm : hot) + 4,
			.pid = pid, .tid = pid,
			.time = 1000000000ULL + (uint64_t)i * 1000000,
			.period = 1000000,
		};

		err = pms_data_writer__write(w, &s, sizeof(s));
		if (!err && i % 250 == 249)
			err = pms_data_writer__finished_round(w);
		if (!err && i + 1 == kill_after) {
			err = pms_data_writer__flush(w);
			for (int j = 0; j < 10 && !err; j++)
				err = pms_data_writer__write(w, &s, sizeof(s));
			_exit(err ? 1 : 0); /* no close: what a SIGKILL leaves */
		}
	}
	err = err ?: pms_data_writer__exit(w, pid, pid, pid, pid, 2000000000ULL, NULL);
	err = err ?: pms_data_writer__close(w);
	pms_data_writer__free(w);
	if (err) {
		fprintf(stderr, "write %s: %s\n", argv[1], strerror(-err));
		return 1;
	}
	return 0;
}
