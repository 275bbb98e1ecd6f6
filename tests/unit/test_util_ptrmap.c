// SPDX-License-Identifier: MIT
// Unit tests of lib/util/ptrmap: get/put/replace across growth, negative and extreme keys, NULLs.
#include <criterion/criterion.h>
#include <stdint.h>

#include "util/ptrmap.h"

Test(util_ptrmap, put_get_replace_grow)
{
	struct pms_ptrmap m = { 0 };
	static int vals[3];

	cr_assert_null(pms_ptrmap__get(&m, 1), "empty map");
	for (int64_t k = -5000; k < 5000; k++)
		cr_assert_eq(pms_ptrmap__put(&m, k * 7919, &vals[(k + 5000) % 3]), 0);
	cr_assert_eq(pms_ptrmap__nr(&m), 10000);
	for (int64_t k = -5000; k < 5000; k++)
		cr_assert_eq(pms_ptrmap__get(&m, k * 7919), &vals[(k + 5000) % 3], "key %ld", (long)(k * 7919));
	cr_assert_null(pms_ptrmap__get(&m, 1));
	cr_assert_eq(pms_ptrmap__put(&m, 0, &vals[2]), 0);
	cr_assert_eq(pms_ptrmap__get(&m, 0), &vals[2], "put replaces");
	cr_assert_eq(pms_ptrmap__nr(&m), 10000, "a replaced key is not a new one");
	cr_assert_eq(pms_ptrmap__put(&m, INT64_MIN, &vals[0]), 0);
	cr_assert_eq(pms_ptrmap__put(&m, INT64_MAX, &vals[1]), 0);
	cr_assert_eq(pms_ptrmap__get(&m, INT64_MIN), &vals[0]);
	cr_assert_eq(pms_ptrmap__get(&m, INT64_MAX), &vals[1]);
	cr_assert_eq(pms_ptrmap__put(&m, 42, NULL), 0);
	cr_assert_null(pms_ptrmap__get(&m, 42), "a NULL value reads as absent");
	pms_ptrmap__release(&m);
	cr_assert_null(pms_ptrmap__get(&m, 0), "released is empty");
}
