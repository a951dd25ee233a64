/* SPDX-License-Identifier: GPL-2.0-only */
/* hist_json.h - Histograms and u64s in JSON, exactly (hist_json.c; internal; jansson). */
#ifndef VPMC_HIST_JSON_H
#define VPMC_HIST_JSON_H

#include <jansson.h>
#include <stdint.h>

#include "hist.h"

/* @v as a JSON integer, or "0x..." text above INT64_MAX (NULL: out of memory). */
json_t *vpmc__json_u64(uint64_t v);

/* @key of @o as a u64 (an integer >= 0 or "0x..." text). Return: 0, or -1. */
int vpmc__json_get_u64(json_t *o, const char *key, uint64_t *v);

/* A histogram as {"n", "min", "max", "buckets": [[low, high, count], ...]} (the non-empty
 * buckets, in order, with their bounds); an allocation failure is recorded in *@err. */
json_t *hist_json_put(const struct vpmc_hist *h, int *err);

/* The histogram of hist_json_put() @o added to @h (empty or with samples below the first
 * bucket of @o's). Return: 0, -1 (malformed: @h partly filled), or VPMC_ERR_NOMEM. */
int hist_json_get(json_t *o, struct vpmc_hist *h);

#endif /* VPMC_HIST_JSON_H */
