// SPDX-License-Identifier: GPL-2.0-only
/* dat_inflate.c - A v7 trace.dat's compressed blocks inflated (dat_inflate.h). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <zlib.h>
#define ZSTD_STATIC_LINKING_ONLY /* ZSTD_decompressBound() */
#include <zstd.h>

#include "dat_inflate.h"
#include "dat_layout.h"

#define DEFLATE_RATIO_MAX 1032 /* deflate's largest ratio: a 258-byte match in 2 bits */

enum dat_algo dat_algo_of(const char *name)
{
	return !strcmp(name, "zstd") ? DAT_ALGO_ZSTD : !strcmp(name, "zlib") ? DAT_ALGO_ZLIB :
	       !strcmp(name, "none") || !*name ? DAT_ALGO_NONE : DAT_ALGO_OTHER;
}

int64_t dat_inflate(enum dat_algo algo, const void *src, size_t n, void *dst, size_t cap)
{
	uLongf got = cap;
	size_t ret;

	switch (algo) {
	case DAT_ALGO_ZSTD:
		ret = ZSTD_decompress(dst, cap, src, n);
		return ZSTD_isError(ret) ? -1 : (int64_t)ret;
	case DAT_ALGO_ZLIB:
		return uncompress(dst, &got, src, n) == Z_OK ? (int64_t)got : -1;
	default:
		return -1;
	}
}

uint64_t dat_inflate_bound(enum dat_algo algo, const uint8_t *src, size_t n, uint64_t claim)
{
	uint64_t bound = claim;
	unsigned long long z;

	if (algo == DAT_ALGO_ZSTD) {
		z = ZSTD_decompressBound(src, n);
		bound = z == ZSTD_CONTENTSIZE_ERROR ? claim : z;
	} else if (algo == DAT_ALGO_ZLIB && n < UINT64_MAX / DEFLATE_RATIO_MAX) {
		bound = n * DEFLATE_RATIO_MAX;
	}
	return bound < claim ? bound : claim;
}

uint8_t *dat_inflate_section(enum dat_algo algo, const uint8_t *raw, size_t n, bool big_endian,
			     uint64_t max, size_t *len)
{
	uint64_t csize, size;
	uint8_t *out;

	if (n < 8)
		return NULL;
	csize = dat_layout_get_num(raw, 4, big_endian);
	size = dat_layout_get_num(raw + 4, 4, big_endian);
	if (csize > n - 8 || size > max ||
	    dat_inflate_bound(algo, raw + 8, csize, size) != size)
		return NULL;
	out = malloc(size + 1);
	if (!out || dat_inflate(algo, raw + 8, csize, out, size) != (int64_t)size) {
		free(out);
		return NULL;
	}
	out[size] = 0;
	*len = size;
	return out;
}
