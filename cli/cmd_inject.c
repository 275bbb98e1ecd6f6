// SPDX-License-Identifier: MIT
// `pmuscope inject`: a perf.data file or stream copied with the build-ids its samples need (perf inject -b).
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "cmd.h"
#include "data_input.h"
#include "aggregate/inject.h"
#include "data/reader.h"
#include "data/writer.h"
#include "util/hex.h"

/* Every option's value: reset_opts() sets them all back to the defaults. */
static struct inject_opts {
	const char *input, *output, *known;
	bool build_ids, buildid_all, force, verbose;
} o;

#define AUX_ONLY "pmuscope decodes no AUX area traces (Intel PT, CoreSight, SPE)"

static const struct opt opts[] = {
	OPT_BOOL('b', "build-ids", &o.build_ids, "add the build-ids of the objects samples hit"),
	OPT_BOOL(0, "buildid-all", &o.buildid_all, "add the build-ids of every object mapped"),
	OPT_BOOL('f', "force", &o.force, "read a file another user owns"),
	OPT_STRING('i', "input", &o.input, "<file>", "input file (default - : stdin)"),
	OPT_STRING('o', "output", &o.output, "<file>", "output file (default - : stdout, a pipe stream)"),
	OPT_BOOL('v', "verbose", &o.verbose, "name each object and the build-id it gets"),
	OPT_REFUSED('j', "jit", NULL,
		    "jitdump files are not merged: report names JIT code from /tmp/perf-PID.map instead"),
	OPT_REFUSED('s', "sched-stat", NULL,
		    "not implemented: sched_stat_* samples are not merged into sched_switch ones"),
	OPT_REFUSED('k', "vmlinux", "<file>", "used by perf inject for --itrace decoding only; " AUX_ONLY),
	OPT_REFUSED(0, "kallsyms", "<file>", "used by perf inject for --itrace decoding only; " AUX_ONLY),
	OPT_REFUSED(0, "ignore-vmlinux", NULL, "used by perf inject for --itrace decoding only; " AUX_ONLY),
	OPT_REFUSED(0, "itrace", "[=<opts>]", AUX_ONLY),
	OPT_REFUSED(0, "strip", NULL, "strips what --itrace did not synthesize; " AUX_ONLY),
	OPT_REFUSED(0, "vm-time-correlation", "[=<opts>]", "an AUX area (Intel PT) time fix-up; " AUX_ONLY),
	OPT_REFUSED(0, "guest-data", "[=<opts>]", "not applicable: pmuscope records no virtual machine guests"),
	OPT_REFUSED(0, "guestmount", "<directory>", "not applicable: pmuscope records no virtual machine guests"),
	OPT_STRING(0, "known-build-ids", &o.known, "<buildid path[,...]>",
		   "use these build-ids for these paths (before the input's and the files')"),
	OPT_END(),
};

static void reset_opts(void)
{
	o = (struct inject_opts){ 0 };
}

/* -v: each object wanted and the build-id it gets, as perf buildid-list prints them. */
static void show_object(void *ctx, const char *name, const uint8_t *id, size_t size)
{
	char hex[2 * PMS_BUILD_ID_MAX + 1];

	(void)ctx;
	if (size)
		note("build-id %s %s", pms_hex__encode(id, size, hex), name);
	else
		note("no build-id for %s (not readable here)", name);
}

/* Writing over the file being read would destroy it before it is read. */
static bool same_file(const char *a, const char *b)
{
	struct stat sa, sb;

	return strcmp(a, "-") && strcmp(b, "-") && !stat(a, &sa) && !stat(b, &sb) && sa.st_dev == sb.st_dev &&
	       sa.st_ino == sb.st_ino;
}

static int run(int argc, char **argv)
{
	struct pms_data_reader_opts ro = { .sz = sizeof(ro) };
	struct pms_data_writer_opts wo = { .sz = sizeof(wo) };
	struct pms_inject_opts io = { .sz = sizeof(io) };
	struct pms_known_build_id *known = NULL;
	struct pms_inject_stats st;
	struct pms_data_reader *r = NULL;
	struct pms_data_writer *w = NULL;
	struct pms_data_error derr;
	const char *in, *out;
	int err, ret = 0, pos;

	pos = opt_parse(&cmd_inject, &argc, argv, 0);
	if (pos < argc)
		usage_error(&cmd_inject, "unexpected argument '%s' (name the files with -i and -o)", argv[pos]);
	in = o.input ? o.input : "-";
	out = o.output ? o.output : "-";
	if (o.known) {
		const char *bad = NULL;

		err = pms_inject__parse_known(o.known, &known, &io.nr_known, &bad);
		if (err == -ENOMEM)
			die("out of memory");
		if (err)
			usage_error(&cmd_inject, "--known-build-ids: '%.*s' is not 'BUILDID PATH' (hex digits, a space, a path)",
				    (int)strcspn(bad, ","), bad);
		io.known = known;
	}
	if (same_file(in, out))
		usage_error(&cmd_inject, "'%s' is both the input and the output: write the copy elsewhere", in);
	if (data_input__check_owner(in, o.force)) {
		ret = EXIT_RUNTIME;
		goto out;
	}
	memset(&derr, 0, sizeof(derr));
	err = pms_data_reader__open(&r, in, &ro, &derr);
	if (err) {
		data_input__open_error(in, err, &derr, "record one with `pmuscope record -B`, or name it with -i");
		ret = EXIT_RUNTIME;
		goto out;
	}
	wo.pipe = !strcmp(out, "-");
	err = pms_data_writer__open(&w, out, &wo);
	if (err) {
		error("cannot write '%s': %s", out, strerror(-err));
		ret = EXIT_RUNTIME;
		goto out;
	}
	io.all = o.buildid_all;
	io.pipe = wo.pipe;
	io.copy_only = !o.build_ids && !o.buildid_all;
	err = pms_inject__build_ids(r, w, &io, &st, o.verbose || verbose ? show_object : NULL, NULL);
	if (!err)
		err = pms_data_writer__close(w);
	if (err == -EOPNOTSUPP) {
		error("'%s' has AUX area data (Intel PT, CoreSight...), which inject would not copy", in);
		hint("%s", AUX_ONLY);
		ret = EXIT_RUNTIME;
	} else if (err == -EBADMSG || err == -EPROTO) {
		const struct pms_data_error *e = pms_data_reader__error(r);

		error("%s: %s", in, e->err ? e->msg : strerror(-err));
		ret = EXIT_RUNTIME;
	} else if (err) {
		error("cannot write '%s': %s", out, strerror(-err));
		ret = EXIT_RUNTIME;
	} else if (o.verbose || verbose) {
		note("%zu build-id%s written (%zu already in the input), %zu object%s without one, %llu records copied",
		     st.nr_build_ids, st.nr_build_ids == 1 ? "" : "s", st.nr_from_input, st.nr_missing,
		     st.nr_missing == 1 ? "" : "s", (unsigned long long)st.nr_records);
	} else if (st.nr_missing && !io.copy_only) {
		warning("%zu object%s hit by samples ha%s no build-id readable here (-v names them)", st.nr_missing,
			st.nr_missing == 1 ? "" : "s", st.nr_missing == 1 ? "s" : "ve");
	}
out:
	pms_data_writer__free(w);
	pms_data_reader__free(r);
	pms_inject__free_known(known, io.nr_known);
	return ret;
}

PMS_COMMAND(inject, "inject",
	    "copy a perf.data file or stream, adding the build-ids its samples need (perf inject -b)",
	    "pmuscope inject [-b | --buildid-all] [-i <file>] [-o <file>]");
