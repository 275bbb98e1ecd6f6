// SPDX-License-Identifier: MIT
// Unit tests of cli/list_util: the JSON writer list/info/explain emit, errno names, the probe switch.
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The CLI is not linked into the unit binary: compile the unit under test into this file. */
#include "../../cli/list_util.c"

struct mem {
	char *buf;
	size_t len;
	FILE *f;
};

static void mem_open(struct mem *m)
{
	m->buf = NULL;
	m->len = 0;
	m->f = open_memstream(&m->buf, &m->len);
	cr_assert_not_null(m->f);
}

static const char *mem_close(struct mem *m)
{
	fclose(m->f);
	return m->buf;
}

Test(list_util_json, nesting_commas_and_keys)
{
	struct mem m;
	struct jw w;

	mem_open(&m);
	jw_init(&w, m.f);
	jw_obj(&w, NULL);
	jw_str(&w, "name", "cpu-cycles");
	jw_arr(&w, "aliases");
	jw_str(&w, NULL, "cycles");
	jw_end(&w);
	jw_arr(&w, "empty");
	jw_end(&w);
	jw_obj(&w, "o");
	jw_int(&w, "neg", -3);
	jw_uint(&w, "big", 18446744073709551615ULL);
	jw_bool(&w, "t", true);
	jw_null(&w, "n");
	jw_str(&w, "s", NULL);
	jw_end(&w);
	jw_end(&w);
	jw_finish(&w);
	cr_assert_str_eq(mem_close(&m),
			 "{\n"
			 "  \"name\": \"cpu-cycles\",\n"
			 "  \"aliases\": [\n"
			 "    \"cycles\"\n"
			 "  ],\n"
			 "  \"empty\": [],\n"
			 "  \"o\": {\n"
			 "    \"neg\": -3,\n"
			 "    \"big\": 18446744073709551615,\n"
			 "    \"t\": true,\n"
			 "    \"n\": null,\n"
			 "    \"s\": null\n"
			 "  }\n"
			 "}\n");
	free(m.buf);
}

/* sysfs alias terms and tracepoint names are not ours: anything must come out as valid JSON */
Test(list_util_json, escapes_quotes_backslashes_and_control_characters)
{
	struct mem m;
	struct jw w;

	mem_open(&m);
	jw_init(&w, m.f);
	jw_arr(&w, NULL);
	jw_str(&w, NULL, "a\"b\\c\nd\te\r\x01\x1f");
	jw_end(&w);
	jw_finish(&w);
	cr_assert_str_eq(mem_close(&m), "[\n  \"a\\\"b\\\\c\\nd\\te\\r\\u0001\\u001f\"\n]\n");
	free(m.buf);
}

Test(list_util_json, knob_absent_is_null)
{
	struct mem m;
	struct jw w;

	mem_open(&m);
	jw_init(&w, m.f);
	jw_obj(&w, NULL);
	jw_knob(&w, "absent", PMS_KNOB_ABSENT);
	jw_knob(&w, "paranoid", -1);
	jw_end(&w);
	jw_finish(&w);
	cr_assert_str_eq(mem_close(&m), "{\n  \"absent\": null,\n  \"paranoid\": -1\n}\n");
	free(m.buf);
}

Test(list_util_errno, names_both_signs_and_unknown)
{
	cr_assert_str_eq(errno_name(ENOENT), "ENOENT");
	cr_assert_str_eq(errno_name(-EACCES), "EACCES");
	cr_assert_str_eq(errno_name(-EOPNOTSUPP), "EOPNOTSUPP");
	cr_assert_str_eq(errno_name(4242), "E4242");
}

Test(list_util_probe, fixture_roots_and_switches_disable_probes)
{
	unsetenv("PMS_SYSFS_ROOT");
	unsetenv("PMS_NO_PROBE");
	cr_assert_not(probes_disabled(false));
	cr_assert(probes_disabled(true));
	setenv("PMS_NO_PROBE", "0", 1);
	cr_assert_not(probes_disabled(false));
	setenv("PMS_NO_PROBE", "1", 1);
	cr_assert(probes_disabled(false));
	unsetenv("PMS_NO_PROBE");
	setenv("PMS_SYSFS_ROOT", "/nonexistent", 1);
	cr_assert(probes_disabled(false));
	unsetenv("PMS_SYSFS_ROOT");
}
