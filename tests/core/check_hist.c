// SPDX-License-Identifier: GPL-2.0-only
/* check_hist.c - Fixed-memory histogram and its percentiles (lib/hist.c). */
#include "config.h"

#include <stdint.h>

#include "check_common.h"
#include "hist.h"
#include "internal.h"

START_TEST(test_small_values_are_exact)
{
	struct vpmc_hist h;
	uint64_t v;

	hist_init(&h);
	for (v = 1; v <= 100; v++)
		ck_assert_int_eq(hist_add(&h, v), 0);
	/* nearest rank: p50 -> the 50th smallest of 1..100, p99 -> the 99th, p1 -> the 1st */
	ck_assert_uint_eq(hist_percentile(&h, 5000), 50);
	ck_assert_uint_eq(hist_percentile(&h, 9900), 99);
	ck_assert_uint_eq(hist_percentile(&h, 100), 1);
	ck_assert_uint_eq(hist_percentile(&h, 10000), 100);
	ck_assert_uint_eq(h.n, 100);
	ck_assert_uint_eq(h.min, 1);
	ck_assert_uint_eq(h.max, 100);
	hist_release(&h);
}
END_TEST

START_TEST(test_every_bucket_midpoint_within_one_percent)
{
	unsigned int b;

	/* Both ends of every bucket above the exact range: |mid - v| / v <= 1/128. */
	for (b = HIST_EXACT; b < HIST_NR_BUCKETS; b++) {
		unsigned int e = (b - HIST_EXACT) / HIST_SUB + 7, sub = (b - HIST_EXACT) % HIST_SUB;
		uint64_t lo = (uint64_t)(HIST_SUB + sub) << (e - HIST_SUB_BITS);
		uint64_t hi = lo + (1ULL << (e - HIST_SUB_BITS)) - 1; /* last value of bucket b */
		uint64_t mid = hist_bucket_mid(b);

		ck_assert_uint_eq(hist_bucket(lo), b);
		ck_assert_uint_eq(hist_bucket(lo - 1), b - 1);
		ck_assert_uint_eq(hist_bucket(hi), b);
		ck_assert_msg((mid - lo) * 128 <= lo, "bucket %u: mid %llu lo %llu", b,
			      (unsigned long long)mid, (unsigned long long)lo);
		ck_assert_msg((hi - mid) * 128 <= hi, "bucket %u: mid %llu hi %llu", b,
			      (unsigned long long)mid, (unsigned long long)hi);
	}
	ck_assert_uint_eq(hist_bucket(UINT64_MAX), HIST_NR_BUCKETS - 1);
}
END_TEST

START_TEST(test_uniform_percentiles_within_one_percent)
{
	static const struct {
		unsigned int per10k;
		uint64_t want; /* nearest rank over 1000..100999: the rank-th value is 999 + rank */
	} q[] = { { 5000, 999 + 50000 }, { 9900, 999 + 99000 }, { 9000, 999 + 90000 },
		  { 1, 999 + 10 } };
	struct vpmc_hist h;
	uint64_t v;
	size_t i;

	hist_init(&h);
	for (v = 1000; v < 101000; v++)
		ck_assert_int_eq(hist_add(&h, v), 0);
	for (i = 0; i < ARRAY_SIZE(q); i++) {
		uint64_t got = hist_percentile(&h, q[i].per10k);
		uint64_t diff = got > q[i].want ? got - q[i].want : q[i].want - got;

		ck_assert_msg(diff * 100 <= q[i].want, "p%u: got %llu want %llu", q[i].per10k,
			      (unsigned long long)got, (unsigned long long)q[i].want);
	}
	ck_assert_uint_eq(hist_percentile(&h, 10000), 100999);
	hist_release(&h);
}
END_TEST

START_TEST(test_percentile_clamped_to_min_and_max)
{
	struct vpmc_hist h;

	hist_init(&h);
	/* one sample in a wide bucket: the midpoint would differ, the clamp makes it exact */
	ck_assert_int_eq(hist_add(&h, 1000001), 0);
	ck_assert_uint_eq(hist_percentile(&h, 5000), 1000001);
	ck_assert_uint_eq(hist_percentile(&h, 9900), 1000001);
	hist_release(&h);
}
END_TEST

/* A rank that is the first or the last sample is that sample, exactly: p99 of 3 exits of 10,
 * 25 and 95 us is 95 us (nearest rank ceil(0.99 * 3) = 3), never a midpoint below it (94.72). */
START_TEST(test_first_and_last_rank_exact)
{
	struct vpmc_hist h;

	hist_init(&h);
	ck_assert_int_eq(hist_add(&h, 10000), 0);
	ck_assert_int_eq(hist_add(&h, 25000), 0);
	ck_assert_int_eq(hist_add(&h, 95000), 0);
	ck_assert_uint_eq(hist_percentile(&h, 9900), 95000);
	ck_assert_uint_eq(hist_percentile(&h, 1), 10000); /* rank ceil(0.0001 * 3) = 1 */
	/* rank 2 (p50): its bucket's midpoint, within 1/128 of 25000 */
	ck_assert_uint_ge(hist_percentile(&h, 5000), 25000 - 25000 / 128);
	ck_assert_uint_le(hist_percentile(&h, 5000), 25000 + 25000 / 128);
	hist_release(&h);
}
END_TEST

START_TEST(test_empty_and_merge)
{
	struct vpmc_hist a, b, all;
	uint64_t v;

	hist_init(&a);
	hist_init(&b);
	hist_init(&all);
	ck_assert_uint_eq(hist_percentile(&a, 5000), 0);
	for (v = 0; v < 5000; v++) {
		uint64_t x = v * v * 37 + 5;

		ck_assert_int_eq(hist_add(v % 2 ? &a : &b, x), 0);
		ck_assert_int_eq(hist_add(&all, x), 0);
	}
	ck_assert_int_eq(hist_merge(&a, &b), 0);
	ck_assert_uint_eq(a.n, all.n);
	ck_assert_uint_eq(a.min, all.min);
	ck_assert_uint_eq(a.max, all.max);
	for (v = 0; v <= 10000; v += 250)
		ck_assert_uint_eq(hist_percentile(&a, (unsigned int)v),
				  hist_percentile(&all, (unsigned int)v));
	hist_release(&a);
	hist_release(&b);
	hist_release(&all);
}
END_TEST

START_TEST(test_memory_only_where_samples_land)
{
	struct vpmc_hist h;
	unsigned int i, used = 0;
	uint64_t k;

	hist_init(&h);
	/* a million samples in 0..127 use the two exact blocks and nothing else */
	for (k = 0; k < 1000000; k++)
		ck_assert_int_eq(hist_add(&h, k % 128), 0);
	for (i = 0; i < HIST_NR_BLOCKS; i++)
		used += h.block[i] != NULL;
	ck_assert_uint_eq(used, 2);
	hist_release(&h);
	ck_assert_uint_eq(h.n, 0);
}
END_TEST

START_TEST(test_bucket_bounds)
{
	/* By hand from hist.h: below 128 a bucket per value; bucket 128 is the first of
	 * [128, 256), 64 buckets 2 wide: [128, 129]; bucket 191 its last: [254, 255]; bucket
	 * 192 the first of [256, 512), 4 wide: [256, 259]. */
	static const struct {
		unsigned int b;
		uint64_t lo, hi;
	} t[] = { { 0, 0, 0 }, { 127, 127, 127 }, { 128, 128, 129 }, { 191, 254, 255 },
		  { 192, 256, 259 } };
	uint64_t lo, hi;
	unsigned int i, b;

	for (i = 0; i < ARRAY_SIZE(t); i++) {
		hist_bucket_bounds(t[i].b, &lo, &hi);
		ck_assert_uint_eq(lo, t[i].lo);
		ck_assert_uint_eq(hi, t[i].hi);
	}
	/* every bucket: its bounds are in it, and the next value is in the next bucket */
	for (b = 0; b < HIST_NR_BUCKETS; b++) {
		hist_bucket_bounds(b, &lo, &hi);
		ck_assert_uint_eq(hist_bucket(lo), b);
		ck_assert_uint_eq(hist_bucket(hi), b);
		if (b + 1 < HIST_NR_BUCKETS)
			ck_assert_uint_eq(hist_bucket(hi + 1), b + 1);
		else
			ck_assert_uint_eq(hi, UINT64_MAX);
	}
}
END_TEST

START_TEST(test_add_n_rebuilds_a_histogram)
{
	/* what a saved histogram holds (buckets with counts, min, max) gives the same
	 * percentiles: 130 three times (bucket [130, 131]), 300 twice ([300, 303]), 5 once */
	struct vpmc_hist a, b;
	unsigned int k;

	hist_init(&a);
	hist_init(&b);
	for (k = 0; k < 3; k++)
		ck_assert_int_eq(hist_add(&a, 130), 0);
	ck_assert_int_eq(hist_add(&a, 300), 0);
	ck_assert_int_eq(hist_add(&a, 300), 0);
	ck_assert_int_eq(hist_add(&a, 5), 0);
	ck_assert_int_eq(hist_add_n(&b, hist_bucket(5), 1, 5, 300), 0);
	ck_assert_int_eq(hist_add_n(&b, hist_bucket(130), 3, 5, 300), 0);
	ck_assert_int_eq(hist_add_n(&b, hist_bucket(300), 2, 5, 300), 0);
	ck_assert_uint_eq(b.n, 6);
	ck_assert_uint_eq(b.min, 5);
	ck_assert_uint_eq(b.max, 300);
	for (k = 0; k <= 10000; k += 500)
		ck_assert_uint_eq(hist_percentile(&b, k), hist_percentile(&a, k));
	/* p50: rank 3 of 6, the third sample in order, 130's bucket midpoint 131 (hist.c) */
	ck_assert_uint_eq(hist_percentile(&b, 5000), 131);
	hist_release(&a);
	hist_release(&b);
}
END_TEST

static Suite *hist_suite(void)
{
	Suite *s = suite_create("hist");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_small_values_are_exact);
	tcase_add_test(tc, test_every_bucket_midpoint_within_one_percent);
	tcase_add_test(tc, test_uniform_percentiles_within_one_percent);
	tcase_add_test(tc, test_percentile_clamped_to_min_and_max);
	tcase_add_test(tc, test_first_and_last_rank_exact);
	tcase_add_test(tc, test_empty_and_merge);
	tcase_add_test(tc, test_memory_only_where_samples_land);
	tcase_add_test(tc, test_bucket_bounds);
	tcase_add_test(tc, test_add_n_rebuilds_a_histogram);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(hist_suite)
