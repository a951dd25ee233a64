// SPDX-License-Identifier: GPL-2.0-only
/* cmd_calibrate.c - vpmcsim calibrate: fit only the named calibrated cost terms to measured
 * handler statistics and write a complete profile (timer-storm.md §8). */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "latency_cli.h"
#include "outfile.h"
#include "vpmcsim.h"

static const char usage_line[] =
	"vpmcsim calibrate TRACE --target POLICY:STAT=VALUE... [OPTIONS] -o PROFILE";

enum { OPT_CAL_TARGET = OPT_LAT_LAST_, OPT_CAL_MEASURED, OPT_CAL_FIT, OPT_CAL_NAME, OPT_CAL_OUT };

/* The statistics, as targets and latency's JSON name them. */
static const char *const stat_names[] = { "mean", "p50", "p99", "p999", "max", "fast_fraction",
					  "samples_per_s" };
enum { ST_MEAN, ST_P50, ST_P99, ST_P999, ST_MAX, ST_FAST, ST_RATE, ST_NR };

#define CAL_MAX 32

struct cal_item {
	const char *text;      /* as given */
	char policy[VPMC_POLICY_NAME_MAX];
	int pol;               /* index in the engine */
	int stat;
	double value;
};

struct cal_opts {
	struct latency_cli lc;
	struct cal_item target[CAL_MAX], measured[CAL_MAX];
	unsigned int nr_target, nr_measured;
	const char *fit, *name, *out;
	struct outfile outf; /* -o, open from before the fit (write_profile()) */
	const char *seen[OPT_CAL_OUT - OPT_CAL_FIT + 1];
};

static void usage(FILE *out)
{
	fprintf(out,
		"Usage: %s\n\n"
		"Fit only the named calibrated terms of a cost profile (handler_overhead_ns,\n"
		"drain_extra_p0, drain_extra_quantum_us) so that vpmcsim latency on TRACE meets the\n"
		"targets; print fitted values and residuals, and the statistics not fitted as\n"
		"predicted vs measured; write the whole profile.\n\n"
		"  --target P:STAT=V    STAT mean, p50 or fast_fraction (us, or a fraction);\n"
		"                       repeatable; p99, p999, max are predicted, not fitted\n"
		"  --measured P:STAT=V  a measured value only compared (any STAT, samples_per_s too)\n"
		"  --cost-profile BASE  the profile to start from (default rfc-milan)\n"
		"  --cost NAME=VALUE    override a parameter of BASE\n"
		"  --fit NAME[,NAME]    fit only these of the three\n"
		"  --name NAME          the profile's name (default: PROFILE's file name)\n"
		"  --vector, --end, --max-window-us, --fast-us, --gaps   as for latency\n"
		"  --format text|json   the report (default text)\n"
		"  -j N                 replay on N threads (default: the online CPUs)\n"
		"  -o PROFILE           the profile written (only on success)\n"
		"  -h, --help           this text; see vpmcsim(1)\n",
		usage_line);
}

/* "POLICY:STAT=VALUE" into @it; @target refuses what is predicted. */
static int parse_item(struct cli *c, struct cal_item *it, const char *arg, bool target)
{
	const char *colon = strchr(arg, ':'), *eq = colon ? strchr(colon, '=') : NULL, *why;
	struct vpmc_policy p;
	char *end;
	int s;

	if (!colon || !eq || (size_t)(colon - arg) >= sizeof(it->policy))
		return vpmcsim_fail(EXIT_USAGE, "calibrate: '%s': expected POLICY:STAT=VALUE", arg);
	snprintf(it->policy, sizeof(it->policy), "%.*s", (int)(colon - arg), arg);
	if (vpmc_policy_parse(&p, it->policy, &why))
		return vpmcsim_fail(EXIT_USAGE, "calibrate: '%s': %s", arg, why);
	for (s = 0; s < ST_NR; s++) {
		if (strlen(stat_names[s]) == (size_t)(eq - colon - 1) &&
		    !strncmp(colon + 1, stat_names[s], (size_t)(eq - colon - 1)))
			break;
	}
	if (s == ST_NR)
		return vpmcsim_fail(EXIT_USAGE, "calibrate: '%s': STAT is one of mean, p50, p99, "
				    "p999, max, fast_fraction, samples_per_s", arg);
	if (target && s != ST_MEAN && s != ST_P50 && s != ST_FAST)
		return vpmcsim_fail(EXIT_USAGE, "calibrate: --target '%s': %s is predicted, not "
				    "fitted; pass it with --measured", arg, stat_names[s]);
	errno = 0;
	it->value = strtod(eq + 1, &end);
	if (errno || end == eq + 1 || *end || !(it->value >= 0) || it->value > 1e9 ||
	    (s == ST_FAST && it->value > 1))
		return vpmcsim_fail(EXIT_USAGE, "calibrate: '%s': expected a value in us (a "
				    "fraction 0 to 1 for fast_fraction)", arg);
	it->text = arg;
	it->stat = s;
	it->pol = cli_find_policy(c->r, &p);
	if (it->pol < 0) {
		if (cli_add_policy(c, it->policy))
			return EXIT_USAGE;
		it->pol = (int)vpmc_replay_nr_policies(c->r) - 1;
	}
	return 0;
}

static int cal_own(struct cli *c, int opt, const char *arg)
{
	struct cal_opts *co = c->data;
	int rc = latency_cli_option(&co->lc, c->cmd, opt, arg);

	if (rc != 1)
		return rc;
	switch (opt) {
	case OPT_CAL_TARGET:
	case OPT_CAL_MEASURED:
		if ((opt == OPT_CAL_TARGET ? co->nr_target : co->nr_measured) == CAL_MAX)
			return vpmcsim_fail(EXIT_USAGE, "calibrate: at most %d of each", CAL_MAX);
		if (opt == OPT_CAL_TARGET)
			return parse_item(c, &co->target[co->nr_target++], arg, true);
		return parse_item(c, &co->measured[co->nr_measured++], arg, false);
	case 'o':
		rc = vpmcsim_once(c->cmd, "-o", &co->seen[OPT_CAL_OUT - OPT_CAL_FIT], arg);
		co->out = arg;
		return rc;
	case OPT_CAL_FIT:
	case OPT_CAL_NAME:
		rc = vpmcsim_once(c->cmd, opt == OPT_CAL_FIT ? "--fit" : "--name",
				  &co->seen[opt - OPT_CAL_FIT], arg);
		*(opt == OPT_CAL_FIT ? &co->fit : &co->name) = arg;
		return rc;
	default:
		return 1;
	}
}

/* Which of the three --fit allows. */
static bool fit_allows(const char *fit, const char *name)
{
	size_t len = strlen(name);
	const char *s = fit;

	if (!fit)
		return true;
	while (*s) {
		size_t l = strcspn(s, ",");

		if (l == len && !strncmp(s, name, len))
			return true;
		s += l + (s[l] == ',');
	}
	return false;
}

static int check_fit_names(const char *fit)
{
	static const char *const ok[] = { "handler_overhead_ns", "drain_extra_p0",
					  "drain_extra_quantum_us" };
	const char *s = fit;

	while (s && *s) {
		size_t l = strcspn(s, ","), i;

		for (i = 0; i < 3; i++) {
			if (strlen(ok[i]) == l && !strncmp(s, ok[i], l))
				break;
		}
		if (i == 3)
			return vpmcsim_fail(EXIT_USAGE, "calibrate: --fit '%s': expected "
					    "handler_overhead_ns, drain_extra_p0, "
					    "drain_extra_quantum_us", fit);
		s += l + (s[l] == ',');
	}
	return 0;
}

/* Assign each target its unknown (timer-storm.md §8.1); return 0 or EXIT_USAGE. */
static int plan(struct cal_opts *co, struct vpmc_latency *l, struct vpmc_calib *k)
{
	unsigned int i;

	memset(k, 0, sizeof(*k));
	k->free_pol = k->drain_pol = -1;
	for (i = 0; i < co->nr_target; i++) {
		const struct cal_item *t = &co->target[i];
		struct vpmc_latency_stats s;
		bool drains;

		vpmc_latency_stats(l, (size_t)t->pol, -1, &s);
		if (!s.samples) /* all windows flagged: no statistic to fit */
			return vpmcsim_fail(EXIT_INPUT, "calibrate: --target '%s': %s has no "
					    "handler window to measure", t->text, t->policy);
		drains = s.drains > 0;
		if (!drains && t->stat != ST_MEAN)
			return vpmcsim_fail(EXIT_USAGE, "calibrate: --target '%s': %s has no drain in "
					    "its windows: only its mean is fitted (by "
					    "handler_overhead_ns)", t->text, t->policy);
		if (!drains) {
			if (k->free_pol >= 0 && k->free_pol != t->pol)
				return vpmcsim_fail(EXIT_USAGE, "calibrate: --target '%s': a second "
						    "drain-free policy (one mean fits "
						    "handler_overhead_ns)", t->text);
			if (k->free_pol >= 0)
				return vpmcsim_fail(EXIT_USAGE, "calibrate: --target '%s' given twice",
						    t->text);
			k->free_pol = t->pol;
			k->free_mean_us = t->value;
			continue;
		}
		if (k->drain_pol >= 0 && k->drain_pol != t->pol)
			return vpmcsim_fail(EXIT_USAGE, "calibrate: --target '%s': a second draining "
					    "policy", t->text);
		k->drain_pol = t->pol;
		if (t->stat == ST_MEAN) {
			k->drain_mean_us = t->value;
		} else if (k->shape) {
			return vpmcsim_fail(EXIT_USAGE, "calibrate: --target '%s': one of p50 and "
					    "fast_fraction", t->text);
		} else {
			k->shape = t->stat == ST_P50 ? VPMC_CALIB_SHAPE_P50 : VPMC_CALIB_SHAPE_FAST;
			k->shape_value = t->value;
		}
	}
	for (i = 0; k->drain_pol >= 0 && i < co->nr_target; i++) {
		if (co->target[i].pol == k->drain_pol && co->target[i].stat == ST_MEAN)
			break;
	}
	if (k->drain_pol >= 0 && i == co->nr_target)
		return vpmcsim_fail(EXIT_USAGE, "calibrate: a draining policy's p50 or fast_fraction "
				    "target needs its mean target too");
	k->fit_h = k->free_pol >= 0;
	k->fit_quantum = k->drain_pol >= 0 && fit_allows(co->fit, "drain_extra_quantum_us");
	k->fit_q = k->drain_pol >= 0 && (k->shape || !k->fit_quantum) &&
		   fit_allows(co->fit, "drain_extra_p0");
	if (k->fit_h && !fit_allows(co->fit, "handler_overhead_ns"))
		return vpmcsim_fail(EXIT_USAGE, "calibrate: a drain-free mean target is surplus: "
				    "--fit leaves out handler_overhead_ns");
	if (k->drain_pol >= 0 && !k->fit_q && !k->fit_quantum)
		return vpmcsim_fail(EXIT_USAGE, "calibrate: the draining targets are surplus: --fit "
				    "leaves out drain_extra_p0 and drain_extra_quantum_us");
	if (k->shape && !(k->fit_q && k->fit_quantum))
		return vpmcsim_fail(EXIT_USAGE, "calibrate: the %s target is surplus: it needs both "
				    "drain_extra_p0 and drain_extra_quantum_us fitted",
				    k->shape == VPMC_CALIB_SHAPE_P50 ? "p50" : "fast_fraction");
	if (co->fit && ((fit_allows(co->fit, "handler_overhead_ns") && !k->fit_h) ||
			(fit_allows(co->fit, "drain_extra_p0") && !k->fit_q) ||
			(fit_allows(co->fit, "drain_extra_quantum_us") && !k->fit_quantum)))
		return vpmcsim_fail(EXIT_USAGE, "calibrate: --fit '%s': a named term has no target "
				    "to fit it", co->fit);
	if (!co->nr_target)
		return vpmcsim_fail(EXIT_USAGE, "calibrate: expected --target POLICY:STAT=VALUE "
				    "(usage: %s)", usage_line);
	return 0;
}

static double stat_of(const struct vpmc_latency_stats *s, int st)
{
	const double v[] = { s->mean_us, s->p50_us, s->p99_us, s->p999_us, s->max_us,
			     s->fast_fraction, s->samples_per_s };

	return v[st];
}

/* "T1 T2 ..." of @items into a malloc'd string. */
static char *join(const struct cal_item *items, unsigned int n)
{
	size_t len = 1, i;
	char *s;

	for (i = 0; i < n; i++)
		len += strlen(items[i].text) + 1;
	s = calloc(1, len);
	for (i = 0; s && i < n; i++) {
		if (i)
			strcat(s, " ");
		strcat(s, items[i].text);
	}
	return s;
}

/* The measured value of (@pol, @st), or NAN. */
static double measured(const struct cal_opts *co, int pol, int st)
{
	unsigned int i;

	for (i = 0; i < co->nr_measured; i++) {
		if (co->measured[i].pol == pol && co->measured[i].stat == st)
			return co->measured[i].value;
	}
	return NAN;
}

static bool is_target(const struct cal_opts *co, int pol, int st)
{
	unsigned int i;

	for (i = 0; i < co->nr_target; i++) {
		if (co->target[i].pol == pol && co->target[i].stat == st)
			return true;
	}
	return false;
}

/* The profile's name: --name, else -o's file name without ".cost". */
static void profile_name(const struct cal_opts *co, char *buf, size_t len)
{
	const char *base = strrchr(co->out, '/');
	size_t n;

	if (co->name) {
		snprintf(buf, len, "%s", co->name);
		return;
	}
	base = base ? base + 1 : co->out;
	n = strlen(base);
	if (n > 5 && !strcmp(base + n - 5, ".cost"))
		n -= 5;
	snprintf(buf, len, "%.*s", (int)n, base);
}

/* Print the report; @stats[p] the fitted model's statistics of policy p. */
static void report_text(struct cli *c, const struct cal_opts *co, const struct vpmc_calib *k,
			const struct vpmc_cost *fit, const struct vpmc_latency_stats *stats,
			const char *fitted_on, const char *outcome, FILE *f)
{
	double wait = 50.0 * (1.0 + fit->msr_access_cycles / (1000.0 * fit->cpu_ghz));
	size_t n = vpmc_replay_nr_policies(c->r), p;
	unsigned int i;
	int st;

	fprintf(f, "calibrate: %s (%s), base %s\n", c->name, fitted_on, c->prof.name);
	fputs("fitted\n", f);
	if (k->fit_h) {
		char name[VPMC_POLICY_NAME_MAX];

		vpmc_policy_format(vpmc_replay_policy(c->r, (size_t)k->free_pol), name, sizeof(name));
		fprintf(f, "  %-22s = %12.4f  from %s:mean\n", "handler_overhead_ns",
			fit->handler_overhead_ns, name);
	}
	if (k->fit_q)
		fprintf(f, "  %-22s = %12.6f  from the draining policy's %s\n", "drain_extra_p0",
			fit->drain_extra_p0, k->shape == VPMC_CALIB_SHAPE_FAST ? "fast_fraction" :
			k->shape ? "p50 (with its mean)" : "mean");
	if (k->fit_quantum)
		fprintf(f, "  %-22s = %12.4f  from its mean; %.2f x amd_overflow_wait_us (%.1f: "
			"a plausibility check, not evidence)\n", "drain_extra_quantum_us",
			fit->drain_extra_quantum_us, fit->drain_extra_quantum_us / wait, wait);
	fprintf(f, "targets %27s %10s %10s\n", "target", "model", "residual");
	for (i = 0; i < co->nr_target; i++) {
		const struct cal_item *t = &co->target[i];
		double m = stat_of(&stats[t->pol], t->stat);
		char label[96];

		snprintf(label, sizeof(label), "%s:%s", t->policy, stat_names[t->stat]);
		fprintf(f, "  %-26s %10.3f %10.3f %+9.2f %%\n", label,
			t->value, m, (m - t->value) / t->value * 100.0);
	}
	fprintf(f, "predicted, not fitted %13s %10s %10s\n", "model", "measured", "error");
	for (p = 0; p < n; p++) {
		char name[VPMC_POLICY_NAME_MAX];

		vpmc_policy_format(vpmc_replay_policy(c->r, p), name, sizeof(name));
		for (st = 0; st < ST_RATE; st++) {
			double m = stat_of(&stats[p], st), me = measured(co, (int)p, st);
			char label[96];

			if (is_target(co, (int)p, st))
				continue;
			snprintf(label, sizeof(label), "%s:%s", name, stat_names[st]);
			fprintf(f, "  %-26s %10.3f", label, m);
			if (isfinite(me))
				fprintf(f, " %10.3f %+9.1f %%\n", me, (m - me) / me * 100.0);
			else
				fprintf(f, " %10s\n", "-");
		}
	}
	{
		double m = stats[0].samples_per_s, me = NAN;

		for (p = 0; p < n && !isfinite(me); p++)
			me = measured(co, (int)p, ST_RATE);
		fprintf(f, "  %-26s %10.1f", "samples_per_s", m);
		if (isfinite(me))
			fprintf(f, " %10.1f %+9.1f %%\n", me, (m - me) / me * 100.0);
		else
			fprintf(f, " %10s\n", "-");
	}
	if (outcome[0])
		fprintf(f, "%s\n", outcome);
}

static void json_num(FILE *f, double v)
{
	if (isfinite(v))
		fprintf(f, "%.6g", v);
	else
		fputs("null", f);
}

static void report_json(struct cli *c, const struct cal_opts *co, const struct vpmc_calib *k,
			const struct vpmc_cost *fit, const struct vpmc_latency_stats *stats,
			const char *outcome, FILE *f)
{
	size_t n = vpmc_replay_nr_policies(c->r), p;
	bool first = true;
	unsigned int i;
	int st;

	fputs("{\n  \"trace\": ", f);
	vpmc_json_string(f, c->name);
	fputs(",\n  \"base\": ", f);
	vpmc_json_string(f, c->prof.name);
	fputs(",\n  \"fitted\": {", f);
	if (k->fit_h)
		fprintf(f, "%s\"handler_overhead_ns\": %.10g", first ? "" : ", ",
			fit->handler_overhead_ns), first = false;
	if (k->fit_q)
		fprintf(f, "%s\"drain_extra_p0\": %.10g", first ? "" : ", ", fit->drain_extra_p0),
			first = false;
	if (k->fit_quantum)
		fprintf(f, "%s\"drain_extra_quantum_us\": %.10g", first ? "" : ", ",
			fit->drain_extra_quantum_us);
	fputs("},\n  \"targets\": [", f);
	for (i = 0; i < co->nr_target; i++) {
		const struct cal_item *t = &co->target[i];

		fprintf(f, "%s\n    {\"target\": ", i ? "," : "");
		vpmc_json_string(f, t->text);
		fputs(", \"value\": ", f);
		json_num(f, t->value);
		fputs(", \"model\": ", f);
		json_num(f, stat_of(&stats[t->pol], t->stat));
		fputc('}', f);
	}
	fputs("\n  ],\n  \"predicted\": [", f);
	first = true;
	for (p = 0; p < n; p++) {
		char name[VPMC_POLICY_NAME_MAX];

		vpmc_policy_format(vpmc_replay_policy(c->r, p), name, sizeof(name));
		for (st = 0; st < ST_NR; st++) {
			if (is_target(co, (int)p, st))
				continue;
			fprintf(f, "%s\n    {\"statistic\": \"%s:%s\", \"model\": ", first ? "" : ",",
				name, stat_names[st]);
			json_num(f, stat_of(&stats[p], st));
			fputs(", \"measured\": ", f);
			json_num(f, measured(co, (int)p, st));
			fputc('}', f);
			first = false;
		}
	}
	fputs("\n  ],\n  \"outcome\": ", f);
	vpmc_json_string(f, outcome);
	fputs("\n}\n", f);
}

/* Set the fitted values with their tag and source into c->prof, and the metadata. */
static int fill_profile(struct cli *c, const struct cal_opts *co, const struct vpmc_calib *k,
			const struct vpmc_cost *fit, const char *fitted_on)
{
	struct vpmc_cost_profile *pr = &c->prof;
	char src[1024], fitted[128] = "", *targets = join(co->target, co->nr_target);
	char *meas = join(co->measured, co->nr_measured);
	int rc = !targets || !meas;

	snprintf(src, sizeof(src), "vpmcsim calibrate to %s on %s", targets ? targets : "",
		 fitted_on);
	if (!rc && k->fit_h) {
		rc = vpmc_cost_profile_set(pr, "handler_overhead_ns", fit->handler_overhead_ns,
					   VPMC_COST_TAG_CALIBRATED, src);
		strcat(fitted, "handler_overhead_ns");
	}
	if (!rc && k->fit_q) {
		rc = vpmc_cost_profile_set(pr, "drain_extra_p0", fit->drain_extra_p0,
					   VPMC_COST_TAG_CALIBRATED, src);
		strcat(fitted, fitted[0] ? " drain_extra_p0" : "drain_extra_p0");
	}
	if (!rc && k->fit_quantum) {
		rc = vpmc_cost_profile_set(pr, "drain_extra_quantum_us", fit->drain_extra_quantum_us,
					   VPMC_COST_TAG_CALIBRATED, src);
		strcat(fitted, fitted[0] ? " drain_extra_quantum_us" : "drain_extra_quantum_us");
	}
	profile_name(co, pr->name, sizeof(pr->name));
	free(pr->fitted);
	free(pr->targets);
	free(pr->measured);
	free(pr->fitted_on);
	pr->fitted = strdup(fitted);
	pr->targets = targets;
	pr->measured = co->nr_measured ? meas : NULL;
	if (!co->nr_measured)
		free(meas);
	pr->fitted_on = strdup(fitted_on);
	return rc || !pr->fitted || !pr->fitted_on;
}

/* -o PROFILE is opened before the fit (outfile.h: a temporary file beside it), so that an -o
 * that cannot be written is refused first, and is renamed into place only when written whole. */
static int write_profile(const struct cli *c, struct cal_opts *co)
{
	int e = vpmc_cost_profile_write(&c->prof, co->outf.f);
	int ce = outfile_close(&co->outf, !e);

	co->outf.f = NULL;
	return e || ce ? vpmcsim_write_error(co->out, ce > 0 ? ce : 0) : 0;
}

static int calibrate(struct cli *c, struct cal_opts *co)
{
	struct vpmc_latency_stats stats[VPMC_REPLAY_MAX_POLICIES];
	struct vpmc_latency *l = NULL;
	struct vpmc_calib k;
	struct vpmc_cost fit;
	char gen[512], fitted_on[600], err[256];
	size_t p, n;
	int rc, fr;

	co->lc.o.keep_samples = true;
	rc = latency_cli_run(c, &co->lc, &l);
	if (!rc && latency_cli_no_handler(c, &co->lc, l, "calibrate"))
		rc = EXIT_INPUT;
	if (!rc)
		rc = plan(co, l, &k);
	if (rc) {
		vpmc_latency_free(l);
		return rc;
	}
	if (latency_cli_gen(c, gen, sizeof(gen)))
		snprintf(fitted_on, sizeof(fitted_on), "gen %s", gen + strlen("workload="));
	else
		snprintf(fitted_on, sizeof(fitted_on), "%s", c->name);
	fit = c->prof.cost;
	fr = vpmc_calibrate(l, &fit, &k, err, sizeof(err));
	n = vpmc_replay_nr_policies(c->r);
	for (p = 0; fr != VPMC_ERR_NOMEM && p < n; p++) {
		if (vpmc_latency_sample_stats(l, p, &fit, &stats[p]))
			fr = VPMC_ERR_NOMEM;
	}
	if (fr == VPMC_ERR_NOMEM) {
		vpmc_latency_free(l);
		return vpmcsim_fail(EXIT_INPUT, "calibrate: out of memory");
	}
	for (p = 0; !fr && p < co->nr_target; p++) {
		const struct cal_item *t = &co->target[p];
		double m = stat_of(&stats[t->pol], t->stat);

		if (!(fabs(m - t->value) <= 0.01 * t->value)) {
			snprintf(err, sizeof(err), "%s missed by more than 1 %% (model %g)", t->text, m);
			fr = VPMC_ERR_LIMIT;
		}
	}
	if (c->fmt == VPMC_OUTPUT_JSON)
		report_json(c, co, &k, &fit, stats, fr ? err : "fitted", stdout);
	else
		report_text(c, co, &k, &fit, stats, fitted_on, fr ? "failed: closest values shown, "
			    "nothing written" : "", stdout);
	vpmc_latency_free(l);
	if (fr)
		return vpmcsim_fail(EXIT_INPUT, "calibrate: %s; nothing written", err);
	if (fill_profile(c, co, &k, &fit, fitted_on))
		return vpmcsim_fail(EXIT_INPUT, "calibrate: out of memory");
	rc = write_profile(c, co);
	if (!rc && c->fmt != VPMC_OUTPUT_JSON)
		printf("wrote %s\n", co->out);
	return rc;
}

static int calibrate_run(int argc, char **argv)
{
	static const struct option opts[] = {
		CLI_COMMON_OPTIONS,
		CLI_ENGINE_OPTIONS,
		LATENCY_CLI_OPTIONS,
		{ "target", required_argument, NULL, OPT_CAL_TARGET },
		{ "measured", required_argument, NULL, OPT_CAL_MEASURED },
		{ "fit", required_argument, NULL, OPT_CAL_FIT },
		{ "name", required_argument, NULL, OPT_CAL_NAME },
		{ NULL, 0, NULL, 0 },
	};
	struct cal_opts co;
	struct cli c;
	int rc;

	memset(&co, 0, sizeof(co));
	vpmc_latency_opts_default(&co.lc.o);
	cli_init(&c, "calibrate", VPMC_OUTPUT_TEXT);
	if (vpmc_replay_new(&c.r))
		return vpmcsim_fail(EXIT_INPUT, "calibrate: out of memory");
	c.data = &co;
	c.short_opts = "hj:o:";
	rc = cli_cost_profile(&c, "rfc-milan"); /* the base unless --cost-profile says */
	if (!rc)
		rc = cli_parse(&c, argc, argv, opts, cal_own, usage, usage_line);
	if (!rc && !co.out)
		rc = vpmcsim_fail(EXIT_USAGE, "calibrate: expected -o PROFILE (usage: %s)",
				  usage_line);
	if (!rc)
		rc = check_fit_names(co.fit);
	if (!rc && !outfile_open(&co.outf, co.out))
		rc = vpmcsim_fail(EXIT_USAGE, "calibrate: -o '%s': %s", co.out, strerror(errno));
	else if (!rc) {
		rc = calibrate(&c, &co);
		if (co.outf.f)
			outfile_close(&co.outf, false); /* no fit: an existing profile stays */
	}
	cli_close(&c);
	return rc == CLI_HELP ? EXIT_OK : rc;
}

const struct vpmcsim_cmd cmd_calibrate = {
	.name = "calibrate",
	.summary = "fit the calibrated cost terms to measured handler statistics",
	.run = calibrate_run,
};
