// SPDX-License-Identifier: GPL-2.0-only
/*
 * check_ideal.c - A policy's samples against the ideal guest's (lib/replay/ideal.c): the
 * matching rules of ideal.h on hand-made positions and times.
 */
#include "config.h"

#include "check_common.h"
#include "ideal.h"

static struct ideal_match im;

static void setup(void)
{
	ideal_init(&im);
}

static void teardown(void)
{
	ideal_release(&im);
}

/* Each sample at or after its ideal one: matched in order, lateness = the differences. */
START_TEST(test_in_order)
{
	ideal_push(&im, 100, 1000);
	ideal_sample(&im, 103, 1030);
	ideal_push(&im, 200, 2000);
	ideal_sample(&im, 200, 2005);
	ck_assert_uint_eq(im.ideal, 2);
	ck_assert_uint_eq(im.matched, 2);
	ck_assert_uint_eq(im.unmatched, 0);
	ck_assert_uint_eq(im.late_ev.max, 3);
	ck_assert_uint_eq(im.late_ns.max, 30);
	ck_assert_uint_eq(hist_percentile(&im.late_ev, 5000), 0);
}
END_TEST

/* The ideal samples at 100 and 200 both precede the policy's at 250: it takes the newest
 * (200, 50 late) and 100 is lost (never matched); the next ideal one waits. */
START_TEST(test_newest_before_taken)
{
	ideal_push(&im, 100, 1000);
	ideal_push(&im, 200, 2000);
	ideal_push(&im, 300, 3000);
	ideal_sample(&im, 250, 2600);
	ck_assert_uint_eq(im.matched, 1);
	ck_assert_uint_eq(im.late_ev.max, 50);
	ck_assert_uint_eq(im.late_ns.max, 600);
	ck_assert_uint_eq(im.n, 1); /* 300 waits */
	ideal_sample(&im, 300, 3000);
	ck_assert_uint_eq(im.matched, 2);
	ck_assert_uint_eq(im.n, 0);
}
END_TEST

/* A policy sample before any waiting ideal sample is unmatched (its guest ran ahead); an
 * ideal sample it did not take stays for the next. */
START_TEST(test_ahead_unmatched)
{
	ideal_sample(&im, 5, 50);
	ideal_push(&im, 100, 1000);
	ideal_sample(&im, 99, 990);
	ck_assert_uint_eq(im.unmatched, 2);
	ck_assert_uint_eq(im.matched, 0);
	ideal_sample(&im, 101, 1010);
	ck_assert_uint_eq(im.matched, 1);
	ck_assert_uint_eq(im.late_ev.max, 1);
}
END_TEST

/* More than IDEAL_QUEUE ideal samples waiting: the oldest are dropped (they would be lost at
 * the next match anyway); all are still counted as ideal samples. */
START_TEST(test_queue_full)
{
	unsigned int i;

	for (i = 0; i < IDEAL_QUEUE + 5; i++)
		ideal_push(&im, 10 * (i + 1), 10 * (i + 1));
	ck_assert_uint_eq(im.ideal, IDEAL_QUEUE + 5);
	ck_assert_uint_eq(im.n, IDEAL_QUEUE);
	ck_assert_uint_eq(im.pos[im.head], 60); /* the 6th */
	ideal_sample(&im, 10 * (IDEAL_QUEUE + 5) + 2, 0);
	ck_assert_uint_eq(im.matched, 1);
	ck_assert_uint_eq(im.late_ev.max, 2);
	ck_assert_uint_eq(im.late_ns.max, 0); /* a time before the ideal one counts 0 */
}
END_TEST

/* Totals over vCPUs add up. */
START_TEST(test_add)
{
	struct ideal_match sum;

	ideal_push(&im, 10, 10);
	ideal_sample(&im, 14, 20);
	ideal_init(&sum);
	ck_assert_int_eq(ideal_add(&sum, &im), 0);
	ck_assert_int_eq(ideal_add(&sum, &im), 0);
	ck_assert_uint_eq(sum.ideal, 2);
	ck_assert_uint_eq(sum.matched, 2);
	ck_assert_uint_eq(sum.late_ev.n, 2);
	ck_assert_uint_eq(sum.late_ev.max, 4);
	ideal_release(&sum);
}
END_TEST

static Suite *ideal_suite(void)
{
	Suite *s = suite_create("ideal");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_in_order);
	tcase_add_test(tc, test_newest_before_taken);
	tcase_add_test(tc, test_ahead_unmatched);
	tcase_add_test(tc, test_queue_full);
	tcase_add_test(tc, test_add);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(ideal_suite)
