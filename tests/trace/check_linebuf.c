// SPDX-License-Identifier: GPL-2.0-only
/* check_linebuf.c - Lines from a fixed buffer (lib/trace/linebuf.c): cut last lines, NUL bytes,
 * over-long lines strict and lenient, an endless line, lines across buffer refills. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "check_common.h"
#include "linebuf.h"

/* @lb over a copy of @len bytes of @data, named "m", peeked. */
static void open_mem(struct linebuf *lb, const char *data, size_t len)
{
	struct vpmc__errbuf err;

	linebuf_init(lb);
	lb->name = "m";
	lb->mem = malloc(len ? len : 1);
	ck_assert_ptr_nonnull(lb->mem);
	memcpy(lb->mem, data, len);
	lb->mem_len = len;
	/* one copy of as much as fits */
	ck_assert_int_eq(linebuf_peek(lb, 10, &err), (int)(len < LINEBUF_SIZE ? len : LINEBUF_SIZE));
}

START_TEST(test_lines_and_cut_tail)
{
	static const char in[] = "a\n\nbb\nccc";
	struct linebuf_line l;
	struct vpmc__errbuf err;
	struct linebuf lb;
	char at[64];

	open_mem(&lb, in, sizeof(in) - 1);
	ck_assert_int_eq(linebuf_next(&lb, false, &l, &err), 1);
	ck_assert(l.len == 1 && !memcmp(l.p, "a", 1) && !l.cut && !l.bad);
	ck_assert_int_eq(linebuf_next(&lb, false, &l, &err), 1);
	ck_assert_uint_eq(l.len, 0);
	ck_assert_int_eq(linebuf_next(&lb, false, &l, &err), 1);
	ck_assert(l.len == 2 && !memcmp(l.p, "bb", 2) && !l.cut);
	ck_assert_int_eq(linebuf_next(&lb, false, &l, &err), 1);
	ck_assert(l.len == 3 && !memcmp(l.p, "ccc", 3) && l.cut); /* no '\n' at the end */
	ck_assert_str_eq(linebuf_where(&lb, 0, at, sizeof(at)), "m:4");
	ck_assert_str_eq(linebuf_where(&lb, 2, at, sizeof(at)), "m:4:2");
	ck_assert_int_eq(linebuf_next(&lb, false, &l, &err), 0);
	linebuf_free(&lb);
}
END_TEST

START_TEST(test_nul_byte)
{
	static const char in[] = "ab\0c\nok\n";
	struct linebuf_line l;
	struct vpmc__errbuf err;
	struct linebuf lb;

	open_mem(&lb, in, sizeof(in) - 1);
	ck_assert_int_eq(linebuf_next(&lb, false, &l, &err), 1);
	ck_assert_str_eq(l.bad, "NUL byte in the line (binary data?)");
	ck_assert_uint_eq(l.col, 3);
	ck_assert_uint_eq(l.len, 4);
	ck_assert_int_eq(linebuf_next(&lb, false, &l, &err), 1);
	ck_assert(l.len == 2 && !l.bad);
	linebuf_free(&lb);
}
END_TEST

/* 5000 bytes without a '\n', then "ok": strict stops at the long line (the caller fails);
 * lenient drops it and goes on. */
START_TEST(test_overlong_line)
{
	size_t n = 5000 + 4;
	char *in = malloc(n);
	struct linebuf_line l;
	struct vpmc__errbuf err;
	struct linebuf lb;
	int lenient;

	memset(in, 'x', 5000);
	memcpy(in + 5000, "\nok\n", 4);
	for (lenient = 0; lenient < 2; lenient++) {
		open_mem(&lb, in, n);
		ck_assert_int_eq(linebuf_next(&lb, lenient, &l, &err), 1);
		ck_assert_str_eq(l.bad, "line longer than 4096 bytes");
		ck_assert_uint_eq(l.col, 0);
		ck_assert(!l.cut);
		if (lenient) {
			ck_assert_int_eq(linebuf_next(&lb, true, &l, &err), 1);
			ck_assert(l.len == 2 && !memcmp(l.p, "ok", 2) && !l.bad);
			ck_assert_uint_eq(lb.line, 2);
		}
		linebuf_free(&lb);
	}
	free(in);
}
END_TEST

/* More than LINEBUF_SKIP_MAX bytes without a '\n' are too much to skip. */
START_TEST(test_endless_line)
{
	size_t n = 2 * LINEBUF_SKIP_MAX;
	char *in = malloc(n);
	struct linebuf_line l;
	struct vpmc__errbuf err;
	struct linebuf lb;

	memset(in, 'x', n);
	open_mem(&lb, in, n);
	ck_assert_int_eq(linebuf_next(&lb, true, &l, &err), VPMC_ERR_PARSE);
	ck_assert_str_eq(err.msg, "m:1: line longer than 4096 bytes, and no newline in its first "
		       "1 MiB: too much to skip, even with --lenient (not a text trace?)");
	linebuf_free(&lb);
	free(in);
}
END_TEST

/* 7000 lines of 9 bytes: 70000 bytes, more than one buffer; each line whole. */
START_TEST(test_lines_across_refills)
{
	size_t n = 70000, i;
	char *in = malloc(n);
	struct linebuf_line l;
	struct vpmc__errbuf err;
	struct linebuf lb;

	for (i = 0; i < n; i += 10)
		memcpy(in + i, "123456789\n", 10);
	open_mem(&lb, in, n);
	for (i = 0; i < 7000; i++) {
		ck_assert_int_eq(linebuf_next(&lb, false, &l, &err), 1);
		ck_assert(l.len == 9 && !memcmp(l.p, "123456789", 9) && !l.cut && !l.bad);
	}
	ck_assert_int_eq(linebuf_next(&lb, false, &l, &err), 0);
	ck_assert_uint_eq(lb.line, 7000);
	linebuf_free(&lb);
	free(in);
}
END_TEST

static Suite *linebuf_suite(void)
{
	Suite *s = suite_create("linebuf");
	TCase *tc = tcase_create("lines");

	tcase_add_test(tc, test_lines_and_cut_tail);
	tcase_add_test(tc, test_nul_byte);
	tcase_add_test(tc, test_overlong_line);
	tcase_add_test(tc, test_endless_line);
	tcase_add_test(tc, test_lines_across_refills);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(linebuf_suite)
