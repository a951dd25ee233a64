/* SPDX-License-Identifier: GPL-2.0-only */
/* outbuf.h - What the report builders share: text buffers and JSON numbers (internal). */
#ifndef VPMC_OUTBUF_H
#define VPMC_OUTBUF_H

#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <vpmc/common.h>
#include <vpmc/replay.h>

#include "internal.h"

/* A growing text buffer (open_memstream). */
struct outbuf {
	FILE *f;
	char *text;
	size_t len;
};

/* Open @b. Return: 0 or VPMC_ERR_NOMEM. */
int outbuf_open(struct outbuf *b);

/* Close @b and hand its text to *@text (replacing and freeing the old one). Return: 0 or
 * VPMC_ERR_NOMEM (a write failed; the text is dropped). */
int outbuf_close(struct outbuf *b, char **text);

/* Close @b and drop its text. */
void outbuf_discard(struct outbuf *b);

/* A u64 as a JSON integer; above INT64_MAX (never a counter or a time) as "0x..." text. */
json_t *out_json_u64(uint64_t v);

/* Set @key of @obj to @v (stolen); a NULL @v (allocation failure) is recorded in *@err. */
void out_json_set(json_t *obj, const char *key, json_t *v, int *err);

/* Set @key of @obj to the number @v; a NaN or infinity (which JSON cannot hold) is recorded
 * in *@err as VPMC_ERR_LIMIT with @eb saying which key, unless *@err is already set. */
void out_json_set_real(json_t *obj, const char *key, double v, int *err,
		       struct vpmc__errbuf *eb);

/* Dump @root (decref'd) as indented JSON with a final newline into *@text. Return: 0, @err if
 * it is set (nothing is dumped), or VPMC_ERR_NOMEM. */
int out_json_finish(json_t *root, int err, char **text);

/* Write @s as one CSV field (quoted when it has a comma, a quote or a newline). */
void out_csv_field(FILE *f, const char *s);

/* The value of cost parameter @t of @c as text: %g, drain_extra_mult as "K:P K:P". Return:
 * @buf. */
const char *out_cost_value(const struct vpmc_cost_param_info *t, const struct vpmc_cost *c,
			   char *buf, size_t len);

/* Every cost parameter of @c with its value (4 decimals; drain_extra_mult as text) and its tag
 * from @tag (by vpmc_cost_params() index), as a JSON object keyed by name. */
json_t *out_json_cost(const struct vpmc_cost *c, const enum vpmc_cost_tag *tag, int *err);

#endif /* VPMC_OUTBUF_H */
