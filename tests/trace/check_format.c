// SPDX-License-Identifier: GPL-2.0-only
/* check_format.c - Input format names, vpmc_format_parse() (lib/trace/reader.c), black-box. */
#include "config.h"

#include <stddef.h>

#include "check_common.h"
#include "vpmc.h"

/* The names vpmcsim(1) lists for --input-format, and near misses; written by hand. */
static const struct format_case {
	const char *name;
	const char *s;
	int want;                /* 0 or VPMC_ERR_INVAL */
	enum vpmc_format format; /* when want == 0 */
} cases[] = {
	{ "auto", "auto", 0, VPMC_FORMAT_AUTO },
	{ "vtr", "vtr", 0, VPMC_FORMAT_VTR },
	{ "text", "text", 0, VPMC_FORMAT_TEXT },
	{ "dat", "dat", 0, VPMC_FORMAT_DAT },
	{ "empty", "", VPMC_ERR_INVAL, 0 },
	{ "upper case", "AUTO", VPMC_ERR_INVAL, 0 },
	{ "capitalized", "Text", VPMC_ERR_INVAL, 0 },
	{ "leading space", " vtr", VPMC_ERR_INVAL, 0 },
	{ "trailing space", "dat ", VPMC_ERR_INVAL, 0 },
	{ "trailing newline", "text\n", VPMC_ERR_INVAL, 0 },
	{ "prefix", "da", VPMC_ERR_INVAL, 0 },
	{ "longer", "dats", VPMC_ERR_INVAL, 0 },
	{ "file name", "trace.dat", VPMC_ERR_INVAL, 0 },
	{ "extension", ".vtr", VPMC_ERR_INVAL, 0 },
	{ "output format", "csv", VPMC_ERR_INVAL, 0 },
	{ "index", "1", VPMC_ERR_INVAL, 0 },
};

START_TEST(test_format_parse)
{
	const struct format_case *c = &cases[_i];
	/* a value no name gives, to see that a failure leaves it */
	enum vpmc_format f = (enum vpmc_format)77;
	int got = vpmc_format_parse(&f, c->s);

	ck_assert_msg(got == c->want, "%s: '%s': got %d want %d", c->name, c->s, got, c->want);
	if (c->want)
		ck_assert_msg(f == (enum vpmc_format)77, "%s: output changed to %d", c->name, f);
	else
		ck_assert_msg(f == c->format, "%s: got %d want %d", c->name, f, c->format);
}
END_TEST

START_TEST(test_format_parse_null_is_invalid)
{
	enum vpmc_format f = VPMC_FORMAT_DAT;

	ck_assert_int_eq(vpmc_format_parse(&f, NULL), VPMC_ERR_INVAL);
	ck_assert_int_eq(f, VPMC_FORMAT_DAT);
}
END_TEST

static Suite *format_suite(void)
{
	Suite *s = suite_create("format");
	TCase *tc = tcase_create("parse");

	tcase_add_loop_test(tc, test_format_parse, 0, ARRAY_SIZE(cases));
	tcase_add_test(tc, test_format_parse_null_is_invalid);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(format_suite)
