// SPDX-License-Identifier: MIT
// Unit tests of stat row rendering against lines taken from perf 6.1's own output.
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "perf_event/stat_fmt.h"
#include "util/json.h"

static struct pms_stat_row row(const char *name, const char *unit, double scale, double value, uint64_t ena,
			       uint64_t run)
{
	struct pms_stat_row r;

	memset(&r, 0, sizeof(r));
	r.name = name;
	r.unit = unit;
	r.scale = scale;
	r.value = value;
	r.ena = ena;
	r.run = run;
	r.state = PMS_ROW_COUNTED;
	return r;
}

static void metric(struct pms_stat_row *r, double v, const char *fmt, const char *unit)
{
	r->metric.valid = true;
	r->metric.value = v;
	r->metric.fmt = fmt;
	snprintf(r->metric.unit, sizeof(r->metric.unit), "%s", unit);
}

static const char *human(const struct pms_stat_row *r)
{
	static struct strbuf sb = STRBUF_INIT;

	strbuf_reset(&sb);
	pms_stat_row__human(r, &sb);
	return strbuf_str(&sb);
}

static const char *csv(const struct pms_stat_row *r, const char *sep)
{
	static struct strbuf sb = STRBUF_INIT;

	strbuf_reset(&sb);
	pms_stat_row__csv(r, sep, &sb);
	return strbuf_str(&sb);
}

Test(stat_human, clock_with_cpus_utilized)
{
	struct pms_stat_row r = row("task-clock", "msec", 1e-6, 800177, 800177, 800177);

	metric(&r, 0.545, "%8.3f", "CPUs utilized");
	cr_assert_str_eq(human(&r),
			 "              0.80 msec task-clock                       #    0.545 CPUs utilized");
}

Test(stat_human, count_with_rate)
{
	struct pms_stat_row r = row("page-faults", "", 1.0, 49, 10, 10);

	metric(&r, 61.565, "%8.3f", "K/sec");
	cr_assert_str_eq(human(&r),
			 "                49      page-faults                      #   61.565 K/sec");
	r = row("context-switches", "", 1.0, 0, 10, 10);
	metric(&r, 0, "%8.3f", "/sec");
	cr_assert_str_eq(human(&r),
			 "                 0      context-switches                 #    0.000 /sec");
}

Test(stat_human, not_supported_and_not_counted)
{
	struct pms_stat_row r = row("cycles", "", 1.0, 0, 0, 0);

	r.state = PMS_ROW_NOT_SUPPORTED;
	cr_assert_str_eq(human(&r), "   <not supported>      cycles");
	r = row("task-clock", "msec", 1e-6, 0, 0, 0);
	r.state = PMS_ROW_NOT_COUNTED;
	cr_assert_str_eq(human(&r), "     <not counted> msec task-clock");
	/* enabled but never running: the 0% makes it visible */
	r.ena = 12300000;
	cr_assert_str_eq(human(&r),
			 "     <not counted> msec task-clock" "                                                    (0.00%)");
}

Test(stat_human, repeat_noise)
{
	struct pms_stat_row r = row("task-clock", "msec", 1e-6, 630000, 5, 5);

	metric(&r, 0.501, "%8.3f", "CPUs utilized");
	r.has_noise = true;
	r.noise_pct = 5.42;
	cr_assert_str_eq(human(&r), "              0.63 msec task-clock                       #    0.501 CPUs "
				    "utilized            ( +-  5.42% )");
	r.noise_pct = 0; /* perf omits a zero variance */
	cr_assert_str_eq(human(&r),
			 "              0.63 msec task-clock                       #    0.501 CPUs utilized");
}

Test(stat_human, multiplexed_running_percentage)
{
	struct pms_stat_row r = row("instructions", "", 1.0, 3003, 300, 100);

	metric(&r, 1.5, "%7.2f ", "insn per cycle");
	cr_assert_str_eq(human(&r), "              3003      instructions                     #    1.50  insn per "
				    "cycle           (33.33%)");
}

Test(stat_human, no_metric_pads_then_trims)
{
	struct pms_stat_row r = row("msr/tsc/", "", 1.0, 123456789, 1, 1);

	cr_assert_str_eq(human(&r), "         123456789      msr/tsc/");
}

Test(stat_csv, perf_columns)
{
	struct pms_stat_row r = row("task-clock", "msec", 1e-6, 780177, 780177, 780177);

	metric(&r, 0.58, "%8.3f", "CPUs utilized");
	cr_assert_str_eq(csv(&r, ","), "0.78,msec,task-clock,780177,100.00,0.580,CPUs utilized");
	r = row("context-switches", "", 1.0, 0, 780177, 780177);
	metric(&r, 0, "%8.3f", "/sec");
	cr_assert_str_eq(csv(&r, ","), "0,,context-switches,780177,100.00,0.000,/sec");
	r = row("cycles", "", 1.0, 0, 0, 0);
	r.state = PMS_ROW_NOT_SUPPORTED;
	cr_assert_str_eq(csv(&r, ","), "<not supported>,,cycles,0,100.00,,");
}

Test(stat_csv, percent_metric_and_multiplexing)
{
	struct pms_stat_row r = row("branch-misses", "", 1.0, 2000, 400, 100);

	metric(&r, 1.25, "%7.2f%%", "of all branches");
	cr_assert_str_eq(csv(&r, ";"), "2000;;branch-misses;100;25.00;1.25;of all branches");
}

Test(stat_csv, repeat_adds_variance_column)
{
	struct pms_stat_row r = row("task-clock", "msec", 1e-6, 559444, 559444, 559444);

	metric(&r, 0.421, "%8.3f", "CPUs utilized");
	r.has_noise = true;
	r.noise_pct = 9.37;
	cr_assert_str_eq(csv(&r, ","), "0.56,msec,task-clock,9.37%,559444,100.00,0.421,CPUs utilized");
}

Test(stat_csv, quotes_fields_holding_the_separator)
{
	struct pms_stat_row r = row("cpu/event=0x3c,umask=0/", "", 1.0, 5, 1, 1);
	struct strbuf sb = STRBUF_INIT;

	cr_assert_str_eq(csv(&r, ","), "5,,\"cpu/event=0x3c,umask=0/\",1,100.00,,");
	cr_assert_str_eq(csv(&r, ";"), "5;;cpu/event=0x3c,umask=0/;1;100.00;;");
	pms_csv__field(&sb, "a\"b", ",");
	cr_assert_str_eq(strbuf_str(&sb), "\"a\"\"b\"");
	strbuf_release(&sb);
}

Test(stat_json, counted_row)
{
	struct pms_stat_row r = row("task-clock", "msec", 1e-6, 711609, 711609, 711609);
	struct strbuf sb = STRBUF_INIT;

	struct pms_json j;

	metric(&r, 0.625, "%8.3f", "CPUs utilized");
	pms_json__init(&j, &sb, false);
	pms_json__obj(&j, NULL);
	pms_stat_row__json(&r, &j);
	pms_json__int(&j, "cpu", 1);
	pms_json__end(&j);
	cr_assert_str_eq(strbuf_str(&sb),
			 "{\"event\":\"task-clock\",\"status\":\"counted\",\"counter_value\":0.711609,"
			 "\"raw_count\":711609,\"unit\":\"msec\",\"time_enabled_ns\":711609,\"time_running_ns\":711609,"
			 "\"percent_running\":100,\"metric\":{\"value\":0.625,\"unit\":\"CPUs utilized\"},\"cpu\":1}");
	strbuf_release(&sb);
}

Test(stat_json, unsupported_row_has_nulls_and_reason)
{
	struct pms_stat_row r = row("cycles", "", 1.0, 0, 0, 0);
	struct strbuf sb = STRBUF_INIT;

	struct pms_json j;

	r.state = PMS_ROW_NOT_SUPPORTED;
	r.reason = "no \"PMU\"";
	pms_json__init(&j, &sb, false);
	pms_json__obj(&j, NULL);
	pms_stat_row__json(&r, &j);
	pms_json__end(&j);
	cr_assert_str_eq(strbuf_str(&sb),
			 "{\"event\":\"cycles\",\"status\":\"not supported\",\"counter_value\":null,\"raw_count\":null,"
			 "\"unit\":\"\",\"time_enabled_ns\":0,\"time_running_ns\":0,\"percent_running\":null,"
			 "\"metric\":null,\"reason\":\"no \\\"PMU\\\"\"}");
	strbuf_release(&sb);
}

Test(stat_json, numbers)
{
	struct strbuf sb = STRBUF_INIT;
	struct pms_json j;

	pms_json__init(&j, &sb, false);
	pms_json__arr(&j, NULL);
	pms_json__double(&j, NULL, 12);
	pms_json__double(&j, NULL, 0.5);
	pms_json__double(&j, NULL, NAN);
	pms_json__double(&j, NULL, INFINITY);
	pms_json__double(&j, NULL, 1e300);
	pms_json__double(&j, NULL, 1.0 / 3);
	pms_json__str(&j, NULL, "a\n\x01");
	pms_json__end(&j);
	cr_assert_str_eq(strbuf_str(&sb), "[12,0.5,null,null,1e+300,0.333333333,\"a\\n\\u0001\"]");
	strbuf_release(&sb);
}

Test(stat_fmt, elapsed_precision_like_perf)
{
	cr_assert_eq(pms_stat__elapsed_precision(0.0000705), 7); /* 0.0012647 +- 0.0000705 */
	cr_assert_eq(pms_stat__elapsed_precision(0.000333), 6);
	cr_assert_eq(pms_stat__elapsed_precision(2.5), 2);
	cr_assert_eq(pms_stat__elapsed_precision(0), 9);
	cr_assert_str_eq(pms_stat_row__state_str(PMS_ROW_NOT_COUNTED), "<not counted>");
}

/* -B in a locale with separators: perf's "%'18.2f" (en_US: 1,234,567.89), width kept */
Test(stat_human, thousands_separators)
{
	struct pms_stat_row r = row("task-clock", "msec", 1e-6, 1234567890, 1, 1);
	struct pms_stat_row p = row("page-faults", "", 1, 1234567, 1, 1);
	struct pms_stat_row s = row("page-faults", "", 1, 999, 1, 1);

	r.thousands_sep = ",";
	p.thousands_sep = ".";
	s.thousands_sep = ",";
	cr_assert_str_eq(human(&r), "          1,234.57 msec task-clock");
	cr_assert_str_eq(human(&p), "         1.234.567      page-faults");
	cr_assert_str_eq(human(&s), "               999      page-faults");
	/* a locale without one (C, POSIX): unchanged */
	p.thousands_sep = "";
	cr_assert_str_eq(human(&p), "           1234567      page-faults");
}

/* -G: the cgroup column after the event name, as perf 6.1 prints it */
Test(stat_human, cgroup_column)
{
	struct pms_stat_row r = row("task-clock", "msec", 1e-6, 120410000, 1, 1);
	struct pms_stat_row n = row("task-clock", "msec", 1e-6, 0, 0, 0);

	r.cgroup = "pmstest";
	metric(&r, 0.579, "%8.3f", "CPUs utilized");
	cr_assert_str_eq(human(&r), "            120.41 msec task-clock                       pmstest #    0.579 CPUs utilized");
	cr_assert_str_eq(csv(&r, ","), "120.41,msec,task-clock,pmstest,1,100.00,0.579,CPUs utilized");
	n.cgroup = "pmstest";
	n.state = PMS_ROW_NOT_COUNTED;
	cr_assert_str_eq(human(&n), "     <not counted> msec task-clock                pmstest");
}
