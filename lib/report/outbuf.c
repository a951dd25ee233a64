// SPDX-License-Identifier: GPL-2.0-only
/* outbuf.c - Report formats, text buffers and JSON helpers for the report builders. */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "hist_json.h"
#include "outbuf.h"

int vpmc_output_parse(enum vpmc_output *out, const char *s)
{
	static const char *const names[] = {
		[VPMC_OUTPUT_TEXT] = "text",
		[VPMC_OUTPUT_CSV] = "csv",
		[VPMC_OUTPUT_JSON] = "json",
	};
	size_t i;

	for (i = 0; s && i < ARRAY_SIZE(names); i++) {
		if (!strcmp(s, names[i])) {
			*out = (enum vpmc_output)i;
			return 0;
		}
	}
	return VPMC_ERR_INVAL;
}

int outbuf_open(struct outbuf *b)
{
	b->text = NULL;
	b->len = 0;
	b->f = open_memstream(&b->text, &b->len);
	return b->f ? 0 : VPMC_ERR_NOMEM;
}

int outbuf_close(struct outbuf *b, char **text)
{
	bool bad = ferror(b->f);

	if (fclose(b->f) || bad || !b->text) {
		free(b->text);
		return VPMC_ERR_NOMEM;
	}
	free(*text);
	*text = b->text;
	return 0;
}

void outbuf_discard(struct outbuf *b)
{
	fclose(b->f);
	free(b->text);
}

json_t *out_json_u64(uint64_t v)
{
	return vpmc__json_u64(v);
}

void out_json_set(json_t *obj, const char *key, json_t *v, int *err)
{
	if (!v || json_object_set_new(obj, key, v))
		*err = VPMC_ERR_NOMEM;
}

void out_json_set_real(json_t *obj, const char *key, double v, int *err,
		       struct vpmc__errbuf *eb)
{
	/* json_real() returns NULL for NaN and infinities: JSON has no such numbers */
	if (!isfinite(v)) {
		if (!*err)
			*err = vpmc__set_error(eb, VPMC_ERR_LIMIT, "%s is %g, which JSON cannot "
					       "hold (only finite numbers)", key, v);
		return;
	}
	out_json_set(obj, key, json_real(v), err);
}

int out_json_finish(json_t *root, int err, char **text)
{
	char *s = NULL, *t;
	size_t n;

	if (err) {
		json_decref(root);
		return err;
	}
	if (root)
		s = json_dumps(root, JSON_INDENT(2) | JSON_REAL_PRECISION(15));
	json_decref(root);
	if (!s)
		return VPMC_ERR_NOMEM;
	n = strlen(s);
	t = malloc(n + 2);
	if (!t) {
		free(s);
		return VPMC_ERR_NOMEM;
	}
	memcpy(t, s, n);
	t[n] = '\n';
	t[n + 1] = '\0';
	free(s);
	free(*text);
	*text = t;
	return 0;
}

void out_csv_field(FILE *f, const char *s)
{
	if (!strpbrk(s, ",\"\n")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

const char *out_cost_value(const struct vpmc_cost_param_info *t, const struct vpmc_cost *c,
			   char *buf, size_t len)
{
	size_t at = 0;
	unsigned int j;

	if (strcmp(t->name, "drain_extra_mult")) {
		snprintf(buf, len, "%g", *(const double *)((const char *)c + t->off));
		return buf;
	}
	buf[0] = '\0';
	for (j = 0; j < c->mult_n && at < len; j++)
		at += (size_t)snprintf(buf + at, len - at, "%s%g:%g", j ? " " : "", c->mult_k[j],
				       c->mult_p[j]);
	return buf;
}

json_t *out_json_cost(const struct vpmc_cost *c, const enum vpmc_cost_tag *tag, int *err)
{
	size_t n, i;
	const struct vpmc_cost_param_info *t = vpmc_cost_params(&n);
	json_t *o = json_object();

	for (i = 0; o && i < n; i++) {
		json_t *e = json_object();
		char buf[256];

		if (!e) {
			*err = VPMC_ERR_NOMEM;
			break;
		}
		if (!strcmp(t[i].name, "drain_extra_mult")) {
			out_json_set(e, "value", json_string(out_cost_value(&t[i], c, buf,
									      sizeof(buf))), err);
		} else {
			double v = *(const double *)((const char *)c + t[i].off);
			double r = isfinite(v * 1e4) ? round(v * 1e4) / 1e4 : v; /* 1e308 stays */

			out_json_set(e, "value", isfinite(r) ? json_real(r) : json_null(), err);
		}
		out_json_set(e, "tag", json_string(vpmc_cost_tag_name(tag[i])), err);
		out_json_set(o, t[i].name, e, err);
	}
	if (!o)
		*err = VPMC_ERR_NOMEM;
	return o;
}
