// SPDX-License-Identifier: MIT
// Unit tests of lib/export: folded text exactly, pprof decoded by a test-only protobuf walker (dense ids, string table, values), speedscope/Chrome/JSON structure.
#include <criterion/criterion.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "aggregate/stacks.h"
#include "export/export.h"

/* The no-zlib gzip (stored blocks) compiled in here under another name, to check it with zlib. */
#define PMS_NO_HOST_LIBS 1
#define pms_gzip__compress stub_gzip_compress
int stub_gzip_compress(const void *in, size_t len, struct strbuf *out);
#include "../../lib/export/pprof_gz_stub.c"
#undef pms_gzip__compress

static uint32_t fr(struct pms_stacks *st, const char *name, const char *dso, enum pms_stack_kind kind,
		   uint32_t pid, uint32_t tid)
{
	struct pms_stack_frame f = { .name = name, .dso = dso, .kind = kind, .pid = pid, .tid = tid };
	int64_t id = pms_stacks__intern(st, &f);

	cr_assert_geq(id, 0);
	return (uint32_t)id;
}

/*
 * Two processes: app (pid 10: main;work;leaf x3 and main;work x1, period 100 each) and
 * "we;ird\nname" (pid 20, kernel frame only, 2 samples, period 50 each).
 */
static struct pms_stacks *tree(void)
{
	struct pms_stacks *st = pms_stacks__new(NULL);
	uint32_t app = fr(st, "app", NULL, PMS_STACK_PROCESS, 10, 0);
	uint32_t main_ = fr(st, "main", "/bin/app", PMS_STACK_USER, 0, 0);
	uint32_t work = fr(st, "work", "/bin/app", PMS_STACK_USER, 0, 0);
	uint32_t leaf = fr(st, "leaf", "/lib/libc.so.6", PMS_STACK_USER, 0, 0);
	uint32_t odd = fr(st, "we;ird\nname", NULL, PMS_STACK_PROCESS, 20, 0);
	uint32_t kern = fr(st, "schedule", "[kernel.kallsyms]", PMS_STACK_KERNEL, 0, 0);
	struct pms_stacks_meta m = { .event = "cpu-clock", .period_unit = "nanoseconds", .command = "app --x",
				     .time_first_ns = 1000, .time_last_ns = 5000 };

	cr_assert_not_null(st);
	cr_assert_eq(pms_stacks__add_path(st, (uint32_t[]){ app, main_, work, leaf }, 4, 3, 300), 0);
	cr_assert_eq(pms_stacks__add_path(st, (uint32_t[]){ app, main_, work }, 3, 1, 100), 0);
	cr_assert_eq(pms_stacks__add_path(st, (uint32_t[]){ odd, kern }, 2, 2, 100), 0);
	cr_assert_eq(pms_stacks__set_meta(st, &m), 0);
	return st;
}

Test(export, folded_text_exact)
{
	struct pms_stacks *st = tree();
	struct strbuf sb = STRBUF_INIT;

	cr_assert_eq(pms_export__folded(st, PMS_WEIGHT_SAMPLES, &sb), 0);
	cr_assert_str_eq(strbuf_str(&sb), "app-10;main;work 1\n"
					  "app-10;main;work;leaf 3\n"
					  "we:ird name-20;schedule 2\n");
	strbuf_reset(&sb);
	cr_assert_eq(pms_export__folded(st, PMS_WEIGHT_PERIOD, &sb), 0);
	cr_assert_str_eq(strbuf_str(&sb), "app-10;main;work 100\n"
					  "app-10;main;work;leaf 300\n"
					  "we:ird name-20;schedule 100\n");
	cr_assert_eq(pms_export__folded(st, (enum pms_export_weight)7, &sb), -EINVAL);
	strbuf_release(&sb);
	pms_stacks__free(st);
}

Test(export, folded_empty_tree)
{
	struct pms_stacks *st = pms_stacks__new(NULL);
	struct strbuf sb = STRBUF_INIT;

	cr_assert_eq(pms_export__folded(st, PMS_WEIGHT_SAMPLES, &sb), 0);
	cr_assert_eq(sb.len, 0);
	strbuf_release(&sb);
	pms_stacks__free(st);
}

/* ------------------------------------------------- protobuf walker -- */

struct pb {
	const uint8_t *p, *end;
};

static uint64_t varint(struct pb *b)
{
	uint64_t v = 0;
	int shift = 0;

	for (;;) {
		cr_assert_lt(b->p, b->end, "varint runs past the message");
		cr_assert_lt(shift, 64);
		v |= (uint64_t)(*b->p & 0x7f) << shift;
		shift += 7;
		if (!(*b->p++ & 0x80))
			return v;
	}
}

/* Next field: its number, wire type, and (varint) value or (len) sub-buffer. 0 at the end. */
static unsigned field(struct pb *b, unsigned *wt, uint64_t *v, struct pb *sub)
{
	uint64_t key;

	if (b->p >= b->end)
		return 0;
	key = varint(b);
	*wt = key & 7;
	if (*wt == 0) {
		*v = varint(b);
	} else {
		cr_assert_eq(*wt, 2, "only wire types 0 and 2 are used");
		*v = varint(b);
		cr_assert_leq(*v, (uint64_t)(b->end - b->p));
		sub->p = b->p;
		sub->end = b->p + *v;
		b->p += *v;
	}
	return (unsigned)(key >> 3);
}

/* Packed (or single) varints of a repeated field into out; their count. */
static size_t packed(unsigned wt, uint64_t v, struct pb *sub, uint64_t *out, size_t max)
{
	size_t n = 0;

	if (wt == 0) {
		out[0] = v;
		return 1;
	}
	while (sub->p < sub->end && n < max)
		out[n++] = varint(sub);
	return n;
}

static void gunzip(const struct strbuf *gz, struct strbuf *raw)
{
	z_stream z;
	uint8_t buf[65536];
	int rc;

	memset(&z, 0, sizeof(z));
	cr_assert_eq(inflateInit2(&z, 15 + 16), Z_OK);
	z.next_in = (uint8_t *)gz->buf;
	z.avail_in = (uInt)gz->len;
	do {
		z.next_out = buf;
		z.avail_out = sizeof(buf);
		rc = inflate(&z, Z_NO_FLUSH);
		cr_assert(rc == Z_OK || rc == Z_STREAM_END, "inflate: %d", rc);
		strbuf_add(raw, (const char *)buf, sizeof(buf) - z.avail_out);
	} while (rc != Z_STREAM_END);
	cr_assert_eq(z.avail_in, 0, "bytes after the gzip member");
	inflateEnd(&z);
}

#define MAXN 64

struct profile {
	char *strs[MAXN];
	size_t nr_strs;
	uint64_t ids[3][MAXN]; /* mapping, location, function ids in table order */
	size_t nr[3];
	uint64_t loc_fn[MAXN];     /* location index -> function id */
	uint64_t loc_map[MAXN];    /* location index -> mapping id */
	uint64_t fn_name[MAXN];    /* function index -> name string index */
	uint64_t map_file[MAXN];
	uint64_t map_bid[MAXN];
	uint64_t sample_locs[MAXN][8];
	size_t sample_nr_locs[MAXN];
	uint64_t sample_vals[MAXN][2];
	uint64_t sample_pid[MAXN];
	size_t nr_samples, nr_sample_types;
	uint64_t sample_type[2][2];
	uint64_t period_type[2];
	uint64_t time_nanos, duration_nanos;
};

static void decode(const struct strbuf *gz, struct profile *pr)
{
	struct strbuf raw = STRBUF_INIT;
	struct pb b, sub, s2, s3;
	unsigned f, wt, wt2, wt3;
	uint64_t v, v2, v3;

	memset(pr, 0, sizeof(*pr));
	cr_assert_geq(gz->len, 2);
	cr_assert_eq((uint8_t)gz->buf[0], 0x1f, "gzip magic");
	cr_assert_eq((uint8_t)gz->buf[1], 0x8b, "gzip magic");
	gunzip(gz, &raw);
	b.p = (const uint8_t *)raw.buf;
	b.end = b.p + raw.len;
	while ((f = field(&b, &wt, &v, &sub))) {
		switch (f) {
		case 1: /* sample_type */
			cr_assert_lt(pr->nr_sample_types, 2);
			while ((f = field(&sub, &wt2, &v2, &s2)))
				pr->sample_type[pr->nr_sample_types][f - 1] = v2;
			pr->nr_sample_types++;
			break;
		case 2: { /* sample */
			size_t i = pr->nr_samples++;

			cr_assert_lt(i, MAXN);
			while ((f = field(&sub, &wt2, &v2, &s2))) {
				if (f == 1)
					pr->sample_nr_locs[i] += packed(wt2, v2, &s2, pr->sample_locs[i] + pr->sample_nr_locs[i], 8);
				else if (f == 2)
					cr_assert_eq(packed(wt2, v2, &s2, pr->sample_vals[i], 2), 2, "one value per sample type");
				else if (f == 3) {
					uint64_t key = 0, num = 0;

					while ((f = field(&s2, &wt3, &v3, &s3)))
						if (f == 1)
							key = v3;
						else if (f == 3)
							num = v3;
					if (key < pr->nr_strs && !strcmp(pr->strs[key], "pid"))
						pr->sample_pid[i] = num;
					if (!pr->nr_strs) /* labels may precede the table: resolve later */
						pr->sample_pid[i] = num;
				}
			}
			break;
		}
		case 3: case 4: case 5: { /* mapping, location, function */
			size_t t = f - 3, i = pr->nr[t]++;

			cr_assert_lt(i, MAXN);
			while ((f = field(&sub, &wt2, &v2, &s2))) {
				if (f == 1)
					pr->ids[t][i] = v2;
				else if (t == 0 && f == 5)
					pr->map_file[i] = v2;
				else if (t == 0 && f == 6)
					pr->map_bid[i] = v2;
				else if (t == 1 && f == 2)
					pr->loc_map[i] = v2;
				else if (t == 1 && f == 4)
					while ((f = field(&s2, &wt3, &v3, &s3)))
						if (f == 1)
							pr->loc_fn[i] = v3;
				if (t == 2 && f == 2)
					pr->fn_name[i] = v2;
			}
			break;
		}
		case 6:
			cr_assert_eq(wt, 2);
			cr_assert_lt(pr->nr_strs, MAXN);
			pr->strs[pr->nr_strs] = strndup((const char *)sub.p, (size_t)v);
			pr->nr_strs++;
			break;
		case 9:
			pr->time_nanos = v;
			break;
		case 10:
			pr->duration_nanos = v;
			break;
		case 11:
			while ((f = field(&sub, &wt2, &v2, &s2)))
				pr->period_type[f - 1] = v2;
			break;
		default:
			break;
		}
	}
	strbuf_release(&raw);
}

static void free_profile(struct profile *pr)
{
	for (size_t i = 0; i < pr->nr_strs; i++)
		free(pr->strs[i]);
}

static const char *fn_of_loc(const struct profile *pr, uint64_t loc_id)
{
	uint64_t fn = pr->loc_fn[loc_id - 1];

	return pr->strs[pr->fn_name[fn - 1]];
}

Test(export, pprof_decodes_with_dense_ids)
{
	struct pms_stacks *st = tree();
	struct strbuf sb = STRBUF_INIT;
	struct profile pr;
	uint64_t samples = 0, period = 0;

	cr_assert_eq(pms_stacks__set_build_id(st, "/bin/app", "deadbeef"), 0);
	cr_assert_str_eq(pms_stacks__build_id(st, "/bin/app"), "deadbeef");
	cr_assert_null(pms_stacks__build_id(st, "/lib/libc.so.6"));
	cr_assert_eq(pms_export__pprof(st, &sb), 0);
	decode(&sb, &pr);
	/* mapping[0] is the main binary (most frames on the heaviest path), with its build-id */
	cr_assert_str_eq(pr.strs[pr.map_file[0]], "/bin/app");
	cr_assert_str_eq(pr.strs[pr.map_bid[0]], "deadbeef");
	cr_assert_eq(pr.map_bid[1], 0);
	/* Parca's rules: string_table[0] == "", ids 1..N in table order */
	cr_assert_geq(pr.nr_strs, 1);
	cr_assert_str_eq(pr.strs[0], "");
	for (int t = 0; t < 3; t++)
		for (size_t i = 0; i < pr.nr[t]; i++)
			cr_assert_eq(pr.ids[t][i], i + 1, "table %d entry %zu has id %llu", t, i,
				     (unsigned long long)pr.ids[t][i]);
	cr_assert_eq(pr.nr[1], 4, "a location per real frame (pseudo frames are labels)");
	cr_assert_eq(pr.nr[2], 4);
	cr_assert_eq(pr.nr[0], 3, "a mapping per object");
	/* sample types: samples/count then cpu-clock/nanoseconds; period type the same event */
	cr_assert_eq(pr.nr_sample_types, 2);
	cr_assert_str_eq(pr.strs[pr.sample_type[0][0]], "samples");
	cr_assert_str_eq(pr.strs[pr.sample_type[0][1]], "count");
	cr_assert_str_eq(pr.strs[pr.sample_type[1][0]], "cpu-clock");
	cr_assert_str_eq(pr.strs[pr.sample_type[1][1]], "nanoseconds");
	cr_assert_str_eq(pr.strs[pr.period_type[0]], "cpu-clock");
	cr_assert_eq(pr.duration_nanos, 4000);
	/* every reference resolves; each string index is in the table */
	for (size_t i = 0; i < pr.nr[1]; i++) {
		cr_assert(pr.loc_fn[i] >= 1 && pr.loc_fn[i] <= pr.nr[2]);
		cr_assert(pr.loc_map[i] >= 1 && pr.loc_map[i] <= pr.nr[0]);
	}
	for (size_t i = 0; i < pr.nr[2]; i++)
		cr_assert_lt(pr.fn_name[i], pr.nr_strs);
	for (size_t i = 0; i < pr.nr[0]; i++)
		cr_assert_lt(pr.map_file[i], pr.nr_strs);
	cr_assert_eq(pr.nr_samples, 3);
	for (size_t i = 0; i < pr.nr_samples; i++) {
		samples += pr.sample_vals[i][0];
		period += pr.sample_vals[i][1];
		for (size_t k = 0; k < pr.sample_nr_locs[i]; k++)
			cr_assert(pr.sample_locs[i][k] >= 1 && pr.sample_locs[i][k] <= pr.nr[1]);
		/* leaf first: app's 3-sample stack starts at leaf and ends at main */
		if (pr.sample_vals[i][0] == 3) {
			cr_assert_eq(pr.sample_nr_locs[i], 3);
			cr_assert_str_eq(fn_of_loc(&pr, pr.sample_locs[i][0]), "leaf");
			cr_assert_str_eq(fn_of_loc(&pr, pr.sample_locs[i][2]), "main");
			cr_assert_eq(pr.sample_pid[i], 10);
		}
	}
	cr_assert_eq(samples, 6);
	cr_assert_eq(period, 500);
	free_profile(&pr);
	strbuf_release(&sb);
	pms_stacks__free(st);
}

Test(export, pprof_empty_tree_is_valid)
{
	struct pms_stacks *st = pms_stacks__new(NULL);
	struct strbuf sb = STRBUF_INIT;
	struct profile pr;

	cr_assert_eq(pms_export__pprof(st, &sb), 0);
	decode(&sb, &pr);
	cr_assert_str_eq(pr.strs[0], "");
	cr_assert_eq(pr.nr_samples, 0);
	cr_assert_eq(pr.nr_sample_types, 2);
	free_profile(&pr);
	strbuf_release(&sb);
	pms_stacks__free(st);
}

Test(export, gzip_without_zlib_is_valid_gzip)
{
	struct strbuf gz = STRBUF_INIT, raw = STRBUF_INIT;
	size_t len = 200000;
	char *data = malloc(len);

	for (size_t i = 0; i < len; i++)
		data[i] = (char)(i * 7 + (i >> 9));
	cr_assert_eq(stub_gzip_compress(data, len, &gz), 0);
	gunzip(&gz, &raw); /* zlib checks the CRC-32 and size trailer */
	cr_assert_eq(raw.len, len);
	cr_assert_eq(memcmp(raw.buf, data, len), 0);
	strbuf_reset(&gz);
	strbuf_reset(&raw);
	cr_assert_eq(stub_gzip_compress("", 0, &gz), 0);
	gunzip(&gz, &raw);
	cr_assert_eq(raw.len, 0);
	strbuf_release(&gz);
	strbuf_release(&raw);
	free(data);
}

static size_t count(const char *hay, const char *needle)
{
	size_t n = 0;

	for (const char *p = hay; (p = strstr(p, needle)); p += strlen(needle))
		n++;
	return n;
}

Test(export, speedscope_profiles_per_process)
{
	struct pms_stacks *st = tree();
	struct strbuf sb = STRBUF_INIT;
	const char *s;

	pms_stacks__sort(st, PMS_STACKS_BY_NAME);
	cr_assert_eq(pms_export__speedscope(st, PMS_WEIGHT_SAMPLES, &sb), 0);
	s = strbuf_str(&sb);
	cr_assert(strstr(s, "{\"$schema\":\"https://www.speedscope.app/file-format-schema.json\",\"shared\":{\"frames\":["
			    "{\"name\":\"main\",\"file\":\"/bin/app\"},{\"name\":\"work\",\"file\":\"/bin/app\"},"
			    "{\"name\":\"leaf\",\"file\":\"/lib/libc.so.6\"},"
			    "{\"name\":\"schedule\",\"file\":\"[kernel.kallsyms]\"}]}") == s, "%s", s);
	cr_assert_eq(count(s, "\"type\":\"sampled\""), 2);
	/* root first, weights in sample order, unit none for sample counts */
	cr_assert(strstr(s, "{\"type\":\"sampled\",\"name\":\"app (pid 10)\",\"unit\":\"none\",\"startValue\":0,"
			    "\"endValue\":4,\"samples\":[[0,1],[0,1,2]],\"weights\":[1,3]}"), "%s", s);
	cr_assert(strstr(s, "\"name\":\"we;ird\\nname (pid 20)\""), "%s", s);
	strbuf_reset(&sb);
	cr_assert_eq(pms_export__speedscope(st, PMS_WEIGHT_PERIOD, &sb), 0);
	cr_assert(strstr(strbuf_str(&sb), "\"unit\":\"nanoseconds\",\"startValue\":0,\"endValue\":400,"));
	strbuf_release(&sb);
	pms_stacks__free(st);
}

Test(export, speedscope_one_profile_without_processes)
{
	struct pms_stacks *st = pms_stacks__new(NULL);
	struct strbuf sb = STRBUF_INIT;
	uint32_t a = fr(st, "a", "/x", PMS_STACK_USER, 0, 0);

	cr_assert_eq(pms_stacks__add_path(st, &a, 1, 5, 5), 0);
	cr_assert_eq(pms_export__speedscope(st, PMS_WEIGHT_SAMPLES, &sb), 0);
	cr_assert_eq(count(strbuf_str(&sb), "\"type\":\"sampled\""), 1);
	cr_assert(strstr(strbuf_str(&sb), "\"samples\":[[0]],\"weights\":[5]"), "%s", strbuf_str(&sb));
	strbuf_release(&sb);
	pms_stacks__free(st);
}

Test(export, chrome_pid_tid_on_every_event)
{
	struct pms_stacks *st = tree();
	struct strbuf sb = STRBUF_INIT;
	const char *s;
	size_t events;

	pms_stacks__sort(st, PMS_STACKS_BY_NAME);
	cr_assert_eq(pms_export__chrome(st, PMS_WEIGHT_SAMPLES, &sb), 0);
	s = strbuf_str(&sb);
	events = count(s, "\"ph\":");
	/* 2 x (process_name + thread_name) + main, work, leaf, schedule */
	cr_assert_eq(events, 8, "%s", s);
	cr_assert_eq(count(s, "\"pid\":"), events);
	cr_assert_eq(count(s, "\"tid\":"), events);
	/* main spans app's 4 samples (1 ms each); a first child starts with its parent */
	cr_assert(strstr(s, "{\"name\":\"main\",\"cat\":\"user\",\"ph\":\"X\",\"ts\":0.000,\"dur\":4000.000,\"pid\":10,\"tid\":10,"),
		  "%s", s);
	cr_assert(strstr(s, "{\"name\":\"leaf\",\"cat\":\"user\",\"ph\":\"X\",\"ts\":0.000,\"dur\":3000.000,\"pid\":10,\"tid\":10,"),
		  "%s", s);
	cr_assert(strstr(s, "{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":20,\"tid\":20,\"args\":{\"name\":\"we;ird\\nname\"}}"),
		  "%s", s);
	strbuf_reset(&sb);
	/* period: 1 ns per unit, printed in microseconds */
	cr_assert_eq(pms_export__chrome(st, PMS_WEIGHT_PERIOD, &sb), 0);
	cr_assert(strstr(strbuf_str(&sb), "\"name\":\"main\",\"cat\":\"user\",\"ph\":\"X\",\"ts\":0.000,\"dur\":0.400,"),
		  "%s", strbuf_str(&sb));
	strbuf_release(&sb);
	pms_stacks__free(st);
}

Test(export, stacks_json_rows)
{
	struct pms_stacks *st = tree();
	struct strbuf sb = STRBUF_INIT;
	const char *s;

	cr_assert_eq(pms_export__json(st, &sb), 0);
	s = strbuf_str(&sb);
	cr_assert(strstr(s, "{\"schema\":\"pmuscope-stacks/1\",\"meta\":{\"event\":\"cpu-clock\",") == s, "%s", s);
	cr_assert(strstr(s, "\"nodes\":[[null,null,0,6,0,500],[0,0,0,4,0,400],"), "%s", s);
	cr_assert(strstr(s, "{\"name\":\"app\",\"kind\":\"process\",\"pid\":10}"), "%s", s);
	cr_assert_eq(s[sb.len - 1], '\n');
	strbuf_release(&sb);
	pms_stacks__free(st);
}

Test(exporters, every_registered_format_writes_and_is_found_by_name)
{
	const struct pms_exporter *e;
	struct strbuf names = STRBUF_INIT;
	size_t n = 0;

	for (size_t i = 0; (e = pms_exporter__at(i)); i++, n++) {
		struct pms_stacks *st = tree();
		struct pms_export_opts o = { .sz = sizeof(o), .weight = PMS_WEIGHT_PERIOD, .title = "t" };
		struct strbuf sb = STRBUF_INIT;

		cr_assert_eq(pms_exporter__find(e->name), e, "%s", e->name);
		if (e->alias)
			cr_assert_eq(pms_exporter__find(e->alias), e, "%s", e->alias);
		cr_assert_eq(e->write(st, &o, &sb), 0, "%s", e->name);
		cr_assert_gt(sb.len, 0, "%s wrote nothing", e->name);
		strbuf_release(&sb);
		pms_stacks__free(st);
	}
	cr_assert_geq(n, 7);
	cr_assert_str_eq(pms_exporter__at(0)->name, "folded");
	cr_assert(pms_exporter__find("pprof")->binary);
	cr_assert_eq(pms_exporter__find("html"), pms_exporter__find("flamegraph"));
	errno = 0;
	cr_assert_null(pms_exporter__find("gif"));
	cr_assert_eq(errno, ENOENT);
	cr_assert_null(pms_exporter__find(NULL));
	pms_exporter__names(&names);
	cr_assert_str_eq(strbuf_str(&names), "folded, pprof, speedscope, chrome, json, flamegraph or svg");
	strbuf_release(&names);
}

Test(exporters, folded_through_the_table_is_the_folded_export)
{
	struct pms_stacks *a = tree(), *b = tree();
	struct pms_export_opts o = { .sz = sizeof(o), .weight = PMS_WEIGHT_SAMPLES };
	struct strbuf x = STRBUF_INIT, y = STRBUF_INIT;

	cr_assert_eq(pms_exporter__find("folded")->write(a, &o, &x), 0);
	pms_stacks__sort(b, PMS_STACKS_BY_NAME);
	cr_assert_eq(pms_export__folded(b, PMS_WEIGHT_SAMPLES, &y), 0);
	cr_assert_str_eq(strbuf_str(&x), strbuf_str(&y));
	/* an older caller's smaller opts: the weight it did not know is samples */
	o.sz = offsetof(struct pms_export_opts, weight);
	strbuf_reset(&x);
	cr_assert_eq(pms_exporter__find("folded")->write(a, &o, &x), 0);
	cr_assert_str_eq(strbuf_str(&x), strbuf_str(&y));
	strbuf_release(&x);
	strbuf_release(&y);
	pms_stacks__free(a);
	pms_stacks__free(b);
}

Test(stacks_root, names)
{
	enum pms_stacks_root r = PMS_STACKS_ROOT_NONE;

	cr_assert_eq(pms_stacks_root__parse("tid", &r), 0);
	cr_assert_eq(r, PMS_STACKS_ROOT_TID);
	cr_assert_eq(pms_stacks_root__parse("none", &r), 0);
	cr_assert_eq(r, PMS_STACKS_ROOT_NONE);
	cr_assert_eq(pms_stacks_root__parse("cpu", &r), -EINVAL);
	cr_assert_eq(pms_stacks_root__parse(NULL, &r), -EINVAL);
	cr_assert_eq(r, PMS_STACKS_ROOT_NONE);
}

Test(export, weight_names)
{
	enum pms_export_weight w = PMS_WEIGHT_SAMPLES;

	cr_assert_eq(pms_export_weight__parse("period", &w), 0);
	cr_assert_eq(w, PMS_WEIGHT_PERIOD);
	cr_assert_eq(pms_export_weight__parse("samples", &w), 0);
	cr_assert_eq(w, PMS_WEIGHT_SAMPLES);
	cr_assert_eq(pms_export_weight__parse("Period", &w), -EINVAL);
	cr_assert_eq(pms_export_weight__parse("", &w), -EINVAL);
	cr_assert_eq(pms_export_weight__parse(NULL, &w), -EINVAL);
	cr_assert_eq(w, PMS_WEIGHT_SAMPLES, "unchanged on error");
}
