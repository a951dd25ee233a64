/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * hist.h - Fixed-memory histogram of u64 samples with percentiles within 1 % (internal).
 *
 * Buckets: values 0..127 each have their own bucket (exact); above, every power of two
 * [2^e, 2^(e+1)) is cut into 64 equal buckets. A percentile is reported as the midpoint of its
 * bucket, clamped to the exact minimum and maximum seen, so its relative error is at most
 * half a bucket width over the bucket's low end: 2^(e-7) / 2^e * 64/(64 + sub) <= 1/128 (0.79 %).
 * Memory: at most 59 blocks of 64 counters (30 KiB), allocated on first use, whatever the
 * number of samples.
 */
#ifndef VPMC_HIST_H
#define VPMC_HIST_H

#include <stdint.h>

#define HIST_SUB_BITS 6
#define HIST_SUB (1u << HIST_SUB_BITS)           /* buckets per power of two */
#define HIST_EXACT (2u * HIST_SUB)                /* values below this are exact */
#define HIST_NR_BUCKETS (HIST_EXACT + (64 - 7) * HIST_SUB)
#define HIST_NR_BLOCKS (HIST_NR_BUCKETS / HIST_SUB)

struct vpmc_hist {
	uint64_t n;        /* samples */
	uint64_t min, max; /* exact; 0 when n == 0 */
	uint64_t *block[HIST_NR_BLOCKS]; /* HIST_SUB counts each, or NULL */
};

/* An empty histogram (no allocation). */
void hist_init(struct vpmc_hist *h);

/* Free the blocks; @h is empty afterwards. */
void hist_release(struct vpmc_hist *h);

/* Count one sample. Return: 0, or VPMC_ERR_NOMEM (the sample is then not counted). */
int hist_add(struct vpmc_hist *h, uint64_t v);

/* Add @count samples to bucket @b (< HIST_NR_BUCKETS), all within [@lo, @hi] (which update
 * min and max). Return: 0, or VPMC_ERR_NOMEM (nothing counted). */
int hist_add_n(struct vpmc_hist *h, unsigned int b, uint64_t count, uint64_t lo, uint64_t hi);

/* Add every sample of @src to @dst. Return: 0, or VPMC_ERR_NOMEM (@dst then partly merged). */
int hist_merge(struct vpmc_hist *dst, const struct vpmc_hist *src);

/* Make @dst a copy of @src (its blocks reused). Return: 0, or VPMC_ERR_NOMEM (@dst then empty). */
int hist_copy(struct vpmc_hist *dst, const struct vpmc_hist *src);

/*
 * hist_percentile() - Nearest-rank percentile.
 * @h: histogram with at least one sample
 * @per10k: percentile in hundredths of a percent (5000 = p50, 9900 = p99, 10000 = max)
 *
 * Return: the smallest bucket value v such that at least ceil(per10k * n / 10000) samples
 * (at least one) are in buckets up to v's, as that bucket's midpoint clamped to [min, max];
 * exactly min when that rank is the first sample and max when it is the last (p99 of up to 100
 * samples, 10000); 0 when @h is empty.
 */
uint64_t hist_percentile(const struct vpmc_hist *h, unsigned int per10k);

/* The bucket of @v, and the value reported for a bucket (exposed for the tests). */
unsigned int hist_bucket(uint64_t v);
uint64_t hist_bucket_mid(unsigned int b);
/* The lowest and highest value of bucket @b (a saved histogram names its buckets by them). */
void hist_bucket_bounds(unsigned int b, uint64_t *lo, uint64_t *hi);

#endif /* VPMC_HIST_H */
