// SPDX-License-Identifier: GPL-2.0-only
/* latency_report.c - vpmcsim latency's table: text, CSV, JSON (timer-storm.md §5.5), each
 * statistic a calibrated profile fitted marked as such, every other one a prediction. */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>
#include <vpmc/latency.h>

#include "internal.h"
#include "outbuf.h"
#include "summary.h"

/* The figures, in output order: short name (targets), JSON/CSV name. */
static const struct {
	const char *stat, *field;
} figs[] = {
	{ "mean", "handler_us_mean" }, { "p50", "handler_us_p50" }, { "p99", "handler_us_p99" },
	{ "p999", "handler_us_p999" }, { "max", "handler_us_max" },
	{ "fast_fraction", "fast_fraction" },
};

static double fig(const struct vpmc_latency_stats *s, size_t i)
{
	const double v[] = { s->mean_us, s->p50_us, s->p99_us, s->p999_us, s->max_us,
			     s->fast_fraction };

	return v[i];
}

bool vpmc_latency_calibrated(const char *targets, const struct vpmc_policy *p, const char *stat)
{
	const char *t = targets;

	while (t && *t) {
		size_t len = strcspn(t, " ");
		const char *colon = memchr(t, ':', len);
		const char *eq = colon ? memchr(colon, '=', len - (size_t)(colon - t)) : NULL;
		char pol[VPMC_POLICY_NAME_MAX];
		struct vpmc_policy tp;

		if (colon && eq && eq > colon && (size_t)(colon - t) < sizeof(pol)) {
			snprintf(pol, sizeof(pol), "%.*s", (int)(colon - t), t);
			if (!vpmc_policy_parse(&tp, pol, NULL) && tp.kind == p->kind &&
			    tp.arg == p->arg && strlen(stat) == (size_t)(eq - colon - 1) &&
			    !strncmp(colon + 1, stat, (size_t)(eq - colon - 1)))
				return true;
		}
		t += len;
		t += strspn(t, " ");
	}
	return false;
}

static bool marked(const struct vpmc_latency_labels *lab, const struct vpmc_policy *p, size_t i)
{
	return lab->marks && vpmc_latency_calibrated(lab->targets, p, figs[i].stat);
}

/* The mediated vPMU needs PerfMonV2 on AMD (or v4 on Intel): a row on an older PMU is this
 * guest on a newer host. */
static const char *row_note(const struct vpmc_replay *r, const struct vpmc_policy *p)
{
	const struct vpmc_pmu_config *cfg = vpmc_replay_config(r);

	if (p->kind != VPMC_POLICY_MEDIATED)
		return NULL;
	if (cfg->vendor == VPMC_VENDOR_AMD && cfg->version < 2)
		return "hypothetical: the mediated vPMU needs PerfMonV2 on AMD, which this PMU lacks";
	return NULL;
}

static double speedup(const struct vpmc_latency *l, const struct vpmc_latency_labels *lab,
		      const struct vpmc_latency_stats *s)
{
	struct vpmc_latency_stats b;

	vpmc_latency_stats(l, lab->baseline, -1, &b);
	return s->samples && b.samples && s->mean_us > 0 ? b.mean_us / s->mean_us : NAN;
}

static double round4(double v)
{
	return isfinite(v) ? round(v * 1e4) / 1e4 : v;
}

static const char *end_name(enum vpmc_latency_end e)
{
	return e == VPMC_LATENCY_END_DEADLINE ? "deadline" : e == VPMC_LATENCY_END_EOI ? "eoi" : "auto";
}

static void text_value(FILE *f, double v, int width, int prec, bool mark)
{
	if (!isfinite(v))
		fprintf(f, " %*s%s", width, "-", mark ? " " : " ");
	else
		fprintf(f, " %*.*f%s", width, prec, v, mark ? "*" : " ");
}

static void text_row(FILE *f, const char *name, const struct vpmc_latency_stats *s, double sp,
		     const struct vpmc_latency_labels *lab, const struct vpmc_policy *p,
		     int note_no)
{
	size_t i;

	fprintf(f, "%-20s %8" PRIu64 " %6.0f", name, s->samples,
		isfinite(s->samples_per_s) ? s->samples_per_s : 0.0);
	for (i = 0; i < 5; i++)
		text_value(f, fig(s, i), 9, 2, p && marked(lab, p, i));
	text_value(f, s->fast_fraction, 6, 3, p && marked(lab, p, 5));
	if (isfinite(sp))
		fprintf(f, " %7.1fx", sp);
	else
		fprintf(f, " %8s", "-");
	fprintf(f, " %6.2f", isfinite(s->drains_per_sample) ? s->drains_per_sample : 0.0);
	if (note_no)
		fprintf(f, "  (%d)", note_no);
	fputc('\n', f);
}

static void text_report(const struct vpmc_latency *l, const struct vpmc_replay *r,
			const struct vpmc_latency_labels *lab, FILE *f)
{
	const struct vpmc_pmu_config *cfg = vpmc_replay_config(r);
	const struct vpmc_latency_opts *o = vpmc_latency_options(l);
	size_t n = vpmc_replay_nr_policies(r), p, i;
	const char *notes[VPMC_REPLAY_MAX_POLICIES];
	bool any_mark = false;
	int nr_notes = 0;
	char kernel[48];
	uint32_t v;

	fprintf(f, "trace: %s", lab->trace);
	if (lab->gen)
		fprintf(f, " (gen %.*s)", (int)strcspn(lab->gen + strlen("workload="), "\n"),
			lab->gen + strlen("workload="));
	fprintf(f, ", %.3f s, gaps: %s\n", vpmc_latency_span_s(l),
		vpmc_latency_gaps_trace(l) ? "trace" : "model");
	fprintf(f, "pmu: %s version=%u gp=%u, host kernel %s; vector 0x%x, end: %s; fast <= %g "
		"us\n", cfg->vendor == VPMC_VENDOR_AMD ? "amd" : "intel", cfg->version, cfg->nr_gp,
		vpmc__kernel_name(cfg->host_kernel, kernel, sizeof(kernel)), o->vector,
		end_name(o->end), o->fast_us);
	fprintf(f, "cost profile: %s", lab->profile);
	if (lab->fitted)
		fprintf(f, " (fitted: %s)", lab->fitted);
	fputc('\n', f);
	fprintf(f, "%-20s %8s %6s %10s %10s %10s %10s %10s %7s %8s %6s\n", "policy", "samples",
		"per_s", "mean_us", "p50_us", "p99_us", "p99.9_us", "max_us", "fast", "speedup",
		"drains");
	for (p = 0; p < n; p++) {
		const struct vpmc_policy *pol = vpmc_replay_policy(r, p);
		char name[VPMC_POLICY_NAME_MAX];
		struct vpmc_latency_stats s;
		const char *note = row_note(r, pol);

		vpmc_policy_format(pol, name, sizeof(name));
		vpmc_latency_stats(l, p, -1, &s);
		if (note)
			notes[nr_notes++] = note;
		for (i = 0; i < 6; i++)
			any_mark |= marked(lab, pol, i);
		text_row(f, name, &s, speedup(l, lab, &s), lab, pol, note ? nr_notes : 0);
	}
	if (any_mark) {
		fprintf(f, "* fitted to the measured value by calibrate (%s); every other number is "
			"a prediction.\n", lab->targets);
		if (lab->other_trace)
			fprintf(f, "  fitted on another trace: near, not at, the target.\n");
	} else {
		fprintf(f, "every number is a prediction of the model (no statistic here was "
			"fitted).\n");
	}
	for (i = 0; i < (size_t)nr_notes; i++)
		fprintf(f, "(%zu) %s.\n", i + 1, notes[i]);
	for (v = 0; lab->per_vcpu && v < vpmc_latency_nr_vcpus(l); v++) {
		fprintf(f, "\nvCPU %" PRIu32 "\n", v);
		for (p = 0; p < n; p++) {
			char name[VPMC_POLICY_NAME_MAX];
			struct vpmc_latency_stats s;

			vpmc_policy_format(vpmc_replay_policy(r, p), name, sizeof(name));
			vpmc_latency_stats(l, p, (int)v, &s);
			text_row(f, name, &s, NAN, lab, NULL, 0);
		}
	}
}

static void csv_num(FILE *f, double v)
{
	if (isfinite(v))
		fprintf(f, ",%.4f", v);
	else
		fputc(',', f);
}

static void csv_report(const struct vpmc_latency *l, const struct vpmc_replay *r,
		       const struct vpmc_latency_labels *lab, FILE *f)
{
	size_t n = vpmc_replay_nr_policies(r), p, i;

	fputs("policy,samples,samples_per_s,handler_us_mean,handler_us_p50,handler_us_p99,"
	      "handler_us_p999,handler_us_max,fast_fraction,speedup,drains_per_sample,flagged,"
	      "fallback,overruns,calibrated\n", f);
	for (p = 0; p < n; p++) {
		const struct vpmc_policy *pol = vpmc_replay_policy(r, p);
		char name[VPMC_POLICY_NAME_MAX];
		struct vpmc_latency_stats s;
		bool first = true;

		vpmc_policy_format(pol, name, sizeof(name));
		vpmc_latency_stats(l, p, -1, &s);
		out_csv_field(f, name);
		fprintf(f, ",%" PRIu64, s.samples);
		csv_num(f, s.samples_per_s);
		for (i = 0; i < 6; i++)
			csv_num(f, fig(&s, i));
		csv_num(f, speedup(l, lab, &s));
		csv_num(f, s.drains_per_sample);
		fprintf(f, ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",", s.flagged, s.fallback,
			s.overruns);
		for (i = 0; i < 6; i++) {
			if (marked(lab, pol, i)) {
				fprintf(f, "%s%s", first ? "" : ";", figs[i].field);
				first = false;
			}
		}
		fputc('\n', f);
	}
}

static void json_real4(json_t *o, const char *key, double v, int *err)
{
	out_json_set(o, key, isfinite(v) ? json_real(round4(v)) : json_null(), err);
}

static json_t *json_figs(const struct vpmc_latency_stats *s, const char *name, int *err)
{
	json_t *o = json_object();
	size_t i;

	if (!o) {
		*err = VPMC_ERR_NOMEM;
		return NULL;
	}
	if (name)
		out_json_set(o, "policy", json_string(name), err);
	out_json_set(o, "samples", out_json_u64(s->samples), err);
	json_real4(o, "samples_per_s", s->samples_per_s, err);
	for (i = 0; i < 6; i++)
		json_real4(o, figs[i].field, fig(s, i), err);
	return o;
}

static json_t *json_row(const struct vpmc_latency *l, const struct vpmc_replay *r,
			const struct vpmc_latency_labels *lab, size_t p, int *err)
{
	const struct vpmc_policy *pol = vpmc_replay_policy(r, p);
	char name[VPMC_POLICY_NAME_MAX];
	struct vpmc_latency_stats s;
	json_t *o, *cal = json_array(), *pv = json_array();
	const char *note = row_note(r, pol);
	size_t i;
	uint32_t v;

	vpmc_policy_format(pol, name, sizeof(name));
	vpmc_latency_stats(l, p, -1, &s);
	o = json_figs(&s, name, err);
	if (!o || !cal || !pv) {
		*err = VPMC_ERR_NOMEM;
		json_decref(cal);
		json_decref(pv);
		return o;
	}
	json_real4(o, "speedup", speedup(l, lab, &s), err);
	json_real4(o, "drains_per_sample", s.drains_per_sample, err);
	out_json_set(o, "flagged", out_json_u64(s.flagged), err);
	out_json_set(o, "fallback", out_json_u64(s.fallback), err);
	out_json_set(o, "overruns", out_json_u64(s.overruns), err);
	for (i = 0; i < 6; i++) {
		if (marked(lab, pol, i) && json_array_append_new(cal, json_string(figs[i].field)))
			*err = VPMC_ERR_NOMEM;
	}
	out_json_set(o, "calibrated", cal, err);
	out_json_set(o, "note", note ? json_string(note) : json_null(), err);
	for (v = 0; v < vpmc_latency_nr_vcpus(l); v++) {
		json_t *e;

		vpmc_latency_stats(l, p, (int)v, &s);
		e = json_figs(&s, NULL, err);
		if (!e)
			break;
		out_json_set(e, "vcpu", json_integer(v), err);
		if (json_array_append_new(pv, e))
			*err = VPMC_ERR_NOMEM;
	}
	out_json_set(o, "per_vcpu", pv, err);
	return o;
}

static int json_report(const struct vpmc_latency *l, const struct vpmc_replay *r,
		       const struct vpmc_latency_labels *lab, char **text)
{
	json_t *root = json_object(), *rows = json_array(), *prof = json_object();
	char name[VPMC_POLICY_NAME_MAX];
	size_t n = vpmc_replay_nr_policies(r), p;
	int err = 0;

	if (!root || !rows || !prof) {
		json_decref(root);
		json_decref(rows);
		json_decref(prof);
		return VPMC_ERR_NOMEM;
	}
	out_json_set(root, "trace", json_string(lab->trace), &err);
	out_json_set(root, "vector", json_integer(vpmc_latency_options(l)->vector), &err);
	out_json_set(root, "end", json_string(end_name(vpmc_latency_options(l)->end)), &err);
	out_json_set(root, "fast_us", json_real(vpmc_latency_options(l)->fast_us), &err);
	json_real4(root, "span_s", vpmc_latency_span_s(l), &err);
	out_json_set(root, "gaps", json_string(vpmc_latency_gaps_trace(l) ? "trace" : "model"),
		     &err);
	out_json_set(prof, "name", json_string(lab->profile), &err);
	out_json_set(prof, "fitted", lab->fitted ? json_string(lab->fitted) : json_null(), &err);
	out_json_set(prof, "targets", lab->targets ? json_string(lab->targets) : json_null(),
		     &err);
	out_json_set(root, "profile", prof, &err);
	if (lab->prof)
		out_json_set(root, "cost", out_json_cost(&lab->prof->cost, lab->prof->tag, &err), &err);
	vpmc_policy_format(vpmc_replay_policy(r, lab->baseline), name, sizeof(name));
	out_json_set(root, "baseline", json_string(name), &err);
	for (p = 0; p < n; p++) {
		json_t *o = json_row(l, r, lab, p, &err);

		if (o && json_array_append_new(rows, o))
			err = VPMC_ERR_NOMEM;
	}
	out_json_set(root, "rows", rows, &err);
	out_json_set(root, "merge_state", summary_latency_state(l, r, lab, &err), &err);
	return out_json_finish(root, err, text);
}

int vpmc_latency_report(const struct vpmc_latency *l, const struct vpmc_replay *r,
			const struct vpmc_latency_labels *lab, enum vpmc_output fmt, char **text)
{
	struct outbuf b;
	int err;

	if (fmt == VPMC_OUTPUT_JSON)
		return json_report(l, r, lab, text);
	err = outbuf_open(&b);
	if (err)
		return err;
	if (fmt == VPMC_OUTPUT_CSV)
		csv_report(l, r, lab, b.f);
	else
		text_report(l, r, lab, b.f);
	return outbuf_close(&b, text);
}
