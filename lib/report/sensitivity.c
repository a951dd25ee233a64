// SPDX-License-Identifier: GPL-2.0-only
/*
 * sensitivity.c - How the host cost totals, and the ranking of the policies by them, move when
 * an estimated cost parameter takes the low or the high end of its documented range
 * (vpmc_cost_params(); vpmcsim(1), COST MODEL). No second replay: a parameter that only
 * vpmc_cost_us() prices moves a lane's total by vpmc_cost_us() of the lane's counts at the new
 * value minus at the old one; one that per-exit terms price (the v2 draws, the paused/resumed
 * split of each drain) is listed as not varied.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "internal.h"
#include "sensitivity.h"

bool sens_priced(const struct vpmc_cost *c, size_t i)
{
	size_t n;
	const struct vpmc_cost_param_info *t = vpmc_cost_params(&n);

	return i < n && !t[i].latency_only && (vpmc_cost_v2(c) || vpmc_cost_linear(c, i));
}

/* -1, 0 or 1: @a against @b, equal within a relative 1e-9 (summation order). */
static int sens_cmp(double a, double b)
{
	double tol = 1e-9 * fmax(fabs(a), fabs(b));

	return a < b - tol ? -1 : a > b + tol ? 1 : 0;
}

/* Two lanes in a strict order at the profile's values and the other strict order in @end. */
static bool sens_flips(const double *base, const double *end, size_t n)
{
	size_t i, j;

	for (i = 0; i < n; i++) {
		for (j = i + 1; j < n; j++) {
			int b = sens_cmp(base[i], base[j]), e = sens_cmp(end[i], end[j]);

			if (b && e == -b)
				return true;
		}
	}
	return false;
}

int sens_compute(const struct vpmc_replay *rp, struct sens *s)
{
	const struct vpmc_cost *c = vpmc_replay_cost(rp);
	double base[VPMC_REPLAY_MAX_POLICIES];
	struct vpmc_metrics m[VPMC_REPLAY_MAX_POLICIES];
	const struct vpmc_cost_param_info *t;
	size_t i, k, n;
	int err;

	memset(s, 0, sizeof(*s));
	s->nr_lanes = vpmc_replay_nr_policies(rp);
	for (k = 0; k < s->nr_lanes; k++) {
		err = vpmc_replay_metrics(rp, k, -1, -1, &m[k]);
		if (err)
			return err;
		base[k] = m[k].host_us_total;
	}
	t = vpmc_cost_params(&n);
	for (i = 0; i < n && i < VPMC_COST_MAX_PARAMS; i++) {
		enum vpmc_cost_tag tag = vpmc_replay_cost_tag(rp, i);
		struct sens_param *p = &s->p[s->n];
		struct vpmc_cost lo = *c, hi = *c;

		if ((tag != VPMC_COST_TAG_ESTIMATE && tag != VPMC_COST_TAG_DERIVED) ||
		    !(t[i].low < t[i].high) || !sens_priced(c, i))
			continue;
		if (!vpmc_cost_linear(c, i)) {
			s->fixed[s->nr_fixed++] = i;
			continue;
		}
		p->idx = i;
		p->low = t[i].low;
		p->high = t[i].high;
		*(double *)((char *)&lo + t[i].off) = p->low;
		*(double *)((char *)&hi + t[i].off) = p->high;
		for (k = 0; k < s->nr_lanes; k++) {
			double now = vpmc_cost_us(c, m[k].perf_resumes, m[k].perf_creates,
						  m[k].triggers);

			p->us_low[k] = base[k] + vpmc_cost_us(&lo, m[k].perf_resumes,
							      m[k].perf_creates, m[k].triggers) - now;
			p->us_high[k] = base[k] + vpmc_cost_us(&hi, m[k].perf_resumes,
							       m[k].perf_creates, m[k].triggers) - now;
		}
		p->flips = sens_flips(base, p->us_low, s->nr_lanes) ||
			   sens_flips(base, p->us_high, s->nr_lanes);
		s->nr_flips += p->flips;
		s->n++;
	}
	return 0;
}
