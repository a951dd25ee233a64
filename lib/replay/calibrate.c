// SPDX-License-Identifier: GPL-2.0-only
/*
 * calibrate.c - Fit only the named calibrated terms of the cost model to measured targets
 * (timer-storm.md §8.2): handler_overhead_ns to a drain-free mean; drain_extra_p0 (q) and
 * drain_extra_quantum_us to a draining policy's mean and p50 (or fast fraction). Each kept
 * latency sample is repriced: its fixed part + handler_overhead_ns + the extra X of each
 * drain in its window, drawn by key as the replay drew it (vpmc_cost_drain_extra_us()).
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <vpmc/latency.h>

#include "internal.h"
#include "latency-local.h"

/* A drain of a sample, with its draws: X = u1 < q ? 0 : m * quantum. */
struct cdrain {
	double u1, m;
};

/* One policy's samples ready to reprice. */
struct cset {
	size_t n;
	double *fixed;          /* ns, without overhead and extras */
	struct cdrain *dr;      /* VPMC_LATENCY_SAMPLE_KEYS per sample */
	unsigned int *nd;
	double *d;              /* scratch: the repriced durations, ns */
	double span_s;
};

static void cset_free(struct cset *s)
{
	free(s->fixed);
	free(s->dr);
	free(s->nd);
	free(s->d);
}

static int cset_make(struct cset *s, const struct vpmc_latency *l, size_t policy,
		     const struct vpmc_cost *c)
{
	const struct vpmc_latency_sample *smp = vpmc_latency_samples(l, policy, &s->n);
	struct vpmc_cost unit = *c;
	size_t i, j;

	s->span_s = vpmc_latency_span_s(l);
	s->fixed = malloc((s->n + 1) * sizeof(*s->fixed));
	s->dr = malloc((s->n + 1) * VPMC_LATENCY_SAMPLE_KEYS * sizeof(*s->dr));
	s->nd = malloc((s->n + 1) * sizeof(*s->nd));
	s->d = malloc((s->n + 1) * sizeof(*s->d));
	if (!s->fixed || !s->dr || !s->nd || !s->d) {
		cset_free(s);
		return VPMC_ERR_NOMEM;
	}
	/* m: the extra of a drain per unit quantum, whatever q */
	unit.drain_extra_p0 = 0;
	unit.drain_extra_quantum_us = 1;
	for (i = 0; i < s->n; i++) {
		s->fixed[i] = smp[i].fixed_ns;
		s->nd[i] = smp[i].nr_keys < VPMC_LATENCY_SAMPLE_KEYS ? smp[i].nr_keys
								       : VPMC_LATENCY_SAMPLE_KEYS;
		for (j = 0; j < s->nd[i]; j++) {
			struct cdrain *d = &s->dr[i * VPMC_LATENCY_SAMPLE_KEYS + j];
			uint32_t v = smp[i].vcpu;
			uint64_t o = smp[i].key[j];

			d->u1 = vpmc_cost_draw(c, v, o, 1);
			d->m = vpmc_cost_drain_extra_us(&unit, 1.0, vpmc_cost_draw(c, v, o, 2),
							vpmc_cost_draw(c, v, o, 3));
		}
	}
	return 0;
}

/* Reprice into s->d under (h, q, quantum); return the mean, ns. */
static double cset_price(struct cset *s, double h, double q, double quantum_us)
{
	double sum = 0;
	size_t i, j;

	for (i = 0; i < s->n; i++) {
		double d = s->fixed[i] + h;

		for (j = 0; j < s->nd[i]; j++) {
			const struct cdrain *dr = &s->dr[i * VPMC_LATENCY_SAMPLE_KEYS + j];

			if (dr->u1 >= q)
				d += dr->m * quantum_us * 1000.0;
		}
		s->d[i] = d;
		sum += d;
	}
	return s->n ? sum / (double)s->n : NAN;
}

/* The mean as A + quantum * B at @q (ns, ns per us of quantum). */
static void cset_linear(const struct cset *s, double h, double q, double *a, double *b)
{
	double sa = 0, sb = 0;
	size_t i, j;

	for (i = 0; i < s->n; i++) {
		sa += s->fixed[i] + h;
		for (j = 0; j < s->nd[i]; j++) {
			const struct cdrain *dr = &s->dr[i * VPMC_LATENCY_SAMPLE_KEYS + j];

			if (dr->u1 >= q)
				sb += dr->m * 1000.0;
		}
	}
	*a = sa / (double)s->n;
	*b = sb / (double)s->n;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The nearest-rank percentile @per10k of s->d (sorts it). */
static double cset_rank(struct cset *s, unsigned int per10k)
{
	size_t k = (size_t)(((unsigned long long)per10k * s->n + 9999) / 10000);

	qsort(s->d, s->n, sizeof(*s->d), cmp_double);
	return s->d[k ? k - 1 : 0];
}

/* The share of s->d at most @fast_ns. */
static double cset_fast(const struct cset *s, double fast_ns)
{
	size_t i, n = 0;

	for (i = 0; i < s->n; i++)
		n += s->d[i] <= fast_ns;
	return s->n ? (double)n / (double)s->n : NAN;
}

int vpmc_latency_sample_stats(const struct vpmc_latency *l, size_t policy,
			      const struct vpmc_cost *c, struct vpmc_latency_stats *st)
{
	struct vpmc_hist h;
	struct cset s;
	int err = cset_make(&s, l, policy, c);
	size_t i;

	memset(st, 0, sizeof(*st));
	if (err)
		return err;
	st->samples = s.n;
	st->samples_per_s = s.span_s > 0 ? (double)s.n / s.span_s : NAN;
	st->mean_us = cset_price(&s, c->handler_overhead_ns, c->drain_extra_p0,
				 c->drain_extra_quantum_us) / 1000.0;
	st->fast_fraction = cset_fast(&s, vpmc_latency_options(l)->fast_us * 1000.0);
	/* the percentiles as latency prints them: of the same histogram, not of the sorted list */
	hist_init(&h);
	for (i = 0; !err && i < s.n; i++)
		err = hist_add(&h, replay_latency_ns(s.d[i]));
	replay_latency_percentiles(&h, st);
	hist_release(&h);
	cset_free(&s);
	return err;
}

/* The quantum that meets the mean at @q; with its p50 or fast fraction in *@shape. */
static double at_q(struct cset *s, const struct vpmc_calib *k, double h, double q, double fast_ns,
		   double *shape)
{
	double a, b, quantum;

	cset_linear(s, h, q, &a, &b);
	quantum = b > 0 ? (k->drain_mean_us * 1000.0 - a) / b : 0;
	cset_price(s, h, q, quantum);
	*shape = k->shape == VPMC_CALIB_SHAPE_FAST ? cset_fast(s, fast_ns) : cset_rank(s, 5000);
	return quantum;
}

/* Bisect q (60 halvings) so that the shape statistic meets its target: p50 rises with q on
 * [0, 0.5), the fast fraction on [0, 1). */
static int fit_q(struct cset *s, const struct vpmc_calib *k, double h, double fast_ns, double *q,
		 double *quantum, char *err, size_t errlen)
{
	double lo = 0, hi = k->shape == VPMC_CALIB_SHAPE_FAST ? 1.0 - 0x1p-20 : 0.5, shape_lo,
	       shape_hi, target = k->shape == VPMC_CALIB_SHAPE_FAST ? k->shape_value
								   : k->shape_value * 1000.0;
	int i;

	at_q(s, k, h, lo, fast_ns, &shape_lo);
	at_q(s, k, h, hi, fast_ns, &shape_hi);
	if (!(shape_lo <= target && target <= shape_hi)) {
		snprintf(err, errlen, "the %s target is outside what q in [0, %g) gives (%g to %g)",
			 k->shape == VPMC_CALIB_SHAPE_FAST ? "fast_fraction" : "p50", hi,
			 k->shape == VPMC_CALIB_SHAPE_FAST ? shape_lo : shape_lo / 1000.0,
			 k->shape == VPMC_CALIB_SHAPE_FAST ? shape_hi : shape_hi / 1000.0);
		*q = shape_lo > target ? lo : hi;
		*quantum = at_q(s, k, h, *q, fast_ns, &shape_lo);
		return VPMC_ERR_LIMIT;
	}
	for (i = 0; i < 60; i++) {
		double mid = (lo + hi) / 2, shape;

		at_q(s, k, h, mid, fast_ns, &shape);
		if (shape < target)
			lo = mid;
		else
			hi = mid;
	}
	*q = (lo + hi) / 2;
	*quantum = at_q(s, k, h, *q, fast_ns, &shape_lo);
	return 0;
}

/* The quantum kept: bisect q for the mean, which falls as q rises. */
static double q_for_mean(struct cset *s, const struct vpmc_calib *k, double h, double quantum)
{
	double lo = 0, hi = 1;
	int i;

	for (i = 0; i < 60; i++) {
		double mid = (lo + hi) / 2;

		if (cset_price(s, h, mid, quantum) / 1000.0 > k->drain_mean_us)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

int vpmc_calibrate(const struct vpmc_latency *l, struct vpmc_cost *c, const struct vpmc_calib *k,
		   char *err, size_t errlen)
{
	double fast_ns = vpmc_latency_options(l)->fast_us * 1000.0, h = c->handler_overhead_ns;
	double q = c->drain_extra_p0, quantum = c->drain_extra_quantum_us, a, b, mean, shape;
	struct cset s;
	int rc = 0;

	err[0] = '\0';
	if (k->fit_h && k->free_pol >= 0) {
		rc = cset_make(&s, l, (size_t)k->free_pol, c);
		if (rc)
			return rc;
		cset_linear(&s, 0, 1, &a, &b);
		h = k->free_mean_us * 1000.0 - a;
		cset_free(&s);
		if (!(h >= 0) || h > 1e9) {
			snprintf(err, errlen, "handler_overhead_ns would be %.1f: the trace alone is "
				 "%s the target (change the generator's handler_native_ns)", h,
				 h < 0 ? "above" : "far below");
			c->handler_overhead_ns = h;
			return VPMC_ERR_LIMIT;
		}
	}
	c->handler_overhead_ns = h;
	if (k->drain_pol < 0 || (!k->fit_q && !k->fit_quantum))
		return 0;
	rc = cset_make(&s, l, (size_t)k->drain_pol, c);
	if (rc)
		return rc;
	if (k->fit_q && k->fit_quantum)
		rc = fit_q(&s, k, h, fast_ns, &q, &quantum, err, errlen);
	else if (k->fit_q)
		q = q_for_mean(&s, k, h, quantum);
	else
		quantum = at_q(&s, k, h, q, fast_ns, &shape);
	mean = cset_price(&s, h, q, quantum) / 1000.0;
	if (!rc && (!(quantum >= 0) || quantum > 1e6 || !(q >= 0) || q > 1)) {
		snprintf(err, errlen, "drain_extra_quantum_us would be %g (q %g): out of range",
			 quantum, q);
		rc = VPMC_ERR_LIMIT;
	}
	if (!rc && fabs(mean - k->drain_mean_us) > 0.01 * k->drain_mean_us) {
		snprintf(err, errlen, "the mean target %g is missed by more than 1 %% (%g)",
			 k->drain_mean_us, mean);
		rc = VPMC_ERR_LIMIT;
	}
	c->drain_extra_p0 = q;
	c->drain_extra_quantum_us = quantum;
	cset_free(&s);
	return rc;
}
