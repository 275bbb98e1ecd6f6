// SPDX-License-Identifier: MIT
// Unit tests of lib/data/tracing_data: perf's tracing data from real perf.data files, payloads printed as perf script 6.1 prints them, damaged and crafted input refused or parsed partly without reading out of bounds.
#include <criterion/criterion.h>
#include <criterion/redirect.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data/tracing_data.h"

#define FIX "tests/fixtures/tracing/"

struct blob {
	uint8_t *p;
	size_t n;
};

static struct blob load(const char *path)
{
	struct blob b = { 0 };
	FILE *f = fopen(path, "rb");
	long n;

	cr_assert_not_null(f, "%s", path);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	b.p = malloc((size_t)n);
	cr_assert_eq(fread(b.p, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	b.n = (size_t)n;
	return b;
}

static struct pms_tracing_data *open_fixture(const char *name)
{
	char path[256], msg[256];
	struct pms_tracing_data *td;
	struct blob b;

	snprintf(path, sizeof(path), FIX "%s", name);
	b = load(path);
	cr_assert_eq(pms_tracing_data__open(&td, b.p, b.n, msg, sizeof(msg)), 0, "%s: %s", name, msg);
	free(b.p);
	return td;
}

/* tests/fixtures/tracing/ksyms.txt: the kernel symbols the fixture payloads point at. */
static const char *fixture_ksym(void *ctx, uint64_t addr, uint64_t *start)
{
	static char names[8][64];
	static uint64_t addrs[8];
	static int nr = -1;
	(void)ctx;

	if (nr < 0) {
		FILE *f = fopen(FIX "ksyms.txt", "r");
		char line[256];

		cr_assert_not_null(f);
		nr = 0;
		while (fgets(line, sizeof(line), f) && nr < 8)
			if (line[0] != '#' && sscanf(line, "%lx %63s", &addrs[nr], names[nr]) == 2)
				nr++;
		fclose(f);
	}
	for (int i = 0; i < nr; i++)
		if (addrs[i] == addr) {
			*start = addr;
			return names[i];
		}
	return NULL;
}

static size_t unhex(const char *hex, uint8_t *out, size_t max)
{
	size_t n = 0;
	unsigned v;

	while (n < max && sscanf(hex + 2 * n, "%2x", &v) == 1)
		out[n++] = (uint8_t)v;
	return n;
}

Test(tracing_data, fixture_header_and_events)
{
	struct pms_tracing_data *td = open_fixture("sched.tracing");
	const char *sys, *name;
	uint64_t id;

	cr_assert_str_eq(pms_tracing_data__version(td), "0.6");
	cr_assert_null(pms_tracing_data__warning(td), "%s", pms_tracing_data__warning(td));
	cr_assert_eq(pms_tracing_data__nr_events(td), 2);
	cr_assert_eq(pms_tracing_data__event_at(td, 0, &id, &sys, &name), 0);
	cr_assert_eq(id, 372);
	cr_assert_str_eq(sys, "sched");
	cr_assert_str_eq(name, "sched_switch");
	cr_assert_eq(pms_tracing_data__event_at(td, 1, &id, &sys, &name), 0);
	cr_assert_eq(id, 374);
	cr_assert_str_eq(name, "sched_wakeup");
	cr_assert_eq(pms_tracing_data__event_at(td, 2, &id, &sys, &name), -ENOENT);
	cr_assert_null(pms_tracing_data__why(td, 372));
	pms_tracing_data__free(td);
}

/* perf evlist --trace-fields: an event's own fields in format order, the common_* ones left out */
Test(tracing_data, fields_in_format_order)
{
	static const char *const want[] = { "prev_comm", "prev_pid", "prev_prio", "prev_state",
					     "next_comm", "next_pid", "next_prio" };
	struct pms_tracing_data *td = open_fixture("sched.tracing");
	const char *f;
	size_t i;

	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		cr_assert_eq(pms_tracing_data__field_at(td, 372, i, &f), 0, "field %zu", i);
		cr_expect_str_eq(f, want[i]);
	}
	cr_expect_eq(pms_tracing_data__field_at(td, 372, i, &f), -ERANGE);
	cr_expect_eq(pms_tracing_data__field_at(td, 999, 0, &f), -ENOENT);
	pms_tracing_data__free(td);
}

Test(tracing_data, events_by_id)
{
	struct pms_tracing_data *td = open_fixture("misc.tracing");
	const char *sys, *name;
	uint64_t prev = 0, id;

	cr_assert_eq(pms_tracing_data__nr_events(td), 10);
	for (size_t i = 0; i < pms_tracing_data__nr_events(td); i++) {
		cr_assert_eq(pms_tracing_data__event_at(td, i, &id, &sys, &name), 0);
		cr_assert_gt(id, prev, "ids ascending");
		prev = id;
	}
	cr_assert_eq(pms_tracing_data__event(td, 782, &sys, &name), 0);
	cr_assert_str_eq(sys, "syscalls");
	cr_assert_str_eq(name, "sys_enter_openat");
	cr_assert_eq(pms_tracing_data__event(td, 460, &sys, &name), 0);
	cr_assert_str_eq(sys, "timer");
	cr_assert_str_eq(name, "hrtimer_start");
	cr_assert_eq(pms_tracing_data__event(td, 221, &sys, &name), 0);
	cr_assert_str_eq(name, "softirq_raise");
	cr_assert_eq(pms_tracing_data__event(td, 372, &sys, &name), -ENOENT);
	cr_assert_eq(pms_tracing_data__event(td, 1ULL << 40, &sys, &name), -ENOENT);
	pms_tracing_data__free(td);
}

/* Every payload of payloads.txt, printed as perf script printed it. */
Test(tracing_data, payloads_as_perf_script)
{
	static const char *const blobs[] = { "sched.tracing", "misc.tracing", "exec.tracing" };
	struct pms_tracing_data *td[3];
	FILE *f = fopen(FIX "payloads.txt", "r");
	char line[4096], out[1024];
	int checked = 0;

	cr_assert_not_null(f);
	for (int i = 0; i < 3; i++) {
		td[i] = open_fixture(blobs[i]);
		pms_tracing_data__set_func_resolver(td[i], fixture_ksym, NULL);
	}
	while (fgets(line, sizeof(line), f)) {
		char ev[128], hex[2048], *want;
		uint8_t raw[1024];
		unsigned long long id;
		int cpu, n, found = 0;
		size_t len;

		if (line[0] == '#')
			continue;
		line[strcspn(line, "\n")] = '\0';
		want = strchr(line, '\t');
		cr_assert_not_null(want);
		*want++ = '\0';
		cr_assert_eq(sscanf(line, "%127s %llu %d %2047s", ev, &id, &cpu, hex), 4);
		len = unhex(hex, raw, sizeof(raw));
		for (int i = 0; i < 3; i++) {
			n = pms_tracing_data__format(td[i], id, cpu, raw, len, out, sizeof(out));
			if (n == -ENOENT)
				continue;
			found++;
			cr_assert_eq(n, (int)strlen(want), "%s: %d: '%s'", ev, n, out);
			cr_assert_str_eq(out, want, "%s", ev);
		}
		cr_assert_geq(found, 1, "%s in a fixture", ev);
		checked++;
	}
	fclose(f);
	cr_assert_eq(checked, 12);
	for (int i = 0; i < 3; i++)
		pms_tracing_data__free(td[i]);
}

static size_t fixture_payload(const char *event, uint8_t *raw, size_t max, unsigned long long *id)
{
	FILE *f = fopen(FIX "payloads.txt", "r");
	char line[4096], ev[128], hex[2048];
	size_t len = 0;
	int cpu;

	cr_assert_not_null(f);
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%127s %llu %d %2047s", ev, id, &cpu, hex) == 4 && !strcmp(ev, event)) {
			len = unhex(hex, raw, max);
			break;
		}
	fclose(f);
	cr_assert_gt(len, 0, "%s", event);
	return len;
}

Test(tracing_data, function_names_need_a_resolver)
{
	struct pms_tracing_data *td = open_fixture("misc.tracing");
	unsigned long long id;
	uint8_t raw[256];
	size_t len = fixture_payload("timer:hrtimer_start", raw, sizeof(raw), &id);
	char out[512];

	cr_assert_gt(pms_tracing_data__format(td, id, 1, raw, len, out, sizeof(out)), 0);
	cr_assert_not_null(strstr(out, "function=0xffffffff814204b0 "), "%s", out);
	pms_tracing_data__set_func_resolver(td, fixture_ksym, NULL);
	cr_assert_gt(pms_tracing_data__format(td, id, 1, raw, len, out, sizeof(out)), 0);
	cr_assert_not_null(strstr(out, "function=hrtimer_wakeup "), "%s", out);
	pms_tracing_data__set_func_resolver(td, NULL, NULL);
	cr_assert_gt(pms_tracing_data__format(td, id, 1, raw, len, out, sizeof(out)), 0);
	cr_assert_not_null(strstr(out, "function=0xffffffff814204b0 "), "%s", out);
	pms_tracing_data__free(td);
}

Test(tracing_data, truncated_output_buffer)
{
	struct pms_tracing_data *td = open_fixture("sched.tracing");
	unsigned long long id;
	uint8_t raw[256];
	size_t len = fixture_payload("sched:sched_wakeup", raw, sizeof(raw), &id);
	char out[8];

	memset(out, 'x', sizeof(out));
	cr_assert_eq(pms_tracing_data__format(td, id, 0, raw, len, out, sizeof(out)),
		     (int)strlen("comm=migration/0 pid=18 prio=0 target_cpu=000"));
	cr_assert_str_eq(out, "comm=mi");
	cr_assert_eq(pms_tracing_data__format(td, id, 0, raw, len, NULL, 0),
		     (int)strlen("comm=migration/0 pid=18 prio=0 target_cpu=000"));
	pms_tracing_data__free(td);
}

Test(tracing_data, payloads_that_do_not_fit)
{
	struct pms_tracing_data *td = open_fixture("sched.tracing");
	unsigned long long id;
	uint8_t raw[256], big[70000] = { 0 };
	size_t len = fixture_payload("sched:sched_switch", raw, sizeof(raw), &id);
	char out[512];

	/* shorter than its fields: every prefix */
	for (size_t n = 0; n < 64; n++)
		cr_assert_eq(pms_tracing_data__format(td, id, 0, raw, n, out, sizeof(out)), -EBADMSG, "%zu", n);
	cr_assert_gt(pms_tracing_data__format(td, id, 0, raw, 64, out, sizeof(out)), 0);
	cr_assert_eq(pms_tracing_data__format(td, 99, 0, raw, len, out, sizeof(out)), -ENOENT);
	cr_assert_eq(pms_tracing_data__format(td, id, 0, NULL, 0, out, sizeof(out)), -EBADMSG);
	memcpy(big, raw, len);
	cr_assert_eq(pms_tracing_data__format(td, id, 0, big, sizeof(big), out, sizeof(out)), -EBADMSG);
	/* its common_type names an event the data has no format for */
	raw[0] = 0x99;
	cr_assert_eq(pms_tracing_data__format(td, id, 0, raw, len, out, sizeof(out)), -EBADMSG);
	/* ... or another one: libtraceevent prints by that type, as perf does */
	raw[0] = 0x76;
	cr_assert_gt(pms_tracing_data__format(td, id, 0, raw, len, out, sizeof(out)), 0);
	cr_assert_eq(strncmp(out, "comm=perf ", 10), 0, "%s", out);
	pms_tracing_data__free(td);
}

Test(tracing_data, not_tracing_data)
{
	static const uint8_t bad_version[] = { 23, 8, 68, 't', 'r', 'a', 'c', 'i', 'n', 'g', '0', '.', '6' };
	static const uint8_t bad_long[] = { 23, 8, 68, 't', 'r', 'a', 'c', 'i', 'n', 'g', '0', '.', '6', 0, 0, 3, 0, 16, 0, 0 };
	static const uint8_t bad_page[] = { 23, 8, 68, 't', 'r', 'a', 'c', 'i', 'n', 'g', '0', '.', '6', 0, 0, 8, 0, 0, 0, 0 };
	struct pms_tracing_data *td = (void *)1;
	char msg[128];

	cr_assert_eq(pms_tracing_data__open(&td, "hello, world", 12, msg, sizeof(msg)), -EINVAL);
	cr_assert_null(td);
	cr_assert_not_null(strstr(msg, "not perf tracing data"), "%s", msg);
	cr_assert_eq(pms_tracing_data__open(&td, NULL, 0, msg, sizeof(msg)), -EINVAL);
	cr_assert_eq(pms_tracing_data__open(&td, bad_version, sizeof(bad_version), msg, sizeof(msg)), -EBADMSG);
	cr_assert_not_null(strstr(msg, "header damaged"), "%s", msg);
	cr_assert_eq(pms_tracing_data__open(&td, bad_long, sizeof(bad_long), NULL, 0), -EBADMSG);
	cr_assert_eq(pms_tracing_data__open(&td, bad_page, sizeof(bad_page), msg, sizeof(msg)), -EBADMSG);
	cr_assert_not_null(strstr(msg, "page size"), "%s", msg);
}

/* ---------- damaged blobs ---------- */

/* Whatever opens must answer every query and format a payload or refuse it; true if it opened partly. */
static bool exercise(const uint8_t *p, size_t n, const uint8_t *raw, size_t raw_len, uint64_t raw_id)
{
	struct pms_tracing_data *td;
	char msg[256], out[256];
	int err = pms_tracing_data__open(&td, p, n, msg, sizeof(msg));
	volatile size_t sink = 0;
	bool partly;

	if (err) {
		cr_assert(err == -EINVAL || err == -EBADMSG, "%d", err);
		cr_assert_null(td);
		cr_assert_neq(msg[0], '\0');
		return false;
	}
	for (size_t i = 0; i < pms_tracing_data__nr_events(td); i++) {
		const char *sys, *name, *why;
		uint64_t id;

		cr_assert_eq(pms_tracing_data__event_at(td, i, &id, &sys, &name), 0);
		sink += strlen(sys) + strlen(name);
		why = pms_tracing_data__why(td, id);
		if (why)
			sink += strlen(why);
		err = pms_tracing_data__format(td, id, 0, raw, raw_len, out, sizeof(out));
		cr_assert(err >= 0 || err == -EBADMSG || err == -EOPNOTSUPP, "%d", err);
	}
	err = pms_tracing_data__format(td, raw_id, 0, raw, raw_len, out, sizeof(out));
	cr_assert(err >= 0 || err == -EBADMSG || err == -EOPNOTSUPP || err == -ENOENT, "%d", err);
	partly = pms_tracing_data__warning(td) != NULL;
	if (partly)
		sink += strlen(pms_tracing_data__warning(td));
	pms_tracing_data__free(td);
	(void)sink;
	return partly;
}

static void redirect(void)
{
	cr_redirect_stderr();
	cr_redirect_stdout();
}

Test(tracing_data, every_prefix, .init = redirect, .timeout = 120)
{
	static const char *const blobs[] = { FIX "sched.tracing", FIX "exec.tracing" };
	unsigned long long id;
	uint8_t raw[256];
	size_t len = fixture_payload("sched:sched_switch", raw, sizeof(raw), &id);

	for (int k = 0; k < 2; k++) {
		struct blob b = load(blobs[k]);
		size_t partial = 0;

		for (size_t n = 0; n <= b.n; n++) {
			/* a private copy of exactly n bytes: ASan sees a read past it */
			uint8_t *copy = malloc(n ? n : 1);

			memcpy(copy, b.p, n);
			partial += exercise(copy, n, raw, len, id);
			free(copy);
		}
		/* all but the whole blob (and its trailing zero cmdline size bytes) are partial */
		cr_assert_geq(partial, b.n - 20, "%s: %zu partial", blobs[k], partial);
		free(b.p);
	}
	fflush(stderr);
	fflush(stdout);
	cr_assert_stderr_eq_str("", "libtraceevent must not print");
	cr_assert_stdout_eq_str("");
}

Test(tracing_data, random_bit_flips, .init = redirect, .timeout = 120)
{
	static const char *const blobs[] = { FIX "sched.tracing", FIX "misc.tracing", FIX "exec.tracing" };
	uint64_t seed = 0x9e3779b97f4a7c15ULL;
	unsigned long long id;
	uint8_t raw[256];
	size_t len = fixture_payload("sched:sched_switch", raw, sizeof(raw), &id);

	for (int k = 0; k < 3; k++) {
		struct blob b = load(blobs[k]);

		for (int round = 0; round < 1000; round++) {
			uint8_t *copy = malloc(b.n);
			int flips = 1 + round % 8;

			memcpy(copy, b.p, b.n);
			for (int i = 0; i < flips; i++) {
				seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
				copy[(seed >> 33) % b.n] ^= (uint8_t)(1u << ((seed >> 20) & 7));
			}
			exercise(copy, b.n, raw, len, id);
			/* and the payload flipped too, against the intact formats */
			free(copy);
		}
		free(b.p);
	}
	{
		struct pms_tracing_data *td = open_fixture("exec.tracing");
		char out[512];

		for (int round = 0; round < 3000; round++) {
			uint8_t r2[256];
			unsigned long long id2;
			static const char *const evs[] = { "sched:sched_process_exec", "sched:sched_process_fork",
							   "irq:irq_handler_entry", "workqueue:workqueue_execute_start" };
			size_t l2 = fixture_payload(evs[round % 4], r2, sizeof(r2), &id2);
			int err;

			for (int i = 0; i < 4; i++) {
				seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
				r2[(seed >> 33) % l2] ^= (uint8_t)(1u << ((seed >> 20) & 7));
			}
			err = pms_tracing_data__format(td, id2, 0, r2, l2, out, sizeof(out));
			cr_assert(err >= 0 || err == -EBADMSG, "%d", err);
		}
		pms_tracing_data__free(td);
	}
	fflush(stderr);
	fflush(stdout);
	cr_assert_stderr_eq_str("", "libtraceevent must not print");
	cr_assert_stdout_eq_str("");
}

/* ---------- crafted formats ---------- */

static void put(struct blob *b, const void *p, size_t n)
{
	b->p = realloc(b->p, b->n + n);
	memcpy(b->p + b->n, p, n);
	b->n += n;
}

static void put_u32(struct blob *b, uint32_t v)
{
	put(b, &v, 4);
}

static void put_u64(struct blob *b, uint64_t v)
{
	put(b, &v, 8);
}

/* A one-system container with the given formats, kallsyms and printk texts. */
static struct blob build(const char *sys, const char *const *formats, size_t nr, const char *kallsyms)
{
	static const uint8_t magic[] = { 23, 8, 68, 't', 'r', 'a', 'c', 'i', 'n', 'g' };
	static const uint8_t sizes[] = { 0, 8, 0, 16, 0, 0 };
	struct blob b = { 0 };

	put(&b, magic, sizeof(magic));
	put(&b, "0.6", 4);
	put(&b, sizes, sizeof(sizes)); /* little endian, long 8, page 4096 */
	put(&b, "header_page", 12);
	put_u64(&b, 0);
	put(&b, "header_event", 13);
	put_u64(&b, 0);
	put_u32(&b, 0);
	put_u32(&b, 1);
	put(&b, sys, strlen(sys) + 1);
	put_u32(&b, (uint32_t)nr);
	for (size_t i = 0; i < nr; i++) {
		put_u64(&b, strlen(formats[i]));
		put(&b, formats[i], strlen(formats[i]));
	}
	put_u32(&b, kallsyms ? (uint32_t)strlen(kallsyms) : 0);
	if (kallsyms)
		put(&b, kallsyms, strlen(kallsyms));
	put_u32(&b, 0);
	put_u64(&b, 0);
	return b;
}

#define COMMON                                                                               \
	"format:\n"                                                                          \
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"               \
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"               \
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"       \
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
#define FIELDS                                                                               \
	"\tfield:int a;\toffset:8;\tsize:4;\tsigned:1;\n"                                    \
	"\tfield:unsigned int len;\toffset:12;\tsize:4;\tsigned:0;\n"                        \
	"\tfield:__data_loc char[] s;\toffset:16;\tsize:4;\tsigned:0;\n"                     \
	"\tfield:unsigned char buf[8];\toffset:20;\tsize:8;\tsigned:0;\n\n"

/* One event "t:ev" with id 7, FIELDS and this print fmt. */
static struct pms_tracing_data *crafted(const char *print_fmt)
{
	char fmt[8192], msg[256];
	const char *fmts[] = { fmt };
	struct pms_tracing_data *td;
	struct blob b;

	snprintf(fmt, sizeof(fmt), "name: ev\nID: 7\n" COMMON FIELDS "print fmt: %s\n", print_fmt);
	b = build("t", fmts, 1, NULL);
	cr_assert_eq(pms_tracing_data__open(&td, b.p, b.n, msg, sizeof(msg)), 0, "%s", msg);
	free(b.p);
	cr_assert_eq(pms_tracing_data__nr_events(td), 1);
	return td;
}

/* A payload of FIELDS: a, len, s = "hi" (at 28), buf = 01..08. */
static size_t payload(uint8_t *p, int a, uint32_t len)
{
	uint32_t loc = 28 | (3u << 16);

	memset(p, 0, 40);
	p[0] = 7;
	memcpy(p + 8, &a, 4);
	memcpy(p + 12, &len, 4);
	memcpy(p + 16, &loc, 4);
	for (int i = 0; i < 8; i++)
		p[20 + i] = (uint8_t)(i + 1);
	memcpy(p + 28, "hi", 3);
	return 32;
}

/*
 * A print fmt libtraceevent is not given: the event prints its fields
 * after "[FAILED TO PARSE]", as kernel formats libtraceevent cannot parse do.
 */
static void expect_fields_only(const char *print_fmt)
{
	struct pms_tracing_data *td = crafted(print_fmt);
	uint8_t p[64];
	char out[256];

	cr_assert_null(pms_tracing_data__why(td, 7), "%s", print_fmt);
	cr_assert_gt(pms_tracing_data__format(td, 7, 0, p, payload(p, 1, 2), out, sizeof(out)), 0);
	cr_assert_str_eq(out, "[FAILED TO PARSE] a=1 len=2 s=hi buf=ARRAY[01, 02, 03, 04, 05, 06, 07, 08]",
			 "%s: '%s'", print_fmt, out);
	pms_tracing_data__free(td);
}

/* A print fmt libtraceevent parsed, but not one to print with. */
static void expect_refused(const char *print_fmt, const char *why_part)
{
	struct pms_tracing_data *td = crafted(print_fmt);
	const char *why = pms_tracing_data__why(td, 7);
	uint8_t p[64];
	char out[64];

	cr_assert_not_null(why, "%s accepted", print_fmt);
	cr_assert_not_null(strstr(why, why_part), "%s: %s", print_fmt, why);
	cr_assert_not_null(pms_tracing_data__warning(td));
	cr_assert_eq(pms_tracing_data__format(td, 7, 0, p, payload(p, 1, 2), out, sizeof(out)), -EOPNOTSUPP);
	pms_tracing_data__free(td);
}

static void expect_prints(const char *print_fmt, int a, uint32_t len, const char *want)
{
	struct pms_tracing_data *td = crafted(print_fmt);
	uint8_t p[64];
	char out[256];
	int n;

	cr_assert_null(pms_tracing_data__why(td, 7), "%s: %s", print_fmt, pms_tracing_data__why(td, 7));
	n = pms_tracing_data__format(td, 7, 0, p, payload(p, a, len), out, sizeof(out));
	if (want) {
		cr_assert_geq(n, 0, "%s: %d", print_fmt, n);
		/* "": libtraceevent versions differ in how they print it */
		if (*want)
			cr_assert_str_eq(out, want, "%s: '%s'", print_fmt, out);
	} else {
		cr_assert_eq(n, -EBADMSG, "%s: %d '%s'", print_fmt, n, out);
	}
	pms_tracing_data__free(td);
}

Test(tracing_data, crafted_formats_that_print)
{
	expect_prints("\"a=%d s=%s\", REC->a, __get_str(s)", -5, 0, "a=-5 s=hi");
	expect_prints("\"%d\", REC->a / 2", 9, 0, "4");
	expect_prints("\"%d\", REC->buf[3]", 0, 0, "4");
	expect_prints("\"%.*s\", REC->len, __get_str(s)", 0, 1, "h");
	expect_prints("\"%8d|\", REC->a", 3, 0, "       3|");
	/* hex dump lengths taken from the payload are checked against it */
	expect_prints("\"%s\", __print_hex(REC->buf, REC->len)", 0, 3, "01 02 03");
	/* buf is at 20 in a 32-byte payload: 12 bytes to its end */
	expect_prints("\"%s\", __print_hex(REC->buf, REC->len)", 0, 12, "01 02 03 04 05 06 07 08 68 69 00 00");
	expect_prints("\"%s\", __print_hex(REC->buf, REC->len)", 0, 13, NULL);
	expect_prints("\"%s\", __print_hex(REC->buf, REC->len)", 0, 0x7fffffff, NULL);
	expect_prints("\"%s\", __print_hex(__get_dynamic_array(s), __get_dynamic_array_len(s))", 0, 0, "68 69 00");
	expect_prints("\"%s\", __print_array(REC->buf, REC->len, 2)", 0, 2, "");
	expect_prints("\"%s\", __print_array(REC->buf, REC->len, 2)", 0, 6, "");
	expect_prints("\"%s\", __print_array(REC->buf, REC->len, 2)", 0, 7, NULL);
}

Test(tracing_data, crafted_print_fmts_not_parsed)
{
	/* libtraceevent 1.7 dereferences NULL on this one */
	expect_fields_only("\"%s\", __print_flags(REC->nosuch, \"|\", { 1, \"A\" })");
	/* ... and folds this one into a SIGFPE */
	expect_fields_only("\"%d\", 1 / 2 * 0");
	expect_fields_only("\"%d\", REC->a / REC->len");
	expect_fields_only("\"%d\", REC->a % REC->len");
	expect_fields_only("\"%d\", REC->a / 0");
	expect_fields_only("\"%d\", REC->a / 0x0");
	expect_fields_only("\"%d\", REC->a / 2[0]");
	expect_fields_only("\"%d\", REC->a / (2)");
	/* octal as strtoull reads it: "08" and "0008004" are zeros (a fuzzer's SIGFPE in tep_parse_event) */
	expect_fields_only("\"%d\", REC->a / 08");
	/* "++" and "--" are one token to libtraceevent, which leaks it */
	expect_fields_only("\"%d\", (REC->a + 1) ++ 1");
	expect_fields_only("\"%d\", REC->a -- 1");
	expect_fields_only("\"%d\", (0 | 0%00008004 | 1)");
	expect_fields_only("\"%d\", REC->a % 0000000000000000000000000000000000000000000000000000000000000000000000000001");
	expect_fields_only("\"%s\", __print_flags_u64(REC->a, \"|\", { 1, \"A\" })");
	expect_fields_only("\"%s\", __get_str(nosuch)");
	expect_fields_only("\"%d\", REC->a`b");
	expect_fields_only("\"%d\", REC->a; REC->a");
	expect_fields_only("\"%d\", ({ int x = REC->a; x; })");
	expect_fields_only("\"%d\", (((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((REC->a"
			   ")))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))");
	expect_fields_only("\"%d\", REC->a \"unterminated");
	expect_fields_only("\"%d\", __print_symbolic(REC->a, { REC->len, \"x\" })");
	expect_prints("\"%d %d\", REC->a / 4, REC->a % 4", 9, 0, "2 1");
	expect_prints("\"%d\", REC->a / 0x2 << 1", 9, 0, "8");
	expect_prints("\"%d\", REC->a / 010", 17, 0, "2");
	expect_prints("\"%d\", REC->a - -1", 9, 0, "10");
	expect_prints("\"%d\", (REC)->a", 9, 0, "9");
	expect_prints("\"%s\", __print_symbolic(REC->a, { 1, \"one\" }, { 2, \"tw\" \"o\" }, { -1, ((void *)0) })", 1, 0,
		      "one");
}

Test(tracing_data, crafted_formats_refused)
{
	expect_refused("\"%d\", REC->buf[REC->a]", "index");
	expect_refused("\"%d\", REC->buf[100000]", "index");
	expect_refused("\"%99999d\", REC->a", "width");
	expect_refused("\"%.99999d\", REC->a", "width");
	expect_refused("\"%*d\", REC->len, REC->a", "width");
	expect_refused("\"%*s\", REC->len, __get_str(s)", "width");
	expect_refused("\"%s\", __print_hex(REC->buf, REC->a + 1)", "length");
	expect_refused("\"%s\", __print_hex(5, 2)", "array");
	expect_refused("\"%s\", __print_array(REC->buf, 2, REC->a)", "element size");
}

Test(tracing_data, crafted_fields_and_nesting)
{
	char deep[1024], fmt[8192], msg[256];
	const char *fmts[] = { fmt };
	struct pms_tracing_data *td;
	struct blob b;
	size_t n = 0;

	snprintf(fmt, sizeof(fmt), "name: ev\nID: 7\n" COMMON
		 "\tfield:int far;\toffset:70000;\tsize:4;\tsigned:1;\n\nprint fmt: \"%%d\", REC->far\n");
	b = build("t", fmts, 1, NULL);
	cr_assert_eq(pms_tracing_data__open(&td, b.p, b.n, msg, sizeof(msg)), 0, "%s", msg);
	cr_assert_not_null(strstr(pms_tracing_data__why(td, 7), "64 KiB"), "%s", pms_tracing_data__why(td, 7));
	pms_tracing_data__free(td);
	free(b.p);

	/* field lines that are not tracefs's are not given to libtraceevent at all */
	static const char *const bad_fields[] = {
		"\tfield:int a`;\toffset:8;\tsize:4;\tsigned:1;\n",
		"\tfield:int a[99999999999];\toffset:8;\tsize:4;\tsigned:1;\n",
		"\tfield:int a;\toffset:8;\tsize:4;\n",
		"\tfield:int a;\toffset:-8;\tsize:4;\tsigned:1;\n",
		"\tfield:int a;\toffset:8;\tsize:4444444444;\tsigned:1;\n",
		"\tfield:;\toffset:8;\tsize:4;\tsigned:1;\n",
	};
	for (size_t i = 0; i < sizeof(bad_fields) / sizeof(bad_fields[0]); i++) {
		snprintf(fmt, sizeof(fmt), "name: ev\nID: 7\n" COMMON "%s\nprint fmt: \"%%d\", REC->a\n", bad_fields[i]);
		b = build("t", fmts, 1, NULL);
		cr_assert_eq(pms_tracing_data__open(&td, b.p, b.n, msg, sizeof(msg)), 0, "%s", msg);
		cr_assert_eq(pms_tracing_data__nr_events(td), 0, "%s", bad_fields[i]);
		cr_assert_not_null(strstr(pms_tracing_data__warning(td), "refused"), "%s", pms_tracing_data__warning(td));
		pms_tracing_data__free(td);
		free(b.p);
	}
	/* a long chain of operators: libtraceevent recurses per operator */
	n = (size_t)snprintf(deep, sizeof(deep), "1");
	while (n + 4 < sizeof(deep))
		n += (size_t)snprintf(deep + n, sizeof(deep) - n, "+1");
	snprintf(fmt, sizeof(fmt), "name: ev\nID: 7\n" COMMON FIELDS "print fmt: \"%%d\", %s\n", deep);
	b = build("t", fmts, 1, NULL);
	cr_assert_eq(pms_tracing_data__open(&td, b.p, b.n, msg, sizeof(msg)), 0, "%s", msg);
	cr_assert_eq(pms_tracing_data__nr_events(td), 1);
	pms_tracing_data__free(td);
	free(b.p);
}

/* Old perf versions stored /proc/kallsyms in the tracing data: used when no resolver is set. */
Test(tracing_data, kallsyms_in_the_blob)
{
	struct blob f = load(FIX "tracefs/events/timer/hrtimer_start/format");
	char *text = calloc(1, f.n + 1), msg[256], out[512];
	const char *fmts[] = { text };
	struct pms_tracing_data *td;
	unsigned long long id;
	uint8_t raw[256];
	size_t len = fixture_payload("timer:hrtimer_start", raw, sizeof(raw), &id);
	struct blob b;

	memcpy(text, f.p, f.n);
	b = build("timer", fmts, 1, "ffffffff814204b0 t hrtimer_wakeup\nffffffff814205a0 T other\n");
	cr_assert_eq(pms_tracing_data__open(&td, b.p, b.n, msg, sizeof(msg)), 0, "%s", msg);
	cr_assert_gt(pms_tracing_data__format(td, id, 1, raw, len, out, sizeof(out)), 0);
	cr_assert_str_eq(out, "hrtimer=0xffffc90005997ad0 function=hrtimer_wakeup expires=538475209378 "
			      "softexpires=538475159378 mode=0x1 was_armed=0");
	pms_tracing_data__free(td);
	free(b.p);
	free(f.p);
	free(text);
}

/* ---------- from tracefs ---------- */

Test(tracing_data, synthesized_from_tracefs)
{
	const struct pms_tracepoint_ref refs[] = {
		{ 372, "sched", "sched_switch" },
		{ 374, NULL, NULL },                 /* found by id */
		{ 460, "sched", "sched_switch" },   /* a name of another id: found by id */
		{ 999, "sched", "sched_switch" },   /* nowhere */
		{ 372, "sched", "sched_switch" },   /* twice: written once */
		{ 1, "..", "etc" },                  /* never a path outside events/ */
	};
	struct pms_tracing_data *td;
	const char *sys, *name;
	unsigned long long id;
	uint8_t raw[256];
	size_t len = fixture_payload("sched:sched_switch", raw, sizeof(raw), &id), size;
	char out[512], msg[256];
	void *blob;

	setenv("PMS_TRACEFS_ROOT", FIX "tracefs", 1);
	cr_assert_eq(pms_tracing_data__synthesize(refs, 6, &blob, &size), 0);
	cr_assert_eq(pms_tracing_data__open(&td, blob, size, msg, sizeof(msg)), 0, "%s", msg);
	cr_assert_null(pms_tracing_data__warning(td), "%s", pms_tracing_data__warning(td));
	cr_assert_eq(pms_tracing_data__nr_events(td), 3);
	cr_assert_eq(pms_tracing_data__event(td, 374, &sys, &name), 0);
	cr_assert_str_eq(name, "sched_wakeup");
	cr_assert_eq(pms_tracing_data__event(td, 460, &sys, &name), 0);
	cr_assert_str_eq(sys, "timer");
	cr_assert_eq(pms_tracing_data__event(td, 999, &sys, &name), -ENOENT);
	cr_assert_gt(pms_tracing_data__format(td, id, 0, raw, len, out, sizeof(out)), 0);
	cr_assert_str_eq(out, "prev_comm=perf prev_pid=14467 prev_prio=120 prev_state=D ==> "
			      "next_comm=migration/0 next_pid=18 next_prio=0");
	pms_tracing_data__free(td);
	free(blob);

	cr_assert_eq(pms_tracing_data__synthesize(refs + 3, 1, &blob, &size), -ENOENT);
	cr_assert_null(blob);
	setenv("PMS_TRACEFS_ROOT", FIX "no-such-dir", 1);
	cr_assert_eq(pms_tracing_data__synthesize(refs, 1, &blob, &size), -ENOENT);
}
