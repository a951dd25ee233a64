// SPDX-License-Identifier: GPL-2.0-only
/*
 * check_share.c - Which lanes each engine of a parallel replay runs (lib/replay/share.c): the
 * engines for a number of policies and threads, and each engine's policies, worked out by hand
 * from share.h's rule (lane 0 and the policies' lanes in contiguous shares of equal size, at
 * most SHARE_LANES_MAX = 16 lanes each, one engine per thread, at most one per lane); and the
 * reading thread's share of the engines' work for given costs.
 */
#include "config.h"

#include "check_common.h"
#include "share.h"

/* Engine @i of @nr of share_engines(@n, ...) runs policies [@from, @to). */
static void expect(unsigned int n, unsigned int nr, unsigned int i, unsigned int from,
		   unsigned int to)
{
	unsigned int f = ~0u, t = ~0u;

	share_policies(n, nr, i, &f, &t);
	ck_assert_uint_eq(f, from);
	ck_assert_uint_eq(t, to);
}

/* compare (5 policies), 6 lanes: -j 2 cuts them 3 + 3, lane 0 with policies 0 and 1 (lane 0
 * alone was the short engine); -j 3 2 + 2 + 2; -j 4 at 6 * i / 4 = 0, 1, 3, 4, 6. */
START_TEST(test_compare)
{
	ck_assert_uint_eq(share_engines(5, 0), 1);
	ck_assert_uint_eq(share_engines(5, 1), 1);
	ck_assert_uint_eq(share_engines(5, 2), 2);
	expect(5, 2, 0, 0, 2);
	expect(5, 2, 1, 2, 5);
	ck_assert_uint_eq(share_engines(5, 3), 3);
	expect(5, 3, 0, 0, 1);
	expect(5, 3, 1, 1, 3);
	expect(5, 3, 2, 3, 5);
	ck_assert_uint_eq(share_engines(5, 4), 4);
	expect(5, 4, 0, 0, 0);
	expect(5, 4, 1, 0, 2);
	expect(5, 4, 2, 2, 3);
	expect(5, 4, 3, 3, 5);
}
END_TEST

/* More threads than lanes: one lane each, lane 0 alone; one policy (replay): two engines. */
START_TEST(test_one_lane_each)
{
	unsigned int i;

	ck_assert_uint_eq(share_engines(5, 8), 6);
	expect(5, 6, 0, 0, 0);
	for (i = 1; i < 6; i++)
		expect(5, 6, i, i - 1, i);
	ck_assert_uint_eq(share_engines(1, 2), 2);
	ck_assert_uint_eq(share_engines(1, 1024), 2);
	expect(1, 2, 0, 0, 0);
	expect(1, 2, 1, 0, 1);
	ck_assert_uint_eq(share_engines(0, 4), 1);
}
END_TEST

/* Lanes past 16 split on one thread too: 15 policies (16 lanes) stay one engine, 16 make 17
 * lanes, cut 8 + 9; a sweep of 32 tolerances and exact, 34 lanes, in 3 engines of 11, 11 and
 * 12 lanes at -j 1 and -j 2, in 4 (8, 9, 8, 9) at -j 4. */
START_TEST(test_many)
{
	ck_assert_uint_eq(share_engines(15, 1), 1);
	ck_assert_uint_eq(share_engines(16, 1), 2);
	expect(16, 2, 0, 0, 7);
	expect(16, 2, 1, 7, 16);
	ck_assert_uint_eq(share_engines(33, 1), 3);
	ck_assert_uint_eq(share_engines(33, 2), 3);
	expect(33, 3, 0, 0, 10);
	expect(33, 3, 1, 10, 21);
	expect(33, 3, 2, 21, 33);
	ck_assert_uint_eq(share_engines(33, 4), 4);
	expect(33, 4, 0, 0, 7);
	expect(33, 4, 1, 7, 16);
	expect(33, 4, 2, 16, 24);
	expect(33, 4, 3, 24, 33);
}
END_TEST

/* For every count of policies and threads: the shares cover every policy once, in order,
 * none empty (lane 0's may hold no policy), none over 16 lanes, and their sizes differ by one
 * lane at most. */
START_TEST(test_cover)
{
	unsigned int n, t, nr, i, from, to, lanes, min, max, next;

	for (n = 1; n <= 300; n++) {
		for (t = 1; t <= 40; t++) {
			nr = share_engines(n, t);
			ck_assert_uint_ge(nr, t < n + 1 ? t : n + 1);
			min = ~0u;
			max = next = 0;
			for (i = 0; i < nr; i++) {
				share_policies(n, nr, i, &from, &to);
				ck_assert_uint_eq(from, next);
				lanes = to - from + !i;
				ck_assert_uint_ge(lanes, 1);
				ck_assert_uint_le(lanes, SHARE_LANES_MAX);
				min = lanes < min ? lanes : min;
				max = lanes > max ? lanes : max;
				next = to;
			}
			ck_assert_uint_eq(next, n);
			ck_assert_uint_le(max - min, 1);
		}
	}
}
END_TEST

/* Reading 100 ns a block and engines 300 ns: 400 over two threads is 200 each, so the reading
 * thread takes 100 of the engines'; reading 300 against 100: none; 100 and 700 over four
 * threads, 200 each: 100; even (200 and 200 over two): none; alone (one thread, or 0): all. */
START_TEST(test_help)
{
	ck_assert_uint_eq(share_help(100, 300, 2), 100);
	ck_assert_uint_eq(share_help(300, 100, 2), 0);
	ck_assert_uint_eq(share_help(100, 700, 4), 100);
	ck_assert_uint_eq(share_help(200, 200, 2), 0);
	ck_assert_uint_eq(share_help(0, 500, 1), 500);
	ck_assert_uint_eq(share_help(40, 500, 0), 500);
}
END_TEST

static Suite *share_suite(void)
{
	Suite *s = suite_create("share");
	TCase *tc = tcase_create("share");

	tcase_add_test(tc, test_compare);
	tcase_add_test(tc, test_one_lane_each);
	tcase_add_test(tc, test_many);
	tcase_add_test(tc, test_cover);
	tcase_add_test(tc, test_help);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(share_suite)
