// SPDX-License-Identifier: GPL-2.0-only
/*
 * latency_summary.c - The "merge_state" of latency's JSON report (vpmcsim(1), MERGE): the
 * replay's, as compare's (summary.c), plus the identity of the latency options, cost profile
 * and trace ("latency") and, per vCPU and policy, the handler windows' counts, exact sum and
 * histogram ("latency_run"). Every figure of the report follows from these.
 */
#include "config.h"

#include <string.h>

#include "outbuf.h"
#include "replay.h"
#include "summary.h"

static const char *const end_names[] = { "auto", "deadline", "eoi" };
static const char *const gaps_names[] = { "auto", "trace", "model" };

static json_t *str_or_null(const char *s)
{
	return s ? json_string(s) : json_null();
}

/* The profile's name, metadata lines and every parameter's source. */
static json_t *profile_ident(const struct vpmc_latency_labels *lab, int *err)
{
	const struct vpmc_cost_profile *p = lab->prof;
	const struct vpmc_cost_param_info *t;
	json_t *o = json_object(), *src = json_object();
	size_t i, n;

	out_json_set(o, "name", json_string(lab->profile), err);
	out_json_set(o, "fitted", str_or_null(lab->fitted), err);
	out_json_set(o, "targets", str_or_null(lab->targets), err);
	out_json_set(o, "measured", str_or_null(p ? p->measured : NULL), err);
	out_json_set(o, "fitted_on", str_or_null(p ? p->fitted_on : NULL), err);
	out_json_set(o, "fitted_touched", json_boolean(p && p->fitted_touched), err);
	t = vpmc_cost_params(&n);
	for (i = 0; p && i < n && i < VPMC_COST_MAX_PARAMS; i++)
		out_json_set(src, t[i].name, str_or_null(p->source[i]), err);
	out_json_set(o, "sources", p ? src : (json_decref(src), json_null()), err);
	return o;
}

static json_t *latency_ident(const struct vpmc_latency *l, const struct vpmc_latency_labels *lab,
			     int *err)
{
	const struct vpmc_latency_opts *o = vpmc_latency_options(l);
	json_t *id = json_object();

	out_json_set(id, "vector", json_integer(o->vector), err);
	out_json_set(id, "end", json_string(end_names[o->end]), err);
	out_json_set(id, "max_window_ns", out_json_u64(o->max_window_ns), err);
	out_json_set(id, "fast_us", summary_hex_double(o->fast_us), err);
	out_json_set(id, "gaps", json_string(gaps_names[o->gaps]), err);
	out_json_set(id, "gaps_trace", json_boolean(vpmc_latency_gaps_trace(l)), err);
	out_json_set(id, "gen", str_or_null(lab->gen), err);
	out_json_set(id, "profile", profile_ident(lab, err), err);
	out_json_set(id, "baseline", json_integer((json_int_t)lab->baseline), err);
	out_json_set(id, "per_vcpu", json_boolean(lab->per_vcpu), err);
	out_json_set(id, "marks", json_boolean(lab->marks), err);
	out_json_set(id, "other_trace", json_boolean(lab->other_trace), err);
	return id;
}

static json_t *acc_state(const struct replay_latency_acc *a, int *err)
{
	json_t *o = json_object();

	out_json_set(o, "n", out_json_u64(a->n), err);
	out_json_set(o, "fast", out_json_u64(a->fast), err);
	out_json_set(o, "drains", out_json_u64(a->drains), err);
	out_json_set(o, "flagged", out_json_u64(a->flagged), err);
	out_json_set(o, "fallback", out_json_u64(a->fallback), err);
	out_json_set(o, "overruns", out_json_u64(a->overruns), err);
	out_json_set(o, "sum_ns", summary_hex_double(a->sum_ns), err);
	out_json_set(o, "hist", hist_json_put(a->h, err), err);
	return o;
}

/* The windows of @l: the injections seen, and per vCPU seen the policies' windows. */
static json_t *latency_run(const struct vpmc_latency *l, size_t nr_pol, int *err)
{
	json_t *run = json_object(), *units = json_array();
	struct replay_latency_acc a;
	uint32_t v;
	size_t p;

	for (v = 0; units && v < vpmc_latency_nr_vcpus(l); v++) {
		json_t *u, *pols;

		if (!replay_latency_acc(l, v, 0, &a))
			continue;
		u = json_object();
		pols = json_array();
		for (p = 0; pols && p < nr_pol && replay_latency_acc(l, v, p, &a); p++) {
			if (json_array_append_new(pols, acc_state(&a, err)))
				*err = VPMC_ERR_NOMEM;
		}
		out_json_set(u, "vcpu", json_integer(v), err);
		out_json_set(u, "policies", pols, err);
		if (!u || json_array_append_new(units, u))
			*err = VPMC_ERR_NOMEM;
	}
	out_json_set(run, "starts", out_json_u64(vpmc_latency_starts(l)), err);
	out_json_set(run, "units", units, err);
	return run;
}

json_t *summary_latency_state(const struct vpmc_latency *l, const struct vpmc_replay *r,
			      const struct vpmc_latency_labels *lab, int *err)
{
	json_t *st;

	if (replay_summary(r)) /* loaded from summaries: their union */
		return json_incref(replay_summary(r));
	st = summary_replay_state(r, "latency", err);
	if (!st)
		return NULL;
	out_json_set(st, "latency", latency_ident(l, lab, err), err);
	out_json_set(st, "latency_run", latency_run(l, vpmc_replay_nr_policies(r), err), err);
	return st;
}

/* ---- reading ---- */

static int acc_parse(json_t *o, struct replay_latency_acc *a, struct vpmc_hist *h)
{
	int err;

	if (vpmc__json_get_u64(o, "n", &a->n) || vpmc__json_get_u64(o, "fast", &a->fast) ||
	    vpmc__json_get_u64(o, "drains", &a->drains) ||
	    vpmc__json_get_u64(o, "flagged", &a->flagged) ||
	    vpmc__json_get_u64(o, "fallback", &a->fallback) ||
	    vpmc__json_get_u64(o, "overruns", &a->overruns) ||
	    summary_get_dbl(o, "sum_ns", &a->sum_ns) || a->fast > a->n)
		return -1;
	err = hist_json_get(json_object_get(o, "hist"), h);
	if (!err && h->n != a->n)
		err = -1;
	a->h = h;
	return err;
}

int latency_summary_unit(json_t *u, size_t nr_pol, struct vpmc_latency *l)
{
	json_t *v = json_object_get(u, "vcpu"), *pols = json_object_get(u, "policies"), *o;
	struct replay_latency_acc a;
	struct vpmc_hist h;
	size_t p;
	int err = 0;

	if (!json_is_integer(v) || json_integer_value(v) < 0 ||
	    json_integer_value(v) >= VPMC_MAX_VCPUS || !json_is_array(pols) ||
	    json_array_size(pols) != nr_pol)
		return -1;
	json_array_foreach(pols, p, o) {
		hist_init(&h);
		err = acc_parse(o, &a, &h);
		if (!err && l)
			err = replay_latency_load(l, (uint32_t)json_integer_value(v), p, &a);
		hist_release(&h);
		if (err)
			return err;
	}
	return 0;
}

/* @s among @names (@n of them) as its index into *@out. Return: 0, or -1. */
static int name_index(const char *s, const char *const *names, unsigned int n, unsigned int *out)
{
	for (*out = 0; s && *out < n; (*out)++) {
		if (!strcmp(s, names[*out]))
			return 0;
	}
	return -1;
}

int latency_summary_opts(json_t *id, struct vpmc_latency_opts *o)
{
	json_t *vec = json_object_get(id, "vector");
	unsigned int end, gaps;

	vpmc_latency_opts_default(o);
	if (!json_is_integer(vec) || json_integer_value(vec) < 0 ||
	    json_integer_value(vec) > UINT32_MAX ||
	    name_index(json_string_value(json_object_get(id, "end")), end_names, 3, &end) ||
	    name_index(json_string_value(json_object_get(id, "gaps")), gaps_names, 3, &gaps) ||
	    vpmc__json_get_u64(id, "max_window_ns", &o->max_window_ns) ||
	    summary_get_dbl(id, "fast_us", &o->fast_us) ||
	    !json_is_boolean(json_object_get(id, "gaps_trace")))
		return -1;
	o->vector = (uint32_t)json_integer_value(vec);
	o->end = (enum vpmc_latency_end)end;
	o->gaps = (enum vpmc_latency_gaps)gaps;
	return 0;
}
