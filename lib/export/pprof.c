// SPDX-License-Identifier: MIT
// pprof profile.proto from a stacks tree, hand-encoded (wire types 0 and 2 only) and gzipped.
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "export/export.h"
#include "export/gz.h"
#include "util/array.h"
#include "util/hash.h"
#include "util/idtab.h"

/*
 * Field numbers of google/pprof proto/profile.proto (perftools.profiles).
 * Every id (mapping, function, location) is dense 1..N in table order, as
 * Parca's ingest demands; string_table[0] is "".
 */
enum {
	PROFILE_SAMPLE_TYPE = 1, PROFILE_SAMPLE = 2, PROFILE_MAPPING = 3, PROFILE_LOCATION = 4,
	PROFILE_FUNCTION = 5, PROFILE_STRING_TABLE = 6, PROFILE_TIME_NANOS = 9,
	PROFILE_DURATION_NANOS = 10, PROFILE_PERIOD_TYPE = 11, PROFILE_PERIOD = 12, PROFILE_COMMENT = 13,
	VALUETYPE_TYPE = 1, VALUETYPE_UNIT = 2,
	SAMPLE_LOCATION_ID = 1, SAMPLE_VALUE = 2, SAMPLE_LABEL = 3,
	LABEL_KEY = 1, LABEL_STR = 2, LABEL_NUM = 3,
	MAPPING_ID = 1, MAPPING_FILENAME = 5, MAPPING_BUILD_ID = 6, MAPPING_HAS_FUNCTIONS = 7,
	LOCATION_ID = 1, LOCATION_MAPPING_ID = 2, LOCATION_LINE = 4,
	LINE_FUNCTION_ID = 1, LINE_LINE = 2,
	FUNCTION_ID = 1, FUNCTION_NAME = 2, FUNCTION_SYSTEM_NAME = 3, FUNCTION_FILENAME = 4,
};

enum { WT_VARINT = 0, WT_LEN = 2 };

static void pb_varint(struct strbuf *b, uint64_t v)
{
	char buf[10];
	size_t n = 0;

	do {
		buf[n++] = (char)((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
		v >>= 7;
	} while (v);
	strbuf_add(b, buf, n);
}

static void pb_key(struct strbuf *b, unsigned field, unsigned wt)
{
	pb_varint(b, (uint64_t)field << 3 | wt);
}

/* proto3: zero is the default and is left out. int64 values go as two's complement. */
static void pb_uint(struct strbuf *b, unsigned field, uint64_t v)
{
	if (!v)
		return;
	pb_key(b, field, WT_VARINT);
	pb_varint(b, v);
}

static void pb_bytes(struct strbuf *b, unsigned field, const void *p, size_t len)
{
	pb_key(b, field, WT_LEN);
	pb_varint(b, len);
	strbuf_add(b, p, len);
}

/* A sub-message built in sub, appended as field, sub reset for reuse. */
static void pb_msg(struct strbuf *b, unsigned field, struct strbuf *sub)
{
	pb_bytes(b, field, sub->buf ? sub->buf : "", sub->len);
	if (sub->oom)
		b->oom = true;
	sub->len = 0;
}

/* ------------------------------------------------------------ maps -- */

struct enc {
	const struct pms_stacks *st;
	const struct pms_stack_frame *frames;
	/* string table: content-keyed (frames' strings are interned, constants are not) */
	const char **strs;
	size_t nr_strs, strs_alloc;
	struct pms_idtab str_ids;   /* hash(string) -> index in strs */
	struct pms_idtab fn_ids;    /* hash(fn_key) -> function id - 1 */
	struct pms_idtab map_ids;   /* hash(filename idx) -> mapping id - 1 */
	uint32_t *loc_of_frame;     /* frame id -> location id (0: none yet) */
	uint32_t *loc_frame;        /* location id - 1 -> frame id */
	size_t nr_locs;
	uint64_t *fn_key;           /* function id - 1 -> name idx << 32 | file idx */
	size_t nr_fns, fns_alloc;
	uint32_t *map_dso;          /* mapping id - 1 -> filename idx */
	size_t nr_maps, maps_alloc;
	int err;
};

/* Index of s in the string table, added if new. */
static uint32_t str_idx(struct enc *e, const char *s)
{
	uint32_t h;
	size_t i;

	if (!s || !*s || e->err)
		return 0;
	h = (uint32_t)pms_hash__str(PMS_HASH_SEED, s);
	if (pms_idtab__reserve(&e->str_ids) ||
	    pms_array__reserve(&e->strs, &e->strs_alloc, e->nr_strs + 1, sizeof(*e->strs)))
		goto oom;
	for (i = pms_idtab__start(&e->str_ids, h); pms_idtab__used(&e->str_ids, i); i = pms_idtab__next(&e->str_ids, i))
		if (pms_idtab__hash(&e->str_ids, i) == h && !strcmp(e->strs[pms_idtab__id(&e->str_ids, i)], s))
			return pms_idtab__id(&e->str_ids, i);
	pms_idtab__set(&e->str_ids, i, h, (uint32_t)e->nr_strs);
	e->strs[e->nr_strs] = s;
	return (uint32_t)e->nr_strs++;
oom:
	e->err = -ENOMEM;
	return 0;
}

static uint32_t function_id(struct enc *e, const struct pms_stack_frame *f)
{
	uint64_t key = (uint64_t)str_idx(e, f->name) << 32 | str_idx(e, f->file);
	uint32_t h = (uint32_t)pms_hash__mix64(key);
	size_t i;

	if (e->err || pms_idtab__reserve(&e->fn_ids) ||
	    pms_array__reserve(&e->fn_key, &e->fns_alloc, e->nr_fns + 1, sizeof(*e->fn_key))) {
		e->err = -ENOMEM;
		return 0;
	}
	for (i = pms_idtab__start(&e->fn_ids, h); pms_idtab__used(&e->fn_ids, i); i = pms_idtab__next(&e->fn_ids, i))
		if (pms_idtab__hash(&e->fn_ids, i) == h && e->fn_key[pms_idtab__id(&e->fn_ids, i)] == key)
			return pms_idtab__id(&e->fn_ids, i) + 1;
	pms_idtab__set(&e->fn_ids, i, h, (uint32_t)e->nr_fns);
	e->fn_key[e->nr_fns] = key;
	return (uint32_t)++e->nr_fns;
}

static uint32_t mapping_id(struct enc *e, const char *dso)
{
	uint32_t idx = str_idx(e, dso), h;
	size_t i;

	if (!idx || e->err)
		return 0;
	if (pms_idtab__reserve(&e->map_ids) ||
	    pms_array__reserve(&e->map_dso, &e->maps_alloc, e->nr_maps + 1, sizeof(*e->map_dso))) {
		e->err = -ENOMEM;
		return 0;
	}
	h = (uint32_t)pms_hash__mix64(idx);
	for (i = pms_idtab__start(&e->map_ids, h); pms_idtab__used(&e->map_ids, i); i = pms_idtab__next(&e->map_ids, i))
		if (pms_idtab__hash(&e->map_ids, i) == h && e->map_dso[pms_idtab__id(&e->map_ids, i)] == idx)
			return pms_idtab__id(&e->map_ids, i) + 1;
	pms_idtab__set(&e->map_ids, i, h, (uint32_t)e->nr_maps);
	e->map_dso[e->nr_maps] = idx;
	return (uint32_t)++e->nr_maps;
}

static uint32_t location_id(struct enc *e, uint32_t frame)
{
	if (!e->loc_of_frame[frame]) {
		e->loc_frame[e->nr_locs] = frame;
		e->loc_of_frame[frame] = (uint32_t)++e->nr_locs;
	}
	return e->loc_of_frame[frame];
}

static const char *main_object(const struct pms_stack_node *n, const struct pms_stack_frame *f)
{
	const char *dsos[128], *best = NULL;
	size_t nr = 0, best_count = 0;

	for (uint32_t node = n[0].first_child; node && nr < 128;) {
		uint32_t heavy = node;

		for (uint32_t c = n[node].next_sibling; c; c = n[c].next_sibling)
			if (n[c].total_samples > n[heavy].total_samples)
				heavy = c;
		if (f[n[heavy].frame].kind == PMS_STACK_USER)
			dsos[nr++] = f[n[heavy].frame].dso;
		node = n[heavy].first_child;
	}
	for (size_t i = 0; i < nr; i++) {
		size_t count = 0;

		for (size_t k = 0; k < nr; k++)
			count += dsos[k] == dsos[i];
		if (count > best_count) {
			best = dsos[i];
			best_count = count;
		}
	}
	return best;
}

static void value_type(struct enc *e, struct strbuf *b, unsigned field, struct strbuf *sub,
		       const char *type, const char *unit)
{
	pb_uint(sub, VALUETYPE_TYPE, str_idx(e, type));
	pb_uint(sub, VALUETYPE_UNIT, str_idx(e, unit));
	pb_msg(b, field, sub);
}

static void label(struct enc *e, struct strbuf *b, struct strbuf *sub, const char *key, const char *str,
		  uint64_t num)
{
	pb_uint(sub, LABEL_KEY, str_idx(e, key));
	pb_uint(sub, LABEL_STR, str_idx(e, str));
	pb_uint(sub, LABEL_NUM, num);
	pb_msg(b, SAMPLE_LABEL, sub);
}

static void enc_release(struct enc *e)
{
	free(e->strs);
	pms_idtab__release(&e->str_ids);
	pms_idtab__release(&e->fn_ids);
	pms_idtab__release(&e->map_ids);
	free(e->loc_of_frame);
	free(e->loc_frame);
	free(e->fn_key);
	free(e->map_dso);
}

int pms_export__pprof(const struct pms_stacks *st, struct strbuf *out)
{
	return pms_export__pprof_opts(st, NULL, out);
}

int pms_export__pprof_opts(const struct pms_stacks *st, const struct pms_pprof_opts *opts, struct strbuf *out)
{
	const struct pms_stacks_meta *meta = pms_stacks__meta(st);
	struct strbuf pb = STRBUF_INIT, samples = STRBUF_INIT, sub = STRBUF_INIT, packed = STRBUF_INIT;
	const char *event = meta->event ? meta->event : "events";
	const char *unit = meta->period_unit ? meta->period_unit : "events";
	size_t nn, nf;
	const struct pms_stack_node *n = pms_stacks__nodes(st, &nn);
	struct enc e = { .st = st };
	int err;

	e.frames = pms_stacks__frames(st, &nf);
	e.loc_of_frame = calloc(nf ? nf : 1, sizeof(*e.loc_of_frame));
	e.loc_frame = calloc(nf ? nf : 1, sizeof(*e.loc_frame));
	e.strs = calloc(1, sizeof(*e.strs));
	if (!e.loc_of_frame || !e.loc_frame || !e.strs) {
		enc_release(&e);
		return -ENOMEM;
	}
	e.strs_alloc = 1;
	e.strs[e.nr_strs++] = ""; /* string_table[0] must be "" */

	/* samples/count first (pprof's convention), then the event's own weight */
	value_type(&e, &pb, PROFILE_SAMPLE_TYPE, &sub, meta->sample_noun ? meta->sample_noun : "samples", "count");
	value_type(&e, &pb, PROFILE_SAMPLE_TYPE, &sub, event, unit);

	/*
	 * Readers take mapping[0] for the main binary (go tool pprof's "File:"):
	 * give id 1 to the object with most frames on the heaviest path.
	 */
	mapping_id(&e, main_object(n, e.frames));

	/* one Sample per tree node with self weight: locations leaf first, pseudo frames as labels */
	for (size_t i = 1; i < nn && !e.err; i++) {
		uint64_t pid = 0, tid = 0;
		const char *comm = NULL, *thread = NULL;

		if (!n[i].self_samples && !n[i].self_period)
			continue;
		for (uint32_t k = (uint32_t)i; k; k = n[k].parent) {
			const struct pms_stack_frame *f = &e.frames[n[k].frame];

			if (f->kind == PMS_STACK_PROCESS) {
				pid = f->pid;
				comm = f->name;
			} else if (f->kind == PMS_STACK_THREAD) {
				tid = f->tid;
				thread = f->name;
			} else {
				pb_varint(&packed, location_id(&e, n[k].frame));
			}
		}
		pb_msg(&sub, SAMPLE_LOCATION_ID, &packed);
		pb_varint(&packed, n[i].self_samples);
		pb_varint(&packed, n[i].self_period);
		pb_msg(&sub, SAMPLE_VALUE, &packed);
		{
			struct strbuf lab = STRBUF_INIT;

			if (comm)
				label(&e, &sub, &lab, "comm", comm, 0);
			if (pid)
				label(&e, &sub, &lab, "pid", NULL, pid);
			if (tid)
				label(&e, &sub, &lab, "tid", NULL, tid);
			if (thread && (!comm || strcmp(thread, comm)))
				label(&e, &sub, &lab, "thread", thread, 0);
			if (pid && opts && opts->process_labels) {
				struct pms_pprof_label more[16];
				size_t nm = opts->process_labels(opts->arg, (uint32_t)pid, comm, more, 16);

				for (size_t m = 0; m < nm && m < 16; m++)
					if (more[m].key && (more[m].str ? *more[m].str : more[m].num != 0))
						label(&e, &sub, &lab, more[m].key, more[m].str, (uint64_t)more[m].num);
			}
			if (lab.oom)
				sub.oom = true;
			strbuf_release(&lab);
		}
		pb_msg(&samples, PROFILE_SAMPLE, &sub);
	}
	strbuf_add(&pb, samples.buf ? samples.buf : "", samples.len);
	if (samples.oom)
		pb.oom = true;
	strbuf_release(&samples);

	/* locations first: they create the functions and mappings, in id order */
	for (size_t l = 0; l < e.nr_locs && !e.err; l++) {
		const struct pms_stack_frame *f = &e.frames[e.loc_frame[l]];
		struct strbuf line = STRBUF_INIT;

		pb_uint(&sub, LOCATION_ID, l + 1);
		pb_uint(&sub, LOCATION_MAPPING_ID, mapping_id(&e, f->dso));
		pb_uint(&line, LINE_FUNCTION_ID, function_id(&e, f));
		pb_uint(&line, LINE_LINE, f->line);
		pb_msg(&sub, LOCATION_LINE, &line);
		strbuf_release(&line);
		pb_msg(&packed, PROFILE_LOCATION, &sub);
	}
	for (size_t m = 0; m < e.nr_maps; m++) {
		pb_uint(&sub, MAPPING_ID, m + 1);
		pb_uint(&sub, MAPPING_FILENAME, e.map_dso[m]);
		pb_uint(&sub, MAPPING_BUILD_ID, str_idx(&e, pms_stacks__build_id(st, e.strs[e.map_dso[m]])));
		pb_uint(&sub, MAPPING_HAS_FUNCTIONS, 1);
		pb_msg(&pb, PROFILE_MAPPING, &sub);
	}
	strbuf_add(&pb, packed.buf ? packed.buf : "", packed.len);
	packed.len = 0;
	for (size_t fn = 0; fn < e.nr_fns; fn++) {
		pb_uint(&sub, FUNCTION_ID, fn + 1);
		pb_uint(&sub, FUNCTION_NAME, e.fn_key[fn] >> 32);
		pb_uint(&sub, FUNCTION_SYSTEM_NAME, e.fn_key[fn] >> 32);
		pb_uint(&sub, FUNCTION_FILENAME, e.fn_key[fn] & 0xffffffffu);
		pb_msg(&pb, PROFILE_FUNCTION, &sub);
	}
	pb_uint(&pb, PROFILE_TIME_NANOS, meta->start_wall_ns);
	if (meta->time_last_ns > meta->time_first_ns)
		pb_uint(&pb, PROFILE_DURATION_NANOS, meta->time_last_ns - meta->time_first_ns);
	value_type(&e, &pb, PROFILE_PERIOD_TYPE, &sub, event, unit);
	if (opts && opts->period)
		pb_uint(&pb, PROFILE_PERIOD, opts->period);
	if (meta->command) {
		pb_key(&pb, PROFILE_COMMENT, WT_VARINT);
		pb_varint(&pb, str_idx(&e, meta->command));
	}
	/* the string table last: every index above is known by now */
	for (size_t s = 0; s < e.nr_strs; s++)
		pb_bytes(&pb, PROFILE_STRING_TABLE, e.strs[s], strlen(e.strs[s]));
	err = e.err;
	if (!err && (pb.oom || sub.oom || packed.oom))
		err = -ENOMEM;
	if (!err)
		err = pms_gzip__compress(pb.buf ? pb.buf : "", pb.len, out);
	strbuf_release(&pb);
	strbuf_release(&sub);
	strbuf_release(&packed);
	enc_release(&e);
	return err;
}
