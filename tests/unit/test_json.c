// SPDX-License-Identifier: MIT
// Unit tests of lib/util/json: nesting, escaping, UTF-8 repair, numbers.
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "util/json.h"

Test(util_json, compact_nesting_and_commas)
{
	struct strbuf sb = STRBUF_INIT;
	struct pms_json j;

	pms_json__init(&j, &sb, false);
	pms_json__obj(&j, NULL);
	pms_json__str(&j, "name", "main");
	pms_json__arr(&j, "ids");
	pms_json__uint(&j, "ignored in arrays", 1);
	pms_json__int(&j, NULL, -2);
	pms_json__end(&j);
	pms_json__obj(&j, "empty");
	pms_json__end(&j);
	pms_json__str(&j, "none", NULL);
	pms_json__bool(&j, "ok", true);
	pms_json__raw(&j, "raw", "[0]", 3);
	pms_json__end(&j);
	cr_assert_str_eq(strbuf_str(&sb),
			 "{\"name\":\"main\",\"ids\":[1,-2],\"empty\":{},\"none\":null,\"ok\":true,\"raw\":[0]}");
	cr_assert(!sb.oom);
	strbuf_release(&sb);
}

Test(util_json, pretty_indents)
{
	struct strbuf sb = STRBUF_INIT;
	struct pms_json j;

	pms_json__init(&j, &sb, true);
	pms_json__obj(&j, NULL);
	pms_json__arr(&j, "a");
	pms_json__uint(&j, NULL, 7);
	pms_json__end(&j);
	pms_json__end(&j);
	pms_json__finish(&j);
	cr_assert_str_eq(strbuf_str(&sb), "{\n  \"a\": [\n    7\n  ]\n}\n");
	strbuf_release(&sb);
}

Test(util_json, escapes_controls_quotes_and_script_end)
{
	struct strbuf sb = STRBUF_INIT;
	const char s[] = "a\"b\\c\n\t\x01</script><!-- <b>";

	pms_json__quote(&sb, s, strlen(s));
	cr_assert_str_eq(strbuf_str(&sb),
			 "\"a\\\"b\\\\c\\n\\t\\u0001\\u003c/script>\\u003c!-- <b>\"");
	strbuf_release(&sb);
}

Test(util_json, keeps_valid_utf8_and_repairs_invalid)
{
	struct strbuf sb = STRBUF_INIT;
	/* é (2 bytes), € (3), 😀 (4); then a lone continuation byte, a truncated
	   sequence, an overlong '/' and a UTF-16 surrogate */
	const char ok[] = "\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80";
	const char bad[] = "\x80x\xe2\x82" "\xc0\xaf" "\xed\xa0\x80";

	pms_json__quote(&sb, ok, strlen(ok));
	cr_assert_str_eq(strbuf_str(&sb), "\"\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\"");
	strbuf_reset(&sb);
	pms_json__quote(&sb, bad, strlen(bad));
	/* each invalid byte becomes one U+FFFD */
	cr_assert_str_eq(strbuf_str(&sb), "\"\xef\xbf\xbdx\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd"
					  "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\"");
	strbuf_reset(&sb);
	pms_json__quote(&sb, "a\0b", 3);
	cr_assert_eq(sb.len, strlen("\"a\\u0000b\""));
	cr_assert(memcmp(sb.buf, "\"a\\u0000b\"", sb.len) == 0);
	strbuf_release(&sb);
}

Test(util_json, numbers)
{
	struct strbuf sb = STRBUF_INIT;
	struct pms_json j;

	pms_json__init(&j, &sb, false);
	pms_json__arr(&j, NULL);
	pms_json__num(&j, NULL, 12.5, 3);
	pms_json__num(&j, NULL, 100.0, 2);
	pms_json__num(&j, NULL, -0.0001, 2);
	pms_json__num(&j, NULL, NAN, 2);
	pms_json__num(&j, NULL, INFINITY, 2);
	pms_json__num(&j, NULL, 1.0 / 3.0, 4);
	pms_json__end(&j);
	cr_assert_str_eq(strbuf_str(&sb), "[12.5,100,0,null,null,0.3333]");
	strbuf_release(&sb);
}
