// SPDX-License-Identifier: GPL-2.0-only
/* hist_json.c - Histograms and u64s in JSON, exactly: what a merge_state holds (issue 15). */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hist_json.h"
#include "internal.h"

json_t *vpmc__json_u64(uint64_t v)
{
	char buf[24];

	if (v <= INT64_MAX)
		return json_integer((json_int_t)v);
	snprintf(buf, sizeof(buf), "%#" PRIx64, v);
	return json_string(buf);
}

/* @key of @o set to @v (a new reference, NULL: out of memory), or *@err set. */
static void set(json_t *o, const char *key, json_t *v, int *err)
{
	if (!o || !v || json_object_set_new(o, key, v))
		*err = VPMC_ERR_NOMEM;
}

int vpmc__json_get_u64(json_t *o, const char *key, uint64_t *v)
{
	json_t *j = json_object_get(o, key);
	const char *s;
	char *end;

	if (json_is_integer(j) && json_integer_value(j) >= 0) {
		*v = (uint64_t)json_integer_value(j);
		return 0;
	}
	s = json_string_value(j);
	if (!s || strncmp(s, "0x", 2))
		return -1;
	errno = 0;
	*v = strtoull(s, &end, 16);
	return errno || *end || end == s + 2 ? -1 : 0;
}

json_t *hist_json_put(const struct vpmc_hist *h, int *err)
{
	json_t *o = json_object(), *b = json_array();
	unsigned int i, j;
	uint64_t lo, hi;

	for (i = 0; b && h->n && i < HIST_NR_BLOCKS; i++) {
		for (j = 0; h->block[i] && j < HIST_SUB; j++) {
			json_t *e;

			if (!h->block[i][j])
				continue;
			hist_bucket_bounds(i * HIST_SUB + j, &lo, &hi);
			e = json_pack("[ooo]", vpmc__json_u64(lo), vpmc__json_u64(hi),
				      vpmc__json_u64(h->block[i][j]));
			if (!e || json_array_append_new(b, e))
				*err = VPMC_ERR_NOMEM;
		}
	}
	set(o, "n", vpmc__json_u64(h->n), err);
	set(o, "min", vpmc__json_u64(h->min), err);
	set(o, "max", vpmc__json_u64(h->max), err);
	set(o, "buckets", b, err);
	return o;
}

int hist_json_get(json_t *o, struct vpmc_hist *h)
{
	json_t *b = json_object_get(o, "buckets"), *e;
	uint64_t n, min, max, lo, hi, count, blo, bhi;
	long prev = -1;
	size_t i;
	int err;

	if (vpmc__json_get_u64(o, "n", &n) || vpmc__json_get_u64(o, "min", &min) ||
	    vpmc__json_get_u64(o, "max", &max) ||
	    !json_is_array(b) || min > max)
		return -1;
	json_array_foreach(b, i, e) {
		unsigned int k;
		json_t *t;

		if (!json_is_array(e) || json_array_size(e) != 3)
			return -1;
		t = json_pack("{sOsOsO}", "l", json_array_get(e, 0), "h", json_array_get(e, 1), "c",
			      json_array_get(e, 2));
		err = !t || vpmc__json_get_u64(t, "l", &lo) || vpmc__json_get_u64(t, "h", &hi) ||
		      vpmc__json_get_u64(t, "c", &count);
		json_decref(t);
		if (err)
			return -1;
		k = hist_bucket(lo);
		hist_bucket_bounds(k, &blo, &bhi);
		/* a bucket of this build's histogram, in order, counted, inside [min, max] */
		if (blo != lo || bhi != hi || !count || hi < min || lo > max || (long)k <= prev ||
		    h->n + count < h->n)
			return -1;
		prev = (long)k;
		err = hist_add_n(h, k, count, min, max);
		if (err)
			return err;
	}
	if (h->n != n || (!n && (min || max)))
		return -1;
	return 0;
}
