// SPDX-License-Identifier: GPL-2.0-only
/*
 * stat_summary.c - The "merge_state" of stat's JSON report and the sum of several (vpmcsim(1),
 * MERGE): per row its count, sum, sum of squares, minimum, maximum, histogram and, while it has
 * at most STAT_EXACT_MAX samples, the samples themselves (the exact percentiles). Every figure
 * of the report follows from these integers, which add up the same in any order.
 */
#include "config.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "outbuf.h"
#include "stat-local.h"
#include "summary.h"

static json_t *u128_text(unsigned __int128 v)
{
	char buf[40];

	snprintf(buf, sizeof(buf), "0x%016" PRIx64 "%016" PRIx64, (uint64_t)(v >> 64), (uint64_t)v);
	return json_string(buf);
}

static int u128_parse(json_t *j, unsigned __int128 *v)
{
	const char *s = json_string_value(j);
	size_t i;

	if (!s || strlen(s) != 34 || strncmp(s, "0x", 2))
		return -1;
	*v = 0;
	for (i = 2; i < 34; i++) {
		const char *d = strchr("0123456789abcdef", s[i]);

		if (!d || !s[i])
			return -1;
		*v = *v << 4 | (unsigned int)(d - "0123456789abcdef");
	}
	return 0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static json_t *row_state(struct stat_reason *r, int *err)
{
	json_t *o = json_object(), *ex = r->exact ? json_array() : json_null();
	uint64_t i;

	if (r->exact) {
		qsort(r->exact, r->n, sizeof(*r->exact), cmp_u64);
		r->sorted = true;
	}
	for (i = 0; r->exact && ex && i < r->n; i++) {
		if (json_array_append_new(ex, out_json_u64(r->exact[i])))
			*err = VPMC_ERR_NOMEM;
	}
	out_json_set(o, "name", json_string(r->name), err);
	out_json_set(o, "n", out_json_u64(r->n), err);
	out_json_set(o, "total_ns", out_json_u64(r->total_ns), err);
	out_json_set(o, "min_ns", out_json_u64(r->min_ns), err);
	out_json_set(o, "max_ns", out_json_u64(r->max_ns), err);
	out_json_set(o, "sum_sq", u128_text(r->sum_sq), err);
	out_json_set(o, "hist", hist_json_put(&r->h, err), err);
	out_json_set(o, "exact", ex, err);
	return o;
}

static int cmp_row(const void *a, const void *b)
{
	const struct stat_reason *x = *(struct stat_reason *const *)a;
	const struct stat_reason *y = *(struct stat_reason *const *)b;

	return strcmp(x->name, y->name);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The vCPUs of bit set @set as a JSON array. */
static json_t *vcpu_array(const uint8_t *set, int *err)
{
	json_t *a = json_array();
	unsigned int v;

	for (v = 0; a && v < VPMC_MAX_VCPUS; v++) {
		if ((set[v / 8] & (1u << (v % 8))) && json_array_append_new(a, json_integer(v)))
			*err = VPMC_ERR_NOMEM;
	}
	return a;
}

json_t *stat_summary_state(struct vpmc_stat *s, int *err)
{
	json_t *st = json_object(), *rows = json_array(), *in = json_array();
	struct stat_reason **sorted = malloc((s->nr_reasons + 1) * sizeof(*sorted));
	char **names = malloc((s->nr_inputs + 1) * sizeof(*names));
	unsigned int i, n = 0;

	if (!st || !sorted || !names) {
		*err = VPMC_ERR_NOMEM;
		free(sorted);
		free(names);
		return st;
	}
	out_json_set(st, "schema", json_string("vpmcsim-summary/1"), err);
	out_json_set(st, "command", json_string("stat"), err);
	out_json_set(st, "event", json_string(stat_event_option(s)), err);
	out_json_set(st, "key", json_string(stat_key_option(s)), err);
	out_json_set(st, "vcpus", s->vcpu_filter ? vcpu_array(s->vcpus, err) : json_null(), err);
	out_json_set(st, "time", s->time_arg[0] ? json_string(s->time_arg) : json_null(), err);
	if (s->nr_inputs) {
		memcpy(names, s->inputs, s->nr_inputs * sizeof(*names));
		qsort(names, s->nr_inputs, sizeof(*names), cmp_str);
	}
	for (i = 0; in && i < s->nr_inputs; i++) {
		if (json_array_append_new(in, json_string(names[i])))
			*err = VPMC_ERR_NOMEM;
	}
	out_json_set(st, "inputs", in, err);
	out_json_set(st, "exits", out_json_u64(s->exits), err);
	out_json_set(st, "exits_selected", out_json_u64(s->exits_selected), err);
	out_json_set(st, "exit_first_ns", out_json_u64(s->exits ? s->exit_first_ns : 0), err);
	out_json_set(st, "exit_last_ns", out_json_u64(s->exits ? s->exit_last_ns : 0), err);
	out_json_set(st, "exit_vcpus", vcpu_array(s->exit_vcpus, err), err);
	out_json_set(st, "accesses", out_json_u64(s->accesses), err);
	out_json_set(st, "exits_without_entry", out_json_u64(stat_unpaired(s)), err);
	out_json_set(st, "total", row_state(&s->total, err), err);
	for (i = 0; i < s->nr_reasons; i++)
		sorted[n++] = &s->reasons[i];
	qsort(sorted, n, sizeof(*sorted), cmp_row);
	for (i = 0; rows && i < n; i++) {
		if (json_array_append_new(rows, row_state(sorted[i], err)))
			*err = VPMC_ERR_NOMEM;
	}
	out_json_set(st, "reasons", rows, err);
	free(sorted);
	free(names);
	return st;
}

/* ---- reading and adding ---- */

/* Row @o into @r (initialized): 0, -1 (malformed) or VPMC_ERR_NOMEM. */
static int row_parse(json_t *o, struct stat_reason *r)
{
	json_t *ex = json_object_get(o, "exact"), *e;
	const char *name = json_string_value(json_object_get(o, "name"));
	size_t i;
	int err;

	if (!name || !name[0] || strlen(name) >= sizeof(r->name) ||
	    vpmc__json_get_u64(o, "n", &r->n) || vpmc__json_get_u64(o, "total_ns", &r->total_ns) ||
	    vpmc__json_get_u64(o, "min_ns", &r->min_ns) ||
	    vpmc__json_get_u64(o, "max_ns", &r->max_ns) ||
	    u128_parse(json_object_get(o, "sum_sq"), &r->sum_sq) || r->min_ns > r->max_ns)
		return -1;
	snprintf(r->name, sizeof(r->name), "%s", name);
	err = hist_json_get(json_object_get(o, "hist"), &r->h);
	if (err || r->h.n != r->n || (r->n && (r->h.min != r->min_ns || r->h.max != r->max_ns)))
		return err ? err : -1;
	if (r->n > STAT_EXACT_MAX || !r->n)
		return json_is_null(ex) ? 0 : -1;
	if (!json_is_array(ex) || json_array_size(ex) != r->n)
		return -1;
	r->exact = malloc(STAT_EXACT_MAX * sizeof(*r->exact));
	if (!r->exact)
		return VPMC_ERR_NOMEM;
	json_array_foreach(ex, i, e) {
		json_t *t = json_pack("{sO}", "v", e);

		err = !t || vpmc__json_get_u64(t, "v", &r->exact[i]);
		json_decref(t);
		if (err || r->exact[i] < r->min_ns || r->exact[i] > r->max_ns)
			return -1;
	}
	return 0;
}

/* Add row @src to @dst. Return: 0, or VPMC_ERR_NOMEM. */
static int row_add(struct stat_reason *dst, const struct stat_reason *src)
{
	unsigned __int128 sq = dst->sum_sq + src->sum_sq;
	int err = hist_merge(&dst->h, &src->h);

	if (err || !src->n)
		return err;
	if (dst->n + src->n <= STAT_EXACT_MAX) {
		if (!dst->exact)
			dst->exact = malloc(STAT_EXACT_MAX * sizeof(*dst->exact));
		if (!dst->exact)
			return VPMC_ERR_NOMEM;
		memcpy(dst->exact + dst->n, src->exact, src->n * sizeof(*src->exact));
		dst->sorted = false;
	} else {
		free(dst->exact);
		dst->exact = NULL;
	}
	if (!dst->n || src->min_ns < dst->min_ns)
		dst->min_ns = src->min_ns;
	if (src->max_ns > dst->max_ns)
		dst->max_ns = src->max_ns;
	dst->n += src->n;
	dst->total_ns += src->total_ns;
	dst->sum_sq = sq < dst->sum_sq ? ~(unsigned __int128)0 : sq;
	return 0;
}

/* The vCPUs of array @a into bit set @set. Return: 0, or -1. */
static int vcpu_set(json_t *a, uint8_t *set)
{
	json_t *e;
	size_t i;

	if (!json_is_array(a))
		return -1;
	json_array_foreach(a, i, e) {
		json_int_t v = json_integer_value(e);

		if (!json_is_integer(e) || v < 0 || v >= VPMC_MAX_VCPUS)
			return -1;
		set[v / 8] |= (uint8_t)(1u << (v % 8));
	}
	return 0;
}

int stat_summary_setup(struct vpmc_stat *s, json_t *st)
{
	json_t *ev = json_object_get(st, "event"), *key = json_object_get(st, "key");
	json_t *v = json_object_get(st, "vcpus"), *t = json_object_get(st, "time");

	if (!json_is_string(ev) || vpmc_stat_set_event(s, json_string_value(ev)))
		return -1;
	if (!json_is_string(key) || vpmc_stat_set_key(s, json_string_value(key)))
		return -1;
	if (!json_is_null(t) && (!json_is_string(t) || vpmc_stat_set_time(s, json_string_value(t))))
		return -1;
	if (json_is_null(v))
		return 0;
	s->vcpu_filter = true;
	return vcpu_set(v, s->vcpus);
}

/* Add the counts of @st to @s. Return: 0, -1 (malformed, @s partly added to), or NOMEM. */
static int state_add(struct vpmc_stat *s, json_t *st, const char **key)
{
	json_t *rows = json_object_get(st, "reasons"), *in = json_object_get(st, "inputs"), *e;
	uint64_t exits, sel, first, last, acc, unpaired;
	struct stat_reason r;
	unsigned int idx;
	size_t i;
	int err;

	*key = "exits";
	if (vpmc__json_get_u64(st, "exits", &exits) ||
	    vpmc__json_get_u64(st, "exits_selected", &sel) ||
	    vpmc__json_get_u64(st, "exit_first_ns", &first) ||
	    vpmc__json_get_u64(st, "exit_last_ns", &last) ||
	    vpmc__json_get_u64(st, "accesses", &acc) ||
	    vpmc__json_get_u64(st, "exits_without_entry", &unpaired))
		return -1;
	*key = "exit_vcpus";
	if (vcpu_set(json_object_get(st, "exit_vcpus"), s->exit_vcpus))
		return -1;
	*key = "inputs";
	if (!json_is_array(in) || !json_is_array(rows))
		return -1;
	json_array_foreach(in, i, e) {
		if (!json_is_string(e))
			return -1;
		if (vpmc_stat_set_source(s, json_string_value(e)))
			return VPMC_ERR_NOMEM;
	}
	if (exits && (!s->exits || first < s->exit_first_ns))
		s->exit_first_ns = first;
	if (exits && last > s->exit_last_ns)
		s->exit_last_ns = last;
	s->exits += exits;
	s->exits_selected += sel;
	s->accesses += acc;
	s->unpaired += unpaired;
	for (i = 0; i <= json_array_size(rows); i++) {
		*key = i < json_array_size(rows) ? "reasons" : "total";
		stat_row_init(&r, "");
		err = row_parse(i < json_array_size(rows) ? json_array_get(rows, i) :
				json_object_get(st, "total"), &r);
		if (!err && i == json_array_size(rows))
			err = row_add(&s->total, &r);
		else if (!err && !(err = stat_reason_index(s, r.name, &idx)))
			err = row_add(&s->reasons[idx], &r);
		hist_release(&r.h);
		free(r.exact);
		if (err)
			return err;
	}
	return 0;
}

int stat_summary_add(struct vpmc_stat *s, json_t *st, const char *path, struct vpmc__errbuf *eb)
{
	const char *key = "";
	int err = state_add(s, st, &key);

	if (err == VPMC_ERR_NOMEM)
		return vpmc__set_error(eb, err, "out of memory");
	if (err)
		return vpmc__set_error(eb, VPMC_ERR_PARSE, "%s: merge_state.%s: missing or malformed",
				       path, key);
	return 0;
}
