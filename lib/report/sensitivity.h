/* SPDX-License-Identifier: GPL-2.0-only */
/* sensitivity.h - Host cost totals at the ends of each estimated cost parameter's range
 * (internal to the report layer). */
#ifndef VPMC_SENSITIVITY_H
#define VPMC_SENSITIVITY_H

#include <stdbool.h>
#include <stddef.h>
#include <vpmc/replay.h>

/* One estimated parameter varied over its documented range. */
struct sens_param {
	size_t idx;       /* vpmc_cost_params() index */
	double low, high; /* the range's ends */
	double us_low[VPMC_REPLAY_MAX_POLICIES], us_high[VPMC_REPLAY_MAX_POLICIES]; /* per lane */
	bool flips;       /* the ranking of the lanes by host us changes at an end */
};

/* The sensitivity of a replay's host cost totals. */
struct sens {
	size_t nr_lanes;
	size_t n;                               /* parameters varied */
	struct sens_param p[VPMC_COST_MAX_PARAMS];
	size_t nr_fixed;                        /* estimated, with a range, priced, not varied */
	size_t fixed[VPMC_COST_MAX_PARAMS];     /* their vpmc_cost_params() indices */
	size_t nr_flips;
};

/* Whether cost parameter @i (vpmc_cost_params() index) prices a replay's host cost under @c:
 * vpmc_cost_us()'s four, and with v2 terms every one that latency alone does not use. */
bool sens_priced(const struct vpmc_cost *c, size_t i);

/**
 * sens_compute() - Each lane's host us in all at the low and the high end of every parameter
 * that the replay priced with, that is tagged estimate or derived and that has a documented
 * range; those that vpmc_cost_us() alone prices are varied from the counts, the others (priced
 * per exit) listed as not varied.
 * @rp: engine after vpmc_replay_finish()
 * @s: filled in
 *
 * Return: 0, or vpmc_replay_metrics()'s error.
 */
int sens_compute(const struct vpmc_replay *rp, struct sens *s);

#endif /* VPMC_SENSITIVITY_H */
