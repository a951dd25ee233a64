// SPDX-License-Identifier: GPL-2.0-only
/*
 * check_share.c - Which lanes each engine of a parallel replay runs (lib/replay/share.c): the
 * engines for a number of units of lanes (lane 0, the policies' lanes, or lanes that behaved
 * alike) and threads, and each engine's units, worked out by hand from share.h's rule
 * (contiguous shares of equal size, at most SHARE_LANES_MAX = 16 units each, one engine per
 * thread, at most one per unit); and the reading thread's share of the engines' work for given
 * costs.
 */
#include "config.h"

#include "check_common.h"
#include "share.h"

/* Engine @i of @nr of share_engines(@n, ...) runs units [@from, @to). */
static void expect(unsigned int n, unsigned int nr, unsigned int i, unsigned int from,
		   unsigned int to)
{
	unsigned int f = ~0u, t = ~0u;

	share_units(n, nr, i, &f, &t);
	ck_assert_uint_eq(f, from);
	ck_assert_uint_eq(t, to);
}

/* compare without an overlay (5 policies), 6 lanes: -j 2 cuts them 3 + 3, lane 0 with policies
 * 0 and 1 (lane 0 alone was the short engine); -j 3 2 + 2 + 2; -j 4 at 6 * i / 4 = 0, 1, 3,
 * 4, 6. */
START_TEST(test_compare)
{
	ck_assert_uint_eq(share_engines(6, 0), 1);
	ck_assert_uint_eq(share_engines(6, 1), 1);
	ck_assert_uint_eq(share_engines(6, 2), 2);
	expect(6, 2, 0, 0, 3);
	expect(6, 2, 1, 3, 6);
	ck_assert_uint_eq(share_engines(6, 3), 3);
	expect(6, 3, 0, 0, 2);
	expect(6, 3, 1, 2, 4);
	expect(6, 3, 2, 4, 6);
	ck_assert_uint_eq(share_engines(6, 4), 4);
	expect(6, 4, 0, 0, 1);
	expect(6, 4, 1, 1, 3);
	expect(6, 4, 2, 3, 4);
	expect(6, 4, 3, 4, 6);
}
END_TEST

/* More threads than units: one each, lane 0 alone; one policy (replay): two engines. */
START_TEST(test_one_lane_each)
{
	unsigned int i;

	ck_assert_uint_eq(share_engines(6, 8), 6);
	for (i = 0; i < 6; i++)
		expect(6, 6, i, i, i + 1);
	ck_assert_uint_eq(share_engines(2, 2), 2);
	ck_assert_uint_eq(share_engines(2, 1024), 2);
	expect(2, 2, 0, 0, 1);
	expect(2, 2, 1, 1, 2);
	ck_assert_uint_eq(share_engines(1, 4), 1);
}
END_TEST

/* Units past 16 split on one thread too: 16 stay one engine, 17 are cut 8 + 9; a sweep of 32
 * tolerances and exact without an overlay, 34 lanes, in 3 engines of 11, 11 and 12 at -j 1 and
 * -j 2, in 4 (8, 9, 8, 9) at -j 4; with an overlay on the bench's traces, 10 units (lane 0,
 * exact, T = 1 .. 64 alone, 128 .. 2^31 together): one engine at -j 1, 5 + 5 at -j 2. */
START_TEST(test_many)
{
	ck_assert_uint_eq(share_engines(16, 1), 1);
	ck_assert_uint_eq(share_engines(17, 1), 2);
	expect(17, 2, 0, 0, 8);
	expect(17, 2, 1, 8, 17);
	ck_assert_uint_eq(share_engines(34, 1), 3);
	ck_assert_uint_eq(share_engines(34, 2), 3);
	expect(34, 3, 0, 0, 11);
	expect(34, 3, 1, 11, 22);
	expect(34, 3, 2, 22, 34);
	ck_assert_uint_eq(share_engines(34, 4), 4);
	expect(34, 4, 0, 0, 8);
	expect(34, 4, 1, 8, 17);
	expect(34, 4, 2, 17, 25);
	expect(34, 4, 3, 25, 34);
	ck_assert_uint_eq(share_engines(10, 1), 1);
	ck_assert_uint_eq(share_engines(10, 2), 2);
	expect(10, 2, 0, 0, 5);
	expect(10, 2, 1, 5, 10);
}
END_TEST

/* For every count of units and threads: the shares cover every unit once, in order, none
 * empty, none over 16 units, and their sizes differ by one unit at most. */
START_TEST(test_cover)
{
	unsigned int n, t, nr, i, from, to, min, max, next;

	for (n = 1; n <= 300; n++) {
		for (t = 1; t <= 40; t++) {
			nr = share_engines(n, t);
			ck_assert_uint_ge(nr, t < n ? t : n);
			min = ~0u;
			max = next = 0;
			for (i = 0; i < nr; i++) {
				share_units(n, nr, i, &from, &to);
				ck_assert_uint_eq(from, next);
				ck_assert_uint_ge(to - from, 1);
				ck_assert_uint_le(to - from, SHARE_LANES_MAX);
				min = to - from < min ? to - from : min;
				max = to - from > max ? to - from : max;
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
