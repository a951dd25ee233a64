// SPDX-License-Identifier: GPL-2.0-only
/*
 * summary.c - The "merge_state" of compare's and sweep's JSON reports, and the union of several
 * (vpmcsim(1), MERGE). A summary holds what the report is computed from, exactly: every count,
 * every sum (doubles as C99 hexadecimal text, so that no digit is lost), every histogram bucket
 * with its bounds, per policy and vCPU ("units"); and what must be equal for two summaries to
 * add up ("identity": command, policies, overlay, PMU, cost model and tags, assumptions).
 * The union's units are sorted by vCPU and then by their text, and added to the engine in that
 * order: merging in any order or grouping gives the same doubles.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <vpmc/summary.h>

#include "outbuf.h"
#include "replay.h"
#include "stat-local.h"
#include "summary.h"

#define SUMMARY_SCHEMA "vpmcsim-summary/1"

/* The identity keys, in the order a difference is reported: compare's and sweep's, stat's. */
static const char *const ident_keys[] = {
	"command", "policies", "overlay", "pmu", "cost", "cost_tags", "cost_profile",
	"assumptions",
};
static const char *const stat_ident_keys[] = { "command", "event", "key", "vcpus", "time" };
static const char *const nested_ident_keys[] = { "command" }; /* the rest: vpmc_nested_merge() */
static const char *const latency_ident_keys[] = {
	"command", "policies", "overlay", "pmu", "cost", "cost_tags", "cost_profile",
	"assumptions", "latency",
};

/* ---- fields, by table ---- */

struct ufield {
	const char *key;
	size_t off;
};

#define C(f) { #f, offsetof(struct metrics_ctr, f) }
static const struct ufield ctr_u64[] = {
	C(reads), C(reads_err), C(err_abs_max), C(reads_not_modeled), C(ref_overflows), C(matched),
	C(missed), C(dropped_by_guest),
};
static const struct ufield ctr_dbl[] = { C(err_abs_sum), C(err_sum), C(ref_sum) };
#undef C
#define V(f) { #f, offsetof(struct metrics_vcpu, f) }
static const struct ufield vcpu_u64[] = {
	V(status_reads), V(status_differ), V(unpaired_reads), V(pmis), V(pmis_dropped), V(spurious),
	V(pmis_not_modeled), V(exits), V(exits_implicit), V(exits_drained), V(drains),
	V(reprograms), V(resumes), V(creates), V(triggers), V(ref_overflows_no_pmi), V(host_reads),
	V(host_differ),
};
static const struct ufield vcpu_dbl[] = { V(cost_us_total), V(cost_us_max) };
#undef V
#define H(f) { #f, offsetof(struct vpmc_host_read, f) }
static const struct ufield host_u64[] = { H(time_ns), H(value), H(host) };
#undef H
#define I(f) { #f, offsetof(struct ideal_match, f) }
static const struct ufield ideal_u64[] = { I(ideal), I(matched), I(unmatched) };
#undef I
#define F(f) { #f, offsetof(struct replay_facts, f) }
static const struct ufield fact_u64[] = {
	F(events), F(exits_measured), F(exit_ns_sum),
};
#undef F
/* the reader's counts of records and events (not of lines: each part of a split trace has
 * its own header lines) */
#define S(f) { #f, offsetof(struct vpmc_reader_stats, f) }
static const struct ufield stat_u64[] = {
	S(records), S(events), S(skipped_lines), S(unknown_records), S(lost_events),
	S(lost_markers), S(synthesized_entries), S(unread_pages), S(time_backwards),
	S(partial_lines),
};
#undef S

#define AT(p, f, t) ((t *)((char *)(p) + (f)->off))

/* ---- writing ---- */

json_t *summary_hex_double(double v)
{
	char buf[64];

	snprintf(buf, sizeof(buf), "%a", v);
	return json_string(buf);
}

static void put_u64s(json_t *o, const void *p, const struct ufield *f, size_t n, int *err)
{
	size_t i;

	for (i = 0; i < n; i++)
		out_json_set(o, f[i].key, out_json_u64(*AT(p, &f[i], const uint64_t)), err);
}

static void put_dbls(json_t *o, const void *p, const struct ufield *f, size_t n, int *err)
{
	size_t i;

	for (i = 0; i < n; i++)
		out_json_set(o, f[i].key, summary_hex_double(*AT(p, &f[i], const double)), err);
}

static bool ctr_active(const struct metrics_ctr *c)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(ctr_u64); i++) {
		if (*AT(c, &ctr_u64[i], const uint64_t))
			return true;
	}
	for (i = 0; i < ARRAY_SIZE(ctr_dbl); i++) {
		if (*AT(c, &ctr_dbl[i], const double) != 0.0)
			return true;
	}
	return c->late_ev.n || c->late_ns.n;
}

/* One policy's results on one vCPU. */
static json_t *put_lane(const struct metrics_vcpu *m, const struct ideal_match *im, int *err)
{
	json_t *o = json_object(), *ctrs = json_array(), *id = json_object(), *hf;
	int k;

	for (k = 0; ctrs && k < METRICS_NR_SLOTS; k++) {
		const struct metrics_ctr *c = &m->ctr[k];
		json_t *e;

		if (!ctr_active(c))
			continue;
		e = json_object();
		out_json_set(e, "counter", json_integer(metrics_slot_idx(k)), err);
		put_u64s(e, c, ctr_u64, ARRAY_SIZE(ctr_u64), err);
		put_dbls(e, c, ctr_dbl, ARRAY_SIZE(ctr_dbl), err);
		out_json_set(e, "late_ev", hist_json_put(&c->late_ev, err), err);
		out_json_set(e, "late_ns", hist_json_put(&c->late_ns, err), err);
		if (!e || json_array_append_new(ctrs, e))
			*err = VPMC_ERR_NOMEM;
	}
	out_json_set(o, "counters", ctrs, err);
	put_u64s(o, m, vcpu_u64, ARRAY_SIZE(vcpu_u64), err);
	put_dbls(o, m, vcpu_dbl, ARRAY_SIZE(vcpu_dbl), err);
	out_json_set(o, "cost_ns", hist_json_put(&m->cost_ns, err), err);
	hf = m->host_differ ? json_object() : json_null();
	if (m->host_differ) {
		put_u64s(hf, &m->host_first, host_u64, ARRAY_SIZE(host_u64), err);
		out_json_set(hf, "vcpu", json_integer(m->host_first.vcpu), err);
		out_json_set(hf, "rdpmc", json_boolean(m->host_first.rdpmc), err);
		out_json_set(hf, "index", json_integer(m->host_first.index), err);
		out_json_set(hf, "gp", json_boolean(m->host_first.gp), err);
	}
	out_json_set(o, "host_first", hf, err);
	put_u64s(id, im, ideal_u64, ARRAY_SIZE(ideal_u64), err);
	out_json_set(id, "late_ev", hist_json_put(&im->late_ev, err), err);
	out_json_set(id, "late_ns", hist_json_put(&im->late_ns, err), err);
	out_json_set(o, "ideal", id, err);
	return o;
}

/* The cost model, every parameter exactly, and the tags. */
static void put_cost(json_t *st, const struct vpmc_replay *rp, int *err)
{
	const struct vpmc_cost *c = vpmc_replay_cost(rp);
	const struct vpmc_cost_param_info *t = vpmc_cost_params(&(size_t){ 0 });
	json_t *cost = json_object(), *tags = json_object(), *mult = json_array();
	size_t i, n;
	unsigned int j;

	vpmc_cost_params(&n);
	for (i = 0; i < n && i < VPMC_COST_MAX_PARAMS; i++) {
		out_json_set(tags, t[i].name, json_string(vpmc_cost_tag_name(vpmc_replay_cost_tag(rp,
											i))),
			     err);
		if (strcmp(t[i].name, "drain_extra_mult"))
			out_json_set(cost, t[i].name,
				     summary_hex_double(*(const double *)((const char *)c +
									  t[i].off)), err);
	}
	for (j = 0; mult && j < c->mult_n && j < VPMC_COST_MULT_MAX; j++) {
		json_t *e = json_pack("[oo]", summary_hex_double(c->mult_k[j]),
				      summary_hex_double(c->mult_p[j]));

		if (!e || json_array_append_new(mult, e))
			*err = VPMC_ERR_NOMEM;
	}
	out_json_set(cost, "drain_extra_mult", mult, err);
	out_json_set(st, "cost", cost, err);
	out_json_set(st, "cost_tags", tags, err);
	out_json_set(st, "cost_profile", vpmc_replay_cost_label(rp) ?
		     json_string(vpmc_replay_cost_label(rp)) : json_null(), err);
}

static void put_ident(json_t *st, const struct vpmc_replay *rp, const char *command, int *err)
{
	const struct vpmc_pmu_config *cfg = vpmc_replay_config(rp);
	const struct vpmc_replay_assumptions *a = vpmc_replay_assumptions(rp);
	json_t *pols = json_array(), *ov = json_array(), *pmu, *as;
	size_t i;

	for (i = 0; pols && i < vpmc_replay_nr_policies(rp); i++) {
		char name[VPMC_POLICY_NAME_MAX];

		vpmc_policy_format(vpmc_replay_policy(rp, i), name, sizeof(name));
		if (json_array_append_new(pols, json_string(name)))
			*err = VPMC_ERR_NOMEM;
	}
	for (i = 0; ov && i < vpmc_replay_nr_assumed(rp); i++) {
		if (json_array_append_new(ov, json_string(vpmc_replay_assumed(rp, i))))
			*err = VPMC_ERR_NOMEM;
	}
	pmu = json_pack("{sssisisisisisbsisbsb}", "vendor",
			cfg->vendor == VPMC_VENDOR_AMD ? "amd" : "intel", "version",
			(json_int_t)cfg->version, "gp", (json_int_t)cfg->nr_gp, "fixed",
			(json_int_t)cfg->nr_fixed, "gp_width_bits", (json_int_t)cfg->gp_width,
			"fixed_width_bits", (json_int_t)cfg->fixed_width, "fw_writes",
			(int)cfg->fw_writes, "host_kernel", (json_int_t)cfg->host_kernel, "pebs",
			(int)cfg->pebs, "tsx", (int)cfg->tsx);
	as = json_pack("{sosisb}", "instructions_per_s", out_json_u64(a->guest_ips),
		       "branches_per_1000", (json_int_t)a->guest_branch_permille, "synthesized",
		       (int)a->guest_synthesized);
	out_json_set(st, "schema", json_string(SUMMARY_SCHEMA), err);
	out_json_set(st, "command", json_string(command), err);
	out_json_set(st, "policies", pols, err);
	out_json_set(st, "overlay", ov, err);
	out_json_set(st, "pmu", pmu, err);
	put_cost(st, rp, err);
	out_json_set(st, "assumptions", as, err);
}

/* @rp's own merge_state (a replay of a trace). */
static json_t *replay_state(const struct vpmc_replay *rp, const char *command, int *err)
{
	const struct vpmc_replay_assumptions *a = vpmc_replay_assumptions(rp);
	json_t *st = json_object(), *trace = json_object(), *w = json_array(), *lanes = json_array();
	json_t *units = json_array(), *inputs = json_array();
	struct vpmc_reader_stats rs;
	struct replay_facts f;
	const char *source, *s;
	size_t i, n = vpmc_replay_nr_policies(rp);
	uint32_t v, nr_vcpus;
	bool has_stats = vpmc_replay_source(rp, &source, &rs);

	if (!st)
		return NULL;
	put_ident(st, rp, command, err);
	if (!inputs || json_array_append_new(inputs, json_string(source ? source : "")))
		*err = VPMC_ERR_NOMEM;
	out_json_set(st, "inputs", inputs, err);
	replay_get_facts(rp, &f);
	put_u64s(trace, &f, fact_u64, ARRAY_SIZE(fact_u64), err);
	out_json_set(trace, "t_first", f.events ? out_json_u64(f.t_first) : json_null(), err);
	out_json_set(trace, "t_last", f.events ? out_json_u64(f.t_last) : json_null(), err);
	if (has_stats) {
		json_t *o = json_object();

		put_u64s(o, &rs, stat_u64, ARRAY_SIZE(stat_u64), err);
		out_json_set(o, "truncated_tail", json_boolean(rs.truncated_tail), err);
		out_json_set(trace, "reader", o, err);
	} else {
		out_json_set(trace, "reader", json_null(), err);
	}
	out_json_set(trace, "vendor_from", json_string(a->vendor_how), err);
	out_json_set(trace, "host_kernel_from", json_string(a->host_how), err);
	out_json_set(st, "trace", trace, err);
	for (i = 0; w && (s = vpmc_replay_added_warning(rp, i)); i++) {
		if (replay_warning_is_input(rp, i) && json_array_append_new(w, json_string(s)))
			*err = VPMC_ERR_NOMEM;
	}
	out_json_set(st, "input_warnings", w, err);
	for (i = 0; lanes && i < n; i++) {
		uint64_t t = 0, capped = vpmc_replay_handler_capped(rp, i, &t, &v);
		json_t *l = json_object();

		out_json_set(l, "handler_runs", out_json_u64(replay_handler_runs(rp, i)), err);
		out_json_set(l, "handler_capped", out_json_u64(capped), err);
		out_json_set(l, "capped_first_ns", out_json_u64(capped ? t : 0), err);
		out_json_set(l, "capped_first_vcpu", json_integer(capped ? v : 0), err);
		if (!l || json_array_append_new(lanes, l))
			*err = VPMC_ERR_NOMEM;
	}
	out_json_set(st, "lanes", lanes, err);
	vpmc_replay_span(rp, &nr_vcpus, NULL, NULL);
	for (v = 0; units && v < nr_vcpus; v++) {
		json_t *u, *ls;

		if (!vpmc_replay_has_vcpu(rp, v))
			continue;
		u = json_object();
		ls = json_array();
		for (i = 0; ls && i < n; i++) {
			if (json_array_append_new(ls, put_lane(replay_unit_metrics(rp, i, v),
							       replay_unit_ideal(rp, i, v), err)))
				*err = VPMC_ERR_NOMEM;
		}
		out_json_set(u, "vcpu", json_integer(v), err);
		out_json_set(u, "lanes", ls, err);
		if (!u || json_array_append_new(units, u))
			*err = VPMC_ERR_NOMEM;
	}
	out_json_set(st, "units", units, err);
	return st;
}

json_t *summary_replay_state(const struct vpmc_replay *rp, const char *command, int *err)
{
	if (replay_summary(rp)) /* loaded from summaries: their union */
		return json_incref(replay_summary(rp));
	return replay_state(rp, command, err);
}

/* ---- reading ---- */

struct vpmc_summary {
	json_t *first;       /* the first summary's merge_state (its identity) */
	char *first_path;
	json_t *inputs, *warnings, *units;
	struct replay_facts f;
	bool has_events;
	bool has_stats;      /* every summary had the reader's counts */
	struct vpmc_reader_stats rs;
	char *vendor_from, *host_from; /* the least, as text */
	json_t *lanes;       /* the first summary's, then added up */
	struct vpmc_stat *stat; /* stat's summaries: their sum */
	struct vpmc_nested *nested; /* nested's: their union */
	json_t *lat_units, *lat_sorted; /* latency's windows per vCPU, as added and sorted */
	uint64_t lat_starts;
	struct vpmc_cost_profile prof; /* latency's, for its labels */
	size_t nr;
	struct vpmc__errbuf eb;
};

/* A reading error in @path at @where. */
static int bad(struct vpmc_summary *s, const char *path, const char *where, const char *what)
{
	return vpmc__set_error(&s->eb, VPMC_ERR_PARSE, "%s: merge_state%s%s: %s", path,
			       where[0] ? "." : "", where, what);
}

int summary_get_dbl(json_t *o, const char *key, double *v)
{
	const char *s = json_string_value(json_object_get(o, key));
	char *end;

	if (!s || !s[0])
		return -1;
	*v = strtod(s, &end);
	return *end ? -1 : 0;
}

static int get_u64s(json_t *o, void *p, const struct ufield *f, size_t n, const char **key)
{
	size_t i;

	for (i = 0; i < n; i++) {
		*key = f[i].key;
		if (vpmc__json_get_u64(o, f[i].key, AT(p, &f[i], uint64_t)))
			return -1;
	}
	return 0;
}

static int get_dbls(json_t *o, void *p, const struct ufield *f, size_t n, const char **key)
{
	size_t i;

	for (i = 0; i < n; i++) {
		*key = f[i].key;
		if (summary_get_dbl(o, f[i].key, AT(p, &f[i], double)))
			return -1;
	}
	return 0;
}

/* One policy's results on one vCPU into @m and @im (initialized by the caller). @key is set to
 * what was malformed. Return: 0, -1, or VPMC_ERR_NOMEM. */
static int get_lane(json_t *o, struct metrics_vcpu *m, struct ideal_match *im, const char **key)
{
	json_t *ctrs = json_object_get(o, "counters"), *e, *hf, *id = json_object_get(o, "ideal");
	size_t i;
	int err;

	*key = "counters";
	if (!json_is_array(ctrs) || !json_is_object(id))
		return -1;
	json_array_foreach(ctrs, i, e) {
		json_t *c = json_object_get(e, "counter");
		int slot = json_is_integer(c) ? metrics_slot((int)json_integer_value(c)) : -1;
		struct metrics_ctr *mc;

		*key = "counters";
		if (slot < 0 || json_integer_value(c) > INT32_MAX)
			return -1;
		mc = &m->ctr[slot];
		if (mc->reads || mc->late_ev.n || get_u64s(e, mc, ctr_u64, ARRAY_SIZE(ctr_u64), key) ||
		    get_dbls(e, mc, ctr_dbl, ARRAY_SIZE(ctr_dbl), key))
			return -1;
		*key = "late_ev";
		err = hist_json_get(json_object_get(e, "late_ev"), &mc->late_ev);
		if (!err) {
			*key = "late_ns";
			err = hist_json_get(json_object_get(e, "late_ns"), &mc->late_ns);
		}
		if (err)
			return err;
	}
	if (get_u64s(o, m, vcpu_u64, ARRAY_SIZE(vcpu_u64), key) ||
	    get_dbls(o, m, vcpu_dbl, ARRAY_SIZE(vcpu_dbl), key))
		return -1;
	*key = "cost_ns";
	err = hist_json_get(json_object_get(o, "cost_ns"), &m->cost_ns);
	if (err)
		return err;
	*key = "host_first";
	hf = json_object_get(o, "host_first");
	if (m->host_differ) {
		json_t *vc = json_object_get(hf, "vcpu"), *ix = json_object_get(hf, "index");

		if (get_u64s(hf, &m->host_first, host_u64, ARRAY_SIZE(host_u64), key) ||
		    !json_is_integer(vc) || json_integer_value(vc) < 0 ||
		    json_integer_value(vc) > UINT32_MAX || !json_is_integer(ix) ||
		    json_integer_value(ix) < 0 || json_integer_value(ix) > UINT32_MAX ||
		    !json_is_boolean(json_object_get(hf, "rdpmc")) ||
		    !json_is_boolean(json_object_get(hf, "gp")))
			return -1;
		m->host_first.vcpu = (uint32_t)json_integer_value(vc);
		m->host_first.index = (uint32_t)json_integer_value(ix);
		m->host_first.rdpmc = json_is_true(json_object_get(hf, "rdpmc"));
		m->host_first.gp = json_is_true(json_object_get(hf, "gp"));
	} else if (!json_is_null(hf)) {
		return -1;
	}
	if (get_u64s(id, im, ideal_u64, ARRAY_SIZE(ideal_u64), key))
		return -1;
	*key = "ideal.late_ev";
	err = hist_json_get(json_object_get(id, "late_ev"), &im->late_ev);
	if (!err) {
		*key = "ideal.late_ns";
		err = hist_json_get(json_object_get(id, "late_ns"), &im->late_ns);
	}
	return err;
}

/* Check unit @u of a summary with @nr_lanes policies; with @r, add it to @r. */
static int unit_load(struct vpmc_summary *s, const char *path, json_t *u, size_t nr_lanes,
		     struct vpmc_replay *r)
{
	json_t *v = json_object_get(u, "vcpu"), *ls = json_object_get(u, "lanes"), *l;
	struct metrics_vcpu m;
	struct ideal_match im;
	const char *key = "";
	char where[64];
	size_t i;
	int err = 0;

	if (!json_is_integer(v) || json_integer_value(v) < 0 ||
	    json_integer_value(v) >= VPMC_MAX_VCPUS)
		return bad(s, path, "units", "a unit without a valid \"vcpu\"");
	if (!json_is_array(ls) || json_array_size(ls) != nr_lanes)
		return bad(s, path, "units", "a unit without one entry in \"lanes\" per policy");
	json_array_foreach(ls, i, l) {
		metrics_vcpu_init(&m, NULL, NULL);
		ideal_init(&im);
		err = json_is_object(l) ? get_lane(l, &m, &im, &key) : -1;
		if (!err && r)
			err = replay_load_unit(r, i, (uint32_t)json_integer_value(v), &m, &im);
		metrics_vcpu_release(&m);
		ideal_release(&im);
		if (err > 0 || err == VPMC_ERR_NOMEM)
			return vpmc__set_error(&s->eb, VPMC_ERR_NOMEM, "%s", vpmc_strerror(err));
		if (err) {
			snprintf(where, sizeof(where), "units[vcpu %" PRIu64 "].lanes[%zu]",
				 (uint64_t)json_integer_value(v), i);
			return vpmc__set_error(&s->eb, VPMC_ERR_PARSE, "%s: merge_state.%s: \"%s\" "
					       "missing or malformed", path, where, key);
		}
	}
	return 0;
}

int vpmc_summary_new(struct vpmc_summary **out)
{
	struct vpmc_summary *s = calloc(1, sizeof(*s));

	if (!s)
		return VPMC_ERR_NOMEM;
	s->inputs = json_array();
	s->warnings = json_array();
	s->units = json_array();
	s->lat_units = json_array();
	s->has_stats = true;
	if (!s->inputs || !s->warnings || !s->units || !s->lat_units) {
		vpmc_summary_free(s);
		return VPMC_ERR_NOMEM;
	}
	*out = s;
	return 0;
}

/* The first key whose values differ in objects *@a and *@b (set to those values), or NULL. */
static const char *differing_key(json_t **a, json_t **b)
{
	const char *key;
	json_t *v, *w;

	json_object_foreach(*a, key, v) {
		w = json_object_get(*b, key);
		if (!w || !json_equal(v, w)) {
			*a = v;
			*b = w;
			return key;
		}
	}
	json_object_foreach(*b, key, w) {
		if (!json_object_get(*a, key)) {
			*a = NULL;
			*b = w;
			return key;
		}
	}
	return NULL;
}

/* @v, the value of @key (NULL: a whole identity key), as a message shows it: an exact double
 * (a "%a" string) also in decimal, a host kernel as MAJOR.MINOR. Return: text to free, or NULL
 * for no value. */
static char *ident_text(const char *key, const json_t *v)
{
	const char *t = json_string_value(v);
	char *end, *out, kernel[48];
	double d;

	if (!v)
		return NULL;
	if (key && !strcmp(key, "host_kernel") && json_is_integer(v) &&
	    json_integer_value(v) >= 0 && json_integer_value(v) <= UINT_MAX)
		return strdup(vpmc__kernel_name((unsigned int)json_integer_value(v), kernel,
						sizeof(kernel)));
	if (t && strchr(t, 'p') && (d = strtod(t, &end), !*end && end != t)) {
		size_t len = strlen(t) + 40;

		out = malloc(len);
		if (out)
			snprintf(out, len, "%.10g (%s)", d, t);
		return out;
	}
	return json_dumps(v, JSON_COMPACT | JSON_SORT_KEYS | JSON_ENCODE_ANY);
}

/* The identity of @st against the first summary's: 0, or VPMC_ERR_INVAL naming the difference. */
static int ident_check(struct vpmc_summary *s, const char *path, json_t *st)
{
	bool stat = !strcmp(vpmc_summary_command(s), "stat");
	bool lat = !strcmp(vpmc_summary_command(s), "latency");
	bool nested = !strcmp(vpmc_summary_command(s), "nested");
	const char *const *keys = stat ? stat_ident_keys : lat ? latency_ident_keys :
				  nested ? nested_ident_keys : ident_keys;
	size_t i, n = stat ? ARRAY_SIZE(stat_ident_keys) :
		      lat ? ARRAY_SIZE(latency_ident_keys) :
		      nested ? ARRAY_SIZE(nested_ident_keys) : ARRAY_SIZE(ident_keys);

	for (i = 0; i < n; i++) {
		json_t *a = json_object_get(s->first, keys[i]);
		json_t *b = json_object_get(st, keys[i]);
		const char *sub = NULL;
		char *ta, *tb;

		if (json_equal(a, b) || (!a && !b))
			continue;
		/* name the option or parameter, not the whole object (one level: cost.NAME) */
		if (json_is_object(a) && json_is_object(b))
			sub = differing_key(&a, &b);
		ta = ident_text(sub, a);
		tb = ident_text(sub, b);
		vpmc__set_error(&s->eb, VPMC_ERR_INVAL, "%s and %s were made with different "
				"%s%s%s: %.300s against %.300s; they do not merge", s->first_path,
				path, keys[i], sub ? "." : "", sub ? sub : "", ta ? ta : "(none)",
				tb ? tb : "(none)");
		free(ta);
		free(tb);
		return VPMC_ERR_INVAL;
	}
	return 0;
}

/* The least of *@keep and @s (as text), kept in *@keep. */
static int least(char **keep, const char *s)
{
	char *c;

	if (*keep && strcmp(s, *keep) >= 0)
		return 0;
	c = strdup(s);
	if (!c)
		return VPMC_ERR_NOMEM;
	free(*keep);
	*keep = c;
	return 0;
}

/* The run-wide parts of @st added to @s's. */
static int facts_add(struct vpmc_summary *s, const char *path, json_t *st)
{
	json_t *t = json_object_get(st, "trace"), *rd = json_object_get(t, "reader");
	json_t *vf = json_object_get(t, "vendor_from"), *hf = json_object_get(t, "host_kernel_from");
	struct replay_facts f;
	struct vpmc_reader_stats rs;
	const char *key = "";
	uint64_t first = 0, last = 0;
	size_t i;

	memset(&rs, 0, sizeof(rs));
	if (!json_is_object(t) || get_u64s(t, &f, fact_u64, ARRAY_SIZE(fact_u64), &key) ||
	    (f.events && (vpmc__json_get_u64(t, "t_first", &first) ||
			  vpmc__json_get_u64(t, "t_last", &last))) ||
	    !json_is_string(vf) || !json_is_string(hf))
		return bad(s, path, "trace", "missing or malformed");
	if (!json_is_null(rd) && (get_u64s(rd, &rs, stat_u64, ARRAY_SIZE(stat_u64), &key) ||
				  !json_is_boolean(json_object_get(rd, "truncated_tail"))))
		return bad(s, path, "trace.reader", "missing or malformed");
	s->f.events += f.events;
	s->f.exits_measured += f.exits_measured;
	s->f.exit_ns_sum += f.exit_ns_sum;
	if (f.events) {
		if (!s->has_events || first < s->f.t_first)
			s->f.t_first = first;
		if (!s->has_events || last > s->f.t_last)
			s->f.t_last = last;
		s->has_events = true;
	}
	if (json_is_null(rd))
		s->has_stats = false;
	for (i = 0; i < ARRAY_SIZE(stat_u64); i++)
		*AT(&s->rs, &stat_u64[i], uint64_t) += *AT(&rs, &stat_u64[i], uint64_t);
	s->rs.truncated_tail |= json_is_true(json_object_get(rd, "truncated_tail"));
	if (least(&s->vendor_from, json_string_value(vf)) ||
	    least(&s->host_from, json_string_value(hf)))
		return vpmc__set_error(&s->eb, VPMC_ERR_NOMEM, "out of memory");
	return 0;
}

/* The lanes' handler counts of @st added to @s's. */
static int lanes_add(struct vpmc_summary *s, const char *path, json_t *st, size_t nr_lanes)
{
	json_t *ls = json_object_get(st, "lanes"), *l;
	size_t i;

	if (!json_is_array(ls) || json_array_size(ls) != nr_lanes)
		return bad(s, path, "lanes", "not one entry per policy");
	json_array_foreach(ls, i, l) {
		json_t *mine = json_array_get(s->lanes, i);
		json_t *v = json_object_get(l, "capped_first_vcpu");
		uint64_t runs, capped, t, mruns, mcapped, mt, mv;

		if (vpmc__json_get_u64(l, "handler_runs", &runs) ||
		    vpmc__json_get_u64(l, "handler_capped", &capped) ||
		    vpmc__json_get_u64(l, "capped_first_ns", &t) || !json_is_integer(v) ||
		    json_integer_value(v) < 0 || json_integer_value(v) > UINT32_MAX)
			return bad(s, path, "lanes", "missing or malformed counts");
		if (!mine)
			continue; /* the first summary's are s->lanes */
		vpmc__json_get_u64(mine, "handler_runs", &mruns);
		vpmc__json_get_u64(mine, "handler_capped", &mcapped);
		vpmc__json_get_u64(mine, "capped_first_ns", &mt);
		mv = (uint64_t)json_integer_value(json_object_get(mine, "capped_first_vcpu"));
		/* the first cut-off: the earliest, then the lowest vCPU */
		if (capped && (!mcapped || t < mt || (t == mt && (uint64_t)json_integer_value(v) <
							      mv))) {
			mt = t;
			mv = (uint64_t)json_integer_value(v);
		}
		if (json_object_set_new(mine, "handler_runs", out_json_u64(mruns + runs)) ||
		    json_object_set_new(mine, "handler_capped", out_json_u64(mcapped + capped)) ||
		    json_object_set_new(mine, "capped_first_ns", out_json_u64(mt)) ||
		    json_object_set_new(mine, "capped_first_vcpu", json_integer((json_int_t)mv)))
			return vpmc__set_error(&s->eb, VPMC_ERR_NOMEM, "out of memory");
	}
	return 0;
}

/* Append the strings of array @key of @st to @dst. */
static int strings_add(struct vpmc_summary *s, const char *path, json_t *st, const char *key,
		       json_t *dst)
{
	json_t *a = json_object_get(st, key), *e;
	size_t i;

	if (!json_is_array(a))
		return bad(s, path, key, "not an array");
	json_array_foreach(a, i, e) {
		if (!json_is_string(e))
			return bad(s, path, key, "not an array of strings");
		if (json_array_append(dst, e))
			return vpmc__set_error(&s->eb, VPMC_ERR_NOMEM, "out of memory");
	}
	return 0;
}

/* Keep @st as the first summary, read from @path. Return: 0, or VPMC_ERR_NOMEM. */
static int keep_first(struct vpmc_summary *s, const char *path, json_t *st)
{
	s->first = json_incref(st);
	s->first_path = strdup(path);
	if (!s->first_path)
		return vpmc__set_error(&s->eb, VPMC_ERR_NOMEM, "out of memory");
	return 0;
}

/* A summary of stat: its counts added to s->stat. */
static int stat_add(struct vpmc_summary *s, const char *path, json_t *st)
{
	int err;

	if (!s->stat) {
		if (vpmc_stat_new(&s->stat))
			return vpmc__set_error(&s->eb, VPMC_ERR_NOMEM, "out of memory");
		if (stat_summary_setup(s->stat, st))
			return bad(s, path, "", "\"event\", \"key\", \"vcpus\" or \"time\" "
				   "missing or malformed");
	}
	err = stat_summary_add(s->stat, st, path, &s->eb);
	if (!err && !s->first)
		err = keep_first(s, path, st);
	if (!err)
		s->nr++;
	return err;
}

/* A summary of latency: its options checked, its windows kept, its injections added. */
static int latency_add(struct vpmc_summary *s, const char *path, json_t *st, size_t nr_pol)
{
	json_t *run = json_object_get(st, "latency_run"), *units = json_object_get(run, "units");
	struct vpmc_latency_opts o;
	uint64_t starts;
	json_t *u;
	size_t i;
	int err;

	if (latency_summary_opts(json_object_get(st, "latency"), &o))
		return bad(s, path, "latency", "missing or malformed");
	if (vpmc__json_get_u64(run, "starts", &starts) || !json_is_array(units))
		return bad(s, path, "latency_run", "missing or malformed");
	json_array_foreach(units, i, u) {
		err = latency_summary_unit(u, nr_pol, NULL);
		if (err == VPMC_ERR_NOMEM)
			return vpmc__set_error(&s->eb, err, "out of memory");
		if (err)
			return bad(s, path, "latency_run.units", "missing or malformed");
	}
	if (json_array_extend(s->lat_units, units))
		return vpmc__set_error(&s->eb, VPMC_ERR_NOMEM, "out of memory");
	s->lat_starts += starts;
	return 0;
}

/* A summary of nested: added to s->nested, which checks its model. */
static int nested_add(struct vpmc_summary *s, const char *path, json_t *st)
{
	char *text;
	int err;

	if (!s->nested && vpmc_nested_new(&s->nested, NULL))
		return vpmc__set_error(&s->eb, VPMC_ERR_NOMEM, "out of memory");
	text = json_dumps(st, JSON_COMPACT);
	if (!text)
		return vpmc__set_error(&s->eb, VPMC_ERR_NOMEM, "out of memory");
	err = vpmc_nested_merge(s->nested, text, path);
	free(text);
	if (err)
		return vpmc__set_error(&s->eb, err, "%s", vpmc_nested_error(s->nested));
	if (!s->first)
		err = keep_first(s, path, st);
	if (!err)
		s->nr++;
	return err;
}

/* The state of @st checked and added; Return: as vpmc_summary_add_file(). */
static int summary_add(struct vpmc_summary *s, const char *path, json_t *st)
{
	json_t *sc = json_object_get(st, "schema"), *cmd = json_object_get(st, "command");
	json_t *units = json_object_get(st, "units"), *pols = json_object_get(st, "policies"), *u;
	size_t i, nr_lanes;
	int err;

	if (!json_is_string(sc) || strcmp(json_string_value(sc), SUMMARY_SCHEMA))
		return bad(s, path, "schema", "not \"" SUMMARY_SCHEMA "\" (made by another "
			   "vpmcsim?)");
	if (!json_is_string(cmd) || (strcmp(json_string_value(cmd), "compare") &&
				     strcmp(json_string_value(cmd), "sweep") &&
				     strcmp(json_string_value(cmd), "latency") &&
				     strcmp(json_string_value(cmd), "nested") &&
				     strcmp(json_string_value(cmd), "stat")))
		return bad(s, path, "command", "not compare, sweep, latency, nested or stat");
	if (s->first) {
		err = ident_check(s, path, st);
		if (err)
			return err;
	}
	if (!strcmp(json_string_value(cmd), "stat"))
		return stat_add(s, path, st);
	if (!strcmp(json_string_value(cmd), "nested"))
		return nested_add(s, path, st);
	if (!json_is_array(pols) || !json_array_size(pols) ||
	    json_array_size(pols) > VPMC_REPLAY_MAX_POLICIES || !json_is_array(units))
		return bad(s, path, "", "no \"policies\" or no \"units\"");
	nr_lanes = json_array_size(pols);
	json_array_foreach(units, i, u) {
		err = unit_load(s, path, u, nr_lanes, NULL);
		if (err)
			return err;
	}
	err = facts_add(s, path, st);
	if (!err && !strcmp(json_string_value(cmd), "latency"))
		err = latency_add(s, path, st, nr_lanes);
	if (!err)
		err = lanes_add(s, path, st, nr_lanes);
	if (!err)
		err = strings_add(s, path, st, "inputs", s->inputs);
	if (!err)
		err = strings_add(s, path, st, "input_warnings", s->warnings);
	if (!err && json_array_extend(s->units, units))
		err = vpmc__set_error(&s->eb, VPMC_ERR_NOMEM, "out of memory");
	if (err)
		return err;
	if (!s->first) {
		s->lanes = json_deep_copy(json_object_get(st, "lanes"));
		err = s->lanes ? keep_first(s, path, st) :
		      vpmc__set_error(&s->eb, VPMC_ERR_NOMEM, "out of memory");
		if (err)
			return err;
	}
	s->nr++;
	return 0;
}

int vpmc_summary_add_file(struct vpmc_summary *s, const char *path)
{
	json_error_t je;
	json_t *root, *st;
	int err;

	vpmc__clear_error(&s->eb);
	root = json_load_file(path, JSON_REJECT_DUPLICATES, &je);
	if (!root) {
		if (je.line < 0)
			return vpmc__set_error(&s->eb, VPMC_ERR_IO, "%s: %s", path, je.text);
		return vpmc__set_error(&s->eb, VPMC_ERR_PARSE, "%s:%d:%d: %s", path, je.line,
				       je.column, je.text);
	}
	st = json_object_get(root, "merge_state");
	if (!json_is_object(st))
		err = vpmc__set_error(&s->eb, VPMC_ERR_PARSE, "%s: no \"merge_state\" object: not "
				      "a JSON report of compare, sweep, latency, nested or stat "
				      "(--format json)",
				      path);
	else
		err = summary_add(s, path, st);
	json_decref(root);
	return err;
}

const char *vpmc_summary_command(const struct vpmc_summary *s)
{
	return s->first ? json_string_value(json_object_get(s->first, "command")) : NULL;
}

const char *vpmc_summary_error(const struct vpmc_summary *s)
{
	return s->eb.msg;
}

void vpmc_summary_free(struct vpmc_summary *s)
{
	if (!s)
		return;
	json_decref(s->first);
	json_decref(s->inputs);
	json_decref(s->warnings);
	json_decref(s->units);
	json_decref(s->lanes);
	json_decref(s->lat_units);
	json_decref(s->lat_sorted);
	vpmc_stat_free(s->stat);
	vpmc_nested_free(s->nested);
	free(s->first_path);
	free(s->vendor_from);
	free(s->host_from);
	free(s);
}

/* ---- the union ---- */

static int cmp_str(const void *a, const void *b)
{
	return strcmp(json_string_value(*(json_t *const *)a), json_string_value(*(json_t *const *)b));
}

/* A unit and its text, for sorting. */
struct sunit {
	json_int_t vcpu;
	char *text;
	json_t *u;
};

static int cmp_unit(const void *a, const void *b)
{
	const struct sunit *x = a, *y = b;

	if (x->vcpu != y->vcpu)
		return x->vcpu < y->vcpu ? -1 : 1;
	return strcmp(x->text, y->text);
}

/* The strings of @a sorted, as a new array (NULL: out of memory). */
static json_t *sorted_strings(json_t *a)
{
	size_t i, n = json_array_size(a);
	json_t **v = calloc(n ? n : 1, sizeof(*v)), *out = json_array();

	if (!v || !out) {
		free(v);
		json_decref(out);
		return NULL;
	}
	for (i = 0; i < n; i++)
		v[i] = json_array_get(a, i);
	qsort(v, n, sizeof(*v), cmp_str);
	for (i = 0; out && i < n; i++) {
		if (json_array_append(out, v[i])) {
			json_decref(out);
			out = NULL;
		}
	}
	free(v);
	return out;
}

/* The units sorted by vCPU, then by text: the order they are added in. NULL: out of memory. */
static json_t *sorted_units(json_t *a)
{
	size_t i, n = json_array_size(a);
	struct sunit *v = calloc(n ? n : 1, sizeof(*v));
	json_t *out = json_array();
	bool ok = v && out;

	for (i = 0; ok && i < n; i++) {
		v[i].u = json_array_get(a, i);
		v[i].vcpu = json_integer_value(json_object_get(v[i].u, "vcpu"));
		v[i].text = json_dumps(v[i].u, JSON_COMPACT | JSON_SORT_KEYS);
		ok = v[i].text != NULL;
	}
	if (ok)
		qsort(v, n, sizeof(*v), cmp_unit);
	for (i = 0; ok && i < n; i++)
		ok = !json_array_append(out, v[i].u);
	for (i = 0; v && i < n; i++)
		free(v[i].text);
	free(v);
	if (!ok) {
		json_decref(out);
		return NULL;
	}
	return out;
}

/* The union's merge_state: the first's identity, the inputs, facts, warnings, lanes and units. */
static json_t *union_state(struct vpmc_summary *s, json_t *inputs, json_t *warnings, json_t *units)
{
	json_t *st = json_object(), *t = json_object();
	int err = 0;
	size_t i;

	out_json_set(st, "schema", json_string(SUMMARY_SCHEMA), &err);
	for (i = 0; st && i < ARRAY_SIZE(ident_keys); i++)
		out_json_set(st, ident_keys[i], json_incref(json_object_get(s->first,
									  ident_keys[i])), &err);
	out_json_set(st, "inputs", json_incref(inputs), &err);
	put_u64s(t, &s->f, fact_u64, ARRAY_SIZE(fact_u64), &err);
	out_json_set(t, "t_first", s->f.events ? out_json_u64(s->f.t_first) : json_null(), &err);
	out_json_set(t, "t_last", s->f.events ? out_json_u64(s->f.t_last) : json_null(), &err);
	if (s->has_stats) {
		json_t *o = json_object();

		put_u64s(o, &s->rs, stat_u64, ARRAY_SIZE(stat_u64), &err);
		out_json_set(o, "truncated_tail", json_boolean(s->rs.truncated_tail), &err);
		out_json_set(t, "reader", o, &err);
	} else {
		out_json_set(t, "reader", json_null(), &err);
	}
	out_json_set(t, "vendor_from", json_string(s->vendor_from), &err);
	out_json_set(t, "host_kernel_from", json_string(s->host_from), &err);
	out_json_set(st, "trace", t, &err);
	out_json_set(st, "input_warnings", json_incref(warnings), &err);
	out_json_set(st, "lanes", json_incref(s->lanes), &err);
	out_json_set(st, "units", json_incref(units), &err);
	if (s->lat_sorted) {
		json_t *run = json_object();

		out_json_set(st, "latency", json_incref(json_object_get(s->first, "latency")),
			     &err);
		out_json_set(run, "starts", out_json_u64(s->lat_starts), &err);
		out_json_set(run, "units", json_incref(s->lat_sorted), &err);
		out_json_set(st, "latency_run", run, &err);
	}
	if (err) {
		json_decref(st);
		return NULL;
	}
	return st;
}

static void free_state(void *p)
{
	json_decref(p);
}

/* The PMU of merge_state @pmu into @cfg. Return: 0, or -1. */
static int pmu_parse(json_t *pmu, struct vpmc_pmu_config *cfg)
{
	int v[9], b[3];
	const char *vendor;

	if (json_unpack(pmu, "{s:s, s:i, s:i, s:i, s:i, s:i, s:b, s:i, s:b, s:b}", "vendor",
			&vendor, "version", &v[0], "gp", &v[1], "fixed", &v[2], "gp_width_bits",
			&v[3], "fixed_width_bits", &v[4], "fw_writes", &b[0], "host_kernel", &v[5],
			"pebs", &b[1], "tsx", &b[2]) ||
	    v[0] < 0 || v[1] < 0 || v[2] < 0 || v[3] < 0 || v[4] < 0 || v[5] < 0)
		return -1;
	cfg->vendor = strcmp(vendor, "amd") ? VPMC_VENDOR_INTEL : VPMC_VENDOR_AMD;
	cfg->version = (unsigned int)v[0];
	cfg->nr_gp = (unsigned int)v[1];
	cfg->nr_fixed = (unsigned int)v[2];
	cfg->gp_width = (unsigned int)v[3];
	cfg->fixed_width = (unsigned int)v[4];
	cfg->host_kernel = (unsigned int)v[5];
	cfg->fw_writes = b[0];
	cfg->pebs = b[1];
	cfg->tsx = b[2];
	return 0;
}

/* The engine's setup from the identity: policies, overlay, cost model, assumptions, PMU. */
static int replay_setup(struct vpmc_summary *s, struct vpmc_replay *r)
{
	json_t *pols = json_object_get(s->first, "policies");
	json_t *ov = json_object_get(s->first, "overlay");
	json_t *cost = json_object_get(s->first, "cost");
	json_t *tags = json_object_get(s->first, "cost_tags");
	json_t *pmu = json_object_get(s->first, "pmu");
	json_t *as = json_object_get(s->first, "assumptions");
	json_t *label = json_object_get(s->first, "cost_profile"), *e, *mult;
	struct vpmc_cost_profile *prof = calloc(1, sizeof(*prof));
	struct vpmc_replay_assumptions a;
	const struct vpmc_cost_param_info *t;
	struct vpmc_pmu_config cfg;
	struct vpmc_policy p;
	const char *why;
	size_t i, n;
	int err = 0;

	if (!prof)
		return VPMC_ERR_NOMEM;
	json_array_foreach(pols, i, e) {
		if (!json_is_string(e) || vpmc_policy_parse(&p, json_string_value(e), &why) ||
		    vpmc_replay_add_policy(r, &p))
			err = bad(s, s->first_path, "policies", "not policies this vpmcsim has");
	}
	json_array_foreach(ov, i, e) {
		if (!err && (!json_is_string(e) || vpmc_replay_assume(r, json_string_value(e))))
			err = bad(s, s->first_path, "overlay", vpmc_replay_error(r));
	}
	t = vpmc_cost_params(&n);
	vpmc_cost_default(&prof->cost);
	for (i = 0; !err && i < n && i < VPMC_COST_MAX_PARAMS; i++) {
		const char *tag = json_string_value(json_object_get(tags, t[i].name));
		enum vpmc_cost_tag k;

		for (k = VPMC_COST_TAG_NONE; tag && k <= VPMC_COST_TAG_OVERRIDE; k++) {
			if (!strcmp(tag, vpmc_cost_tag_name(k)))
				break;
		}
		if (!tag || k > VPMC_COST_TAG_OVERRIDE)
			err = bad(s, s->first_path, "cost_tags", t[i].name);
		prof->tag[i] = k;
		if (!err && strcmp(t[i].name, "drain_extra_mult") &&
		    summary_get_dbl(cost, t[i].name, (double *)((char *)&prof->cost + t[i].off)))
			err = bad(s, s->first_path, "cost", t[i].name);
	}
	mult = json_object_get(cost, "drain_extra_mult");
	if (!err && (!json_is_array(mult) || json_array_size(mult) > VPMC_COST_MULT_MAX))
		err = bad(s, s->first_path, "cost", "drain_extra_mult");
	prof->cost.mult_n = 0;
	json_array_foreach(mult, i, e) {
		json_t *o;

		if (err)
			break;
		o = json_pack("{sOsO}", "k", json_array_get(e, 0), "p", json_array_get(e, 1));
		if (!o || summary_get_dbl(o, "k", &prof->cost.mult_k[i]) ||
		    summary_get_dbl(o, "p", &prof->cost.mult_p[i]))
			err = bad(s, s->first_path, "cost", "drain_extra_mult");
		prof->cost.mult_n++;
		json_decref(o);
	}
	if (!err) {
		vpmc_replay_set_cost_profile(r, prof);
		if (json_is_string(label))
			vpmc_replay_set_cost_label(r, json_string_value(label));
	}
	free(prof);
	memset(&a, 0, sizeof(a));
	memset(&cfg, 0, sizeof(cfg));
	if (!err && (vpmc__json_get_u64(as, "instructions_per_s", &a.guest_ips) ||
		     !json_is_integer(json_object_get(as, "branches_per_1000")) ||
		     pmu_parse(pmu, &cfg)))
		err = bad(s, s->first_path, "pmu", "missing or malformed");
	if (err)
		return err;
	a.guest_branch_permille =
		(unsigned int)json_integer_value(json_object_get(as, "branches_per_1000"));
	a.guest_synthesized = json_is_true(json_object_get(as, "synthesized"));
	snprintf(a.vendor_how, sizeof(a.vendor_how), "%s", s->vendor_from);
	snprintf(a.host_how, sizeof(a.host_how), "%s", s->host_from);
	vpmc_replay_set_assumptions(r, &a);
	if (vpmc_replay_begin(r, &cfg))
		return bad(s, s->first_path, "pmu", vpmc_replay_error(r));
	return 0;
}

/* The source the report names: the one trace, or how many were merged. */
static void union_source(struct vpmc_summary *s, struct vpmc_replay *r, json_t *inputs)
{
	char label[64];

	if (json_array_size(inputs) == 1) {
		vpmc_replay_set_source(r, json_string_value(json_array_get(inputs, 0)),
				       s->has_stats ? &s->rs : NULL);
		return;
	}
	snprintf(label, sizeof(label), "%zu traces (merged)", json_array_size(inputs));
	vpmc_replay_set_source(r, label, s->has_stats ? &s->rs : NULL);
}

int vpmc_summary_stat(struct vpmc_summary *s, struct vpmc_stat **out)
{
	if (!s->stat)
		return vpmc__set_error(&s->eb, VPMC_ERR_INVAL, "no summary of stat to merge");
	*out = s->stat;
	s->stat = NULL;
	return 0;
}

int vpmc_summary_nested(struct vpmc_summary *s, struct vpmc_nested **out)
{
	if (!s->nested)
		return vpmc__set_error(&s->eb, VPMC_ERR_INVAL, "no summary of nested to merge");
	*out = s->nested;
	s->nested = NULL;
	return 0;
}

int vpmc_summary_replay(struct vpmc_summary *s, struct vpmc_replay **out)
{
	json_t *inputs = NULL, *warnings = NULL, *units = NULL, *u, *st;
	struct vpmc_replay *r = NULL;
	size_t i;
	int err;

	vpmc__clear_error(&s->eb);
	if (!s->first || !strcmp(vpmc_summary_command(s), "stat") ||
	    !strcmp(vpmc_summary_command(s), "nested"))
		return vpmc__set_error(&s->eb, VPMC_ERR_INVAL, "no summary of compare, sweep or "
				       "latency");
	if (!strcmp(vpmc_summary_command(s), "latency") && !s->lat_sorted) {
		s->lat_sorted = sorted_units(s->lat_units);
		if (!s->lat_sorted)
			return vpmc__set_error(&s->eb, VPMC_ERR_NOMEM, "out of memory");
	}
	inputs = sorted_strings(s->inputs);
	warnings = sorted_strings(s->warnings);
	units = sorted_units(s->units);
	err = !inputs || !warnings || !units || vpmc_replay_new(&r) ? VPMC_ERR_NOMEM : 0;
	if (!err)
		err = replay_setup(s, r);
	union_source(s, r, inputs);
	json_array_foreach(units, i, u) {
		if (!err)
			err = unit_load(s, s->first_path, u, vpmc_replay_nr_policies(r), r);
	}
	json_array_foreach(s->lanes, i, u) {
		uint64_t runs = 0, capped = 0, t = 0;

		vpmc__json_get_u64(u, "handler_runs", &runs);
		vpmc__json_get_u64(u, "handler_capped", &capped);
		vpmc__json_get_u64(u, "capped_first_ns", &t);
		if (!err)
			err = replay_load_lane(r, i, runs, capped, t, (uint32_t)json_integer_value(
						       json_object_get(u, "capped_first_vcpu")));
	}
	json_array_foreach(warnings, i, u) {
		if (!err)
			err = vpmc_replay_add_input_warning(r, json_string_value(u));
	}
	if (!err)
		err = replay_load_facts(r, &s->f);
	st = err ? NULL : union_state(s, inputs, warnings, units);
	if (!err && !st)
		err = VPMC_ERR_NOMEM;
	if (!err)
		replay_set_summary(r, st, free_state);
	json_decref(inputs);
	json_decref(warnings);
	json_decref(units);
	if (err) {
		vpmc_replay_free(r);
		if (!s->eb.msg[0])
			vpmc__set_error(&s->eb, err, "%s", vpmc_strerror(err));
		return err;
	}
	*out = r;
	return 0;
}

/* The labels' strings of identity @id ("latency"), owned by @id. */
static void latency_labels(json_t *id, struct vpmc_latency_labels *lab)
{
	json_t *p = json_object_get(id, "profile");

	lab->gen = json_string_value(json_object_get(id, "gen"));
	lab->profile = json_string_value(json_object_get(p, "name"));
	lab->fitted = json_string_value(json_object_get(p, "fitted"));
	lab->targets = json_string_value(json_object_get(p, "targets"));
	lab->baseline = (size_t)json_integer_value(json_object_get(id, "baseline"));
	lab->per_vcpu = json_is_true(json_object_get(id, "per_vcpu"));
	lab->marks = json_is_true(json_object_get(id, "marks"));
	lab->other_trace = json_is_true(json_object_get(id, "other_trace"));
}

/* The cost profile of the labels: @r's cost model and tags, the identity's name, metadata lines
 * and sources (strings owned by @p). */
static void latency_profile(struct vpmc_cost_profile *prof, const struct vpmc_replay *r, json_t *p)
{
	json_t *src = json_object_get(p, "sources");
	const struct vpmc_cost_param_info *t = vpmc_cost_params(&(size_t){ 0 });
	size_t i, n;

	memset(prof, 0, sizeof(*prof));
	snprintf(prof->name, sizeof(prof->name), "%s", json_string_value(json_object_get(p,
										    "name")));
	prof->cost = *vpmc_replay_cost(r);
	vpmc_cost_params(&n);
	for (i = 0; i < n && i < VPMC_COST_MAX_PARAMS; i++) {
		prof->tag[i] = vpmc_replay_cost_tag(r, i);
		prof->source[i] = (char *)json_string_value(json_object_get(src, t[i].name));
	}
	prof->fitted = (char *)json_string_value(json_object_get(p, "fitted"));
	prof->targets = (char *)json_string_value(json_object_get(p, "targets"));
	prof->measured = (char *)json_string_value(json_object_get(p, "measured"));
	prof->fitted_on = (char *)json_string_value(json_object_get(p, "fitted_on"));
	prof->fitted_touched = json_is_true(json_object_get(p, "fitted_touched"));
}

int vpmc_summary_latency(struct vpmc_summary *s, struct vpmc_replay *r, struct vpmc_latency **out,
			 struct vpmc_latency_labels *lab)
{
	json_t *id = json_object_get(s->first, "latency"), *u;
	struct vpmc_latency_opts o;
	struct vpmc_latency *l;
	size_t i, nr_pol = vpmc_replay_nr_policies(r);
	int err = 0;

	vpmc__clear_error(&s->eb);
	if (!s->lat_sorted || latency_summary_opts(id, &o))
		return vpmc__set_error(&s->eb, VPMC_ERR_INVAL, "no summary of latency");
	if (json_integer_value(json_object_get(id, "baseline")) < 0 ||
	    (size_t)json_integer_value(json_object_get(id, "baseline")) >= nr_pol ||
	    !json_is_string(json_object_get(json_object_get(id, "profile"), "name")))
		return bad(s, s->first_path, "latency", "baseline or profile malformed");
	if (vpmc_latency_new(&l, r, &o))
		return vpmc__set_error(&s->eb, VPMC_ERR_NOMEM, "out of memory");
	json_array_foreach(s->lat_sorted, i, u) {
		if (!err)
			err = latency_summary_unit(u, nr_pol, l);
	}
	if (err) {
		vpmc_latency_free(l);
		return vpmc__set_error(&s->eb, VPMC_ERR_NOMEM, "out of memory");
	}
	replay_latency_load_run(l, s->lat_starts, json_is_true(json_object_get(id, "gaps_trace")));
	latency_profile(&s->prof, r, json_object_get(id, "profile"));
	memset(lab, 0, sizeof(*lab));
	latency_labels(id, lab);
	lab->prof = &s->prof;
	*out = l;
	return 0;
}
