// SPDX-License-Identifier: GPL-2.0-only
/* check_numparse.c - The one number parser (lib/core/numparse.c). */
#include "config.h"

#include <stdint.h>
#include <string.h>

#include "check_common.h"
#include "numparse.h"

#define HEX VPMC__NUM_HEX
#define HEXX (VPMC__NUM_HEX | VPMC__NUM_HEX_X)

/* Each expected value is the number written in the text, worked out by hand. */
static const struct {
	const char *s;
	unsigned int flags;
	uint64_t lo, hi;
	int want;     /* 0, -1 (not a number), -2 (out of range) */
	uint64_t val; /* when want == 0 */
} cases[] = {
	{ "0", 0, 0, UINT64_MAX, 0, 0 },
	{ "42", 0, 0, UINT64_MAX, 0, 42 },
	{ "007", 0, 0, UINT64_MAX, 0, 7 },
	{ "18446744073709551615", 0, 0, UINT64_MAX, 0, UINT64_MAX },   /* 2^64 - 1 */
	{ "18446744073709551616", 0, 0, UINT64_MAX, -2, 0 },           /* 2^64 */
	{ "99999999999999999999999", 0, 0, UINT64_MAX, -2, 0 },
	{ "", 0, 0, UINT64_MAX, -1, 0 },
	{ "-1", 0, 0, UINT64_MAX, -1, 0 },
	{ "+1", 0, 0, UINT64_MAX, -1, 0 },
	{ " 1", 0, 0, UINT64_MAX, -1, 0 },
	{ "1 ", 0, 0, UINT64_MAX, -1, 0 },
	{ "12a", 0, 0, UINT64_MAX, -1, 0 },
	{ "9999999999999999999999z", 0, 0, UINT64_MAX, -1, 0 },   /* characters first */
	{ "0x10", 0, 0, UINT64_MAX, -1, 0 },                      /* hex not accepted */
	{ "0x10", HEX, 0, UINT64_MAX, 0, 16 },
	{ "0xfF", HEX, 0, UINT64_MAX, 0, 255 },
	{ "0X10", HEX, 0, UINT64_MAX, -1, 0 },                    /* .vtr: lower-case 0x only */
	{ "0X10", HEXX, 0, UINT64_MAX, 0, 16 },
	{ "0x", HEX, 0, UINT64_MAX, -1, 0 },
	{ "0xg", HEX, 0, UINT64_MAX, -1, 0 },
	{ "0xffffffffffffffff", HEX, 0, UINT64_MAX, 0, UINT64_MAX },
	{ "0x10000000000000000", HEX, 0, UINT64_MAX, -2, 0 },     /* 2^64 */
	{ "ff", HEX, 0, UINT64_MAX, -1, 0 },                      /* hex needs its prefix */
	{ "5", 0, 1, 4, -2, 0 },
	{ "0", 0, 1, 4, -2, 0 },
	{ "4", 0, 1, 4, 0, 4 },
	{ "1", 0, 1, 4, 0, 1 },
};

START_TEST(test_parse_table)
{
	uint64_t v = 12345;
	int got = vpmc__parse_u64(cases[_i].s, strlen(cases[_i].s), cases[_i].flags, cases[_i].lo,
				  cases[_i].hi, &v);

	ck_assert_msg(got == cases[_i].want, "'%s': got %d want %d", cases[_i].s, got,
		      cases[_i].want);
	if (!got)
		ck_assert_msg(v == cases[_i].val, "'%s': value %llu", cases[_i].s,
			      (unsigned long long)v);
	else
		ck_assert_msg(v == 12345, "'%s': value set on failure", cases[_i].s);
}
END_TEST

/* @len bounds the text: "123" with len 2 is 12, and what follows is not read. */
START_TEST(test_parse_len_bounds_text)
{
	uint64_t v;

	ck_assert_int_eq(vpmc__parse_u64("123", 2, 0, 0, UINT64_MAX, &v), 0);
	ck_assert_uint_eq(v, 12);
	ck_assert_int_eq(vpmc__parse_u64("0x1f,", 4, HEX, 0, UINT64_MAX, &v), 0);
	ck_assert_uint_eq(v, 31);
}
END_TEST

static Suite *numparse_suite(void)
{
	Suite *s = suite_create("numparse");
	TCase *tc = tcase_create("core");

	tcase_add_loop_test(tc, test_parse_table, 0, ARRAY_SIZE(cases));
	tcase_add_test(tc, test_parse_len_bounds_text);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(numparse_suite)
