// SPDX-License-Identifier: GPL-2.0-only
/*
 * summary.c - The "merge_state" of nested's JSON report, and the union of several (vpmcsim(1),
 * MERGE): the model in force (options, assumptions and their sources, the cost table: what two
 * summaries must share), the trace's counts, per kind its counts and distributions (exact
 * values with their counts, or histogram buckets with their bounds), the totals. All integers:
 * they add up the same in any order.
 */
#include "config.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "hist_json.h"
#include "nested-local.h"

#define SUMMARY_SCHEMA "vpmcsim-summary/1"

struct u64field {
	const char *key;
	size_t off;
};

#define O(f) { #f, offsetof(struct nested_ops, f) }
static const struct u64field ops_f[] = {
	O(maps_b), O(reads_b), O(tails_b), O(maps_g), O(refreshes_g), O(hits_g), O(loads_g),
	O(reads_g), O(kicks_g), O(tails_g),
};
#undef O
#define T(f) { #f, offsetof(struct nested_totals, f) }
static const struct u64field tot_f[] = {
	T(l2_exits), T(roundtrips), T(l0_handled), T(incomplete_exits), T(incomplete_runs),
	T(assumed_entries), T(l1_exits), T(gpa_changes), T(vmload_vmsave), T(invalidations),
	T(inval_walk_cycles), T(unplaced), T(early_vmfails),
};
#undef T

#define AT(p, f) ((uint64_t *)((char *)(p) + (f)->off))
#define AT_C(p, f) ((const uint64_t *)((const char *)(p) + (f)->off))

static void set(json_t *o, const char *key, json_t *v, int *err)
{
	if (!o || !v || json_object_set_new(o, key, v))
		*err = VPMC_ERR_NOMEM;
}

static json_t *put_u64s(const void *p, const struct u64field *f, size_t n, int *err)
{
	json_t *o = json_object();
	size_t i;

	for (i = 0; i < n; i++)
		set(o, f[i].key, vpmc__json_u64(*AT_C(p, &f[i])), err);
	return o;
}

static int get_u64s(json_t *o, void *p, const struct u64field *f, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (vpmc__json_get_u64(o, f[i].key, AT(p, &f[i])))
			return -1;
	}
	return 0;
}

static json_t *u64_array(const uint64_t *v, size_t n, int *err)
{
	json_t *a = json_array();
	size_t i;

	for (i = 0; a && i < n; i++) {
		if (json_array_append_new(a, vpmc__json_u64(v[i])))
			*err = VPMC_ERR_NOMEM;
	}
	return a;
}

/* ---- writing ---- */

/* The model in force: what two summaries must share to merge. */
static json_t *model_ident(const struct vpmc_nested *n, int *err)
{
	const struct nested_cfg *c = &n->cfg;
	const struct vpmc_nested_assume *a = &c->a;
	json_t *o = json_object(), *from = json_array();
	uint64_t p[VPMC_NP_NR], w[3];
	char kv[512];
	int k;

	for (k = 0; from && k < VPMC_NESTED_KEY_NR; k++) {
		if (json_array_append_new(from, json_integer(c->from[k])))
			*err = VPMC_ERR_NOMEM;
	}
	vpmc_nested_assume_format(a, (1u << VPMC_NESTED_KEY_NR) - 1, kv, sizeof(kv));
	set(o, "assume", json_string(kv), err);
	set(o, "assume_given", json_integer(a->given), err);
	set(o, "assume_from", from, err);
	set(o, "isa_known", json_boolean(c->isa_known), err);
	set(o, "isa_by_label", json_boolean(n->isa_by_label), err);
	set(o, "msr_in_range", json_boolean(c->msr_in_range), err);
	set(o, "gpc_svm_merge", json_boolean(c->gpc_svm_merge), err);
	set(o, "gpc_context", json_boolean(c->gpc_context), err);
	set(o, "gpc_cold", json_boolean(c->gpc_cold), err);
	set(o, "gpc_invalidate_every", vpmc__json_u64(c->inval_every), err);
	set(o, "anchor", json_integer(c->anchor), err);
	set(o, "options_given", json_integer(n->opts.given), err);
	for (k = 0; k < VPMC_NP_NR; k++)
		p[k] = c->p[k];
	set(o, "params", u64_array(p, VPMC_NP_NR, err), err);
	set(o, "rt_fixed_svm", vpmc__json_u64(c->rt_fixed_svm), err);
	set(o, "params_fitted", json_integer(c->fitted), err);
	set(o, "params_given", json_integer(c->given), err);
	set(o, "intercepts_seen", json_boolean(n->intercepts_seen), err);
	for (k = 0; k < 3; k++)
		w[k] = n->intercepts_seen ? n->trace_w[k] : 0;
	set(o, "trace_intercepts", u64_array(w, 3, err), err);
	return o;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* A distribution: its exact values with their counts, in order, or its histogram. */
static json_t *dist_state(const struct nested_dist *d, int *err)
{
	json_t *o = json_object(), *vals = d->hist_on ? json_null() : json_array();
	uint64_t pairs[NESTED_DIST_EXACT][2];
	unsigned int i;

	for (i = 0; i < d->nr_vals; i++) {
		pairs[i][0] = d->val[i];
		pairs[i][1] = d->cnt[i];
	}
	if (!d->hist_on)
		qsort(pairs, d->nr_vals, sizeof(pairs[0]), cmp_u64);
	for (i = 0; vals && !d->hist_on && i < d->nr_vals; i++) {
		if (json_array_append_new(vals, u64_array(pairs[i], 2, err)))
			*err = VPMC_ERR_NOMEM;
	}
	set(o, "n", vpmc__json_u64(d->n), err);
	set(o, "values", vals, err);
	set(o, "hist", d->hist_on ? hist_json_put(&d->h, err) : json_null(), err);
	return o;
}

static json_t *row_state(const struct vpmc_nested *n, enum nested_kind k, int *err)
{
	const struct nested_row *r = &n->rows[k];
	json_t *o = json_object();

	set(o, "kind", json_string(nested_kind_name(k)), err);
	set(o, "n", vpmc__json_u64(r->n), err);
	set(o, "assumed", vpmc__json_u64(r->assumed), err);
	set(o, "ops", put_u64s(&r->ops, ops_f, ARRAY_SIZE(ops_f), err), err);
	set(o, "model_baseline", dist_state(&r->model_b, err), err);
	set(o, "model_gpc", dist_state(&r->model_g, err), err);
	set(o, "measured_baseline", dist_state(&r->meas_b, err), err);
	set(o, "measured_gpc", dist_state(&r->meas_g, err), err);
	set(o, "measured", dist_state(&r->measured, err), err);
	return o;
}

static bool vcpu_seen(const struct vpmc_nested *n, unsigned int v)
{
	return n->vcpus[v] || (n->merged_vcpus[v / 8] & (1u << (v % 8)));
}

static json_t *trace_state(const struct vpmc_nested *n, int *err)
{
	json_t *o = json_object(), *v = json_array();
	unsigned int i;

	for (i = 0; v && i < VPMC_MAX_VCPUS; i++) {
		if (vcpu_seen(n, i) && json_array_append_new(v, json_integer(i)))
			*err = VPMC_ERR_NOMEM;
	}
	set(o, "events", vpmc__json_u64(n->nr_events), err);
	set(o, "nested_events", vpmc__json_u64(n->nested_events), err);
	set(o, "first_ns", vpmc__json_u64(n->first_ns), err);
	set(o, "last_ns", vpmc__json_u64(n->last_ns), err);
	set(o, "fine_times", json_boolean(n->fine_times), err);
	set(o, "partial_lines", vpmc__json_u64(n->partial), err);
	set(o, "vcpus", v, err);
	return o;
}

char *nested_summary_state(const struct vpmc_nested *n)
{
	json_t *st = json_object(), *rows = json_array(), *in;
	char *text = NULL;
	int k, err = 0;

	if (n->merge_first) {
		in = json_incref(n->merge_inputs);
	} else {
		in = json_array();
		if (!in || json_array_append_new(in, json_string(n->name ? n->name : "")))
			err = VPMC_ERR_NOMEM;
	}
	set(st, "schema", json_string(SUMMARY_SCHEMA), &err);
	set(st, "command", json_string("nested"), &err);
	set(st, "model", model_ident(n, &err), &err);
	set(st, "inputs", in, &err);
	set(st, "trace", trace_state(n, &err), &err);
	for (k = 0; rows && k < NK_NR; k++) {
		if (json_array_append_new(rows, row_state(n, (enum nested_kind)k, &err)))
			err = VPMC_ERR_NOMEM;
	}
	set(st, "kinds", rows, &err);
	set(st, "totals", put_u64s(&n->tot, tot_f, ARRAY_SIZE(tot_f), &err), &err);
	set(json_object_get(st, "totals"), "ops", put_u64s(&n->tot.ops, ops_f, ARRAY_SIZE(ops_f),
							    &err), &err);
	if (!err)
		text = json_dumps(st, JSON_INDENT(2));
	json_decref(st);
	return text;
}

/* ---- reading and adding ---- */

/* @c samples of value @v added to @d. Return: 0, or VPMC_ERR_NOMEM. */
static int dist_add_n(struct nested_dist *d, uint64_t v, uint64_t c)
{
	unsigned int i;

	if (!d->hist_on) {
		for (i = 0; i < d->nr_vals && d->val[i] != v; i++)
			;
		if (i < d->nr_vals || d->nr_vals < NESTED_DIST_EXACT) {
			d->val[i] = v;
			d->cnt[i] = (i < d->nr_vals ? d->cnt[i] : 0) + c;
			d->nr_vals += i == d->nr_vals;
			d->n += c;
			return 0;
		}
		/* a 65th distinct value: the histogram takes over, as nested_dist_add() */
		d->hist_on = true;
		for (i = 0; i < d->nr_vals; i++) {
			if (hist_add_n(&d->h, hist_bucket(d->val[i]), d->cnt[i], d->val[i],
				       d->val[i]))
				return VPMC_ERR_NOMEM;
		}
	}
	d->n += c;
	return hist_add_n(&d->h, hist_bucket(v), c, v, v);
}

/* Distribution @o added to @d. Return: 0, -1 (malformed) or VPMC_ERR_NOMEM. */
static int dist_add(struct nested_dist *d, json_t *o)
{
	json_t *vals = json_object_get(o, "values"), *e;
	uint64_t n, v, c, sum = 0;
	struct nested_dist t;
	size_t i;
	int err = 0;

	if (vpmc__json_get_u64(o, "n", &n))
		return -1;
	if (json_is_array(vals)) {
		json_array_foreach(vals, i, e) {
			json_t *p = json_pack("{sOsO}", "v", json_array_get(e, 0), "c",
					      json_array_get(e, 1));

			err = !p || json_array_size(e) != 2 || vpmc__json_get_u64(p, "v", &v) ||
			      vpmc__json_get_u64(p, "c", &c) || !c;
			json_decref(p);
			if (err)
				return -1;
			sum += c;
			err = dist_add_n(d, v, c);
			if (err)
				return err;
		}
		return sum == n ? 0 : -1;
	}
	nested_dist_init(&t);
	err = hist_json_get(json_object_get(o, "hist"), &t.h);
	if (!err && t.h.n != n)
		err = -1;
	for (i = 0; !err && !d->hist_on && i < d->nr_vals; i++) /* d's exact values: over */
		err = hist_add_n(&t.h, hist_bucket(d->val[i]), d->cnt[i], d->val[i], d->val[i]);
	if (!err && !d->hist_on) {
		d->hist_on = true;
		err = hist_merge(&d->h, &t.h);
	} else if (!err) {
		err = hist_merge(&d->h, &t.h);
	}
	if (!err)
		d->n += n;
	nested_dist_release(&t);
	return err;
}

static int ops_add(json_t *o, struct nested_ops *dst)
{
	struct nested_ops ops;
	size_t i;

	if (get_u64s(o, &ops, ops_f, ARRAY_SIZE(ops_f)))
		return -1;
	for (i = 0; i < ARRAY_SIZE(ops_f); i++)
		*AT(dst, &ops_f[i]) += *AT(&ops, &ops_f[i]);
	return 0;
}

/* Kind row @o added to its row of @n. Return: 0, -1 or VPMC_ERR_NOMEM. */
static int row_add(struct vpmc_nested *n, json_t *o)
{
	const char *name = json_string_value(json_object_get(o, "kind"));
	struct nested_row *r;
	uint64_t cnt, assumed;
	int k, err;

	for (k = 0; name && k < NK_NR && strcmp(name, nested_kind_name((enum nested_kind)k)); k++)
		;
	if (!name || k == NK_NR || vpmc__json_get_u64(o, "n", &cnt) ||
	    vpmc__json_get_u64(o, "assumed", &assumed))
		return -1;
	r = &n->rows[k];
	if (ops_add(json_object_get(o, "ops"), &r->ops))
		return -1;
	r->n += cnt;
	r->assumed += assumed;
	err = dist_add(&r->model_b, json_object_get(o, "model_baseline"));
	if (!err)
		err = dist_add(&r->model_g, json_object_get(o, "model_gpc"));
	if (!err)
		err = dist_add(&r->meas_b, json_object_get(o, "measured_baseline"));
	if (!err)
		err = dist_add(&r->meas_g, json_object_get(o, "measured_gpc"));
	if (!err)
		err = dist_add(&r->measured, json_object_get(o, "measured"));
	return err;
}

static int trace_add(struct vpmc_nested *n, json_t *t)
{
	json_t *v = json_object_get(t, "vcpus"), *e;
	uint64_t ev, nev, first, last, partial;
	size_t i;

	if (vpmc__json_get_u64(t, "events", &ev) || vpmc__json_get_u64(t, "nested_events", &nev) ||
	    vpmc__json_get_u64(t, "first_ns", &first) || vpmc__json_get_u64(t, "last_ns", &last) ||
	    vpmc__json_get_u64(t, "partial_lines", &partial) ||
	    !json_is_boolean(json_object_get(t, "fine_times")) || !json_is_array(v))
		return -1;
	json_array_foreach(v, i, e) {
		json_int_t id = json_integer_value(e);

		if (!json_is_integer(e) || id < 0 || id >= VPMC_MAX_VCPUS)
			return -1;
		if (!(n->merged_vcpus[id / 8] & (1u << (id % 8))))
			n->nr_vcpus++;
		n->merged_vcpus[id / 8] |= (uint8_t)(1u << (id % 8));
	}
	if (ev && (!n->nr_events || first < n->first_ns))
		n->first_ns = first;
	if (ev && last > n->last_ns)
		n->last_ns = last;
	n->nr_events += ev;
	n->nested_events += nev;
	n->partial += partial;
	n->fine_times |= json_is_true(json_object_get(t, "fine_times"));
	return 0;
}

/* The model of the first summary @m into @n's configuration. Return: 0, or -1. */
static int model_load(struct vpmc_nested *n, json_t *m)
{
	struct nested_cfg *c = &n->cfg;
	json_t *from = json_object_get(m, "assume_from"), *p = json_object_get(m, "params");
	json_t *w = json_object_get(m, "trace_intercepts"), *e, *t;
	const char *kv = json_string_value(json_object_get(m, "assume")), *why;
	uint64_t v;
	size_t i;
	int err = 0;

	vpmc_nested_assume_default(&c->a);
	while (kv && *kv && !err) { /* "k=v k=v ...", as vpmc_nested_assume_format() writes */
		size_t len = strcspn(kv, " "), kl = strcspn(kv, "=");

		err = kl >= len || vpmc_nested_assume_set(&c->a, kv, kl, kv + kl + 1, len - kl - 1,
							   &why);
		kv += len + strspn(kv + len, " ");
	}
	if (err || !kv || !json_is_array(from) || json_array_size(from) != VPMC_NESTED_KEY_NR ||
	    !json_is_array(p) || json_array_size(p) != VPMC_NP_NR || !json_is_array(w) ||
	    json_array_size(w) != 3)
		return -1;
	c->a.given = (uint32_t)json_integer_value(json_object_get(m, "assume_given"));
	json_array_foreach(from, i, e) {
		if (!json_is_integer(e) || json_integer_value(e) < NF_DEFAULT ||
		    json_integer_value(e) > NF_TRACE)
			return -1;
		c->from[i] = (enum nested_from)json_integer_value(e);
	}
	for (i = 0; i < VPMC_NP_NR + 3; i++) {
		t = json_pack("{sO}", "v", i < VPMC_NP_NR ? json_array_get(p, i) :
			      json_array_get(w, i - VPMC_NP_NR));
		err = !t || vpmc__json_get_u64(t, "v", &v);
		json_decref(t);
		if (err || (i >= VPMC_NP_NR && v > UINT32_MAX))
			return -1;
		if (i < VPMC_NP_NR)
			c->p[i] = v;
		else
			n->trace_w[i - VPMC_NP_NR] = (uint32_t)v;
	}
	c->isa_known = json_is_true(json_object_get(m, "isa_known"));
	n->isa_by_label = json_is_true(json_object_get(m, "isa_by_label"));
	c->msr_in_range = json_is_true(json_object_get(m, "msr_in_range"));
	c->gpc_svm_merge = json_is_true(json_object_get(m, "gpc_svm_merge"));
	c->gpc_context = json_is_true(json_object_get(m, "gpc_context"));
	c->gpc_cold = json_is_true(json_object_get(m, "gpc_cold"));
	c->anchor = (enum vpmc_nested_anchor)json_integer_value(json_object_get(m, "anchor"));
	n->opts.given = (uint32_t)json_integer_value(json_object_get(m, "options_given"));
	c->fitted = (uint32_t)json_integer_value(json_object_get(m, "params_fitted"));
	c->given = (uint32_t)json_integer_value(json_object_get(m, "params_given"));
	n->intercepts_seen = json_is_true(json_object_get(m, "intercepts_seen"));
	c->params_set = true;
	if (c->anchor > VPMC_NESTED_ANCHOR_MODEL ||
	    vpmc__json_get_u64(m, "gpc_invalidate_every", &c->inval_every) ||
	    vpmc__json_get_u64(m, "rt_fixed_svm", &c->rt_fixed_svm))
		return -1;
	return 0;
}

/* The model of @m against the first summary's: 0, or VPMC_ERR_INVAL naming the key. */
static int model_check(struct vpmc_nested *n, json_t *m, const char *path)
{
	json_t *first = json_object_get(n->merge_first, "model"), *a;
	const char *key;
	char *ta, *tb;

	json_object_foreach(first, key, a) {
		json_t *b = json_object_get(m, key);

		if (b && json_equal(a, b))
			continue;
		ta = json_dumps(a, JSON_COMPACT | JSON_ENCODE_ANY);
		tb = b ? json_dumps(b, JSON_COMPACT | JSON_ENCODE_ANY) : NULL;
		vpmc__set_error(&n->err, VPMC_ERR_INVAL, "%s and %s were made with different "
				"model.%s: %.300s against %.300s; they do not merge", n->merge_path,
				path, key, ta ? ta : "", tb ? tb : "(none)");
		free(ta);
		free(tb);
		return VPMC_ERR_INVAL;
	}
	if (json_object_size(m) != json_object_size(first))
		return vpmc__set_error(&n->err, VPMC_ERR_INVAL, "%s and %s were made with "
				       "different models; they do not merge", n->merge_path, path);
	return 0;
}

static int cmp_json_str(const void *a, const void *b)
{
	return strcmp(json_string_value(*(json_t *const *)a),
		      json_string_value(*(json_t *const *)b));
}

/* The inputs of @in appended to the union's, kept sorted; n->name the one, or how many. */
static int inputs_add(struct vpmc_nested *n, json_t *in)
{
	size_t i, nr;
	json_t **v, *e;
	char label[64];
	int err = 0;

	json_array_foreach(in, i, e) {
		if (!json_is_string(e))
			return -1;
		if (json_array_append(n->merge_inputs, e))
			return VPMC_ERR_NOMEM;
	}
	nr = json_array_size(n->merge_inputs);
	v = calloc(nr ? nr : 1, sizeof(*v));
	if (!v)
		return VPMC_ERR_NOMEM;
	for (i = 0; i < nr; i++)
		v[i] = json_incref(json_array_get(n->merge_inputs, i));
	qsort(v, nr, sizeof(*v), cmp_json_str);
	json_array_clear(n->merge_inputs);
	for (i = 0; i < nr; i++)
		err |= json_array_append_new(n->merge_inputs, v[i]);
	free(v);
	if (err)
		return VPMC_ERR_NOMEM;
	snprintf(label, sizeof(label), "%zu traces (merged)", nr);
	free(n->name);
	n->name = strdup(nr == 1 ? json_string_value(json_array_get(n->merge_inputs, 0)) : label);
	return n->name ? 0 : VPMC_ERR_NOMEM;
}

static int state_add(struct vpmc_nested *n, json_t *st, const char **key)
{
	json_t *rows = json_object_get(st, "kinds"), *tot = json_object_get(st, "totals"), *r;
	struct nested_totals t;
	size_t i;
	int err;

	*key = "trace";
	if (trace_add(n, json_object_get(st, "trace")))
		return -1;
	*key = "totals";
	memset(&t, 0, sizeof(t));
	if (get_u64s(tot, &t, tot_f, ARRAY_SIZE(tot_f)) ||
	    ops_add(json_object_get(tot, "ops"), &n->tot.ops))
		return -1;
	for (i = 0; i < ARRAY_SIZE(tot_f); i++)
		*AT(&n->tot, &tot_f[i]) += *AT(&t, &tot_f[i]);
	*key = "kinds";
	if (!json_is_array(rows))
		return -1;
	json_array_foreach(rows, i, r) {
		err = row_add(n, r);
		if (err)
			return err;
	}
	*key = "inputs";
	return inputs_add(n, json_object_get(st, "inputs"));
}

int vpmc_nested_merge(struct vpmc_nested *n, const char *state, const char *path)
{
	json_t *st = json_loads(state, JSON_REJECT_DUPLICATES, NULL), *m;
	const char *key = "";
	int err;

	vpmc__clear_error(&n->err);
	m = json_object_get(st, "model");
	if (!json_is_object(m) || n->ran) {
		json_decref(st);
		return vpmc__set_error(&n->err, VPMC_ERR_PARSE, "%s: merge_state.model: missing "
				       "or malformed", path);
	}
	if (n->merge_first) {
		err = model_check(n, m, path);
		if (err) {
			json_decref(st);
			return err;
		}
	} else {
		n->merge_first = json_incref(st);
		n->merge_path = strdup(path);
		n->merge_inputs = json_array();
		err = !n->merge_path || !n->merge_inputs ? VPMC_ERR_NOMEM : model_load(n, m);
		key = "model";
	}
	if (!err)
		err = state_add(n, st, &key);
	json_decref(st);
	nested_decide_anchor(n);
	if (err == VPMC_ERR_NOMEM)
		return vpmc__set_error(&n->err, err, "%s", vpmc_strerror(err));
	if (err)
		return vpmc__set_error(&n->err, VPMC_ERR_PARSE, "%s: merge_state.%s: missing or "
				       "malformed", path, key);
	return 0;
}
