// SPDX-License-Identifier: MIT
// Unit tests of lib/export/prom: the Prometheus text format exactly (escaping, numbers, names).
#include <criterion/criterion.h>
#include <errno.h>
#include <locale.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "export/prom.h"

#define NR(a) (sizeof(a) / sizeof((a)[0]))

Test(prom, family_help_and_type_lines)
{
	struct strbuf sb = STRBUF_INIT;

	cr_assert_eq(pms_prom__family(&sb, "pmuscope_cycles_total", "counter", "CPU cycles\\ counted\nper CPU"), 0);
	cr_assert_eq(pms_prom__family(&sb, "pmuscope_up", "gauge", NULL), 0);
	cr_assert_eq(pms_prom__family(&sb, "pmuscope_scrape_seconds", "summary", "Quotes \"stay\" as they are"), 0);
	cr_assert_str_eq(strbuf_str(&sb),
			 "# HELP pmuscope_cycles_total CPU cycles\\\\ counted\\nper CPU\n"
			 "# TYPE pmuscope_cycles_total counter\n"
			 "# TYPE pmuscope_up gauge\n"
			 "# HELP pmuscope_scrape_seconds Quotes \"stay\" as they are\n"
			 "# TYPE pmuscope_scrape_seconds summary\n");
	strbuf_release(&sb);
}

Test(prom, family_refuses_bad_names_types_and_a_second_type_line)
{
	struct strbuf sb = STRBUF_INIT;

	cr_expect_eq(pms_prom__family(&sb, "1abc", "gauge", "x"), -EINVAL);
	cr_expect_eq(pms_prom__family(&sb, "a-b", "gauge", "x"), -EINVAL);
	cr_expect_eq(pms_prom__family(&sb, "", "gauge", "x"), -EINVAL);
	cr_expect_eq(pms_prom__family(&sb, NULL, "gauge", "x"), -EINVAL);
	cr_expect_eq(pms_prom__family(&sb, "ok", "Counter", "x"), -EINVAL);
	cr_expect_eq(pms_prom__family(&sb, "ok", "gaugehistogram", "x"), -EINVAL);
	cr_expect_eq(pms_prom__family(&sb, "ok", NULL, "x"), -EINVAL);
	cr_expect_eq(sb.len, 0, "a refused family writes nothing");

	cr_assert_eq(pms_prom__family(&sb, "a", "untyped", "one"), 0);
	cr_assert_eq(pms_prom__family(&sb, "a_b", "histogram", "# TYPE a fake, inside help text"), 0);
	cr_assert_eq(pms_prom__family(&sb, "ab", "gauge", NULL), 0, "a prefix of a name is another name");
	cr_expect_eq(pms_prom__family(&sb, "a", "gauge", "again"), -EEXIST);
	cr_expect_eq(pms_prom__family(&sb, "a_b", "histogram", NULL), -EEXIST);
	cr_assert_eq(pms_prom__family(&sb, "b:c", "counter", NULL), 0, "colons are valid in metric names");
	strbuf_release(&sb);
}

Test(prom, samples_with_labels_escaped)
{
	struct strbuf sb = STRBUF_INIT;
	const struct pms_prom_label l[] = {
		{ "cpu", "3" }, { "event", "a\\b \"q\"\nx" }, { "_x", "y" },
	};

	cr_assert_eq(pms_prom__sample(&sb, "m_total", l, NR(l), 12345), 0);
	cr_assert_eq(pms_prom__sample(&sb, "m", NULL, 0, 1), 0);
	cr_assert_str_eq(strbuf_str(&sb),
			 "m_total{cpu=\"3\",event=\"a\\\\b \\\"q\\\"\\nx\",_x=\"y\"} 12345\n"
			 "m 1\n");
	strbuf_release(&sb);
}

Test(prom, empty_and_null_label_values_are_left_out)
{
	struct strbuf sb = STRBUF_INIT;
	const struct pms_prom_label l1[] = { { "a", "" }, { "b", "2" }, { "c", NULL } };
	const struct pms_prom_label l2[] = { { "a", "" }, { "c", NULL } };

	cr_assert_eq(pms_prom__sample(&sb, "m", l1, NR(l1), 1), 0);
	cr_assert_eq(pms_prom__sample(&sb, "m", l2, NR(l2), 2), 0);
	cr_assert_str_eq(strbuf_str(&sb), "m{b=\"2\"} 1\nm 2\n");
	strbuf_release(&sb);
}

Test(prom, invalid_utf8_becomes_replacement_character)
{
	struct strbuf sb = STRBUF_INIT;
	const struct pms_prom_label l[] = { { "comm", "caf\xc3\xa9 \xff\xc3" } };

	cr_assert_eq(pms_prom__sample(&sb, "m", l, NR(l), 0), 0);
	cr_assert_str_eq(strbuf_str(&sb), "m{comm=\"caf\xc3\xa9 \xef\xbf\xbd\xef\xbf\xbd\"} 0\n");
	strbuf_release(&sb);
}

Test(prom, invalid_names_refused_and_nothing_written)
{
	struct strbuf sb = STRBUF_INIT;
	const struct pms_prom_label reserved[] = { { "__name__", "x" } };
	const struct pms_prom_label colon[] = { { "a:b", "x" } };
	const struct pms_prom_label digit[] = { { "1a", "x" } };
	const struct pms_prom_label twice[] = { { "a", "1" }, { "a", "2" } };
	const struct pms_prom_label empty_bad[] = { { "bad-name", "" } };

	cr_expect_eq(pms_prom__sample(&sb, "9m", NULL, 0, 1), -EINVAL);
	cr_expect_eq(pms_prom__sample(&sb, "m-x", NULL, 0, 1), -EINVAL);
	cr_expect_eq(pms_prom__sample(&sb, "m", reserved, 1, 1), -EINVAL);
	cr_expect_eq(pms_prom__sample(&sb, "m", colon, 1, 1), -EINVAL);
	cr_expect_eq(pms_prom__sample(&sb, "m", digit, 1, 1), -EINVAL);
	cr_expect_eq(pms_prom__sample(&sb, "m", twice, 2, 1), -EINVAL);
	cr_expect_eq(pms_prom__sample(&sb, "m", empty_bad, 1, 1), -EINVAL, "checked even when left out");
	cr_expect_eq(pms_prom__sample(&sb, "m", NULL, 1, 1), -EINVAL);
	cr_expect_eq(pms_prom__sample_u64(&sb, "m.x", NULL, 0, 1), -EINVAL);
	cr_expect_eq(pms_prom__sample_u64(&sb, "m", twice, 2, 1), -EINVAL);
	cr_expect_eq(sb.len, 0);

	cr_expect(pms_prom__valid_metric_name("_:a_1"));
	cr_expect(pms_prom__valid_metric_name("__reserved_for_labels_only"));
	cr_expect(!pms_prom__valid_metric_name("é"));
	cr_expect(pms_prom__valid_label_name("_a"));
	cr_expect(!pms_prom__valid_label_name("__a"));
	cr_expect(!pms_prom__valid_label_name(""));
	cr_expect(!pms_prom__valid_label_name(NULL));
	strbuf_release(&sb);
}

Test(prom, integers_print_as_integers_and_floats_round_trip)
{
	static const struct {
		double v;
		const char *want;
	} cases[] = {
		{ 0, "0" }, { 1, "1" }, { -1, "-1" }, { 12345, "12345" }, { 1e6, "1000000" },
		{ 1e15, "1000000000000000" }, { 9007199254740992.0, "9007199254740992" },
		{ -9007199254740992.0, "-9007199254740992" },
		{ 0.5, "0.5" }, { 0.1, "0.1" }, { -2.25, "-2.25" }, { 1.0 / 3, "0.3333333333333333" },
		{ 0.1 + 0.2, "0.30000000000000004" }, { 1e-9, "1e-09" }, { 123456.789, "123456.789" },
		{ 1e20, "1e+20" }, { 18446744073709551616.0, "1.8446744073709552e+19" },
		{ NAN, "NaN" }, { INFINITY, "+Inf" }, { -INFINITY, "-Inf" },
	};

	for (size_t i = 0; i < NR(cases); i++) {
		struct strbuf sb = STRBUF_INIT;
		char want[64];

		cr_assert_eq(pms_prom__sample(&sb, "v", NULL, 0, cases[i].v), 0);
		snprintf(want, sizeof(want), "v %s\n", cases[i].want);
		cr_expect_str_eq(strbuf_str(&sb), want, "case %zu", i);
		strbuf_release(&sb);
	}
}

Test(prom, every_float_reads_back_exactly)
{
	uint64_t x = 0x9e3779b97f4a7c15ULL;

	for (int i = 0; i < 20000; i++) {
		double v;
		char buf[32];
		int n;

		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		memcpy(&v, &x, sizeof(v));
		n = pms_prom__format_value(v, buf, sizeof(buf));
		cr_assert(n > 0 && (size_t)n < sizeof(buf));
		if (isnan(v))
			cr_assert_str_eq(buf, "NaN");
		else
			cr_assert(strtod(buf, NULL) == v, "%s does not read back as %a", buf, v);
	}
	cr_expect_eq(pms_prom__format_value(0.1, (char[2]){ 0 }, 2), -ENOSPC);
}

Test(prom, numbers_ignore_the_locale)
{
	struct strbuf sb = STRBUF_INIT;

	/* a locale with a decimal comma: installed, or compiled here from glibc's sources */
	if (!setlocale(LC_NUMERIC, "de_DE.UTF-8")) {
		char dir[] = "/tmp/pms-locale-XXXXXX", cmd[256];

		cr_assert(mkdtemp(dir));
		snprintf(cmd, sizeof(cmd), "localedef -i de_DE -f UTF-8 %s/de_DE.UTF-8 >/dev/null 2>&1", dir);
		if (system(cmd) == 0)
			setenv("LOCPATH", dir, 1);
		if (!setlocale(LC_NUMERIC, "de_DE.UTF-8")) {
			snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
			cr_assert_eq(system(cmd), 0);
			cr_skip_test("no de_DE locale, and localedef could not make one");
		}
		snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
		cr_assert_eq(system(cmd), 0);
	}
	cr_assert_eq(strcmp(localeconv()->decimal_point, ","), 0);
	cr_assert_eq(pms_prom__sample(&sb, "v", NULL, 0, 0.5), 0);
	setlocale(LC_NUMERIC, "C");
	cr_expect_str_eq(strbuf_str(&sb), "v 0.5\n");
	strbuf_release(&sb);
}

Test(prom, u64_counts_exact_above_2_to_53)
{
	struct strbuf sb = STRBUF_INIT;
	const struct pms_prom_label l[] = { { "cpu", "0" } };

	cr_assert_eq(pms_prom__sample_u64(&sb, "c_total", l, NR(l), 9007199254740993ULL), 0);
	cr_assert_eq(pms_prom__sample_u64(&sb, "c_total", NULL, 0, UINT64_MAX), 0);
	cr_assert_eq(pms_prom__sample_u64(&sb, "c_total", NULL, 0, 0), 0);
	cr_assert_str_eq(strbuf_str(&sb),
			 "c_total{cpu=\"0\"} 9007199254740993\n"
			 "c_total 18446744073709551615\n"
			 "c_total 0\n");
	strbuf_release(&sb);
}

Test(prom, summary_family_with_sum_and_count)
{
	struct strbuf sb = STRBUF_INIT;

	cr_assert_eq(pms_prom__family(&sb, "pmuscope_scrape_duration_seconds", "summary", "Time per scrape."), 0);
	cr_assert_eq(pms_prom__sample(&sb, "pmuscope_scrape_duration_seconds_sum", NULL, 0, 0.25), 0);
	cr_assert_eq(pms_prom__sample_u64(&sb, "pmuscope_scrape_duration_seconds_count", NULL, 0, 4), 0);
	cr_assert_str_eq(strbuf_str(&sb),
			 "# HELP pmuscope_scrape_duration_seconds Time per scrape.\n"
			 "# TYPE pmuscope_scrape_duration_seconds summary\n"
			 "pmuscope_scrape_duration_seconds_sum 0.25\n"
			 "pmuscope_scrape_duration_seconds_count 4\n");
	strbuf_release(&sb);
}

Test(prom, out_of_memory_is_enomem)
{
	struct strbuf sb = STRBUF_INIT;

	sb.oom = true; /* what a failed realloc leaves */
	cr_expect_eq(pms_prom__sample(&sb, "m", NULL, 0, 1), -ENOMEM);
	cr_expect_eq(pms_prom__sample_u64(&sb, "m", NULL, 0, 1), -ENOMEM);
	cr_expect_eq(pms_prom__family(&sb, "m", "gauge", "h"), -ENOMEM);
}

Test(prom, name_from_event_names)
{
	static const struct {
		const char *in, *prefix, *suffix, *want;
	} cases[] = {
		{ "context-switches", "pmuscope_", "_total", "pmuscope_context_switches_total" },
		{ "L1-dcache-load-misses", NULL, NULL, "l1_dcache_load_misses" },
		{ "sched:sched_switch", NULL, NULL, "sched_sched_switch" },
		{ "sched:sched_switch", "node_perf_", "_total", "node_perf_sched_sched_switch_total" },
		{ "cpu/event=0x3c,umask=0/", "", "", "cpu_event_0x3c_umask_0" },
		{ "cycles:u", NULL, NULL, "cycles_u" },
		{ "{a,b}", NULL, NULL, "a_b" },
		{ "--a  --  b--", NULL, NULL, "a_b" },
		{ "a_-_b", NULL, NULL, "a_b" },
		{ "a__b", NULL, NULL, "a__b" },
		{ "_under", NULL, NULL, "_under" },
		{ "1st-event", NULL, NULL, "_1st_event" },
		{ "1st-event", "pmuscope_", NULL, "pmuscope_1st_event" },
		{ "-9", NULL, NULL, "_9" },
		{ "caf\xc3\xa9-misses", NULL, NULL, "caf_misses" },
		{ "MiXeD", NULL, "_total", "mixed_total" },
	};
	char out[128];

	for (size_t i = 0; i < NR(cases); i++) {
		cr_assert_eq(pms_prom__name_from(cases[i].in, cases[i].prefix, cases[i].suffix, out, sizeof(out)), 0,
			     "%s", cases[i].in);
		cr_expect_str_eq(out, cases[i].want, "%s", cases[i].in);
		cr_expect(pms_prom__valid_metric_name(out));
	}
}

Test(prom, name_from_errors)
{
	char out[32];
	char small[8];

	cr_expect_eq(pms_prom__name_from("", "p_", NULL, out, sizeof(out)), -EINVAL);
	cr_expect_eq(pms_prom__name_from(NULL, NULL, NULL, out, sizeof(out)), -EINVAL);
	cr_expect_eq(pms_prom__name_from("---", "p_", NULL, out, sizeof(out)), -EINVAL);
	cr_expect_str_eq(out, "");
	cr_expect_eq(pms_prom__name_from("x", "9bad_", NULL, out, sizeof(out)), -EINVAL);
	cr_expect_eq(pms_prom__name_from("x", NULL, "-bad", out, sizeof(out)), -EINVAL);

	cr_expect_eq(pms_prom__name_from("abcdefg", NULL, NULL, small, sizeof(small)), 0);
	cr_expect_str_eq(small, "abcdefg");
	cr_expect_eq(pms_prom__name_from("abcdefgh", NULL, NULL, small, sizeof(small)), -ENAMETOOLONG);
	cr_expect_str_eq(small, "");
	cr_expect_eq(pms_prom__name_from("1abcdef", NULL, NULL, small, sizeof(small)), -ENAMETOOLONG);
	cr_expect_eq(pms_prom__name_from("abc", "pre_", "_total", small, sizeof(small)), -ENAMETOOLONG);
	cr_expect_eq(pms_prom__name_from("a", "prefix__", NULL, small, sizeof(small)), -ENAMETOOLONG);
	cr_expect_eq(pms_prom__name_from("a", NULL, NULL, small, 0), -ENAMETOOLONG);
}

/* promtool (Prometheus's own parser and linter), when installed, accepts what we write. */
Test(prom, promtool_accepts_the_output)
{
	struct strbuf sb = STRBUF_INIT;
	const struct pms_prom_label l[] = { { "cpu", "0" }, { "event", "a\\b \"q\"\nx\xff" } };
	const struct pms_prom_label cpu1[] = { { "cpu", "1" } };
	char path[] = "/tmp/pms-prom-XXXXXX", cmd[128];
	FILE *f;
	int fd;

	if (system("command -v promtool >/dev/null 2>&1") != 0)
		cr_skip_test("promtool is not installed");
	cr_assert_eq(pms_prom__family(&sb, "pmuscope_cycles_total", "counter", "CPU cycles.\nsecond \\ line"), 0);
	cr_assert_eq(pms_prom__sample_u64(&sb, "pmuscope_cycles_total", l, NR(l), UINT64_MAX), 0);
	cr_assert_eq(pms_prom__sample_u64(&sb, "pmuscope_cycles_total", l, 1, 5), 0);
	cr_assert_eq(pms_prom__family(&sb, "pmuscope_ratio", "gauge", "A ratio."), 0);
	cr_assert_eq(pms_prom__sample(&sb, "pmuscope_ratio", l, 1, NAN), 0);
	cr_assert_eq(pms_prom__sample(&sb, "pmuscope_ratio", NULL, 0, -INFINITY), 0);
	cr_assert_eq(pms_prom__sample(&sb, "pmuscope_ratio", cpu1, 1, 1e-9), 0);
	cr_assert_eq(pms_prom__family(&sb, "pmuscope_scrape_duration_seconds", "summary", "Time."), 0);
	cr_assert_eq(pms_prom__sample(&sb, "pmuscope_scrape_duration_seconds_sum", NULL, 0, 0.25), 0);
	cr_assert_eq(pms_prom__sample_u64(&sb, "pmuscope_scrape_duration_seconds_count", NULL, 0, 4), 0);

	fd = mkstemp(path);
	cr_assert(fd >= 0);
	f = fdopen(fd, "w");
	cr_assert(f);
	fputs(strbuf_str(&sb), f);
	fclose(f);
	snprintf(cmd, sizeof(cmd), "promtool check metrics <%s >/dev/null 2>&1", path);
	cr_expect_eq(system(cmd), 0, "promtool check metrics refused:\n%s", strbuf_str(&sb));

	/* the control: promtool does refuse a broken exposition */
	f = fopen(path, "w");
	cr_assert(f);
	fputs("# TYPE a gauge\n# TYPE a gauge\na 1\n", f);
	fclose(f);
	cr_expect_neq(system(cmd), 0);
	unlink(path);
	strbuf_release(&sb);
}
