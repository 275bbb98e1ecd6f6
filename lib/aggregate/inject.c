// SPDX-License-Identifier: MIT
// perf inject -b: a perf.data copy with the build-ids of the objects its samples hit.
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <linux/perf_event.h>

#include "aggregate/inject.h"
#include "aggregate/objects.h"
#include "aggregate/record_synth.h"
#include "data/format.h"
#include "event/names.h"
#include "util/hex.h"

/*
 * Features the copy takes as they are. Those it makes again are left out:
 * BUILD_ID (ours), EVENT_DESC and SAMPLE_TIME (the writer derives them from
 * the attrs and samples it writes), COMPRESSED (the copy is not). A plain
 * copy keeps the input's build-ids as they are.
 */
static bool copied_feature(unsigned bit, bool copy_only)
{
	return (copy_only || bit != PMS_FEAT_BUILD_ID) && bit != PMS_FEAT_EVENT_DESC && bit != PMS_FEAT_SAMPLE_TIME &&
	       bit != PMS_FEAT_COMPRESSED;
}

static int copy_header(struct pms_data_reader *r, struct pms_data_writer *w, bool copy_only)
{
	struct pms_data_features *f = pms_data_writer__features(w);
	int err = 0;

	for (size_t i = 0; i < pms_data_reader__nr_attrs(r) && !err; i++) {
		const struct perf_event_attr *a = pms_data_reader__attr(r, i);
		const char *name = pms_data_reader__attr_name(r, i);
		const uint64_t *ids;
		size_t nr_ids;
		char buf[128];

		ids = pms_data_reader__attr_ids(r, i, &nr_ids);
		/* an unnamed event (pipe input) gets the name perf gives its attr, as perf inject writes it */
		if (!name) {
			pms_event_name__from_attr(a, buf, sizeof(buf));
			name = buf;
		}
		err = pms_data_writer__add_attr(w, a, name, ids, nr_ids);
	}
	for (unsigned bit = 1; bit < PMS_FEAT_LAST && !err; bit++) {
		const void *p;
		size_t size;

		if (copied_feature(bit, copy_only) && !pms_data_reader__feature_raw(r, bit, &p, &size))
			err = pms_data_features__set_raw(f, bit, p, size);
	}
	return err;
}

/* perf's table has the vDSO whenever it was mapped; its stream only what samples hit (dso__inject_build_id()). */
static bool wanted(const struct pms_object *ob, const struct pms_inject_opts *o)
{
	return ob->hit || o->all || (!o->pipe && !strcmp(ob->name, "[vdso]"));
}

void pms_inject__free_known(struct pms_known_build_id *k, size_t nr)
{
	for (size_t i = 0; k && i < nr; i++)
		free(k[i].path);
	free(k);
}

/* One "BUILDID PATH" of len bytes into k: 0 or -EINVAL. */
static int parse_one(const char *e, size_t len, struct pms_known_build_id *k)
{
	size_t hex = 0;

	while (hex < len && e[hex] != ' ')
		hex++;
	if (!hex || hex % 2 || hex > 2 * PMS_BUILD_ID_MAX || hex + 1 >= len)
		return -EINVAL;
	for (size_t i = 0; i < hex; i += 2) {
		int hi = pms_hex__digit(e[i]), lo = pms_hex__digit(e[i + 1]);

		if (hi < 0 || lo < 0)
			return -EINVAL;
		k->id[i / 2] = (uint8_t)(hi << 4 | lo);
	}
	k->size = (uint8_t)(hex / 2);
	k->path = strndup(e + hex + 1, len - hex - 1);
	return k->path ? 0 : -ENOMEM;
}

int pms_inject__parse_known(const char *s, struct pms_known_build_id **out, size_t *nr, const char **bad)
{
	size_t n = 1, i = 0;
	struct pms_known_build_id *k;

	*out = NULL;
	*nr = 0;
	for (const char *p = s; *p; p++)
		n += *p == ',';
	k = calloc(n, sizeof(*k));
	if (!k)
		return -ENOMEM;
	for (const char *e = s; i < n; i++) {
		size_t len = strcspn(e, ",");
		int err = parse_one(e, len, &k[i]);

		if (err) {
			if (bad)
				*bad = e;
			pms_inject__free_known(k, i);
			return err;
		}
		e += len + (e[len] == ',');
	}
	*out = k;
	*nr = n;
	return 0;
}

static const struct pms_known_build_id *known_of(const struct pms_inject_opts *o, const char *name)
{
	for (size_t i = 0; i < o->nr_known; i++)
		if (!strcmp(o->known[i].path, name))
			return &o->known[i];
	return NULL;
}

/*
 * The running kernel is the recording's only when the file says it ran on
 * this release: another machine's kernel must not get this one's build-id.
 */
static bool same_kernel(const struct pms_data_reader *r)
{
	const struct pms_data_features *f = pms_data_reader__features(r);
	struct utsname u;

	return f && pms_data_features__has(f, PMS_FEAT_OSRELEASE) && f->osrelease && !uname(&u) &&
	       !strcmp(u.release, f->osrelease);
}

static int add_build_ids(const struct pms_data_reader *r, struct pms_objects *objs, struct pms_data_writer *w,
			 const struct pms_inject_opts *o, struct pms_inject_stats *st, pms_inject_object_fn fn,
			 void *ctx)
{
	struct pms_data_features *f = pms_data_writer__features(w);
	bool here = same_kernel(r);
	int err = 0;

	for (size_t i = 0; i < pms_objects__nr(objs) && !err; i++) {
		const struct pms_object *ob = pms_objects__at(objs, i);
		bool guest = ob->machine != PMS_MACHINE_HOST;
		uint16_t cpumode = ob->kernel ? (guest ? PERF_RECORD_MISC_GUEST_KERNEL : PERF_RECORD_MISC_KERNEL)
					      : (guest ? PERF_RECORD_MISC_GUEST_USER : PERF_RECORD_MISC_USER);
		const struct pms_known_build_id *k;
		uint8_t id[PMS_BUILD_ID_MAX];
		size_t n = ob->build_id_size;

		/*
		 * A plain copy adds nothing: a file keeps the input's table as it
		 * is (copied raw), a stream from a file gets it as records.
		 */
		if (o->copy_only && !(o->pipe && n && !pms_data_reader__is_pipe(r)))
			continue;
		if (o->copy_only) {
			memcpy(id, ob->build_id, n);
			st->nr_from_input++;
		} else if (!wanted(ob, o)) {
			continue;
		} else if ((k = known_of(o, ob->name))) {
			n = k->size;
			memcpy(id, k->id, n);
		} else if (n) {
			memcpy(id, ob->build_id, n);
			st->nr_from_input++;
		} else if (!ob->kernel || here) {
			n = pms_record_synth__build_id_of(ob->name, ob->kernel, id);
		}
		if (fn)
			fn(ctx, ob->name, id, n);
		if (!n) {
			st->nr_missing++;
			continue;
		}
		st->nr_build_ids++;
		if (o->pipe) {
			struct pms_data_build_id b = { .filename = ob->name, .size = (uint8_t)n, .pid = ob->machine,
						       .cpumode = cpumode };

			memcpy(b.id, id, n);
			err = pms_data_writer__build_id_record(w, &b);
		} else {
			err = pms_data_features__add_build_id(f, ob->name, id, n, ob->machine, cpumode);
		}
	}
	return err;
}

/* Records the copy does not take over: the writer makes them again, or (build-ids) we do. */
static bool dropped(uint32_t type, bool copy_only)
{
	return type == PMS_RECORD_HEADER_ATTR || type == PMS_RECORD_HEADER_FEATURE ||
	       type == PMS_RECORD_HEADER_TRACING_DATA || (type == PMS_RECORD_HEADER_BUILD_ID && !copy_only) ||
	       type == PMS_RECORD_HEADER_EVENT_TYPE;
}

int pms_inject__build_ids(struct pms_data_reader *r, struct pms_data_writer *w,
			  const struct pms_inject_opts *opts, struct pms_inject_stats *stats,
			  pms_inject_object_fn fn, void *ctx)
{
	struct pms_inject_opts o = { 0 };
	struct pms_inject_stats dummy;
	struct pms_inject_stats *st = stats ? stats : &dummy;
	const struct perf_event_header *ev;
	struct pms_objects *objs = NULL;
	bool only_hits;
	int err;

	if (opts) {
		size_t sz = opts->sz && opts->sz < sizeof(o) ? opts->sz : sizeof(o);

		memcpy(&o, opts, sz);
	}
	memset(st, 0, sizeof(*st));
	pms_data_reader__rewind(r);
	/* AUX payloads follow their records outside them: a copy of the records would lose them */
	while ((err = pms_data_reader__next(r, &ev, NULL)) == 1)
		if (ev->type == PMS_RECORD_AUXTRACE)
			return -EOPNOTSUPP;
	if (err < 0)
		return err;
	pms_data_reader__rewind(r);
	err = pms_objects__from_file(r, true, &objs, &only_hits);
	if (err)
		goto out;
	if ((err = copy_header(r, w, o.copy_only)))
		goto out;
	/* file output: the feature, written at close; pipe output: records ahead of the others */
	if ((err = add_build_ids(r, objs, w, &o, st, fn, ctx)))
		goto out;
	pms_data_reader__rewind(r);
	while ((err = pms_data_reader__next(r, &ev, NULL)) == 1) {
		if (dropped(ev->type, o.copy_only))
			continue;
		if ((err = pms_data_writer__write(w, ev, ev->size)))
			break;
		st->nr_records++;
	}
out:
	pms_objects__free(objs);
	return err;
}
