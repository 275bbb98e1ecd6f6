// SPDX-License-Identifier: MIT
// `pmuscope buildid-list`: the build-ids a perf.data file names, the running kernel's, or an ELF file's, as perf buildid-list prints them.
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"
#include "data_input.h"
#include "aggregate/objects.h"
#include "data/reader.h"
#ifndef PMS_NO_HOST_LIBS
#include "symbol/dso.h"
#endif
#include "symbol/kallsyms.h"
#include "util/hex.h"

/* Every option's value: reset_opts() sets them all back to the defaults. */
static struct buildid_list_opts {
	const char *input;
	bool kernel, with_hits;
} o;

static const struct opt opts[] = {
	OPT_STRING('i', "input", &o.input, "<file>", "input file (default perf.data, - for stdin; an ELF file: its build-id)"),
	OPT_BOOL('k', "kernel", &o.kernel, "show the running kernel's build-id"),
	OPT_BOOL('H', "with-hits", &o.with_hits, "show only objects with samples"),
	OPT_END(),
};

static void reset_opts(void)
{
	o = (struct buildid_list_opts){ 0 };
}

/* perf's line: the build-id left-aligned in 40 columns (blank when unknown), a space, the name. */
static void print_line(const uint8_t *id, size_t size, const char *name)
{
	char hex[2 * PMS_BUILD_ID_MAX + 1];

	pms_hex__encode(id, size, hex);
	printf("%-40s %s\n", hex, name);
}

static int kernel_build_id(void)
{
	uint8_t id[PMS_BUILD_ID_MAX];
	char hex[2 * PMS_BUILD_ID_MAX + 1];
	int n = pms_kernel__build_id(id, sizeof(id));

	if (n <= 0)
		return error("cannot read the kernel's build-id from /sys/kernel/notes: %s",
			     strerror(n < 0 ? -n : ENOENT)), EXIT_RUNTIME;
	printf("%s\n", pms_hex__encode(id, (size_t)n, hex));
	return 0;
}

/* perf buildid-list looks at an ELF file first: 1 when path is one (and was handled), 0 when not. */
static int elf_build_id(const char *path, int *ret)
{
	unsigned char magic[4];
	ssize_t n;
	int fd;

	if (!strcmp(path, "-") || (fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return 0;
	n = read(fd, magic, sizeof(magic));
	close(fd);
	if (n != 4 || memcmp(magic, "\177ELF", 4))
		return 0;
#ifdef PMS_NO_HOST_LIBS
	error("'%s': reading ELF files needs libelf, which this build has not", path);
	*ret = EXIT_RUNTIME;
#else
	{
		uint8_t id[PMS_BUILD_ID_MAX];
		char hex[2 * PMS_BUILD_ID_MAX + 1];
		int got = pms_build_id__read(path, id, sizeof(id));

		if (got <= 0) {
			error("'%s' is an ELF file without a build-id", path);
			*ret = EXIT_RUNTIME;
			return 1;
		}
		printf("%s\n", pms_hex__encode(id, (size_t)got, hex));
		*ret = 0;
	}
#endif
	return 1;
}

static int run(int argc, char **argv)
{
	struct pms_data_reader_opts ro = { .sz = sizeof(ro) };
	struct pms_data_reader *r = NULL;
	struct pms_objects *objs = NULL;
	struct pms_data_error derr;
	const char *path;
	bool only_hits = false;
	int err, ret = 0;

	if (opt_parse(&cmd_buildid_list, &argc, argv, 0) < argc)
		usage_error(&cmd_buildid_list, "unexpected argument '%s' (name the file with -i)", argv[1]);
	/* -k answers about this machine, whatever file is named (as perf) */
	if (o.kernel)
		return kernel_build_id();
	path = o.input ? o.input : "perf.data";
	if (elf_build_id(path, &ret))
		return ret;
	memset(&derr, 0, sizeof(derr));
	err = pms_data_reader__open(&r, path, &ro, &derr);
	if (err) {
		data_input__open_error(path, err, &derr, DATA_INPUT_RECORD_OR_I);
		return EXIT_RUNTIME;
	}
	err = pms_objects__from_file(r, o.with_hits, &objs, &only_hits);
	if (err == -ENOMEM)
		die("out of memory");
	if (err) {
		/* as perf: damage in the records stops it before it lists anything */
		const struct pms_data_error *e = pms_data_reader__error(r);

		error("%s: %s", path, e->err ? e->msg : strerror(-err));
		ret = EXIT_RUNTIME;
	} else {
		for (size_t i = 0; i < pms_objects__nr(objs); i++) {
			const struct pms_object *ob = pms_objects__at(objs, i);

			if (!only_hits || ob->hit)
				print_line(ob->build_id, ob->build_id_size, ob->name);
		}
	}
	pms_objects__free(objs);
	pms_data_reader__free(r);
	return ret;
}

PMS_COMMAND(buildid_list, "buildid-list",
	    "list the build-ids a perf.data file names (perf buildid-list)",
	    "pmuscope buildid-list [-i <file>] [-H] | -k");
