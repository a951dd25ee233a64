// SPDX-License-Identifier: GPL-2.0-only
/* check_policy.c - Accounting policy names (lib/policy.c). */
#include "config.h"

#include <stdint.h>
#include <string.h>

#include "check_common.h"
#include "vpmc.h"

static const struct {
	const char *name;
	const char *text;
	enum vpmc_policy_kind kind;
	uint64_t arg;
	const char *canonical;
} good[] = {
	{ "exact", "exact", VPMC_POLICY_EXACT, 0, "exact" },
	/* bit n = PERF_COUNT_HW id n: 1 instructions, 4 branches -> 0x12 */
	{ "disabled-hex", "disabled=0x12", VPMC_POLICY_DISABLED, 0x12, "disabled=0x12" },
	{ "disabled-dec", "disabled=18", VPMC_POLICY_DISABLED, 0x12, "disabled=0x12" },
	{ "disabled-zero", "disabled=0", VPMC_POLICY_DISABLED, 0, "disabled=0" },
	{ "tolerance", "tolerance=100", VPMC_POLICY_TOLERANCE, 100, "tolerance=100" },
	{ "tolerance-hex", "tolerance=0x10", VPMC_POLICY_TOLERANCE, 16, "tolerance=16" },
	{ "tolerance-max", "tolerance=18446744073709551615", VPMC_POLICY_TOLERANCE, UINT64_MAX,
	  "tolerance=18446744073709551615" },
	{ "tolerance-wrap", "tolerance-wrap=10000", VPMC_POLICY_TOLERANCE_WRAP, 10000,
	  "tolerance-wrap=10000" },
	{ "mediated", "mediated", VPMC_POLICY_MEDIATED, 0, "mediated" },
	{ "reference", "reference", VPMC_POLICY_REFERENCE, 0, "reference" },
};

START_TEST(test_parse_and_format_good)
{
	struct vpmc_policy p = { VPMC_POLICY_NR, 99 };
	char buf[VPMC_POLICY_NAME_MAX];

	ck_assert_msg(vpmc_policy_parse(&p, good[_i].text, NULL) == 0, "%s: rejected", good[_i].name);
	ck_assert_msg(p.kind == good[_i].kind && p.arg == good[_i].arg, "%s: got kind %d arg %llu",
		      good[_i].name, p.kind, (unsigned long long)p.arg);
	ck_assert_int_eq(vpmc_policy_format(&p, buf, sizeof(buf)), 0);
	ck_assert_msg(!strcmp(buf, good[_i].canonical), "%s: formatted '%s' want '%s'",
		      good[_i].name, buf, good[_i].canonical);
}
END_TEST

static const struct {
	const char *name;
	const char *text;
	const char *why_contains;
} bad[] = {
	{ "empty", "", "expected exact" },
	{ "unknown", "lazy", "expected exact" },
	{ "prefix", "exac", "expected exact" },
	{ "longer", "exactly", "expected exact" },
	{ "tolerance-no-value", "tolerance", "needs =VALUE" },
	{ "exact-with-value", "exact=1", "takes no =VALUE" },
	{ "negative", "tolerance=-1", "u64" },
	{ "overflow", "tolerance=18446744073709551616", "u64" },
	{ "trailing", "disabled=0x12z", "u64" },
	{ "empty-value", "disabled=", "u64" },
	{ "space", "tolerance= 5", "u64" },
};

START_TEST(test_parse_bad)
{
	struct vpmc_policy p = { VPMC_POLICY_MEDIATED, 77 };
	const char *why = NULL;

	ck_assert_msg(vpmc_policy_parse(&p, bad[_i].text, &why) == VPMC_ERR_INVAL, "%s: accepted",
		      bad[_i].name);
	ck_assert_msg(why && strstr(why, bad[_i].why_contains), "%s: why '%s'", bad[_i].name,
		      why ? why : "(null)");
	/* output untouched on failure */
	ck_assert_int_eq(p.kind, VPMC_POLICY_MEDIATED);
	ck_assert_uint_eq(p.arg, 77);
}
END_TEST

START_TEST(test_format_rejects_small_buffer_and_bad_kind)
{
	struct vpmc_policy p = { VPMC_POLICY_TOLERANCE_WRAP, 10000 };
	char buf[8];

	ck_assert_int_eq(vpmc_policy_format(&p, buf, sizeof(buf)), VPMC_ERR_INVAL);
	p.kind = VPMC_POLICY_NR;
	ck_assert_int_eq(vpmc_policy_format(&p, buf, sizeof(buf)), VPMC_ERR_INVAL);
}
END_TEST

static Suite *policy_suite(void)
{
	Suite *s = suite_create("policy");
	TCase *tc = tcase_create("core");

	tcase_add_loop_test(tc, test_parse_and_format_good, 0, ARRAY_SIZE(good));
	tcase_add_loop_test(tc, test_parse_bad, 0, ARRAY_SIZE(bad));
	tcase_add_test(tc, test_format_rejects_small_buffer_and_bad_kind);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(policy_suite)
