// SPDX-License-Identifier: MIT
// `pmuscope archive [FILE]`: the build-id cache entries of the objects a perf.data file names, as FILE.tar.gz (perf archive's layout).
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd.h"
#include "data_input.h"
#include "aggregate/objects.h"
#include "data/reader.h"
#include "symbol/buildid_archive.h"
#include "symbol/buildid_cache.h"
#include "util/fileio.h"
#include "util/hex.h"

/* Every option's value: reset_opts() sets them all back to the defaults. */
static struct archive_opts {
	const char *output;
} o;

static const struct opt opts[] = {
	OPT_STRING('o', "output", &o.output, "<file>", "write the archive here (default <file>.tar.gz)"),
	OPT_END(),
};

static void reset_opts(void)
{
	o = (struct archive_opts){ 0 };
}

static const char *why(int status)
{
	switch (-status) {
	case ENOENT:
		return "not in the build-id cache, and not on this machine";
	case ESTALE:
		return "not in the build-id cache, and the one here has another build-id (rebuilt, or another kernel)";
	case ENODATA:
		return "kallsyms is restricted here (kernel.kptr_restrict), so it was never saved";
	case EOPNOTSUPP:
		return "this build cannot read ELF files to check them";
	default:
		return strerror(-status);
	}
}

/* The objects with a build-id that the archive should carry (see docs/buildid.md), into *out. */
static size_t pick_objects(const struct pms_objects *objs, bool only_hits, struct pms_archive_object **out)
{
	struct pms_archive_object *a = xcalloc(pms_objects__nr(objs), sizeof(*a));
	size_t n = 0;

	for (size_t i = 0; i < pms_objects__nr(objs); i++) {
		const struct pms_object *ob = pms_objects__at(objs, i);

		if (!ob->build_id_size || (only_hits && !ob->hit) || ob->machine != PMS_MACHINE_HOST)
			continue;
		a[n].name = ob->name;
		a[n].id = ob->build_id;
		a[n].id_size = ob->build_id_size;
		a[n].kernel = ob->kernel;
		n++;
	}
	*out = a;
	return n;
}

static int run(int argc, char **argv)
{
	struct pms_data_reader_opts ro = { .sz = sizeof(ro) };
	struct pms_archive_object *arch = NULL;
	struct pms_archive_stats st;
	struct pms_data_reader *r = NULL;
	struct pms_objects *objs = NULL;
	struct pms_data_error derr;
	char dir[PATH_MAX], *out = NULL;
	struct pms_file_replace rep;
	const char *path = "perf.data";
	size_t nr, nr_missing = 0;
	bool only_hits;
	int first, err, ret = EXIT_RUNTIME;

	first = opt_parse(&cmd_archive, &argc, argv, 0);
	if (argc - first > 1)
		usage_error(&cmd_archive, "one perf.data file at most");
	if (first < argc)
		path = argv[first];
	if (!strcmp(path, "-"))
		usage_error(&cmd_archive, "archive needs a perf.data file, not a stream");
	if (pms_buildid_cache__dir(dir, sizeof(dir)))
		return error("no build-id cache: set HOME or PMS_BUILDID_DIR"), EXIT_RUNTIME;
	memset(&derr, 0, sizeof(derr));
	err = pms_data_reader__open(&r, path, &ro, &derr);
	if (err) {
		data_input__open_error(path, err, &derr, "record one with `pmuscope record`");
		return EXIT_RUNTIME;
	}
	/*
	 * The build-id table names what the recording needs (callers' libraries
	 * too, in our files); without one, the objects samples hit, as perf
	 * archive takes them from buildid-list --with-hits.
	 */
	err = pms_objects__from_file(r, false, &objs, &only_hits);
	if (err == -ENOMEM)
		die("out of memory");
	if (err) {
		const struct pms_data_error *e = pms_data_reader__error(r);

		error("%s: %s", path, e->err ? e->msg : strerror(-err));
		goto out;
	}
	nr = pick_objects(objs, only_hits, &arch);
	if (!nr) {
		error("'%s' names no object with a build-id: nothing to archive (recorded with -B?)", path);
		goto out;
	}
	if (o.output)
		out = xstrdup(o.output);
	else if (asprintf(&out, "%s.tar.gz", path) < 0)
		die("out of memory");
	/* written whole under a temporary name, so a failed archive never replaces a good one */
	err = pms_file_replace__begin(&rep, out);
	if (err) {
		error("cannot create %s: %s", out, strerror(-err));
		goto out;
	}
	err = pms_file_replace__end(&rep, out, 0644, pms_buildid_archive__write(dir, arch, nr, rep.fd, &st));
	if (err) {
		error("cannot write %s: %s", out, strerror(-err));
		goto out;
	}
	for (size_t i = 0; i < nr; i++) {
		char hex[2 * PMS_BUILD_ID_MAX + 1];

		if (!arch[i].status)
			continue;
		pms_hex__encode(arch[i].id, arch[i].id_size, hex);
		warning("not archived: %s %s: %s", hex, arch[i].name, why(arch[i].status));
		nr_missing++;
	}
	if (!st.nr_archived) {
		unlink(out);
		error("none of the %zu objects '%s' names is in the build-id cache %s", nr, path, dir);
		goto out;
	}
	{
		struct stat sb;

		fprintf(stderr, "[ pmuscope archive: %zu of %zu objects (%.3f MB) in %s (%.3f MB) ]\n",
			st.nr_archived, nr, (double)st.file_bytes / (1024.0 * 1024.0), out,
			stat(out, &sb) ? 0.0 : (double)sb.st_size / (1024.0 * 1024.0));
	}
	/* perf archive's instructions, for the cache this machine's tools read by default */
	printf("Now please run:\n\n$ tar xvf %s -C ~/.debug\n\n"
	       "wherever you need to run 'pmuscope report' (or 'perf report') on.\n", out);
	/* what is missing was said above; the archive is still what can be had */
	ret = 0;
out:
	free(arch);
	free(out);
	pms_objects__free(objs);
	pms_data_reader__free(r);
	return ret;
}

PMS_COMMAND(archive, "archive",
	    "pack the objects a perf.data file names into FILE.tar.gz (perf archive)",
	    "pmuscope archive [-o <archive>] [<file>]");
