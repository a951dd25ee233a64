/* SPDX-License-Identifier: GPL-2.0-only */
/* latency-local.h - What latency.c and calibrate.c share: one definition of the percentiles. */
#ifndef VPMC_LATENCY_LOCAL_H
#define VPMC_LATENCY_LOCAL_H

#include <vpmc/latency.h>

#include "hist.h"

/* A window's duration @d (ns) as the histogram counts it: clamped at 0, rounded to the ns. */
static inline uint64_t replay_latency_ns(double d)
{
	return d < 0 ? 0 : (uint64_t)(d + 0.5);
}

/* Set s->p50_us, p99_us, p999_us and max_us from @h (its bucket midpoints: memory stays
 * bounded), NAN when @h is empty. */
void replay_latency_percentiles(const struct vpmc_hist *h, struct vpmc_latency_stats *s);

#endif /* VPMC_LATENCY_LOCAL_H */
