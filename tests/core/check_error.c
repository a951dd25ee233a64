// SPDX-License-Identifier: GPL-2.0-only
/* check_error.c - Error codes and messages (lib/error.c). */
#include "config.h"

#include <string.h>

#include "check_common.h"
#include "internal.h"

static const struct {
	const char *name;
	int err;
	const char *want;
} strerror_cases[] = {
	{ "ok", VPMC_OK, "success" },
	{ "inval", VPMC_ERR_INVAL, "invalid argument" },
	{ "nomem", VPMC_ERR_NOMEM, "out of memory" },
	{ "io", VPMC_ERR_IO, "I/O error" },
	{ "parse", VPMC_ERR_PARSE, "parse error" },
	{ "nosupport", VPMC_ERR_NOSUPPORT, "not supported in this build" },
	{ "limit", VPMC_ERR_LIMIT, "limit exceeded" },
	{ "unknown-negative", -99, "unknown error" },
	{ "unknown-positive", 7, "unknown error" },
};

START_TEST(test_strerror_table)
{
	const char *got = vpmc_strerror(strerror_cases[_i].err);

	ck_assert_msg(!strcmp(got, strerror_cases[_i].want), "%s: got '%s' want '%s'",
		      strerror_cases[_i].name, got, strerror_cases[_i].want);
}
END_TEST

START_TEST(test_set_error_formats_and_returns_code)
{
	struct vpmc__errbuf eb;
	int ret;

	ret = vpmc__set_error(&eb, VPMC_ERR_PARSE, "%s:%d: expected %s", "t.vtr", 17, "MSR");
	ck_assert_int_eq(ret, VPMC_ERR_PARSE);
	ck_assert_str_eq(eb.msg, "t.vtr:17: expected MSR");
	vpmc__clear_error(&eb);
	ck_assert_str_eq(eb.msg, "");
}
END_TEST

START_TEST(test_set_error_truncates_long_message)
{
	struct vpmc__errbuf eb;
	char big[2 * VPMC_ERRMSG_MAX];

	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	vpmc__set_error(&eb, VPMC_ERR_INVAL, "%s", big);
	ck_assert_uint_eq(strlen(eb.msg), VPMC_ERRMSG_MAX - 1);
}
END_TEST

START_TEST(test_version_is_package_version)
{
	ck_assert_str_eq(vpmc_version(), PACKAGE_VERSION);
}
END_TEST

static Suite *error_suite(void)
{
	Suite *s = suite_create("error");
	TCase *tc = tcase_create("core");

	tcase_add_loop_test(tc, test_strerror_table, 0, ARRAY_SIZE(strerror_cases));
	tcase_add_test(tc, test_set_error_formats_and_returns_code);
	tcase_add_test(tc, test_set_error_truncates_long_message);
	tcase_add_test(tc, test_version_is_package_version);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(error_suite)
