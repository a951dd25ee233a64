// SPDX-License-Identifier: GPL-2.0-only
/* hist.c - Fixed-memory log-bucketed histogram (HDR-style, 64 buckets per octave). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "hist.h"
#include "internal.h"

unsigned int hist_bucket(uint64_t v)
{
	unsigned int e;

	if (v < HIST_EXACT)
		return (unsigned int)v;
	e = 63u - (unsigned int)__builtin_clzll(v); /* 7..63 */
	return HIST_EXACT + (e - 7) * HIST_SUB +
	       (unsigned int)((v >> (e - HIST_SUB_BITS)) & (HIST_SUB - 1));
}

uint64_t hist_bucket_mid(unsigned int b)
{
	unsigned int e, sub;
	uint64_t width;

	if (b < HIST_EXACT)
		return b;
	e = (b - HIST_EXACT) / HIST_SUB + 7;
	sub = (b - HIST_EXACT) % HIST_SUB;
	width = 1ULL << (e - HIST_SUB_BITS);
	return ((uint64_t)(HIST_SUB + sub) << (e - HIST_SUB_BITS)) + width / 2;
}

void hist_init(struct vpmc_hist *h)
{
	memset(h, 0, sizeof(*h));
}

void hist_release(struct vpmc_hist *h)
{
	unsigned int i;

	/* an empty histogram has no block (hist_add_n() counts what it allocates for) */
	for (i = 0; h->n && i < HIST_NR_BLOCKS; i++)
		free(h->block[i]);
	hist_init(h);
}

void hist_bucket_bounds(unsigned int b, uint64_t *lo, uint64_t *hi)
{
	unsigned int e, sub;

	if (b < HIST_EXACT) {
		*lo = *hi = b;
		return;
	}
	e = (b - HIST_EXACT) / HIST_SUB + 7;
	sub = (b - HIST_EXACT) % HIST_SUB;
	*lo = (uint64_t)(HIST_SUB + sub) << (e - HIST_SUB_BITS);
	*hi = *lo + ((1ULL << (e - HIST_SUB_BITS)) - 1);
}

int hist_add_n(struct vpmc_hist *h, unsigned int b, uint64_t count, uint64_t lo,
		      uint64_t hi)
{
	uint64_t **blk = &h->block[b / HIST_SUB];

	if (!*blk) {
		*blk = calloc(HIST_SUB, sizeof(**blk));
		if (!*blk)
			return VPMC_ERR_NOMEM;
	}
	(*blk)[b % HIST_SUB] += count;
	if (!h->n || lo < h->min)
		h->min = lo;
	if (!h->n || hi > h->max)
		h->max = hi;
	h->n += count;
	return 0;
}

int hist_add(struct vpmc_hist *h, uint64_t v)
{
	return hist_add_n(h, hist_bucket(v), 1, v, v);
}

int hist_merge(struct vpmc_hist *dst, const struct vpmc_hist *src)
{
	unsigned int i, j;
	int err;

	for (i = 0; src->n && i < HIST_NR_BLOCKS; i++) {
		if (!src->block[i])
			continue;
		for (j = 0; j < HIST_SUB; j++) {
			if (!src->block[i][j])
				continue;
			err = hist_add_n(dst, i * HIST_SUB + j, src->block[i][j], src->min, src->max);
			if (err)
				return err;
		}
	}
	return 0;
}

int hist_copy(struct vpmc_hist *dst, const struct vpmc_hist *src)
{
	unsigned int i;

	for (i = 0; i < HIST_NR_BLOCKS; i++) {
		if (!src->block[i]) {
			free(dst->block[i]);
			dst->block[i] = NULL;
			continue;
		}
		if (!dst->block[i])
			dst->block[i] = malloc(HIST_SUB * sizeof(*dst->block[i]));
		if (!dst->block[i]) {
			for (i = 0; i < HIST_NR_BLOCKS; i++)
				free(dst->block[i]);
			hist_init(dst);
			return VPMC_ERR_NOMEM;
		}
		memcpy(dst->block[i], src->block[i], HIST_SUB * sizeof(*dst->block[i]));
	}
	dst->n = src->n;
	dst->min = src->min;
	dst->max = src->max;
	return 0;
}

uint64_t hist_percentile(const struct vpmc_hist *h, unsigned int per10k)
{
	unsigned __int128 r;
	uint64_t rank, seen = 0, v;
	unsigned int i, j;

	if (!h->n)
		return 0;
	if (per10k >= 10000)
		return h->max;
	r = ((unsigned __int128)per10k * h->n + 9999) / 10000;
	rank = r ? (uint64_t)r : 1;
	/* the first and the last sample are known exactly (p99 of up to 100 samples is the max) */
	if (rank >= h->n)
		return h->max;
	if (rank == 1)
		return h->min;
	for (i = 0; i < HIST_NR_BLOCKS; i++) {
		if (!h->block[i])
			continue;
		for (j = 0; j < HIST_SUB; j++) {
			seen += h->block[i][j];
			if (seen < rank)
				continue;
			v = hist_bucket_mid(i * HIST_SUB + j);
			return v < h->min ? h->min : v > h->max ? h->max : v;
		}
	}
	return h->max;
}
