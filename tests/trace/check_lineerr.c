// SPDX-License-Identifier: GPL-2.0-only
/* check_lineerr.c - The line parsers' error setter (lib/trace/lineerr.c): the column of the byte,
 * the token quoted after the message, and the 256-byte bound of a message. */
#include "config.h"

#include <string.h>

#include "check_common.h"
#include "lineerr.h"
#include "vpmc.h"

static int set(struct vpmc__lineerr *err, const char *line, size_t at, const char *msg)
{
	return vpmc__lineerr_set(err, line, line + at, line + strlen(line), "%s", msg);
}

START_TEST(test_column_and_token)
{
	static const char line[] = "kvm_msr: msr_write zz = 0x1";
	struct vpmc__lineerr err;

	/* "zz" starts at byte 19 (0-based), column 20; the token ends at the space after it */
	ck_assert_int_eq(set(&err, line, 19, "kvm_msr: expected a hex number"), VPMC_ERR_PARSE);
	ck_assert_uint_eq(err.col, 20);
	ck_assert_str_eq(err.msg, "kvm_msr: expected a hex number, found 'zz'");
	/* a tab ends a token too */
	set(&err, "a\tb", 0, "m");
	ck_assert_uint_eq(err.col, 1);
	ck_assert_str_eq(err.msg, "m, found 'a'");
}
END_TEST

START_TEST(test_end_of_line)
{
	static const char line[] = "kvm_entry: vcpu";
	struct vpmc__lineerr err;

	set(&err, line, sizeof(line) - 1, "kvm_entry: expected a decimal number");
	ck_assert_uint_eq(err.col, sizeof(line));
	ck_assert_str_eq(err.msg, "kvm_entry: expected a decimal number, found end of line");
}
END_TEST

START_TEST(test_token_quoting)
{
	char line[64];
	struct vpmc__lineerr err;

	/* non-printable bytes as '?' */
	set(&err, "a\001\177b c", 0, "m");
	ck_assert_str_eq(err.msg, "m, found 'a??b'");
	/* 32 bytes of a token at most, then "..." */
	memset(line, 'x', 40);
	line[40] = '\0';
	set(&err, line, 0, "m");
	ck_assert_str_eq(err.msg, "m, found 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx...'");
	line[32] = '\0';
	set(&err, line, 0, "m");
	ck_assert_str_eq(err.msg, "m, found 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'");
}
END_TEST

/* A message of 255 bytes or more fills the 256 bytes and gets no ", found": where a message is
 * cut does not move. (256, not 192, since the .vtr's "unknown event" lists all 19 event words:
 * 185 bytes before a token of up to 32.) */
START_TEST(test_bound)
{
	char msg[300];
	struct vpmc__lineerr err;

	ck_assert_uint_eq(sizeof(err.msg), 256);
	memset(msg, 'm', sizeof(msg) - 1);
	msg[sizeof(msg) - 1] = '\0';
	set(&err, "tok", 0, msg);
	ck_assert_uint_eq(strlen(err.msg), 255);
	msg[255] = '\0';
	set(&err, "tok", 0, msg);
	ck_assert_uint_eq(strlen(err.msg), 255);
	ck_assert_ptr_null(strstr(err.msg, "found"));
	/* 244 bytes leave room for ", found 'to" only (11 of the 12 bytes with the NUL) */
	msg[244] = '\0';
	set(&err, "tok", 0, msg);
	ck_assert_uint_eq(strlen(err.msg), 255);
	ck_assert_str_eq(err.msg + 244, ", found 'to");
}
END_TEST

static Suite *lineerr_suite(void)
{
	Suite *s = suite_create("lineerr");
	TCase *tc = tcase_create("set");

	tcase_add_test(tc, test_column_and_token);
	tcase_add_test(tc, test_end_of_line);
	tcase_add_test(tc, test_token_quoting);
	tcase_add_test(tc, test_bound);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(lineerr_suite)
